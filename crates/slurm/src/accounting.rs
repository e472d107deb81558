//! What the twin models of a centre's accounting database (its `sacctmgr
//! show qos -P` and `sacctmgr show assoc -P` dumps): the QOS priority
//! factor, and the QOS and association limits that keep a job pending.
//!
//! Sources: Slurm 22.05, `src/common/assoc_mgr.c`
//! (`assoc_mgr_update_qos_ctld`'s `g_qos_max_priority`,
//! `_set_qos_norm_priority`), `src/plugins/priority/multifactor/
//! priority_multifactor.c` (`_get_priority_internal`), and
//! `src/slurmctld/acct_policy.c` (`_acct_policy_validate` and
//! `_qos_policy_validate` at submission, `acct_policy_job_runnable_pre_select`
//! with `_qos_job_runnable_pre_select`, `acct_policy_job_runnable_post_select`
//! with `_qos_job_runnable_post_select`, `_get_tres_state_reason`,
//! `acct_policy_job_begin`/`_fini`, `acct_policy_add_job_submit`,
//! `_adjust_limit_usage`, `_validate_tres_limits_for_qos`/`_for_assoc`,
//! `_validate_tres_usage_limits`), `src/common/slurm_protocol_defs.c`
//! (`job_reason_string`: the reasons' names), and how
//! `schedule()` (`job_scheduler.c`) and `_attempt_backfill` (`backfill.c`)
//! skip a job an accounting limit holds.
//!
//! Contract:
//! - QOS. Each job's QOS (the sacct dump's `QOS`; the reader gives a job
//!   without one `normal`) must be in the QOS dump, else the job is a located
//!   error (its origin, id and QOS name) before anything runs. Its QOS factor
//!   is the QOS `Priority` over the largest `Priority` of the dump (0 when
//!   that is 0), times `PriorityWeightQOS`, added to the job's fixed
//!   factors.
//! - A partition's QOS (`QOS=` on its `PartitionName` line) must be in
//!   the QOS dump too (a located error otherwise). Its limits apply to the
//!   partition's jobs beside their own QOS's (`acct_policy_set_qos_order`):
//!   each QOS test runs on the first QOS, then on the second for each limit
//!   the first leaves unset; the first is the partition's, or the job's
//!   when its QOS has `OverPartQOS`. The association tests see both (a
//!   limit either sets), `DenyOnLimit` of either is strict, and a job's
//!   usage counts in both. The QOS factor, `UsageFactor` and
//!   `UsageFactorSafe` are the job QOS's, as in Slurm.
//! - Associations. With an association dump, each job's account must have
//!   an association, and its user an association in that account, else a
//!   located error. An association of a partition is used only when the
//!   user has none without one.
//! - Limits (`Limits`), checked as `acct_policy.c` checks them, in its order.
//!   TRES limits are those of `cpu`, `mem`, `node` and `gres/gpu`, in that
//!   order (`acct_policy.c`'s TRES positions); a job's TRES are its request
//!   as the controller admitted it.
//!   - at submission (`_qos_policy_validate`, then `_acct_policy_validate`
//!     from the user's association up to the root: the account's
//!     association, then each parent the dump's `Par Name` gives): the QOS's
//!     `GrpSubmit` (`QOSGrpSubmitJobsLimit`), `MaxSubmitPA`
//!     (`MaxSubmitJobsPerAccount`) and `MaxSubmitPU`
//!     (`QOSMaxSubmitJobPerUserLimit`), each association's `GrpSubmit`
//!     (`AssocGrpSubmitJobsLimit`, when the QOS sets no `GrpSubmit`) and the
//!     user association's `MaxSubmit` (`AssocMaxSubmitJobLimit`, when the
//!     QOS sets neither `MaxSubmitPA` nor `MaxSubmitPU`) reject the job that
//!     would be one too many (pending and running jobs; an association's
//!     count holds those of every association below it). Under the QOS's
//!     `DenyOnLimit` (`strict_checking`) so do, in Slurm's order, the QOS's
//!     `MaxTRESPA`, `GrpTRES` with `MaxTRESPU`, `MaxTRESMins`,
//!     `GrpTRESRunMins`, `MaxWall`, `MaxTRES`, `MaxTRESPerNode` and
//!     `MinTRES`, each association's `GrpTRES` and, after its `GrpSubmit`,
//!     `GrpTRESRunMins` (for a TRES the QOS's same limit leaves unlimited),
//!     and the user association's `MaxTRES`, `MaxTRESPerNode`, `MaxTRESMins`
//!     and `MaxWall` (each where the QOS sets no such limit), against the job
//!     alone. A rejected job never runs (start −1) and counts in its reason.
//!   - before a job is tried (pre-select): the QOS's `GrpJobs`
//!     (`QOSGrpJobsLimit`), `MaxJobsPA` (`MaxJobsPerAccount`), `MaxJobsPU`
//!     (`QOSMaxJobsPerUserLimit`) and `MaxWall`
//!     (`QOSMaxWallDurationPerJobLimit`); then up the association chain,
//!     each association's `GrpJobs` (`AssocGrpJobsLimit`, only when the QOS
//!     sets no `GrpJobs`) and the user association's `MaxJobs`
//!     (`AssocMaxJobsLimit`, only when the QOS sets neither `MaxJobsPU` nor
//!     `MaxJobsPA`) and `MaxWall` (`AssocMaxWallDurationPerJobLimit`, when
//!     the QOS sets no `MaxWall`). Jobs are the running ones.
//!   - once nodes are found (post-select): the QOS's `GrpTRES`
//!     (`QOSGrpCpuLimit`, `QOSGrpMemLimit`, `QOSGrpNodeLimit`, `QOSGrpGRES`),
//!     `GrpTRESRunMins` (`QOSGrpCPURunMinutesLimit`, ...: the job's TRES
//!     times its time limit in minutes, added to the minutes of the running
//!     jobs' time limits not yet run, `grp_used_tres_run_secs`: each start
//!     adds its TRES times its time limit, each pass of the decay thread
//!     (`_apply_new_usage`) takes away what each running job ran since the
//!     previous pass, up to its time limit, and each end the rest),
//!     `MaxTRESMins` (`QOSMaxCpuMinutesPerJobLimit`, ...: each TRES times
//!     the time limit in minutes, seconds rounded up, times the
//!     `UsageFactor` under `UsageFactorSafe`), `MaxTRES`
//!     (`QOSMaxCpuPerJobLimit`, ...), `MaxTRESPerNode` (`QOSMaxCpuPerNode`,
//!     ...: each TRES over the job's node count), `MinTRES`
//!     (`QOSMinCpuNotSatisfied`, ...), `MaxTRESPA` (`MaxCpuPerAccount`, ...)
//!     and `MaxTRESPU` (`QOSMaxCpuPerUserLimit`, ...); then each
//!     association's `GrpTRES` and `GrpTRESRunMins` from the user's up
//!     (`AssocGrpCpuLimit`, `AssocGrpCPURunMinutesLimit`, ...; a TRES the
//!     QOS's same limit limits is not checked again), and the
//!     user association's `MaxTRESMins`, `MaxTRES` and `MaxTRESPerNode`
//!     (`AssocMaxCpuMinutesPerJobLimit`, `AssocMaxCpuPerJobLimit`,
//!     `AssocMaxCpuPerNode`, ...; where the QOS's same limit is unset).
//!     Running jobs' totals: per QOS, per (QOS, user), per (QOS, account)
//!     and per association (a job's nodes counted whole: Slurm counts a
//!     QOS's nodes once however many of its jobs share them).
//!   - A job a limit would hold for ever (a time limit above a `MaxWall`, a
//!     request above a `GrpTRES`, `MaxTRES`, `MaxTRESPerNode`,
//!     `MaxTRESMins`, `MaxTRESPA` or `MaxTRESPU` alone or below `MinTRES`,
//!     TRES-minutes above a `GrpTRESRunMins`, a jobs limit of 0) is never queued: Slurm keeps it pending for ever,
//!     skipped by every pass; here it does not count in
//!     `default_queue_depth` or `bf_max_job_test` (a departure: the run
//!     would otherwise never end). It counts as submitted, as in Slurm.
//!   - An array is submitted whole (`acct_policy_validate`'s `job_cnt`):
//!     when its first task is submitted, the submit limits are tested for
//!     all its tasks at once, and all are accepted and counted, or all
//!     rejected. Each task leaves the counts at its own end.
//!   - A job held by a limit is skipped: the main scheduler goes on to the
//!     next job without blocking the partition (`ESLURM_ACCOUNTING_POLICY`,
//!     `assoc_limit_stop` off), and the backfill scheduler neither starts
//!     it nor reserves for it. Usage counts change at each start and end
//!     (`acct_policy_job_begin`/`_fini`), so a later job of the same pass
//!     sees the jobs started before it.
//! - The run counts, per reason, the times a job was held (each test that
//!   held it) and the jobs rejected, and keeps each job's last reason.
//! - Without dumps nothing here runs: today's behaviour, byte for byte.

use std::path::{Path, PathBuf};

use crate::machine::JobError;
use crate::priority::{FairTree, TreeNode};
use crate::sacctmgr::{Assoc, AssocDump, QosDump, Share, read_assoc, read_qos};
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

