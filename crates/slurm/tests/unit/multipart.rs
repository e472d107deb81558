//! Jobs of several partitions (`sbatch -p a,b`), by hand.

use std::path::{Path, PathBuf};

use slasim_data::trace::sacct::jobs::{Origin, SlurmJob, SlurmWorkload};
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::parse;

/// Two 4-CPU nodes, one per partition: `a` (na, PriorityJobFactor 1) and
/// `b` (nb, PriorityJobFactor 3). Multifactor priority with only the job
/// size (1000) and partition (300) weights: a job's priority is
/// `1000·(nodes/2 + CPUs/8)/2 + 300·factor/3`. A 1-node job of 4 CPUs has
/// size 500, of 2 CPUs 375; partition a adds 100, b 300.
const A_AND_B: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=600
PriorityType=priority/multifactor
PriorityWeightAge=0
PriorityWeightFairshare=0
PriorityWeightJobSize=1000
PriorityWeightPartition=300
NodeName=na CPUs=4 RealMemory=1000
NodeName=nb CPUs=4 RealMemory=1000
PartitionName=a Nodes=na Default=YES MaxTime=UNLIMITED PriorityJobFactor=1
PartitionName=b Nodes=nb MaxTime=UNLIMITED PriorityJobFactor=3
";

fn run(conf: &str, w: &SlurmWorkload) -> Simulated {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let scenario =
        Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), w).expect("every job is admitted");
    simulate(scenario).expect("the run ends")
}

/// Job `id` of partition `p` (0: a, 1: b), or of `a,b` with `p` 2.
fn job(id: u64, p: u32, submit: i64, cpus: u32, limit: i64, run: i64) -> SlurmJob {
    let j = crate::job(id, submit, cpus, limit, run);
    match p {
        2 => SlurmJob { partition: 0, partitions: vec![0, 1], ..j },
        p => SlurmJob { partition: p, ..j },
    }
}

/// (start, end, partition started in) per job.
fn starts(sim: &Simulated) -> Vec<(i64, i64, u16)> {
    sim.outcomes.iter().map(|o| (o.start, o.end, o.partition)).collect()
}

/// J1 (a, 4 CPUs) fills na from 0 to 100. M (`-p a,b`, 4 CPUs, run 50) is
/// submitted at 1; its first pass is the background loop's, 3 s after the
/// one at 0. Its records: b (500 + 300 = 800) before a (500 + 100 = 600).
/// In b, nb is free: M starts at 3 on nb, ends at 53, partition b. Tried
/// only in a, it would wait for J1's end at 100.
#[test]
fn a_job_of_a_and_b_starts_in_b_when_a_is_full() {
    let w = crate::workload(vec![job(1, 0, 0, 4, 100, 100), job(2, 2, 1, 4, 100, 50)], &["a", "b"]);
    let sim = run(A_AND_B, &w);
    assert_eq!(starts(&sim), [(0, 100, 0), (3, 53, 1)]);
    assert_eq!(sim.nodes_of(1), [1]);
    assert_eq!(sim.outcomes[1].priority, 800, "the priority of its record in b");
}

/// J0 (b, 4 CPUs) holds nb until 100, J1 (a, 4 CPUs) na until 200. At 5:
/// Y (b, 2 CPUs, run 50) and M (`-p a,b`, 4 CPUs, run 50). Priorities:
/// Y 375 + 300 = 675; M in b 500 + 300 = 800, in a 500 + 100 = 600. At
/// 100 (J0's end) the queue is M in b (800), Y (675), M in a (600): M
/// starts on nb, 100–150; Y then finds b full (b blocked), and starts at
/// 150. With one priority per job (its first partition's, 600), Y would
/// go first at 100 and M would wait for it: 150–200.
#[test]
fn each_partition_gives_the_job_its_own_priority() {
    let w = crate::workload(
        vec![job(1, 1, 0, 4, 100, 100), job(2, 0, 0, 4, 200, 200), job(3, 1, 5, 2, 50, 50), job(4, 2, 5, 4, 50, 50)],
        &["a", "b"],
    );
    let sim = run(A_AND_B, &w);
    assert_eq!(starts(&sim), [(0, 100, 1), (0, 200, 0), (150, 200, 1), (100, 150, 1)]);
    assert_eq!(sim.outcomes[3].priority, 800);
}

