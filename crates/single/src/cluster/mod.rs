//! A cluster: nodes, running jobs and outcomes (the mechanics), driven by a
//! [`Strategy`] (the decisions).
//!
//! Reference: `overbooking-dissertation-spec.md` §6.2 (events), §6.3 (outcome
//! rules), §6.5.
//!
//! Contract:
//! - A job runs on whole nodes from its start until it completes its real
//!   runtime ω or reaches its kill time, whichever is first. Restarts after
//!   node failures run from scratch (or from the last checkpoint).
//! - Outcome at the end of an execution: completed → success; killed after
//!   receiving at least its estimate x → success (the user misestimated);
//!   killed earlier → failed, the provider pays the penalty — unless
//!   checkpointing is on and the job was overbooked (paper A): then it writes
//!   a checkpoint (its progress minus the checkpoint time is saved), waits
//!   without an outcome, and the strategy books the rest
//!   ([`Cluster::resumable`]) or fails it. A resumed execution first spends
//!   the restart time restoring.
//! - A node failure stops the job running on it (its other nodes become idle)
//!   and the strategy decides whether it restarts or fails; stale end events of
//!   stopped executions are ignored.
//! - A strategy starts jobs only from `submit` and `wake`: handling an end, a
//!   repair, a failure or the end of a node's power transition it asks for a
//!   wake-up at now instead (the kernel's
//!   "one instant" rule). A start made there is refused and ends the run
//!   with [`SimError::Contract`].
//! - The cluster is given its jobs up front, by id, shared with the run
//!   ([`by_id`]); a submission registers one, and its record holds what the
//!   run decided, not a copy of the job ([`ClusterResult::records`]).
//! - Everything the cluster schedules goes to the kernel through the outbox;
//!   nothing here reads the wall clock.
//! - The cluster holds no service. What drives it ([`Drive`]) is its
//!   strategy and whatever is attached around the strategy from outside: a
//!   service answering its own questions at once (the Grid's local
//!   reservation service), a decorator keeping its own record. Each question
//!   is answered with the strategy and the cluster at hand, and the answer
//!   goes to the asker's input in the service's class. A plain boxed strategy
//!   attaches nothing: its question type is uninhabited, so the single-cluster
//!   path has no branch, dispatch or allocation for it.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::Arc;

use crate::cluster::cap::CapSeries;
use crate::cluster::checkpoint::CheckpointConfig;
use crate::cluster::energy::{EnergyConfig, NodeStates};
use crate::cluster::power::{Activity, NodePower, PowerEventRecord, PowerRefusal, PowerState};
use crate::cluster::record::{JobRecord, NodeEventRecord, Outcome, RunRecords};
use crate::cluster::strategy::RunningJob;
use crate::cluster::strategy::{Booking, Cluster, RejectReason, Strategy};
use crate::workload::failures::{NodeEvent, NodeEventKind};
use crate::workload::job::Job;
use slasim_core::sim::kernel::{Class, Model, Outbox, Scheduled, SimError};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::{Output, Receive, Request};
use slasim_core::units::{JobId, NodeId, Time};

pub mod bench;
pub mod cap;
pub mod carbon;
pub mod checkpoint;
pub mod energy;
pub mod injector;
pub mod instant;
pub mod power;
pub mod record;
pub mod strategy;
pub mod view;

/// A message for a cluster (its planning scheduler and nodes), asked
/// questions `Q` answered with `A` by what is attached to it (none by default).
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterMsg<Q = Infallible, A = Infallible> {
    /// A job occurs and asks for an SLA.
    Submit(Job),
    /// A wake-up the cluster asked for (planned starts).
    Wake,
    /// A job's execution ends (completion or kill); stale if `run` is old.
    JobEnd {
        /// The job.
        job: JobId,
        /// Which execution of it (restarts bump it).
        run: u32,
    },
    /// A node goes down.
    NodeFailure(NodeId),
    /// A node comes back.
    NodeRepair(NodeId),
    /// A question for a service attached to the cluster, and where its answer goes.
    Ask(Request<Q, A>),
    /// A node's power transition ends; stale if `generation` is old.
    PowerSwitched {
        /// The node.
        node: NodeId,
        /// Its transition generation when the transition began.
        generation: u32,
    },
}

/// What drives a cluster: its strategy, and what is attached around it from
/// outside. The cluster calls [`Drive::strategy`] at each event and hands
/// each question to [`Drive::answer`]; [`Drive::report`] is what it adds to
/// the cluster's result.
pub trait Drive: Send + 'static {
    /// Questions an attached service answers.
    type Question: Send + 'static;
    /// Its answers.
    type Answer: Send + 'static;
    /// What it hands back at the end of a run, beside the cluster's records.
    type Report: Send + 'static;
    /// The class answers are sent in.
    const ANSWER_CLASS: Class = instant::NEGOTIATION;

    /// The strategy the cluster calls at each event.
    fn strategy(&mut self) -> &mut dyn Strategy;
    /// Answers `question` at once, with the cluster at hand.
    fn answer(&mut self, question: Self::Question, cluster: &mut dyn Cluster) -> Self::Answer;
    /// Its report at the end of the run.
    fn report(&mut self) -> Self::Report;
    /// An error of the strategy that ends the run ([`Strategy::error`]).
    fn error(&self) -> Option<SimError>;
}

