//! `batsim`: the decisions of a scheduler speaking Batsim's protocol, in
//! another process (over ZeroMQ) or in this one.
//!
//! Reference: Batsim's protocol documentation (oar-team/batsim,
//! `docs/protocol.rst`) in the version pybatsim 3.2.1 reads; Batsim's job
//! states and external machine events (`event_machine_unavailable`,
//! `event_machine_available`).
//!
//! Contract:
//! - slasim plays Batsim: the cluster's events go to the scheduler, its
//!   decisions come back and are applied through the [`Cluster`] interface.
//!   Like the classic modes it is a queueing mode: no deadlines, fees or
//!   acceptance test; a job is accepted when it starts.
//! - One message per instant: at a time `t` the JOB_COMPLETED events (job
//!   ends), machine events (repairs, failures), RESOURCE_STATE_CHANGEDs
//!   (transitions ending at `t`), REQUESTED_CALLs and JOB_SUBMITTEDs of `t`
//!   travel together, in that order, in one message sent once the last of
//!   them is known (the jobs are known up front, so the strategy knows
//!   whether more submissions are due at `t`; it knows when the transitions
//!   it began end, and which wake-ups it asked for). The first message is
//!   SIMULATION_BEGINS (the machines, their power states when the cluster
//!   has a power model, and the delay profiles of the trace's jobs); after
//!   the last job has finished or been rejected comes SIMULATION_ENDS.
//! - Kernel "one instant" rule: messages are sent, and decisions applied,
//!   only in `submit`, `wake` and `power_changed` (a transition's end is a
//!   wake-up); ends, repairs and failures only record their events and ask
//!   for a wake-up at now.
//! - A job runs for its runtime and is killed at its walltime (the estimate):
//!   COMPLETED_SUCCESSFULLY if its runtime fits, else
//!   COMPLETED_WALLTIME_REACHED. A job stopped by a node failure is
//!   COMPLETED_FAILED. KILL_JOB stops a running job at once (its outcome is
//!   `failed`) and is acknowledged by JOB_KILLED in a message at the same
//!   instant.
//! - Decisions are checked: EXECUTE_JOB on a resource that is busy, down or
//!   does not exist, with a resource count other than the job's request, or
//!   for a job that is unknown, not yet submitted, running or finished;
//!   REJECT_JOB of a job not waiting; KILL_JOB of an unknown job;
//!   CALL_ME_LATER in the past; any malformed reply; a decision for what is
//!   not modelled (dynamic jobs, queries other than the consumed energy) —
//!   each ends the point with an error naming the decision, the job and the
//!   simulated time. So does a scheduler that does not answer within the
//!   timeout, exits, or leaves waiting jobs with nothing running, no call
//!   pending, no power state change under way and every machine up (it would
//!   never be called again).
//! - Power states (the cluster's power model, `[energy]` with
//!   `[energy.sleep]`; the scheduler switches the nodes itself, no energy
//!   policy is wrapped around it). The platform has `k =
//!   [energy] compute_pstates` computing pstates `0..k` and the sleep pstate
//!   `k` (with the virtual switching pstates `k+1`, `k+2`, never asked for).
//!   SET_RESOURCE_STATE of a computing pstate switches a sleeping node on;
//!   with `[[energy.pstates]]` (then `k` is their number, and a platform
//!   may have no sleep pstate) it also puts the node, busy or not, in that
//!   pstate: a job running on it continues at the new speed with its work
//!   left kept (DVFS). Without them every computing pstate draws the idle
//!   and busy watts at full speed and an on node is left as it is (a
//!   departure from Batsim); the sleep pstate switches an idle on node off and leaves a
//!   sleeping one as it is. Refused, ending the point: any other pstate
//!   ("state N is not a pstate of the platform"), a node that is busy (asked
//!   to sleep), down, switching (Batsim refuses a change during a
//!   transition) or does not exist, a switch the cluster refuses (the power
//!   cap), and any power decision when the cluster has no power model. A
//!   request is checked whole before any node is switched. When every node
//!   of one request is in its pstate, RESOURCE_STATE_CHANGED {resources,
//!   state} names the request's nodes and pstate: in the message of the
//!   instant the last transition ends, or, when nothing was to wait for
//!   (no-ops, transitions of 0 seconds), in a message right after the
//!   answer, at the same instant (like JOB_KILLED). A node that fails during
//!   its transition is left out of the request's RESOURCE_STATE_CHANGED
//!   (none is sent if no node is left). EXECUTE_JOB on a node not on is
//!   refused.
//! - QUERY `consumed_energy` is answered by ANSWER {consumed_energy: joules}
//!   in a message right after the answer, at the same instant: the joules
//!   the nodes drew since t = 0 (Batsim's origin), integrated here from the
//!   cluster's node states at each event with the watts of the power model
//!   (transitions at their joules over their seconds). The energy table's
//!   window (first submission to last job end) differs.
//! - Decisions apply at the instant of the request (slasim's clock is whole
//!   seconds; a scheduler's own decision delay is not modelled). A
//!   CALL_ME_LATER at a fractional time is delivered at the next whole second.
//! - The same scheduler answering the same messages gives the same stored
//!   outcomes: nothing here reads the wall clock except the timeout.
//! - Where the scheduler is, is a transport's business ([`Scheduler`]): the
//!   ZeroMQ transport ([`remote::Remote`]) for `[batsim] command` or
//!   `endpoint`, or an in-process scheduler ([`InProcess`]). Every check
//!   above is made here, the same for all of them.
//!
//! Layout: [`config`] (which scheduler), [`event`] (what it is told),
//! [`protocol`] (Batsim's JSON and the [`Decision`]s it answers),
//! [`scheduler`] (the transport seam), [`remote`] and [`link`] (ZeroMQ).

