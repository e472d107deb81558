//! The Slurm kind's tests: the strategy on small machines, checked by hand
//! (the main scheduler's partition blocking, backfill reservations,
//! cons_tres placement, multifactor priority and Fair Tree), the machine's
//! located errors, a property over random machines and workloads, and its
//! tables against the store's schema. One binary; the command line's tests
//! are the `slasim` crate's (`tests/integration/slurm.rs`).
//!
//! Module `unit` holds the library's own tests, one module per library
//! module, under its path.

mod unit;

use std::path::Path;

#[path = "../../core/src/testing.rs"]
mod testing;

use slasim_data::trace::sacct::jobs::{Origin, SlurmJob, SlurmWorkload, Tres};
use slasim_slurm::bench::{Scenario, simulate};
use slasim_slurm::conf::parse;
use slasim_slurm::controller::Outcome;
use slasim_slurm::machine::{Machine, Need};
use slasim_slurm::priority::{FairTree, Multifactor};

const ONE_NODE: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=60
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES MaxTime=UNLIMITED
";

fn job(id: u64, submit: i64, cpus: u32, limit: i64, run: i64) -> SlurmJob {
    SlurmJob {
        id,
        user: 0,
        account: 0,
        partition: 0,
        partitions: Vec::new(),
        qos: 0,
        submit,
        submitted: submit,
        time_limit: Some(limit),
        run_time: run,
        request: Tres { cpus, mem_mib: 0, nodes: 1, gpus: 0 },
        logged: None,
        origin: Origin::Synthetic { index: id },
        constraints: None,
        reservation: None,
        relations: Default::default(),
    }
}

fn workload(jobs: Vec<SlurmJob>, partitions: &[&str]) -> SlurmWorkload {
    SlurmWorkload {
        jobs,
        users: vec!["alice".into(), "bob".into()],
        accounts: vec!["physics".into(), "biology".into()],
        partitions: partitions.iter().map(|p| p.to_string()).collect(),
        qos: vec!["normal".into()],
        names: Vec::new(),
        epoch: None,
        clock_origin: None,
    }
}

fn run(conf: &str, w: &SlurmWorkload) -> Vec<Outcome> {
    simulated(conf, w).outcomes
}

fn starts(outcomes: &[Outcome]) -> Vec<(i64, i64, bool)> {
    outcomes.iter().map(|o| (o.start, o.end, o.backfilled)).collect()
}

/// Two 4-CPU nodes, backfill every 10 s (the advance reservation and node
/// event tests).
const TWO_NODES: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=600
NodeName=n[1-2] CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=UNLIMITED
";

/// One 4-CPU node, FIFO priorities (priority/basic).
/// - 0: J1 (2 CPUs, limit 100) starts (main pass at its submission).
/// - 1: J2 (4 CPUs) is submitted; the pass 3 s after the previous one (at 3)
///   cannot start it: the partition is blocked, so J3 (2 CPUs, limit 50),
///   submitted at 2, is not tried although it fits.
/// - 10: backfill: J2's earliest start is J1's expected end, 100; it
///   reserves n1 for [100, 200). J3 fits now and ends (limit) by 60 < 100:
///   backfilled at 10. J4 (2 CPUs, limit 95) would end at 105 > 100: it only
///   reserves (n1 after 200).
/// - 50: J3 ends. 100: J1 ends, J2 starts. 200: J2 ends, J4 starts.
#[test]
fn backfill_starts_what_ends_before_the_reservation_and_nothing_else() {
    let w = workload(
        vec![job(1, 0, 2, 100, 100), job(2, 1, 4, 100, 100), job(3, 2, 2, 50, 40), job(4, 3, 2, 95, 10)],
        &["batch"],
    );
    let o = run(ONE_NODE, &w);
    assert_eq!(starts(&o), vec![(0, 100, false), (100, 200, false), (10, 50, true), (200, 210, false)]);
}

/// A run of whole seconds ends at its start's place in the second: J3,
/// started by the backfill pass at 10, ends at 30 after the pass at 30, as
/// on Slurm. On the 4-CPU node (backfill every 10 s): J1 (2 CPUs) runs
/// 0–100; J2 (4 CPUs) at 1 blocks the partition, reserved [100, 200) from
/// 10; J3 (2 CPUs, limit 30, run 20) at 2 is backfilled at 10; J4 (2 CPUs,
/// limit 50, run 10) at 25 finds the node full at 25 and in the pass at 30
/// (J3 still running), which reserves it [40, 90); J3's end, just after,
/// starts a main pass that J2 blocks; the pass at 40 starts J4. Were J3's
/// end before the pass at 30, J4 would start there, at 30.
#[test]
fn a_backfilled_run_ends_after_the_backfill_pass_of_its_last_second() {
    let w = workload(
        vec![job(1, 0, 2, 100, 100), job(2, 1, 4, 100, 100), job(3, 2, 2, 30, 20), job(4, 25, 2, 50, 10)],
        &["batch"],
    );
    let o = run(ONE_NODE, &w);
    assert_eq!(starts(&o), vec![(0, 100, false), (100, 200, false), (10, 30, true), (40, 50, true)]);
}

