//! The controller: Slurm's queue, its main scheduler and its backfill
//! scheduler on one machine, as a kernel model. Its state is here; its work
//! is cut as slurmctld's files cut it: [`job_mgr`] (a job's submission,
//! start and end), [`job_scheduler`] (the queue and the main scheduler),
//! [`backfill`] (the backfill scheduler and cons_tres's will-run test, with
//! its pass's reservations in a [`node_space`]),
//! [`preempt`] (preempting running jobs), [`requeue`] (what becomes of a
//! job taken off its nodes), [`decay`] (the priority
//! calculation's tick) and [`model`] (the kernel adapter: messages, the
//! periodic events, what a run hands back).
//!
//! Sources: Slurm 22.05, `src/slurmctld/controller.c`
//! (`_slurmctld_background`), and the sources each module cites.
//!
//! Contract:
//! - A controller is built from a [`Proto`] (its proto-model: the machine
//!   and jobs as admitted, a run's copy of what it changes) and keeps the
//!   proto's [`Settings`] whole: the one shape a point's settings take from
//!   its config on ([`crate::kind::SlurmSettings::controller`]).
//! - Same-instant order ([`crate::instant`]): node events, job ends,
//!   submissions, the main scheduler, the backfill scheduler, the priority
//!   tick. So every start at `t` sees every end and submission at `t`, and
//!   priorities recomputed at `t` from the next pass on.
//! - The periodic events (priority ticks, full main passes) keep the phase
//!   of slurmctld's start ([`Settings::started`]; the first submission
//!   when unknown).
//! - With accounting dumps ([`crate::accounting`]) and
//!   `AccountingStorageEnforce=limits`: a job over a
//!   submission limit is never queued; a job a QOS or association limit
//!   holds is skipped by the main scheduler (its partition not blocked) and
//!   by backfill (no start, no reservation); the limits' usage changes at
//!   each start and end. Fair-share usage is charged per job's `billing` at
//!   each priority tick and, under `AccountingStorageEnforce=limits`, at a
//!   job's end ([`Settings::charge_at_end`]).
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
//! - With node events ([`crate::outage`]): a node out of service is given
//!   to no job, by either scheduler or by preemption. A drained node's
//!   running jobs run on; a node going down kills its jobs, which are
//!   requeued or ended ([`requeue`]).
//! - Jobs running when the run begins ([`Resumed`], a forecast's snapshot)
//!   hold their nodes from the start and end as any job does; they are never
//!   submitted.
//! - Deterministic: no hash order, no wall clock.

pub mod backfill;
pub mod decay;
pub mod fitting;
pub mod job_mgr;
pub mod job_scheduler;
pub mod model;
pub mod node_space;
pub mod preempt;
pub mod requeue;

use crate::accounting::Limits;
use crate::advance::AdvanceReservations;
use crate::conf::{EnforcePartLimits, PrioritySettings, RequeueSettings, SchedulerSettings, SlurmConf};
use crate::dependency::Dependencies;
use crate::machine::{Machine, Need, Picked};
use crate::multipart::MultiPartition;
use crate::outage::{NodeStates, Outages};
use crate::preemption::Preemption;
use crate::priority::{FairTree, Multifactor};
use backfill::Release;
use node_space::NodeSpace;
use requeue::Requeues;
use slasim_machine::Resources;
use slasim_sim::model::Buffers;
use slasim_sim::units::Time;

pub use model::Finished;

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
    /// Times a node failure killed its run ([`requeue`]).
    pub node_failed: u32,
    /// A node failure ended it, not requeued (`JobRequeue=0`; then `end`
    /// is that instant).
    pub node_fail_ended: bool,
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
    /// Runs killed by a node going down ([`requeue`]).
    pub node_failed: u64,
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
    /// Nodes go out of scheduling or come back ([`crate::outage`]).
    Nodes,
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