pub mod config;
pub mod event;
pub mod link;
pub mod protocol;
pub mod remote;
pub mod scheduler;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::cluster::energy::NodeStates;
use crate::cluster::power::PowerState;
use crate::cluster::strategy::{Booking, Cluster, RejectReason, Strategy};
pub use crate::policy::batsim::config::{BatsimConfig, InProcess};
pub use crate::policy::batsim::event::{Event, JobSpec, KilledJob, Workload};
pub use crate::policy::batsim::protocol::Decision;
use crate::policy::batsim::protocol::{IntervalSet, JobState, WORKLOAD};
use crate::policy::batsim::remote::Remote;
pub use crate::policy::batsim::scheduler::Scheduler;
use crate::workload::job::Job;
use slasim_core::sim::kernel::SimError;
use slasim_core::units::{JobId, NodeId, Time};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unsubmitted,
    Waiting,
    Running { start: Time },
    Finished,
}

/// A SET_RESOURCE_STATE request with transitions under way.
#[derive(Debug, Clone)]
struct PowerRequest {
    /// Its nodes (those that failed during their transition removed).
    nodes: Vec<NodeId>,
    /// The pstate asked for.
    pstate: u32,
    /// Transitions not ended yet.
    left: u32,
}

/// The strategy: a proxy for a scheduler speaking Batsim's protocol.
pub struct Batsim {
    /// Why the configured scheduler cannot be used (reported at `begin`).
    invalid: Option<String>,
    scheduler: Box<dyn Scheduler>,
    /// Started and not stopped.
    connected: bool,
    workload: Workload,
    /// NUMBER → job.
    numbers: HashMap<i64, JobId>,
    state: Vec<State>,
    /// Per node: the job running on it.
    running_on: Vec<Option<JobId>>,
    up: Vec<bool>,
    down: u32,
    running: u32,
    waiting: u32,
    finished: u32,
    /// Jobs submitted so far (they come in id order).
    submitted: usize,
    /// Events of the current instant not sent yet.
    pending: Vec<Event>,
    /// Events being sent (reused between exchanges).
    outgoing: Vec<Event>,
    /// The decisions of the last answer (reused between exchanges).
    decisions: Vec<Decision>,
    /// CALL_ME_LATER times asked for, with how many calls each.
    calls: BTreeMap<Time, u32>,
    begun: bool,
    ended: bool,
    /// The error that ends the run: (simulated time, what).
    error: Option<(Time, String)>,
    nodes: Vec<NodeId>,
    /// Per node: the request whose transition it is in, and when it ends.
    awaiting: Vec<Option<(u64, Time)>>,
    /// Requests with transitions under way, by number.
    requests: HashMap<u64, PowerRequest>,
    next_request: u64,
    /// Transitions under way, by end time.
    transition_ends: BTreeMap<Time, u32>,
    /// A wake-up asked for at this time (an end, failure or repair) and not yet had.
    wake_asked: Option<Time>,
    /// Joules drawn from 0 to `metered_at`, and the watts drawn since.
    joules: f64,
    metered_at: Time,
    watts: Option<f64>,
}