/// Without backfill (sched/builtin) the blocked partition keeps J3 and J4
/// waiting behind J2: strict priority order.
#[test]
fn without_backfill_the_queue_is_strictly_ordered() {
    let conf = ONE_NODE.replace("sched/backfill", "sched/builtin");
    let w = workload(
        vec![job(1, 0, 2, 100, 100), job(2, 1, 4, 100, 100), job(3, 2, 2, 50, 40), job(4, 3, 2, 95, 10)],
        &["batch"],
    );
    let o = run(&conf, &w);
    // 200: J2 ends; the pass starts J3 and J4 together (2 + 2 CPUs).
    assert_eq!(starts(&o), vec![(0, 100, false), (100, 200, false), (200, 240, false), (200, 210, false)]);
}

/// Jobs share a node by cores; a job runs no longer than its limit.
#[test]
fn jobs_share_a_node_by_cores_and_stop_at_their_limit() {
    let w = workload(vec![job(1, 0, 1, 50, 500), job(2, 0, 3, 100, 80), job(3, 0, 1, 100, 10)], &["batch"]);
    let o = run(ONE_NODE, &w);
    // J1 and J2 fill the node at 0; J1 is stopped at its 50-s limit, and J3
    // starts in the pass that follows.
    assert_eq!(starts(&o), vec![(0, 50, false), (0, 80, false), (50, 60, false)]);
}

const TWO_PARTITIONS: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=30
NodeName=c[1-2] CPUs=4 RealMemory=4000
NodeName=g1 CPUs=8 RealMemory=16000 Gres=gpu:2
PartitionName=cpu Nodes=c[1-2] Default=YES MaxTime=60
PartitionName=gpu Nodes=g1 MaxTime=60
";

/// GPUs are a node's own: two 1-GPU jobs share g1, a third waits for one of
/// them; a 2-node job takes both CPU nodes.
#[test]
fn gpus_and_nodes_are_allocated_per_node() {
    let gpu = |id, submit, gpus, run| SlurmJob {
        partition: 1,
        request: Tres { cpus: 2, mem_mib: 2000, nodes: 1, gpus },
        ..job(id, submit, 2, 600, run)
    };
    let wide = SlurmJob { request: Tres { cpus: 8, mem_mib: 4000, nodes: 2, gpus: 0 }, ..job(4, 0, 8, 600, 100) };
    let w = workload(vec![gpu(1, 0, 1, 100), gpu(2, 0, 1, 300), gpu(3, 0, 1, 50), wide], &["cpu", "gpu"]);
    let o = run(TWO_PARTITIONS, &w);
    assert_eq!(starts(&o), vec![(0, 100, false), (0, 300, false), (100, 150, false), (0, 100, false)]);
}

/// A job the machine can never run, or of a partition the conf lacks, is a
/// located error naming the job and the field.
#[test]
fn impossible_jobs_are_located_errors() {
    let conf = parse(TWO_PARTITIONS, Path::new("test.conf")).unwrap();
    let mut too_many = SlurmJob { partition: 1, ..job(7, 0, 2, 60, 10) };
    too_many.request.gpus = 3;
    too_many.origin = Origin::Dump { path: "dump.sacct".into(), line: 12 };
    let w = workload(vec![too_many], &["cpu", "gpu"]);
    let e = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).err().expect("refused");
    let text = e.to_string();
    assert!(text.contains("dump.sacct:12") && text.contains("job 7") && text.contains("gres/gpu"), "{text}");
    assert!(text.contains("no node of partition gpu has more than 2"), "{text}");

    let w = workload(vec![SlurmJob { partition: 1, ..job(8, 0, 2, 60, 10) }], &["cpu", "debug"]);
    let text =
        Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).err().expect("refused").to_string();
    assert!(text.contains("Partition") && text.contains("\"debug\" is not defined"), "{text}");
}

