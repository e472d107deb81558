//! Preemption: a pending job that cannot start takes the nodes of running
//! jobs it may preempt, which are cancelled or requeued. Here: who may
//! preempt whom and how, as a run models it ([`Preemption`]); the modes as
//! the files write them are [`mode`]'s, and preempting in a scheduler's
//! pass is the controller's ([`crate::controller::preempt`]).
//!
//! Sources: Slurm 22.05, `src/slurmctld/preempt.c`
//! (`slurm_find_preemptable_jobs`, `_add_preemptable_job`,
//! `_is_job_preempt_exempt`, `_sort_by_prio`, `slurm_job_preempt`), the
//! plugins `src/plugins/preempt/partition_prio/preempt_partition_prio.c` and
//! `src/plugins/preempt/qos/preempt_qos.c` (`preempt_p_preemptable`,
//! `_job_preempt_mode`, `_gen_job_prio`, `PREEMPT_DATA_ENABLED`),
//! `src/slurmctld/acct_policy.c` (`acct_policy_get_preemptable_time`,
//! `acct_policy_is_job_preempt_exempt`),
//! `src/plugins/select/cons_common/job_test.c` (`_run_now`,
//! `_will_run_test`), `src/slurmctld/node_scheduler.c` (`select_nodes`,
//! `_preempt_jobs`: the preemptor gets `ESLURM_NODES_BUSY`) and
//! `src/slurmctld/job_mgr.c` (`batch_requeue_fini`).
//!
//! Contract:
//! - On with `PreemptType` `preempt/partition_prio` or `preempt/qos` and a
//!   cluster `PreemptMode` other than `OFF` (the plugins'
//!   `PREEMPT_DATA_ENABLED`); otherwise nothing here runs and a run is
//!   today's, byte for byte.
//! - Who may preempt whom (`preempt_p_preemptable`): by partition, a job
//!   of a partition of a higher `PriorityTier` whose nodes overlap the
//!   preemptee's partition's, unless the preemptee's partition's
//!   `PreemptMode` is `OFF`; by QOS, a job whose QOS lists the preemptee's
//!   QOS in its `Preempt`. A running job is a candidate when it has a node
//!   in the preemptor's partition and its `PreemptExemptTime` (its QOS's,
//!   else the cluster's) since its start is over.
//! - How a job is preempted (`_job_preempt_mode`): by partition, its
//!   partition's `PreemptMode`, else the cluster's; by QOS, its QOS's
//!   `PreemptMode` unless `cluster`/`OFF`, else the cluster's. A job whose
//!   mode is `OFF` is never a candidate.
//! - Candidates are taken lowest first by the plugin's preemption priority
//!   (`_gen_job_prio`: the partition's `PriorityTier`, or the QOS's
//!   `Priority` capped at 65 535, times 65 536, plus the job's nodes), ties
//!   in workload order (`list_sort` keeps `job_list`'s order, the order
//!   jobs were created).
//! - `_run_now`: when the job does not fit the free resources of the nodes
//!   it may use, the candidates are taken away one at a time, in that
//!   order, until it fits (its nodes chosen as cons_tres chooses them).
//!   Then, with `preempt_reorder_cnt` 1 (the default), the candidates are
//!   reordered and the test made again from the start, up to three runs in
//!   all (fewer with one or two candidates): the last one taken first, then
//!   those taken before it by how many of the job's chosen nodes they hold,
//!   most first (`usable_nodes`, a stable sort), the others after. After
//!   the last run, the candidates taken away that hold one of the job's
//!   nodes are preempted. The job itself does not start in that pass
//!   (`_preempt_jobs` returns `ESLURM_NODES_BUSY`): the main scheduler
//!   blocks its partition as for any job that does not fit.
//! - The backfill scheduler preempts too (`_will_run_test` first tests the
//!   job with every candidate gone; if it fits, its start is now and
//!   `_start_job` calls `select_nodes`, which preempts as above): here a
//!   job that does not fit now on the nodes free of backfill reservations
//!   preempts as in the main scheduler, and is then neither started nor
//!   reserved for in that pass.
//! - The queue (`sort_job_queue2`, under `preempt/qos`): a job whose QOS
//!   may preempt another job's QOS goes before it, whatever their tiers and
//!   priorities. That comparison is not a total order; here each QOS gets
//!   its depth in the preempt relation (0 when it preempts none, else one
//!   more than the deepest QOS it preempts) and jobs are ordered by it
//!   first, then as without preemption. The same as Slurm's when every QOS
//!   that preempts lists every QOS below it.
//! - A preempted job releases its resources at once, but its nodes are
//!   COMPLETING until its epilog completes: a main pass follows a second
//!   later, and no job starts on those nodes before it, in either
//!   scheduler (`_pick_best_nodes` and `_attempt_backfill` leave out
//!   `cg_node_bitmap`, the free cores of those nodes too). The preemptor
//!   starts in that pass, the main scheduler's. `CANCEL`: it ends then (its
//!   outcome's end), counted as cancelled by preemption. `REQUEUE`: it is
//!   requeued as [`crate::controller::requeue`] says (`begin_time`: now +
//!   the launch credential's lifetime + 1, 121 s by default; the comment in
//!   `batch_requeue_fini` says 1200, but `slurm_cred.c`'s window is 120),
//!   or cancelled under `JobRequeue=0` (`slurm_job_preempt` kills a job
//!   `_job_requeue_op` refuses).
//! - Each job counts its preemptions ([`crate::controller::Outcome`]),
//!   the run counts them ([`crate::controller::Counters`]).
//! - `SUSPEND`, `GANG` and `WITHIN` are not modelled: a run whose
//!   preemption would use them is refused with a located error
//!   ([`PreemptError`]).
//! - No allocation per pass: the candidate list is a buffer kept here.