/// Why a job waits, or was rejected (Slurm's `state_reason` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// `QOSGrpJobsLimit`.
    QosGrpJobs,
    /// `QOSMaxJobsPerUserLimit`.
    QosMaxJobsPerUser,
    /// `QOSMaxWallDurationPerJobLimit`.
    QosMaxWallDurationPerJob,
    /// `AssocGrpJobsLimit`.
    AssocGrpJobs,
    /// `AssocMaxJobsLimit`.
    AssocMaxJobs,
    /// `QOSGrpCpuLimit`, `QOSGrpMemLimit`, `QOSGrpNodeLimit`, `QOSGrpGRES`.
    QosGrpCpu,
    QosGrpMem,
    QosGrpNode,
    QosGrpGres,
    /// `QOSMaxCpuPerJobLimit`, `QOSMaxMemoryPerJob`, `QOSMaxNodePerJobLimit`, `QOSMaxGRESPerJob`.
    QosMaxCpuPerJob,
    QosMaxMemPerJob,
    QosMaxNodePerJob,
    QosMaxGresPerJob,
    /// `QOSMaxCpuPerUserLimit`, `QOSMaxMemoryPerUser`, `QOSMaxNodePerUserLimit`, `QOSMaxGRESPerUser`.
    QosMaxCpuPerUser,
    QosMaxMemPerUser,
    QosMaxNodePerUser,
    QosMaxGresPerUser,
    /// `AssocGrpCpuLimit`, `AssocGrpMemLimit`, `AssocGrpNodeLimit`, `AssocGrpGRES`.
    AssocGrpCpu,
    AssocGrpMem,
    AssocGrpNode,
    AssocGrpGres,
    /// `QOSMaxSubmitJobPerUserLimit` (rejected at submission).
    QosMaxSubmitJobPerUser,
    /// `PartitionTimeLimit`: above its partition's `MaxTime` (held for ever,
    /// or rejected at submission under `EnforcePartLimits`).
    PartitionTimeLimit,
    /// `QOSGrpSubmitJobsLimit` (rejected at submission).
    QosGrpSubmitJobs,
    /// `MaxSubmitJobsPerAccount` (the QOS's `MaxSubmitPA`; rejected at submission).
    QosMaxSubmitJobsPerAccount,
    /// `AssocGrpSubmitJobsLimit` (rejected at submission).
    AssocGrpSubmitJobs,
    /// `AssocMaxSubmitJobLimit` (rejected at submission).
    AssocMaxSubmitJob,
    /// `MaxJobsPerAccount` (the QOS's `MaxJobsPA`).
    QosMaxJobsPerAccount,
    /// `MaxCpuPerAccount`, `MaxMemoryPerAccount`, `MaxNodePerAccount`,
    /// `MaxGRESPerAccount` (the QOS's `MaxTRESPA`).
    QosMaxCpuPerAccount,
    QosMaxMemPerAccount,
    QosMaxNodePerAccount,
    QosMaxGresPerAccount,
    /// `AssocMaxWallDurationPerJobLimit`.
    AssocMaxWallDurationPerJob,
    /// `AssocMaxCpuPerJobLimit`, `AssocMaxMemPerJob`, `AssocMaxNodePerJobLimit`, `AssocMaxGRESPerJob`.
    AssocMaxCpuPerJob,
    AssocMaxMemPerJob,
    AssocMaxNodePerJob,
    AssocMaxGresPerJob,
    /// `QOSMaxCpuPerNode`, `QOSMaxMemoryPerNode`, `QOSMaxUnknownPerNode`
    /// (Slurm has no node-per-node name), `QOSMaxGRESPerNode`.
    QosMaxCpuPerNode,
    QosMaxMemPerNode,
    QosMaxNodePerNode,
    QosMaxGresPerNode,
    /// `AssocMaxCpuPerNode`, `AssocMaxMemPerNode`, `AssocMaxUnknownPerNode`, `AssocMaxGRESPerNode`.
    AssocMaxCpuPerNode,
    AssocMaxMemPerNode,
    AssocMaxNodePerNode,
    AssocMaxGresPerNode,
    /// `QOSMinCpuNotSatisfied`, `QOSMinMemory`, `QOSMinNode`, `QOSMinGRES`.
    QosMinCpu,
    QosMinMem,
    QosMinNode,
    QosMinGres,
    /// `QOSMaxCpuMinutesPerJobLimit`, `QOSMaxMemoryMinutesPerJob`,
    /// `QOSMaxNodeMinutesPerJob`, `QOSMaxGRESMinutesPerJob`.
    QosMaxCpuMinsPerJob,
    QosMaxMemMinsPerJob,
    QosMaxNodeMinsPerJob,
    QosMaxGresMinsPerJob,
    /// `AssocMaxCpuMinutesPerJobLimit`, `AssocMaxMemMinutesPerJob`,
    /// `AssocMaxNodeMinutesPerJob`, `AssocMaxGRESMinutesPerJob`.
    AssocMaxCpuMinsPerJob,
    AssocMaxMemMinsPerJob,
    AssocMaxNodeMinsPerJob,
    AssocMaxGresMinsPerJob,
    /// `QOSGrpCPURunMinutesLimit`, `QOSGrpMemoryRunMinutes`,
    /// `QOSGrpNodeRunMinutes`, `QOSGrpGRESRunMinutes`.
    QosGrpCpuRunMins,
    QosGrpMemRunMins,
    QosGrpNodeRunMins,
    QosGrpGresRunMins,
    /// `AssocGrpCPURunMinutesLimit`, `AssocGrpMemRunMinutes`,
    /// `AssocGrpNodeRunMinutes`, `AssocGrpGRESRunMinutes`.
    AssocGrpCpuRunMins,
    AssocGrpMemRunMins,
    AssocGrpNodeRunMins,
    AssocGrpGresRunMins,
}

impl Reason {
    /// Every reason, in counter order.
    pub const ALL: [Reason; 65] = [
        Reason::QosGrpJobs,
        Reason::QosMaxJobsPerUser,
        Reason::QosMaxWallDurationPerJob,
        Reason::AssocGrpJobs,
        Reason::AssocMaxJobs,
        Reason::QosGrpCpu,
        Reason::QosGrpMem,
        Reason::QosGrpNode,
        Reason::QosGrpGres,
        Reason::QosMaxCpuPerJob,
        Reason::QosMaxMemPerJob,
        Reason::QosMaxNodePerJob,
        Reason::QosMaxGresPerJob,
        Reason::QosMaxCpuPerUser,
        Reason::QosMaxMemPerUser,
        Reason::QosMaxNodePerUser,
        Reason::QosMaxGresPerUser,
        Reason::AssocGrpCpu,
        Reason::AssocGrpMem,
        Reason::AssocGrpNode,
        Reason::AssocGrpGres,
        Reason::QosMaxSubmitJobPerUser,
        Reason::PartitionTimeLimit,
        Reason::QosGrpSubmitJobs,
        Reason::QosMaxSubmitJobsPerAccount,
        Reason::AssocGrpSubmitJobs,
        Reason::AssocMaxSubmitJob,
        Reason::QosMaxJobsPerAccount,
        Reason::QosMaxCpuPerAccount,
        Reason::QosMaxMemPerAccount,
        Reason::QosMaxNodePerAccount,
        Reason::QosMaxGresPerAccount,
        Reason::AssocMaxWallDurationPerJob,
        Reason::AssocMaxCpuPerJob,
        Reason::AssocMaxMemPerJob,
        Reason::AssocMaxNodePerJob,
        Reason::AssocMaxGresPerJob,
        Reason::QosMaxCpuPerNode,
        Reason::QosMaxMemPerNode,
        Reason::QosMaxNodePerNode,
        Reason::QosMaxGresPerNode,
        Reason::AssocMaxCpuPerNode,
        Reason::AssocMaxMemPerNode,
        Reason::AssocMaxNodePerNode,
        Reason::AssocMaxGresPerNode,
        Reason::QosMinCpu,
        Reason::QosMinMem,
        Reason::QosMinNode,
        Reason::QosMinGres,
        Reason::QosMaxCpuMinsPerJob,
        Reason::QosMaxMemMinsPerJob,
        Reason::QosMaxNodeMinsPerJob,
        Reason::QosMaxGresMinsPerJob,
        Reason::AssocMaxCpuMinsPerJob,
        Reason::AssocMaxMemMinsPerJob,
        Reason::AssocMaxNodeMinsPerJob,
        Reason::AssocMaxGresMinsPerJob,
        Reason::QosGrpCpuRunMins,
        Reason::QosGrpMemRunMins,
        Reason::QosGrpNodeRunMins,
        Reason::QosGrpGresRunMins,
        Reason::AssocGrpCpuRunMins,
        Reason::AssocGrpMemRunMins,
        Reason::AssocGrpNodeRunMins,
        Reason::AssocGrpGresRunMins,
    ];

