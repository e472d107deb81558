//! Queueing in a priority rule's order: list scheduling, or EASY backfilling,
//! over the waiting jobs sorted by a [`Priority`] rule (the strategies
//! `<rule>` and `<rule>-easy`: `sjf`, `sjf-easy`, `wfp3-easy`, …).
//!
//! Reference: the rules' sources are in [`super`]; list scheduling and EASY
//! as in `policy::classic` (Lifka, JSSPP 1995; Mu'alem and Feitelson, IEEE
//! TPDS 12(6), 2001), with the queue in the rule's order instead of arrival
//! order.
//!
//! Contract (the classic modes' contract, `policy::classic`, but for the order):
//! - No deadlines, fees or rejections: every job runs eventually. A job wider
//!   than the machine can never run; it is dropped (rejected `too-wide`).
//! - The queue is sorted by the rule's key, smallest first; equal keys go by
//!   job id (the order of submission), so the sort is that of a stable sort
//!   of the arrival queue. A rule whose key does not age is keyed once, at
//!   arrival; one that [`Priority::ages`] is re-keyed and re-sorted at the
//!   start of every pass. A job released after it occurs joins the queue at
//!   its release.
//! - Scheduling passes run at every arrival and every job end, after all
//!   ends at that instant. Nodes are the lowest-id idle ones.
//! - A job runs for its real runtime. With `kill_at_estimate` (the default)
//!   it is killed at start + estimate; its planning length is its estimate, at
//!   least 1 s.
//! - List scheduling (`<rule>`): start jobs from the front while they fit; the
//!   first that does not fit blocks the queue.
//! - EASY (`<rule>-easy`): as list scheduling; then the blocked first job is
//!   reserved at its shadow time and every later job, in the rule's order,
//!   starts now if it fits now and either ends (by its estimate) by the
//!   shadow time or uses no more than the extra nodes: EASY's two
//!   conditions by counting nodes, [`crate::plan::easy::CountedShadow`], the
//!   rule the built-in `easy` runs in arrival order.
//!
//! A pass allocates nothing once the queue's and the batch's buffers have
//! grown to their largest size.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::{Key, Priority, Waiting};
use crate::cluster::strategy::{Booking, Cluster, RejectReason, Strategy};
use crate::plan::easy::{CountedShadow, length};
use slasim_core::units::{JobId, NodeId, Time};

/// A waiting job and its key.
#[derive(Debug, Clone, Copy)]
struct Queued {
    key: Key,
    job: JobId,
}

/// The queue's order: the smaller key first (`-0.0` and `0.0` are equal, see
/// [`key_of`]), then the smaller job id.
fn order(a: &Queued, b: &Queued) -> Ordering {
    a.key.0.total_cmp(&b.key.0).then(a.key.1.total_cmp(&b.key.1)).then(a.job.cmp(&b.job))
}

/// The rule's key of a job at `now`, with a zero of either sign made `0.0`
/// (a rule that negates a zero score gives `-0.0`, which `total_cmp` would
/// put before `0.0`).
fn key_of<R: Priority>(rule: &R, c: &dyn Cluster, job: JobId, now: Time) -> Key {
    let j = c.job(job);
    let waiting = Waiting { submit: j.occurrence, estimate: j.estimate, processors: j.nodes };
    let (a, b) = rule.key(&waiting, now);
    (a + 0.0, b + 0.0)
}

/// List scheduling or EASY backfilling in the order of the rule `R`.
pub struct PriorityQueueing<R: Priority> {
    rule: R,
    backfill: bool,
    capacity: u32,
    kill_at_estimate: bool,
    /// Waiting jobs, in the rule's order.
    queue: Vec<Queued>,
    /// Submitted jobs waiting for their release: (release, job).
    unreleased: BTreeSet<(Time, JobId)>,
    /// Running jobs by planned end (start + length).
    running: BTreeSet<(Time, JobId)>,
    /// Each running job's planned end, by job id (`None` if not running).
    hold_end: Vec<Option<Time>>,
    /// Nodes not held by running jobs.
    free: u32,
    nodes: Vec<NodeId>,
    /// EASY: the queue positions chosen to backfill in a pass.
    batch: Vec<usize>,
}