impl Batsim {
    /// A proxy for the scheduler `config` names, on `capacity` machines: its
    /// in-process scheduler, else the command or endpoint over ZeroMQ.
    pub fn new(config: Arc<BatsimConfig>, capacity: u32) -> Batsim {
        let invalid = config.validate().err().map(|e| e.to_string());
        let scheduler: Box<dyn Scheduler> = match &config.in_process {
            Some(make) => make.make(),
            None => Box::new(Remote::new(&config)),
        };
        let mut batsim = Batsim::with_scheduler(scheduler, capacity);
        batsim.invalid = invalid;
        batsim
    }

    /// A proxy for `scheduler`, on `capacity` machines.
    pub fn with_scheduler(scheduler: Box<dyn Scheduler>, capacity: u32) -> Batsim {
        Batsim {
            invalid: None,
            scheduler,
            connected: false,
            workload: Workload { capacity, ..Workload::default() },
            numbers: HashMap::new(),
            state: Vec::new(),
            running_on: vec![None; capacity as usize],
            up: vec![true; capacity as usize],
            down: 0,
            running: 0,
            waiting: 0,
            finished: 0,
            submitted: 0,
            pending: Vec::new(),
            outgoing: Vec::new(),
            decisions: Vec::new(),
            calls: BTreeMap::new(),
            begun: false,
            ended: false,
            error: None,
            nodes: Vec::new(),
            awaiting: vec![None; capacity as usize],
            requests: HashMap::new(),
            next_request: 0,
            transition_ends: BTreeMap::new(),
            wake_asked: None,
            joules: 0.0,
            metered_at: 0,
            watts: None,
        }
    }

    /// Messages exchanged with the scheduler so far.
    pub fn messages(&self) -> u64 {
        self.scheduler.exchanges()
    }

    fn disconnect(&mut self, finished: bool) {
        if self.connected {
            self.connected = false;
            self.scheduler.stop(finished);
        }
    }

    fn fail_with(&mut self, now: Time, what: String) {
        if self.error.is_none() {
            self.error = Some((now, what));
        }
        self.disconnect(false);
    }

    fn dead(&self) -> bool {
        self.error.is_some()
    }

    fn capacity(&self) -> u32 {
        self.workload.capacity
    }

    /// The job a decision names, or why none.
    fn job_named(&self, name: &str) -> Result<JobId, String> {
        let unknown = || format!("job `{name}` is not a job of this workload");
        let number = name
            .strip_prefix(WORKLOAD)
            .and_then(|r| r.strip_prefix('!'))
            .and_then(|n| n.parse::<i64>().ok())
            .ok_or_else(unknown)?;
        let id = *self.numbers.get(&number).ok_or_else(unknown)?;
        if id as usize >= self.workload.jobs.len() {
            return Err(unknown());
        }
        Ok(id)
    }

    /// More events are due at `now` (submissions, transition ends, a
    /// wake-up asked for): the message waits for them.
    fn more_events_at(&self, now: Time) -> bool {
        self.workload.jobs.get(self.submitted).is_some_and(|j| j.submit == now)
            || self.transition_ends.contains_key(&now)
            || self.wake_asked == Some(now)
            || self.calls.first_key_value().is_some_and(|(&t, _)| t <= now)
    }

    /// Asks for a wake-up at now (ends, repairs, failures).
    fn wake_now(&mut self, c: &mut dyn Cluster) {
        self.wake_asked = Some(c.now());
        c.wake_at(c.now());
    }

    /// Integrates the nodes' watts up to now, then reads the watts they draw
    /// from now on (nothing without a power model).
    fn meter(&mut self, c: &dyn Cluster) {
        let Some(model) = c.power_model() else { return };
        let now = c.now();
        let capacity = self.capacity();
        let watts = self.watts.unwrap_or_else(|| NodeStates::default().watts(model, capacity));
        if now > self.metered_at {
            self.joules += watts * (now - self.metered_at) as f64;
            self.metered_at = now;
        }
        self.watts = Some(c.node_states().watts(model, capacity));
    }

