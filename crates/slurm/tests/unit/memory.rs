//! `DefMemPerCPU` and `MaxMemPerCPU`, by hand.

use slasim_data::trace::sacct::jobs::{SlurmJob, Tres};
use slasim_slurm::memory::MemPerCpu;

use crate::{job, simulated, starts, workload};

/// One node of 4 CPUs and 1000 MiB, memory consumable.
const NODE: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/builtin
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES MaxTime=UNLIMITED
";

fn mem(mem_mib: u64, j: SlurmJob) -> SlurmJob {
    SlurmJob { request: Tres { mem_mib, ..j.request }, ..j }
}

/// DefMemPerCPU=400: J1, J2, J3 (1 CPU each, no memory asked, submitted
/// at 0; J1 runs 100, J2 50) get 400 MiB each. J1 and J2 take 800 of the
/// node's 1000 MiB; J3's 400 do not fit until J2 ends at 50.
///
/// Without DefMemPerCPU they ask nothing and all three start at 0.
#[test]
fn def_mem_per_cpu_gives_memory_to_jobs_that_ask_none() {
    let conf = NODE.replace("SchedulerType", "DefMemPerCPU=400\nSchedulerType");
    let w = workload(vec![job(1, 0, 1, 200, 100), job(2, 0, 1, 200, 50), job(3, 0, 1, 200, 10)], &["batch"]);
    assert_eq!(starts(&simulated(&conf, &w).outcomes), vec![(0, 100, false), (0, 50, false), (50, 60, false)]);
    assert_eq!(starts(&simulated(NODE, &w).outcomes), vec![(0, 100, false), (0, 50, false), (0, 10, false)]);
}

/// The partition's DefMemPerCPU wins over the cluster's: 200 MiB per CPU
/// on the partition lets all three (600 MiB) start at 0.
#[test]
fn the_partition_default_wins() {
    let conf = NODE
        .replace("SchedulerType", "DefMemPerCPU=400\nSchedulerType")
        .replace("MaxTime=UNLIMITED", "MaxTime=UNLIMITED DefMemPerCPU=200");
    let w = workload(vec![job(1, 0, 1, 200, 100), job(2, 0, 1, 200, 50), job(3, 0, 1, 200, 10)], &["batch"]);
    assert_eq!(starts(&simulated(&conf, &w).outcomes), vec![(0, 100, false), (0, 50, false), (0, 10, false)]);
}

/// MaxMemPerCPU=300 on a 4-CPU, 4000 MiB node: J1, J2, J3 (1 CPU, 600 MiB
/// each, submitted at 0; J1 runs 100, J2 50) are each given
/// ⌈600 / 300⌉ = 2 CPUs. J1 and J2 take the 4 CPUs; J3 starts when J2
/// ends, at 50. Memory (1800 of 4000) is never short.
///
/// Without MaxMemPerCPU each takes 1 CPU and all three start at 0.
#[test]
fn max_mem_per_cpu_raises_the_cpus() {
    let node = NODE.replace("RealMemory=1000", "RealMemory=4000");
    let conf = node.replace("SchedulerType", "MaxMemPerCPU=300\nSchedulerType");
    let w = workload(
        vec![mem(600, job(1, 0, 1, 200, 100)), mem(600, job(2, 0, 1, 200, 50)), mem(600, job(3, 0, 1, 200, 10))],
        &["batch"],
    );
    assert_eq!(starts(&simulated(&conf, &w).outcomes), vec![(0, 100, false), (0, 50, false), (50, 60, false)]);
    assert_eq!(starts(&simulated(&node, &w).outcomes), vec![(0, 100, false), (0, 50, false), (0, 10, false)]);
}

/// The rules on requests (`_valid_pn_min_mem`).
#[test]
fn requests_as_submit_leaves_them() {
    let t = |cpus, mem_mib, nodes| Tres { cpus, mem_mib, nodes, gpus: 0 };
    let rules = |default, max| MemPerCpu { default, max };
    // The default: per CPU, per node (6 CPUs on 2 nodes: 3 each).
    assert_eq!(rules(Some(100), None).apply(&t(6, 0, 2)), t(6, 600, 2));
    // A request is kept.
    assert_eq!(rules(Some(100), None).apply(&t(6, 50, 2)), t(6, 50, 2));
    // Default above the maximum: CPUs per task ×⌈1000/300⌉ = 4, memory per
    // CPU ⌈1000/4⌉ = 250: 2 CPUs → 8 CPUs, 2000 MiB.
    assert_eq!(rules(Some(1000), Some(300)).apply(&t(2, 0, 1)), t(8, 2000, 1));
    // A total of 1000 per node against 300 per CPU: at least 4 CPUs per node.
    assert_eq!(rules(None, Some(300)).apply(&t(4, 2000, 2)), t(8, 2000, 2));
    // Under the maximum: unchanged.
    assert_eq!(rules(None, Some(300)).apply(&t(4, 1200, 1)), t(4, 1200, 1));
}
