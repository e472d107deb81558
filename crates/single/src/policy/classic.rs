//! Classic queueing modes without SLAs: FCFS, EASY and conservative backfilling.
//!
//! Reference: D. Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995 (EASY);
//! A. Mu'alem and D. Feitelson, "Utilization, predictability, workloads, and
//! user runtime estimates in scheduling the IBM SP2 with backfilling", IEEE
//! TPDS 12(6), 2001 (EASY's two conditions, conservative backfilling and its
//! compression).
//!
//! Contract:
//! - No deadlines, fees or rejections: every job runs eventually. A job wider
//!   than the machine can never run; it is dropped (rejected `too-wide`) and
//!   counted.
//! - The queue is in arrival order (occurrence, then job id: the order the
//!   kernel delivers submissions); a job released after it occurs joins it
//!   (FCFS, EASY) or is reserved (conservative) from its release. Scheduling passes run at every arrival and
//!   every job end, after all ends at that instant (ends precede starts, spec
//!   §6.5). Nodes are the lowest-id idle ones.
//! - A job runs for its real runtime. With `kill_at_estimate` (the default) it
//!   is killed at start + estimate; the planning length of a job is its
//!   estimate (at least 1 s).
//! - `fcfs`: start queue heads while they fit; a head that does not fit blocks
//!   the queue.
//! - `easy`: as FCFS; then the blocked head gets a reservation at its shadow
//!   time (the earliest expected end of running jobs at which enough nodes are
//!   free) and a later job, in queue order, starts now if it fits now and
//!   either ends by the shadow time (by its estimate) or uses no more than the
//!   extra nodes (those free at the shadow time beyond the head's need: every
//!   running job expected to end by then counts, whatever the order of jobs
//!   ending at the same instant).
//! - `conservative`: every job gets a reservation at arrival, the earliest
//!   window of its estimate in the availability profile. When a job ends
//!   before its estimate the schedule is compressed: in arrival order, each
//!   waiting job's reservation is taken out and put back at its earliest
//!   window no later than before, so no reservation ever moves later.
//! - Without `kill_at_estimate` a job may run past its estimate. EASY then
//!   expects it to end now; conservative extends its hold by its estimate when
//!   it overruns and re-plans the waiting jobs in arrival order from now
//!   (the only case where a reservation may move later).
//! - **Advance reservations** (a Grid cluster's sub-reservations,
//!   `coreservation-thesis-spec.md` A5, A16, A31), when enabled with
//!   [`Classic::with_advance_reservations`]: blocks of CPUs that no job may
//!   overlap. They are admitted against the reservation table (running jobs to
//!   start + estimate, and accepted reservations; queued jobs are ignored), so
//!   they outrank queued jobs: conservative backfilling re-plans its waiting
//!   jobs around a new block, FCFS and EASY start a job only if it fits beside
//!   every block for its whole estimate. EASY then works on the table as an
//!   availability profile: the blocked head's reservation is the earliest
//!   window of its estimate, and a later job backfills if it fits now beside
//!   the head's reservation and every block. (Without advance reservations EASY
//!   counts nodes, as Lifka 1995 and Mu'alem & Feitelson 2001 define it.)
//!   Jobs must be killed at their estimate, so no job outlives its table
//!   entry.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use serde::{Deserialize, Serialize};

use crate::cluster::strategy::{Booking, Cluster, RejectReason, Strategy};
use crate::plan::AvailabilityProfile;
use crate::plan::easy::{self, CountedShadow, Shadow, length};
use crate::policy::reservation::{BacklogJob, Block, ReservationService};
use slasim_core::units::{JobId, NodeId, Time};

/// Settings of the classic modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClassicConfig {
    /// Kill a job that runs past its estimate at start + estimate.
    pub kill_at_estimate: bool,
}

impl Default for ClassicConfig {
    fn default() -> Self {
        ClassicConfig { kill_at_estimate: true }
    }
}