/// Fair Tree by hand: accounts A (u0 with 100 units of usage, u1 with none)
/// and B (u2 with 50). Level fair-share of the accounts: A 0.5/(100/150) =
/// 0.75, B 0.5/(50/150) = 1.5, so B's subtree ranks first: u2 gets rank 3.
/// In A, u1 (no usage: infinite) gets 2, u0 (0.5/1) gets 1. Factors: rank/3.
#[test]
fn fair_tree_ranks_by_hand() {
    let mut tree = FairTree::new(2, &[0, 0, 1]);
    tree.charge(0, 100.0);
    tree.charge(2, 50.0);
    tree.rank();
    assert_eq!([tree.factor(0), tree.factor(1), tree.factor(2)], [1.0 / 3.0, 2.0 / 3.0, 1.0]);
    // Decay scales every usage alike: the ranks stay.
    tree.decay(0.5);
    tree.rank();
    assert_eq!([tree.factor(0), tree.factor(1), tree.factor(2)], [1.0 / 3.0, 2.0 / 3.0, 1.0]);
    // Tied users share the higher rank ("1224"): no usage anywhere.
    let mut fresh = FairTree::new(1, &[0, 0, 0]);
    fresh.rank();
    assert_eq!([fresh.factor(0), fresh.factor(1), fresh.factor(2)], [1.0, 1.0, 1.0]);
}

/// Multifactor priority by hand on c[1-2] + g1 (3 nodes, 16 CPUs): a
/// 1-node, 4-CPU job of the gpu partition (PriorityJobFactor 2 of at most 2)
/// at age 30 of a 60-s PriorityMaxAge, with fair-share 0.25:
/// age 1000·0.5 + fair-share 2000·0.25 + size 600·(1/3 + 4/16)/2 +
/// partition 100·1 = 500 + 500 + 175 + 100 = 1275.
#[test]
fn multifactor_priority_by_hand() {
    let text = format!(
        "{TWO_PARTITIONS}PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightFairshare=2000\n\
         PriorityWeightJobSize=600\nPriorityWeightPartition=100\nPriorityMaxAge=1\n"
    )
    .replace("PartitionName=gpu Nodes=g1 MaxTime=60", "PartitionName=gpu Nodes=g1 MaxTime=60 PriorityJobFactor=2");
    let conf = parse(&text, Path::new("test.conf")).unwrap();
    let machine = Machine::new(&conf);
    let m = Multifactor::new(conf.priority.clone(), &machine);
    let need = Need { nodes: 1, cpus: 4, mem_mib: 0, gpus: 0 };
    let fixed = m.fixed(1, &need);
    assert_eq!(m.priority(fixed, 0, 30, 0.25), 1275);
    // At submission the age is 0; never below 1.
    assert_eq!(m.priority(fixed, 30, 30, 0.25), 775);
    let nothing =
        Multifactor::new(slasim_slurm::conf::PrioritySettings { multifactor: true, ..Default::default() }, &machine);
    assert_eq!(nothing.priority(nothing.fixed(0, &need), 0, 0, 0.0), 1);
}

use proptest::prelude::*;

/// A machine of `cpu_nodes` 4-CPU nodes (partition cpu) and `gpu_nodes`
/// 8-CPU, 2-GPU nodes (partition gpu), with multifactor priority and the
/// given scheduler type.
fn machine_conf(cpu_nodes: u32, gpu_nodes: u32, backfill: bool, memory: bool) -> String {
    format!(
        "SelectType=select/cons_tres\nSelectTypeParameters={}\nPriorityType=priority/multifactor\n\
         PriorityWeightAge=1000\nPriorityWeightFairshare=1000\nPriorityWeightJobSize=100\nPriorityCalcPeriod=1\n\
         PriorityMaxAge=10\nPriorityDecayHalfLife=0-0:30\nSchedulerType={}\n\
         SchedulerParameters=bf_interval=7,bf_resolution=5,bf_window=30,bf_max_job_test=20,default_queue_depth=5\n\
         NodeName=c[1-{cpu_nodes}] CPUs=4 RealMemory=4000\nNodeName=g[1-{gpu_nodes}] CPUs=8 RealMemory=8000 Gres=gpu:2\n\
         PartitionName=cpu Nodes=c[1-{cpu_nodes}] MaxTime=60\nPartitionName=gpu Nodes=g[1-{gpu_nodes}] MaxTime=60\n",
        if memory { "CR_Core_Memory" } else { "CR_Core" },
        if backfill { "sched/backfill" } else { "sched/builtin" },
    )
}

/// A drawn job: gap since the previous submission, partition (0 cpu, 1
/// gpu), nodes, CPUs and MiB per node, GPUs per node, limit in minutes, run
/// time, user and account.
type Drawn = (i64, u32, u32, u32, u64, u32, i64, i64, u32, u32);