/// A plain strategy: nothing attached, no question, nothing to report.
impl Drive for Box<dyn Strategy> {
    type Question = Infallible;
    type Answer = Infallible;
    type Report = ();

    fn strategy(&mut self) -> &mut dyn Strategy {
        &mut **self
    }

    fn answer(&mut self, question: Infallible, _: &mut dyn Cluster) -> Infallible {
        match question {}
    }

    fn report(&mut self) {}

    fn error(&self) -> Option<SimError> {
        (**self).error()
    }
}

/// The messages of a cluster driven by `D`.
pub type MsgOf<D> = ClusterMsg<<D as Drive>::Question, <D as Drive>::Answer>;

/// A fixed-size set of node ids, iterated in ascending order.
#[derive(Debug, Clone)]
pub struct NodeSet {
    words: Vec<u64>,
    len: u32,
}

impl NodeSet {
    /// How many nodes are in the set.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the set has no node.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn full(nodes: u32) -> NodeSet {
        let mut words = vec![u64::MAX; nodes.div_ceil(64) as usize];
        if nodes % 64 != 0
            && let Some(last) = words.last_mut()
        {
            *last = (1u64 << (nodes % 64)) - 1;
        }
        NodeSet { words, len: nodes }
    }

    pub fn insert(&mut self, node: NodeId) {
        let (w, b) = ((node / 64) as usize, node % 64);
        if self.words[w] & (1 << b) == 0 {
            self.words[w] |= 1 << b;
            self.len += 1;
        }
    }

    pub fn remove(&mut self, node: NodeId) {
        let (w, b) = ((node / 64) as usize, node % 64);
        if self.words[w] & (1 << b) != 0 {
            self.words[w] &= !(1 << b);
            self.len -= 1;
        }
    }

    pub fn contains(&self, node: NodeId) -> bool {
        self.words[(node / 64) as usize] & (1 << (node % 64)) != 0
    }

    /// Appends the `n` smallest members to `out`.
    pub fn lowest(&self, n: u32, out: &mut Vec<NodeId>) {
        let mut left = n;
        for (w, &word) in self.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 && left > 0 {
                out.push(w as u32 * 64 + bits.trailing_zeros());
                bits &= bits - 1;
                left -= 1;
            }
            if left == 0 {
                return;
            }
        }
    }
}

/// The current (or last) execution of a job.
#[derive(Debug, Clone, Copy, Default)]
struct Execution {
    run: u32,
    running: bool,
    start: Time,
    first_node: u32,
    nodes: u32,
    /// Restore time at the start of this execution (a resumed checkpoint).
    overhead: Time,
    /// Checkpointed at its kill, waiting for the strategy to resume it.
    suspended: bool,
    /// When the strategy kills it.
    kill_at: Time,
}

/// DVFS: how an execution advances, kept beside [`Execution`] only when
/// the nodes have computing pstates (a run without DVFS neither stores nor
/// reads it).
#[derive(Debug, Clone, Copy, Default)]
struct Pace {
    /// The work of the execution (nominal seconds, restore included).
    work: Time,
    /// Its speed since `seg_start`.
    speed: f64,
    seg_start: Time,
    /// Work done before `seg_start`.
    done: f64,
    /// It ran at a speed other than 1.
    scaled: bool,
}

impl Pace {
    /// Work done by `now` (nominal seconds).
    fn work_done(&self, now: Time) -> f64 {
        self.done + (now - self.seg_start) as f64 * self.speed
    }

    /// When work `left` ends at the current speed from `now`: rounded up
    /// to the second, never past `kill_at`.
    fn end_at(&self, now: Time, left: f64, kill_at: Time) -> Time {
        let seconds = if self.speed == 1.0 { left.ceil() } else { (left / self.speed - 1e-9).ceil() };
        (now + seconds.max(0.0) as Time).min(kill_at.max(now))
    }
}

/// A speed an execution ran at from `time` on (with DVFS and the
/// execution list): the record work conservation is checked on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedRecord {
    /// From when.
    pub time: Time,
    /// The job.
    pub job: JobId,
    /// Its speed from then on, until its next record or the execution's end.
    pub speed: f64,
}

