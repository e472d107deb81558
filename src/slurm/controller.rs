//! The controller: Slurm's queue, its main scheduler and its backfill
//! scheduler on one machine, as a kernel model.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_scheduler.c` (`schedule`,
//! `sort_job_queue2`), `src/plugins/sched/backfill/backfill.c`
//! (`_attempt_backfill`, `_add_reservation`), the documents `sched_config.html`
//! and `slurm.conf(5)` (SchedulerParameters).
//!
//! Contract:
//! - The queue is ordered by partition `PriorityTier` (higher first), then
//!   priority (higher first), then submit time, then job id.
//! - Same-instant order ([`crate::slurm::instant`]): job ends, submissions,
//!   the priority tick, the main scheduler, the backfill scheduler. So every
//!   start at `t` sees every end and submission at `t`.
//! - The main scheduler runs at every job end, `batch_sched_delay` (3 s)
//!   after its previous pass when a job is submitted (at once if that is
//!   past), and every `sched_interval` (a full pass). It walks the queue (at
//!   most `default_queue_depth` + 1 jobs, all of them in a full pass) and
//!   starts each job that fits now on its partition's nodes. When a job does not fit, its partition is blocked
//!   for the rest of the pass: no later job of it is tried, and its nodes
//!   are withheld from the jobs of other partitions.
//! - The backfill scheduler runs every `bf_interval`. It walks the queue (at
//!   most `bf_max_job_test` jobs). For each job it finds the earliest time
//!   within `bf_window` at which enough of its partition's nodes are free
//!   for its whole time limit, given the running jobs' expected ends (their
//!   start plus their time limit) and the nodes reserved for the jobs before
//!   it. A job that
//!   can start now starts; one that cannot has the nodes it would get
//!   reserved against the jobs after it: whole nodes, from its start to its
//!   expected end, both rounded down to `bf_resolution`.
//! - The periodic events (priority ticks, full main passes) keep the phase
//!   of slurmctld's start ([`Controller::started_at`]; the first submission
//!   when unknown). The backfill scheduler runs `bf_interval` after its
//!   previous pass once something changed (a submission, start, end or
//!   priority tick), at once if that is past: Slurm's agent checks every
//!   second for work (`_more_work`) once its interval is over. Without a
//!   change it does not run: it would decide the same.
//!   It stops early once no later job of the queue could fit now even with
//!   no reservation (it could only reserve, and reservations last one pass).
//! - A job runs for its run time, cut at its time limit.
//! - Deterministic: no hash order, no wall clock.

use std::sync::Arc;

use kameo::Actor;

use crate::sim::kernel::{Model, Outbox, Scheduled};
use crate::sim::model::{Batched, Buffers, Finish};
use crate::sim::port::Receive;
use crate::slurm::conf::SchedulerSettings;
use crate::slurm::instant::{Arrival, BACKFILL, JOB_END, MAIN, TICK};
use crate::slurm::machine::{Machine, Need};
use crate::slurm::priority::{FairTree, Fixed, Multifactor};
use crate::units::Time;

/// Slurm's `batch_sched_delay` default: seconds between a pass and the
/// next one a batch submission asks for.
pub const BATCH_SCHED_DELAY: Time = 3;

/// A job as the controller holds it.
#[derive(Debug, Clone, Copy)]
pub struct Queued {
    /// Its partition.
    pub partition: u16,
    /// Its user association (user in account).
    pub assoc: u32,
    /// What it takes on each node.
    pub need: Need,
    /// Its time limit.
    pub limit: Time,
    /// How long it runs (cut at the limit).
    pub run: Time,
    /// Submit time.
    pub submit: Time,
    /// Slurm's job id (the queue's last tie-break).
    pub id: u64,
    /// Its factors that never change.
    pub fixed: Fixed,
}

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
}

/// A message of the controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerMsg {
    /// A job is submitted.
    Submit(u32),
    /// A job ends.
    End(u32),
    /// The priority calculation period.
    Tick,
    /// The main scheduler (after an event, or its `sched_interval`).
    Main {
        /// Its periodic run (re-arms itself).
        periodic: bool,
    },
    /// The backfill scheduler.
    Backfill,
}

