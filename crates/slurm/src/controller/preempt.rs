//! Preempting running jobs for a pending one, in either scheduler: who the
//! candidates are, the test that takes them away until the job fits, and
//! what becomes of those preempted. Who may preempt whom, and how, is
//! [`crate::preemption`]'s.
//!
//! Sources: Slurm 22.05, `src/slurmctld/preempt.c`
//! (`slurm_find_preemptable_jobs`, `_add_preemptable_job`),
//! `src/plugins/select/cons_common/job_test.c` (`_run_now`,
//! `_will_run_test`), `src/slurmctld/node_scheduler.c` (`select_nodes`,
//! `_preempt_jobs`, `_pick_best_nodes`) and `src/slurmctld/job_mgr.c`
//! (`batch_requeue_fini`).
//!
//! Contract:
//! - With preemption ([`crate::preemption`]): a job that does not fit in
//!   the main pass, or now in a backfill pass, may preempt running jobs
//!   (cancelled or requeued) and then waits for a later pass: their nodes
//!   are COMPLETING for the rest of the pass, and their epilogs done, a
//!   main pass follows at the same instant; the end event of a preempted
//!   run is void; a requeued job rejoins the queue
//!   when it becomes eligible. Under `preempt/qos` the queue is ordered by
//!   the QOS's preempt depth first.

use super::{Controller, ControllerMsg, is_set};
use crate::machine::holds_gpus;
use slasim_sim::kernel::Outbox;
use slasim_sim::units::Time;

/// The nodes a preemption test may use.
#[derive(Debug, Clone, Copy)]
pub(super) enum Usable {
    /// Those the main pass `pass` has not blocked.
    Unblocked(u64),
    /// Those [`Controller::mark_available`] marked last (free of backfill reservations).
    Marked,
}

impl Controller {
    /// `_run_now` with preemptee candidates: if pending job `j` would fit
    /// on the nodes `usable` gives once some running jobs it may preempt
    /// are gone, those of them on its nodes are preempted (it does not
    /// start: `ESLURM_NODES_BUSY`). Whether it preempted.
    pub(super) fn try_preempt(
        &mut self,
        now: Time,
        j: u32,
        usable: Usable,
        outbox: &mut Outbox<ControllerMsg>,
    ) -> bool {
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
        let (completing, pass, up) = (&self.completing, self.pass, &self.states.up);
        // In service, its node set, COMPLETING nodes and the advance reservations too (`usable`).
        let ok = |n: u32| {
            is_set(up, n)
                && machine.allows(job.set, n)
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
        let ceiling = parts.iter().filter(|&&n| ok(n) && need.fits(&pre.ceiling[n as usize])).count();
        // A GPU job's tests set the weights of the nodes that hold its GPUs
        // and CPUs ([`crate::machine::Machine::near_gpus`]): noted here, set
        // once the test is over.
        let near = &mut self.near_nodes;
        near.clear();
        if (ceiling as u32) < need.nodes {
            // `_run_now` took every candidate away, testing the job each
            // time: its last test saw the nodes as with all of them gone.
            if need.gpus > 0 {
                near.extend(parts.iter().filter(|&&n| ok(n) && holds_gpus(&need, &pre.ceiling[n as usize])));
            }
            self.machine.mark_near_each(&self.near_nodes, &need);
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
            let mut fitting = parts.iter().filter(|&&n| ok(n) && need.fits(&self.scratch[n as usize])).count() as u32;
            // It fits as things are: nothing to preempt (its start is the caller's).
            if fitting >= need.nodes {
                break None;
            }
            for (k, &r) in pre.candidates.iter().enumerate() {
                let d = &self.jobs[r as usize];
                let first = self.node_at[r as usize] as usize;
                for &n in &self.nodes[first..first + d.need.nodes as usize] {
                    let s = &mut self.scratch[n as usize];
                    let held = need.fits(s);
                    s.add(&d.need.per_node());
                    if !held && need.fits(s) && ok(n) && self.part_mark[n as usize] == stamp {
                        fitting += 1;
                    }
                }
                if fitting < need.nodes {
                    continue;
                }
                let scratch = &self.scratch;
                let free = |n: u32| {
                    let f = scratch[n as usize];
                    (ok(n) && need.fits(&f)).then_some(f.cpus)
                };
                if self.machine.pick(p, &need, free, &mut self.found) {
                    fit = Some(k);
                    break;
                }
            }
            if need.gpus > 0 {
                let scratch = &self.scratch;
                near.extend(parts.iter().filter(|&&n| ok(n) && holds_gpus(&need, &scratch[n as usize])));
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
        self.machine.mark_near_each(&self.near_nodes, &need);
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

    /// Running job `r` is preempted at `now`: cancelled, or requeued where
    /// requeues are allowed ([`super::requeue`]).
    fn preempt_job(&mut self, now: Time, r: u32, outbox: &mut Outbox<ControllerMsg>) {
        let Some(pre) = self.preempt.as_deref() else {
            return;
        };
        // `slurm_job_preempt`: a requeue `_job_requeue_op` refuses is a kill.
        let cancel = pre.action(r) == crate::preemption::mode::PreemptAction::Cancel || !self.requeues.allowed();
        // Its nodes are COMPLETING until its epilog is done, after this
        // pass (`_pick_best_nodes` and `_attempt_backfill` leave
        // `cg_node_bitmap` out, whatever their free cores).
        let first = self.node_at[r as usize] as usize;
        for &n in &self.nodes[first..first + self.jobs[r as usize].need.nodes as usize] {
            self.completing[n as usize] = self.pass;
        }
        self.counters.preemptions += 1;
        self.outcome[r as usize].preempted += 1;
        self.take_off(now, r, !cancel, outbox);
        if cancel {
            self.outcome[r as usize].preempt_cancelled = true;
            self.counters.preempt_cancels += 1;
        }
    }
}