/// The mechanics of one cluster driven by `D`; strategies see it as a [`Cluster`].
pub struct ClusterCore<D: Drive> {
    me: usize,
    now: Time,
    capacity: u32,
    /// Its jobs by id, shared with the run (a record holds no copy).
    jobs: Arc<[Job]>,
    /// One record per submitted job, by id.
    records: Vec<JobRecord>,
    executions: Vec<Execution>,
    up: Vec<bool>,
    running_on: Vec<Option<JobId>>,
    idle_up: NodeSet,
    /// Nodes running a job, and nodes down (for a meter).
    busy: u32,
    down: u32,
    /// Node lists of executions, appended at each start (cleared whenever no
    /// job runs, if the executions are not handed back).
    arena: Vec<NodeId>,
    wakes: BTreeSet<Time>,
    outbox: Outbox<MsgOf<D>>,
    node_events: Vec<NodeEventRecord>,
    /// Finished executions: (job, start, end, first node in the arena, nodes).
    log: Vec<(JobId, Time, Time, u32, u32)>,
    /// Checkpoint/restart of killed overbooked jobs, when enabled.
    checkpoint: Option<CheckpointConfig>,
    /// Hand the executions back at the end (tests check them; a stored run
    /// does not need them).
    keep_executions: bool,
    /// Handling an end, a repair or a failure: no job may start (kernel
    /// contract, "one instant").
    settling: bool,
    /// The first start the strategy made while settling: the run's error.
    broken: Option<(Time, JobId)>,
    /// A defect the strategy reported: the run's error.
    defect: Option<(Time, String)>,
    /// Node power states and the cap, with a power model.
    power: Option<NodePower>,
    /// A start was refused for the cap: wake the strategy when power frees.
    cap_refused: bool,
    /// The strategy suspended in the event being handled, waiting for the
    /// caller; the node states before that event, for the meter (boxed:
    /// only an environment's cluster ever waits).
    awaiting_caller: Option<Box<NodeStates>>,
    /// Speeds of executions (DVFS with the execution list).
    speeds: Vec<SpeedRecord>,
    /// DVFS: each job's pace, by job id (empty without computing pstates).
    paces: Vec<Pace>,
}

impl<D: Drive> ClusterCore<D> {
    /// A cluster of `capacity` nodes, all up, that runs `jobs` (by id, see
    /// [`by_id`]); `me` is its address.
    pub fn new(me: usize, capacity: u32, jobs: Arc<[Job]>, checkpoint: Option<CheckpointConfig>) -> ClusterCore<D> {
        // The per-job vectors at their final size up front, not doubling (a
        // quarter of their memory on a whole log).
        let n = jobs.len();
        ClusterCore {
            me,
            now: 0,
            capacity,
            jobs,
            records: Vec::with_capacity(n),
            executions: Vec::with_capacity(n),
            up: vec![true; capacity as usize],
            running_on: vec![None; capacity as usize],
            idle_up: NodeSet::full(capacity),
            busy: 0,
            down: 0,
            arena: Vec::new(),
            wakes: BTreeSet::new(),
            outbox: Vec::new(),
            node_events: Vec::new(),
            log: Vec::new(),
            checkpoint: checkpoint.filter(|c| c.enabled),
            keep_executions: true,
            settling: false,
            broken: None,
            defect: None,
            power: None,
            cap_refused: false,
            awaiting_caller: None,
            speeds: Vec::new(),
            paces: Vec::new(),
        }
    }

    /// Node states for a meter.
    fn states(&self, job_ended: bool) -> NodeStates {
        let counts = self.power.as_ref().map(NodePower::counts).unwrap_or_default();
        NodeStates { busy: self.busy, down: self.down, job_ended, ..counts }
    }

    /// A transition of `node` ending at `end`, if not immediate.
    fn transition(&mut self, node: NodeId, end: Option<Time>) {
        if let (Some(end), Some(p)) = (end, &self.power) {
            let generation = p.generation(node);
            self.schedule(end, instant::NODE_REPAIR, ClusterMsg::PowerSwitched { node, generation });
        }
    }

    /// Ends a transition of `node`; the state it entered, or `None` if stale.
    fn switched(&mut self, node: NodeId, generation: u32) -> Option<PowerState> {
        let now = self.now;
        let p = self.power.as_mut()?;
        if p.generation(node) != generation || !self.up[node as usize] {
            return None;
        }
        match p.state(node) {
            PowerState::SwitchingOff => {
                p.set(now, node, Activity::Idle, PowerState::Asleep);
                if p.take_want_on(node) {
                    return match p.begin_on(now, node) {
                        Ok(None) => {
                            self.idle_up.insert(node);
                            Some(PowerState::On)
                        }
                        Ok(end) => {
                            self.transition(node, end);
                            Some(PowerState::Asleep)
                        }
                        Err(_) => Some(PowerState::Asleep),
                    };
                }
                Some(PowerState::Asleep)
            }
            PowerState::SwitchingOn => {
                p.set(now, node, Activity::Idle, PowerState::On);
                self.idle_up.insert(node);
                Some(PowerState::On)
            }
            PowerState::On | PowerState::Asleep => None,
        }
    }

    fn schedule(&mut self, time: Time, class: Class, msg: MsgOf<D>) {
        self.outbox.push(Scheduled::me(time, class, msg));
    }

    fn register(&mut self, job: &Job) {
        debug_assert_eq!(self.jobs.get(job.id as usize), Some(job), "a job the cluster was not given");
        let id = job.id as usize;
        if id >= self.records.len() {
            self.records.extend((self.records.len() as JobId..=job.id).map(JobRecord::new));
            self.executions.resize(id + 1, Execution::default());
        }
        self.records[id] = JobRecord::new(job.id);
    }

    /// Stops `id`'s execution now, freeing its nodes; returns the run time it got.
    fn stop(&mut self, id: JobId) -> Time {
        let e = &mut self.executions[id as usize];
        e.running = false;
        e.run += 1;
        let (start, first, count) = (e.start, e.first_node as usize, e.nodes as usize);
        self.busy -= count as u32;
        for &node in &self.arena[first..first + count] {
            self.running_on[node as usize] = None;
            if self.up[node as usize] {
                self.idle_up.insert(node);
                if let Some(p) = &mut self.power {
                    p.set(self.now, node, Activity::Idle, PowerState::On);
                }
            }
        }
        let ran = self.now - start;
        if self.keep_executions {
            self.log.push((id, start, self.now, first as u32, count as u32));
        } else if self.busy == 0 {
            // No execution's node list is read again: reuse the arena.
            self.arena.clear();
        }
        let record = &mut self.records[id as usize];
        record.executed += ran;
        record.actual_end = Some(self.now);
        ran
    }

