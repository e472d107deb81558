//! The controller: Slurm's queue, its main scheduler and its backfill
//! scheduler on one machine, as a kernel model.
//!
//! Sources: Slurm 22.05, `src/slurmctld/controller.c`
//! (`_slurmctld_background`), `src/slurmctld/job_scheduler.c` (`schedule`,
//! `sort_job_queue2`), `src/plugins/sched/backfill/backfill.c`
//! (`backfill_agent`, `_more_work`, `_attempt_backfill`, `_add_reservation`,
//! `_test_resv_overlap`), `src/plugins/select/cons_common/job_test.c`
//! (`_will_run_test`), the documents `sched_config.html` and `slurm.conf(5)`
//! (SchedulerParameters).
//!
//! Contract:
//! - The queue is ordered by partition `PriorityTier` (higher first), then
//!   priority (higher first), then submit time, then job id.
//! - Same-instant order ([`crate::instant`]): job ends, submissions,
//!   the priority tick, the main scheduler, the backfill scheduler. So every
//!   start at `t` sees every end and submission at `t`.
//! - The main scheduler runs at every job end (its epilog complete calls
//!   `schedule()` at once), in the background loop's pass for submissions,
//!   and in that loop's full pass every `sched_interval`. The background
//!   loop's pass comes `batch_sched_delay` (3 s) after its own previous pass
//!   (batch or full; `last_sched_time`), at once if that is past; a full
//!   pass takes the submissions before it. It walks the queue (at most
//!   `default_queue_depth` + 1 jobs, all of them in a full pass) and starts
//!   each job that fits now on its partition's nodes. When a job does not
//!   fit, its partition is blocked for the rest of the pass: no later job of
//!   it is tried, and its nodes are withheld from the jobs of other
//!   partitions.
//! - The backfill scheduler runs `bf_interval` after its previous pass once
//!   something changed in that pass's second or later (`_more_work`: a
//!   submission, also of a job to begin later, a start or end, a main pass
//!   that left a job waiting, new priorities of pending jobs), at once if
//!   the interval is past: Slurm's agent checks every second for work once
//!   its interval is over. A pass that gave a pending job a start estimate
//!   (`last_job_update`) is work for the next one, so while jobs are
//!   pending the agent passes every `bf_interval` on one phase, set by its
//!   start when known ([`Controller::backfill_started_at`]).
//! - A backfill pass walks the queue until `bf_max_job_test` jobs have had
//!   a will-run test (those a limit, a throttle or `bf_max_job_*` skips
//!   before it do not count). Each
//!   job is tested from `start_res` (now at first) on the nodes of its
//!   partition that no reservation holds from `start_res` to `start_res` +
//!   its limit (a reservation that begins at that end counts). The will-run
//!   test gives its start and nodes: now if it fits the free resources, else
//!   the expected end (start plus limit) of the last running job of the
//!   first batch after which it fits; the running jobs are taken away in the
//!   order of their expected ends, up to a barrier (the first one's end
//!   rounded up to 30 s of the epoch) plus a window of 30 s that doubles
//!   after each batch. If a reservation of the partition's nodes ends after
//!   `start_res` and before that start (`later_start`), the job is tested
//!   again from there. A job that can start now starts; one that cannot,
//!   within `bf_window`, has its nodes reserved against the jobs after it
//!   from its start to its expected end, both rounded down to
//!   `bf_resolution`, unless they overlap another reservation (then it is
//!   tested again from its start). A pass stops early once no later job of
//!   the queue could fit now even with no reservation (it could only
//!   reserve, and reservations last one pass).
//! - The periodic events (priority ticks, full main passes) keep the phase
//!   of slurmctld's start ([`Controller::started_at`]; the first submission
//!   when unknown).
//! - A job runs for its run time, cut at its time limit; its run time
//!   counts from its start, or from the grid point nearest it for a job
//!   script that sleeps to the grid ([`Controller::ending_runs`]).
//! - A backfill pass skips, without a test, a job whose user or partition
//!   has had `bf_max_job_user` or `bf_max_job_part` jobs tested in it
//!   (`_job_exceeds_max_bf_param`), after the limit tests.
//! - A job above its partition's `MaxTime` is never queued: held for ever
//!   (`job_limits_check`), or rejected under `EnforcePartLimits`
//!   (`_part_access_check`); both are counted.
//! - With accounting dumps ([`crate::accounting`]) and
//!   `AccountingStorageEnforce=limits`: a job over a
//!   submission limit is never queued; a job a QOS or association limit
//!   holds is skipped by the main scheduler (its partition not blocked) and
//!   by backfill (no start, no reservation); the limits' usage changes at
//!   each start and end. Fair-share usage is charged per job's `billing` at
//!   each priority tick and, under `AccountingStorageEnforce=limits`, at a
//!   job's end ([`Controller::charging_at_end`]).
//! - With preemption ([`crate::preemption`]): a job that does not fit in
//!   the main pass, or now in a backfill pass, may preempt running jobs
//!   (cancelled or requeued) and then waits for a later pass: their nodes
//!   are COMPLETING for the rest of the pass, and their epilogs done, a
//!   main pass follows at the same instant; the end event of a preempted
//!   run is void; a requeued job rejoins the queue
//!   when it becomes eligible. Under `preempt/qos` the queue is ordered by
//!   the QOS's preempt depth first.
//! - A job is given only nodes of its node set (its constraint's features,
//!   its advance reservation's nodes: [`crate::machine::Machine::allows`]).
//! - With advance reservations ([`crate::advance`], not the backfill
//!   scheduler's own): a job in one is queued within its window only, ahead
//!   of the others, and when it does not fit blocks its reservation instead
//!   of its partition; the nodes of a reservation over a job's time are
//!   kept from the jobs not in it, in both schedulers; backfill may retry a
//!   job after the first reservation's end (`find_resv_end`).
//! - With dependencies or array throttles ([`crate::dependency`]): a job
//!   not independent waits outside the queue, and each main and backfill
//!   pass first moves the jobs now independent into it (and the tasks of
//!   an array at its throttle out of it); a task whose array reached its
//!   throttle in the pass is skipped. Ties of tier, priority and submit
//!   time go by job id, an array task's being its array job id, then by
//!   task id (`sort_job_queue2`).
//! - A job of several partitions ([`crate::multipart`]) has a queue record
//!   per partition, ordered as a job of that partition with its priority
//!   there; each scheduler tries a record as the job in that partition,
//!   and once the job starts its other records leave the queue.
//! - Deterministic: no hash order, no wall clock.

use std::sync::Arc;

use crate::accounting::Limits;
use crate::advance::AdvanceReservations;
use crate::conf::SchedulerSettings;
use crate::dependency::Dependencies;
use crate::instant::{Arrival, BACKFILL, JOB_END, MAIN, SUBMIT, TICK};
use crate::machine::{Machine, Need};
use crate::multipart::MultiPartition;
use crate::preemption::Preemption;
use crate::priority::{FairTree, Multifactor};
use slasim_sim::kernel::{Model, Outbox, Scheduled};
use slasim_sim::model::{Batched, Buffers, Finish};
use slasim_sim::port::Receive;
use slasim_sim::units::Time;

/// Slurm's `batch_sched_delay` default: seconds between a pass and the
/// next one a batch submission asks for.
pub const BATCH_SCHED_DELAY: Time = 3;

pub use crate::queued::{Queued, RunEnd};

/// What happened to a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// Start (−1: never started).
    pub start: Time,
    /// End (−1: never ended).
    pub end: Time,
    /// Its priority when it started.
    pub priority: u32,
    /// Started by the backfill scheduler.
    pub backfilled: bool,
    /// Its first node.
    pub first_node: u32,
    /// Times it was preempted ([`crate::preemption`]).
    pub preempted: u32,
    /// Cancelled by preemption (then `end` is that instant).
    pub preempt_cancelled: bool,
    /// The partition it started in (a machine index; [`crate::multipart`]).
    pub partition: u16,
}

/// Counters of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Main scheduler passes.
    pub main_passes: u64,
    /// Backfill passes run.
    pub backfill_passes: u64,
    /// Backfill passes skipped (nothing changed).
    pub backfill_skipped: u64,
    /// Jobs started by the main scheduler.
    pub main_starts: u64,
    /// Jobs started by backfill.
    pub backfill_starts: u64,
    /// Jobs above their partition's `MaxTime`: held for ever
    /// (`PartitionTimeLimit`) with `EnforcePartLimits=NO`.
    pub partition_time_limit: u64,
    /// Jobs rejected at submission for their partition's limits
    /// (`EnforcePartLimits=ANY` or `ALL`).
    pub partition_rejected: u64,
    /// Backfill tests skipped for `bf_max_job_user` or `bf_max_job_part`.
    pub bf_max_job_skips: u64,
    /// With accounting limits, per [`crate::accounting::Reason`] (in
    /// `Reason::ALL` order): the tests that held a job, and the jobs
    /// rejected at submission.
    pub limited: crate::accounting::Hits,
    /// Preemptions ([`crate::preemption`]): jobs requeued or cancelled.
    pub preemptions: u64,
    /// Of those, jobs cancelled.
    pub preempt_cancels: u64,
    /// With dependencies or array throttles, per
    /// [`crate::dependency::Wait`] (in `Wait::ALL` order): the tests that
    /// kept a job out of the queue or a pass.
    pub waited: [u64; crate::dependency::Wait::ALL.len()],
}

