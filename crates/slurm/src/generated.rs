//! A `slurm.conf` written by slasim for a machine described elsewhere (a GPU
//! trace's node list, a job log's machine size): one partition of every
//! node, the backfill scheduler and multifactor priority.
//!
//! Contract:
//! - [`conf_text`] writes `SchedulerType=sched/backfill`,
//!   `SelectType=select/cons_tres` (with `CR_Core_Memory` when a node gives
//!   its memory), `PriorityType=priority/multifactor` with age and job-size
//!   weights of 1000 and a one-day `PriorityMaxAge`, `GresTypes=gpu` when a
//!   node has GPUs, one `NodeName` line per [`NodeSpec`] in order, and
//!   `PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE`.
//! - The text depends only on its input, so a point's digest of it is
//!   stable.

use std::fmt::Write as _;

/// One `NodeName` line: a host name or a host list (`n[1-8]`) of alike nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    /// `NodeName`.
    pub names: String,
    /// `CPUs`.
    pub cpus: u64,
    /// `RealMemory` in MiB, if known.
    pub memory_mib: Option<u64>,
    /// `Gres=gpu:N` (none when 0).
    pub gpus: u64,
}

/// The `slurm.conf` of `nodes` (module contract).
pub fn conf_text(nodes: &[NodeSpec]) -> String {
    let mut text = String::from(
        "SchedulerType=sched/backfill\n\
         SelectType=select/cons_tres\n\
         PriorityType=priority/multifactor\n\
         PriorityWeightAge=1000\n\
         PriorityWeightJobSize=1000\n\
         PriorityMaxAge=1-0\n",
    );
    if nodes.iter().any(|n| n.memory_mib.is_some()) {
        text.push_str("SelectTypeParameters=CR_Core_Memory\n");
    }
    if nodes.iter().any(|n| n.gpus > 0) {
        text.push_str("GresTypes=gpu\n");
    }
    for n in nodes {
        let _ = write!(text, "NodeName={} CPUs={}", n.names, n.cpus);
        if let Some(m) = n.memory_mib {
            let _ = write!(text, " RealMemory={m}");
        }
        if n.gpus > 0 {
            let _ = write!(text, " Gres=gpu:{}", n.gpus);
        }
        text.push_str(" State=UNKNOWN\n");
    }
    text.push_str("PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    text
}