    /// Handles a job end event; true if it ended a live execution.
    fn end(&mut self, id: JobId, run: u32) -> bool {
        let e = self.executions[id as usize];
        if !e.running || e.run != run {
            return false;
        }
        let ran = self.stop(id);
        // With DVFS the work done, not the time, counts (to the second).
        let ran = match self.paces.get(id as usize) {
            Some(p) if p.scaled => (p.work_done(self.now) + 1e-6).floor() as Time,
            _ => ran,
        };
        let record = &mut self.records[id as usize];
        let job = &self.jobs[id as usize];
        let useful = (ran - e.overhead).max(0);
        let done = record.saved + useful;
        // Completed, or killed after receiving the whole estimate: the SLA holds.
        let success = done >= job.runtime || done >= job.estimate;
        record.outcome = if success {
            Some(Outcome::Success)
        } else if let (Some(c), true) = (self.checkpoint, record.overbooked) {
            record.saved += (useful - c.checkpoint_seconds).max(0);
            record.checkpoints += 1;
            self.executions[id as usize].suspended = true;
            None
        } else {
            Some(Outcome::Failed)
        };
        true
    }

    fn node_failure(&mut self, node: NodeId) -> Option<Option<JobId>> {
        if !self.up[node as usize] {
            return None;
        }
        self.up[node as usize] = false;
        self.down += 1;
        self.idle_up.remove(node);
        let victim = self.running_on[node as usize];
        if let Some(job) = victim {
            self.stop(job);
        }
        if let Some(p) = &mut self.power {
            p.fail(self.now, node);
        }
        self.node_events.push(NodeEventRecord { time: self.now, node, kind: NodeEventKind::Fail, job: victim });
        Some(victim)
    }

    fn node_repair(&mut self, node: NodeId) -> bool {
        if self.up[node as usize] {
            return false;
        }
        self.up[node as usize] = true;
        self.down -= 1;
        let on = self.power.as_mut().is_none_or(|p| p.repair(self.now, node));
        if on && self.running_on[node as usize].is_none() {
            self.idle_up.insert(node);
        }
        self.node_events.push(NodeEventRecord { time: self.now, node, kind: NodeEventKind::Repair, job: None });
        true
    }

    /// The records and node events, closing any job still open as failed
    /// (counted; a correct strategy leaves none).
    fn finish(&mut self, report: D::Report) -> ClusterResult<D::Report> {
        let mut unresolved = 0;
        for r in &mut self.records {
            if r.outcome.is_none() {
                unresolved += 1;
                r.outcome = Some(if r.accepted { Outcome::Failed } else { Outcome::Rejected });
            }
        }
        let log = if self.keep_executions { self.log.as_slice() } else { &[] };
        let executions = log
            .iter()
            .map(|&(job, start, end, first, count)| ExecutionRecord {
                job,
                start,
                end,
                nodes: self.arena[first as usize..(first + count) as usize].to_vec(),
            })
            .collect();
        ClusterResult {
            records: RunRecords { jobs: Arc::clone(&self.jobs), records: std::mem::take(&mut self.records) },
            node_events: std::mem::take(&mut self.node_events),
            executions,
            unresolved,
            power_events: self.power.as_mut().map(NodePower::take_log).unwrap_or_default(),
            speeds: std::mem::take(&mut self.speeds),
            report,
        }
    }
}

impl<D: Drive> Cluster for ClusterCore<D> {
    fn now(&self) -> Time {
        self.now
    }

    fn capacity(&self) -> u32 {
        self.capacity
    }

    fn job(&self, id: JobId) -> &Job {
        &self.jobs[id as usize]
    }

    fn accept(&mut self, id: JobId, booking: Booking) {
        let r = &mut self.records[id as usize];
        r.accepted = true;
        r.planned_start = Some(booking.start);
        r.planned_end = Some(booking.end);
        r.overbooked = booking.overbooked;
        r.pof = booking.pof;
    }

    fn reject(&mut self, id: JobId, reason: RejectReason) {
        let r = &mut self.records[id as usize];
        r.outcome = Some(Outcome::Rejected);
        r.reject_reason = Some(reason);
    }

    fn moved(&mut self, id: JobId) {
        self.records[id as usize].moves += 1;
    }

    fn pin(&mut self, id: JobId) {
        self.records[id as usize].pinned = true;
    }

    fn resumable(&self, id: JobId) -> Option<Time> {
        let (c, e) = (self.checkpoint?, &self.executions[id as usize]);
        if !e.suspended {
            return None;
        }
        let (job, saved) = (&self.jobs[id as usize], self.records[id as usize].saved);
        Some((job.estimate - saved).max(1) + c.restart_seconds)
    }

    fn fail(&mut self, id: JobId) {
        if self.executions[id as usize].running {
            self.stop(id);
        }
        self.executions[id as usize].suspended = false;
        self.records[id as usize].outcome = Some(Outcome::Failed);
    }