/// Both nodes free, equal factors: M (`-p a,b`) at 0 goes to the first
/// partition of its list, a, unless b has the higher `PriorityTier`: its
/// records are queued by their partitions' tiers (`sort_job_queue2`), and
/// its list is sorted by tier (`priority_sort_part_tier`).
#[test]
fn the_higher_tier_is_tried_first() {
    let equal = A_AND_B.replace("PriorityJobFactor=3", "PriorityJobFactor=1");
    let w = crate::workload(vec![job(1, 2, 0, 4, 100, 50)], &["a", "b"]);
    assert_eq!(starts(&run(&equal, &w)), [(0, 50, 0)]);
    let tiered = equal.replace("PartitionName=b Nodes=nb", "PartitionName=b Nodes=nb PriorityTier=2");
    assert_eq!(starts(&run(&tiered, &w)), [(0, 50, 1)]);
}

/// A partition of the list that the conf lacks is an error naming the
/// dump's line, the job and `Partition`; no scenario is built.
#[test]
fn an_unknown_partition_in_the_list_is_a_located_error() {
    let bad = SlurmJob {
        partitions: vec![0, 2],
        origin: Origin::Dump { path: PathBuf::from("d.sacct"), line: 3 },
        ..job(7, 0, 0, 1, 60, 10)
    };
    let w = crate::workload(vec![job(1, 0, 0, 1, 60, 10), bad], &["a", "b", "zz"]);
    let conf = parse(A_AND_B, Path::new("test.conf")).expect("the test conf parses");
    let err = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).err().expect("refused");
    assert_eq!(
        err.to_string(),
        "d.sacct:3: job 7: Partition: partition \"zz\" of the job's list `a,zz` is not defined by the slurm.conf \
         (it has a, b)"
    );
}

/// Preemption by partition sees the partition a record is tried in. na is
/// partition `a` (PriorityTier 3); nb is `b` (tier 1) and `hi` (tier 2).
/// J1 (b) holds nb and J2 (a) holds na from 0 to 1000. M (`-p a,hi`, 4
/// CPUs, run 50) at 1: the pass at 3 tries it in a first (tier 3): na is
/// full and a's jobs preempt none of a's tier, so a is blocked. Then in
/// hi: hi (tier 2) may preempt b (tier 1) on nb, so J1 is cancelled at 3;
/// M waits for the main pass after J1's epilog and starts in hi at 3, to 53. Were
/// it tried as a job of a in both, it would preempt nothing and wait for
/// 1000.
#[test]
fn preemption_by_partition_sees_the_partition_tried() {
    let conf = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=600
PreemptType=preempt/partition_prio
PreemptMode=CANCEL
NodeName=na CPUs=4 RealMemory=1000
NodeName=nb CPUs=4 RealMemory=1000
PartitionName=a Nodes=na Default=YES MaxTime=UNLIMITED PriorityTier=3
PartitionName=b Nodes=nb MaxTime=UNLIMITED PriorityTier=1
PartitionName=hi Nodes=nb MaxTime=UNLIMITED PriorityTier=2
";
    let m = SlurmJob { partition: 0, partitions: vec![0, 2], ..crate::job(3, 1, 4, 100, 50) };
    let w = crate::workload(vec![job(1, 1, 0, 4, 1000, 1000), job(2, 0, 0, 4, 1000, 1000), m], &["a", "b", "hi"]);
    let parsed = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let none = slasim_slurm::accounting::Accounting::default();
    let scenario = Scenario::new(&parsed, parsed.priority.clone(), parsed.scheduler.clone(), &w)
        .expect("every job is admitted")
        .with_preemption(&parsed, &none, &w)
        .expect("preemption is modelled");
    let sim = simulate(scenario).expect("the run ends");
    assert_eq!(starts(&sim), [(0, 3, 1), (0, 1000, 0), (3, 53, 2)]);
    assert!(sim.outcomes[0].preempt_cancelled);
    assert_eq!(sim.counters.preemptions, 1);
}