/// The jobs `shapes` draw on [`machine_conf`]'s machine.
fn drawn_jobs(shapes: &[Drawn], cpu_nodes: u32, gpu_nodes: u32) -> Vec<SlurmJob> {
    let mut t = 0;
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(gap, part, nodes, cpus, mem, gpus, limit_min, run, user, account))| {
            t += gap;
            let nodes = nodes.min(if part == 0 { cpu_nodes } else { gpu_nodes });
            SlurmJob {
                id: i as u64 + 1,
                user,
                account,
                partition: part,
                partitions: Vec::new(),
                qos: 0,
                submit: t,
                submitted: t,
                time_limit: Some(limit_min * 60),
                run_time: run,
                request: Tres {
                    cpus: cpus.min(4) * nodes,
                    mem_mib: mem * u64::from(nodes),
                    nodes,
                    gpus: if part == 1 { gpus.min(2) * nodes } else { 0 },
                },
                logged: None,
                origin: Origin::Synthetic { index: i as u64 },
                constraints: None,
                reservation: None,
                relations: Default::default(),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(testing::cases(100))]

    /// A backfill pass reads the will-run test of a job without GPUs from
    /// its shape's fitting order; walking the running jobs one by one, as
    /// `_will_run_test` does, gives the same schedule: every start, end and
    /// node. Many small jobs on up to 15 nodes make long walks and nodes
    /// that hold a job only after several ends; jobs of dozens of nodes on
    /// more than 64 make orders of several blocks, with the nodes left to a
    /// job late in them. Weighted, the second half of the CPU nodes comes
    /// first in the partition's order.
    #[test]
    fn fitting_orders_schedule_as_walking_the_running_jobs(
        cpu_nodes in prop_oneof![1u32..16, 65u32..200],
        gpu_nodes in 1u32..3,
        memory in any::<bool>(),
        weighted in any::<bool>(),
        shapes in prop::collection::vec(
            (0i64..60, 0u32..2, 1u32..4, 1u32..5, 0u64..4000, 0u32..3, 1i64..30, 1i64..1500, 0u32..3, 0u32..2),
            1..120,
        ),
    ) {
        let mut text = machine_conf(cpu_nodes, gpu_nodes, true, memory);
        if weighted && cpu_nodes >= 4 {
            let half = cpu_nodes / 2;
            text = text.replace(
                &format!("NodeName=c[1-{cpu_nodes}] CPUs=4 RealMemory=4000\n"),
                &format!("NodeName=c[1-{half}] CPUs=4 RealMemory=4000 Weight=2\nNodeName=c[{}-{cpu_nodes}] CPUs=4 RealMemory=4000 Weight=1\n", half + 1),
            );
        }
        let conf = parse(&text, Path::new("prop.conf")).unwrap();
        // On a large machine a job asks for an eighth of it, or more.
        let wide = (cpu_nodes / 8).max(1);
        let shapes: Vec<Drawn> = shapes.iter().map(|&(g, p, n, c, m, x, l, r, u, a)| (g, p, n * wide, c, m, x, l, r, u, a)).collect();
        let w = workload(drawn_jobs(&shapes, cpu_nodes, gpu_nodes), &["cpu", "gpu"]);
        let scenario = || Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).unwrap();
        let by_order = simulate(scenario()).unwrap();
        let walked = simulate(scenario().walking_releases()).unwrap();
        prop_assert!(walked.counters.backfill_passes > 0);
        prop_assert_eq!(&by_order.outcomes, &walked.outcomes);
        for k in 0..w.jobs.len() {
            prop_assert_eq!(by_order.nodes_of(k), walked.nodes_of(k), "job {}'s nodes", w.jobs[k].id);
        }
    }

    /// Whatever the machine and the jobs: every job runs, after its
    /// submission, for its run time cut at its limit; no node ever holds
    /// more CPUs, memory or GPUs than it has; and without backfill, jobs of
    /// one partition and one priority start in submission order.
    #[test]
    fn slurm_schedules_respect_every_node_and_every_job(
        cpu_nodes in 1u32..4,
        gpu_nodes in 1u32..3,
        backfill in any::<bool>(),
        memory in any::<bool>(),
        shapes in prop::collection::vec(
            (0i64..400, 0u32..2, 1u32..3, 1u32..8, 0u64..4000, 0u32..3, 1i64..30, 1i64..2000, 0u32..2, 0u32..2),
            1..40,
        ),
    ) {
        let text = machine_conf(cpu_nodes, gpu_nodes, backfill, memory);
        let conf = parse(&text, Path::new("prop.conf")).unwrap();
        let w = workload(drawn_jobs(&shapes, cpu_nodes, gpu_nodes), &["cpu", "gpu"]);
        let scenario = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).unwrap();
        let machine = scenario.machine().clone();
        let sim = simulate(scenario).unwrap();
        // Every job ran, after its submission, for min(run, limit).
        for (job, o) in w.jobs.iter().zip(&sim.outcomes) {
            prop_assert!(o.start >= job.submit, "job {} started at {} before its submission {}", job.id, o.start, job.submit);
            prop_assert_eq!(o.end - o.start, job.run_time.min(job.time_limit.unwrap()));
            prop_assert_eq!(sim.nodes_of(w.jobs.iter().position(|j| j.id == job.id).unwrap()).len() as u32, job.request.nodes);
        }
        // Node capacity at every start.
        for (i, o) in sim.outcomes.iter().enumerate() {
            let mut used = vec![(0u32, 0u64, 0u32); machine.spec.len()];
            for (k, other) in sim.outcomes.iter().enumerate() {
                if other.start <= o.start && o.start < other.end {
                    let need = Need::of(&w.jobs[k].request, machine.consumable);
                    for &n in sim.nodes_of(k) {
                        let u = &mut used[n as usize];
                        u.0 += need.cpus;
                        u.1 += need.mem_mib;
                        u.2 += need.gpus;
                    }
                }
            }
            for (n, u) in used.iter().enumerate() {
                let size = machine.spec.size[n];
                prop_assert!(u.0 <= size.cpus && u.1 <= size.mem_mib && u.2 <= size.gpus,
                    "node {} over-allocated at {} (job {i}): {u:?} of {size:?}", machine.spec.names[n], o.start);
            }
        }
        // Without backfill, within a partition, equal-priority... submission
        // order holds for jobs of one user and size (their priorities are equal).
        if !backfill {
            for (a, ja) in w.jobs.iter().enumerate() {
                for (b, jb) in w.jobs.iter().enumerate().skip(a + 1) {
                    if ja.partition == jb.partition && ja.user == jb.user && ja.account == jb.account && ja.request == jb.request {
                        prop_assert!(sim.outcomes[a].start <= sim.outcomes[b].start,
                            "jobs {} and {}: same partition, user and size, started out of submission order", ja.id, jb.id);
                    }
                }
            }
        }
    }
}