    fn defect(&mut self, what: &str) {
        self.defect.get_or_insert_with(|| (self.now, what.to_string()));
    }

    fn suspend(&mut self) {
        if self.settling {
            self.defect("it suspended while handling a job end, a node repair or a node failure");
        }
        self.awaiting_caller = Some(Box::new(self.states(false)));
    }

    fn outcome(&self, id: JobId) -> Option<Outcome> {
        self.records.get(id as usize)?.outcome
    }

    fn start(&mut self, id: JobId, nodes: &[NodeId], kill_at: Time) -> bool {
        if self.settling {
            self.broken.get_or_insert((self.now, id));
            return false;
        }
        if !self.nodes_ready(nodes) {
            return false;
        }
        if let Some(p) = &mut self.power {
            // No execution runs past its kill time: its nodes commit busy watts until then.
            let (now, end) = (self.now, kill_at.max(self.now));
            let idle = (Activity::Idle, PowerState::On);
            if !p.room_until(now, nodes, (Activity::Busy, PowerState::On), end, idle) {
                self.cap_refused = true;
                // A cap series: try again when the cap has room, if ever (else at an event).
                if let Some(t) = p.earliest_run(now, nodes, end - now) {
                    self.wake_at(t);
                }
                return false;
            }
            for &node in nodes {
                p.set(now, node, Activity::Busy, PowerState::On);
                p.falls_at(node, end);
            }
        }
        let first_node = self.arena.len() as u32;
        self.busy += nodes.len() as u32;
        for &node in nodes {
            self.running_on[node as usize] = Some(id);
            self.idle_up.remove(node);
            self.arena.push(node);
        }
        let record = &mut self.records[id as usize];
        // A resumed checkpoint restores first, then does the work left.
        let overhead = match self.checkpoint {
            Some(c) if record.checkpoints > 0 => c.restart_seconds,
            _ => 0,
        };
        let work = (self.jobs[id as usize].runtime - record.saved).max(0) + overhead;
        if record.actual_start.is_some() {
            record.restarts += 1;
        }
        record.actual_start = Some(self.now);
        record.actual_end = None;
        let e = &mut self.executions[id as usize];
        e.running = true;
        e.suspended = false;
        e.start = self.now;
        e.first_node = first_node;
        e.nodes = nodes.len() as u32;
        e.overhead = overhead;
        e.kill_at = kill_at;
        let run = e.run;
        let end = if self.has_pstates() {
            let speed = self.speed_of(id);
            let i = id as usize;
            if self.paces.len() <= i {
                self.paces.resize(i + 1, Pace::default());
            }
            let pace = Pace { work, speed, seg_start: self.now, done: 0.0, scaled: speed != 1.0 };
            self.paces[i] = pace;
            if self.keep_executions {
                self.speeds.push(SpeedRecord { time: self.now, job: id, speed });
            }
            pace.end_at(self.now, work as f64, kill_at)
        } else {
            (self.now + work).min(kill_at.max(self.now))
        };
        self.schedule(end, instant::JOB_END, ClusterMsg::JobEnd { job: id, run });
        true
    }

    fn idle_nodes(&self, n: u32, out: &mut Vec<NodeId>) -> bool {
        out.clear();
        if self.idle_up.len < n {
            return false;
        }
        self.idle_up.lowest(n, out);
        true
    }

    fn nodes_ready(&self, nodes: &[NodeId]) -> bool {
        nodes.iter().all(|&n| self.idle_up.contains(n))
    }

    fn wake_at(&mut self, t: Time) {
        let t = t.max(self.now);
        if self.wakes.insert(t) {
            self.schedule(t, instant::JOB_START, ClusterMsg::Wake);
        }
    }

    fn power_model(&self) -> Option<&EnergyConfig> {
        self.power.as_ref().map(NodePower::model)
    }

    fn power_state(&self, node: NodeId) -> PowerState {
        self.power.as_ref().filter(|_| node < self.capacity).map_or(PowerState::On, |p| p.state(node))
    }

    fn idle_since(&self, node: NodeId) -> Time {
        self.power.as_ref().filter(|_| node < self.capacity).map_or(0, |p| p.idle_since(node))
    }

    fn node_states(&self) -> NodeStates {
        self.states(false)
    }

    fn idle_count(&self) -> u32 {
        self.idle_up.len
    }

    fn nodes_in(&self, state: PowerState, idle_only: bool, out: &mut Vec<NodeId>) {
        out.clear();
        let Some(p) = &self.power else { return };
        out.extend(
            (0..self.capacity)
                .filter(|&n| p.state(n) == state && self.up[n as usize] && (!idle_only || self.idle_up.contains(n))),
        );
    }

    fn switch_off(&mut self, node: NodeId) -> Result<(), PowerRefusal> {
        self.check_switch(node, PowerState::On)?;
        let p = self.power.as_mut().ok_or(PowerRefusal::NoSleepState)?;
        let end = p.begin_off(self.now, node)?;
        self.idle_up.remove(node);
        self.transition(node, end);
        Ok(())
    }

    fn pstate(&self, node: NodeId) -> u32 {
        self.power.as_ref().filter(|_| node < self.capacity).map_or(0, |p| p.pstate(node))
    }

