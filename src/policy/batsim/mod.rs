//! `batsim`: the decisions of an external scheduler speaking Batsim's protocol.
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
//!   ends), machine events (repairs, failures), REQUESTED_CALLs and
//!   JOB_SUBMITTEDs of `t` travel together, in that order, in one message
//!   sent once the last of them is known (the jobs are known up front, so the
//!   strategy knows whether more submissions are due at `t`). The first
//!   message is SIMULATION_BEGINS (the machines, and the delay profiles of the
//!   trace's jobs); after the last job has finished or been rejected comes
//!   SIMULATION_ENDS.
//! - Kernel "one instant" rule: messages are sent, and decisions applied,
//!   only in `submit` and `wake`; ends, repairs and failures only record their
//!   events and ask for a wake-up at now.
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
//!   not modelled (power states, energy, dynamic jobs) — each ends the point
//!   with an error naming the decision, the job and the simulated time. So
//!   does a scheduler that does not answer within the timeout, exits, or
//!   leaves waiting jobs with nothing running, no call pending and every
//!   machine up (it would never be called again).
//! - Decisions apply at the instant of the request (slasim's clock is whole
//!   seconds; a scheduler's own decision delay is not modelled). A
//!   CALL_ME_LATER at a fractional time is delivered at the next whole second.
//! - The same scheduler answering the same messages gives the same stored
//!   outcomes: nothing here reads the wall clock except the timeout.

pub mod link;
pub mod protocol;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::policy::batsim::link::{Link, LinkError};
use crate::policy::batsim::protocol::{
    Decision, IntervalSet, JobDescription, JobState, WORKLOAD, event, message, parse_reply, simulation_begins,
};
use crate::policy::interface::{Booking, Cluster, RejectReason, Strategy};
use crate::sim::kernel::SimError;
use crate::units::{JobId, NodeId, Time};
use crate::workload::batsim::delay_profile_name;
use crate::workload::job::Job;

/// Where the scheduler is: `[batsim]` in a config, `--scheduler-…` on the command line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatsimConfig {
    /// A command started for each point, `{port}` standing for the TCP port
    /// it must listen on (e.g. `pybatsim easyBackfill -s tcp://127.0.0.1:{port}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A scheduler already listening (e.g. `tcp://127.0.0.1:28000`), used
    /// instead of a command (one point at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// A name for the scheduler, part of the point's identity: an endpoint
    /// alone does not say which scheduler listens there, so two schedulers
    /// served one after the other at one endpoint need two names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Seconds to wait for a reply, or for a started scheduler to listen.
    /// Not part of a point's identity (it changes no outcome).
    #[serde(default = "default_timeout", skip_serializing)]
    pub timeout: f64,
}

fn default_timeout() -> f64 {
    30.0
}

impl Default for BatsimConfig {
    fn default() -> Self {
        BatsimConfig { command: None, endpoint: None, name: None, timeout: default_timeout() }
    }
}

