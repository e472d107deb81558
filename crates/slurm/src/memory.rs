//! `DefMemPerCPU` and `MaxMemPerCPU`: the memory a job is given when it
//! asks none, and the CPUs it is given when it asks more memory per CPU
//! than allowed.
//!
//! Sources: Slurm 22.05, `slurm.conf(5)` (DefMemPerCPU, MaxMemPerCPU,
//! globally and per partition) and `src/slurmctld/job_mgr.c`
//! (`_job_create`/`job_submit`: a job without a memory request gets its
//! partition's `DefMemPerCPU`, else the cluster's; `_valid_pn_min_mem`: the
//! partition's `MaxMemPerCPU`, else the cluster's).
//!
//! Contract (per node, as the machine spreads a job evenly,
//! [`crate::machine::Need`]):
//! - A job that asks no memory (0 MiB) gets, with a `DefMemPerCPU` of `d`,
//!   `d` MiB per CPU: `d × c` per node for `c` CPUs per node.
//! - With a `MaxMemPerCPU` of `m`, a job given `d` per CPU above `m` (the
//!   default applied, per-CPU form) has its CPUs per task multiplied by
//!   `r = ⌈d / m⌉` and its memory per CPU lowered to `⌈d / r⌉`
//!   (`_valid_pn_min_mem`, both limits per CPU). A job with a memory total
//!   `M` per node above `m × c` (per-node form) is given at least
//!   `⌈M / m⌉` CPUs per node, its memory unchanged.
//! - Both apply at submit: a sacct dump's `ReqTRES` already holds what they
//!   gave, and applying them again changes nothing unless the settings
//!   differ from the logged run's (a what-if).
//! - Departure: sacct does not say whether a job asked memory per CPU or
//!   per node; a job's recorded memory is taken per node (the second rule),
//!   which gives fewer extra CPUs than the per-CPU rule would.

use slasim_data::trace::sacct::jobs::Tres;

/// A partition's memory-per-CPU settings (its own, else the cluster's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemPerCpu {
    /// `DefMemPerCPU`, MiB (`None`: no default).
    pub default: Option<u64>,
    /// `MaxMemPerCPU`, MiB (`None`: no limit).
    pub max: Option<u64>,
}

impl MemPerCpu {
    /// Is either set?
    pub fn is_set(&self) -> bool {
        self.default.is_some() || self.max.is_some()
    }

    /// `request` (totals over its nodes) as Slurm leaves it at submit.
    pub fn apply(&self, request: &Tres) -> Tres {
        let mut out = *request;
        let nodes = u64::from(request.nodes.max(1));
        let mut cpus = u64::from(request.cpus.max(1)).div_ceil(nodes);
        let before = cpus;
        let mut per_cpu = None;
        if request.mem_mib == 0
            && let Some(d) = self.default
        {
            per_cpu = Some(d);
        }
        if let Some(m) = self.max.filter(|&m| m > 0) {
            match per_cpu {
                // Both per CPU: CPUs per task times the ratio.
                Some(d) if d > m => {
                    let r = d.div_ceil(m);
                    cpus *= r;
                    per_cpu = Some(d.div_ceil(r));
                }
                Some(_) => {}
                // A per-node total against a per-CPU limit.
                None => {
                    let per_node = request.mem_mib.div_ceil(nodes);
                    cpus = cpus.max(per_node.div_ceil(m));
                }
            }
        }
        if let Some(d) = per_cpu {
            out.mem_mib = d * cpus * nodes;
        }
        if cpus > before {
            out.cpus = u32::try_from(cpus * nodes).unwrap_or(u32::MAX);
        }
        out
    }
}