    /// Slurm's name of it (`squeue`'s REASON).
    pub fn name(self) -> &'static str {
        match self {
            Reason::QosGrpJobs => "QOSGrpJobsLimit",
            Reason::QosMaxJobsPerUser => "QOSMaxJobsPerUserLimit",
            Reason::QosMaxWallDurationPerJob => "QOSMaxWallDurationPerJobLimit",
            Reason::AssocGrpJobs => "AssocGrpJobsLimit",
            Reason::AssocMaxJobs => "AssocMaxJobsLimit",
            Reason::QosGrpCpu => "QOSGrpCpuLimit",
            Reason::QosGrpMem => "QOSGrpMemLimit",
            Reason::QosGrpNode => "QOSGrpNodeLimit",
            Reason::QosGrpGres => "QOSGrpGRES",
            Reason::QosMaxCpuPerJob => "QOSMaxCpuPerJobLimit",
            Reason::QosMaxMemPerJob => "QOSMaxMemoryPerJob",
            Reason::QosMaxNodePerJob => "QOSMaxNodePerJobLimit",
            Reason::QosMaxGresPerJob => "QOSMaxGRESPerJob",
            Reason::QosMaxCpuPerUser => "QOSMaxCpuPerUserLimit",
            Reason::QosMaxMemPerUser => "QOSMaxMemoryPerUser",
            Reason::QosMaxNodePerUser => "QOSMaxNodePerUserLimit",
            Reason::QosMaxGresPerUser => "QOSMaxGRESPerUser",
            Reason::AssocGrpCpu => "AssocGrpCpuLimit",
            Reason::AssocGrpMem => "AssocGrpMemLimit",
            Reason::AssocGrpNode => "AssocGrpNodeLimit",
            Reason::AssocGrpGres => "AssocGrpGRES",
            Reason::QosMaxSubmitJobPerUser => "QOSMaxSubmitJobPerUserLimit",
            Reason::PartitionTimeLimit => "PartitionTimeLimit",
            Reason::QosGrpSubmitJobs => "QOSGrpSubmitJobsLimit",
            Reason::QosMaxSubmitJobsPerAccount => "MaxSubmitJobsPerAccount",
            Reason::AssocGrpSubmitJobs => "AssocGrpSubmitJobsLimit",
            Reason::AssocMaxSubmitJob => "AssocMaxSubmitJobLimit",
            Reason::QosMaxJobsPerAccount => "MaxJobsPerAccount",
            Reason::QosMaxCpuPerAccount => "MaxCpuPerAccount",
            Reason::QosMaxMemPerAccount => "MaxMemoryPerAccount",
            Reason::QosMaxNodePerAccount => "MaxNodePerAccount",
            Reason::QosMaxGresPerAccount => "MaxGRESPerAccount",
            Reason::AssocMaxWallDurationPerJob => "AssocMaxWallDurationPerJobLimit",
            Reason::AssocMaxCpuPerJob => "AssocMaxCpuPerJobLimit",
            Reason::AssocMaxMemPerJob => "AssocMaxMemPerJob",
            Reason::AssocMaxNodePerJob => "AssocMaxNodePerJobLimit",
            Reason::AssocMaxGresPerJob => "AssocMaxGRESPerJob",
            Reason::QosMaxCpuPerNode => "QOSMaxCpuPerNode",
            Reason::QosMaxMemPerNode => "QOSMaxMemoryPerNode",
            Reason::QosMaxNodePerNode => "QOSMaxUnknownPerNode",
            Reason::QosMaxGresPerNode => "QOSMaxGRESPerNode",
            Reason::AssocMaxCpuPerNode => "AssocMaxCpuPerNode",
            Reason::AssocMaxMemPerNode => "AssocMaxMemPerNode",
            Reason::AssocMaxNodePerNode => "AssocMaxUnknownPerNode",
            Reason::AssocMaxGresPerNode => "AssocMaxGRESPerNode",
            Reason::QosMinCpu => "QOSMinCpuNotSatisfied",
            Reason::QosMinMem => "QOSMinMemory",
            Reason::QosMinNode => "QOSMinNode",
            Reason::QosMinGres => "QOSMinGRES",
            Reason::QosMaxCpuMinsPerJob => "QOSMaxCpuMinutesPerJobLimit",
            Reason::QosMaxMemMinsPerJob => "QOSMaxMemoryMinutesPerJob",
            Reason::QosMaxNodeMinsPerJob => "QOSMaxNodeMinutesPerJob",
            Reason::QosMaxGresMinsPerJob => "QOSMaxGRESMinutesPerJob",
            Reason::AssocMaxCpuMinsPerJob => "AssocMaxCpuMinutesPerJobLimit",
            Reason::AssocMaxMemMinsPerJob => "AssocMaxMemMinutesPerJob",
            Reason::AssocMaxNodeMinsPerJob => "AssocMaxNodeMinutesPerJob",
            Reason::AssocMaxGresMinsPerJob => "AssocMaxGRESMinutesPerJob",
            Reason::QosGrpCpuRunMins => "QOSGrpCPURunMinutesLimit",
            Reason::QosGrpMemRunMins => "QOSGrpMemoryRunMinutes",
            Reason::QosGrpNodeRunMins => "QOSGrpNodeRunMinutes",
            Reason::QosGrpGresRunMins => "QOSGrpGRESRunMinutes",
            Reason::AssocGrpCpuRunMins => "AssocGrpCPURunMinutesLimit",
            Reason::AssocGrpMemRunMins => "AssocGrpMemRunMinutes",
            Reason::AssocGrpNodeRunMins => "AssocGrpNodeRunMinutes",
            Reason::AssocGrpGresRunMins => "AssocGrpGRESRunMinutes",
        }
    }
}

/// Per [`Reason`] (in [`Reason::ALL`] order): the tests that held a job,
/// and the jobs rejected at submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hits(pub [u64; Reason::ALL.len()]);

impl Default for Hits {
    fn default() -> Hits {
        Hits([0; Reason::ALL.len()])
    }
}

impl std::ops::Index<usize> for Hits {
    type Output = u64;
    fn index(&self, i: usize) -> &u64 {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Hits {
    fn index_mut(&mut self, i: usize) -> &mut u64 {
        &mut self.0[i]
    }
}

/// The dumps a point reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Accounting {
    /// `sacctmgr show qos -P`.
    pub qos: Option<QosDump>,
    /// `sacctmgr show assoc -P`.
    pub assoc: Option<AssocDump>,
}

impl Accounting {
    /// Reads the dumps given, checking the association dump's QOS names
    /// against the QOS dump.
    pub fn read(qos: Option<&Path>, assoc: Option<&Path>) -> anyhow::Result<Accounting> {
        let qos = qos.map(read_qos).transpose()?;
        let assoc = assoc.map(read_assoc).transpose()?;
        if let (Some(a), Some(q)) = (&assoc, &qos) {
            crate::sacctmgr::check_qos_names(a, q)?;
        }
        Ok(Accounting { qos, assoc })
    }

    /// Whether any dump is given.
    pub fn is_empty(&self) -> bool {
        self.qos.is_none() && self.assoc.is_none()
    }