/// Runs `w` on `conf` and hands back the whole simulation (outcomes, nodes).
fn simulated(conf: &str, w: &SlurmWorkload) -> slasim_slurm::bench::Simulated {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let scenario = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), w).expect("every job fits");
    simulate(scenario).expect("the run ends")
}

/// The first node (0-based, slurm.conf order) of each job.
fn first_nodes(sim: &slasim_slurm::bench::Simulated) -> Vec<u32> {
    (0..sim.outcomes.len()).map(|j| sim.nodes_of(j)[0]).collect()
}

/// cons_tres's `_eval_nodes` on 4 nodes of 4 CPUs (no backfill: one main
/// pass at 0 places every job, in id order; all run 100 s).
/// - J1 (3 CPUs): one run n1-n4 (16 free), best fit on a tie: n1 (free 1,4,4,4).
/// - J2 (3): n1 cannot hold it; run n2-n4: n2 (free 1,1,4,4).
/// - J3 (4): run n3-n4, tie: n3 (free 1,1,0,4). J4 (3): only n4 (free 1,1,0,1).
/// - J5 (1): runs {n1,n2} with 2 free CPUs and {n4} with 1: the tighter run
///   wins, n4. (The old rule, the fewest free CPUs first on a tie, said n1;
///   the first run that suffices would say n1 too.)
///
/// Then on n1-n3 of 4 CPUs and n4 of 3 (free 4,4,4,3): a 3-CPU job sees one
/// run n1-n4 and takes its tightest node, n4 (best fit inside the run, not
/// the run's first node).
#[test]
fn cons_tres_takes_the_tightest_run_then_the_tightest_node_of_it() {
    let conf = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
NodeName=n[1-4] CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=UNLIMITED
";
    let w = workload(
        vec![
            job(1, 0, 3, 100, 100),
            job(2, 0, 3, 100, 100),
            job(3, 0, 4, 100, 100),
            job(4, 0, 3, 100, 100),
            job(5, 0, 1, 100, 100),
        ],
        &["batch"],
    );
    let sim = simulated(conf, &w);
    assert!(sim.outcomes.iter().all(|o| o.start == 0), "{:?}", starts(&sim.outcomes));
    assert_eq!(first_nodes(&sim), vec![0, 1, 2, 3, 3]);

    let uneven = conf.replace(
        "NodeName=n[1-4] CPUs=4 RealMemory=1000",
        "NodeName=n[1-3] CPUs=4 RealMemory=1000\nNodeName=n4 CPUs=3 RealMemory=1000",
    );
    let sim = simulated(&uneven, &workload(vec![job(1, 0, 3, 100, 100)], &["batch"]));
    assert_eq!(first_nodes(&sim), vec![3]);
}