impl BatsimConfig {
    /// Checks that exactly one of command and endpoint is given, and the timeout.
    pub fn validate(&self) -> Result<(), crate::setting::InvalidSetting> {
        use crate::setting::InvalidSetting;
        match (&self.command, &self.endpoint) {
            (Some(_), Some(_)) => {
                return Err(InvalidSetting::new(
                    "batsim",
                    "command and endpoint",
                    "give either a command to start per point or the endpoint of a running scheduler, not both",
                ));
            }
            (None, None) => {
                return Err(InvalidSetting::new(
                    "batsim",
                    "neither command nor endpoint",
                    "the batsim strategy needs a scheduler: on the command line \
                     `--scheduler-command \"CMD {port}\"` (started per point, {port} the port it listens on) or \
                     `--scheduler-endpoint tcp://127.0.0.1:28000` (a running scheduler); in a config, \
                     `[batsim] command` or `endpoint`",
                ));
            }
            (Some(c), None) if !c.contains("{port}") => {
                return Err(InvalidSetting::new(
                    "batsim.command",
                    c,
                    "must contain {port}, the TCP port the scheduler is to listen on",
                ));
            }
            _ => {}
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(InvalidSetting::new(
                "batsim.timeout",
                self.timeout.to_string(),
                "must be a positive number of seconds",
            ));
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unsubmitted,
    Waiting,
    Running { start: Time },
    Finished,
}

/// The strategy: a proxy for an external scheduler.
pub struct Batsim {
    config: Arc<BatsimConfig>,
    capacity: u32,
    link: Option<Link>,
    /// Per job: `w0!NUMBER`.
    names: Vec<String>,
    /// NUMBER → job.
    numbers: HashMap<i64, JobId>,
    /// Per job: (occurrence, runtime, walltime, nodes).
    jobs: Vec<(Time, Time, Time, u32)>,
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
    pending: Vec<Value>,
    /// CALL_ME_LATER times asked for, with how many calls each.
    calls: BTreeMap<Time, u32>,
    begun: bool,
    ended: bool,
    /// The error that ends the run: (simulated time, what).
    error: Option<(Time, String)>,
    nodes: Vec<NodeId>,
    workload_path: String,
}

impl Batsim {
    /// A proxy for the scheduler `config` names, on `capacity` machines.
    pub fn new(config: Arc<BatsimConfig>, capacity: u32) -> Batsim {
        Batsim {
            config,
            capacity,
            link: None,
            names: Vec::new(),
            numbers: HashMap::new(),
            jobs: Vec::new(),
            state: Vec::new(),
            running_on: vec![None; capacity as usize],
            up: vec![true; capacity as usize],
            down: 0,
            running: 0,
            waiting: 0,
            finished: 0,
            submitted: 0,
            pending: Vec::new(),
            calls: BTreeMap::new(),
            begun: false,
            ended: false,
            error: None,
            nodes: Vec::new(),
            workload_path: "slasim".into(),
        }
    }

    /// Messages exchanged with the scheduler so far.
    pub fn messages(&self) -> u64 {
        self.link.as_ref().map_or(0, |l| l.exchanged)
    }

    fn fail_with(&mut self, now: Time, what: String) {
        if self.error.is_none() {
            self.error = Some((now, what));
        }
        if let Some(mut link) = self.link.take() {
            link.close(Duration::ZERO);
        }
    }

    fn dead(&self) -> bool {
        self.error.is_some()
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
        if id as usize >= self.jobs.len() {
            return Err(unknown());
        }
        Ok(id)
    }

    /// More submissions are due at `now`: the message waits for them.
    fn more_submissions_at(&self, now: Time) -> bool {
        self.jobs.get(self.submitted).is_some_and(|j| j.0 == now)
    }

    fn completed(&mut self, c: &mut dyn Cluster, job: JobId, state: JobState) {
        let now = c.now();
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
        let data = json!({
            "job_id": self.names[job as usize],
            "job_state": state.as_str(),
            "return_code": if state == JobState::CompletedSuccessfully { 0 } else { -1 },
            "kill_reason": "",
            "alloc": IntervalSet::from_nodes(&self.nodes).to_string(),
        });
        self.pending.push(event(now, "JOB_COMPLETED", data));
    }

    /// Sends SIMULATION_BEGINS, once.
    fn begin_simulation(&mut self, c: &mut dyn Cluster) {
        if self.begun || self.dead() {
            return;
        }
        self.begun = true;
        let mut runtimes: Vec<Time> = self.jobs.iter().map(|j| j.1).collect();
        runtimes.sort_unstable();
        runtimes.dedup();
        let begins = simulation_begins(self.capacity, &self.workload_path, &runtimes);
        self.exchange(c, 0, vec![begins]);
    }

    /// Sends `events` at `now` and applies the reply; repeats while applying
    /// produced events of the same instant (JOB_KILLED).
    fn exchange(&mut self, c: &mut dyn Cluster, now: Time, mut events: Vec<Value>) {
        while !events.is_empty() && !self.dead() {
            let text = message(now, &events);
            events.clear();
            let Some(link) = self.link.as_mut() else {
                self.fail_with(now, "the scheduler is not connected".into());
                return;
            };
            let reply = match link.request(text) {
                Ok(r) => r,
                Err(e) => {
                    let what = match e {
                        LinkError::Timeout(_) => format!("{e} (the simulation waited for its decisions)"),
                        _ => e.to_string(),
                    };
                    self.fail_with(now, what);
                    return;
                }
            };
            match self.apply(c, now, &reply, &mut events) {
                Ok(()) => {}
                Err(what) => {
                    self.fail_with(now, what);
                    return;
                }
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
        if self.more_submissions_at(now) || self.pending.is_empty() {
            return;
        }
        let events = std::mem::take(&mut self.pending);
        self.exchange(c, now, events);
        if self.dead() {
            return;
        }
        if self.finished as usize == self.jobs.len() && !self.ended {
            self.ended = true;
            self.exchange(c, now, vec![event(now, "SIMULATION_ENDS", json!({}))]);
            if let Some(mut link) = self.link.take() {
                link.close(Duration::from_secs(2));
            }
            return;
        }
        if self.waiting > 0
            && self.running == 0
            && self.calls.is_empty()
            && self.down == 0
            && self.submitted == self.jobs.len()
        {
            let first = self.state.iter().position(|s| *s == State::Waiting).unwrap_or(0);
            self.fail_with(
                now,
                format!(
                    "the scheduler leaves {} submitted jobs waiting (first: {}) with nothing running, no \
                     CALL_ME_LATER pending and every machine up: it would never be called again",
                    self.waiting, self.names[first]
                ),
            );
        }
    }

    /// Applies one reply's decisions at `now`; events they cause go to `out`.
    fn apply(&mut self, c: &mut dyn Cluster, now: Time, reply: &str, out: &mut Vec<Value>) -> Result<(), String> {
        let events = parse_reply(reply, now).map_err(|b| format!("malformed reply: {} {}", b.event, b.why))?;
        for e in &events {
            let (_, decision) = Decision::parse(e).map_err(|b| format!("decision {}: {}", b.event, b.why))?;
            let named = |what: &str, job: &str| format!("decision {what} for job {job}");
            match decision {
                Decision::Execute { job, alloc } => {
                    let id = self.job_named(&job).map_err(|w| format!("{}: {w}", named("EXECUTE_JOB", &job)))?;
                    let (_, _, walltime, res) = self.jobs[id as usize];
                    let why = match self.state[id as usize] {
                        State::Unsubmitted => Some("it has not been submitted yet".to_string()),
                        State::Running { start } => Some(format!("it has been running since t = {start}")),
                        State::Finished => Some("it has already finished or been rejected".to_string()),
                        State::Waiting => None,
                    };
                    if let Some(why) = why {
                        return Err(format!("{} on {alloc}: {why}", named("EXECUTE_JOB", &job)));
                    }
                    if alloc.len() != u64::from(res) {
                        return Err(format!(
                            "{} on {alloc}: {} resources allocated, the job requests {res}",
                            named("EXECUTE_JOB", &job),
                            alloc.len()
                        ));
                    }
                    self.nodes.clear();
                    alloc.members(&mut self.nodes);
                    for &n in &self.nodes {
                        let problem = if n >= self.capacity {
                            Some(format!("resource {n} does not exist (the machines are 0-{})", self.capacity - 1))
                        } else if !self.up[n as usize] {
                            Some(format!("resource {n} is down"))
                        } else {
                            self.running_on[n as usize]
                                .map(|other| format!("resource {n} is busy with job {}", self.names[other as usize]))
                        };
                        if let Some(p) = problem {
                            return Err(format!("{} on {alloc}: {p}", named("EXECUTE_JOB", &job)));
                        }
                    }
                    if !c.start(id, &self.nodes, now + walltime) {
                        return Err(format!(
                            "{} on {alloc}: the cluster refused the start",
                            named("EXECUTE_JOB", &job)
                        ));
                    }
                    c.accept(id, Booking { start: now, end: now + walltime.max(1), overbooked: false, pof: None });
                    for &n in &self.nodes {
                        self.running_on[n as usize] = Some(id);
                    }
                    self.state[id as usize] = State::Running { start: now };
                    self.waiting -= 1;
                    self.running += 1;
                }
                Decision::Reject { job } => {
                    let id = self.job_named(&job).map_err(|w| format!("{}: {w}", named("REJECT_JOB", &job)))?;
                    if self.state[id as usize] != State::Waiting {
                        return Err(format!("{}: it is not waiting", named("REJECT_JOB", &job)));
                    }
                    let reason = if self.jobs[id as usize].3 > self.capacity {
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
                    let mut ids = Vec::new();
                    let mut progress = serde_json::Map::new();
                    for job in &jobs {
                        let id = self.job_named(job).map_err(|w| format!("{}: {w}", named("KILL_JOB", job)))?;
                        if let State::Running { start } = self.state[id as usize] {
                            let (_, runtime, _, _) = self.jobs[id as usize];
                            c.fail(id);
                            self.completed_killed(id);
                            let done = if runtime > 0 { (now - start) as f64 / runtime as f64 } else { 1.0 };
                            progress.insert(
                                job.clone(),
                                json!({"profile": delay_profile_name(runtime), "progress": done.clamp(0.0, 1.0)}),
                            );
                        }
                        ids.push(Value::String(job.clone()));
                    }
                    out.push(event(now, "JOB_KILLED", json!({"job_ids": ids, "job_progress": progress})));
                }
                Decision::CallMeLater { at } => {
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
                Decision::Ignored => {}
            }
        }
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
}

/// The run's error when the external scheduler fails at `at`.
fn external_scheduler(at: Time, what: String) -> SimError {
    SimError::External { party: "external scheduler".into(), at, what }
}

impl Strategy for Batsim {
    fn begin(&mut self, jobs: &[Job]) -> Result<(), SimError> {
        let err = |what: String| external_scheduler(0, what);
        self.config.validate().map_err(|e| err(e.to_string()))?;
        for (i, j) in jobs.iter().enumerate() {
            if j.id as usize != i {
                return Err(err(format!("job {} is at position {i}: jobs must be numbered 0..n in order", j.id)));
            }
            if j.reservation {
                return Err(err("the batsim strategy takes no advance reservations".into()));
            }
        }
        // Job numbers: the trace's own when they are unique, else slasim's ids.
        let numbers = crate::workload::batsim::job_numbers(jobs);
        self.numbers = numbers.iter().zip(jobs).map(|(&n, j)| (n, j.id)).collect();
        self.names = numbers.iter().map(|n| format!("{WORKLOAD}!{n}")).collect();
        self.jobs = jobs.iter().map(|j| (j.occurrence, j.runtime, j.estimate, j.nodes)).collect();
        self.state = vec![State::Unsubmitted; jobs.len()];
        let timeout = Duration::from_secs_f64(self.config.timeout);
        let link = match (&self.config.command, &self.config.endpoint) {
            (Some(command), _) => Link::launch(command, timeout),
            (None, Some(endpoint)) => Link::connect(endpoint, timeout),
            (None, None) => Err(LinkError::Other("no scheduler command or endpoint".into())),
        };
        let link = link.map_err(|e| err(format!("cannot reach the scheduler: {e}")))?;
        self.link = Some(link);
        Ok(())
    }

    fn error(&self) -> Option<SimError> {
        self.error.as_ref().map(|(at, what)| external_scheduler(*at, what.clone()))
    }

    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        if self.dead() {
            return;
        }
        let now = c.now();
        let Some(&(_, _, walltime, res)) = self.jobs.get(job as usize) else {
            self.fail_with(now, format!("job {job} was not in the workload announced at the start"));
            return;
        };
        self.state[job as usize] = State::Waiting;
        self.waiting += 1;
        self.submitted = self.submitted.max(job as usize + 1);
        let profile = delay_profile_name(self.jobs[job as usize].1);
        let name = &self.names[job as usize];
        let description = JobDescription { id: name, subtime: now, res, walltime, profile: &profile };
        self.pending.push(event(now, "JOB_SUBMITTED", json!({"job_id": name, "job": description.to_json()})));
        self.flush(c);
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        if self.dead() {
            return;
        }
        let now = c.now();
        while let Some((&t, &n)) = self.calls.first_key_value() {
            if t > now {
                break;
            }
            self.calls.remove(&t);
            for _ in 0..n {
                self.pending.push(event(now, "REQUESTED_CALL", json!({})));
            }
        }
        self.flush(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        if self.dead() {
            return;
        }
        let State::Running { start } = self.state[job as usize] else { return };
        let (_, runtime, _, _) = self.jobs[job as usize];
        let state = if c.now() - start >= runtime {
            JobState::CompletedSuccessfully
        } else {
            JobState::CompletedWalltimeReached
        };
        self.completed(c, job, state);
        c.wake_at(c.now());
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        if self.dead() {
            return;
        }
        let now = c.now();
        if let Some(job) = victim
            && let State::Running { .. } = self.state[job as usize]
        {
            // The job is lost: Batsim's COMPLETED_FAILED (no resubmission).
            c.fail(job);
            self.completed(c, job, JobState::CompletedFailed);
        }
        if self.up[node as usize] {
            self.up[node as usize] = false;
            self.down += 1;
        }
        let data = json!({"type": "event_machine_unavailable", "resources": node.to_string()});
        self.pending.push(event(now, "NOTIFY", data));
        c.wake_at(now);
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        if self.dead() {
            return;
        }
        let now = c.now();
        if !self.up[node as usize] {
            self.up[node as usize] = true;
            self.down -= 1;
        }
        let data = json!({"type": "event_machine_available", "resources": node.to_string()});
        self.pending.push(event(now, "NOTIFY", data));
        c.wake_at(now);
    }
}