    /// The centre's fair-share tree, with an association dump: every
    /// account association under its `ParentName` (the root's child
    /// without one), every user association under its account, each with
    /// its `Share` (1 when empty, as `sacctmgr` adds them); and, per row of
    /// the dump, its user number in the tree (`u32::MAX`: not a user).
    pub fn fair_tree(&self) -> Option<(FairTree, Vec<u32>)> {
        let rows = &self.assoc.as_ref()?.assocs;
        let is_account = |a: &Assoc| a.user.is_none() && a.partition.is_none();
        let account_row = |name: &str| rows.iter().position(|a| is_account(a) && a.account == name);
        // The root association is the tree's root, not a node.
        let in_tree = |a: &Assoc| !(is_account(a) && a.account == "root") && (a.user.is_some() || is_account(a));
        let mut node_of = vec![u32::MAX; rows.len()];
        let mut n = 0;
        for (i, a) in rows.iter().enumerate() {
            if in_tree(a) {
                node_of[i] = n;
                n += 1;
            }
        }
        let mut nodes = Vec::with_capacity(n as usize);
        let mut user_of_row = vec![u32::MAX; rows.len()];
        let mut users = 0;
        for (i, a) in rows.iter().enumerate().filter(|(_, a)| in_tree(a)) {
            let parent = if a.user.is_some() { Some(a.account.as_str()) } else { a.parent.as_deref() };
            let parent = parent.and_then(account_row).map(|p| node_of[p]).filter(|&p| p != u32::MAX && p != node_of[i]);
            let shares = match a.share {
                Some(Share::Parent) => None,
                Some(Share::Raw(s)) => Some(s),
                None => Some(1),
            };
            if a.user.is_some() {
                user_of_row[i] = users;
                users += 1;
            }
            nodes.push(TreeNode { parent, shares, user: a.user.is_some() });
        }
        Some((FairTree::of(nodes), user_of_row))
    }
}

/// A limit: `u32::MAX` or `u64::MAX` for none.
const NONE32: u32 = u32::MAX;

/// One QOS's limits.
#[derive(Debug, Clone, Copy)]
struct QosLimits {
    grp_jobs: u32,
    max_jobs_pu: u32,
    max_submit_pu: u32,
    max_wall: Time,
    grp_tres: Tres4,
    max_tres_pj: Tres4,
    max_tres_pu: Tres4,
    deny_on_limit: bool,
    /// `GrpSubmit`, `MaxSubmitPA`, `MaxJobsPA`.
    grp_submit: u32,
    max_submit_pa: u32,
    max_jobs_pa: u32,
    /// `MaxTRESPA`, `MaxTRESPerNode`, `MinTRES`, `MaxTRESMins` (per job).
    max_tres_pa: Tres4,
    max_tres_pn: Tres4,
    min_tres: Tres4,
    max_tres_mins: Tres4,
    /// `GrpTRESRunMins`: the TRES-minutes of its running jobs' time limits
    /// not yet run.
    grp_tres_run_mins: Tres4,
    /// The `UsageFactorSafe` flag's factor on the time limit (1 without it).
    safe_factor: f64,
}

/// What no QOS limits: no limit at all.
const UNLIMITED: QosLimits = QosLimits {
    grp_jobs: NONE32,
    max_jobs_pu: NONE32,
    max_submit_pu: NONE32,
    max_wall: Time::MAX,
    grp_tres: NO_TRES,
    max_tres_pj: NO_TRES,
    max_tres_pu: NO_TRES,
    deny_on_limit: false,
    grp_submit: NONE32,
    max_submit_pa: NONE32,
    max_jobs_pa: NONE32,
    max_tres_pa: NO_TRES,
    max_tres_pn: NO_TRES,
    min_tres: NO_TRES,
    max_tres_mins: NO_TRES,
    grp_tres_run_mins: NO_TRES,
    safe_factor: 1.0,
};

/// The QOS a job's limits come from (`acct_policy_set_qos_order`): its
/// partition's QOS first, then its own, or its own first when it has the
/// `OverPartQOS` flag; one QOS when the partition has none or the same.
#[derive(Debug, Clone)]
struct QosPair {
    first: u32,
    /// `NONE32`: none.
    second: u32,
    /// The second's limits that the first leaves unset: the test of each
    /// limit fills a blank record from the first QOS, then from the second.
    second_limits: QosLimits,
    /// That record once both are read: what the association tests see.
    merged: QosLimits,
}

impl QosPair {
    fn of(qos: &[QosLimits], first: u32, second: u32) -> QosPair {
        let (f, s) = (&qos[first as usize], qos.get(second as usize).unwrap_or(&UNLIMITED));
        QosPair { first, second, second_limits: join(f, s, false), merged: join(f, s, true) }
    }
}

/// Per limit: the first's when it sets one (none instead when not
/// `with_first`), else the second's.
fn join(first: &QosLimits, second: &QosLimits, with_first: bool) -> QosLimits {
    fn pick<T: PartialEq + Copy>(f: T, s: T, none: T, with_first: bool) -> T {
        if f == none {
            s
        } else if with_first {
            f
        } else {
            none
        }
    }
    let n = |f: u32, s: u32| pick(f, s, NONE32, with_first);
    let t = |f: &Tres4, s: &Tres4| -> Tres4 { std::array::from_fn(|i| pick(f[i], s[i], u64::MAX, with_first)) };
    QosLimits {
        grp_jobs: n(first.grp_jobs, second.grp_jobs),
        max_jobs_pu: n(first.max_jobs_pu, second.max_jobs_pu),
        max_submit_pu: n(first.max_submit_pu, second.max_submit_pu),
        max_wall: pick(first.max_wall, second.max_wall, Time::MAX, with_first),
        grp_tres: t(&first.grp_tres, &second.grp_tres),
        max_tres_pj: t(&first.max_tres_pj, &second.max_tres_pj),
        max_tres_pu: t(&first.max_tres_pu, &second.max_tres_pu),
        // `strict_checking`: either QOS's `DenyOnLimit`.
        deny_on_limit: first.deny_on_limit || second.deny_on_limit,
        grp_submit: n(first.grp_submit, second.grp_submit),
        max_submit_pa: n(first.max_submit_pa, second.max_submit_pa),
        max_jobs_pa: n(first.max_jobs_pa, second.max_jobs_pa),
        max_tres_pa: t(&first.max_tres_pa, &second.max_tres_pa),
        max_tres_pn: t(&first.max_tres_pn, &second.max_tres_pn),
        min_tres: t(&first.min_tres, &second.min_tres),
        max_tres_mins: t(&first.max_tres_mins, &second.max_tres_mins),
        grp_tres_run_mins: t(&first.grp_tres_run_mins, &second.grp_tres_run_mins),
        // Not a limit: a job's TRES-minutes are scaled by its own QOS's.
        safe_factor: 1.0,
    }
}

/// Amounts of the TRES the limits know, in `acct_policy.c`'s order of TRES
/// positions: CPUs, memory (MiB), nodes, `gres/gpu`. `u64::MAX`: no limit.
pub type Tres4 = [u64; 4];

/// No limit on any of the four.
const NO_TRES: Tres4 = [u64::MAX; 4];

/// Per TRES, the reason of each limit.
const GRP: [Reason; 4] = [Reason::QosGrpCpu, Reason::QosGrpMem, Reason::QosGrpNode, Reason::QosGrpGres];
const PER_JOB: [Reason; 4] =
    [Reason::QosMaxCpuPerJob, Reason::QosMaxMemPerJob, Reason::QosMaxNodePerJob, Reason::QosMaxGresPerJob];
const PER_USER: [Reason; 4] =
    [Reason::QosMaxCpuPerUser, Reason::QosMaxMemPerUser, Reason::QosMaxNodePerUser, Reason::QosMaxGresPerUser];
const ASSOC_GRP: [Reason; 4] = [Reason::AssocGrpCpu, Reason::AssocGrpMem, Reason::AssocGrpNode, Reason::AssocGrpGres];
const PER_ACCOUNT: [Reason; 4] = [
    Reason::QosMaxCpuPerAccount,
    Reason::QosMaxMemPerAccount,
    Reason::QosMaxNodePerAccount,
    Reason::QosMaxGresPerAccount,
];
const ASSOC_PER_JOB: [Reason; 4] =
    [Reason::AssocMaxCpuPerJob, Reason::AssocMaxMemPerJob, Reason::AssocMaxNodePerJob, Reason::AssocMaxGresPerJob];
const PER_NODE: [Reason; 4] =
    [Reason::QosMaxCpuPerNode, Reason::QosMaxMemPerNode, Reason::QosMaxNodePerNode, Reason::QosMaxGresPerNode];
const ASSOC_PER_NODE: [Reason; 4] =
    [Reason::AssocMaxCpuPerNode, Reason::AssocMaxMemPerNode, Reason::AssocMaxNodePerNode, Reason::AssocMaxGresPerNode];
const MIN: [Reason; 4] = [Reason::QosMinCpu, Reason::QosMinMem, Reason::QosMinNode, Reason::QosMinGres];
const MINS_PER_JOB: [Reason; 4] = [
    Reason::QosMaxCpuMinsPerJob,
    Reason::QosMaxMemMinsPerJob,
    Reason::QosMaxNodeMinsPerJob,
    Reason::QosMaxGresMinsPerJob,
];
const GRP_RUN_MINS: [Reason; 4] =
    [Reason::QosGrpCpuRunMins, Reason::QosGrpMemRunMins, Reason::QosGrpNodeRunMins, Reason::QosGrpGresRunMins];
const ASSOC_GRP_RUN_MINS: [Reason; 4] =
    [Reason::AssocGrpCpuRunMins, Reason::AssocGrpMemRunMins, Reason::AssocGrpNodeRunMins, Reason::AssocGrpGresRunMins];
const ASSOC_MINS_PER_JOB: [Reason; 4] = [
    Reason::AssocMaxCpuMinsPerJob,
    Reason::AssocMaxMemMinsPerJob,
    Reason::AssocMaxNodeMinsPerJob,
    Reason::AssocMaxGresMinsPerJob,
];

/// The first TRES whose `used + asked` is above `limit`.
fn over(used: &Tres4, asked: &Tres4, limit: &Tres4) -> Option<usize> {
    (0..4).find(|&i| limit[i] != u64::MAX && used[i].saturating_add(asked[i]) > limit[i])
}

/// The first TRES of `asked` above `limit` alone.
fn alone(asked: &Tres4, limit: &Tres4) -> Option<usize> {
    over(&[0; 4], asked, limit)
}

/// The first TRES of `asked` below `min` (`_validate_tres_limits_for_qos`
/// with `max_limit` off: a TRES the job does not ask for is below any
/// minimum above 0).
fn below(asked: &Tres4, min: &Tres4) -> Option<usize> {
    (0..4).find(|&i| min[i] != u64::MAX && asked[i] < min[i])
}

/// The first TRES whose TRES-minutes `asked` (a job's request times its time
/// limit) are above `limit` alone, or, asked at all, above what the running
/// jobs' run-seconds `used` leave of it (`_validate_tres_usage_limits` with
/// the run-minutes as usage, minutes rounded down).
fn over_run_mins(used: &Tres4, asked: &Tres4, limit: &Tres4) -> Option<usize> {
    (0..4).find(|&i| {
        limit[i] != u64::MAX && (asked[i] > limit[i] || (asked[i] > 0 && asked[i] + used[i] / 60 > limit[i]))
    })
}

/// Each TRES's lower limit of `a` and `b`.
fn lowest(a: &Tres4, b: &Tres4) -> Tres4 {
    std::array::from_fn(|i| a[i].min(b[i]))
}

/// A request per node: each amount over the node count (whole division, as
/// Slurm's `divisor`), unchanged without nodes.
fn per_node(asked: &Tres4) -> Tres4 {
    let nodes = asked[2];
    if nodes == 0 { *asked } else { asked.map(|a| a / nodes) }
}

/// `limits` but for the TRES `qos` limits (`_validate_tres_limits_for_assoc`:
/// a TRES limit the QOS sets overrides the association's).
fn unless_qos(mut limits: Tres4, qos: &Tres4) -> Tres4 {
    for (l, q) in limits.iter_mut().zip(qos) {
        if *q != u64::MAX {
            *l = u64::MAX;
        }
    }
    limits
}

/// The accounting facts of a workload, resolved once, and the usage the
/// limits are checked against while it runs.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Per QOS of the workload: its normalised priority (the QOS factor).
    pub qos_factor: Vec<f64>,
    /// Per QOS of the workload: its `UsageFactor` (1 without a QOS dump).
    pub usage_factor: Vec<f64>,
    qos: Vec<QosLimits>,
    users: usize,
    /// Per job: its QOS (workload index), user, and association chain start.
    job_qos: Vec<u32>,
    /// Per job: the QOS its limits come from (an index into `pairs`).
    job_pair: Vec<u32>,
    pairs: Vec<QosPair>,
    job_user: Vec<u32>,
    job_tres: Vec<Tres4>,
    job_limit: Vec<Time>,
    /// Per job: its account (the workload's index).
    job_account: Vec<u32>,
    accounts: usize,
    /// Per job: the association rows of its chain (`chain[chain_at[j]..chain_at[j + 1]]`),
    /// the user's first.
    chain: Vec<u32>,
    chain_at: Vec<u32>,
    /// Per association row: `GrpJobs`, `MaxJobs`, `GrpTRES`.
    assoc_grp_jobs: Vec<u32>,
    assoc_max_jobs: Vec<u32>,
    assoc_grp_tres: Vec<Tres4>,
    /// Per association row: `GrpSubmit`, `MaxSubmit`, `MaxWall`, `MaxTRES`,
    /// `MaxTRESPerNode`, `MaxTRESMins`.
    assoc_grp_submit: Vec<u32>,
    assoc_max_submit: Vec<u32>,
    assoc_max_wall: Vec<Time>,
    assoc_max_tres: Vec<Tres4>,
    assoc_max_tres_pn: Vec<Tres4>,
    assoc_max_tres_mins: Vec<Tres4>,
    /// Per association row: `GrpTRESRunMins`.
    assoc_grp_tres_run_mins: Vec<Tres4>,
    /// Some QOS or association sets `GrpTRESRunMins`: the run-seconds below
    /// are kept.
    run_mins_limited: bool,
    // Usage.
    qos_submitted: Vec<u32>,
    /// Per (QOS, account): submitted jobs, running jobs and their TRES.
    account_submitted: Vec<u32>,
    account_jobs: Vec<u32>,
    account_tres: Vec<Tres4>,
    assoc_submitted: Vec<u32>,
    qos_jobs: Vec<u32>,
    qos_tres: Vec<Tres4>,
    user_jobs: Vec<u32>,
    user_tres: Vec<Tres4>,
    user_submitted: Vec<u32>,
    assoc_jobs: Vec<u32>,
    assoc_tres: Vec<Tres4>,
    /// Per reason: the times a job was held or rejected for it.
    pub hits: Hits,
    /// Per job: the reason it last waited for, or was rejected for.
    pub reasons: Vec<Option<Reason>>,
    /// Per QOS and per association row: the TRES-seconds of its running
    /// jobs' time limits not yet run (`grp_used_tres_run_secs`); per job,
    /// its share of them.
    qos_run_secs: Vec<Tres4>,
    assoc_run_secs: Vec<Tres4>,
    job_run_secs: Vec<Tres4>,
    /// Per job: its array (an index into `arrays`), `NONE32` for a job not
    /// in one.
    job_array: Vec<u32>,
    /// The workload's job arrays, submitted whole.
    arrays: Vec<ArraySubmit>,
}

