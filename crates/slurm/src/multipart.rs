//! Jobs submitted to several partitions (`sbatch -p a,b`): one queue record
//! per partition, the first to start wins.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_mgr.c` (`_get_job_parts`,
//! `_select_nodes_parts`), `src/slurmctld/partition_mgr.c`
//! (`get_part_list`), `src/common/slurm_priority.c`
//! (`priority_sort_part_tier`), `src/slurmctld/job_scheduler.c`
//! (`build_job_queue`, `_job_queue_append`, `sort_job_queue2`, `_schedule`,
//! `rebuild_job_part_list`),
//! `src/plugins/sched/backfill/backfill.c` (`_attempt_backfill`,
//! `bf_one_resv_per_job`) and
//! `src/plugins/priority/multifactor/priority_multifactor.c`
//! (`_get_priority_internal`: `priority_array`).
//!
//! Contract:
//! - A job's partitions are the names it was submitted with, repeats
//!   dropped (`get_part_list`); a name the `slurm.conf` does not define is a
//!   located error ([`crate::bench`]: `ESLURM_INVALID_PARTITION_NAME`). One
//!   distinct name is a job of one partition.
//! - They are ordered by `PriorityTier`, higher first, ties in the order
//!   written (`priority_sort_part_tier`, as the priority plugin and
//!   `_select_nodes_parts` sort `part_ptr_list`).
//! - A partition in which the job can never run (too few or too small
//!   nodes, not up) or whose `MaxTime` it exceeds is dropped from its list
//!   (`_job_runnable_test2` never queues it there); with
//!   `EnforcePartLimits=ALL` a job over any partition's `MaxTime` is
//!   rejected. With every partition dropped the job is what its first
//!   partition makes of it (an error, or held).
//! - The job has one record per partition in the queue (`build_job_queue`),
//!   each with that partition's priority (`priority_array`: the job's
//!   factors, with that partition's `PriorityJobFactor` and TRES factors),
//!   and each record is ordered as a job of that partition
//!   (`sort_job_queue2`: its partition's `PriorityTier`, its priority).
//!   Records of one job that tie stay in the partitions' order.
//! - The main scheduler and the backfill scheduler try each record as the
//!   job in that partition (`job_ptr->part_ptr = part_ptr`): its nodes,
//!   its blocked partition, its `bf_max_job_part` count, preemption by
//!   partition ([`crate::preemption`]) all see that partition. Once the
//!   job starts, its other records leave the queue (`IS_JOB_PENDING`:
//!   "started in other partition"), and a job that preempted in one
//!   partition is not tried in its others in the same pass
//!   (`preempt_in_progress`).
//! - Backfill reserves for each record that cannot start
//!   (`bf_one_resv_per_job` off, Slurm's default).
//! - The started partition is the job's partition from then on
//!   (`rebuild_job_part_list` puts it first): its end, its usage (billing
//!   weights of that partition), its preemption, and the partition the
//!   store records.
//! - A requeued job (preemption) is queued again in all its partitions
//!   (the list is kept for a requeue).
//! - No job with several partitions: nothing here exists, and a run is
//!   the same as without this module, byte for byte.

use crate::machine::{JobError, Machine};
use crate::queued::Queued;
use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};

/// The jobs of several partitions, as the controller holds them.
///
/// Record ids: a job's first partition is its own index `j`; its `k`th
/// partition (`k ≥ 1`) is `n + first[j] + k`, `n` the number of jobs.
#[derive(Debug, Clone)]
pub struct MultiPartition {
    /// The number of jobs.
    n: u32,
    /// Per job: where its partitions begin in `alts` (`first[j + 1]` ends
    /// them; empty for a job of one partition).
    first: Vec<u32>,
    /// Each job in each of its partitions, in the order tried.
    alts: Vec<Queued>,
    /// Per entry of `alts`: its job.
    owner: Vec<u32>,
    /// Per job: the round in which it preempted (`preempt_in_progress`).
    preempting: Vec<u64>,
    /// The current main or backfill pass.
    round: u64,
}

impl MultiPartition {
    /// From each job's partitions (`alternatives[j]`: the job in each of
    /// its partitions, in the order tried; empty or one: one partition).
    /// `None` when no job has several.
    pub fn new(alternatives: Vec<Vec<Queued>>) -> Option<MultiPartition> {
        if alternatives.iter().all(|a| a.len() < 2) {
            return None;
        }
        let n = alternatives.len();
        let mut first = Vec::with_capacity(n + 1);
        let (mut alts, mut owner) = (Vec::new(), Vec::new());
        for (j, a) in alternatives.into_iter().enumerate() {
            first.push(alts.len() as u32);
            if a.len() >= 2 {
                owner.extend(std::iter::repeat_n(j as u32, a.len()));
                alts.extend(a);
            }
        }
        first.push(alts.len() as u32);
        Some(MultiPartition { n: n as u32, first, alts, owner, preempting: vec![0; n], round: 0 })
    }

