//! `sjf-backfilling`: EASY backfilling whose backfill candidates are tried
//! shortest estimate first (as pybatsim's `schedEasySjfBackfill`), written
//! against slasim's public `Strategy` and `Cluster` traits only.
//!
//! Reference: Mu'alem and Feitelson, "Utilization, predictability,
//! workloads, and user runtime estimates in scheduling the IBM SP2 with
//! backfilling", IEEE TPDS 12(6), 2001 (EASY, §2; shortest-job-first
//! backfilling order, §5).
//!
//! Contract:
//! - The queue is in arrival order; its head starts as soon as enough nodes
//!   are idle, and is never delayed: it holds a reservation at its shadow
//!   time (the earliest time enough running jobs will have ended, by their
//!   estimates).
//! - Every other waiting job may start now if it fits the idle nodes and
//!   either ends (by its estimate) before the shadow time or uses only the
//!   extra nodes: those free at the shadow time (every running job expected
//!   to end by then counted) that the head will not need. Candidates are tried by estimate,
//!   shortest first (ties: arrival order).
//! - A pass runs at each submission and each wake-up. A job's end only asks
//!   for a wake-up now (the kernel's rule: jobs start in the wake-up class,
//!   after every end of the instant). A job is killed at its estimate when
//!   the setting `kill_at_estimate` is on.

use slasim::single::policy::{Booking, Cluster, RejectReason, Strategy};
use slasim::units::{JobId, NodeId, Time};

/// The strategy's state: waiting jobs and running jobs' planned ends.
pub struct SjfBackfilling {
    capacity: u32,
    kill_at_estimate: bool,
    /// Waiting jobs, in arrival order.
    queue: Vec<JobId>,
    /// Jobs released later than their submission: (release, job).
    unreleased: Vec<(Time, JobId)>,
    /// Running jobs: (planned end, nodes, job).
    running: Vec<(Time, u32, JobId)>,
    free: u32,
    /// Reused buffers.
    nodes: Vec<NodeId>,
    candidates: Vec<JobId>,
}

impl SjfBackfilling {
    /// A scheduler for a cluster of `capacity` nodes.
    pub fn new(capacity: u32, kill_at_estimate: bool) -> SjfBackfilling {
        SjfBackfilling {
            capacity,
            kill_at_estimate,
            queue: Vec::new(),
            unreleased: Vec::new(),
            running: Vec::new(),
            free: capacity,
            nodes: Vec::new(),
            candidates: Vec::new(),
        }
    }

    /// Starts `job` now on the lowest-id idle nodes; false if it cannot.
    fn start(&mut self, c: &mut dyn Cluster, job: JobId) -> bool {
        let j = *c.job(job);
        let now = c.now();
        if j.nodes > self.free || !c.idle_nodes(j.nodes, &mut self.nodes) {
            return false;
        }
        let end = now + j.estimate.max(1);
        let kill_at = if self.kill_at_estimate { now + j.estimate } else { Time::MAX / 4 };
        if !c.start(job, &self.nodes, kill_at) {
            return false;
        }
        c.accept(job, Booking { start: now, end, overbooked: false, pof: None });
        self.running.push((end, j.nodes, job));
        self.free -= j.nodes;
        true
    }

    /// One scheduling pass: the head first, then backfilling shortest first.
    fn schedule(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        let mut started = 0;
        while started < self.queue.len() && self.start(c, self.queue[started]) {
            started += 1;
        }
        self.queue.drain(..started);
        let Some(&head) = self.queue.first() else { return };
        // The head's shadow time and the extra nodes: every node free then,
        // with all jobs expected to end by it counted whatever their order,
        // beyond the head's need (as the built-in `easy`).
        let need = c.job(head).nodes;
        self.running.sort_unstable();
        let (mut available, mut shadow) = (self.free, now);
        for &(end, nodes, _) in &self.running {
            let end = end.max(now);
            if available >= need && end > shadow {
                break;
            }
            available += nodes;
            shadow = end;
        }
        let mut extra = available.saturating_sub(need);
        self.candidates.clear();
        self.candidates.extend_from_slice(&self.queue[1..]);
        // Stable: equal estimates keep their arrival order.
        self.candidates.sort_by_key(|&job| c.job(job).estimate);
        let mut candidates = std::mem::take(&mut self.candidates);
        for &job in &candidates {
            if self.free == 0 {
                break;
            }
            let j = *c.job(job);
            let before_shadow = now + j.estimate.max(1) <= shadow;
            if j.nodes > self.free || !(before_shadow || j.nodes <= extra) {
                continue;
            }
            if self.start(c, job) {
                if !before_shadow {
                    extra -= j.nodes;
                }
                self.queue.retain(|&q| q != job);
            }
        }
        candidates.clear();
        self.candidates = candidates;
    }
}

impl Strategy for SjfBackfilling {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        if j.nodes > self.capacity {
            c.reject(job, RejectReason::TooWide);
        } else if j.release > c.now() {
            self.unreleased.push((j.release, job));
            c.wake_at(j.release);
        } else {
            // Submissions come after the wake-ups of their instant: starting now is allowed.
            self.queue.push(job);
            self.schedule(c);
        }
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        // Released jobs join the queue in release order, then arrival order.
        self.unreleased.sort_unstable();
        let due = self.unreleased.partition_point(|&(release, _)| release <= now);
        self.queue.extend(self.unreleased.drain(..due).map(|(_, job)| job));
        self.schedule(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        if let Some(i) = self.running.iter().position(|&(_, _, j)| j == job) {
            let (_, nodes, _) = self.running.swap_remove(i);
            self.free += nodes;
        }
        // Starts wait for the wake-up: every job ending now frees its nodes first.
        c.wake_at(c.now());
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        if let Some(job) = victim {
            self.job_ended(c, job);
            c.fail(job);
        }
    }

    fn node_repaired(&mut self, _c: &mut dyn Cluster, _node: NodeId) {}
}