    /// Queues RESOURCE_STATE_CHANGED among the instant's pending events:
    /// after the ends and machine events, before the calls and submissions.
    fn state_changed(&mut self, nodes: &[NodeId], pstate: u32) {
        if nodes.is_empty() {
            return;
        }
        let event = Event::ResourceStateChanged { nodes: IntervalSet::from_nodes(nodes), pstate };
        let at = self
            .pending
            .iter()
            .position(|e| matches!(e, Event::RequestedCall | Event::JobSubmitted { .. }))
            .unwrap_or(self.pending.len());
        self.pending.insert(at, event);
    }

    /// `node`'s transition is over (ended, or abandoned by a failure):
    /// true when it was awaited.
    /// What stops a decision on machine `n`: it does not exist, is down, or
    /// (if `busy_matters`) runs a job.
    fn machine_problem(&self, n: NodeId, busy_matters: bool) -> Option<String> {
        let capacity = self.capacity();
        if n >= capacity {
            return Some(format!("resource {n} does not exist (the machines are 0-{})", capacity - 1));
        }
        if !self.up[n as usize] {
            return Some(format!("resource {n} is down"));
        }
        let job = self.running_on[n as usize].filter(|_| busy_matters)?;
        Some(format!("resource {n} is busy with job {}", self.workload.names[job as usize]))
    }

    fn transition_over(&mut self, node: NodeId, failed: bool) -> bool {
        let Some((request, end)) = self.awaiting.get_mut(node as usize).and_then(Option::take) else {
            return false;
        };
        if let Some(n) = self.transition_ends.get_mut(&end) {
            *n -= 1;
            if *n == 0 {
                self.transition_ends.remove(&end);
            }
        }
        let Some(r) = self.requests.get_mut(&request) else { return true };
        r.left -= 1;
        if failed {
            r.nodes.retain(|&n| n != node);
        }
        if r.left == 0
            && let Some(r) = self.requests.remove(&request)
        {
            self.state_changed(&r.nodes, r.pstate);
        }
        true
    }

    fn completed(&mut self, job: JobId, state: JobState) {
        self.nodes.clear();
        for (node, on) in self.running_on.iter_mut().enumerate() {
            if *on == Some(job) {
                *on = None;
                self.nodes.push(node as NodeId);
            }
        }
        self.state[job as usize] = State::Finished;
        self.running -= 1;
        self.finished += 1;
        let alloc = IntervalSet::from_nodes(&self.nodes);
        self.pending.push(Event::JobCompleted { job, state, alloc });
    }

    /// Sends SIMULATION_BEGINS, once.
    fn begin_simulation(&mut self, c: &mut dyn Cluster) {
        if self.begun || self.dead() {
            return;
        }
        self.begun = true;
        self.workload.power = c.power_model().copied();
        self.outgoing.push(Event::SimulationBegins);
        self.exchange(c, 0);
    }

    /// Sends the outgoing events at `now` and applies the answer; repeats
    /// while applying produced events of the same instant (JOB_KILLED).
    fn exchange(&mut self, c: &mut dyn Cluster, now: Time) {
        while !self.outgoing.is_empty() && !self.dead() {
            if !self.connected {
                self.outgoing.clear();
                self.fail_with(now, "the scheduler is not connected".into());
                return;
            }
            let mut decisions = std::mem::take(&mut self.decisions);
            decisions.clear();
            let sent = self.scheduler.exchange(&self.workload, now, &self.outgoing, &mut decisions);
            self.outgoing.clear();
            // The decisions read before a fault of the answer apply first:
            // the first fault in the scheduler's order is the one reported.
            let applied = self.apply(c, now, &decisions);
            self.meter(c);
            decisions.clear();
            self.decisions = decisions;
            if let Err(what) = applied.and(sent) {
                self.outgoing.clear();
                self.fail_with(now, what);
                return;
            }
        }
    }