    /// The number of record ids (jobs and their further partitions).
    pub fn records(&self) -> usize {
        self.n as usize + self.alts.len()
    }

    /// The job of record `r`.
    #[inline]
    pub fn owner(&self, r: u32) -> u32 {
        if r < self.n { r } else { self.owner[(r - self.n) as usize] }
    }

    /// Record `r` as the job in that partition; `None` for a job of one
    /// partition.
    #[inline]
    pub fn view(&self, r: u32) -> Option<&Queued> {
        if r >= self.n {
            return self.alts.get((r - self.n) as usize);
        }
        let (a, b) = (self.first[r as usize], self.first[r as usize + 1]);
        (b > a).then(|| &self.alts[a as usize])
    }

    /// Job `j`'s records beyond its first (none for a job of one partition).
    #[inline]
    pub fn more(&self, j: u32) -> std::ops::Range<u32> {
        let (a, b) = (self.first[j as usize], self.first[j as usize + 1]);
        if b > a { self.n + a + 1..self.n + b } else { 0..0 }
    }

    /// Whether job `j` has several partitions.
    #[inline]
    pub fn is_multi(&self, j: u32) -> bool {
        self.first[j as usize + 1] > self.first[j as usize]
    }

    /// A new main or backfill pass begins.
    pub(crate) fn next_round(&mut self) {
        self.round += 1;
    }

    /// Job `j` preempted in this pass.
    pub(crate) fn preempted(&mut self, j: u32) {
        self.preempting[j as usize] = self.round;
    }

    /// Whether job `j` preempted in this pass (its other records wait).
    #[inline]
    pub(crate) fn preempting(&self, j: u32) -> bool {
        self.preempting[j as usize] == self.round
    }
}

/// Job `job`'s partitions, when it names several: each one it may run in,
/// in the order tried, as [`Machine::admit`] gives it (partition, need,
/// limit, over `MaxTime`); always one at least. `None` for a job of one
/// partition. A name the machine lacks is an error naming the job's origin
/// and `Partition`; a job no partition can run is its first partition's
/// error.
pub fn partitions(
    machine: &Machine,
    workload: &SlurmWorkload,
    job: &SlurmJob,
    enforce_all: bool,
) -> Result<Option<Vec<Admitted>>, JobError> {
    if job.partitions.len() < 2 {
        return Ok(None);
    }
    let name = |q: u32| workload.partitions.get(q as usize).map_or("", String::as_str);
    let mut named: Vec<(usize, u32)> = Vec::with_capacity(job.partitions.len());
    for &q in &job.partitions {
        let Some(p) = machine.partition(name(q)) else {
            let list: Vec<&str> = job.partitions.iter().map(|&q| name(q)).collect();
            let known: Vec<&str> = machine.partitions.iter().map(|p| p.name.as_str()).collect();
            return Err(JobError {
                origin: job.origin.to_string(),
                id: job.id,
                field: "Partition".into(),
                detail: format!(
                    "partition {:?} of the job's list `{}` is not defined by the slurm.conf (it has {})",
                    name(q),
                    list.join(","),
                    known.join(", ")
                ),
            });
        };
        if !named.iter().any(|&(o, _)| o == p) {
            named.push((p, q));
        }
    }
    // `priority_sort_part_tier`: higher tiers first, a stable sort.
    named.sort_by_key(|&(p, _)| std::cmp::Reverse(machine.partitions[p].priority_tier));
    let mut admitted: Vec<Admitted> = Vec::with_capacity(named.len());
    let mut first_error = None;
    for &(_, q) in &named {
        let tried = SlurmJob { partition: q, ..job.clone() };
        match machine.admit(workload, &tried) {
            Ok(a) => admitted.push(a),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let over = admitted.iter().position(|a| a.3);
    let runnable: Vec<Admitted> = admitted.iter().copied().filter(|a| !a.3).collect();
    Ok(Some(match (over, runnable.is_empty()) {
        // `EnforcePartLimits=ALL`: over one partition's limits, rejected.
        (Some(k), _) if enforce_all => vec![admitted[k]],
        (_, false) => runnable,
        // Over every partition's `MaxTime`: held (or rejected).
        (Some(k), true) => vec![admitted[k]],
        (None, true) => {
            return Err(first_error.unwrap_or_else(|| JobError {
                origin: job.origin.to_string(),
                id: job.id,
                field: "Partition".into(),
                detail: "no partition of the job's list can run it".into(),
            }));
        }
    }))
}

/// What [`Machine::admit`] gives: partition, need, limit, over `MaxTime`.
pub type Admitted = (usize, crate::machine::Need, slasim_sim::units::Time, bool);