impl ClassicConfig {
    /// True for the defaults (left out of a point's canonical text).
    pub fn is_default(&self) -> bool {
        *self == ClassicConfig::default()
    }
}

/// Which classic mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// First come, first served.
    Fcfs,
    /// EASY backfilling.
    Easy,
    /// Conservative backfilling with compression.
    Conservative,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    #[default]
    None,
    /// Queued (FCFS, EASY) or reserved over `[start, end)` (conservative).
    Waiting { start: Time, end: Time },
    /// Running; planned to hold its nodes until `hold_end`.
    Running { hold_end: Time },
}

/// FCFS, EASY and conservative backfilling.
pub struct Classic {
    mode: Mode,
    capacity: u32,
    kill_at_estimate: bool,
    state: Vec<State>,
    /// Waiting jobs in arrival order.
    queue: BTreeSet<JobId>,
    /// Conservative: waiting jobs by reserved start, earliest first. A job
    /// that moves gets a new entry and its old one goes stale (its state no
    /// longer has that start) and is dropped when it reaches the top: a
    /// heap push per move instead of a tree removal and insertion.
    by_start: BinaryHeap<Reverse<(Time, JobId)>>,
    /// Running jobs by expected end.
    running: BTreeSet<(Time, JobId)>,
    /// FCFS and EASY: submitted jobs waiting for their release.
    unreleased: BTreeSet<(Time, JobId)>,
    /// Conservative: the plan.
    profile: AvailabilityProfile,
    /// Nodes not held by running jobs.
    free: u32,
    nodes: Vec<NodeId>,
    batch: Vec<JobId>,
    /// Conservative: a job ended early; compress at the next wake-up.
    compress: bool,
    /// FCFS and EASY with reservations: job ends since the reservation
    /// table last forgot its past (conservative forgets before every pass).
    ends_since_trim: u32,
    /// Advance reservations, when enabled.
    reserving: Option<Box<Reserving>>,
}

/// The reservation table and the blocks of a cluster taking advance reservations.
#[derive(Debug, Clone)]
struct Reserving {
    /// Running jobs to start + estimate, and accepted blocks (spec A5).
    table: AvailabilityProfile,
    blocks: Vec<Block>,
    /// Σ estimate × CPUs of the waiting and running jobs.
    backlog_work: i64,
    /// Σ duration × CPUs of the accepted blocks not finished yet.
    reserved_work: i64,
    /// Unfinished blocks by end: (end, id).
    open: BTreeSet<(Time, u32)>,
    /// The integrals run over [0, t_stop].
    t_stop: Time,
    last: Time,
    backlog_integral: f64,
    reserved_integral: f64,
}

impl Reserving {
    fn new(capacity: u32, t_stop: Time) -> Reserving {
        Reserving {
            table: AvailabilityProfile::new(capacity),
            blocks: Vec::new(),
            backlog_work: 0,
            reserved_work: 0,
            open: BTreeSet::new(),
            t_stop,
            last: 0,
            backlog_integral: 0.0,
            reserved_integral: 0.0,
        }
    }

    /// Integrates the sums up to `now` (blocks drop out at their ends).
    fn advance(&mut self, now: Time) {
        while let Some(&(end, id)) = self.open.first().filter(|(end, _)| *end <= now) {
            self.integrate(end);
            self.open.remove(&(end, id));
            let b = self.blocks[id as usize];
            self.reserved_work -= (b.end - b.start) * i64::from(b.cpus);
        }
        self.integrate(now);
    }

    fn integrate(&mut self, t: Time) {
        let to = t.min(self.t_stop);
        if to > self.last {
            let dt = (to - self.last) as f64;
            self.backlog_integral += self.backlog_work as f64 * dt;
            self.reserved_integral += self.reserved_work as f64 * dt;
        }
        self.last = self.last.max(to);
    }
}