/// A controller's settings, resolved: the `slurm.conf`'s with a point's
/// changes, and where its clocks start on the workload's time axis. A
/// [`Proto`] carries it and the controller keeps it whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Multifactor priority (`Priority*`).
    pub priority: PrioritySettings,
    /// The schedulers (`SchedulerType`, `SchedulerParameters`).
    pub scheduler: SchedulerSettings,
    /// slurmctld's start: the phase of the periodic events (0, the first
    /// submission, when unknown).
    pub started: Time,
    /// The backfill agent's start (`backfill_agent`). Its first check,
    /// `bf_interval` later, finds the work of slurmctld's own start and
    /// passes; then it passes `bf_interval` after each pass that found work,
    /// or at the first second with work after that. `None`: the agent has
    /// long been running.
    pub backfill_started: Option<Time>,
    /// The Unix time of the workload's time 0 (0 when it has none): the
    /// will-run test's batches are aligned on the epoch.
    pub epoch: Time,
    /// `EnforcePartLimits` is `ANY` or `ALL`: a job over its partition's
    /// limits is rejected at submission instead of held.
    pub enforce_part_limits: bool,
    /// A job's fair-share usage since the last priority calculation is
    /// charged when it ends (`AccountingStorageEnforce=limits`:
    /// `acct_policy_job_fini` calls `priority_p_job_end`); otherwise that
    /// last stretch is never charged.
    pub charge_at_end: bool,
    /// When a started run ends (its start plus its run time unless set).
    pub run_end: RunEnd,
    /// What becomes of a job taken off its nodes ([`requeue`]).
    pub requeue: RequeueSettings,
    /// Every will-run test walks the running jobs one by one, as
    /// `_will_run_test` does, instead of reading a job without GPUs from
    /// the pass's fitting orders ([`fitting`]). Both give the same
    /// schedule; the walk is the slower reference the tests hold the
    /// orders to.
    pub walk_releases: bool,
}

impl Settings {
    /// `conf`'s own settings, for a workload whose time 0 is Unix time
    /// `epoch` (none: 0).
    pub fn of(conf: &SlurmConf, epoch: Option<Time>) -> Settings {
        Settings {
            priority: conf.priority.clone(),
            scheduler: conf.scheduler.clone(),
            started: 0,
            backfill_started: None,
            epoch: epoch.unwrap_or(0),
            enforce_part_limits: conf.site.enforce_part_limits != EnforcePartLimits::No,
            charge_at_end: conf.site.accounting_enforce.limits,
            run_end: RunEnd::AfterStart,
            requeue: conf.site.requeue,
            walk_releases: false,
        }
    }
}

/// What a controller is built from (its proto-model): the machine and the
/// jobs as admitted, this run's copy of what it changes, and its settings.
/// [`Controller::new`] takes it whole.
#[derive(Debug, Clone)]
pub struct Proto {
    /// The settings.
    pub settings: Settings,
    /// The machine, every node free, with the jobs' node sets.
    pub machine: Machine,
    /// Multifactor priority under `settings.priority`.
    pub priority: Multifactor,
    /// The jobs, whose associations (each job's [`Queued::assoc`]) are the
    /// users of `fairshare`.
    pub jobs: Vec<Queued>,
    /// The fair-share tree.
    pub fairshare: FairTree,
    /// The QOS and association limits, enforced ([`crate::accounting`]).
    pub limits: Option<Limits>,
    /// Preemption, when on ([`crate::preemption`]).
    pub preempt: Option<Preemption>,
    /// Advance reservations ([`crate::advance`]).
    pub advance: Option<AdvanceReservations>,
    /// Dependencies and array throttles ([`crate::dependency`]).
    pub relations: Option<Dependencies>,
    /// Jobs of several partitions ([`crate::multipart`]).
    pub multi: Option<MultiPartition>,
    /// Node events ([`crate::outage`]).
    pub outages: Option<Outages>,
    /// Jobs running when the run begins ([`crate::forecast`]).
    pub running: Vec<Resumed>,
}

