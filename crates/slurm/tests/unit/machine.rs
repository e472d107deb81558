//! cons_tres node choice (`Machine::pick`), by hand.

use std::path::Path;

use slasim_slurm::conf::parse;
use slasim_slurm::machine::{Machine, Need};

/// Two GPU nodes of 4 CPUs and 2 GPUs; g2 has 2 CPUs in use.
fn choose(need: Need) -> Vec<u32> {
    let conf = parse(
        "SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
NodeName=g1 CPUs=4 RealMemory=1000 Gres=gpu:2
NodeName=g2 CPUs=4 RealMemory=1000 Gres=gpu:2
PartitionName=gpu Nodes=g[1-2] Default=YES MaxTime=UNLIMITED
",
        Path::new("test.conf"),
    )
    .expect("the test conf parses");
    let machine = Machine::new(&conf);
    let free = [4, 2];
    let mut out = Vec::new();
    assert!(machine.pick(0, &need, |n| (free[n as usize] >= need.cpus).then_some(free[n as usize]), &mut out));
    out
}

/// A one-node job goes to the node with the fewest free CPUs that holds it
/// (`_eval_nodes`' best fit): g2. A job with GPUs counts at most its own
/// CPUs on each node (`gres_select_filter_sock_core` caps its available
/// CPUs at its tasks there), so both nodes offer it 1 CPU: a tie, and the
/// first, g1, is taken. Without the cap it would get g2 too.
#[test]
fn a_gpu_job_counts_only_its_own_cpus_in_the_best_fit() {
    assert_eq!(choose(Need { nodes: 1, cpus: 1, mem_mib: 0, gpus: 0 }), [1]);
    assert_eq!(choose(Need { nodes: 1, cpus: 1, mem_mib: 0, gpus: 1 }), [0]);
    // With 2 CPUs the cap is 2 on both: a tie again.
    assert_eq!(choose(Need { nodes: 1, cpus: 2, mem_mib: 0, gpus: 1 }), [0]);
    // 3 CPUs: only g1 holds it.
    assert_eq!(choose(Need { nodes: 1, cpus: 3, mem_mib: 0, gpus: 1 }), [0]);
}