/// The controller model.
#[derive(Actor)]
pub struct Controller {
    machine: Machine,
    sched: SchedulerSettings,
    priority: Multifactor,
    fairshare: FairTree,
    jobs: Arc<[Queued]>,
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
    /// Something changed since the last backfill pass.
    dirty: bool,
    /// A main pass is already due at this time.
    main_due: Time,
    /// The last main pass.
    last_main: Time,
    /// When each periodic event is next due (`None`: not armed while idle).
    next_tick: Option<Time>,
    next_main: Option<Time>,
    /// The backfill pass asked for, if any.
    next_backfill: Option<Time>,
    /// The last backfill pass.
    last_backfill: Time,
    /// slurmctld's start on the workload's time axis: the periodic events'
    /// phase (the first submission when unknown).
    origin: Time,
    counters: Counters,
    // Scratch, reused across passes.
    found: Vec<u32>,
    blocked_node: Vec<u64>,
    blocked_part: Vec<u64>,
    pass: u64,
    releases: Vec<(Time, u32)>,
    scratch: Vec<crate::slurm::machine::Resources>,
    reserved: Vec<Vec<(Time, Time)>>,
    /// The ends of this pass's reservations, in order.
    reservation_ends: Vec<Time>,
    most: Vec<crate::slurm::machine::Resources>,
    buffers: Buffers<ControllerMsg>,
}