/// A reservation that begins exactly when a job would end blocks it
/// (node_space's `begin_time <= end_time`). One 4-CPU node, bf_interval 10.
/// - 0: J1 (2 CPUs, limit 100) starts. 1: J2 (4 CPUs) is submitted; the
///   pass at 3 cannot start it and blocks the partition.
/// - 10: backfill: J2's start is J1's expected end, 100: n1 is reserved from
///   100 rounded down to bf_resolution (100 with 1 s; 90 with 30 s). J3
///   (2 CPUs) has the limit that ends exactly there (90 s; 80 s): not
///   backfilled; it reserves n1 after J2's reservation. J4 (2 CPUs) ends one
///   second earlier (limit 89 s; 79 s): backfilled at 10.
/// - J4 ends; 100: J1 ends, J2 starts; 200: J2 ends, J3 starts.
#[test]
fn backfill_refuses_a_job_that_ends_exactly_when_a_reservation_begins() {
    for (resolution, limit) in [(1, 90), (30, 80)] {
        let conf = ONE_NODE.replace("bf_resolution=1", &format!("bf_resolution={resolution}"));
        let w = workload(
            vec![
                job(1, 0, 2, 100, 100),
                job(2, 1, 4, 100, 100),
                job(3, 2, 2, limit, limit),
                job(4, 3, 2, limit - 1, limit - 1),
            ],
            &["batch"],
        );
        let o = run(&conf, &w);
        assert_eq!(
            starts(&o),
            vec![(0, 100, false), (100, 200, false), (200, 200 + limit, false), (10, 9 + limit, true)],
            "bf_resolution={resolution}"
        );
    }
}

/// cons_tres's will-run test takes the running jobs away in batches aligned
/// on 30 s of the Unix epoch. One 8-CPU node, bf_interval 10, bf_resolution 1.
/// - 0: A (3 CPUs, limit 100) and B (3 CPUs, limit 140) start: 2 CPUs free.
///   J (4 CPUs, limit 100, submitted at 1) is blocked at 3; K (2 CPUs, limit
///   95, submitted at 2) is not tried.
/// - 10, workload epoch 0: A's expected end 100 rounds up to the barrier
///   120; the first batch holds every end up to 120 + 30 = 150, B's 140 too.
///   J fits after it: its planned start is B's end, 140, not 100 (when it
///   would already fit, with 5 free CPUs). K ends by 105 < 140: backfilled.
///   100: A ends, J does not fit (3 free); 105: K ends, J starts.
/// - Epoch 1_699_999_999 (≡ 19 mod 30): 100 is Unix …119, so the barrier is
///   101 and the batch ends at 131: A alone. J's planned start is 100; K
///   would end at 105 and is refused. 100: J starts; 140: B ends, K starts.
#[test]
fn will_run_batches_are_aligned_on_the_epoch_and_plan_the_batchs_last_end() {
    let conf = ONE_NODE.replace("CPUs=4", "CPUs=8");
    let jobs = vec![job(1, 0, 3, 100, 100), job(2, 0, 3, 140, 140), job(3, 1, 4, 100, 100), job(4, 2, 2, 95, 95)];
    let mut w = workload(jobs, &["batch"]);
    assert_eq!(starts(&run(&conf, &w)), vec![(0, 100, false), (0, 140, false), (105, 205, false), (10, 105, true)]);
    w.epoch = Some(1_699_999_999);
    assert_eq!(starts(&run(&conf, &w)), vec![(0, 100, false), (0, 140, false), (100, 200, false), (140, 235, false)]);
}

/// The backfill map's times are rounded to `bf_resolution` of Unix time,
/// not of the run's time 0. One 8-CPU node, bf_resolution 5, every job
/// submitted at 0.
/// - J1 (4 CPUs, 100 s) starts; J2 (8 CPUs, limit 50) waits for it: its
///   reservation is from J1's expected end, 100, to 150.
/// - Workload epoch 0: the reservation begins at 100. J3 (4 CPUs, limit 98)
///   ends before it and is backfilled at 0.
/// - Epoch 3: 100 is Unix …103, rounded down to …100, so the reservation
///   begins at 97 and J3 (to 98) would overlap it: J3 waits and starts when
///   J2 ends, at 150.
#[test]
fn the_backfill_map_is_rounded_on_unix_time() {
    let conf = ONE_NODE.replace("CPUs=4", "CPUs=8").replace("bf_resolution=1", "bf_resolution=5");
    let jobs = vec![job(1, 0, 4, 100, 100), job(2, 0, 8, 50, 50), job(3, 0, 4, 98, 98)];
    let mut w = workload(jobs, &["batch"]);
    assert_eq!(starts(&run(&conf, &w)), vec![(0, 100, false), (100, 150, false), (0, 98, true)]);
    w.epoch = Some(3);
    assert_eq!(starts(&run(&conf, &w)), vec![(0, 100, false), (100, 150, false), (150, 248, false)]);
}