pub mod mode;

use std::path::PathBuf;

use crate::accounting::Accounting;
use crate::conf::{PreemptType, SlurmConf};
use crate::queued::Queued;
use mode::{PreemptAction, PreemptMode, modelled};
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

/// A preemption setting slasim does not model, located.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {field}: {detail}", path = .path.display())]
pub struct PreemptError {
    /// The file (the `slurm.conf` or the QOS dump).
    pub path: PathBuf,
    /// Its line.
    pub line: u64,
    /// The field.
    pub field: String,
    /// What is wrong.
    pub detail: String,
}

/// Preemption as one run models it.
#[derive(Debug, Clone)]
pub struct Preemption {
    /// Per job: what preemption does to it (`Off`: never preempted).
    action: Vec<PreemptAction>,
    /// Per job: the plugin's preemption priority (lowest preempted first).
    rank: Vec<u64>,
    /// Per job: seconds after its start during which it is exempt.
    exempt: Vec<Time>,
    /// Per job: its class (partition or QOS index).
    class: Vec<u32>,
    /// `may[a * classes + b]`: a job of class `a` may preempt one of class `b`.
    may: Vec<bool>,
    classes: usize,
    /// By partition: each partition's `PreemptMode` action (if set) and
    /// `PriorityTier`, to aim a multi-partition job ([`crate::multipart`]);
    /// empty by QOS.
    parts: Vec<(Option<PreemptAction>, u32)>,
    /// The cluster's `PreemptMode` action.
    default_action: PreemptAction,
    /// Per job: its place in the queue order before priority (higher
    /// first): under `preempt/qos`, its QOS's depth in the preempt relation.
    pub(crate) level: Vec<u32>,
    /// Candidates of the job tested (reused).
    pub(crate) candidates: Vec<u32>,
    /// Per node: its free resources with every candidate gone (reused).
    pub(crate) ceiling: Vec<slasim_machine::Resources>,
    /// What `candidates` and `ceiling` were found for: (instant, the
    /// controller's count of changes, class, partition).
    pub(crate) cache_key: Option<(Time, u64, u32, u16)>,
    /// The partition's node mark of that search.
    pub(crate) part_stamp: u64,
    /// Per job, while its candidates are reordered: its `usable_nodes`
    /// (most first) and its place before (reused).
    pub(crate) usable: Vec<(std::cmp::Reverse<u32>, u32)>,
}

