//! Comprehensive (conservative) backfilling: nodes fixed at acceptance.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.6.1/§6.1 ("Comprehensive
//! backfilling"), §5.1 (gap search), §5.5 (node choice), §6.5 (failures and
//! restarts).
//!
//! Contract:
//! - The plan is a [`NodePlan`] plus its aggregate [`AvailabilityProfile`].
//!   At occurrence a job gets the earliest start s ≥ max(now, e) at which n
//!   nodes are free over [s, s + x) and s + x ≤ d; the nodes are chosen then
//!   (first fit: lowest ids; best fit: tightest, i.e. smallest free-until) and
//!   held until s + x even when the job ends early. No planned job is ever
//!   delayed by a later one.
//! - Candidate starts are the origin and the ends of reservations; the profile
//!   filters them (O(log n + k)) before the per-node check.
//! - A job whose nodes are not all up at its start, or that a node failure
//!   stops, is disabled. When its nodes are all back it restarts (from scratch,
//!   for its full estimate) if now + x ≤ min(d, next reservation on its nodes);
//!   once that is impossible it fails.

use std::collections::BTreeSet;

use crate::plan::{AvailabilityProfile, NodePlan, Slot};
use crate::policy::{Booking, Cluster, Placement, Strategy};
use crate::units::{JobId, NodeId, Time};

/// A job's booked slot and nodes (a range of the node arena).
#[derive(Debug, Clone, Copy)]
struct Booked {
    start: Time,
    end: Time,
    first: u32,
    count: u32,
}

/// The comprehensive backfilling strategy.
pub struct ComprehensiveBackfilling {
    placement: Placement,
    plan: NodePlan,
    profile: AvailabilityProfile,
    booked: Vec<Option<Booked>>,
    arena: Vec<NodeId>,
    pending: BTreeSet<(Time, JobId)>,
    disabled: BTreeSet<JobId>,
    candidates: Vec<(Time, NodeId)>,
    chosen: Vec<NodeId>,
    due: Vec<(Time, JobId)>,
    jobs: Vec<JobId>,
    submissions: u32,
}

impl ComprehensiveBackfilling {
    /// A strategy for `capacity` nodes.
    pub fn new(capacity: u32, placement: Placement) -> ComprehensiveBackfilling {
        ComprehensiveBackfilling {
            placement,
            plan: NodePlan::new(capacity),
            profile: AvailabilityProfile::new(capacity),
            booked: Vec::new(),
            arena: Vec::new(),
            pending: BTreeSet::new(),
            disabled: BTreeSet::new(),
            candidates: Vec::new(),
            chosen: Vec::new(),
            due: Vec::new(),
            jobs: Vec::new(),
            submissions: 0,
        }
    }

    fn nodes_of(&self, b: Booked) -> &[NodeId] {
        &self.arena[b.first as usize..(b.first + b.count) as usize]
    }

    /// Picks `n` nodes free over `[s, s + x)` into `chosen`; false if too few are.
    fn choose_nodes(&mut self, s: Time, x: Time, n: u32) -> bool {
        self.candidates.clear();
        for node in 0..self.plan.node_count() {
            if let Some(until) = self.plan.free_until(node, s)
                && until >= s + x
            {
                self.candidates.push((until, node));
            }
        }
        let n = n as usize;
        if self.candidates.len() < n {
            return false;
        }
        if self.placement == Placement::BestFit && self.candidates.len() > n {
            // Tightest fit first; ties by the lower node id.
            self.candidates.select_nth_unstable(n - 1);
        }
        self.chosen.clear();
        self.chosen.extend(self.candidates[..n].iter().map(|&(_, node)| node));
        self.chosen.sort_unstable();
        true
    }

    /// The earliest feasible full-estimate start from `from`; nodes in `chosen`.
    fn find_start(&mut self, from: Time, x: Time, n: u32, latest: Time) -> Option<Time> {
        let mut t = from;
        loop {
            let s = self.profile.earliest_fit(t, x, n, latest)?;
            if self.choose_nodes(s, x, n) {
                return Some(s);
            }
            // Per-node feasibility changes only where a reservation ends.
            t = self.plan.ends_from(s + 1).next()?;
        }
    }

    fn book(&mut self, job: JobId, start: Time, end: Time) {
        let first = self.arena.len() as u32;
        for k in 0..self.chosen.len() {
            let node = self.chosen[k];
            self.plan.reserve(node, Slot { start, end, job });
            self.arena.push(node);
        }
        self.profile.reserve(start, end, self.chosen.len() as u32);
        let i = job as usize;
        if i >= self.booked.len() {
            self.booked.resize(i + 1, None);
        }
        self.booked[i] = Some(Booked { start, end, first, count: self.chosen.len() as u32 });
    }

    fn unbook(&mut self, job: JobId) -> Option<Booked> {
        let b = self.booked.get_mut(job as usize)?.take()?;
        for k in b.first..b.first + b.count {
            self.plan.release(self.arena[k as usize], b.start, job);
        }
        self.profile.release(b.start, b.end, b.count);
        Some(b)
    }

