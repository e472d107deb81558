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

/// The shared machine model of a conf: nodes in file order with their GPU
/// models, partitions in file order over their nodes in file order; the
/// twin's partitions try nodes by weight.
#[test]
fn the_shared_model_of_a_conf() {
    let conf = parse(
        "NodeName=c[1-2] CPUs=8 RealMemory=4000 Weight=5 Features=ib
NodeName=g1 CPUs=16 RealMemory=64000 Gres=gpu:a100:4 Weight=1
NodeName=g2 CPUs=16 RealMemory=64000 Gres=gpu:v100:2
NodeName=g3 CPUs=16 RealMemory=64000 Gres=gpu:a100:1
PartitionName=gpu Nodes=g[1-3]
PartitionName=all Nodes=ALL Default=YES
",
        Path::new("m.conf"),
    )
    .expect("the test conf parses");
    let machine = Machine::new(&conf);
    let spec = &machine.spec;
    assert_eq!(spec.names, ["c1", "c2", "g1", "g2", "g3"]);
    assert_eq!(spec.models, ["a100", "v100"]);
    assert_eq!(spec.gpu_model, [None, None, Some(0), Some(1), Some(0)]);
    assert_eq!(spec.weight, [5, 5, 1, 1, 1]);
    assert_eq!(spec.features[0], ["ib"]);
    assert_eq!(spec.size[2], slasim_machine::Resources { cpus: 16, mem_mib: 64000, gpus: 4 });
    let parts: Vec<_> = spec.partitions.iter().map(|p| (p.name.as_str(), p.nodes.clone())).collect();
    assert_eq!(parts, [("gpu", vec![2, 3, 4]), ("all", vec![0, 1, 2, 3, 4])]);
    assert_eq!(machine.partitions[1].nodes, [2, 3, 4, 0, 1]);
    assert_eq!(machine.free, spec.size);
    assert_eq!(machine.total(), spec.total());
}

/// cons_tres's `sched_weight` low byte. A CPU node c1 and two GPU nodes of
/// 2 GPUs, all free, in one partition. A job of 1 CPU and no GPU goes to
/// c1 (one run of three alike nodes: its first). A GPU job evaluated on
/// g2 (it holds its GPU and CPU there) leaves g2 at 0xff − 1: g2 is now a
/// run of its own of lower weight, and the CPU job goes there. A GPU job
/// that does not fit (3 GPUs) leaves the weights as they are. The
/// partition's weights synced (`select_nodes`), it goes to c1 again. A GPU
/// job itself is not swayed: its evaluation has just set every node that
/// holds it alike, so it takes the first, g1.
#[test]
fn a_gpu_jobs_evaluation_draws_later_cpu_jobs_until_the_weights_are_synced() {
    let conf = parse(
        "SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
NodeName=c1 CPUs=4 RealMemory=1000
NodeName=g[1-2] CPUs=4 RealMemory=1000 Gres=gpu:2
PartitionName=all Nodes=c1,g[1-2] Default=YES MaxTime=UNLIMITED
",
        Path::new("test.conf"),
    )
    .expect("the test conf parses");
    let mut machine = Machine::new(&conf);
    let cpu_job = Need { nodes: 1, cpus: 1, mem_mib: 0, gpus: 0 };
    let gpu_job = Need { nodes: 1, cpus: 1, mem_mib: 0, gpus: 1 };
    let pick = |machine: &Machine, need: &Need| {
        let mut out = Vec::new();
        assert!(machine.find(0, need, |_| true, &mut out));
        out
    };
    assert_eq!(pick(&machine, &cpu_job), [0]);
    let free = machine.free[2];
    machine.near_gpus(2, &gpu_job, &free);
    assert_eq!(pick(&machine, &cpu_job), [2]);
    machine.near_gpus(1, &Need { gpus: 3, ..gpu_job }, &free);
    assert_eq!(pick(&machine, &cpu_job), [2]);
    assert_eq!(pick(&machine, &gpu_job), [1]);
    machine.sync_weights(0);
    assert_eq!(pick(&machine, &cpu_job), [0]);
}