/// A message of the controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerMsg {
    /// A job is submitted, and may start.
    Submit(u32),
    /// A job is submitted to begin later (`--begin`): a change for the
    /// backfill agent (`last_job_update`), not yet a job to schedule.
    Submitted(u32),
    /// A job ends.
    End(u32),
    /// The priority calculation period.
    Tick,
    /// The main scheduler.
    Main(Pass),
    /// The backfill scheduler.
    Backfill,
    /// A requeued job may start again ([`crate::preemption`]).
    Eligible(u32),
}

/// What runs a main scheduler pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// A job's end (its epilog complete: `schedule()` at once).
    JobEnd,
    /// The background loop, for the submissions since its previous pass
    /// (`job_sched_cnt`), at least `batch_sched_delay` after that pass.
    Batch,
    /// The background loop's full pass, every `sched_interval` (re-arms itself).
    Full,
}

/// The controller model.
pub struct Controller {
    machine: Machine,
    sched: SchedulerSettings,
    priority: Multifactor,
    fairshare: FairTree,
    /// Each job as last tried or started: a job of several partitions is
    /// put in the partition it is tried in ([`crate::multipart`]).
    jobs: Vec<Queued>,
    outcome: Vec<Outcome>,
    /// Current priority of each pending job.
    prio: Vec<u32>,
    /// Nodes of each started job (`nodes[first..first + need.nodes]`).
    nodes: Vec<u32>,
    node_at: Vec<u32>,
    /// Pending jobs, in queue order.
    queue: Vec<u32>,
    /// Running jobs.
    running: Vec<u32>,
    last_tick: Time,
    done: usize,
    /// The last change the backfill scheduler sees (`last_job_update`).
    changed_at: Time,
    /// A job end's main pass is already due at this time.
    main_due: Time,
    /// The background loop's pass for submissions, when one is due.
    batch_due: Option<Time>,
    /// The background loop's last pass (`last_sched_time`): a batch or a
    /// full pass, never a job end's.
    last_background: Time,
    /// When each periodic event is next due (`None`: not armed while idle).
    next_tick: Option<Time>,
    next_main: Option<Time>,
    /// The backfill pass asked for, if any.
    next_backfill: Option<Time>,
    /// The last backfill pass.
    last_backfill: Time,
    /// The last backfill pass gave a pending job a start estimate
    /// (`last_job_update` in `_attempt_backfill`): the agent's next check,
    /// `bf_interval` later, finds work, and so on every `bf_interval` while
    /// nothing else changes.
    estimated: bool,
    /// slurmctld's start on the workload's time axis: the periodic events'
    /// phase (the first submission when unknown).
    origin: Time,
    counters: Counters,
    // Scratch, reused across passes.
    found: Vec<u32>,
    blocked_node: Vec<u64>,
    /// Per node: the pass in which its job was preempted. It is COMPLETING
    /// for the rest of that pass, its job's epilog running; no job starts on
    /// it then (`cg_node_bitmap`).
    completing: Vec<u64>,
    /// Per job: the backfill pass in which one of its records got a start
    /// estimate (`bf_one_resv_per_job`: its later records test now only).
    estimated_in: Vec<u64>,
    blocked_part: Vec<u64>,
    pass: u64,
    /// The running jobs in the order of their expected ends (backfill).
    releases: Vec<Release>,
    /// Per partition: the indices in `releases` of the running jobs with a
    /// node in it, in order.
    part_releases: Vec<Vec<u32>>,
    /// Per node: an advance reservation holds it at some time.
    advance_node: Vec<bool>,
    /// Per node: the partitions holding it ([`part_bit`]).
    node_parts: Vec<u64>,
    /// Per started job: the partitions holding one of its nodes.
    job_parts: Vec<u64>,
    scratch: Vec<crate::machine::Resources>,
    /// Per node: this backfill pass's reservations on it, in order, each
    /// `(begin, end, run end)`: the end of the run of reservations, each
    /// beginning where the one before ends, that it is in.
    reserved: Vec<Vec<(Time, Time, Time)>>,
    /// Reservations made in this backfill pass.
    reservation_count: usize,
    /// Bitset of the nodes available to the job tested.
    marked: Vec<u64>,
    /// Stamps for `part_mark`.
    stamp: u64,
    /// The marks of the job's previous test in this pass.
    marked_before: Vec<u64>,
    /// Will-run tests so far.
    tested: u64,
    /// Per node: `scratch` holds its resources in will-run test `tested`;
    /// otherwise they are its free ones, not copied yet.
    scratch_at: Vec<u64>,
    /// Per partition: its nodes as a bitset.
    part_words: Vec<Vec<u64>>,
    /// Bitset of the nodes an advance reservation holds at some time.
    advance_words: Vec<u64>,
    /// Bitset of the nodes with an advance reservation or a reservation
    /// of this backfill pass: only they are tested one by one.
    special: Vec<u64>,
    /// Per partition: the largest free CPUs, MiB and GPUs on one of its
    /// nodes in this backfill pass, kept up to date.
    bound: Vec<crate::machine::Resources>,
    /// Nodes of the preemptor's partition, marked with `stamp` (preemption).
    part_mark: Vec<u64>,
    /// Starts, ends and preemptions so far (preemption's cache key).
    changes: u64,
    /// The Unix time of the workload's time 0: the will-run test's batches
    /// are aligned on the epoch.
    epoch: Time,
    most: Vec<crate::machine::Resources>,
    /// Per user and per partition: the jobs this backfill pass tested
    /// (`bf_max_job_user`, `bf_max_job_part`; empty when unset).
    bf_user: Vec<u32>,
    bf_part: Vec<u32>,
    /// The number of users (`Queued::user` is below it).
    users: usize,
    /// `EnforcePartLimits` is `ANY` or `ALL`.
    enforce_part_limits: bool,
    /// A job's usage since the last tick is charged when it ends.
    charge_at_end: bool,
    /// The jobs above their partition's `MaxTime`, never queued.
    over_part: Vec<u32>,
    /// The QOS and association limits, with accounting dumps.
    limits: Option<Box<Limits>>,
    /// Preemption, when on.
    preempt: Option<Box<Preemption>>,
    /// Advance reservations ([`crate::advance`]), and per reservation the
    /// main pass in which one of its jobs did not fit.
    advance: Option<Box<AdvanceReservations>>,
    resv_failed: Vec<u64>,
    /// Dependencies and array throttles, when the workload has any.
    relations: Option<Box<Dependencies>>,
    /// Jobs of several partitions ([`crate::multipart`]), when the
    /// workload has any.
    multi: Option<Box<MultiPartition>>,
    /// When a started run ends.
    run_end: RunEnd,
    buffers: Buffers<ControllerMsg>,
}

impl Controller {
    /// A controller of `machine` for `jobs`, whose associations (each
    /// job's [`Queued::assoc`]) are the users of `fairshare`.
    pub fn new(
        machine: Machine,
        sched: SchedulerSettings,
        priority: Multifactor,
        jobs: Arc<[Queued]>,
        fairshare: FairTree,
    ) -> Controller {
        let n = jobs.len();
        let nodes = machine.size.len();
        let parts = machine.partitions.len();
        Controller {
            scratch: machine.free.clone(),
            reserved: vec![Vec::new(); nodes],
            reservation_count: 0,
            marked: vec![0; nodes.div_ceil(64)],
            marked_before: vec![0; nodes.div_ceil(64)],
            tested: 0,
            scratch_at: vec![0; nodes],
            part_words: machine
                .partitions
                .iter()
                .map(|part| {
                    let mut words = vec![0u64; nodes.div_ceil(64)];
                    for &n in &part.nodes {
                        words[n as usize / 64] |= 1 << (n % 64);
                    }
                    words
                })
                .collect(),
            advance_words: vec![0; nodes.div_ceil(64)],
            special: vec![0; nodes.div_ceil(64)],
            bound: Vec::new(),
            part_mark: vec![0; nodes],
            changes: 0,
            stamp: 0,
            epoch: 0,
            most: Vec::new(),
            bf_user: Vec::new(),
            bf_part: Vec::new(),
            users: jobs.iter().map(|j| j.user as usize + 1).max().unwrap_or(0),
            enforce_part_limits: false,
            charge_at_end: false,
            over_part: Vec::new(),
            blocked_node: vec![0; nodes],
            completing: vec![u64::MAX; nodes],
            estimated_in: vec![u64::MAX; n],
            blocked_part: vec![0; parts],
            node_parts: {
                let mut bits = vec![0u64; nodes];
                for (p, part) in machine.partitions.iter().enumerate() {
                    for &n in &part.nodes {
                        bits[n as usize] |= part_bit(p);
                    }
                }
                bits
            },
            job_parts: vec![0; n],
            advance_node: vec![false; nodes],
            machine,
            sched,
            priority,
            fairshare,
            jobs: jobs.to_vec(),
            outcome: vec![Outcome { start: -1, end: -1, ..Outcome::default() }; n],
            prio: vec![0; n],
            nodes: Vec::new(),
            node_at: vec![0; n],
            queue: Vec::new(),
            running: Vec::new(),
            last_tick: 0,
            done: 0,
            changed_at: Time::MIN / 2,
            main_due: -1,
            batch_due: None,
            last_background: Time::MIN / 2,
            next_tick: None,
            next_main: None,
            next_backfill: None,
            last_backfill: Time::MIN / 2,
            estimated: false,
            origin: 0,
            counters: Counters::default(),
            found: Vec::new(),
            pass: 0,
            releases: Vec::new(),
            part_releases: vec![Vec::new(); parts],
            limits: None,
            preempt: None,
            advance: None,
            resv_failed: Vec::new(),
            relations: None,
            multi: None,
            run_end: RunEnd::AfterStart,
            buffers: Buffers::default(),
        }
    }