    /// The latest restart time of a disabled job: min(d, next reservation on its
    /// nodes) − x.
    fn restart_deadline(&self, c: &dyn Cluster, job: JobId, b: Booked) -> Time {
        let j = c.job(job);
        let next = self.nodes_of(b).iter().filter_map(|&node| self.plan.next_start(node, b.start + 1)).min();
        next.unwrap_or(Time::MAX).min(j.deadline) - j.estimate
    }

    fn disable(&mut self, c: &mut dyn Cluster, job: JobId) {
        let Some(b) = self.booked.get(job as usize).copied().flatten() else { return };
        let deadline = self.restart_deadline(c, job, b);
        if c.now() > deadline {
            self.unbook(job);
            c.fail(job);
        } else {
            self.disabled.insert(job);
            c.wake_at(deadline + 1);
        }
    }

    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.due.clear();
        self.due.extend(self.pending.range(..=(now, JobId::MAX)).copied());
        for k in 0..self.due.len() {
            let (start, job) = self.due[k];
            self.pending.remove(&(start, job));
            let Some(b) = self.booked.get(job as usize).copied().flatten() else { continue };
            let nodes = &self.arena[b.first as usize..(b.first + b.count) as usize];
            if !c.start(job, nodes, b.end) {
                self.disable(c, job);
            }
        }
        // Disabled jobs whose restart window has closed fail now.
        self.jobs.clear();
        for &job in &self.disabled {
            if self.booked[job as usize].is_some_and(|b| now > self.restart_deadline(&*c, job, b)) {
                self.jobs.push(job);
            }
        }
        for k in 0..self.jobs.len() {
            let job = self.jobs[k];
            self.disabled.remove(&job);
            self.unbook(job);
            c.fail(job);
        }
    }

    /// Restarts disabled jobs on `node` whose nodes are all back.
    fn try_restart(&mut self, c: &mut dyn Cluster, node: NodeId) {
        let now = c.now();
        self.jobs.clear();
        for &job in &self.disabled {
            if self.booked[job as usize].is_some_and(|b| self.nodes_of(b).contains(&node)) {
                self.jobs.push(job);
            }
        }
        for k in 0..self.jobs.len() {
            let job = self.jobs[k];
            let Some(b) = self.booked[job as usize] else { continue };
            if !c.nodes_ready(self.nodes_of(b)) {
                continue;
            }
            self.disabled.remove(&job);
            if now > self.restart_deadline(&*c, job, b) {
                self.unbook(job);
                c.fail(job);
                continue;
            }
            // Move its slot to [now, now + x) on the same nodes.
            let x = c.job(job).estimate;
            self.unbook(job);
            self.chosen.clear();
            self.chosen.extend_from_slice(&self.arena[b.first as usize..(b.first + b.count) as usize]);
            self.book(job, now, now + x);
            let nodes = &self.arena[self.arena.len() - b.count as usize..];
            if !c.start(job, nodes, now + x) {
                self.disable(c, job);
            }
        }
    }
}

impl Strategy for ComprehensiveBackfilling {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.submissions += 1;
        if self.submissions % 256 == 0 {
            // Forget finished history; disabled jobs keep their (future) limits.
            let horizon = c.now();
            self.plan.forget_before(horizon);
            self.profile.forget_before(horizon);
        }
        let j = *c.job(job);
        let from = c.now().max(j.release);
        let start = if j.nodes > self.plan.node_count() {
            None
        } else {
            self.find_start(from, j.estimate, j.nodes, j.deadline - j.estimate)
        };
        let Some(start) = start else {
            c.reject(job);
            return;
        };
        let end = start + j.estimate;
        self.book(job, start, end);
        c.accept(job, Booking { start, end, overbooked: false, pof: None });
        self.pending.insert((start, job));
        if start == c.now() {
            self.start_due(c);
        } else {
            c.wake_at(start);
        }
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        self.start_due(c);
    }

    fn job_ended(&mut self, _c: &mut dyn Cluster, _job: JobId) {
        // Nodes stay reserved until the end of the booking: nothing changes.
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        if let Some(job) = victim {
            self.disable(c, job);
        }
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        self.try_restart(c, node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes 0–1 free forever, node 2 booked from 5 h, node 3 from 3 h: a 2-h
    /// job on two nodes at t = 0 fits everywhere. First fit takes the lowest ids
    /// {0, 1}; best fit the tightest {2, 3} (smallest free-until), keeping the
    /// long free stretches for long jobs.
    #[test]
    fn first_fit_takes_lowest_ids_best_fit_the_tightest_nodes() {
        let hour = crate::units::HOUR;
        for (placement, expected) in [(Placement::FirstFit, vec![0, 1]), (Placement::BestFit, vec![3, 2])] {
            let mut s = ComprehensiveBackfilling::new(4, placement);
            s.plan.reserve(2, Slot { start: 5 * hour, end: 6 * hour, job: 90 });
            s.plan.reserve(3, Slot { start: 3 * hour, end: 4 * hour, job: 91 });
            assert!(s.choose_nodes(0, 2 * hour, 2));
            let mut expected = expected;
            expected.sort_unstable();
            assert_eq!(s.chosen, expected, "{placement}");
            // Node 3 is free only until 3 h: a 4-h job cannot use it.
            assert!(s.choose_nodes(0, 4 * hour, 3));
            assert!(!s.chosen.contains(&3), "{placement}");
            assert!(!s.choose_nodes(0, 4 * hour, 4));
        }
    }
}