impl<R: Priority> PriorityQueueing<R> {
    /// The strategy for a machine of `capacity` nodes: list scheduling, or EASY
    /// backfilling when `backfill`.
    pub fn new(rule: R, backfill: bool, capacity: u32, kill_at_estimate: bool) -> PriorityQueueing<R> {
        PriorityQueueing {
            rule,
            backfill,
            capacity,
            kill_at_estimate,
            queue: Vec::new(),
            unreleased: BTreeSet::new(),
            running: BTreeSet::new(),
            hold_end: Vec::new(),
            free: capacity,
            nodes: Vec::new(),
            batch: Vec::new(),
        }
    }

    /// Puts `job` in the queue: in its place for a rule that does not age;
    /// at the end for one that does (the next pass sorts it).
    fn enqueue(&mut self, c: &dyn Cluster, job: JobId) {
        let queued = Queued { key: key_of(&self.rule, c, job, c.now()), job };
        if self.rule.ages() {
            self.queue.push(queued);
        } else {
            let at = self.queue.partition_point(|q| order(q, &queued) == Ordering::Less);
            self.queue.insert(at, queued);
        }
    }

    /// Starts `job` now on the lowest-id idle nodes; false if too few are idle.
    fn start(&mut self, c: &mut dyn Cluster, job: JobId) -> bool {
        let j = *c.job(job);
        let now = c.now();
        if j.nodes > self.free || !c.idle_nodes(j.nodes, &mut self.nodes) {
            return false;
        }
        let kill_at = if self.kill_at_estimate { now + j.estimate } else { Time::MAX / 4 };
        if !c.start(job, &self.nodes, kill_at) {
            return false;
        }
        let hold_end = now + length(j.estimate);
        c.accept(job, Booking { start: now, end: hold_end, overbooked: false, pof: None });
        let i = job as usize;
        if i >= self.hold_end.len() {
            self.hold_end.resize(i + 1, None);
        }
        self.hold_end[i] = Some(hold_end);
        self.running.insert((hold_end, job));
        self.free -= j.nodes;
        true
    }

    /// One scheduling pass.
    fn schedule(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        if self.rule.ages() {
            for q in &mut self.queue {
                q.key = key_of(&self.rule, c, q.job, now);
            }
            // Keys are distinct with the job id: an unstable sort is stable here.
            self.queue.sort_unstable_by(order);
        }
        let mut started = 0;
        while started < self.queue.len() && self.start(c, self.queue[started].job) {
            started += 1;
        }
        self.queue.drain(..started);
        if !self.backfill || self.free == 0 {
            return;
        }
        let Some(head) = self.queue.first() else { return };
        let running = self.running.iter().map(|&(end, job)| (end, c.job(job).nodes));
        let mut shadow = CountedShadow::new(now, self.free, c.job(head.job).nodes, running);
        self.batch.clear();
        for (k, q) in self.queue.iter().enumerate().skip(1) {
            if shadow.free() == 0 {
                break;
            }
            let j = c.job(q.job);
            if shadow.admit(now, j.nodes, length(j.estimate)) {
                self.batch.push(k);
            }
        }
        if self.batch.is_empty() {
            return;
        }
        for b in 0..self.batch.len() {
            let job = self.queue[self.batch[b]].job;
            self.start(c, job);
        }
        let hold_end = &self.hold_end;
        self.queue.retain(|q| hold_end.get(q.job as usize).is_none_or(Option::is_none));
    }
}

impl<R: Priority> Strategy for PriorityQueueing<R> {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        if j.nodes > self.capacity {
            c.reject(job, RejectReason::TooWide);
            return;
        }
        if j.release > c.now() {
            self.unreleased.insert((j.release, job));
            c.wake_at(j.release);
        } else {
            self.enqueue(c, job);
            self.schedule(c);
        }
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        while let Some(&(release, job)) = self.unreleased.first().filter(|(r, _)| *r <= now) {
            self.unreleased.remove(&(release, job));
            self.enqueue(c, job);
        }
        self.schedule(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        let Some(hold_end) = self.hold_end.get_mut(job as usize).and_then(Option::take) else { return };
        self.running.remove(&(hold_end, job));
        self.free += c.job(job).nodes;
        // One pass once every job ending now has freed its nodes.
        c.wake_at(c.now());
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        // No failures are modelled (as in the classic modes): a stopped job
        // fails, and a start on a down node waits for the next pass.
        if let Some(job) = victim {
            self.job_ended(c, job);
            c.fail(job);
        }
    }

    fn node_repaired(&mut self, _c: &mut dyn Cluster, _node: NodeId) {}
}