    /// The same controller started at `origin` on the workload's time axis
    /// (slurmctld's start: the phase of its periodic events).
    pub fn started_at(mut self, origin: Time) -> Controller {
        self.origin = origin;
        self.last_tick = origin;
        self
    }

    /// The same controller on a workload whose time 0 is Unix time `epoch`.
    /// The same controller with its backfill agent started at `start` on
    /// the workload's time axis (`backfill_agent`). Its first check,
    /// `bf_interval` later, finds the work of slurmctld's own start and
    /// passes; then it passes `bf_interval` after each pass that found work,
    /// or at the first second with work after that. Unknown, the agent has
    /// long been running.
    pub fn backfill_started_at(mut self, start: Option<Time>) -> Controller {
        if let Some(s) = start {
            let first = s + self.sched.bf_interval.max(1);
            // A first pass before the workload's first submission found no job.
            self.last_backfill = if first <= 0 { first } else { s };
        }
        self
    }

    pub fn at_epoch(mut self, epoch: Time) -> Controller {
        self.epoch = epoch;
        self
    }

    /// The same controller rejecting at submission a job over its
    /// partition's limits (`EnforcePartLimits=ANY` or `ALL`), instead of
    /// holding it.
    pub fn enforcing_part_limits(mut self, enforce: bool) -> Controller {
        self.enforce_part_limits = enforce;
        self
    }

    /// The same controller charging a job's fair-share usage since the last
    /// priority calculation when it ends (`AccountingStorageEnforce=limits`:
    /// `acct_policy_job_fini` calls `priority_p_job_end`). Otherwise that
    /// last stretch is never charged.
    pub fn charging_at_end(mut self, charge: bool) -> Controller {
        self.charge_at_end = charge;
        self
    }

    /// The same controller enforcing `limits` ([`crate::accounting`]).
    pub fn with_limits(mut self, limits: Option<Limits>) -> Controller {
        self.limits = limits.map(Box::new);
        self
    }

    /// The same controller with preemption ([`crate::preemption`]).
    pub fn with_preemption(mut self, preempt: Option<Preemption>) -> Controller {
        self.preempt = preempt.map(Box::new);
        self
    }

    /// Job `j`'s submit time in the queue order (a requeue changes it).
    #[inline]
    fn submit_of(&self, j: u32) -> Time {
        match &self.preempt {
            None => self.jobs[j as usize].submit,
            Some(p) => p.submit[j as usize],
        }
    }

    /// Where job `j`'s age is counted from: its submission, or the later
    /// of its requeue's eligibility and the time its dependency was met.
    #[inline]
    fn since(&self, j: u32) -> Time {
        let requeued = self.preempt.as_ref().map_or(self.jobs[j as usize].submit, |p| p.since[j as usize]);
        let eligible = self.relations.as_ref().map_or(requeued, |d| d.accrue[j as usize]);
        requeued.max(eligible)
    }

    /// The same controller holding `advance` reservations ([`crate::advance`]).
    pub fn with_advance(mut self, advance: Option<AdvanceReservations>) -> Controller {
        self.resv_failed = vec![0; advance.as_ref().map_or(0, |a| a.list.len())];
        if let Some(a) = &advance {
            for (n, (flag, on)) in self.advance_node.iter_mut().zip(&a.on_node).enumerate() {
                *flag = !on.is_empty();
                if *flag {
                    self.advance_words[n / 64] |= 1 << (n % 64);
                }
            }
        }
        self.advance = advance.map(Box::new);
        self
    }

    /// May job `job`, running over `[from, to)` from now, be given node
    /// `n`: in its node set, not COMPLETING, and not kept by an advance
    /// reservation?
    #[inline]
    fn usable(&self, job: &Queued, n: u32, from: Time, to: Time) -> bool {
        self.machine.allows(job.set, n)
            && self.completing[n as usize] != self.pass
            && self.advance.as_ref().is_none_or(|a| !a.holds(n, job.resv, from, to))
    }

    /// The same controller with `relations` ([`crate::dependency`]).
    pub fn with_dependencies(mut self, relations: Option<Dependencies>) -> Controller {
        self.relations = relations.map(Box::new);
        self
    }

    /// The same controller with runs that end by `run_end` (their start
    /// plus their run time when not set).
    pub fn ending_runs(mut self, run_end: RunEnd) -> Controller {
        self.run_end = run_end;
        self
    }

    /// The same controller with jobs of several partitions
    /// ([`crate::multipart`]).
    pub fn with_multipart(mut self, multi: Option<MultiPartition>) -> Controller {
        if let Some(m) = &multi {
            self.prio.resize(m.records(), 0);
        }
        self.multi = multi.map(Box::new);
        self
    }

    /// Queue record `r` as the job in its partition (a job of one
    /// partition: the job).
    #[inline]
    fn view(&self, r: u32) -> &Queued {
        match self.multi.as_deref().and_then(|m| m.view(r)) {
            Some(q) => q,
            None => &self.jobs[r as usize],
        }
    }

    /// The job of queue record `r`.
    #[inline]
    fn owner(&self, r: u32) -> u32 {
        self.multi.as_deref().map_or(r, |m| m.owner(r))
    }

    /// A scheduler takes queue record `r`: its job is tried in the
    /// record's partition (`job_ptr->part_ptr = part_ptr`). The job.
    #[inline]
    fn try_in(&mut self, r: u32) -> u32 {
        let Some(m) = self.multi.as_deref() else { return r };
        let j = m.owner(r);
        if let Some(q) = m.view(r) {
            self.jobs[j as usize] = *q;
            if let Some(p) = self.preempt.as_deref_mut() {
                p.tried_in(j, q);
            }
        }
        j
    }

    /// Whether job `j` preempted in another partition in this pass
    /// (`preempt_in_progress`).
    #[inline]
    fn preempting(&self, r: u32) -> bool {
        self.multi.as_deref().is_some_and(|m| m.preempting(m.owner(r)))
    }

    /// Job `j` started from record `r` (at index `i` of the queue, already
    /// removed): it keeps that record's priority, and its records in other
    /// partitions leave the queue. The index of the next record.
    fn started_from(&mut self, r: u32, j: u32, i: usize) -> usize {
        let Some(m) = self.multi.as_deref() else { return i };
        if !m.is_multi(j) {
            return i;
        }
        self.outcome[j as usize].priority = self.prio[r as usize];
        let before = self.queue[..i].iter().filter(|&&q| m.owner(q) == j).count();
        self.queue.retain(|&q| m.owner(q) != j);
        i - before
    }

    /// Queues job `j` (in each of its partitions), with the priorities at `at`.
    fn queue_records(&mut self, j: u32, at: Time) {
        let more = match self.multi.as_deref() {
            Some(m) if m.is_multi(j) => {
                // A requeued job is queued again in all its partitions.
                if let Some(q) = m.view(j) {
                    self.jobs[j as usize] = *q;
                }
                m.more(j)
            }
            _ => 0..0,
        };
        for r in std::iter::once(j).chain(more) {
            let job = self.view(r);
            self.prio[r as usize] =
                self.priority.priority(job.fixed, self.since(j), at, self.fairshare.factor(job.assoc));
            // After its own records that tie with it (other jobs never tie).
            let at = self.queue.partition_point(|&q| self.before(q, r) != std::cmp::Ordering::Greater);
            self.queue.insert(at, r);
        }
    }

    /// Dependencies and throttles at the start of a pass (`build_job_queue`):
    /// queued tasks of an array at its throttle leave the queue, and the
    /// waiting jobs now independent join it, with the priority of the last
    /// tick.
    fn refresh(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        let Some(d) = self.relations.as_mut() else { return };
        if d.throttles() {
            // A job of several partitions leaves once, with all its records.
            let multi = self.multi.as_deref();
            self.queue.retain(|&r| match multi.map(|m| m.owner(r)) {
                Some(j) if j != r => !d.at_cap(j),
                _ => !d.leaves_queue(r),
            });
        }
        d.release(now);
        if !d.cancelled_now.is_empty() {
            self.dependents_cancelled();
            self.touch(now, outbox);
        }
        let Some(d) = self.relations.as_mut() else { return };
        if d.released.is_empty() {
            return;
        }
        let released = std::mem::take(&mut d.released);
        for &j in &released {
            self.queue_records(j, self.last_tick);
        }
        if let Some(d) = self.relations.as_mut() {
            d.released = released;
        }
        self.arm(now, outbox);
    }

    /// Jobs cancelled for a dependency that can never be met
    /// (`_kill_dependent`) end their submission; the caller counts the
    /// change of the job list.
    fn dependents_cancelled(&mut self) {
        let Some(d) = self.relations.as_mut() else { return };
        for j in d.cancelled_now.drain(..) {
            if let Some(l) = self.limits.as_mut() {
                l.withdraw(j);
            }
        }
    }

    /// Whether job `j`'s array reached its throttle in this pass.
    #[inline]
    fn capped(&mut self, j: u32) -> bool {
        self.relations.as_mut().is_some_and(|d| d.capped(j))
    }

    /// Whether an accounting limit holds job `j` now (both of
    /// `acct_policy.c`'s tests; its reason is recorded).
    #[inline]
    fn held(&mut self, j: u32) -> bool {
        self.limits.as_mut().is_some_and(|l| !l.runnable(j))
    }