    fn set_pstate(&mut self, node: NodeId, pstate: u32) -> Result<(), PowerRefusal> {
        let p = self.power.as_mut().ok_or(PowerRefusal::NoSuchPstate(pstate))?;
        if node >= self.capacity {
            return Err(PowerRefusal::NoSuchNode);
        }
        p.set_pstate(self.now, node, pstate)?;
        if let Some(job) = self.running_on[node as usize] {
            self.respeed(job);
        }
        Ok(())
    }

    fn running_jobs(&self, out: &mut Vec<JobId>) {
        out.clear();
        // Each job once: at its first node in its execution's list.
        for (n, on) in self.running_on.iter().enumerate() {
            if let Some(job) = *on
                && self.arena[self.executions[job as usize].first_node as usize] == n as NodeId
            {
                out.push(job);
            }
        }
    }

    fn job_nodes(&self, id: JobId, out: &mut Vec<NodeId>) {
        out.clear();
        if let Some(e) = self.executions.get(id as usize).filter(|e| e.running) {
            out.extend_from_slice(&self.arena[e.first_node as usize..(e.first_node + e.nodes) as usize]);
        }
    }

    fn running(&self, id: JobId) -> Option<RunningJob> {
        let e = self.executions.get(id as usize).filter(|e| e.running)?;
        let (job, saved) = (&self.jobs[id as usize], self.records[id as usize].saved);
        let estimated = (job.estimate - saved).max(0) + e.overhead;
        let (speed, done) = match self.paces.get(id as usize) {
            Some(p) => (p.speed, p.work_done(self.now)),
            None => (1.0, (self.now - e.start) as f64),
        };
        Some(RunningJob {
            start: e.start,
            kill_at: e.kill_at,
            speed,
            estimated_left: (estimated as f64 - done).max(0.0),
        })
    }

    fn switch_on(&mut self, node: NodeId) -> Result<(), PowerRefusal> {
        if self.power_state(node) == PowerState::SwitchingOff && self.up.get(node as usize) == Some(&true) {
            if let Some(p) = &mut self.power {
                p.want_on(node);
            }
            return Ok(());
        }
        self.check_switch(node, PowerState::Asleep)?;
        let p = self.power.as_mut().ok_or(PowerRefusal::NoSleepState)?;
        match p.begin_on(self.now, node)? {
            None => {
                self.idle_up.insert(node);
            }
            end => self.transition(node, end),
        }
        Ok(())
    }
}

impl<D: Drive> ClusterCore<D> {
    /// The nodes have computing pstates (DVFS is modelled).
    fn has_pstates(&self) -> bool {
        self.power.as_ref().is_some_and(|p| !p.model().pstates.is_empty())
    }

    /// The speed of running job `id`: the slowest pstate among its nodes
    /// (a parallel job advances at its slowest node's pace).
    fn speed_of(&self, id: JobId) -> f64 {
        let Some(p) = self.power.as_ref().filter(|p| !p.model().pstates.is_empty()) else { return 1.0 };
        let e = &self.executions[id as usize];
        let (first, count) = (e.first_node as usize, e.nodes as usize);
        let pstates = &p.model().pstates;
        self.arena[first..first + count].iter().map(|&n| pstates.speed(p.pstate(n) as usize)).fold(f64::MAX, f64::min)
    }

    /// Running job `id`'s speed may have changed: the work left is kept and
    /// its end moved (the old end event becomes stale).
    fn respeed(&mut self, id: JobId) {
        let speed = self.speed_of(id);
        let now = self.now;
        let e = &mut self.executions[id as usize];
        let Some(p) = self.paces.get_mut(id as usize) else { return };
        if !e.running || speed == p.speed {
            return;
        }
        p.done = p.work_done(now);
        p.seg_start = now;
        p.speed = speed;
        p.scaled = true;
        // A new run number makes the pending end stale.
        e.run += 1;
        let (run, left) = (e.run, (p.work as f64 - p.done).max(0.0));
        let end = p.end_at(now, left, e.kill_at);
        if self.keep_executions {
            self.speeds.push(SpeedRecord { time: now, job: id, speed });
        }
        self.schedule(end, instant::JOB_END, ClusterMsg::JobEnd { job: id, run });
    }

    /// After power was freed: a start the cap refused is tried again now.
    fn retry_after_cap(&mut self) {
        if std::mem::take(&mut self.cap_refused) {
            self.wake_at(self.now);
        }
    }

    /// `node` exists, is up, runs nothing and is in `from`.
    fn check_switch(&self, node: NodeId, from: PowerState) -> Result<(), PowerRefusal> {
        let p = self.power.as_ref().ok_or(PowerRefusal::NoSleepState)?;
        if p.model().sleep.is_none() {
            return Err(PowerRefusal::NoSleepState);
        }
        if node >= self.capacity {
            return Err(PowerRefusal::NoSuchNode);
        }
        if !self.up[node as usize] {
            return Err(PowerRefusal::Down);
        }
        if let Some(job) = self.running_on[node as usize] {
            return Err(PowerRefusal::Busy(job));
        }
        match p.state(node) {
            s if s == from => Ok(()),
            s => Err(PowerRefusal::Wrong(s)),
        }
    }
}