    /// Sends the events of this instant, if the instant is complete.
    fn flush(&mut self, c: &mut dyn Cluster) {
        if self.dead() {
            return;
        }
        if self.ended {
            // Machine events after the last job are nobody's business.
            self.pending.clear();
            return;
        }
        let now = c.now();
        self.begin_simulation(c);
        if self.more_events_at(now) || self.pending.is_empty() {
            return;
        }
        std::mem::swap(&mut self.pending, &mut self.outgoing);
        self.exchange(c, now);
        if self.dead() {
            return;
        }
        if self.finished as usize == self.workload.jobs.len() && !self.ended {
            self.ended = true;
            self.outgoing.push(Event::SimulationEnds);
            self.exchange(c, now);
            self.disconnect(true);
            return;
        }
        if self.waiting > 0
            && self.running == 0
            && self.calls.is_empty()
            && self.down == 0
            && self.requests.is_empty()
            && self.submitted == self.workload.jobs.len()
        {
            let first = self.state.iter().position(|s| *s == State::Waiting).unwrap_or(0);
            self.fail_with(
                now,
                format!(
                    "the scheduler leaves {} submitted jobs waiting (first: {}) with nothing running, no \
                     CALL_ME_LATER pending, no power state change under way and every machine up: it would \
                     never be called again",
                    self.waiting, self.workload.names[first]
                ),
            );
        }
    }

    /// Applies one answer's decisions at `now`; events they cause go out next.
    fn apply(&mut self, c: &mut dyn Cluster, now: Time, decisions: &[Decision]) -> Result<(), String> {
        let named = |what: &str, job: &str| format!("decision {what} for job {job}");
        for decision in decisions {
            match decision {
                Decision::Execute { job, alloc } => {
                    let id = self.job_named(job).map_err(|w| format!("{}: {w}", named("EXECUTE_JOB", job)))?;
                    let spec = self.workload.jobs[id as usize];
                    let why = match self.state[id as usize] {
                        State::Unsubmitted => Some("it has not been submitted yet".to_string()),
                        State::Running { start } => Some(format!("it has been running since t = {start}")),
                        State::Finished => Some("it has already finished or been rejected".to_string()),
                        State::Waiting => None,
                    };
                    if let Some(why) = why {
                        return Err(format!("{} on {alloc}: {why}", named("EXECUTE_JOB", job)));
                    }
                    if alloc.len() != u64::from(spec.nodes) {
                        return Err(format!(
                            "{} on {alloc}: {} resources allocated, the job requests {}",
                            named("EXECUTE_JOB", job),
                            alloc.len(),
                            spec.nodes
                        ));
                    }
                    self.nodes.clear();
                    alloc.members(&mut self.nodes);
                    for &n in &self.nodes {
                        let problem = self.machine_problem(n, true).or_else(|| match c.power_state(n) {
                            PowerState::On => None,
                            s => Some(format!("resource {n} is {} (not in a computing pstate)", s.as_str())),
                        });
                        if let Some(p) = problem {
                            return Err(format!("{} on {alloc}: {p}", named("EXECUTE_JOB", job)));
                        }
                    }
                    if !c.start(id, &self.nodes, now + spec.walltime) {
                        return Err(format!("{} on {alloc}: the cluster refused the start", named("EXECUTE_JOB", job)));
                    }
                    c.accept(id, Booking { start: now, end: now + spec.walltime.max(1), overbooked: false, pof: None });
                    for &n in &self.nodes {
                        self.running_on[n as usize] = Some(id);
                    }
                    self.state[id as usize] = State::Running { start: now };
                    self.waiting -= 1;
                    self.running += 1;
                }
                Decision::Reject { job } => {
                    let id = self.job_named(job).map_err(|w| format!("{}: {w}", named("REJECT_JOB", job)))?;
                    if self.state[id as usize] != State::Waiting {
                        return Err(format!("{}: it is not waiting", named("REJECT_JOB", job)));
                    }
                    let reason = if self.workload.jobs[id as usize].nodes > self.capacity() {
                        RejectReason::TooWide
                    } else {
                        RejectReason::Scheduler
                    };
                    c.reject(id, reason);
                    self.state[id as usize] = State::Finished;
                    self.waiting -= 1;
                    self.finished += 1;
                }
                Decision::Kill { jobs } => {
                    let mut killed = Vec::with_capacity(jobs.len());
                    for job in jobs {
                        let id = self.job_named(job).map_err(|w| format!("{}: {w}", named("KILL_JOB", job)))?;
                        let mut progress = None;
                        if let State::Running { start } = self.state[id as usize] {
                            let runtime = self.workload.jobs[id as usize].runtime;
                            c.fail(id);
                            self.completed_killed(id);
                            let done = if runtime > 0 { (now - start) as f64 / runtime as f64 } else { 1.0 };
                            progress = Some(done.clamp(0.0, 1.0));
                        }
                        killed.push(KilledJob { job: id, progress });
                    }
                    self.outgoing.push(Event::JobKilled { jobs: killed });
                }
                &Decision::CallMeLater { at } => {
                    if !at.is_finite() || at + 1e-6 < now as f64 {
                        return Err(format!("decision CALL_ME_LATER at {at}: before now = {now}"));
                    }
                    let t = (at - 1e-9).ceil().max(now as f64);
                    if t > (Time::MAX / 4) as f64 {
                        return Err(format!("decision CALL_ME_LATER at {at}: too far in the future"));
                    }
                    let t = t as Time;
                    *self.calls.entry(t).or_insert(0) += 1;
                    c.wake_at(t);
                }
                Decision::SetResourceState { resources, state } => self.set_state(c, now, resources, *state)?,
                Decision::QueryEnergy => {
                    if c.power_model().is_none() {
                        return Err(format!("decision QUERY of consumed_energy: {NO_POWER_MODEL}"));
                    }
                    self.meter(c);
                    self.outgoing.push(Event::EnergyAnswer { joules: self.joules });
                }
                Decision::Ignored => {}
            }
        }
        Ok(())
    }