    /// The queue order: tier, priority (higher first), submit, id.
    #[inline]
    fn before(&self, a: u32, b: u32) -> std::cmp::Ordering {
        // Records of a job of several partitions: each as the job in its
        // partition ([`crate::multipart`]).
        let (ja, jb) = (self.view(a), self.view(b));
        let (pa, pb) = (self.prio[a as usize], self.prio[b as usize]);
        let (a, b) = (self.owner(a), self.owner(b));
        let tier = |j: &Queued| self.machine.partitions[j.partition as usize].priority_tier;
        // Preemption by QOS: a preemptor's QOS first, then jobs in an
        // advance reservation (`sort_job_queue2`).
        let level = |j: u32| self.preempt.as_ref().map_or(0, |p| p.level[j as usize]);
        level(b)
            .cmp(&level(a))
            .then(jb.resv.is_some().cmp(&ja.resv.is_some()))
            .then(tier(jb).cmp(&tier(ja)))
            .then(pb.cmp(&pa))
            .then(self.submit_of(a).cmp(&self.submit_of(b)))
            .then(ja.id.cmp(&jb.id))
            .then(ja.task.cmp(&jb.task))
    }

    fn sort_queue(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        queue.sort_by(|&a, &b| self.before(a, b));
        self.queue = queue;
    }

    fn submit(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        // `job_limits_check` (job_scheduler.c) holds a job over its
        // partition's limits for ever; with `EnforcePartLimits`,
        // `_part_access_check` (job_mgr.c) refuses it at submission.
        if self.jobs[j as usize].over_part_limit {
            if self.enforce_part_limits {
                self.counters.partition_rejected += 1;
            } else {
                self.counters.partition_time_limit += 1;
            }
            self.counters.limited[crate::accounting::Reason::PartitionTimeLimit as usize] += 1;
            self.over_part.push(j);
            return;
        }
        // `acct_policy_validate`: a job over a submission limit is refused.
        if let Some(l) = &mut self.limits
            && l.submit(j).is_some()
        {
            return;
        }
        // A job not independent waits outside the queue ([`crate::dependency`]).
        if self.relations.as_mut().is_none_or(|d| d.submitted(j, now)) {
            self.enqueue(now, j);
        }
        self.dependents_cancelled();
        self.touch(now, outbox);
        self.arm(now, outbox);
        // A batch job is first tried by the background loop's pass, at least
        // `batch_sched_delay` after that loop's previous pass (job ends'
        // passes do not count: controller.c, `last_sched_time`).
        if self.batch_due.is_none() {
            let at = now.max(self.last_background + BATCH_SCHED_DELAY);
            self.batch_due = Some(at);
            outbox.push(Scheduled::me(at, MAIN, ControllerMsg::Main(Pass::Batch)));
        }
    }

    /// Job `j` joins the queue at its place.
    fn enqueue(&mut self, now: Time, j: u32) {
        self.queue_records(j, now);
    }