impl Preemption {
    /// Preemption for `jobs` (of `workload`) under `conf` and the QOS dump
    /// of `accounting`; `None` when it is off.
    pub fn new(
        conf: &SlurmConf,
        accounting: &Accounting,
        workload: &SlurmWorkload,
        jobs: &[Queued],
    ) -> Result<Option<Preemption>, PreemptError> {
        let p = &conf.site.preempt;
        let err = |path: PathBuf, line: u64, field: &str, detail: String| PreemptError {
            path,
            line,
            field: field.to_string(),
            detail,
        };
        let suspend = |mode: PreemptMode| {
            format!(
                "{} is not modelled (preemption by CANCEL or REQUEUE is)",
                if mode.action == PreemptAction::Suspend {
                    "SUSPEND"
                } else if mode.gang {
                    "GANG"
                } else {
                    "WITHIN"
                }
            )
        };
        if p.preempt_type == PreemptType::None || p.mode.action == PreemptAction::Off && modelled(p.mode) {
            return Ok(None);
        }
        if !modelled(p.mode) {
            return Err(err(conf.path.clone(), p.mode_line, "PreemptMode", suspend(p.mode)));
        }
        let n = jobs.len();
        let mut action = vec![p.mode.action; n];
        let mut rank = vec![0u64; n];
        let mut exempt = vec![p.exempt_time.unwrap_or(0); n];
        let mut class = vec![0u32; n];
        let classes;
        let mut may;
        match p.preempt_type {
            PreemptType::PartitionPrio => {
                let parts = &conf.partitions;
                for part in parts {
                    if let Some(mode) = part.preempt_mode.filter(|&m| !modelled(m)) {
                        return Err(err(
                            conf.path.clone(),
                            part.line,
                            &format!("PartitionName={} PreemptMode", part.name),
                            suspend(mode),
                        ));
                    }
                }
                classes = parts.len();
                may = vec![false; classes * classes];
                for (a, pa) in parts.iter().enumerate() {
                    for (b, pb) in parts.iter().enumerate() {
                        let overlap = pa.nodes.iter().any(|x| pb.nodes.binary_search(x).is_ok());
                        let off = pb.preempt_mode.is_some_and(|m| m.action == PreemptAction::Off);
                        may[a * classes + b] = overlap && pa.priority_tier > pb.priority_tier && !off;
                    }
                }
                for (j, job) in jobs.iter().enumerate() {
                    let part = &parts[job.partition as usize];
                    class[j] = u32::from(job.partition);
                    if let Some(m) = part.preempt_mode {
                        action[j] = m.action;
                    }
                    rank[j] = (u64::from(part.priority_tier) << 16) + u64::from(job.need.nodes.min(0xffff));
                }
            }
            PreemptType::Qos => {
                let Some(dump) = &accounting.qos else {
                    return Err(err(
                        conf.path.clone(),
                        p.type_line,
                        "PreemptType",
                        "preempt/qos needs the QOS dump (--qos FILE; `qos` in a config's [slurm]): the QOS preempt lists are there".into(),
                    ));
                };
                for q in &dump.qos {
                    if let Some(mode) = q.preempt_mode.filter(|&m| !modelled(m)) {
                        return Err(err(dump.path.clone(), q.line, "PreemptMode", suspend(mode)));
                    }
                }
                // The workload's QOS, each known to the dump (checked by `Limits::new`).
                classes = workload.qos.len();
                may = vec![false; classes * classes];
                let qos = |i: usize| dump.get(&workload.qos[i]);
                for a in 0..classes {
                    let Some(qa) = qos(a) else { continue };
                    for b in 0..classes {
                        may[a * classes + b] = a != b && qa.preempt.iter().any(|name| *name == workload.qos[b]);
                    }
                }
                for (j, w) in workload.jobs.iter().enumerate() {
                    class[j] = w.qos;
                    let Some(q) = qos(w.qos as usize) else { continue };
                    if let Some(m) = q.preempt_mode.filter(|m| m.action != PreemptAction::Off) {
                        action[j] = m.action;
                    }
                    rank[j] = (u64::from(q.priority.min(0xffff)) << 16) + u64::from(jobs[j].need.nodes.min(0xffff));
                    if let Some(t) = q.preempt_exempt_time {
                        exempt[j] = t;
                    }
                }
            }
            PreemptType::None => return Ok(None),
        }
        // `sort_job_queue2`: a job whose QOS may preempt another's goes
        // first. As a total order: each QOS's depth in the preempt relation
        // (0: it preempts none; else one more than the deepest it preempts;
        // a cycle stops at the number of QOS).
        let mut depth = vec![0u32; classes];
        if p.preempt_type == PreemptType::Qos {
            for _ in 0..classes {
                let mut changed = false;
                for a in 0..classes {
                    for b in 0..classes {
                        if may[a * classes + b] && depth[a] <= depth[b] && depth[b] < classes as u32 {
                            depth[a] = depth[b] + 1;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        Ok(Some(Preemption {
            level: class.iter().map(|&c| depth[c as usize]).collect(),
            action,
            rank,
            exempt,
            class,
            may,
            classes,
            default_action: p.mode.action,
            parts: match p.preempt_type {
                PreemptType::PartitionPrio => {
                    conf.partitions.iter().map(|q| (q.preempt_mode.map(|m| m.action), q.priority_tier)).collect()
                }
                _ => Vec::new(),
            },
            candidates: Vec::new(),
            ceiling: vec![slasim_machine::Resources::default(); conf.nodes.len()],
            cache_key: None,
            part_stamp: 0,
            usable: vec![(std::cmp::Reverse(0), 0); n],
        }))
    }

    /// Whether running job `r`, started at `start`, is a candidate for
    /// pending job `j` at `now` (its node overlap is the caller's).
    #[inline]
    pub(crate) fn may_preempt(&self, j: u32, r: u32, start: Time, now: Time) -> bool {
        let (j, r) = (j as usize, r as usize);
        self.action[r] != PreemptAction::Off
            && self.may[self.class[j] as usize * self.classes + self.class[r] as usize]
            && now >= start + self.exempt[r]
    }

    /// Job `j`'s class (partition or QOS index).
    #[inline]
    pub(crate) fn class_of(&self, j: u32) -> u32 {
        self.class[j as usize]
    }

    /// Whether job `j` may preempt anything at all (its class preempts some class).
    #[inline]
    pub(crate) fn preempts_any(&self, j: u32) -> bool {
        let a = self.class[j as usize] as usize;
        self.may[a * self.classes..(a + 1) * self.classes].iter().any(|&m| m)
    }

    /// Orders the candidates: lowest preemption priority first, then submission order.
    pub(crate) fn sort_candidates(&mut self) {
        let rank = &self.rank;
        // Keys are unique: an unstable sort is deterministic, and allocates nothing.
        self.candidates.sort_unstable_by_key(|&r| (rank[r as usize], r));
    }

    /// What preemption does to job `r`.
    #[inline]
    pub(crate) fn action(&self, r: u32) -> PreemptAction {
        self.action[r as usize]
    }

    /// Multi-partition jobs ([`crate::multipart`]): job `j` is tried in (or
    /// started in) `job`'s partition: by partition, its class, mode and
    /// preemption priority become that partition's (`job_ptr->part_ptr`).
    pub(crate) fn tried_in(&mut self, j: u32, job: &Queued) {
        let Some(&(mode, tier)) = self.parts.get(job.partition as usize) else {
            return;
        };
        let j = j as usize;
        self.class[j] = u32::from(job.partition);
        self.action[j] = mode.unwrap_or(self.default_action);
        self.rank[j] = (u64::from(tier) << 16) + u64::from(job.need.nodes.min(0xffff));
    }

    /// Whether job `j` tried in `job`'s partition may preempt any class.
    pub(crate) fn preempts_any_in(&self, j: u32, job: &Queued) -> bool {
        let a = if self.parts.is_empty() { self.class[j as usize] as usize } else { job.partition as usize };
        self.may[a * self.classes..(a + 1) * self.classes].iter().any(|&m| m)
    }
}