impl Classic {
    /// A classic scheduler for a machine of `capacity` nodes.
    pub fn new(mode: Mode, capacity: u32, kill_at_estimate: bool) -> Classic {
        Classic {
            mode,
            capacity,
            kill_at_estimate,
            state: Vec::new(),
            queue: BTreeSet::new(),
            by_start: BinaryHeap::new(),
            running: BTreeSet::new(),
            unreleased: BTreeSet::new(),
            profile: AvailabilityProfile::new(capacity),
            free: capacity,
            nodes: Vec::new(),
            batch: Vec::new(),
            compress: false,
            ends_since_trim: 0,
            reserving: None,
        }
    }

    /// The same scheduler taking advance reservations of CPUs, with the
    /// backlog integrals of [`ReservationService::backlog_integrals`] over
    /// `[0, t_stop]`. Jobs are killed at their estimate.
    pub fn with_advance_reservations(mut self, t_stop: Time) -> Classic {
        self.kill_at_estimate = true;
        self.reserving = Some(Box::new(Reserving::new(self.capacity, t_stop)));
        self
    }

    fn state(&mut self, job: JobId) -> &mut State {
        let i = job as usize;
        if i >= self.state.len() {
            self.state.resize(i + 1, State::None);
        }
        &mut self.state[i]
    }

    /// Starts `job` now on the lowest-id idle nodes; false if too few are idle.
    fn start(&mut self, c: &mut dyn Cluster, job: JobId) -> bool {
        let j = *c.job(job);
        let now = c.now();
        if !c.idle_nodes(j.nodes, &mut self.nodes) {
            return false;
        }
        let kill_at = if self.kill_at_estimate { now + j.estimate } else { Time::MAX / 4 };
        if !c.start(job, &self.nodes, kill_at) {
            return false;
        }
        let hold_end = now + length(j.estimate);
        if self.mode != Mode::Conservative {
            c.accept(job, Booking { start: now, end: hold_end, overbooked: false, pof: None });
        }
        if let Some(r) = &mut self.reserving {
            r.table.reserve(now, hold_end, j.nodes);
        }
        *self.state(job) = State::Running { hold_end };
        self.running.insert((hold_end, job));
        self.free -= j.nodes;
        if !self.kill_at_estimate && self.mode == Mode::Conservative {
            c.wake_at(hold_end);
        }
        true
    }

    /// FCFS and EASY: one scheduling pass.
    fn schedule_queue(&mut self, c: &mut dyn Cluster) {
        if self.reserving.is_some() {
            return self.schedule_beside_blocks(c);
        }
        while let Some(&head) = self.queue.first() {
            if c.job(head).nodes > self.free || !self.start(c, head) {
                break;
            }
            self.queue.remove(&head);
        }
        if self.mode != Mode::Easy || self.free == 0 {
            return;
        }
        let Some(&head) = self.queue.first() else { return };
        let now = c.now();
        let running = self.running.iter().map(|&(end, job)| (end, c.job(job).nodes));
        let mut shadow = CountedShadow::new(now, self.free, c.job(head).nodes, running);
        self.batch.clear();
        for &job in self.queue.iter().skip(1) {
            if shadow.free() == 0 {
                break;
            }
            let j = c.job(job);
            if shadow.admit(now, j.nodes, length(j.estimate)) {
                self.batch.push(job);
            }
        }
        self.start_batch(c);
    }

    /// Starts the jobs chosen in `batch` and takes them off the queue.
    fn start_batch(&mut self, c: &mut dyn Cluster) {
        for k in 0..self.batch.len() {
            let job = self.batch[k];
            if self.start(c, job) {
                self.queue.remove(&job);
            }
        }
    }