    /// Arms the periodic events not armed (after an idle spell), each on
    /// its own phase: the next multiple of its period.
    fn arm(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        let origin = self.origin;
        let next = |period: Time| origin + ((now - origin).div_euclid(period) + 1) * period;
        if self.next_tick.is_none() {
            let t = next(self.priority.settings().calc_period.max(1));
            self.next_tick = Some(t);
            outbox.push(Scheduled::me(t, TICK, ControllerMsg::Tick));
        }
        if self.next_main.is_none() {
            let t = next(self.sched.sched_interval.max(1));
            self.next_main = Some(t);
            outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main(Pass::Full)));
        }
    }

    /// Something changed: the backfill scheduler runs `bf_interval` after its
    /// previous pass, or now if that is past (Slurm's agent checks every
    /// second for work once its interval is over).
    fn touch(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        self.changed_at = now;
        self.arm_backfill(now, outbox);
    }

    fn arm_backfill(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        if self.sched.backfill && self.next_backfill.is_none() {
            let at = now.max(self.last_backfill + self.sched.bf_interval.max(1));
            self.next_backfill = Some(at);
            outbox.push(Scheduled::me(at, BACKFILL, ControllerMsg::Backfill));
        }
    }

    /// Re-arms a periodic event that just fired, unless the machine is idle.
    fn rearm(&self, now: Time, period: Time, due: &mut Option<Time>) -> Option<Time> {
        *due = if self.idle() { None } else { Some(now + period.max(1)) };
        *due
    }

    fn idle(&self) -> bool {
        self.queue.is_empty() && self.running.is_empty()
    }

    fn main_at(&mut self, at: Time, outbox: &mut Outbox<ControllerMsg>) {
        if self.main_due != at {
            self.main_due = at;
            outbox.push(Scheduled::me(at, MAIN, ControllerMsg::Main(Pass::JobEnd)));
        }
    }

    fn start(&mut self, now: Time, j: u32, backfilled: bool, outbox: &mut Outbox<ControllerMsg>) {
        let job = &self.jobs[j as usize];
        self.machine.take(&self.found, &job.need);
        self.node_at[j as usize] = self.nodes.len() as u32;
        self.nodes.extend_from_slice(&self.found);
        self.job_parts[j as usize] = self.found.iter().fold(0, |m, &n| m | self.node_parts[n as usize]);
        let mut end = self.run_end.end(now, job.run).min(now + job.limit);
        // `job_time_limit`: a job in a reservation ends with it (and
        // `ResvOverRun`).
        if let (Some(r), Some(a)) = (job.resv, &self.advance) {
            end = end.min(a.ends_jobs_at(r).max(now + 1));
        }
        self.outcome[j as usize] = Outcome {
            start: now,
            end,
            priority: self.prio[j as usize],
            backfilled,
            first_node: self.found.first().copied().unwrap_or(0),
            preempted: self.outcome[j as usize].preempted,
            preempt_cancelled: false,
            partition: job.partition,
        };
        self.running.push(j);
        self.changes += 1;
        if let Some(l) = &mut self.limits {
            l.begin(j);
        }
        if let Some(d) = &mut self.relations {
            d.started(j);
        }
        self.touch(now, outbox);
        outbox.push(Scheduled::me(end, JOB_END, ControllerMsg::End(j)));
    }

    fn end(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        // Preemption: the end of a run that was preempted is void.
        if self.preempt.is_some() && (self.outcome[j as usize].end != now || self.outcome[j as usize].start < 0) {
            return;
        }
        self.release(now, j, false);
        self.done += 1;
        if let Some(d) = &mut self.relations {
            d.ended(j);
        }
        self.touch(now, outbox);
        self.main_at(now, outbox);
    }

    /// Job `j` leaves its nodes at `now` (`requeued`: it stays submitted).
    fn release(&mut self, now: Time, j: u32, requeued: bool) {
        self.changes += 1;
        if self.charge_at_end {
            // `priority_p_job_end`: its run since the last tick, as a tick charges it.
            let d = self.decay_per_second();
            charge_run(
                &mut self.fairshare,
                &self.jobs[j as usize],
                self.outcome[j as usize].start,
                self.last_tick,
                now,
                d,
            );
        }
        let job = &self.jobs[j as usize];
        let first = self.node_at[j as usize] as usize;
        let nodes = &self.nodes[first..first + job.need.nodes as usize];
        self.machine.give(nodes, &job.need);
        if let Some(i) = self.running.iter().position(|&r| r == j) {
            self.running.swap_remove(i);
        }
        if let Some(l) = &mut self.limits {
            if requeued {
                l.requeue(j);
            } else {
                l.fini(j);
            }
        }
    }

    /// `_run_now` with preemptee candidates: if pending job `j` would fit
    /// on the nodes `usable` gives once some running jobs it may preempt
    /// are gone, those of them on its nodes are preempted (it does not
    /// start: `ESLURM_NODES_BUSY`). Whether it preempted.
    fn try_preempt(&mut self, now: Time, j: u32, usable: Usable, outbox: &mut Outbox<ControllerMsg>) -> bool {
        let Some(pre) = self.preempt.as_deref_mut() else {
            return false;
        };
        if !pre.preempts_any(j) {
            return false;
        }
        let job = self.jobs[j as usize];
        let p = job.partition as usize;
        // The candidates and the resources with all of them gone depend on
        // the job's class and partition, and change only with a start, an
        // end or a preemption: kept while none happens at this instant.
        let key = (now, self.changes, pre.class_of(j), job.partition);
        let stamp = if pre.cache_key == Some(key) {
            pre.part_stamp
        } else {
            let mut candidates = std::mem::take(&mut pre.candidates);
            candidates.clear();
            // `_add_preemptable_job`: a running job it may preempt with a node in its partition.
            self.stamp += 1;
            let stamp = self.stamp;
            let in_part = &mut self.part_mark;
            for &n in &self.machine.partitions[p].nodes {
                in_part[n as usize] = stamp;
                pre.ceiling[n as usize] = self.machine.free[n as usize];
            }
            for &r in &self.running {
                let first = self.node_at[r as usize] as usize;
                let d = &self.jobs[r as usize];
                let nodes = &self.nodes[first..first + d.need.nodes as usize];
                if pre.may_preempt(j, r, self.outcome[r as usize].start, now)
                    && nodes.iter().any(|&n| in_part[n as usize] == stamp)
                {
                    candidates.push(r);
                    for &n in nodes {
                        let c = &mut pre.ceiling[n as usize];
                        c.cpus += d.need.cpus;
                        c.mem_mib += d.need.mem_mib;
                        c.gpus += d.need.gpus;
                    }
                }
            }
            pre.candidates = candidates;
            pre.cache_key = Some(key);
            pre.part_stamp = stamp;
            stamp
        };
        if pre.candidates.is_empty() {
            return false;
        }
        let need = job.need;
        let (blocked, marked, machine, advance) = (&self.blocked_node, &self.marked, &self.machine, &self.advance);
        let (completing, pass) = (&self.completing, self.pass);
        // Its node set, COMPLETING nodes and the advance reservations too (`usable`).
        let ok = |n: u32| {
            machine.allows(job.set, n)
                && completing[n as usize] != pass
                && advance.as_ref().is_none_or(|a| !a.holds(n, job.resv, now, now + job.limit))
                && match usable {
                    Usable::Unblocked(pass) => blocked[n as usize] != pass,
                    Usable::Marked => is_set(marked, n),
                }
        };
        // With every candidate gone, could it fit? (Most tests end here.)
        // cons_tres finds its nodes exactly when enough nodes can hold it.
        let parts = &self.machine.partitions[p].nodes;
        let ceiling = parts.iter().filter(|&&n| ok(n) && pre.ceiling[n as usize].holds(&need)).count();
        if (ceiling as u32) < need.nodes {
            return false;
        }
        pre.sort_candidates();
        // Take the candidates away one at a time until the job fits; after
        // a fit, reorder them (the last one taken first, then by their nodes
        // among the job's, most first) and start again: at most three runs
        // (`preempt_reorder_cnt` 1), fewer with fewer candidates.
        let count = pre.candidates.len();
        let mut runs = 0;
        let taken = loop {
            for &n in &self.machine.partitions[p].nodes {
                self.scratch[n as usize] = self.machine.free[n as usize];
            }
            let mut fit = None;
            // Usable nodes that can hold the job: it fits once there are enough.
            let mut fitting = parts.iter().filter(|&&n| ok(n) && self.scratch[n as usize].holds(&need)).count() as u32;
            // It fits as things are: nothing to preempt (its start is the caller's).
            if fitting >= need.nodes {
                break None;
            }
            for (k, &r) in pre.candidates.iter().enumerate() {
                let d = &self.jobs[r as usize];
                let first = self.node_at[r as usize] as usize;
                for &n in &self.nodes[first..first + d.need.nodes as usize] {
                    let s = &mut self.scratch[n as usize];
                    let held = s.holds(&need);
                    s.cpus += d.need.cpus;
                    s.mem_mib += d.need.mem_mib;
                    s.gpus += d.need.gpus;
                    if !held && s.holds(&need) && ok(n) && self.part_mark[n as usize] == stamp {
                        fitting += 1;
                    }
                }
                if fitting < need.nodes {
                    continue;
                }
                let scratch = &self.scratch;
                let free = |n: u32| {
                    let f = scratch[n as usize];
                    (ok(n) && f.holds(&need)).then_some(f.cpus)
                };
                if self.machine.pick(p, &need, free, &mut self.found) {
                    fit = Some(k);
                    break;
                }
            }
            let Some(k) = fit else {
                break None;
            };
            runs += 1;
            if runs > 2 || count <= runs {
                break Some(k);
            }
            // `usable_nodes`: the last one taken first (99999), those taken
            // before it by their nodes among the job's, the others 0; a
            // stable sort, so ties keep their order.
            for (i, &r) in pre.candidates.iter().enumerate() {
                let key = match i.cmp(&k) {
                    std::cmp::Ordering::Less => {
                        let first = self.node_at[r as usize] as usize;
                        let nodes = &self.nodes[first..first + self.jobs[r as usize].need.nodes as usize];
                        nodes.iter().filter(|n| self.found.contains(n)).count() as u32
                    }
                    std::cmp::Ordering::Equal => 99_999,
                    std::cmp::Ordering::Greater => 0,
                };
                pre.usable[r as usize] = (std::cmp::Reverse(key), i as u32);
            }
            let usable_nodes = &pre.usable;
            pre.candidates.sort_unstable_by_key(|&r| usable_nodes[r as usize]);
        };
        let Some(k) = taken else {
            return false;
        };
        // The candidates taken away that hold one of its nodes are preempted.
        let mut preempted = false;
        let candidates = std::mem::take(&mut pre.candidates);
        for &r in &candidates[..=k] {
            let first = self.node_at[r as usize] as usize;
            let nodes = &self.nodes[first..first + self.jobs[r as usize].need.nodes as usize];
            if nodes.iter().any(|n| self.found.contains(n)) {
                self.preempt_job(now, r, outbox);
                preempted = true;
            }
        }
        if let Some(pre) = self.preempt.as_deref_mut() {
            pre.candidates = candidates;
        }
        if preempted {
            // The preemptees' epilogs complete a tenth of a second later
            // (`Requeuing JobId`, then `schedule()`): a pass right after this one.
            self.touch(now, outbox);
            self.main_at(now, outbox);
        }
        preempted
    }

    /// Running job `r` is preempted at `now`: cancelled or requeued.
    fn preempt_job(&mut self, now: Time, r: u32, outbox: &mut Outbox<ControllerMsg>) {
        let Some(pre) = self.preempt.as_deref_mut() else {
            return;
        };
        let cancel = pre.action(r) == crate::preempt::PreemptAction::Cancel;
        // Its nodes are COMPLETING until its epilog is done, after this
        // pass (`_pick_best_nodes` and `_attempt_backfill` leave
        // `cg_node_bitmap` out, whatever their free cores).
        let first = self.node_at[r as usize] as usize;
        for &n in &self.nodes[first..first + self.jobs[r as usize].need.nodes as usize] {
            self.completing[n as usize] = self.pass;
        }
        self.release(now, r, !cancel);
        self.counters.preemptions += 1;
        let Some(pre) = self.preempt.as_deref_mut() else {
            return;
        };
        let o = &mut self.outcome[r as usize];
        o.preempted += 1;
        if cancel {
            o.end = now;
            o.preempt_cancelled = true;
            self.counters.preempt_cancels += 1;
            self.done += 1;
            if let Some(d) = &mut self.relations {
                d.cancelled(r);
            }
            return;
        }
        if let Some(d) = &mut self.relations {
            d.requeued(r);
        }
        // `batch_requeue_fini`: pending again, submitted now (a second
        // later if that is its submit time), eligible the conf's requeue delay on.
        o.start = -1;
        o.end = -1;
        let submit = &mut pre.submit[r as usize];
        *submit = if now == *submit { now + 1 } else { now };
        let eligible = now + pre.requeue_delay;
        pre.since[r as usize] = eligible;
        outbox.push(Scheduled::me(eligible, SUBMIT, ControllerMsg::Eligible(r)));
    }

    /// The decay thread: usage decayed and charged, fair-share ranked,
    /// pending priorities recomputed.
    /// Slurm's decay factor per second, its own approximation of 2^(−1/half-life).
    fn decay_per_second(&self) -> f64 {
        let half_life = self.priority.settings().decay_half_life;
        if half_life > 0 { 1.0 - 0.693 / half_life as f64 } else { 1.0 }
    }

    fn tick(&mut self, now: Time) {
        let d = self.decay_per_second();
        let elapsed = now - self.last_tick;
        if elapsed > 0 {
            self.fairshare.decay(d.powf(elapsed as f64));
        }
        // `_decay_thread` charges the jobs running now for the time since
        // the previous tick. What a job ran after the last tick before its
        // end is charged at its end only under `AccountingStorageEnforce=limits`
        // (`release`); otherwise never (seen in RawUsage on a real slurmctld).
        for &j in &self.running {
            charge_run(
                &mut self.fairshare,
                &self.jobs[j as usize],
                self.outcome[j as usize].start,
                self.last_tick,
                now,
                d,
            );
        }
        // `GrpTRESRunMins`: the same pass takes the time run from the
        // limits' run-seconds.
        let (running, outcome) = (&self.running, &self.outcome);
        if let Some(l) = &mut self.limits {
            l.tick(self.last_tick, now, running.iter().map(|&j| (j, outcome[j as usize].start)));
        }
        self.last_tick = now;
        self.fairshare.rank();
        for &r in &self.queue {
            let (job, j) = (self.view(r), self.owner(r));
            self.prio[r as usize] =
                self.priority.priority(job.fixed, self.since(j), now, self.fairshare.factor(job.assoc));
        }
        self.sort_queue();
    }

    /// The main scheduler's pass (a full one ignores `default_queue_depth`).
    fn main(&mut self, now: Time, full: bool, outbox: &mut Outbox<ControllerMsg>) {
        self.counters.main_passes += 1;
        self.refresh(now, outbox);
        if let Some(m) = self.multi.as_deref_mut() {
            m.next_round();
        }
        self.pass += 1;
        let pass = self.pass;
        let parts = self.machine.partitions.len();
        let mut blocked = 0;
        let mut started = 0usize;
        // `job_depth++ > default_queue_depth`: one more record than the depth.
        let depth = if full { usize::MAX } else { self.sched.default_queue_depth as usize + 1 };
        let mut i = 0;
        let mut tested = 0;
        while i < self.queue.len() && tested < depth && blocked < parts {
            let r = self.queue[i];
            // A job that preempted in another partition in this pass.
            if self.preempting(r) {
                i += 1;
                continue;
            }
            let j = self.try_in(r);
            let job = &self.jobs[j as usize];
            let p = job.partition as usize;
            tested += 1;
            // Advance reservations: a job in one is queued only within its
            // window (`job_independent`), and skipped once one of its
            // reservation's jobs did not fit, whatever its partition.
            if let Some(r) = job.resv {
                // A job whose reservation has ended is held for good
                // (`job_test_resv`: priority 0): it leaves the queue unstarted.
                if self.advance.as_ref().is_some_and(|a| now > a.end(r)) {
                    self.queue.remove(i);
                    continue;
                }
                let open = self.advance.as_ref().is_some_and(|a| a.open(r, now));
                if !open || self.resv_failed[r as usize] == pass {
                    i += 1;
                    continue;
                }
            } else if self.blocked_part[p] == pass {
                i += 1;
                continue;
            }
            // `acct_policy_job_runnable_pre_select`: skipped, the partition
            // not blocked.
            if self.limits.as_mut().is_some_and(|l| l.pre_select(j).is_some()) {
                i += 1;
                continue;
            }
            // `job_array_start_test`: skipped, the partition not blocked.
            if self.relations.as_mut().is_some_and(|d| d.capped(j)) {
                i += 1;
                continue;
            }
            let need = job.need;
            let up = self.machine.partitions[p].up;
            let mut found = std::mem::take(&mut self.found);
            let job = &self.jobs[j as usize];
            let until = now + job.limit;
            // `ESLURM_RESERVATION_MAINT`: no node of the partition.
            let kept = job.resv.is_none() && self.advance.as_ref().is_some_and(|a| a.blocks(p, now, until));
            let fits = up
                && !kept
                && self.machine.find(
                    p,
                    &need,
                    |n| self.blocked_node[n as usize] != pass && self.usable(job, n, now, until),
                    &mut found,
                );
            self.found = found;
            // `ESLURM_ACCOUNTING_POLICY` from `select_nodes`
            // (`acct_policy_job_runnable_post_select`): skipped, the
            // partition not blocked (`assoc_limit_stop` off).
            if fits && self.limits.as_mut().is_some_and(|l| l.post_select(j).is_some()) {
                i += 1;
                continue;
            }
            if fits {
                self.start(now, j, false, outbox);
                self.queue.remove(i);
                i = self.started_from(r, j, i);
                started += 1;
            } else if let Some(r) = self.jobs[j as usize].resv {
                // Its reservation is blocked, not its partition.
                self.resv_failed[r as usize] = pass;
                i += 1;
            } else {
                // Preemption (`select_nodes` with preemptee candidates): the
                // job does not start, its partition is blocked as below.
                if up
                    && self.preempt.is_some()
                    && self.try_preempt(now, j, Usable::Unblocked(pass), outbox)
                    && let Some(m) = self.multi.as_deref_mut()
                {
                    m.preempted(j);
                }
                self.blocked_part[p] = pass;
                blocked += 1;
                for &n in &self.machine.partitions[p].nodes {
                    self.blocked_node[n as usize] = pass;
                }
                i += 1;
            }
        }
        self.counters.main_starts += started as u64;
        // A job left waiting has its reason set, which is a change for the
        // backfill scheduler (`last_job_update` in `_schedule`).
        if blocked > 0 {
            self.touch(now, outbox);
        }
    }

    /// Per partition, the largest free CPUs, MiB and GPUs on one of its
    /// nodes, into `out`.
    fn largest_free(&self, out: &mut Vec<crate::machine::Resources>) {
        out.clear();
        for part in &self.machine.partitions {
            out.push(part.nodes.iter().fold(crate::machine::Resources::default(), |m, &n| {
                let f = self.machine.free[n as usize];
                crate::machine::Resources {
                    cpus: m.cpus.max(f.cpus),
                    mem_mib: m.mem_mib.max(f.mem_mib),
                    gpus: m.gpus.max(f.gpus),
                }
            }));
        }
    }

    /// Could job `j` fit now on its partition, with no reservation? `most`
    /// holds each partition's largest free CPUs, MiB and GPUs on one node: a
    /// job above them cannot fit, and most jobs of a full machine are.
    #[inline]
    fn could_fit_now(&self, r: u32, most: &[crate::machine::Resources]) -> bool {
        let job = self.view(r);
        let p = job.partition as usize;
        let part = &self.machine.partitions[p];
        if !part.up || !most[p].holds(&job.need) {
            return false;
        }
        let mut count = 0;
        part.nodes.iter().any(|&n| {
            if self.machine.free[n as usize].holds(&job.need) {
                count += 1;
            }
            count == job.need.nodes
        })
    }

    /// The backfill scheduler's pass. Whether it gave a pending job a start
    /// estimate (a will-run test that found a start, `last_job_update`).
    fn backfill(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) -> bool {
        self.counters.backfill_passes += 1;
        self.pass += 1;
        self.refresh(now, outbox);
        if let Some(m) = self.multi.as_deref_mut() {
            m.next_round();
        }
        // `bf_max_job_test` counts the jobs that reach the will-run test
        // (`bf_last_depth_try`), not those skipped before it.
        let max_tests = self.sched.bf_max_job_test.max(1) as usize;
        let mut most = std::mem::take(&mut self.most);
        self.largest_free(&mut most);
        // The last job in reach that could fit now: past it, a pass only reserves.
        // With preemption, a job that may preempt could start something too.
        let preempts = |r: u32| self.preempt.as_ref().is_some_and(|p| p.preempts_any_in(self.owner(r), self.view(r)));
        let last =
            (0..self.queue.len()).rev().find(|&i| self.could_fit_now(self.queue[i], &most) || preempts(self.queue[i]));
        self.most = most;
        // The jobs past the last one in reach would be tested and most given
        // an estimate: a pass cut short counts as one that estimated.
        let Some(last) = last else {
            return !self.queue.is_empty();
        };
        let resolution = self.sched.bf_resolution.max(1);
        let horizon = now + self.sched.bf_window;
        self.bound.clear();
        self.bound.extend_from_slice(&self.most);
        self.special.copy_from_slice(&self.advance_words);
        self.bf_user.clear();
        self.bf_part.clear();
        if self.sched.bf_max_job_user > 0 {
            self.bf_user.resize(self.users, 0);
        }
        if self.sched.bf_max_job_part > 0 {
            self.bf_part.resize(self.machine.partitions.len(), 0);
        }
        for r in &mut self.reserved {
            r.clear();
        }
        self.releases.clear();
        for &r in &self.running {
            let o = &self.outcome[r as usize];
            self.releases.push(self.release_of(o.start + self.jobs[r as usize].limit, r));
        }
        self.releases.sort_unstable_by_key(|x| (x.at, x.job));
        self.index_releases();
        let mut i = 0;
        let mut visited = 0;
        let mut tried = 0;
        let mut estimated = false;
        while visited <= last && tried < max_tests && i < self.queue.len() {
            let r = self.queue[i];
            // A job that preempted in another partition in this pass.
            if self.preempting(r) {
                i += 1;
                continue;
            }
            visited += 1;
            let j = self.try_in(r);
            let job = self.jobs[j as usize];
            let p = job.partition as usize;
            // A job an accounting limit holds is neither started nor
            // reserved for (`_attempt_backfill`: the pre-select test, and
            // the post-select one before a start or a reservation).
            if self.held(j) {
                i += 1;
                continue;
            }
            // `job_array_start_test`.
            if self.capped(j) {
                i += 1;
                continue;
            }
            // `_job_exceeds_max_bf_param`: after the pre-select test, before
            // the partition's state; a job tested counts.
            if self.over_bf_max(&job) {
                i += 1;
                continue;
            }
            if !self.machine.partitions[p].up {
                i += 1;
                continue;
            }
            // A job in an advance reservation outside its window is not
            // queued (`job_independent`).
            if let Some(r) = job.resv
                && !self.advance.as_ref().is_some_and(|a| a.open(r, now))
            {
                i += 1;
                continue;
            }
            tried += 1;
            // Preemption (`_will_run_test` with every candidate gone, then
            // `select_nodes`): a job that does not fit now preempts and is
            // neither started nor reserved for.
            if self.preempt.as_ref().is_some_and(|p| p.preempts_any(j)) && !self.could_fit_now(r, &self.most) {
                self.mark_available(&job, now, now + job.limit, horizon);
                if self.try_preempt(now, j, Usable::Marked, outbox) {
                    if let Some(m) = self.multi.as_deref_mut() {
                        m.preempted(j);
                    }
                    // The preempted jobs release nothing later in this pass.
                    let outcome = &self.outcome;
                    self.releases.retain(|x| outcome[x.job as usize].end > now);
                    self.index_releases();
                    // Their nodes are freer: the bounds on a node's free resources grow.
                    let mut bound = std::mem::take(&mut self.bound);
                    self.largest_free(&mut bound);
                    self.bound = bound;
                    i += 1;
                    continue;
                }
            }
            // `TRY_LATER`: from `start_res` on, each retry a later one or
            // fewer nodes, so a bound on retries only guards the loop.
            let mut start_res = now;
            let advance = self.advance.as_ref().map_or(0, |a| a.list.len());
            let mut retries = self.machine.partitions[p].nodes.len() + 2 * self.reservation_count + 2 * advance + 2;
            // The previous test's will-run result, if any.
            let mut before: Option<Option<Time>> = None;
            // `bf_one_resv_per_job`: once a record of a job of several
            // partitions has a start estimate in this pass, the job's later
            // records are tested to start now only (`TEST_NOW_ONLY`).
            let now_only = self.sched.bf_one_resv_per_job && self.estimated_in[j as usize] == self.pass;
            let started = loop {
                retries -= 1;
                let end = start_res + job.limit;
                // `job_test_resv`: a job past its reservation's end, or kept
                // from its whole partition, is deferred without a plan.
                if let Some(a) = &self.advance {
                    let deferred = match job.resv {
                        Some(r) => start_res > a.end(r),
                        None => a.blocks(p, start_res, end),
                    };
                    if deferred {
                        break false;
                    }
                }
                self.marked_before.copy_from_slice(&self.marked);
                let (available, later) = self.mark_available(&job, start_res, end, horizon);
                // Why: nothing starts or is reserved between a job's tests, so
                // the will-run test depends only on the nodes marked: a test
                // marking the same nodes as the previous one has its result.
                let planned = match before {
                    Some(planned) if self.marked == self.marked_before => planned,
                    // Too few nodes free of reservations: no will-run test.
                    _ if available < job.need.nodes => None,
                    _ => self.will_run(now, &job),
                };
                before = Some(planned);
                estimated |= planned.is_some() && !now_only;
                let Some(start) = planned else {
                    if now_only {
                        break false;
                    }
                    match later {
                        Some(l) if retries > 0 => {
                            start_res = l;
                            continue;
                        }
                        _ => break false,
                    }
                };
                let mut start = start.max(start_res);
                let mut picked = false;
                if start <= now {
                    self.pick_planned(&job);
                    // `_attempt_backfill`: on a COMPLETING node (a preempted
                    // job's epilog), a start now waits: reserved a second on.
                    if !self.found.iter().any(|&n| self.completing[n as usize] == self.pass) {
                        break true;
                    }
                    picked = true;
                    start = now + 1;
                }
                if now_only {
                    break false;
                }
                if let Some(l) = later.filter(|&l| start > l && retries > 0) {
                    start_res = l;
                    continue;
                }
                if start > horizon {
                    // The job keeps its estimate (`start_time`), beyond the window too.
                    self.estimated_in[j as usize] = self.pass;
                    break false;
                }
                if !picked {
                    self.pick_planned(&job);
                }
                // `_add_reservation`: both ends rounded down to the resolution,
                // at least one resolution long, within the window.
                let begin = start.div_euclid(resolution) * resolution;
                let until = ((start + job.limit).div_euclid(resolution) * resolution).max(begin + resolution);
                // `_test_resv_overlap`: the nodes must be free of other reservations then.
                let reserved = &self.reserved;
                if self.found.iter().any(|&n| {
                    let r = &reserved[n as usize];
                    r.get(r.partition_point(|&(_, e, _)| e <= begin)).is_some_and(|&(b, _, _)| b < until)
                }) {
                    if retries > 0 {
                        start_res = start;
                        continue;
                    }
                    break false;
                }
                let (begin, until) = (begin.max(now), until.min(horizon));
                for &n in &self.found {
                    // Kept in order: a node's reservations never overlap.
                    let r = &mut self.reserved[n as usize];
                    let at = r.partition_point(|&(b, _, _)| b < begin);
                    r.insert(at, (begin, until, until));
                    // Why: the run ends are kept here, where a run changes,
                    // not found again at each test (runs grow long).
                    let (mut first, mut last) = (at, at);
                    while first > 0 && r[first].0 <= r[first - 1].1 {
                        first -= 1;
                    }
                    while last + 1 < r.len() && r[last + 1].0 <= r[last].1 {
                        last += 1;
                    }
                    let run_end = r[last].1;
                    for x in &mut r[first..=last] {
                        x.2 = run_end;
                    }
                    self.special[n as usize / 64] |= 1 << (n % 64);
                }
                self.reservation_count += 1;
                self.estimated_in[j as usize] = self.pass;
                break false;
            };
            if started {
                self.start(now, j, true, outbox);
                self.counters.backfill_starts += 1;
                self.queue.remove(i);
                i = self.started_from(r, j, i);
                let expected = now + job.limit;
                let at = self.releases.partition_point(|x| (x.at, x.job) < (expected, j));
                let release = self.release_of(expected, j);
                self.releases.insert(at, release);
                self.index_releases();
                continue;
            }
            i += 1;
        }
        self.reservation_count = 0;
        estimated || (tried < max_tests && i < self.queue.len())
    }

    /// Whether `job` is past `bf_max_job_part` or `bf_max_job_user` in this
    /// backfill pass (`_job_exceeds_max_bf_param`: the partition's count,
    /// then the user's; both count the job when neither is reached).
    fn over_bf_max(&mut self, job: &Queued) -> bool {
        let (p, u) = (job.partition as usize, job.user as usize);
        let part_full = self.bf_part.get(p).is_some_and(|&c| c >= self.sched.bf_max_job_part);
        let user_full = self.bf_user.get(u).is_some_and(|&c| c >= self.sched.bf_max_job_user);
        if part_full || user_full {
            self.counters.bf_max_job_skips += 1;
            return true;
        }
        if let Some(c) = self.bf_part.get_mut(p) {
            *c += 1;
        }
        if let Some(c) = self.bf_user.get_mut(u) {
            *c += 1;
        }
        false
    }

    /// Marks the nodes of partition `p` that no reservation holds between
    /// `start_res` and `end` (`_attempt_backfill`'s `avail_bitmap`: a
    /// reservation that begins at `end` counts), and returns how many, and
    /// `later_start`: the first instant after `start_res`, within the
    /// window, at which a reservation of the partition's nodes ends and its
    /// node is free. The marked
    /// nodes are in `marked`; the will-run test starts from their free
    /// resources.
    ///
    /// Only nodes of the job's node set are marked; with advance
    /// reservations, only those none of them keeps from the job over
    /// `[start_res, end)`, and when one did, `later_start` is at most just
    /// after the first reservation's end (`find_resv_end`).
    fn mark_available(&mut self, job: &Queued, start_res: Time, end: Time, horizon: Time) -> (u32, Option<Time>) {
        let p = job.partition as usize;
        let mut later: Option<Time> = None;
        let mut available = 0;
        let mut resv_overlap = false;
        let advance = self.advance.as_deref();
        for w in 0..self.marked.len() {
            let nodes = self.part_words[p][w];
            // Why: a node no reservation of either kind holds is available
            // as it is (most nodes): a whole word at once. The others, and
            // all of a job with a node set, are tested one by one.
            let plain = if job.set == 0 { nodes & !self.special[w] } else { 0 };
            let mut marked = plain;
            let mut rest = nodes & !plain;
            while rest != 0 {
                let n = (w * 64) as u32 + rest.trailing_zeros();
                rest &= rest - 1;
                if self.advance_node[n as usize] && advance.is_some_and(|a| a.holds(n, job.resv, start_res, end)) {
                    resv_overlap = true;
                    continue;
                }
                // A node's reservations are in order and never overlap, so
                // their ends are in order too: the first one not ended at
                // `start_res`.
                let r = &self.reserved[n as usize];
                let k = r.partition_point(|&(_, e, _)| e <= start_res);
                // Features filter the nodes after `later_start` is found.
                if r.get(k).is_none_or(|&(b, _, _)| b > end) && self.machine.allows(job.set, n) {
                    marked |= 1 << (n % 64);
                }
                // The node is free again at the end of the run of
                // reservations (each beginning where the one before ends)
                // that holds it at `start_res`.
                if let Some(&(_, _, e)) = r.get(k)
                    && e < horizon
                    && later.is_none_or(|l| e < l)
                {
                    later = Some(e);
                }
            }
            self.marked[w] = marked;
            available += marked.count_ones();
        }
        if resv_overlap
            && let Some(e) = self.advance.as_ref().and_then(|a| a.first_end(start_res, self.sched.bf_resolution))
            && e + 1 < horizon
            && later.is_none_or(|l| e + 1 < l)
        {
            later = Some(e + 1);
        }
        (available, later)
    }

    /// cons_tres's will-run test on the nodes [`Controller::mark_available`]
    /// marked (Slurm 22.05,
    /// `select/cons_common/job_test.c`, `_will_run_test`): now, if the job
    /// fits the free resources; else the running jobs are taken away in
    /// the order of their expected ends, in batches up to a barrier (the
    /// first one's end rounded up to 30 s of the epoch) plus a window of
    /// 30 s, doubled after each batch, and the job starts at the expected
    /// end of the last job of the first batch after which it fits. The
    /// resources it is tested on are left in `scratch`: its nodes are then
    /// [`Controller::pick_planned`]'s (cons_tres finds them exactly when
    /// enough nodes can hold it, so the start stands without them).
    fn will_run(&mut self, now: Time, job: &Queued) -> Option<Time> {
        let need = job.need;
        self.tested += 1;
        // Why: on a full machine most jobs fit on no node; the partition's
        // largest free resources tell without looking at each node.
        let mut fitting = 0;
        if self.bound[job.partition as usize].holds(&need) {
            for (w, &word) in self.marked.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    let n = w * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if self.machine.free[n].holds(&need) {
                        fitting += 1;
                    }
                }
            }
        }
        if fitting >= need.nodes {
            return Some(now);
        }
        let stamp = self.tested;
        let mut barrier: Option<Time> = None;
        let mut window: Time = 30;
        let releases = &self.releases;
        // Why: a job with no node in the partition has none marked, so only
        // the partition's releases are walked; `r` is where a walk of all
        // of them would be (the next release bounds a batch).
        let mine = &self.part_releases[job.partition as usize];
        let mut i = 0;
        let mut r = 0;
        while r < releases.len() {
            let mut last = None;
            loop {
                let Some(&g) = mine.get(i) else {
                    r = releases.len();
                    break;
                };
                i += 1;
                r = g as usize + 1;
                let x = &releases[g as usize];
                let nodes = &self.nodes[x.first as usize..(x.first + x.need.nodes) as usize];
                if !nodes.iter().any(|&n| is_set(&self.marked, n)) {
                    continue;
                }
                let t = x.at;
                let barrier = *barrier.get_or_insert_with(|| t + 30 - (t + self.epoch).rem_euclid(30));
                last = Some(t);
                for &n in nodes {
                    if !is_set(&self.marked, n) {
                        continue;
                    }
                    let s = &mut self.scratch[n as usize];
                    // Why: a marked node's resources are copied when a
                    // release first touches it, not all at marking.
                    if self.scratch_at[n as usize] != stamp {
                        *s = self.machine.free[n as usize];
                        self.scratch_at[n as usize] = stamp;
                    }
                    let held = s.holds(&need);
                    s.cpus += x.need.cpus;
                    s.mem_mib += x.need.mem_mib;
                    s.gpus += x.need.gpus;
                    if !held && s.holds(&need) {
                        fitting += 1;
                    }
                }
                if releases.get(r).is_some_and(|next| next.at > barrier + window) {
                    break;
                }
            }
            let Some(last) = last else {
                break;
            };
            let barrier = barrier.unwrap_or(last);
            let next = releases.get(r).map(|x| x.at);
            loop {
                window *= 2;
                if next.is_none_or(|t| t <= barrier + window) {
                    break;
                }
            }
            if fitting >= need.nodes {
                return Some(last.max(now + 1));
            }
        }
        None
    }

    /// The nodes cons_tres gives `job` on the resources of its last
    /// will-run test, in `found`.
    fn pick_planned(&mut self, job: &Queued) {
        let free = offered(&self.scratch, &self.scratch_at, &self.machine.free, &self.marked, self.tested, &job.need);
        let picked = self.machine.pick(job.partition as usize, &job.need, free, &mut self.found);
        debug_assert!(picked, "the will-run test found enough nodes");
    }

    /// Indexes `releases` by partition (`part_releases`).
    fn index_releases(&mut self) {
        for (p, list) in self.part_releases.iter_mut().enumerate() {
            let bit = part_bit(p);
            list.clear();
            list.extend((0..self.releases.len() as u32).filter(|&g| self.releases[g as usize].parts & bit != 0));
        }
    }

    /// A running job expected to end at `at`, for the will-run test.
    fn release_of(&self, at: Time, job: u32) -> Release {
        Release {
            at,
            job,
            parts: self.job_parts[job as usize],
            first: self.node_at[job as usize],
            need: self.jobs[job as usize].need,
        }
    }

    /// What the run produced.
    pub fn outcomes(&self) -> (&[Outcome], Counters) {
        (&self.outcome, self.counters)
    }
}