/// A dump read and replayed: J10 ran in a (0–100); J11 was submitted at 1
/// with `-p a,b` and ran in b, as the `Partition` column says. Replayed on
/// `A_AND_B`, J11 starts in b at 3 (the batch pass, a being full), on nb.
/// A list naming a partition the conf lacks is refused, naming the line.
#[test]
fn a_dump_with_a_job_of_two_partitions_replays_and_an_unknown_one_is_refused() {
    use slasim_data::trace::sacct::{NativeOptions, parse_native};
    let t = 1_700_000_000i64;
    let head = "JobIDRaw|JobID|User|Partition|Submit|Start|End|Timelimit|AllocCPUS|State|SubmitLine\n";
    let line = |raw: u64, partition: &str, times: [i64; 3], submit_line: &str| {
        let [s, st, en] = times.map(|x| x + t);
        format!("{raw}|{raw}|alice|{partition}|{s}|{st}|{en}|00:10:00|4|COMPLETED|{submit_line}\n")
    };
    let read = |text: String| {
        parse_native(Path::new("d.sacct"), std::io::Cursor::new(text.into_bytes()), NativeOptions::default())
            .expect("the dump reads")
            .0
    };
    let w = read(
        head.to_string()
            + &line(10, "a", [0, 0, 100], "sbatch -p a big.sh")
            + &line(11, "b", [1, 3, 53], "sbatch -p a,b --wrap='sleep 50'"),
    );
    let sim = run(A_AND_B, &w);
    assert_eq!(starts(&sim), [(0, 100, 0), (3, 53, 1)]);
    assert_eq!(sim.nodes_of(1), [1]);
    let bad = read(
        head.to_string()
            + &line(10, "a", [0, 0, 100], "sbatch big.sh")
            + &line(11, "b", [1, 3, 53], "sbatch -p b,c x.sh"),
    );
    let conf = parse(A_AND_B, Path::new("test.conf")).expect("the test conf parses");
    let err = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &bad).err().expect("refused");
    assert!(
        err.to_string().starts_with("d.sacct:3: job 11: Partition: partition \"c\" of the job's list `b,c`"),
        "{err}"
    );
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(64))]

    /// Whatever the partitions (a and b apart, c over both, random tiers
    /// and factors) and the jobs (each of one, two or three of them): every
    /// job runs once, after its submission, for its run time cut at its
    /// limit, in one of its partitions and on that partition's nodes; no
    /// node ever holds more CPUs than it has; and the run is the same
    /// twice. With `bf_one_resv_per_job` or without.
    #[test]
    fn a_job_of_several_partitions_runs_once_in_one_of_them(
        tiers in proptest::collection::vec(1u32..3, 3),
        factors in proptest::collection::vec(1u32..4, 3),
        backfill in proptest::bool::ANY,
        one_resv in proptest::bool::ANY,
        shapes in proptest::collection::vec((0i64..40, 1u32..8, 1u32..5, 1i64..5, 1i64..300), 1..30),
    ) {
        let part = |name: &str, nodes: &str, k: usize| {
            format!("PartitionName={name} Nodes={nodes} MaxTime=UNLIMITED PriorityTier={} PriorityJobFactor={}\n", tiers[k], factors[k])
        };
        let conf = format!(
            "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nPriorityType=priority/multifactor\n\
             PriorityWeightAge=100\nPriorityWeightJobSize=100\nPriorityWeightPartition=1000\nPriorityCalcPeriod=1\n\
             PriorityMaxAge=1\nSchedulerType={}\nSchedulerParameters=bf_interval=7,bf_resolution=5,bf_window=30{}\n\
             NodeName=n[1-4] CPUs=4 RealMemory=1000\n{}{}{}",
            if backfill { "sched/backfill" } else { "sched/builtin" },
            if one_resv { ",bf_one_resv_per_job" } else { "" },
            part("a", "n[1-2]", 0),
            part("b", "n[3-4]", 1),
            part("c", "n[1-4]", 2),
        );
        let mut t = 0;
        let jobs: Vec<SlurmJob> = shapes
            .iter()
            .enumerate()
            .map(|(i, &(gap, list, cpus, limit_min, run))| {
                t += gap;
                // `list`'s bits: a, b, c.
                let parts: Vec<u32> = (0..3).filter(|k| list & (1 << k) != 0).collect();
                let j = crate::job(i as u64 + 1, t, cpus.min(4), limit_min * 60, run);
                SlurmJob { partition: parts[0], partitions: if parts.len() > 1 { parts } else { Vec::new() }, ..j }
            })
            .collect();
        let w = crate::workload(jobs, &["a", "b", "c"]);
        let parsed = parse(&conf, Path::new("prop.conf")).expect("the conf parses");
        let scenario = || Scenario::new(&parsed, parsed.priority.clone(), parsed.scheduler.clone(), &w).expect("admitted");
        let machine = scenario().machine().clone();
        let sim = simulate(scenario()).expect("the run ends");
        for (k, (job, o)) in w.jobs.iter().zip(&sim.outcomes).enumerate() {
            proptest::prop_assert!(o.start >= job.submit, "job {} started before its submission", job.id);
            proptest::prop_assert_eq!(o.end - o.start, job.run_time.min(job.time_limit.unwrap_or(0)));
            let listed = if job.partitions.is_empty() { vec![job.partition] } else { job.partitions.clone() };
            proptest::prop_assert!(listed.contains(&u32::from(o.partition)), "job {} ran in {}", job.id, o.partition);
            let nodes = &machine.partitions[o.partition as usize].nodes;
            proptest::prop_assert!(sim.nodes_of(k).iter().all(|n| nodes.contains(n)), "job {} off its partition", job.id);
        }
        for o in &sim.outcomes {
            let mut used = [0u32; 4];
            for (k, other) in sim.outcomes.iter().enumerate() {
                if other.start <= o.start && o.start < other.end {
                    for &n in sim.nodes_of(k) {
                        used[n as usize] += w.jobs[k].request.cpus;
                    }
                }
            }
            proptest::prop_assert!(used.iter().all(|&u| u <= 4), "a node over-allocated at {}: {used:?}", o.start);
        }
        let again = simulate(scenario()).expect("the run ends");
        proptest::prop_assert_eq!(&sim.outcomes, &again.outcomes);
    }
}