    /// FCFS and EASY with advance reservations: a job starts only if it fits
    /// beside every block (and, for EASY backfills, beside the head's
    /// reservation) for its whole estimate: the profile EASY of
    /// [`crate::plan::easy`] on the reservation table, with the idle nodes
    /// counted too.
    fn schedule_beside_blocks(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        while let Some(&head) = self.queue.first() {
            let j = *c.job(head);
            if !self.fits_now(now, j.nodes, length(j.estimate)) || !self.start(c, head) {
                break;
            }
            self.queue.remove(&head);
        }
        if self.mode != Mode::Easy || self.free == 0 {
            return;
        }
        let Some(&head) = self.queue.first() else { return };
        let (need, len) = (c.job(head).nodes, length(c.job(head).estimate));
        let Some(r) = self.reserving.as_mut() else { return };
        // Only jobs ending and blocks are in the table: a window exists.
        let Some(shadow) = Shadow::reserve(&mut r.table, now, need, len) else { return };
        let mut free = self.free;
        self.batch.clear();
        for &job in self.queue.iter().skip(1) {
            if free == 0 {
                break;
            }
            let j = c.job(job);
            let jl = length(j.estimate);
            if j.nodes <= free && easy::fits_now(&r.table, now, j.nodes, jl) {
                r.table.reserve(now, now + jl, j.nodes);
                free -= j.nodes;
                self.batch.push(job);
            }
        }
        // Tentative holds out again: starting a job books its own hold.
        shadow.release(&mut r.table);
        for &job in &self.batch {
            r.table.release(now, now + length(c.job(job).estimate), c.job(job).nodes);
        }
        self.start_batch(c);
    }

    /// True if `nodes` are idle and, with advance reservations, free in the
    /// table over `[now, now + len)`.
    fn fits_now(&self, now: Time, nodes: u32, len: Time) -> bool {
        nodes <= self.free && self.reserving.as_ref().is_none_or(|r| easy::fits_now(&r.table, now, nodes, len))
    }

    /// Conservative: takes every waiting job out of the plan (to re-plan them all).
    fn unplan_waiting(&mut self, c: &dyn Cluster) {
        for &w in &self.queue {
            if let State::Waiting { start, end } = self.state[w as usize] {
                self.profile.release(start, end, c.job(w).nodes);
                self.state[w as usize] = State::None;
            }
        }
    }

    /// Conservative: reserves `job` at its earliest window from `from`, no later than `latest`.
    fn reserve(&mut self, c: &dyn Cluster, job: JobId, from: Time, latest: Time) -> Option<Time> {
        let j = c.job(job);
        let start = self.profile.earliest_fit(from, length(j.estimate), j.nodes, latest)?;
        self.book(c, job, start);
        Some(start)
    }

    /// Conservative: books `job`'s window from `start` in the plan.
    fn book(&mut self, c: &dyn Cluster, job: JobId, start: Time) {
        let j = c.job(job);
        let end = start + length(j.estimate);
        self.profile.reserve(start, end, j.nodes);
        *self.state(job) = State::Waiting { start, end };
        self.by_start.push(Reverse((start, job)));
        if self.by_start.len() > 2 * self.queue.len() + 1024 {
            // Mostly stale entries: keep the memory bounded by the queue.
            let state = &self.state;
            self.by_start
                .retain(|&Reverse((s, j))| matches!(state[j as usize], State::Waiting { start, .. } if start == s));
        }
    }

    /// Conservative: re-places every waiting job in arrival order. With
    /// `compress` each is taken out and put back no later than before;
    /// otherwise (after an overrun, with every waiting job taken out) each
    /// goes to its earliest window from now.
    fn replan(&mut self, c: &mut dyn Cluster, compress: bool) {
        let now = c.now();
        self.batch.clear();
        self.batch.extend(self.queue.iter().copied());
        for k in 0..self.batch.len() {
            let job = self.batch[k];
            match *self.state(job) {
                State::Waiting { start, end } if compress => {
                    if start <= now {
                        continue;
                    }
                    // Most jobs cannot move: the search treats the job's own
                    // window as free, so only a job that moves is released,
                    // and it is booked where the search found room.
                    let nodes = c.job(job).nodes;
                    let Some(earlier) =
                        self.profile.earliest_fit_except(now, end - start, nodes, start - 1, (start, end))
                    else {
                        continue;
                    };
                    self.profile.release(start, end, nodes);
                    self.book(c, job, earlier);
                }
                _ => {
                    if self.reserve(c, job, now, Time::MAX).is_none() {
                        c.defect(&format!("conservative backfilling found no window for job {job} in a finite plan"));
                    }
                }
            }
        }
    }

