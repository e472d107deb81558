//! cons_tres node choice (`Machine::pick`), by hand.

use std::path::Path;

use slasim_slurm::conf::parse;
use slasim_slurm::machine::{Machine, Need, Picked};

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
    let mut out = Picked::default();
    assert!(machine.pick(0, &need, |n| (free[n as usize] >= need.cpus).then_some(free[n as usize]), &mut out));
    out.to_vec()
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
        let mut out = Picked::default();
        assert!(machine.find(0, need, |_| true, &mut out));
        out.to_vec()
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

/// A machine of `weights.len()` nodes of 8 CPUs, c1, c2, … with these
/// `Weight`s, in one partition.
fn weighted(weights: &[u32]) -> Machine {
    let mut text = String::new();
    for (i, w) in weights.iter().enumerate() {
        text.push_str(&format!("NodeName=c{} CPUs=8 RealMemory=1000 Weight={w}\n", i + 1));
    }
    text.push_str("PartitionName=all Nodes=ALL Default=YES MaxTime=UNLIMITED\n");
    Machine::new(&parse(&text, Path::new("w.conf")).expect("the test conf parses"))
}

/// `_eval_nodes` over several runs, by hand. Eight nodes of one weight;
/// c2 and c5 cannot hold the job, so the runs are c1 (4 free CPUs), c3–c4
/// (8) and c6–c8 (10). A job of 4 nodes: no run suffices, so the largest,
/// c6–c8, is taken whole; for the last node c1 and c3–c4 both suffice,
/// and c1 is the tighter. A job of 6 nodes: c6–c8, then c3–c4 (the largest
/// left, none sufficing for 3), then c1.
#[test]
fn eval_nodes_takes_the_largest_run_whole_until_one_suffices() {
    let machine = weighted(&[1; 8]);
    let free = [Some(4), None, Some(4), Some(4), None, Some(2), Some(4), Some(4)];
    let pick = |nodes: u32| {
        let mut out = Picked::default();
        let need = Need { nodes, cpus: 1, mem_mib: 0, gpus: 0 };
        assert!(machine.pick(0, &need, |n| free[n as usize], &mut out));
        out.to_vec()
    };
    assert_eq!(pick(4), [5, 6, 7, 0]);
    assert_eq!(pick(6), [5, 6, 7, 2, 3, 0]);
    assert_eq!(pick(1), [0]);
    assert_eq!(pick(2), [2, 3]);
    let mut out = Picked::default();
    let need = Need { nodes: 7, cpus: 1, mem_mib: 0, gpus: 0 };
    assert!(!machine.pick(0, &need, |n| free[n as usize], &mut out), "only six nodes hold it");
}

/// `_eval_nodes` as Slurm's rounds run it, as the reference: each round
/// looks again at every node not yet chosen, forms the runs of consecutive
/// nodes (in the partition's order) of one weight that hold the job, and
/// of the lowest weight takes the tightest run that suffices (its first
/// nodes; the fewest free CPUs for a last node), else the largest whole.
fn eval_nodes_by_rounds(order: &[u32], weight: &[u32], free: &[Option<u32>], need: u32) -> Option<Vec<u32>> {
    let mut out: Vec<u32> = Vec::new();
    while (out.len() as u32) < need {
        let rest = need - out.len() as u32;
        let open = |n: u32| free[n as usize].filter(|_| !out.contains(&n));
        // (weight, CPUs, first position, length, suffices)
        let mut best: Option<(u32, u32, usize, usize, bool)> = None;
        let mut i = 0;
        while i < order.len() {
            let first = i;
            let Some(mut cpus) = open(order[i]) else {
                i += 1;
                continue;
            };
            i += 1;
            while i < order.len()
                && order[i] == order[i - 1] + 1
                && weight[order[i] as usize] == weight[order[first] as usize]
                && let Some(f) = open(order[i])
            {
                cpus += f;
                i += 1;
            }
            let (w, len) = (weight[order[first] as usize], i - first);
            let suffices = len as u32 >= rest;
            // A lower weight; then a run that suffices over one that does
            // not; the tighter of two that suffice, the larger of two that do not.
            let better = best.is_none_or(|(bw, bc, _, _, bs)| {
                w < bw
                    || (w == bw
                        && match (suffices, bs) {
                            (true, false) => true,
                            (true, true) => cpus < bc,
                            (false, false) => cpus > bc,
                            (false, true) => false,
                        })
            });
            if better {
                best = Some((w, cpus, first, len, suffices));
            }
        }
        let (_, _, first, len, _) = best?;
        let run = &order[first..first + len];
        if rest == 1 {
            let fit = run.iter().min_by_key(|&&n| free[n as usize]).copied();
            out.extend(fit);
        } else {
            out.extend_from_slice(&run[..len.min(rest as usize)]);
        }
    }
    Some(out)
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// `Machine::pick` finds each run once and chooses among those left
    /// round after round: it picks as Slurm's rounds do, whatever the
    /// weights, the nodes that hold the job and the job's nodes.
    #[test]
    fn pick_chooses_as_eval_nodes_rounds(
        nodes in proptest::collection::vec((1u32..4, proptest::option::weighted(0.7, 1u32..9)), 1..40),
        need in 1u32..12,
    ) {
        let weights: Vec<u32> = nodes.iter().map(|&(w, _)| w).collect();
        let free: Vec<Option<u32>> = nodes.iter().map(|&(_, f)| f).collect();
        let machine = weighted(&weights);
        let mut out = Picked::default();
        let job = Need { nodes: need, cpus: 1, mem_mib: 0, gpus: 0 };
        let picked = machine.pick(0, &job, |n| free[n as usize], &mut out).then(|| out.to_vec());
        let expected = eval_nodes_by_rounds(&machine.partitions[0].nodes, &weights, &free, need);
        proptest::prop_assert_eq!(picked, expected);
    }
}