impl Controller {
    /// A controller of `machine` for `jobs`, whose associations belong to
    /// `assoc_accounts` of `accounts` accounts.
    pub fn new(
        machine: Machine,
        sched: SchedulerSettings,
        priority: Multifactor,
        jobs: Arc<[Queued]>,
        accounts: usize,
        assoc_accounts: &[u32],
    ) -> Controller {
        let n = jobs.len();
        let nodes = machine.size.len();
        let parts = machine.partitions.len();
        Controller {
            scratch: machine.free.clone(),
            reserved: vec![Vec::new(); nodes],
            reservation_ends: Vec::new(),
            most: Vec::new(),
            blocked_node: vec![0; nodes],
            blocked_part: vec![0; parts],
            machine,
            sched,
            priority,
            fairshare: FairTree::new(accounts, assoc_accounts),
            jobs,
            outcome: vec![Outcome { start: -1, end: -1, ..Outcome::default() }; n],
            prio: vec![0; n],
            nodes: Vec::new(),
            node_at: vec![0; n],
            queue: Vec::new(),
            running: Vec::new(),
            last_tick: 0,
            done: 0,
            dirty: true,
            main_due: -1,
            last_main: Time::MIN / 2,
            next_tick: None,
            next_main: None,
            next_backfill: None,
            last_backfill: Time::MIN / 2,
            origin: 0,
            counters: Counters::default(),
            found: Vec::new(),
            pass: 0,
            releases: Vec::new(),
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

    /// The queue order: tier, priority (higher first), submit, id.
    #[inline]
    fn before(&self, a: u32, b: u32) -> std::cmp::Ordering {
        let (ja, jb) = (&self.jobs[a as usize], &self.jobs[b as usize]);
        let tier = |j: &Queued| self.machine.partitions[j.partition as usize].priority_tier;
        tier(jb)
            .cmp(&tier(ja))
            .then(self.prio[b as usize].cmp(&self.prio[a as usize]))
            .then(ja.submit.cmp(&jb.submit))
            .then(ja.id.cmp(&jb.id))
    }

    fn sort_queue(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        queue.sort_by(|&a, &b| self.before(a, b));
        self.queue = queue;
    }

    fn submit(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        let job = &self.jobs[j as usize];
        self.prio[j as usize] = self.priority.priority(job.fixed, job.submit, now, self.fairshare.factor(job.assoc));
        let at = self.queue.partition_point(|&q| self.before(q, j) == std::cmp::Ordering::Less);
        self.queue.insert(at, j);
        self.touch(now, outbox);
        self.arm(now, outbox);
        // A batch job is first tried by the background loop's pass, at least
        // `batch_sched_delay` after the previous pass.
        let at = now.max(self.last_main + BATCH_SCHED_DELAY);
        self.main_at(at, outbox);
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
            outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main { periodic: true }));
        }
    }

    /// Something changed: the backfill scheduler runs `bf_interval` after its
    /// previous pass, or now if that is past (Slurm's agent checks every
    /// second for work once its interval is over).
    fn touch(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        self.dirty = true;
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
            outbox.push(Scheduled::me(at, MAIN, ControllerMsg::Main { periodic: false }));
        }
    }

    fn start(&mut self, now: Time, j: u32, backfilled: bool, outbox: &mut Outbox<ControllerMsg>) {
        let job = &self.jobs[j as usize];
        self.machine.take(&self.found, &job.need);
        self.node_at[j as usize] = self.nodes.len() as u32;
        self.nodes.extend_from_slice(&self.found);
        let end = now + job.run.min(job.limit);
        self.outcome[j as usize] = Outcome {
            start: now,
            end,
            priority: self.prio[j as usize],
            backfilled,
            first_node: self.found.first().copied().unwrap_or(0),
        };
        self.running.push(j);
        self.touch(now, outbox);
        outbox.push(Scheduled::me(end, JOB_END, ControllerMsg::End(j)));
    }

    fn end(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        let job = &self.jobs[j as usize];
        let first = self.node_at[j as usize] as usize;
        let nodes = &self.nodes[first..first + job.need.nodes as usize];
        self.machine.give(nodes, &job.need);
        if let Some(i) = self.running.iter().position(|&r| r == j) {
            self.running.swap_remove(i);
        }
        self.done += 1;
        self.touch(now, outbox);
        self.main_at(now, outbox);
    }

    /// The decay thread: usage decayed and charged, fair-share ranked,
    /// pending priorities recomputed.
    fn tick(&mut self, now: Time) {
        let half_life = self.priority.settings().decay_half_life;
        // Slurm's decay factor per second, its own approximation of 2^(−1/half-life).
        let d = if half_life > 0 { 1.0 - 0.693 / half_life as f64 } else { 1.0 };
        let elapsed = now - self.last_tick;
        if elapsed > 0 {
            self.fairshare.decay(d.powf(elapsed as f64));
        }
        // Slurm 22.05 charges usage only here, to the jobs running now, for
        // the time since the previous tick: what a job ran after the last
        // tick before its end is never charged (seen in RawUsage against the
        // jobs' CPU-seconds on a real slurmctld; see the guide's departures).
        let since = self.last_tick;
        for &j in &self.running {
            let (job, outcome) = (&self.jobs[j as usize], &self.outcome[j as usize]);
            let from = outcome.start.max(since);
            if now > from {
                let r = (now - from) as f64;
                self.fairshare.charge(job.assoc, f64::from(job.need.cpus * job.need.nodes) * r * d.powf(r));
            }
        }
        self.last_tick = now;
        self.fairshare.rank();
        for &j in &self.queue {
            let job = &self.jobs[j as usize];
            self.prio[j as usize] =
                self.priority.priority(job.fixed, job.submit, now, self.fairshare.factor(job.assoc));
        }
        self.sort_queue();
        self.dirty = true;
    }

    /// The main scheduler's pass (a full one ignores `default_queue_depth`).
    fn main(&mut self, now: Time, full: bool, outbox: &mut Outbox<ControllerMsg>) {
        self.counters.main_passes += 1;
        self.last_main = now;
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
            let j = self.queue[i];
            let job = &self.jobs[j as usize];
            let p = job.partition as usize;
            tested += 1;
            if self.blocked_part[p] == pass {
                i += 1;
                continue;
            }
            let need = job.need;
            let up = self.machine.partitions[p].up;
            let mut found = std::mem::take(&mut self.found);
            let fits = up && self.machine.find(p, &need, |n| self.blocked_node[n as usize] != pass, &mut found);
            self.found = found;
            if fits {
                self.start(now, j, false, outbox);
                self.queue.remove(i);
                started += 1;
            } else {
                self.blocked_part[p] = pass;
                blocked += 1;
                for &n in &self.machine.partitions[p].nodes {
                    self.blocked_node[n as usize] = pass;
                }
                i += 1;
            }
        }
        self.counters.main_starts += started as u64;
    }

    /// Could job `j` fit now on its partition, with no reservation? `most`
    /// holds each partition's largest free CPUs, MiB and GPUs on one node: a
    /// job above them cannot fit, and most jobs of a full machine are.
    #[inline]
    fn could_fit_now(&self, j: u32, most: &[crate::slurm::machine::Resources]) -> bool {
        let job = &self.jobs[j as usize];
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

    /// The backfill scheduler's pass.
    fn backfill(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        if !self.dirty {
            self.counters.backfill_skipped += 1;
            return;
        }
        self.dirty = false;
        self.counters.backfill_passes += 1;
        let limit = (self.sched.bf_max_job_test.max(1) as usize).min(self.queue.len());
        let mut most = std::mem::take(&mut self.most);
        most.clear();
        for part in &self.machine.partitions {
            most.push(part.nodes.iter().fold(crate::slurm::machine::Resources::default(), |m, &n| {
                let f = self.machine.free[n as usize];
                crate::slurm::machine::Resources {
                    cpus: m.cpus.max(f.cpus),
                    mem_mib: m.mem_mib.max(f.mem_mib),
                    gpus: m.gpus.max(f.gpus),
                }
            }));
        }
        // The last job in reach that could fit now: past it, a pass only reserves.
        let last = (0..limit).rev().find(|&i| self.could_fit_now(self.queue[i], &most));
        self.most = most;
        let Some(last) = last else {
            return;
        };
        let resolution = self.sched.bf_resolution.max(1);
        let horizon = now + self.sched.bf_window;
        for r in &mut self.reserved {
            r.clear();
        }
        self.reservation_ends.clear();
        self.releases.clear();
        for &r in &self.running {
            let o = &self.outcome[r as usize];
            self.releases.push((o.start + self.jobs[r as usize].limit, r));
        }
        self.releases.sort_unstable();
        let mut i = 0;
        let mut tested = 0;
        while tested <= last && i < self.queue.len() {
            tested += 1;
            let j = self.queue[i];
            let job = self.jobs[j as usize];
            let p = job.partition as usize;
            if !self.machine.partitions[p].up {
                i += 1;
                continue;
            }
            match self.earliest(now, horizon, &job) {
                Some(start) if start == now => {
                    // cons_tres chooses the nodes again, among those no
                    // reservation touches before the job's expected end.
                    let end = now + job.limit;
                    let mut found = std::mem::take(&mut self.found);
                    let reserved = &self.reserved;
                    let placed = self.machine.find(
                        p,
                        &job.need,
                        |n| !reserved[n as usize].iter().any(|&(b, e)| b < end && now < e),
                        &mut found,
                    );
                    self.found = found;
                    if !placed {
                        i += 1;
                        continue;
                    }
                    self.start(now, j, true, outbox);
                    self.counters.backfill_starts += 1;
                    self.queue.remove(i);
                    let expected = now + job.limit;
                    let at = self.releases.partition_point(|&(t, r)| (t, r) < (expected, j));
                    self.releases.insert(at, (expected, j));
                    continue;
                }
                Some(start) => {
                    // `_add_reservation`: both ends rounded down to the resolution.
                    let begin = start.div_euclid(resolution) * resolution;
                    let end = ((start + job.limit).div_euclid(resolution) * resolution).max(begin + resolution);
                    for &n in &self.found {
                        self.reserved[n as usize].push((begin, end));
                    }
                    let at = self.reservation_ends.partition_point(|&e| e <= end);
                    self.reservation_ends.insert(at, end);
                }
                None => {}
            }
            i += 1;
        }
    }

    /// The earliest time, within the window, at which `job` finds its nodes
    /// for its whole limit; its nodes in `found`.
    fn earliest(&mut self, now: Time, horizon: Time, job: &Queued) -> Option<Time> {
        let part = &self.machine.partitions[job.partition as usize];
        for &n in &part.nodes {
            self.scratch[n as usize] = self.machine.free[n as usize];
        }
        let mut r = 0;
        let mut t = now;
        loop {
            // Running jobs expected to end by t have released their nodes.
            while r < self.releases.len() && self.releases[r].0 <= t {
                let (_, done) = self.releases[r];
                let d = &self.jobs[done as usize];
                let first = self.node_at[done as usize] as usize;
                for &n in &self.nodes[first..first + d.need.nodes as usize] {
                    let s = &mut self.scratch[n as usize];
                    s.cpus += d.need.cpus;
                    s.mem_mib += d.need.mem_mib;
                    s.gpus += d.need.gpus;
                }
                r += 1;
            }
            let end = t + job.limit;
            self.found.clear();
            for &n in &part.nodes {
                if self.scratch[n as usize].holds(&job.need)
                    && !self.reserved[n as usize].iter().any(|&(b, e)| b < end && t < e)
                {
                    self.found.push(n);
                    if self.found.len() == job.need.nodes as usize {
                        return Some(t);
                    }
                }
            }
            // The next moment something is released: a running job's
            // expected end, or a reservation's end on this partition.
            let next_release = self.releases.get(r).map(|x| x.0);
            // (Any partition's: a needless candidate only costs a check.)
            let next_unreserve = self.reservation_ends.get(self.reservation_ends.partition_point(|&e| e <= t)).copied();
            let next = match (next_release, next_unreserve) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return None,
            };
            if next > horizon {
                return None;
            }
            t = next;
        }
    }

    /// What the run produced.
    pub fn outcomes(&self) -> (&[Outcome], Counters) {
        (&self.outcome, self.counters)
    }
}

