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
//!   extra nodes (those free at the shadow time beyond the head's need).
//! - `conservative`: every job gets a reservation at arrival, the earliest
//!   window of its estimate in the availability profile. When a job ends
//!   before its estimate the schedule is compressed: in arrival order, each
//!   waiting job's reservation is taken out and put back at its earliest
//!   window no later than before, so no reservation ever moves later.
//! - Without `kill_at_estimate` a job may run past its estimate. EASY then
//!   expects it to end now; conservative extends its hold by its estimate when
//!   it overruns and re-plans the waiting jobs in arrival order from now
//!   (the only case where a reservation may move later).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::plan::AvailabilityProfile;
use crate::policy::{Booking, Cluster, RejectReason, Strategy};
use crate::units::{JobId, NodeId, Time};

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
    /// Conservative: waiting jobs by reserved start.
    by_start: BTreeSet<(Time, JobId)>,
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
    ends_since_trim: u32,
}

/// The planning length of a job: its estimate, at least 1 s.
fn length(estimate: Time) -> Time {
    estimate.max(1)
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
            by_start: BTreeSet::new(),
            running: BTreeSet::new(),
            unreleased: BTreeSet::new(),
            profile: AvailabilityProfile::new(capacity),
            free: capacity,
            nodes: Vec::new(),
            batch: Vec::new(),
            compress: false,
            ends_since_trim: 0,
        }
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
        // The head's shadow time and the extra nodes at it.
        let need = c.job(head).nodes;
        let (mut available, mut shadow) = (self.free, now);
        for &(end, job) in &self.running {
            if available >= need {
                break;
            }
            available += c.job(job).nodes;
            shadow = end.max(now);
        }
        let mut extra = available.saturating_sub(need);
        let mut free = self.free;
        self.batch.clear();
        for &job in self.queue.iter().skip(1) {
            if free == 0 {
                break;
            }
            let j = c.job(job);
            if j.nodes > free {
                continue;
            }
            if now + length(j.estimate) <= shadow {
                free -= j.nodes;
                self.batch.push(job);
            } else if j.nodes <= extra {
                extra -= j.nodes;
                free -= j.nodes;
                self.batch.push(job);
            }
        }
        for k in 0..self.batch.len() {
            let job = self.batch[k];
            if self.start(c, job) {
                self.queue.remove(&job);
            }
        }
    }

    /// Conservative: reserves `job` at its earliest window from `from`, no later than `latest`.
    fn reserve(&mut self, c: &dyn Cluster, job: JobId, from: Time, latest: Time) -> Option<Time> {
        let j = c.job(job);
        let len = length(j.estimate);
        let start = self.profile.earliest_fit(from, len, j.nodes, latest)?;
        self.profile.reserve(start, start + len, j.nodes);
        *self.state(job) = State::Waiting { start, end: start + len };
        self.by_start.insert((start, job));
        Some(start)
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
            let latest = match *self.state(job) {
                State::Waiting { start, end } if compress => {
                    if start <= now {
                        continue;
                    }
                    self.profile.release(start, end, c.job(job).nodes);
                    self.by_start.remove(&(start, job));
                    start
                }
                _ => Time::MAX,
            };
            // Its old window is free again, so a window no later than it exists.
            if self.reserve(c, job, now, latest).is_none() {
                debug_assert!(false, "conservative: job {job} lost its window");
                self.reserve(c, job, now, Time::MAX);
            }
        }
    }

    /// Conservative: starts the jobs reserved for now; asks for the next wake-up.
    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        while let Some(&(start, job)) = self.by_start.first() {
            if start > now {
                c.wake_at(start);
                return;
            }
            self.by_start.remove(&(start, job));
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
                for &w in &self.queue {
                    if let State::Waiting { start, end } = self.state[w as usize] {
                        self.profile.release(start, end, c.job(w).nodes);
                        self.by_start.remove(&(start, w));
                        self.state[w as usize] = State::None;
                    }
                }
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

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        if self.mode == Mode::Conservative {
            if self.compress {
                self.compress = false;
                self.replan(c, true);
                self.ends_since_trim += 1;
                if self.ends_since_trim >= 256 {
                    self.ends_since_trim = 0;
                    self.profile.forget_before(now);
                }
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