/// A job running when the run begins (a snapshot's): on its nodes since
/// `start` (before 0), never submitted in the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed {
    /// The job.
    pub job: u32,
    /// Its nodes.
    pub nodes: Vec<u32>,
    /// Its start.
    pub start: Time,
}

impl Resumed {
    /// When it ends: its start plus its run time, cut at its limit, and
    /// not before 1 (it was running at 0).
    pub fn end(&self, job: &Queued) -> Time {
        (self.start + job.run.min(job.limit)).max(1)
    }
}

/// The controller model.
pub struct Controller {
    machine: Machine,
    /// The settings, as the run was given them.
    settings: Settings,
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
    counters: Counters,
    // Scratch, reused across passes.
    found: Picked,
    blocked_node: Vec<u64>,
    /// Per node: the pass in which its job was preempted. It is COMPLETING
    /// for the rest of that pass, its job's epilog running; no job starts on
    /// it then (`cg_node_bitmap`).
    completing: Vec<u64>,
    /// Per job: the backfill pass in which one of its records got a start
    /// estimate (`bf_one_resv_per_job`: its later records test now only).
    estimated_in: Vec<u64>,
    /// Per job: its run ends after the backfill pass of its end's second
    /// ([`crate::instant::END_AFTER_BACKFILL`]).
    ends_after_backfill: Vec<bool>,
    /// The last instant a job ended after that instant's backfill pass: a
    /// main pass then is at the backfill pass's place in the second too.
    ended_after_backfill: Time,
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
    scratch: Vec<slasim_machine::Resources>,
    /// Nodes a preemption test of a GPU job evaluated ([`preempt`]).
    near_nodes: Vec<u32>,
    /// This backfill pass's reservations, as records ([`node_space`]).
    space: NodeSpace,
    /// Bitset of the nodes a reservation of this pass holds over the
    /// window tested.
    window: Vec<u64>,
    /// Bitset of the partition's nodes no advance reservation keeps from
    /// the job tested.
    open: Vec<u64>,
    /// Reservations made in this backfill pass.
    reservation_count: usize,
    /// Bitset of the nodes available to the job tested.
    marked: Vec<u64>,
    /// Stamps for `part_mark`.
    stamp: u64,
    /// The marks of the job's previous test in this pass.
    marked_before: Vec<u64>,
    /// Bitset of positions in the tested job's partition: the nodes that
    /// hold it in its last will-run test ([`Controller::pick_planned`]).
    holding: Vec<u64>,
    /// Will-run tests so far.
    tested: u64,
    /// Per node: `scratch` holds its resources in will-run test `tested`;
    /// otherwise they are its free ones, not copied yet.
    scratch_at: Vec<u64>,
    /// Per partition: its nodes as a bitset.
    part_words: Vec<Vec<u64>>,
    /// Bitset of the nodes an advance reservation holds at some time.
    advance_words: Vec<u64>,
    /// Per partition: the largest free CPUs, MiB and GPUs on one of its
    /// nodes in this backfill pass, kept up to date.
    bound: Vec<slasim_machine::Resources>,
    /// Nodes of the preemptor's partition, marked with `stamp` (preemption).
    part_mark: Vec<u64>,
    /// Starts, ends and preemptions so far (preemption's cache key).
    changes: u64,
    most: Vec<slasim_machine::Resources>,
    /// When each node could hold each shape tested in this backfill pass.
    fitting: fitting::Fitting,
    /// The partition, shape and releases taken away of the last will-run
    /// test by fitting order, until `holding` is filled from them.
    unfilled: Option<(usize, fitting::Shaped, u32)>,
    /// Per user and per partition: the jobs this backfill pass tested
    /// (`bf_max_job_user`, `bf_max_job_part`; empty when unset).
    bf_user: Vec<u32>,
    bf_part: Vec<u32>,
    /// The number of users (`Queued::user` is below it).
    users: usize,
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
    /// Node events ([`crate::outage`]), and the next of their changes.
    outages: Option<Box<Outages>>,
    next_change: usize,
    /// Which nodes are in service (all without node events).
    states: NodeStates,
    /// Per job, its queue order and age as requeues change them ([`requeue`]).
    requeues: Requeues,
    buffers: Buffers<ControllerMsg>,
}