impl Model for Controller {
    type Msg = ControllerMsg;

    fn handle(&mut self, now: Time, msg: ControllerMsg, mut outbox: Outbox<ControllerMsg>) -> Outbox<ControllerMsg> {
        match msg {
            ControllerMsg::Submit(j) => self.submit(now, j, &mut outbox),
            ControllerMsg::End(j) => self.end(now, j, &mut outbox),
            ControllerMsg::Tick => {
                self.tick(now);
                self.touch(now, &mut outbox);
                let mut due = self.next_tick;
                if let Some(t) = self.rearm(now, self.priority.settings().calc_period, &mut due) {
                    outbox.push(Scheduled::me(t, TICK, ControllerMsg::Tick));
                }
                self.next_tick = due;
            }
            ControllerMsg::Main { periodic } => {
                self.main(now, periodic, &mut outbox);
                if periodic {
                    let mut due = self.next_main;
                    if let Some(t) = self.rearm(now, self.sched.sched_interval, &mut due) {
                        outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main { periodic: true }));
                    }
                    self.next_main = due;
                }
            }
            ControllerMsg::Backfill => {
                self.next_backfill = None;
                if self.dirty {
                    self.last_backfill = now;
                }
                self.backfill(now, &mut outbox);
            }
        }
        outbox
    }
}

impl Receive<Arrival> for Controller {
    fn receive(item: Arrival) -> ControllerMsg {
        ControllerMsg::Submit(item.job)
    }
}

impl Batched for Controller {
    fn buffers(&mut self) -> &mut Buffers<ControllerMsg> {
        &mut self.buffers
    }
}

crate::batched_actor!(Controller);

/// What a finished controller hands back.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Per job.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: Counters,
    /// Every started job's nodes, one after the other.
    pub nodes: Vec<u32>,
    /// Per job: where its nodes begin in `nodes`.
    pub node_at: Vec<u32>,
}

impl kameo::message::Message<Finish> for Controller {
    type Reply = Result<Finished, crate::sim::kernel::SimError>;

    async fn handle(&mut self, _: Finish, _ctx: &mut kameo::message::Context<Self, Self::Reply>) -> Self::Reply {
        Ok(Finished {
            outcomes: std::mem::take(&mut self.outcome),
            counters: self.counters,
            nodes: std::mem::take(&mut self.nodes),
            node_at: std::mem::take(&mut self.node_at),
        })
    }
}