/// A job array at submission: how many tasks it has, and whether its first
/// task submitted was accepted.
#[derive(Debug, Clone, Copy)]
struct ArraySubmit {
    tasks: u32,
    verdict: Verdict,
}

/// What submission made of a job array.
#[derive(Debug, Clone, Copy)]
enum Verdict {
    /// None of its tasks has been submitted yet.
    Unseen,
    /// Accepted, every task counted.
    Accepted,
    /// Rejected, every task, for this reason.
    Rejected(Reason),
}

fn limit32(v: Option<u32>) -> u32 {
    v.unwrap_or(NONE32)
}

/// The four TRES limits of a dumped TRES list (others are not modelled).
fn tres_limits(tres: &[crate::sacctmgr::Tres]) -> Tres4 {
    let of = |name: &str| tres.iter().find(|t| t.name == name).and_then(|t| t.amount).unwrap_or(u64::MAX);
    [of("cpu"), of("mem"), of("node"), of("gres/gpu")]
}

impl Limits {
    /// Resolves `workload`'s jobs against `accounting`: each job's QOS and
    /// association, or a located error. `None` without dumps.
    /// `tres` and `time_limits` are each job's, as the controller admitted
    /// it, and `partition_qos` the QOS of each job's partition, if it has one.
    pub fn new(
        accounting: &Accounting,
        workload: &SlurmWorkload,
        tres: &[Tres4],
        time_limits: &[Time],
        partition_qos: &[Option<&str>],
    ) -> Result<Option<Limits>, JobError> {
        if accounting.is_empty() {
            return Ok(None);
        }
        // The workload's QOS, then the partitions' that no job names.
        let mut names: Vec<&str> = workload.qos.iter().map(String::as_str).collect();
        for &q in partition_qos.iter().flatten() {
            if !names.contains(&q) {
                names.push(q);
            }
        }
        let nq = names.len();
        let mut qos = vec![UNLIMITED; nq];
        let mut over_part_qos = vec![false; nq];
        let mut qos_factor = vec![0.0; nq];
        let mut usage_factor = vec![1.0; nq];
        let mut qos_known = vec![accounting.qos.is_none(); nq];
        if let Some(dump) = &accounting.qos {
            // `g_qos_max_priority`: the largest priority of any QOS.
            let max = dump.qos.iter().map(|q| q.priority).max().unwrap_or(0);
            for (i, name) in names.iter().enumerate() {
                let Some(q) = dump.get(name) else { continue };
                qos_known[i] = true;
                over_part_qos[i] = q.flags.iter().any(|f| f.eq_ignore_ascii_case("OverPartQOS"));
                // `_set_qos_norm_priority`: nothing when the largest is 0.
                qos_factor[i] = if max > 0 { f64::from(q.priority) / f64::from(max) } else { 0.0 };
                usage_factor[i] = q.usage_factor;
                qos[i] = QosLimits {
                    grp_jobs: limit32(q.grp_jobs),
                    max_jobs_pu: limit32(q.max_jobs_pu),
                    max_submit_pu: limit32(q.max_submit_pu),
                    max_wall: q.max_wall.unwrap_or(Time::MAX),
                    grp_tres: tres_limits(&q.grp_tres),
                    max_tres_pj: tres_limits(&q.max_tres),
                    max_tres_pu: tres_limits(&q.max_tres_pu),
                    deny_on_limit: q.flags.iter().any(|f| f.eq_ignore_ascii_case("DenyOnLimit")),
                    grp_submit: limit32(q.grp_submit),
                    max_submit_pa: limit32(q.max_submit_pa),
                    max_jobs_pa: limit32(q.max_jobs_pa),
                    max_tres_pa: tres_limits(&q.max_tres_pa),
                    max_tres_pn: tres_limits(&q.max_tres_per_node),
                    min_tres: tres_limits(&q.min_tres),
                    max_tres_mins: tres_limits(&q.max_tres_mins),
                    grp_tres_run_mins: tres_limits(&q.grp_tres_run_mins),
                    // `UsageFactorSafe`: the time limit the TRES-minutes
                    // limits see is scaled by the `UsageFactor`.
                    safe_factor: if q.flags.iter().any(|f| f.eq_ignore_ascii_case("UsageFactorSafe")) {
                        q.usage_factor
                    } else {
                        1.0
                    },
                };
            }
        }
        let rows: &[Assoc] = accounting.assoc.as_ref().map_or(&[], |a| &a.assocs);
        let fail = |job: &slasim_data::trace::sacct::jobs::SlurmJob, field: &str, detail: String| JobError {
            origin: job.origin.to_string(),
            id: job.id,
            field: field.to_string(),
            detail,
        };
        let name = |names: &[String], i: u32| names.get(i as usize).cloned().unwrap_or_default();
        // The account association of each account, and a user association per (user, account).
        let account_row =
            |account: &str| rows.iter().position(|a| a.user.is_none() && a.partition.is_none() && a.account == account);
        let mut chain = Vec::new();
        let mut chain_at = vec![0u32];
        let mut cache: Vec<((u32, u32), usize, usize)> = Vec::new();
        let mut pairs: Vec<QosPair> = Vec::new();
        let mut job_pair = Vec::with_capacity(workload.jobs.len());
        let dump_path = || accounting.qos.as_ref().map_or_else(PathBuf::new, |d| d.path.clone());
        for (i, job) in workload.jobs.iter().enumerate() {
            if !qos_known[job.qos as usize] {
                let q = name(&workload.qos, job.qos);
                return Err(fail(job, "QOS", format!("QOS {q:?} is not in the QOS dump {}", dump_path().display())));
            }
            let own = job.qos;
            let part = match partition_qos.get(i).copied().flatten() {
                Some(q) => {
                    let p = names.iter().position(|n| *n == q).unwrap_or_default();
                    if !qos_known[p] {
                        return Err(fail(
                            job,
                            "Partition",
                            format!("its partition's QOS {q:?} is not in the QOS dump {}", dump_path().display()),
                        ));
                    }
                    p as u32
                }
                None => own,
            };
            let (first, second) = match part {
                p if p == own => (own, NONE32),
                p if over_part_qos[own as usize] => (own, p),
                p => (p, own),
            };
            let pair = match pairs.iter().position(|p| (p.first, p.second) == (first, second)) {
                Some(p) => p,
                None => {
                    pairs.push(QosPair::of(&qos, first, second));
                    pairs.len() - 1
                }
            };
            job_pair.push(pair as u32);
            if let Some(dump) = &accounting.assoc {
                let key = (job.user, job.account);
                if let Some(&(_, from, to)) = cache.iter().find(|c| c.0 == key) {
                    chain.extend_from_within(from..to);
                } else {
                    let (user, account) = (name(&workload.users, job.user), name(&workload.accounts, job.account));
                    let Some(mut row) = account_row(&account) else {
                        return Err(fail(
                            job,
                            "Account",
                            format!("account {account:?} has no association in {}", dump.path.display()),
                        ));
                    };
                    let mine = |a: &&Assoc| a.account == account && a.user.as_deref() == Some(user.as_str());
                    let user_row = rows
                        .iter()
                        .position(|a| mine(&a) && a.partition.is_none())
                        .or_else(|| rows.iter().position(|a| mine(&a)));
                    let Some(user_row) = user_row else {
                        return Err(fail(
                            job,
                            "User",
                            format!(
                                "user {user:?} has no association in account {account:?} in {}",
                                dump.path.display()
                            ),
                        ));
                    };
                    let from = chain.len();
                    chain.push(user_row as u32);
                    // Up to the root; a parent loop is cut at the number of rows.
                    for _ in 0..rows.len() {
                        chain.push(row as u32);
                        match rows[row].parent.as_deref().and_then(account_row) {
                            Some(p) if p != row => row = p,
                            _ => break,
                        }
                    }
                    cache.push((key, from, chain.len()));
                }
            }
            chain_at.push(chain.len() as u32);
        }
        let users = workload.users.len().max(1);
        let accounts = workload.accounts.len().max(1);
        // The arrays, in the order of their first task.
        let mut arrays: Vec<ArraySubmit> = Vec::new();
        let mut array_of_id: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
        let job_array = workload
            .jobs
            .iter()
            .map(|job| {
                let Some(task) = job.relations.array else { return NONE32 };
                let a = *array_of_id.entry(task.job).or_insert_with(|| {
                    arrays.push(ArraySubmit { tasks: 0, verdict: Verdict::Unseen });
                    (arrays.len() - 1) as u32
                });
                arrays[a as usize].tasks += 1;
                a
            })
            .collect();
        let run_mins_limited = qos.iter().any(|q| q.grp_tres_run_mins != NO_TRES)
            || rows.iter().any(|a| tres_limits(&a.grp_tres_run_mins) != NO_TRES);
        Ok(Some(Limits {
            qos_factor,
            usage_factor,
            qos,
            users,
            job_qos: workload.jobs.iter().map(|j| j.qos).collect(),
            job_pair,
            pairs,
            job_user: workload.jobs.iter().map(|j| j.user).collect(),
            job_tres: tres.to_vec(),
            job_limit: time_limits.to_vec(),
            job_account: workload.jobs.iter().map(|j| j.account).collect(),
            accounts,
            chain,
            chain_at,
            assoc_grp_jobs: rows.iter().map(|a| limit32(a.grp_jobs)).collect(),
            assoc_max_jobs: rows.iter().map(|a| limit32(a.max_jobs)).collect(),
            assoc_grp_tres: rows.iter().map(|a| tres_limits(&a.grp_tres)).collect(),
            assoc_grp_submit: rows.iter().map(|a| limit32(a.grp_submit)).collect(),
            assoc_max_submit: rows.iter().map(|a| limit32(a.max_submit)).collect(),
            assoc_max_wall: rows.iter().map(|a| a.max_wall.unwrap_or(Time::MAX)).collect(),
            assoc_max_tres: rows.iter().map(|a| tres_limits(&a.max_tres)).collect(),
            assoc_max_tres_pn: rows.iter().map(|a| tres_limits(&a.max_tres_per_node)).collect(),
            assoc_max_tres_mins: rows.iter().map(|a| tres_limits(&a.max_tres_mins)).collect(),
            assoc_grp_tres_run_mins: rows.iter().map(|a| tres_limits(&a.grp_tres_run_mins)).collect(),
            run_mins_limited,
            qos_submitted: vec![0; nq],
            account_submitted: vec![0; nq * accounts],
            account_jobs: vec![0; nq * accounts],
            account_tres: vec![[0; 4]; nq * accounts],
            assoc_submitted: vec![0; rows.len()],
            qos_jobs: vec![0; nq],
            qos_tres: vec![[0; 4]; nq],
            user_jobs: vec![0; nq * users],
            user_tres: vec![[0; 4]; nq * users],
            user_submitted: vec![0; nq * users],
            assoc_jobs: vec![0; rows.len()],
            assoc_tres: vec![[0; 4]; rows.len()],
            hits: Hits::default(),
            reasons: vec![None; workload.jobs.len()],
            qos_run_secs: vec![[0; 4]; nq],
            assoc_run_secs: vec![[0; 4]; rows.len()],
            job_run_secs: vec![[0; 4]; workload.jobs.len()],
            job_array,
            arrays,
        }))
    }