/// A running job as the will-run test takes it away: its expected end,
/// the partitions holding one of its nodes, and its nodes and need.
#[derive(Debug, Clone, Copy)]
struct Release {
    at: Time,
    job: u32,
    parts: u64,
    first: u32,
    need: Need,
}

/// The bit of partition `p` in a node's or job's partitions (partitions
/// from the 64th on share the last bit).
#[inline]
/// Charges `job`, started at `start`, for its run from `since` (or its
/// start) to `now`, decayed by `d` per second as `_apply_new_usage` does.
fn charge_run(fairshare: &mut FairTree, job: &Queued, start: Time, since: Time, now: Time, d: f64) {
    let from = start.max(since);
    if now > from {
        let r = (now - from) as f64;
        fairshare.charge(job.assoc, job.billing * r * d.powf(r));
    }
}

fn part_bit(p: usize) -> u64 {
    1 << p.min(63)
}

/// The nodes a preemption test may use.
#[derive(Debug, Clone, Copy)]
enum Usable {
    /// Those the main pass `pass` has not blocked.
    Unblocked(u64),
    /// Those [`Controller::mark_available`] marked last (free of backfill reservations).
    Marked,
}

/// Is node `n` in bitset `words`?
#[inline(always)]
fn is_set(words: &[u64], n: u32) -> bool {
    words[n as usize / 64] >> (n % 64) & 1 != 0
}