impl Controller {
    /// The controller `proto` describes, nothing submitted yet.
    pub fn new(proto: Proto) -> Controller {
        let Proto {
            settings,
            machine,
            priority,
            jobs,
            fairshare,
            limits,
            preempt,
            advance,
            relations,
            multi,
            outages,
            running,
        } = proto;
        let n = jobs.len();
        let nodes = machine.spec.len();
        let parts = machine.partitions.len();
        let taken_off = preempt.is_some() || outages.as_ref().is_some_and(|o| o.changes.iter().any(|c| c.down));
        let requeues = Requeues::new(settings.requeue, jobs.iter().map(|j| j.submit), taken_off);
        let mut controller = Controller {
            scratch: machine.free.clone(),
            reservation_count: 0,
            near_nodes: Vec::new(),
            marked: vec![0; nodes.div_ceil(64)],
            marked_before: vec![0; nodes.div_ceil(64)],
            holding: vec![0; nodes.div_ceil(64)],
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
            space: NodeSpace::new(nodes),
            window: vec![0; nodes.div_ceil(64)],
            open: vec![0; nodes.div_ceil(64)],
            bound: Vec::new(),
            part_mark: vec![0; nodes],
            changes: 0,
            stamp: 0,
            most: Vec::new(),
            fitting: fitting::Fitting::default(),
            unfilled: None,
            bf_user: Vec::new(),
            bf_part: Vec::new(),
            users: jobs.iter().map(|j| j.user as usize + 1).max().unwrap_or(0),
            over_part: Vec::new(),
            blocked_node: vec![0; nodes],
            completing: vec![u64::MAX; nodes],
            estimated_in: vec![u64::MAX; n],
            ends_after_backfill: vec![false; n],
            ended_after_backfill: Time::MIN,
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
            priority,
            fairshare,
            jobs,
            outcome: vec![Outcome { start: -1, end: -1, ..Outcome::default() }; n],
            prio: vec![0; n],
            nodes: Vec::new(),
            node_at: vec![0; n],
            queue: Vec::new(),
            running: Vec::new(),
            last_tick: settings.started,
            done: 0,
            changed_at: Time::MIN / 2,
            main_due: -1,
            batch_due: None,
            last_background: Time::MIN / 2,
            next_tick: None,
            next_main: None,
            next_backfill: None,
            last_backfill: match settings.backfill_started {
                Some(s) => {
                    let first = s + settings.scheduler.bf_interval.max(1);
                    // A first pass before the workload's first submission found no job.
                    if first <= 0 { first } else { s }
                }
                None => Time::MIN / 2,
            },
            estimated: false,
            counters: Counters::default(),
            found: Picked::default(),
            pass: 0,
            releases: Vec::new(),
            part_releases: vec![Vec::new(); parts],
            limits: limits.map(Box::new),
            preempt: preempt.map(Box::new),
            advance: None,
            resv_failed: Vec::new(),
            relations: relations.map(Box::new),
            multi: None,
            outages: None,
            next_change: 0,
            states: NodeStates::new(nodes),
            requeues,
            settings,
            buffers: Buffers::default(),
        };
        controller.take_out(outages);
        controller.resume(running);
        controller.hold(advance);
        if let Some(m) = &multi {
            controller.prio.resize(m.records(), 0);
        }
        controller.multi = multi.map(Box::new);
        controller
    }