    /// SET_RESOURCE_STATE of `resources` to pstate `state` at `now`.
    fn set_state(&mut self, c: &mut dyn Cluster, now: Time, resources: &IntervalSet, state: u64) -> Result<(), String> {
        let what = format!("decision SET_RESOURCE_STATE of resources {resources} to state {state}");
        let Some(model) = c.power_model().copied().filter(|m| m.sleep.is_some() || !m.pstates.is_empty()) else {
            return Err(format!("{what}: {NO_POWER_MODEL}"));
        };
        let k = model.computing_pstates();
        let top = if model.sleep.is_some() { k } else { k - 1 };
        if state > u64::from(top) {
            let sleep = if model.sleep.is_some() { format!(", {k} sleep") } else { String::new() };
            return Err(format!(
                "{what}: state {state} is not a pstate of the platform (0-{} computing{sleep})",
                k - 1
            ));
        }
        let dvfs = !model.pstates.is_empty();
        let pstate = state as u32;
        let sleep = pstate == k;
        self.nodes.clear();
        resources.members(&mut self.nodes);
        // The whole request is checked before any node is switched.
        for &n in &self.nodes {
            // A computing pstate may change under a running job (DVFS).
            let problem = self.machine_problem(n, sleep).or_else(|| match c.power_state(n) {
                PowerState::On | PowerState::Asleep => None,
                s => {
                    Some(format!("resource {n} is {} (Batsim refuses a pstate change during a transition)", s.as_str()))
                }
            });
            if let Some(p) = problem {
                return Err(format!("{what}: {p}"));
            }
        }
        let nodes = std::mem::take(&mut self.nodes);
        let id = self.next_request;
        let mut left = 0;
        let mut refused = None;
        for &n in &nodes {
            // DVFS: a computing pstate sets the node's speed, busy or not
            // (a sleeping node keeps it for when it is on).
            if dvfs
                && !sleep
                && let Err(why) = c.set_pstate(n, pstate)
            {
                refused = Some(format!("{what}: the cluster refused to set resource {n}'s pstate: {why}"));
                break;
            }
            let switched = match (c.power_state(n), sleep) {
                (PowerState::On, true) => c.switch_off(n),
                (PowerState::Asleep, false) => c.switch_on(n),
                _ => continue, // already in a pstate of the kind asked for
            };
            if let Err(why) = switched {
                refused = Some(format!("{what}: the cluster refused to switch resource {n}: {why}"));
                break;
            }
            let target = if sleep { PowerState::Asleep } else { PowerState::On };
            if c.power_state(n) != target {
                let seconds = model.sleep.map_or(0, |s| if sleep { s.switch_off_seconds } else { s.switch_on_seconds });
                let end = now + seconds;
                self.awaiting[n as usize] = Some((id, end));
                *self.transition_ends.entry(end).or_insert(0) += 1;
                left += 1;
            }
        }
        if let Some(refused) = refused {
            self.nodes = nodes;
            return Err(refused);
        }
        if left == 0 {
            self.outgoing.push(Event::ResourceStateChanged { nodes: resources.clone(), pstate });
        } else {
            self.next_request += 1;
            self.requests.insert(id, PowerRequest { nodes: nodes.clone(), pstate, left });
        }
        self.nodes = nodes;
        Ok(())
    }