/// `jobs` by id, if their ids are 0..n: the list itself when it is in id
/// order (a battery), else a copy sorted by id (reservations, numbered after
/// the battery, come in occurrence order). `None` if the ids are not 0..n.
pub fn by_id(jobs: &Arc<[Job]>) -> Option<Arc<[Job]>> {
    let in_order = |jobs: &[Job]| jobs.iter().enumerate().all(|(i, j)| j.id as usize == i);
    if in_order(jobs) {
        return Some(Arc::clone(jobs));
    }
    let mut sorted = jobs.to_vec();
    sorted.sort_by_key(|j| j.id);
    in_order(&sorted).then(|| sorted.into())
}

/// One execution of a job on its nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecutionRecord {
    /// The job.
    pub job: JobId,
    /// Start of the execution.
    pub start: Time,
    /// End (completion, kill or interruption).
    pub end: Time,
    /// The nodes it ran on.
    pub nodes: Vec<NodeId>,
}

/// What a cluster hands back at the end of a run, with `R`, the report of
/// what drove it.
#[derive(Debug, Clone)]
pub struct ClusterResult<R: Send + 'static = ()> {
    /// Its jobs and one record per submitted job, by job id.
    pub records: RunRecords,
    /// Node failures and repairs as applied.
    pub node_events: Vec<NodeEventRecord>,
    /// Every execution, in the order they ended.
    pub executions: Vec<ExecutionRecord>,
    /// Accepted jobs the strategy left without an outcome (closed as failed).
    pub unresolved: u32,
    /// Power transitions as applied (with a power model and the execution list).
    pub power_events: Vec<PowerEventRecord>,
    /// Executions' speeds (with pstates and the execution list).
    pub speeds: Vec<SpeedRecord>,
    /// The report of what drove it ([`Drive::report`]).
    pub report: R,
}

impl<R: Send + 'static> ClusterResult<R> {
    /// The result without the report, and the report.
    pub fn split(self) -> (ClusterResult, R) {
        let ClusterResult { records, node_events, executions, unresolved, power_events, speeds, report } = self;
        (ClusterResult { records, node_events, executions, unresolved, power_events, speeds, report: () }, report)
    }
}

/// The cluster actor: mechanics plus what drives it (by default a plain strategy).
pub struct ClusterActor<D: Drive = Box<dyn Strategy>> {
    core: ClusterCore<D>,
    drive: D,
    /// Its node states after each change (for an energy meter); nothing is
    /// sent while unconnected.
    pub node_states: Output<NodeStates>,
    buffers: Buffers<MsgOf<D>>,
}

impl<D: Drive> ClusterActor<D> {
    /// A cluster actor at address `me` with `capacity` nodes that runs
    /// `jobs` (by id, see [`by_id`]), driven by `drive`.
    pub fn new(
        me: usize,
        capacity: u32,
        jobs: Arc<[Job]>,
        checkpoint: Option<CheckpointConfig>,
        drive: D,
    ) -> ClusterActor<D> {
        ClusterActor {
            core: ClusterCore::new(me, capacity, jobs, checkpoint),
            drive,
            node_states: Output::new(),
            buffers: Buffers::default(),
        }
    }

    /// What drives it: its caller's way in between two steps
    /// (`bench::Stepped::call`).
    pub fn drive_mut(&mut self) -> &mut D {
        &mut self.drive
    }

    /// The same cluster without its execution list at the end: one node
    /// vector per execution that a stored run never reads.
    pub fn without_executions(mut self) -> ClusterActor<D> {
        self.core.keep_executions = false;
        if let Some(p) = &mut self.core.power {
            p.take_log();
        }
        self
    }

    /// The same cluster with power states and a cap, as `model` gives them
    /// (nothing changes for a model without a sleep state or a cap).
    pub fn with_power(mut self, model: &EnergyConfig) -> ClusterActor<D> {
        if model.has_power_states() {
            let keep = self.core.keep_executions;
            self.core.power = Some(NodePower::new(*model, self.core.capacity, keep));
        }
        self
    }

    /// The same cluster under a cap that follows `cap` (with a power model
    /// from [`ClusterActor::with_power`]; nothing changes without one).
    pub fn with_cap_series(mut self, cap: CapSeries) -> ClusterActor<D> {
        if let Some(p) = self.core.power.take() {
            self.core.power = Some(p.with_cap_series(cap));
        }
        self
    }