    /// The association dump's row of job `j`'s user association (`None`
    /// without an association dump).
    pub fn user_row(&self, j: u32) -> Option<u32> {
        let (from, to) = (self.chain_at[j as usize], self.chain_at[j as usize + 1]);
        (from < to).then(|| self.chain[from as usize])
    }

    fn hit(&mut self, j: u32, reason: Reason) -> Reason {
        self.hits[reason as usize] += 1;
        self.reasons[j as usize] = Some(reason);
        reason
    }

    /// The (QOS `qi`, user) slot of job `j`.
    fn user_slot(&self, qi: usize, j: u32) -> usize {
        qi * self.users + self.job_user[j as usize] as usize
    }

    /// The (QOS `qi`, account) slot of job `j` (`acct_policy_get_acct_used_limits`).
    fn account_slot(&self, qi: usize, j: u32) -> usize {
        qi * self.accounts + self.job_account[j as usize] as usize
    }

    /// Job `j`'s QOS, and its partition's if that is another.
    fn pair(&self, j: u32) -> &QosPair {
        &self.pairs[self.job_pair[j as usize] as usize]
    }

    /// Job `j`'s QOS in the order their limits are checked
    /// (`acct_policy_set_qos_order`), each with the limits it checks: the
    /// first QOS's own, then the second's that the first leaves unset.
    fn checked(&self, j: u32) -> impl Iterator<Item = (usize, &QosLimits)> {
        let p = self.pair(j);
        std::iter::once((p.first as usize, &self.qos[p.first as usize]))
            .chain((p.second != NONE32).then_some((p.second as usize, &p.second_limits)))
    }

    /// The QOS whose usage job `j` counts in: its own and its partition's.
    fn counted(&self, j: u32) -> impl Iterator<Item = usize> + use<> {
        let p = self.pair(j);
        std::iter::once(p.first as usize).chain((p.second != NONE32).then_some(p.second as usize))
    }

    /// The association rows of job `j`'s chain, the user's first.
    fn chain_of(&self, j: u32) -> std::ops::Range<usize> {
        self.chain_at[j as usize] as usize..self.chain_at[j as usize + 1] as usize
    }

    /// Job `j`'s TRES-minutes: each TRES times its time limit in minutes
    /// (seconds rounded up, as Slurm keeps time limits in minutes), scaled
    /// by its own QOS's `UsageFactor` under that QOS's `UsageFactorSafe`
    /// (`acct_policy_job_runnable_post_select`'s `job_tres_time_limit`).
    fn tres_mins(&self, j: u32) -> Tres4 {
        let safe_factor = self.qos[self.job_qos[j as usize] as usize].safe_factor;
        let limit = self.job_limit[j as usize].max(0) as u64;
        let mut minutes = limit.div_ceil(60);
        if safe_factor != 1.0 && safe_factor >= 0.0 {
            minutes = (minutes as f64 * safe_factor) as u64;
        }
        self.job_tres[j as usize].map(|t| t.saturating_mul(minutes))
    }

    /// At submission: `Some(reason)` if job `j` is rejected, or if a limit
    /// will hold it for ever (see `Limits::for_ever`); else it counts as
    /// submitted. The first task of an array submitted stands for the
    /// whole array (`acct_policy_validate`'s `job_cnt`, the array's task
    /// count): its tasks are accepted, and counted, or rejected together.
    pub fn submit(&mut self, j: u32) -> Option<Reason> {
        let array = self.job_array[j as usize] as usize;
        let rejected = match self.arrays.get(array).map(|a| a.verdict) {
            Some(Verdict::Accepted) => None,
            Some(Verdict::Rejected(reason)) => Some(reason),
            Some(Verdict::Unseen) | None => {
                let count = self.arrays.get(array).map_or(1, |a| a.tasks);
                let rejected = self.validate(j, count);
                if rejected.is_none() {
                    self.count_submitted(j, count);
                }
                if let Some(a) = self.arrays.get_mut(array) {
                    a.verdict = rejected.map_or(Verdict::Accepted, Verdict::Rejected);
                }
                rejected
            }
        };
        if let Some(reason) = rejected {
            return Some(self.hit(j, reason));
        }
        // Accepted: pending for ever or not.
        let never = self.for_ever(j);
        never.map(|reason| self.hit(j, reason))
    }

