//! Heuristic planning: plan node counts only, pick nodes at start, re-plan often.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.3.2, §6.1 ("Heuristic
//! planning"), §6.5 (re-planning rule, capacity under crashes).
//!
//! Contract:
//! - The plan is an [`AvailabilityProfile`] of the cluster's full capacity (the
//!   spec's default: crashed nodes are not subtracted, "the heuristic fills the
//!   resources to the maximum"). A running job holds its count until its kill
//!   time; a waiting job holds it over its planned window.
//! - At occurrence a job gets the earliest window of its full estimate that
//!   ends by its deadline, or is rejected.
//! - At every job end, node failure and node repair the waiting jobs are
//!   re-planned in order of planned start: each is taken out and put back at its
//!   earliest feasible start (conservative compression, so no job moves later).
//! - A job starts at its planned start on the lowest-id idle, up nodes; if too
//!   few are up it waits (blocked) for the next re-plan, and fails once its
//!   deadline can no longer be met. A job stopped by a node failure is re-placed
//!   at once with its full estimate before its deadline, or fails.

use std::collections::BTreeSet;

use crate::plan::AvailabilityProfile;
use crate::policy::{Booking, Cluster, Placement, Strategy};
use crate::units::{JobId, NodeId, Time};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    #[default]
    None,
    /// Planned over `[start, start + allotment)`.
    Waiting { start: Time, allotment: Time },
    /// Holding its count until `kill_at`.
    Running { kill_at: Time },
}

/// The heuristic planning strategy.
pub struct HeuristicPlanning {
    /// Kept for reporting; without overbooking both placements give the same plan.
    _placement: Placement,
    profile: AvailabilityProfile,
    queue: BTreeSet<(Time, JobId)>,
    states: Vec<State>,
    order: Vec<(Time, JobId)>,
    nodes: Vec<NodeId>,
}

impl HeuristicPlanning {
    /// A strategy for `capacity` nodes.
    pub fn new(capacity: u32, placement: Placement) -> HeuristicPlanning {
        HeuristicPlanning {
            _placement: placement,
            profile: AvailabilityProfile::new(capacity),
            queue: BTreeSet::new(),
            states: Vec::new(),
            order: Vec::new(),
            nodes: Vec::new(),
        }
    }

    fn state(&mut self, job: JobId) -> &mut State {
        let i = job as usize;
        if i >= self.states.len() {
            self.states.resize(i + 1, State::None);
        }
        &mut self.states[i]
    }

    /// Plans `job` at its earliest full-estimate window from `from`; false if none.
    fn place(&mut self, c: &mut dyn Cluster, job: JobId, from: Time) -> bool {
        let j = *c.job(job);
        let start = self.profile.earliest_fit(from, j.estimate, j.nodes, j.deadline - j.estimate);
        if let Some(start) = start {
            self.profile.reserve(start, start + j.estimate, j.nodes);
            *self.state(job) = State::Waiting { start, allotment: j.estimate };
            self.queue.insert((start, job));
        }
        start.is_some()
    }

    /// Re-plans every waiting job in order of planned start.
    fn replan(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.order.clear();
        self.order.extend(self.queue.iter().copied());
        for k in 0..self.order.len() {
            let (old, job) = self.order[k];
            let State::Waiting { start, allotment } = *self.state(job) else { continue };
            debug_assert_eq!(start, old);
            let j = *c.job(job);
            self.profile.release(start, start + allotment, j.nodes);
            let from = now.max(j.release);
            // Its old window is still free unless it lies in the past (blocked).
            let latest = if start >= now { start } else { j.deadline - allotment };
            match self.profile.earliest_fit(from, allotment, j.nodes, latest) {
                Some(s) => {
                    self.profile.reserve(s, s + allotment, j.nodes);
                    *self.state(job) = State::Waiting { start: s, allotment };
                    if s != start {
                        self.queue.remove(&(start, job));
                        self.queue.insert((s, job));
                    }
                }
                None => {
                    self.queue.remove(&(start, job));
                    *self.state(job) = State::None;
                    c.fail(job);
                }
            }
        }
    }

    /// Starts every job planned for now; asks for the next wake-up.
    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.order.clear();
        self.order.extend(self.queue.range(..=(now, JobId::MAX)).copied());
        for k in 0..self.order.len() {
            let (start, job) = self.order[k];
            let j = *c.job(job);
            let State::Waiting { allotment, .. } = *self.state(job) else { continue };
            if start == now && c.idle_nodes(j.nodes, &mut self.nodes) && c.start(job, &self.nodes, now + allotment) {
                self.queue.remove(&(start, job));
                *self.state(job) = State::Running { kill_at: now + allotment };
            } else if now > j.deadline - allotment {
                // Blocked past its latest start: it can no longer meet its deadline.
                self.profile.release(start, start + allotment, j.nodes);
                self.queue.remove(&(start, job));
                *self.state(job) = State::None;
                c.fail(job);
            } else {
                // Blocked by crashed nodes: re-checked at the next re-plan, and
                // failed once its latest start has passed.
                c.wake_at(j.deadline - allotment + 1);
            }
        }
        if let Some(&(next, _)) = self.queue.range((now + 1, 0)..).next() {
            c.wake_at(next);
        }
    }

    /// Releases a running job's remaining hold.
    fn release_running(&mut self, c: &dyn Cluster, job: JobId) {
        if let State::Running { kill_at } = *self.state(job) {
            let now = c.now();
            if kill_at > now {
                self.profile.release(now, kill_at, c.job(job).nodes);
            }
            *self.state(job) = State::None;
        }
    }
}

impl Strategy for HeuristicPlanning {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        let from = c.now().max(j.release);
        if j.nodes > self.profile.capacity() || !self.place(c, job, from) {
            c.reject(job);
            return;
        }
        if let State::Waiting { start, allotment } = *self.state(job) {
            c.accept(job, Booking { start, end: start + allotment, overbooked: false, pof: None });
        }
        self.start_due(c);
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        self.profile.forget_before(c.now());
        self.start_due(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.release_running(c, job);
        self.replan(c);
        self.start_due(c);
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        if let Some(job) = victim {
            self.release_running(c, job);
            let from = c.now().max(c.job(job).release);
            if !self.place(c, job, from) {
                c.fail(job);
            }
        }
        self.replan(c);
        self.start_due(c);
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, _node: NodeId) {
        self.replan(c);
        self.start_due(c);
    }
}