/// batch_sched_delay is counted from the background loop's own passes (its
/// submission passes and its full passes every sched_interval = 60 s), not
/// from the passes that job ends run. One 4-CPU node, no backfill.
/// - 0: J1 (4 CPUs, 10 s) starts in the submission pass at 0. 10: it ends;
///   that pass does not count.
/// - 11: J2 (2 CPUs, 5 s): the previous background pass was at 0, so the
///   pass is at max(11, 0 + 3) = 11: J2 starts at 11 (not 13).
/// - 12: J3 (2 CPUs, 5 s): the pass at 11 counts: max(12, 11 + 3) = 14.
/// - 60: the full pass (idle machine). 61: J4: max(61, 60 + 3) = 63.
#[test]
fn batch_sched_delay_counts_only_the_background_loops_passes() {
    let conf = ONE_NODE.replace("sched/backfill", "sched/builtin");
    let w =
        workload(vec![job(1, 0, 4, 10, 10), job(2, 11, 2, 5, 5), job(3, 12, 2, 5, 5), job(4, 61, 2, 5, 5)], &["batch"]);
    assert_eq!(starts(&run(&conf, &w)), vec![(0, 10, false), (11, 16, false), (14, 19, false), (63, 68, false)]);
}

/// The backfill agent's `_more_work`. One 4-CPU node, bf_interval 10,
/// bf_max_job_test 2, PriorityCalcPeriod 60 s, sched_interval 60 s.
/// - 0: J1 (2 CPUs, 200 s) starts; backfill passes at 0 and 10 (the start
///   at 0 is in the second of the pass at 0), then none: nothing changes.
/// - 60: the priority tick finds no pending job: no change, so no backfill
///   pass (else one at 60, and the next not before 70).
/// - 65: J2 (4 CPUs, limit 100), K1 and K2 (1 CPU, limit 50 each) arrive;
///   the pass at 65 blocks on J2. Backfill at 65 (the last pass was at 10):
///   J2 reserves n1 from 200; K1 starts (ends at 115 < 200); then the pass
///   has tested its 2 jobs.
/// - 75: K1's start was in the second of the previous pass: the next pass
///   runs, and starts K2 (not at K1's end, 115, the next change).
/// - 200: J1 ends, J2 starts.
#[test]
fn backfill_runs_again_after_a_change_in_its_second_and_not_after_an_idle_tick() {
    let conf = ONE_NODE
        .replace("bf_window=60", "bf_window=60,bf_max_job_test=2")
        .replace("SchedulerType", "PriorityCalcPeriod=1\nSchedulerType");
    let w = workload(
        vec![job(1, 0, 2, 200, 200), job(2, 65, 4, 100, 100), job(3, 65, 1, 50, 50), job(4, 65, 1, 50, 50)],
        &["batch"],
    );
    let sim = simulated(&conf, &w);
    assert_eq!(starts(&sim.outcomes), vec![(0, 200, false), (200, 300, false), (65, 115, true), (75, 125, true)]);
}

/// A store whose `slurm_jobs` an older build made (without `reason`, and
/// with −1 and '' for a job that never started) gets the column when opened
/// for writing, and then agrees with the descriptors; its rows read the
/// column's default (NULL), and the old sentinels read NULL.
#[test]
fn an_older_stores_slurm_table_gets_the_new_columns() {
    let registry = slasim_core::experiment::registry::Registry::new(&[&slasim_slurm::KIND]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    slasim_core::store::Store::open(&path, registry.groups()).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE slurm_jobs;
             CREATE TABLE slurm_jobs (
                 point_id INTEGER NOT NULL, job INTEGER NOT NULL, slurm_id INTEGER NOT NULL,
                 user TEXT NOT NULL, account TEXT NOT NULL, partition TEXT NOT NULL,
                 submit INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
                 wait INTEGER NOT NULL, cpus INTEGER NOT NULL, mem_mib INTEGER NOT NULL,
                 nodes INTEGER NOT NULL, gpus INTEGER NOT NULL, time_limit INTEGER NOT NULL,
                 priority INTEGER NOT NULL, backfilled INTEGER NOT NULL, first_node TEXT NOT NULL,
                 logged_start INTEGER, PRIMARY KEY (point_id, job));
             INSERT INTO slurm_jobs VALUES (1, 0, 7, 'a', 'p', 'batch', 0, 5, 9, 5, 1, 0, 1, 0, 60, 1, 0, 'n1', NULL);
             INSERT INTO slurm_jobs VALUES (1, 1, 8, 'a', 'p', 'batch', 0, -1, -1, -1, 1, 0, 1, 0, -1, 1, 0, '', NULL);",
        )
        .unwrap();
    }
    slasim_core::store::Store::open(&path, registry.groups()).unwrap();
    assert_eq!(
        slasim_core::store::schema::facts::schema_mismatches(&path, registry.groups()).unwrap(),
        Vec::<String>::new()
    );
    let sql =
        "SELECT slurm_id, reason IS NULL, start, \"end\", wait, time_limit, first_node FROM slurm_jobs ORDER BY job";
    let rows = slasim_core::store::query(&path, sql).unwrap().rows;
    let row = |r: [&str; 7]| r.map(str::to_string).to_vec();
    assert_eq!(rows, [row(["7", "1", "5", "9", "5", "60", "n1"]), row(["8", "1", "", "", "", "", ""])]);
}