/// For [`Machine::pick`]: the CPUs of a node in `marked` that can hold
/// `need` given its resources in the test of `stamp` (`resources` where
/// `at` is `stamp`, else `free`), else `None`.
fn offered<'a>(
    resources: &'a [crate::machine::Resources],
    at: &'a [u64],
    free: &'a [crate::machine::Resources],
    marked: &'a [u64],
    stamp: u64,
    need: &'a Need,
) -> impl FnMut(u32) -> Option<u32> + 'a {
    move |n| {
        if !is_set(marked, n) {
            return None;
        }
        let f = if at[n as usize] == stamp { resources[n as usize] } else { free[n as usize] };
        f.holds(need).then_some(f.cpus)
    }
}

impl Model for Controller {
    type Msg = ControllerMsg;

    fn handle(&mut self, now: Time, msg: ControllerMsg, mut outbox: Outbox<ControllerMsg>) -> Outbox<ControllerMsg> {
        match msg {
            ControllerMsg::Submit(j) => self.submit(now, j, &mut outbox),
            ControllerMsg::Submitted(_) => self.touch(now, &mut outbox),
            ControllerMsg::End(j) => self.end(now, j, &mut outbox),
            ControllerMsg::Tick => {
                self.tick(now);
                // New priorities of pending jobs are a change for the
                // backfill scheduler (`last_job_update`); with none pending,
                // nothing changed.
                if !self.queue.is_empty() {
                    self.touch(now, &mut outbox);
                }
                let mut due = self.next_tick;
                if let Some(t) = self.rearm(now, self.priority.settings().calc_period, &mut due) {
                    outbox.push(Scheduled::me(t, TICK, ControllerMsg::Tick));
                }
                self.next_tick = due;
            }
            ControllerMsg::Main(Pass::JobEnd) => {
                // No longer due: a preemption in it asks for another.
                self.main_due = Time::MIN;
                self.main(now, false, &mut outbox);
            }
            ControllerMsg::Main(Pass::Batch) => {
                // A full pass since it was asked for took its submissions.
                if self.batch_due == Some(now) {
                    self.batch_due = None;
                    self.last_background = now;
                    self.main(now, false, &mut outbox);
                }
            }
            ControllerMsg::Main(Pass::Full) => {
                // The full pass clears `job_sched_cnt`: no batch pass is due.
                self.batch_due = None;
                self.last_background = now;
                self.main(now, true, &mut outbox);
                let mut due = self.next_main;
                if let Some(t) = self.rearm(now, self.sched.sched_interval, &mut due) {
                    outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main(Pass::Full)));
                }
                self.next_main = due;
            }
            // A requeued job's `begin_time` passes: the next pass finds it
            // (no change for the backfill scheduler, no batch pass).
            ControllerMsg::Eligible(j) => {
                self.enqueue(now, j);
                self.arm(now, &mut outbox);
            }
            ControllerMsg::Backfill => {
                self.next_backfill = None;
                // `_more_work`: a change since the second the previous pass
                // ended, that second included.
                if self.changed_at < self.last_backfill && !self.estimated {
                    self.counters.backfill_skipped += 1;
                } else {
                    self.last_backfill = now;
                    self.estimated = self.backfill(now, &mut outbox);
                    // A change in this second, before or in the pass, is
                    // work for the next one.
                    if self.changed_at >= now || self.estimated {
                        self.arm_backfill(now, &mut outbox);
                    }
                }
            }
        }
        outbox
    }
}