    /// Puts `running` on their nodes, as started before the run; their ends
    /// are seeded by the bench ([`Resumed::end`]).
    fn resume(&mut self, running: Vec<Resumed>) {
        for r in running {
            let j = r.job;
            let job = self.jobs[j as usize];
            self.machine.take(&r.nodes, &job.need);
            self.node_at[j as usize] = self.nodes.len() as u32;
            self.nodes.extend_from_slice(&r.nodes);
            self.job_parts[j as usize] = r.nodes.iter().fold(0, |m, &n| m | self.node_parts[n as usize]);
            self.outcome[j as usize] = Outcome {
                start: r.start,
                end: r.end(&job),
                priority: 0,
                backfilled: false,
                first_node: r.nodes.first().copied().unwrap_or(0),
                partition: job.partition,
                ..Outcome::default()
            };
            self.running.push(j);
            if let Some(l) = &mut self.limits {
                l.resumed(j);
            }
            if let Some(d) = &mut self.relations {
                d.started(j);
            }
        }
    }

    /// Holds `outages` ([`crate::outage`]): the changes before the first
    /// submission are made now, the others as the kernel reaches them.
    fn take_out(&mut self, outages: Option<Outages>) {
        if let Some(o) = &outages {
            self.next_change = o.first_after(0).unwrap_or(o.changes.len());
            for &c in &o.changes[..self.next_change] {
                self.states.apply(c);
            }
        }
        self.outages = outages.map(Box::new);
    }

    /// Holds `advance` reservations ([`crate::advance`]): which nodes they
    /// hold, and per reservation the main pass one of its jobs did not fit.
    fn hold(&mut self, advance: Option<AdvanceReservations>) {
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
    }

    /// Job `j`'s submit time in the queue order (a requeue changes it).
    #[inline]
    fn submit_of(&self, j: u32) -> Time {
        match self.requeues.order.get(j as usize) {
            Some(&(submit, _)) => submit,
            None => self.jobs[j as usize].submit,
        }
    }

    /// Where job `j`'s age is counted from: its submission, or the later
    /// of its requeue's eligibility and the time its dependency was met.
    #[inline]
    fn since(&self, j: u32) -> Time {
        let requeued = self.requeues.order.get(j as usize).map_or(self.jobs[j as usize].submit, |&(_, since)| since);
        let eligible = self.relations.as_ref().map_or(requeued, |d| d.accrue[j as usize]);
        requeued.max(eligible)
    }

    /// cons_tres's evaluation of a GPU job of partition `p` and `need` on
    /// the nodes `evaluated` gives resources for (`_can_job_run_on_node`:
    /// [`crate::machine::Machine::near_gpus`]).
    fn near_gpus(&mut self, p: usize, need: &Need, evaluated: impl Fn(&Controller, u32) -> Option<Resources>) {
        for k in 0..self.machine.partitions[p].nodes.len() {
            let n = self.machine.partitions[p].nodes[k];
            if let Some(f) = evaluated(self, n) {
                self.machine.near_gpus(n, need, &f);
            }
        }
    }

    /// May job `job`, running over `[from, to)` from now, be given node
    /// `n`: in service, in its node set, not COMPLETING, and not kept by an
    /// advance reservation?
    #[inline]
    fn usable(&self, job: &Queued, n: u32, from: Time, to: Time) -> bool {
        is_set(&self.states.up, n)
            && self.machine.allows(job.set, n)
            && self.completing[n as usize] != self.pass
            && self.advance.as_ref().is_none_or(|a| !a.holds(n, job.resv, from, to))
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

    /// What the run produced.
    pub fn outcomes(&self) -> (&[Outcome], Counters) {
        (&self.outcome, self.counters)
    }
}

/// The bit of partition `p` in a node's or job's partitions (partitions
/// from the 64th on share the last bit).
#[inline]
fn part_bit(p: usize) -> u64 {
    1 << p.min(63)
}

/// Is node `n` in bitset `words`?
#[inline(always)]
fn is_set(words: &[u64], n: u32) -> bool {
    words[n as usize / 64] >> (n % 64) & 1 != 0
}