/// The Slurm tables, registered, are described column by column like every
/// other table, written through their descriptors' INSERTs, and join the
/// `all_jobs` view.
#[test]
fn the_slurm_tables_are_described_and_join_the_common_job_view() {
    let registry = slasim_core::experiment::registry::Registry::new(&[&slasim_slurm::KIND]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    slasim_core::store::Store::open(&path, registry.groups()).unwrap();
    assert_eq!(
        slasim_core::store::schema::facts::schema_mismatches(&path, registry.groups()).unwrap(),
        Vec::<String>::new()
    );
    let names: Vec<&str> =
        slasim_core::store::tables::described_tables(registry.groups()).iter().map(|t| t.name()).collect();
    for table in ["slurm_points", "slurm_groups", "slurm_jobs", "slurm_reasons"] {
        assert!(names.contains(&table), "{table} has no descriptors");
    }
    assert_eq!(
        slasim_slurm::tables::SLURM_GROUPS.insert_sql(1),
        "INSERT INTO slurm_groups (point_id, grouping, name, jobs, mean_wait, max_wait, cpu_seconds, \
         gpu_seconds, p95_wait) VALUES (?,?,?,?,?,?,?,?,?)"
    );
    let view = slasim_core::store::query(&path, "SELECT sql FROM sqlite_master WHERE name = 'all_jobs'").unwrap();
    assert!(view.rows[0][0].contains("FROM slurm_jobs"), "{:?}", view.rows);
}

/// The backfill agent keeps its phase while its passes estimate
/// (`backfill_agent`, `_attempt_backfill`'s `last_job_update`). One 4-CPU
/// node, bf_interval 10, FIFO.
/// - 0: J1 (2 CPUs, 100 s) starts; J2 (4 CPUs) blocks the partition. The
///   backfill pass at 0 gives J2 a start (100): work for the pass at 10,
///   which does the same, and so on every 10 s.
/// - 37: K (2 CPUs, limit 50, run 20) arrives; the main pass stops at J2.
///   The agent's next pass is at 40: K starts then (ends by 90 < 100), to
///   60. (Were the agent to pass only after a change, K would start at 37.)
/// - With the agent started at −7: its first check at 3 passes, so its
///   passes are at 3, 13, ... and K starts at 43.
#[test]
fn the_backfill_agent_passes_every_interval_while_it_estimates() {
    let w = workload(vec![job(1, 0, 2, 100, 100), job(2, 0, 4, 100, 100), job(3, 37, 2, 50, 20)], &["batch"]);
    let sim = simulated(ONE_NODE, &w);
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (100, 200, false), (40, 60, true)]);
    let conf = parse(ONE_NODE, Path::new("test.conf")).expect("the test conf parses");
    let scenario = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w)
        .expect("every job is admitted")
        .backfill_started_at(-7);
    let sim = simulate(scenario).expect("the run ends");
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (100, 200, false), (43, 63, true)]);
}

/// A job submitted to begin later is a change for the backfill agent from
/// its submission (`last_job_update`), before it may start. One 4-CPU node,
/// bf_interval 10; J1 (1 CPU, 100 s) at 0; K (1 CPU, 10 s) may start at
/// 50. Each change is work for the pass in its second or the next one:
/// with K submitted at 50 the agent passes at 0 and 10 (J1's start), 50
/// and 60 (K's start; that pass also sees K's end), 70, 100 and 110 (J1's
/// end): 7 passes. Submitted at 17, it also passes at
/// 20 (`bf_interval` after 10): 8.
#[test]
fn a_submission_to_begin_later_is_work_for_the_backfill_agent() {
    let k = |submitted| SlurmJob { submitted, ..job(2, 50, 1, 10, 10) };
    let passes = |submitted| {
        let w = workload(vec![job(1, 0, 1, 100, 100), k(submitted)], &["batch"]);
        let sim = simulated(ONE_NODE, &w);
        assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (50, 60, false)]);
        sim.counters.backfill_passes
    };
    assert_eq!((passes(50), passes(17)), (7, 8));
}
