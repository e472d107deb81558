//! The queue and the main scheduler.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_scheduler.c` (`schedule`,
//! `_schedule`, `build_job_queue`, `sort_job_queue2`),
//! `src/slurmctld/acct_policy.c`
//! (`acct_policy_job_runnable_pre_select`,
//! `acct_policy_job_runnable_post_select`), the documents
//! `sched_config.html` and `slurm.conf(5)` (SchedulerParameters).
//!
//! Contract:
//! - The queue is ordered by partition `PriorityTier` (higher first), then
//!   priority (higher first), then submit time, then job id.
//! - The main scheduler runs at every job end (its epilog complete calls
//!   `schedule()` at once), in the background loop's pass for submissions,
//!   and in that loop's full pass every `sched_interval`. The background
//!   loop's pass comes `batch_sched_delay` (3 s) after its own previous pass
//!   (batch or full; `last_sched_time`), at once if that is past; a full
//!   pass takes the submissions before it ([`super::model`] runs them). It
//!   walks the queue (at most
//!   `default_queue_depth` + 1 jobs, all of them in a full pass) and starts
//!   each job that fits now on its partition's nodes. When a job does not
//!   fit, its partition is blocked for the rest of the pass: no later job of
//!   it is tried, and its nodes are withheld from the jobs of other
//!   partitions.

use std::cmp::Ordering;

use super::preempt::Usable;
use super::{Controller, ControllerMsg, is_set};
use crate::queued::Queued;
use slasim_sim::kernel::Outbox;
use slasim_sim::units::Time;

impl Controller {
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
            let at = self.queue.partition_point(|&q| self.before(q, r) != Ordering::Greater);
            self.queue.insert(at, r);
        }
    }

    /// Dependencies and throttles at the start of a pass (`build_job_queue`):
    /// queued tasks of an array at its throttle leave the queue, and the
    /// waiting jobs now independent join it, with the priority of the last
    /// tick.
    pub(super) fn refresh(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
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
    pub(super) fn dependents_cancelled(&mut self) {
        let Some(d) = self.relations.as_mut() else { return };
        for j in d.cancelled_now.drain(..) {
            if let Some(l) = self.limits.as_mut() {
                l.withdraw(j);
            }
        }
    }

    /// The queue order: tier, priority (higher first), submit, id.
    #[inline]
    fn before(&self, a: u32, b: u32) -> Ordering {
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

    pub(super) fn sort_queue(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        queue.sort_by(|&a, &b| self.before(a, b));
        self.queue = queue;
    }

    /// Job `j` joins the queue at its place.
    pub(super) fn enqueue(&mut self, now: Time, j: u32) {
        self.queue_records(j, now);
    }

    /// The main scheduler's pass (a full one ignores `default_queue_depth`).
    pub(super) fn main(&mut self, now: Time, full: bool, outbox: &mut Outbox<ControllerMsg>) {
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
        let depth = if full { usize::MAX } else { self.settings.scheduler.default_queue_depth as usize + 1 };
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
            // `_schedule`: a job whose partition has fewer nodes in service
            // and not kept by a blocked partition than it needs fails its
            // partition without `select_nodes` ("Nodes required for job are
            // DOWN, DRAINED or reserved for jobs in higher priority
            // partitions"): no weight is synced.
            // Why: without a GPU job or a lowered weight, what `select_nodes`
            // would sync is already synced, and `find` fails as well.
            let open = !(need.gpus > 0 || self.machine.weights_lowered()) || {
                let (blocked, up) = (&self.blocked_node, &self.states.up);
                let mut open =
                    self.machine.partitions[p].nodes.iter().filter(|&&n| blocked[n as usize] != pass && is_set(up, n));
                open.nth(need.nodes.max(1) as usize - 1).is_some()
            };
            if up && !kept && open {
                // `select_nodes`: the weights synced, then the job tested.
                self.machine.sync_weights(p);
                if need.gpus > 0 {
                    let job = self.jobs[j as usize];
                    self.near_gpus(p, &need, |c, n| {
                        (c.blocked_node[n as usize] != pass && c.usable(&job, n, now, until))
                            .then(|| c.machine.free[n as usize])
                    });
                }
            }
            let job = &self.jobs[j as usize];
            let fits = up
                && !kept
                && open
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
            if !fits && up && !kept && open && need.gpus > 0 {
                // `_pick_best_nodes`: a job that cannot start now is tested
                // again as if every node were idle (`SELECT_MODE_TEST_ONLY`,
                // "could the job ever run"), on its partition's nodes still
                // available in the pass: each that could hold its GPUs and
                // CPUs gets its weight.
                let job = self.jobs[j as usize];
                self.near_gpus(p, &need, |c, n| {
                    (c.blocked_node[n as usize] != pass && c.usable(&job, n, now, until))
                        .then(|| c.machine.spec.size[n as usize])
                });
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
}