    /// Conservative: starts the jobs reserved for now; asks for the next wake-up.
    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        while let Some(&Reverse((start, job))) = self.by_start.peek() {
            if !matches!(self.state[job as usize], State::Waiting { start: s, .. } if s == start) {
                self.by_start.pop();
                continue;
            }
            if start > now {
                c.wake_at(start);
                return;
            }
            self.by_start.pop();
            self.queue.remove(&job);
            let (nodes, end) = match *self.state(job) {
                State::Waiting { end, .. } => (c.job(job).nodes, end),
                _ => continue,
            };
            let len = length(c.job(job).estimate);
            if start < now {
                // Due earlier (a late wake-up): it holds from now.
                self.profile.release(start, end, nodes);
                self.profile.reserve(now, now + len, nodes);
            }
            if !self.start(c, job) {
                // The plan and the nodes disagree (cannot happen without
                // failures): try again at the next instant.
                self.profile.release(now, now + len, nodes);
                self.queue.insert(job);
                self.reserve(c, job, now + 1, Time::MAX);
            }
        }
    }

    /// Conservative: extends the holds of jobs running past their estimate.
    fn extend_overruns(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        let mut extended = false;
        while let Some(&(hold_end, job)) = self.running.first() {
            if hold_end > now {
                break;
            }
            self.running.remove(&(hold_end, job));
            let j = *c.job(job);
            let new_end = now + length(j.estimate);
            if !extended {
                // Make room: take every waiting job out first.
                self.unplan_waiting(c);
                extended = true;
            }
            self.profile.reserve(now, new_end, j.nodes);
            *self.state(job) = State::Running { hold_end: new_end };
            self.running.insert((new_end, job));
            c.wake_at(new_end);
        }
        if extended {
            self.replan(c, false);
        }
    }
}

impl Strategy for Classic {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        if j.nodes > self.capacity {
            c.reject(job, RejectReason::TooWide);
            return;
        }
        let now = c.now();
        if let Some(r) = &mut self.reserving {
            r.advance(now);
            r.backlog_work += length(j.estimate) * i64::from(j.nodes);
        }
        if self.mode == Mode::Conservative {
            self.queue.insert(job);
            let start = self.reserve(c, job, now.max(j.release), Time::MAX).unwrap_or(now);
            c.accept(job, Booking { start, end: start + length(j.estimate), overbooked: false, pof: None });
            self.start_due(c);
        } else if j.release > now {
            // Queued at its release.
            self.unreleased.insert((j.release, job));
            c.wake_at(j.release);
        } else {
            self.queue.insert(job);
            self.schedule_queue(c);
        }
    }

    fn planned_profile(&self) -> Option<&AvailabilityProfile> {
        (self.mode == Mode::Conservative && self.reserving.is_none()).then_some(&self.profile)
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        if let Some(r) = &mut self.reserving {
            r.advance(now);
        }
        if self.mode == Mode::Conservative {
            if self.compress {
                self.compress = false;
                // The past is dropped first: every search of the pass starts
                // now, in the first step, without a binary search.
                self.profile.forget_before(now);
                self.replan(c, true);
            }
            if !self.kill_at_estimate {
                self.extend_overruns(c);
            }
            self.start_due(c);
            return;
        }
        while let Some(&(release, job)) = self.unreleased.first().filter(|(r, _)| *r <= now) {
            self.unreleased.remove(&(release, job));
            self.queue.insert(job);
        }
        self.schedule_queue(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        let now = c.now();
        let State::Running { hold_end } = *self.state(job) else { return };
        *self.state(job) = State::None;
        self.running.remove(&(hold_end, job));
        let nodes = c.job(job).nodes;
        self.free += nodes;
        if self.mode == Mode::Conservative && hold_end > now {
            self.profile.release(now, hold_end, nodes);
            self.compress = true;
        }
        if let Some(r) = &mut self.reserving {
            r.advance(now);
            r.backlog_work -= length(c.job(job).estimate) * i64::from(nodes);
            if hold_end > now {
                r.table.release(now, hold_end, nodes);
            }
            if self.mode != Mode::Conservative {
                self.ends_since_trim += 1;
                if self.ends_since_trim >= 256 {
                    self.ends_since_trim = 0;
                    r.table.forget_before(now);
                }
            }
        }
        // One pass once every job ending now has freed its nodes: wake-ups
        // come after all ends at an instant.
        c.wake_at(now);
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        // The classic modes model no failures: a stopped job fails, and the
        // plan goes on (a start on a down node waits for the next instant).
        if let Some(job) = victim {
            self.job_ended(c, job);
            c.fail(job);
        }
    }

    fn node_repaired(&mut self, _c: &mut dyn Cluster, _node: NodeId) {}
}