/// `bf_one_resv_per_job`. J1 (a, 2 CPUs) runs on na 0–300, J2 (b, 4 CPUs)
/// on nb 0–100. M (`-p a,b`, 4 CPUs, limit 100) is submitted at 1, Y (a,
/// 2 CPUs, limit 400, runs 50) at 2. The main scheduler blocks both
/// partitions at M's records (b 800, a 600); Y (475) waits for backfill.
/// - Default: the pass at 10 reserves nb for M in b from 100 and na for M
///   in a from 300 (J1's end). Y on na's 2 free CPUs, [10, 410), would
///   overlap M's reservation there: it does not start. At 100 M starts in
///   b; the pass at 100 finds na's 2 CPUs free of reservations, and Y
///   starts then.
/// - With `bf_one_resv_per_job`, M's record in a, after its record in b
///   got an estimate, is tested to start now only and reserves nothing:
///   Y starts on na in the pass at 10.
#[test]
fn bf_one_resv_per_job_reserves_once_per_job() {
    let w = crate::workload(
        vec![job(1, 0, 0, 2, 300, 300), job(2, 1, 0, 4, 100, 100), job(3, 2, 1, 4, 100, 100), job(4, 0, 2, 2, 400, 50)],
        &["a", "b"],
    );
    let once = A_AND_B.replace("bf_window=600", "bf_window=600,bf_one_resv_per_job");
    assert_ne!(once, A_AND_B);
    let default = run(A_AND_B, &w);
    assert_eq!(starts(&default), [(0, 300, 0), (0, 100, 1), (100, 200, 1), (100, 150, 0)]);
    assert_eq!(starts(&run(&once, &w)), [(0, 300, 0), (0, 100, 1), (100, 200, 1), (10, 60, 0)]);
}