    fn completed_killed(&mut self, job: JobId) {
        for on in self.running_on.iter_mut() {
            if *on == Some(job) {
                *on = None;
            }
        }
        self.state[job as usize] = State::Finished;
        self.running -= 1;
        self.finished += 1;
    }

    /// The run's error when the scheduler fails at `at`.
    fn failure(&self, at: Time, what: String) -> SimError {
        SimError::External { party: self.scheduler.party().to_string(), at, what }
    }
}

/// Why a power decision is refused without a power model.
const NO_POWER_MODEL: &str = "the cluster has no power model: add [energy] with [energy.sleep] or [[energy.pstates]]";

impl Strategy for Batsim {
    fn begin(&mut self, jobs: &[Job]) -> Result<(), SimError> {
        if let Some(invalid) = &self.invalid {
            return Err(self.failure(0, invalid.clone()));
        }
        for (i, j) in jobs.iter().enumerate() {
            if j.id as usize != i {
                return Err(
                    self.failure(0, format!("job {} is at position {i}: jobs must be numbered 0..n in order", j.id))
                );
            }
            if j.reservation {
                return Err(self.failure(0, "the batsim strategy takes no advance reservations".into()));
            }
        }
        // Job numbers: the trace's own when they are unique, else slasim's ids.
        self.workload = Workload::new(self.capacity(), jobs);
        self.numbers = self.workload.numbers.iter().zip(jobs).map(|(&n, j)| (n, j.id)).collect();
        self.state = vec![State::Unsubmitted; jobs.len()];
        self.scheduler.start(&self.workload).map_err(|what| self.failure(0, what))?;
        self.connected = true;
        Ok(())
    }

    fn error(&self) -> Option<SimError> {
        self.error.as_ref().map(|(at, what)| self.failure(*at, what.clone()))
    }

    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        if self.dead() {
            return;
        }
        self.meter(c);
        let now = c.now();
        if job as usize >= self.workload.jobs.len() {
            self.fail_with(now, format!("job {job} was not in the workload announced at the start"));
            return;
        }
        self.state[job as usize] = State::Waiting;
        self.waiting += 1;
        self.submitted = self.submitted.max(job as usize + 1);
        self.pending.push(Event::JobSubmitted { job });
        self.flush(c);
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        if self.dead() {
            return;
        }
        self.meter(c);
        let now = c.now();
        if self.wake_asked.is_some_and(|t| t <= now) {
            self.wake_asked = None;
        }
        while let Some((&t, &n)) = self.calls.first_key_value() {
            if t > now {
                break;
            }
            self.calls.remove(&t);
            for _ in 0..n {
                self.pending.push(Event::RequestedCall);
            }
        }
        self.flush(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        if self.dead() {
            return;
        }
        self.meter(c);
        let State::Running { start } = self.state[job as usize] else { return };
        let runtime = self.workload.jobs[job as usize].runtime;
        let state = if c.now() - start >= runtime {
            JobState::CompletedSuccessfully
        } else {
            JobState::CompletedWalltimeReached
        };
        self.completed(job, state);
        self.wake_now(c);
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        if self.dead() {
            return;
        }
        self.meter(c);
        if let Some(job) = victim
            && let State::Running { .. } = self.state[job as usize]
        {
            // The job is lost: Batsim's COMPLETED_FAILED (no resubmission).
            c.fail(job);
            self.completed(job, JobState::CompletedFailed);
        }
        if self.up[node as usize] {
            self.up[node as usize] = false;
            self.down += 1;
        }
        self.pending.push(Event::MachineUnavailable { node });
        self.transition_over(node, true);
        self.wake_now(c);
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        if self.dead() {
            return;
        }
        self.meter(c);
        if !self.up[node as usize] {
            self.up[node as usize] = true;
            self.down -= 1;
        }
        self.pending.push(Event::MachineAvailable { node });
        self.wake_now(c);
    }

    fn power_changed(&mut self, c: &mut dyn Cluster, node: NodeId, _state: PowerState) {
        if self.dead() {
            return;
        }
        self.meter(c);
        // Handled with the repairs: the event goes out at the wake-up of now.
        if self.transition_over(node, false) {
            self.wake_now(c);
        }
    }
}