    /// `_qos_policy_validate` for each of job `j`'s QOS, then
    /// `_acct_policy_validate` up the association chain, in their order,
    /// for `count` jobs like `j` (an array's tasks): the reason they are
    /// rejected, if they are.
    fn validate(&self, j: u32, count: u32) -> Option<Reason> {
        let q = &self.pair(j).merged;
        // `strict_checking`: the limits on the request are refused at
        // submission only under `DenyOnLimit` (of either QOS); the submit
        // counts always.
        let strict = q.deny_on_limit;
        let mins = self.tres_mins(j);
        if let Some(reason) =
            self.checked(j).find_map(|(qi, limits)| self.qos_validate(j, qi, limits, &mins, strict, count))
        {
            return Some(reason);
        }
        let ju = j as usize;
        let asked = self.job_tres[ju];
        let limit = self.job_limit[ju];
        let chain = self.chain_of(j);
        for k in chain.clone() {
            let a = self.chain[k] as usize;
            // Each association's `GrpTRES` (a TRES the QOS's `GrpTRES`
            // limits is not checked again).
            if strict && let Some(t) = alone(&asked, &self.assoc_limits(q, a as u32)) {
                return Some(ASSOC_GRP[t]);
            }
            // Each association's `GrpSubmit`, when the QOS sets none
            // (its submitted jobs count those of the associations below).
            if q.grp_submit == NONE32
                && self.assoc_grp_submit[a] != NONE32
                && self.assoc_submitted[a] + count > self.assoc_grp_submit[a]
            {
                return Some(Reason::AssocGrpSubmitJobs);
            }
            if strict && let Some(t) = alone(&mins, &self.assoc_run_limits(q, a as u32)) {
                return Some(ASSOC_GRP_RUN_MINS[t]);
            }
            // The other limits are the user association's own.
            if k != chain.start {
                continue;
            }
            if strict && let Some(t) = alone(&asked, &unless_qos(self.assoc_max_tres[a], &q.max_tres_pj)) {
                return Some(ASSOC_PER_JOB[t]);
            }
            if strict && let Some(t) = alone(&per_node(&asked), &unless_qos(self.assoc_max_tres_pn[a], &q.max_tres_pn))
            {
                return Some(ASSOC_PER_NODE[t]);
            }
            if q.max_submit_pa == NONE32
                && q.max_submit_pu == NONE32
                && self.assoc_max_submit[a] != NONE32
                && self.assoc_submitted[a] + count > self.assoc_max_submit[a]
            {
                return Some(Reason::AssocMaxSubmitJob);
            }
            if strict && let Some(t) = alone(&mins, &unless_qos(self.assoc_max_tres_mins[a], &q.max_tres_mins)) {
                return Some(ASSOC_MINS_PER_JOB[t]);
            }
            if strict && q.max_wall == Time::MAX && limit > self.assoc_max_wall[a] {
                return Some(Reason::AssocMaxWallDurationPerJob);
            }
        }
        None
    }

    /// `_qos_policy_validate` of QOS `qi` with the limits `q` it checks;
    /// `mins` are job `j`'s TRES-minutes.
    fn qos_validate(&self, j: u32, qi: usize, q: &QosLimits, mins: &Tres4, strict: bool, count: u32) -> Option<Reason> {
        let ju = j as usize;
        let asked = self.job_tres[ju];
        let limit = self.job_limit[ju];
        if strict && let Some(t) = alone(&asked, &q.max_tres_pa) {
            return Some(PER_ACCOUNT[t]);
        }
        // `GrpTRES` and `MaxTRESPU` in one walk over the TRES: the first
        // above either, named by the per-user limit when it is above that.
        if strict && let Some(t) = alone(&asked, &lowest(&q.grp_tres, &q.max_tres_pu)) {
            return Some(if asked[t] > q.max_tres_pu[t] { PER_USER[t] } else { GRP[t] });
        }
        if q.grp_submit != NONE32 && self.qos_submitted[qi] + count > q.grp_submit {
            return Some(Reason::QosGrpSubmitJobs);
        }
        if strict && let Some(t) = alone(mins, &q.max_tres_mins) {
            return Some(MINS_PER_JOB[t]);
        }
        if strict && let Some(t) = alone(mins, &q.grp_tres_run_mins) {
            return Some(GRP_RUN_MINS[t]);
        }
        if strict && limit > q.max_wall {
            return Some(Reason::QosMaxWallDurationPerJob);
        }
        if strict && let Some(t) = alone(&asked, &q.max_tres_pj) {
            return Some(PER_JOB[t]);
        }
        if strict && let Some(t) = alone(&per_node(&asked), &q.max_tres_pn) {
            return Some(PER_NODE[t]);
        }
        if q.max_submit_pa != NONE32 && self.account_submitted[self.account_slot(qi, j)] + count > q.max_submit_pa {
            return Some(Reason::QosMaxSubmitJobsPerAccount);
        }
        if q.max_submit_pu != NONE32 && self.user_submitted[self.user_slot(qi, j)] + count > q.max_submit_pu {
            return Some(Reason::QosMaxSubmitJobPerUser);
        }
        if strict && let Some(t) = below(&asked, &q.min_tres) {
            return Some(MIN[t]);
        }
        None
    }

    /// `acct_policy_add_job_submit`: `count` jobs like `j` are submitted.
    fn count_submitted(&mut self, j: u32, count: u32) {
        for qi in self.counted(j) {
            let (slot, aslot) = (self.user_slot(qi, j), self.account_slot(qi, j));
            self.user_submitted[slot] += count;
            self.qos_submitted[qi] += count;
            self.account_submitted[aslot] += count;
        }
        for k in self.chain_of(j) {
            self.assoc_submitted[self.chain[k] as usize] += count;
        }
    }

    /// The reason a limit would hold job `j` for ever, if one does: a
    /// limit on the job alone (its time limit above `MaxWall`, a request
    /// above a `GrpTRES`, `MaxTRES`, `MaxTRESPerNode`, `MaxTRESMins`,
    /// `MaxTRESPA` or `MaxTRESPU`, or below `MinTRES`, TRES-minutes above a
    /// `GrpTRESRunMins`, a jobs limit of 0),
    /// in the order the pre-select then the post-select tests find them.
    fn for_ever(&self, j: u32) -> Option<Reason> {
        let ju = j as usize;
        let q = &self.pair(j).merged;
        let asked = self.job_tres[ju];
        let limit = self.job_limit[ju];
        let chain = self.chain.get(self.chain_of(j));
        let user_row = chain.and_then(|r| r.first()).map(|&a| a as usize);
        let mins = self.tres_mins(j);
        let qos_pre = |q: &QosLimits| {
            if q.grp_jobs == 0 {
                Some(Reason::QosGrpJobs)
            } else if q.max_jobs_pa == 0 {
                Some(Reason::QosMaxJobsPerAccount)
            } else if q.max_jobs_pu == 0 {
                Some(Reason::QosMaxJobsPerUser)
            } else if limit > q.max_wall {
                Some(Reason::QosMaxWallDurationPerJob)
            } else {
                None
            }
        };
        let qos_post = |q: &QosLimits| {
            if let Some(t) = alone(&asked, &q.grp_tres) {
                Some(GRP[t])
            } else if let Some(t) = alone(&mins, &q.grp_tres_run_mins) {
                Some(GRP_RUN_MINS[t])
            } else if let Some(t) = alone(&mins, &q.max_tres_mins) {
                Some(MINS_PER_JOB[t])
            } else if let Some(t) = alone(&asked, &q.max_tres_pj) {
                Some(PER_JOB[t])
            } else if let Some(t) = alone(&per_node(&asked), &q.max_tres_pn) {
                Some(PER_NODE[t])
            } else if let Some(t) = below(&asked, &q.min_tres) {
                Some(MIN[t])
            } else if let Some(t) = alone(&asked, &q.max_tres_pa) {
                Some(PER_ACCOUNT[t])
            } else {
                alone(&asked, &q.max_tres_pu).map(|t| PER_USER[t])
            }
        };
        if let Some(reason) = self.checked(j).find_map(|(_, q)| qos_pre(q)) {
            Some(reason)
        } else if q.grp_jobs == NONE32 && chain.is_some_and(|r| r.iter().any(|&a| self.assoc_grp_jobs[a as usize] == 0))
        {
            Some(Reason::AssocGrpJobs)
        } else if q.max_jobs_pu == NONE32
            && q.max_jobs_pa == NONE32
            && user_row.is_some_and(|a| self.assoc_max_jobs[a] == 0)
        {
            Some(Reason::AssocMaxJobs)
        } else if q.max_wall == Time::MAX && user_row.is_some_and(|a| limit > self.assoc_max_wall[a]) {
            Some(Reason::AssocMaxWallDurationPerJob)
        } else if let Some(reason) = self.checked(j).find_map(|(_, q)| qos_post(q)) {
            Some(reason)
        } else if let Some(reason) = chain.and_then(|r| {
            r.iter().find_map(|&a| {
                alone(&asked, &self.assoc_limits(q, a))
                    .map(|t| ASSOC_GRP[t])
                    .or_else(|| alone(&mins, &self.assoc_run_limits(q, a)).map(|t| ASSOC_GRP_RUN_MINS[t]))
            })
        }) {
            Some(reason)
        } else {
            let a = user_row?;
            if let Some(t) = alone(&mins, &unless_qos(self.assoc_max_tres_mins[a], &q.max_tres_mins)) {
                Some(ASSOC_MINS_PER_JOB[t])
            } else if let Some(t) = alone(&asked, &unless_qos(self.assoc_max_tres[a], &q.max_tres_pj)) {
                Some(ASSOC_PER_JOB[t])
            } else {
                alone(&per_node(&asked), &unless_qos(self.assoc_max_tres_pn[a], &q.max_tres_pn))
                    .map(|t| ASSOC_PER_NODE[t])
            }
        }
    }

    /// `acct_policy_job_runnable_pre_select`: `Some(reason)` if a limit
    /// holds job `j` before nodes are sought.
    pub fn pre_select(&mut self, j: u32) -> Option<Reason> {
        let reason = self.pre_select_reason(j)?;
        Some(self.hit(j, reason))
    }