    /// Handles one message synchronously (the actor's handler, also usable directly).
    pub fn handle_msg(&mut self, now: Time, msg: MsgOf<D>, outbox: Outbox<MsgOf<D>>) -> Outbox<MsgOf<D>> {
        let core = &mut self.core;
        core.now = now;
        core.outbox = outbox;
        let before = core.states(false);
        let mut job_ended = false;
        match msg {
            ClusterMsg::Submit(job) => {
                core.register(&job);
                self.drive.strategy().submit(core, job.id);
            }
            ClusterMsg::Wake => {
                // Forget this and any passed wake-up so it can be asked for again.
                while core.wakes.first().is_some_and(|&t| t <= now) {
                    core.wakes.pop_first();
                }
                self.drive.strategy().wake(core);
            }
            // Ends, repairs and failures only settle the state: the starts
            // they allow happen at a wake-up (kernel contract, "one instant").
            ClusterMsg::JobEnd { job, run } => {
                if core.end(job, run) {
                    job_ended = true;
                    core.settling = true;
                    self.drive.strategy().job_ended(core, job);
                    core.settling = false;
                    core.retry_after_cap();
                }
            }
            ClusterMsg::NodeFailure(node) => {
                if let Some(victim) = core.node_failure(node) {
                    job_ended = victim.is_some();
                    core.settling = true;
                    self.drive.strategy().node_failed(core, node, victim);
                    core.settling = false;
                    core.retry_after_cap();
                }
            }
            // A transition ends with the repairs: it only settles the state.
            ClusterMsg::PowerSwitched { node, generation } => {
                if let Some(state) = core.switched(node, generation) {
                    core.settling = true;
                    self.drive.strategy().power_changed(core, node, state);
                    core.settling = false;
                    core.retry_after_cap();
                }
            }
            ClusterMsg::NodeRepair(node) => {
                if core.node_repair(node) {
                    core.settling = true;
                    self.drive.strategy().node_repaired(core, node);
                    core.settling = false;
                }
            }
            ClusterMsg::Ask(Request { body, reply }) => {
                let answer = self.drive.answer(body, core);
                reply.send(now, D::ANSWER_CLASS, answer, &mut core.outbox);
            }
        }
        if let Some(states) = &mut self.core.awaiting_caller {
            // The meter hears of this event once it is over.
            **states = before;
            return std::mem::take(&mut self.core.outbox);
        }
        self.settled(now, before, job_ended)
    }

    /// Tells the meter the node states an event at `now` left, if they
    /// changed from `before`; hands back what the event scheduled.
    #[inline]
    fn settled(&mut self, now: Time, before: NodeStates, job_ended: bool) -> Outbox<MsgOf<D>> {
        let core = &mut self.core;
        if self.node_states.is_connected() {
            let states = core.states(job_ended);
            if job_ended || states != before {
                self.node_states.send(now, instant::METER, states, &mut core.outbox);
            }
        }
        std::mem::take(&mut self.core.outbox)
    }

    /// Goes on with the event its strategy suspended in, at `now`.
    pub fn resume_msg(&mut self, now: Time, outbox: Outbox<MsgOf<D>>) -> Outbox<MsgOf<D>> {
        let core = &mut self.core;
        core.now = now;
        core.outbox = outbox;
        let Some(before) = core.awaiting_caller.take().map(|b| *b) else {
            core.defect("the cluster was resumed, but it had not suspended");
            return std::mem::take(&mut core.outbox);
        };
        self.drive.strategy().resume(core);
        match &mut self.core.awaiting_caller {
            Some(states) => {
                **states = before;
                std::mem::take(&mut self.core.outbox)
            }
            None => self.settled(now, before, false),
        }
    }
}

impl<D: Drive> Model for ClusterActor<D> {
    type Msg = MsgOf<D>;

    fn handle(&mut self, now: Time, msg: MsgOf<D>, outbox: Outbox<MsgOf<D>>) -> Outbox<MsgOf<D>> {
        self.handle_msg(now, msg, outbox)
    }

    fn suspended(&self) -> bool {
        self.core.awaiting_caller.is_some()
    }

    fn resume(&mut self, now: Time, outbox: Outbox<MsgOf<D>>) -> Outbox<MsgOf<D>> {
        self.resume_msg(now, outbox)
    }
}

/// Jobs submitted to the cluster.
impl<D: Drive> Receive<Job> for ClusterActor<D> {
    fn receive(job: Job) -> MsgOf<D> {
        ClusterMsg::Submit(job)
    }
}

/// Node failures and repairs.
impl<D: Drive> Receive<NodeEvent> for ClusterActor<D> {
    fn receive(e: NodeEvent) -> MsgOf<D> {
        match e.kind {
            NodeEventKind::Repair => ClusterMsg::NodeRepair(e.node),
            NodeEventKind::Fail => ClusterMsg::NodeFailure(e.node),
        }
    }
}

/// Questions for what is attached to it.
impl<D: Drive> Receive<Request<D::Question, D::Answer>> for ClusterActor<D> {
    fn receive(r: Request<D::Question, D::Answer>) -> MsgOf<D> {
        ClusterMsg::Ask(r)
    }
}

impl<D: Drive> Batched for ClusterActor<D> {
    fn buffers(&mut self) -> &mut Buffers<MsgOf<D>> {
        &mut self.buffers
    }

    fn broken(&self) -> Option<SimError> {
        // A strategy's own error (an external scheduler's) ends the run.
        if let Some(error) = self.drive.error() {
            return Some(error);
        }
        if let Some((at, what)) = &self.core.defect {
            return Some(SimError::Model { model: format!("cluster {}", self.core.me), at: *at, what: what.clone() });
        }
        let (at, job) = self.core.broken?;
        Some(SimError::Contract {
            model: format!("cluster {}", self.core.me),
            at,
            what: format!(
                "its strategy started job {job} while handling a job end, a node repair or a node failure; \
                 starts belong in a wake-up at that instant"
            ),
        })
    }
}

impl<D: Drive> Finish for ClusterActor<D> {
    type Final = ClusterResult<D::Report>;

    fn finish(&mut self) -> Self::Final {
        let report = self.drive.report();
        self.core.finish(report)
    }
}