impl ReservationService for Classic {
    fn table_free(&self, start: Time, end: Time) -> u32 {
        self.reserving.as_ref().map_or(0, |r| r.table.min_free(start, end))
    }

    fn blocks(&self) -> &[Block] {
        self.reserving.as_ref().map_or(&[], |r| &r.blocks)
    }

    fn backlog(&self, c: &dyn Cluster, out: &mut Vec<BacklogJob>) {
        out.clear();
        for &(hold_end, job) in &self.running {
            let j = c.job(job);
            out.push(BacklogJob { started: Some(hold_end - length(j.estimate)), estimate: j.estimate, cpus: j.nodes });
        }
        for &job in self.queue.iter().chain(self.unreleased.iter().map(|(_, job)| job)) {
            let j = c.job(job);
            out.push(BacklogJob { started: None, estimate: j.estimate, cpus: j.nodes });
        }
    }

    fn next_job_end(&self, now: Time) -> Option<Time> {
        self.running.range((now + 1, 0)..).next().map(|&(end, _)| end)
    }

    fn reserve(&mut self, c: &mut dyn Cluster, cpus: u32, start: Time, end: Time) -> Option<u32> {
        let now = c.now();
        let r = self.reserving.as_mut()?;
        if end <= start || start < now || r.table.min_free(start, end) < cpus {
            return None;
        }
        r.advance(now);
        r.table.reserve(start, end, cpus);
        let id = r.blocks.len() as u32;
        r.blocks.push(Block { start, end, cpus, cancelled: false });
        r.reserved_work += (end - start) * i64::from(cpus);
        r.open.insert((end, id));
        if self.mode == Mode::Conservative {
            if self.profile.min_free(start, end) < cpus {
                // The block outranks the waiting jobs' reservations: re-plan them around it.
                self.unplan_waiting(c);
                self.profile.reserve(start, end, cpus);
                self.replan(c, false);
                // Starts may have moved: a pass at this instant asks for the next wake-up.
                c.wake_at(now);
            } else {
                self.profile.reserve(start, end, cpus);
            }
        }
        // Jobs the block held back may start when it ends.
        c.wake_at(end);
        Some(id)
    }

    fn cancel(&mut self, c: &mut dyn Cluster, id: u32) {
        let now = c.now();
        let Some(r) = self.reserving.as_mut() else { return };
        let Some(b) = r.blocks.get(id as usize).copied().filter(|b| !b.cancelled) else { return };
        r.advance(now);
        r.blocks[id as usize].cancelled = true;
        if r.open.remove(&(b.end, id)) {
            r.reserved_work -= (b.end - b.start) * i64::from(b.cpus);
        }
        let from = b.start.max(now);
        r.table.release(from, b.end, b.cpus);
        if self.mode == Mode::Conservative {
            self.profile.release(from, b.end, b.cpus);
            self.compress = true;
        }
        c.wake_at(now);
    }

    fn backlog_integrals(&self) -> (f64, f64) {
        self.reserving.as_ref().map_or((0.0, 0.0), |r| (r.backlog_integral, r.reserved_integral))
    }
}