    fn pre_select_reason(&self, j: u32) -> Option<Reason> {
        // `_qos_job_runnable_pre_select`, for each QOS.
        for (qi, q) in self.checked(j) {
            if q.grp_jobs != NONE32 && self.qos_jobs[qi] >= q.grp_jobs {
                return Some(Reason::QosGrpJobs);
            }
            if q.max_jobs_pa != NONE32 && self.account_jobs[self.account_slot(qi, j)] >= q.max_jobs_pa {
                return Some(Reason::QosMaxJobsPerAccount);
            }
            if q.max_jobs_pu != NONE32 && self.user_jobs[self.user_slot(qi, j)] >= q.max_jobs_pu {
                return Some(Reason::QosMaxJobsPerUser);
            }
            if self.job_limit[j as usize] > q.max_wall {
                return Some(Reason::QosMaxWallDurationPerJob);
            }
        }
        let q = &self.pair(j).merged;
        let chain = self.chain_of(j);
        for k in chain.clone() {
            let a = self.chain[k] as usize;
            if q.grp_jobs == NONE32 && self.assoc_grp_jobs[a] != NONE32 && self.assoc_jobs[a] >= self.assoc_grp_jobs[a]
            {
                return Some(Reason::AssocGrpJobs);
            }
            // `MaxJobs` is the user association's own (not its parents').
            if k == chain.start
                && q.max_jobs_pu == NONE32
                && q.max_jobs_pa == NONE32
                && self.assoc_max_jobs[a] != NONE32
                && self.assoc_jobs[a] >= self.assoc_max_jobs[a]
            {
                return Some(Reason::AssocMaxJobs);
            }
        }
        None
    }

    /// `acct_policy_job_runnable_post_select`: `Some(reason)` if a TRES
    /// limit holds job `j` once nodes are found.
    pub fn post_select(&mut self, j: u32) -> Option<Reason> {
        let reason = self.post_select_reason(j)?;
        Some(self.hit(j, reason))
    }

    fn post_select_reason(&self, j: u32) -> Option<Reason> {
        let asked = self.job_tres[j as usize];
        // Why: no dump sets `GrpTRESRunMins` in most runs; this test is
        // hot, so it is skipped whole then.
        let mins = if self.run_mins_limited { self.tres_mins(j) } else { [0; 4] };
        // `_qos_job_runnable_post_select`, for each QOS.
        for (qi, q) in self.checked(j) {
            if let Some(t) = over(&self.qos_tres[qi], &asked, &q.grp_tres) {
                return Some(GRP[t]);
            }
            if self.run_mins_limited
                && let Some(t) = over_run_mins(&self.qos_run_secs[qi], &mins, &q.grp_tres_run_mins)
            {
                return Some(GRP_RUN_MINS[t]);
            }
            if let Some(t) = over(&self.account_tres[self.account_slot(qi, j)], &asked, &q.max_tres_pa) {
                return Some(PER_ACCOUNT[t]);
            }
            if let Some(t) = over(&self.user_tres[self.user_slot(qi, j)], &asked, &q.max_tres_pu) {
                return Some(PER_USER[t]);
            }
        }
        let q = &self.pair(j).merged;
        for k in self.chain_of(j) {
            let a = self.chain[k];
            if let Some(t) = over(&self.assoc_tres[a as usize], &asked, &self.assoc_limits(q, a)) {
                return Some(ASSOC_GRP[t]);
            }
            if self.run_mins_limited
                && let Some(t) = over_run_mins(&self.assoc_run_secs[a as usize], &mins, &self.assoc_run_limits(q, a))
            {
                return Some(ASSOC_GRP_RUN_MINS[t]);
            }
        }
        None
    }

    /// An association's `GrpTRESRunMins`, but for the TRES its job's QOS's
    /// limits.
    fn assoc_run_limits(&self, q: &QosLimits, a: u32) -> Tres4 {
        unless_qos(self.assoc_grp_tres_run_mins[a as usize], &q.grp_tres_run_mins)
    }

    /// The decay thread's pass at `now`, the previous one at `since`
    /// (`_apply_new_usage`): each running job's TRES-seconds run since
    /// then, to its time limit, leave the run-seconds of its QOS and
    /// associations. `running` gives each running job and its start.
    pub fn tick(&mut self, since: Time, now: Time, running: impl Iterator<Item = (u32, Time)>) {
        if !self.run_mins_limited {
            return;
        }
        for (j, start) in running {
            let from = since.max(start);
            let to = now.min(start + self.job_limit[j as usize]);
            if to > from {
                let run = self.factored((to - from) as u64, j);
                let tres = self.job_tres[j as usize];
                let left = self.job_run_secs[j as usize];
                self.change_run_secs(j, std::array::from_fn(|i| (tres[i].saturating_mul(run)).min(left[i])), false);
            }
        }
    }

    /// `seconds` times job `j`'s QOS's `UsageFactor` (`acct_policy.c` and
    /// `_apply_new_usage` scale the run-seconds by it).
    fn factored(&self, seconds: u64, j: u32) -> u64 {
        let f = self.usage_factor[self.job_qos[j as usize] as usize];
        if f >= 0.0 && f != 1.0 { (seconds as f64 * f) as u64 } else { seconds }
    }

    /// Adds (or takes away) `secs` to job `j`'s run-seconds, its QOS's and
    /// those of its associations.
    fn change_run_secs(&mut self, j: u32, secs: Tres4, add: bool) {
        let change = |used: &mut Tres4| {
            for (u, s) in used.iter_mut().zip(&secs) {
                *u = if add { u.saturating_add(*s) } else { u.saturating_sub(*s) };
            }
        };
        change(&mut self.job_run_secs[j as usize]);
        for qi in self.counted(j) {
            change(&mut self.qos_run_secs[qi]);
        }
        let (from, to) = (self.chain_at[j as usize] as usize, self.chain_at[j as usize + 1] as usize);
        for k in from..to {
            change(&mut self.assoc_run_secs[self.chain[k] as usize]);
        }
    }

    /// An association's `GrpTRES`, but for the TRES its job's QOS limits
    /// (`_validate_tres_limits_for_assoc`: the QOS's limit overrides).
    fn assoc_limits(&self, q: &QosLimits, a: u32) -> Tres4 {
        unless_qos(self.assoc_grp_tres[a as usize], &q.grp_tres)
    }

    /// Both tests: `true` if job `j` may start now as far as limits go.
    pub fn runnable(&mut self, j: u32) -> bool {
        self.pre_select(j).is_none() && self.post_select(j).is_none()
    }

    /// A job running when the run begins ([`crate::controller::Resumed`]):
    /// submitted and started.
    pub fn resumed(&mut self, j: u32) {
        self.count_submitted(j, 1);
        self.begin(j);
    }

    /// `acct_policy_job_begin`.
    pub fn begin(&mut self, j: u32) {
        self.adjust(j, true);
    }

    /// A requeued job's `acct_policy_job_fini`: it stays submitted
    /// ([`crate::preemption`]).
    pub fn requeue(&mut self, j: u32) {
        self.adjust(j, false);
    }

    /// `acct_policy_job_fini` (and the end of its submission).
    pub fn fini(&mut self, j: u32) {
        self.adjust(j, false);
        self.withdraw(j);
    }

    /// The end of job `j`'s submission (`acct_policy_remove_job_submit`):
    /// at its end, or when it is cancelled pending.
    pub fn withdraw(&mut self, j: u32) {
        for qi in self.counted(j) {
            let slot = self.user_slot(qi, j);
            self.user_submitted[slot] = self.user_submitted[slot].saturating_sub(1);
            self.qos_submitted[qi] = self.qos_submitted[qi].saturating_sub(1);
            let aslot = self.account_slot(qi, j);
            self.account_submitted[aslot] = self.account_submitted[aslot].saturating_sub(1);
        }
        for k in self.chain_of(j) {
            let a = self.chain[k] as usize;
            self.assoc_submitted[a] = self.assoc_submitted[a].saturating_sub(1);
        }
    }

    fn adjust(&mut self, j: u32, add: bool) {
        // `GrpTRESRunMins`: a start adds its TRES times its time limit; an
        // end (or requeue) takes away what its run left.
        if self.run_mins_limited {
            let secs = if add {
                let run = self.factored(self.job_limit[j as usize].max(0) as u64, j);
                self.job_tres[j as usize].map(|t| t.saturating_mul(run))
            } else {
                self.job_run_secs[j as usize]
            };
            self.change_run_secs(j, secs, add);
        }
        let tres = self.job_tres[j as usize];
        let (from, to) = (self.chain_at[j as usize] as usize, self.chain_at[j as usize + 1] as usize);
        let change = |used: &mut Tres4| {
            for (u, t) in used.iter_mut().zip(&tres) {
                *u = if add { *u + t } else { *u - t };
            }
        };
        for qi in self.counted(j) {
            let (slot, aslot) = (self.user_slot(qi, j), self.account_slot(qi, j));
            if add {
                self.qos_jobs[qi] += 1;
                self.user_jobs[slot] += 1;
                self.account_jobs[aslot] += 1;
            } else {
                self.qos_jobs[qi] -= 1;
                self.user_jobs[slot] -= 1;
                self.account_jobs[aslot] -= 1;
            }
            change(&mut self.qos_tres[qi]);
            change(&mut self.user_tres[slot]);
            change(&mut self.account_tres[aslot]);
        }
        for k in from..to {
            let a = self.chain[k] as usize;
            if add {
                self.assoc_jobs[a] += 1;
            } else {
                self.assoc_jobs[a] -= 1;
            }
            change(&mut self.assoc_tres[a]);
        }
    }
}