impl Receive<Arrival> for Controller {
    fn receive(item: Arrival) -> ControllerMsg {
        if item.eligible { ControllerMsg::Submit(item.job) } else { ControllerMsg::Submitted(item.job) }
    }
}

impl Batched for Controller {
    fn buffers(&mut self) -> &mut Buffers<ControllerMsg> {
        &mut self.buffers
    }
}

/// What a finished controller hands back.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Per job.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: Counters,
    /// Every started job's nodes, one after the other.
    pub nodes: Vec<u32>,
    /// Per job: the reason it last waited for, or was rejected for (empty
    /// when no job had one).
    pub reasons: Vec<Option<crate::accounting::Reason>>,
    /// Per job: where its nodes begin in `nodes`.
    pub node_at: Vec<u32>,
    /// Per job, with dependencies or throttles: the reason it last waited
    /// outside the queue for (empty without).
    pub waits: Vec<Option<crate::dependency::Wait>>,
}

impl Finish for Controller {
    type Final = Finished;

    fn finish(&mut self) -> Self::Final {
        let mut reasons = self.limits.as_mut().map(|l| std::mem::take(&mut l.reasons)).unwrap_or_default();
        if let Some(l) = &self.limits {
            let part = crate::accounting::Reason::PartitionTimeLimit as usize;
            let held = self.counters.limited[part];
            self.counters.limited = l.hits;
            self.counters.limited[part] += held;
        }
        if !self.over_part.is_empty() {
            reasons.resize(self.outcome.len(), None);
            for &j in &self.over_part {
                reasons[j as usize] = Some(crate::accounting::Reason::PartitionTimeLimit);
            }
        }
        if let Some(d) = &self.relations {
            self.counters.waited = d.hits;
        }
        Finished {
            outcomes: std::mem::take(&mut self.outcome),
            counters: self.counters,
            nodes: std::mem::take(&mut self.nodes),
            node_at: std::mem::take(&mut self.node_at),
            reasons,
            waits: self.relations.as_mut().map(|d| std::mem::take(&mut d.reasons)).unwrap_or_default(),
        }
    }
}
