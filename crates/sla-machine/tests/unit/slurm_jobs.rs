//! A sacct dump's jobs on their slurm.conf's machine, worked out by hand,
//! under the planners and the twin; the synthetic workload's batteries; and
//! what a Slurm workload cannot ask of the planners.

use std::path::Path;

use slasim_single::workload::failures::FailureSource;
use slasim_sla_machine::battery::{JobResult, measure};
use slasim_sla_machine::kind::{Arrivals, SlaMachineSettings};
use slasim_slurm::synthetic::SlurmSynthetic;

/// Two CPU nodes (c1 has the feature `big`; c2 has half c1's memory) and a
/// node of 2 GPUs, in two partitions.
const CONF: &str = "ClusterName=t
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
GresTypes=gpu
NodeName=c1 CPUs=4 RealMemory=8192 Features=big
NodeName=c2 CPUs=4 RealMemory=4096
NodeName=g1 CPUs=8 RealMemory=16384 Gres=gpu:2
PartitionName=cpu Nodes=c[1-2] Default=YES MaxTime=1:00:00 State=UP
PartitionName=gpu Nodes=g1 MaxTime=1:00:00 State=UP
";

/// Five jobs (times from 00:00:00; limits above their run times):
/// J1 at 0 s: a whole CPU node, limit 600 s, runs 300.
/// J2 at 10: 2 CPUs of a `big` node, limit 600, runs 600.
/// J3 at 20: 1 GPU, limit 1,200, runs 100.
/// J4 at 30: 2 GPUs, limit 600, runs 600.
/// J5 at 40: both CPU nodes whole, limit 300, runs 300.
const DUMP: &str = "JobIDRaw|JobID|User|Account|Partition|QOS|Submit|Start|End|Timelimit|ReqTRES|AllocCPUS|Constraints|State
1|1|alice|a|cpu|normal|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:05:00|00:10:00|cpu=4,mem=1024M,node=1|4||COMPLETED
2|2|bob|a|cpu|normal|2024-01-01T00:00:10|2024-01-01T00:05:00|2024-01-01T00:15:00|00:10:00|cpu=2,mem=1024M,node=1|2|big|COMPLETED
3|3|carol|b|gpu|normal|2024-01-01T00:00:20|2024-01-01T00:00:20|2024-01-01T00:02:00|00:20:00|cpu=4,mem=4096M,node=1,gres/gpu=1|4||COMPLETED
4|4|carol|b|gpu|normal|2024-01-01T00:00:30|2024-01-01T00:02:00|2024-01-01T00:12:00|00:10:00|cpu=4,mem=4096M,node=1,gres/gpu=2|4||COMPLETED
5|5|alice|a|cpu|normal|2024-01-01T00:00:40|2024-01-01T00:15:00|2024-01-01T00:20:00|00:05:00|cpu=8,mem=2048M,node=2|8||COMPLETED
";

pub fn on_conf(dir: &Path, dump: Option<&str>, strategy: &str) -> SlaMachineSettings {
    std::fs::write(dir.join("t.conf"), CONF).unwrap();
    if let Some(dump) = dump {
        std::fs::write(dir.join("t.sacct"), dump).unwrap();
    }
    SlaMachineSettings {
        conf: Some(dir.join("t.conf")),
        trace: dump.map(|_| dir.join("t.sacct")),
        strategy: strategy.into(),
        sla_terms: "uniform".into(),
        batteries: 1,
        ..SlaMachineSettings::default()
    }
}

fn run(settings: SlaMachineSettings) -> anyhow::Result<Vec<JobResult>> {
    let point = settings.resolve()?;
    point.results(&point.open()?)
}

type Row = (Option<i64>, Option<i64>, Option<String>, &'static str);

fn rows(results: &[JobResult]) -> Vec<Row> {
    results.iter().map(|r| (r.start, r.end, r.node.clone(), r.outcome)).collect()
}

fn row(start: i64, end: i64, node: &str, outcome: &'static str) -> Row {
    (Some(start), Some(end), Some(node.to_string()), outcome)
}

/// Terms (uniform, factor 2): d = o + 2·limit; fee = CPUs · limit in hours.
///
/// Conservative backfilling books every job for its whole limit, on the
/// nodes it is accepted on. J1 takes c1 (first fit) for [0, 600). J2 must
/// have `big`, which only c1 has: it is booked at 600, after J1's limit,
/// and keeps that start when J1 ends at 300; it ends at 1,200 by its
/// deadline 1,210. J3 takes one card of g1 for [20, 1,220). J4 needs both
/// cards: its earliest start, 1,220, ends after its deadline 1,230, so it is
/// rejected; so is J5 (both CPU nodes whole: not before 1,200; deadline 640).
///
/// Heuristic planning re-plans at J1's early end: J2 moves to 300 on c1.
/// J4 and J5 were rejected at submission, as under conservative planning.
///
/// EASY and the twin admit every job and use the real ends: J2 starts on c1
/// when J1 ends (300); J4 when J3 ends (120), and meets its deadline; J5
/// needs c1 whole, so waits for J2's end (900) and ends at 1,200, after its
/// deadline 640: it pays its penalty.
#[test]
fn a_dump_on_its_conf_worked_out_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let conservative = run(on_conf(dir.path(), Some(DUMP), "conservative-backfilling")).unwrap();
    assert_eq!(
        rows(&conservative),
        [
            row(0, 300, "c1", "success"),
            row(600, 1200, "c1", "success"),
            row(20, 120, "g1", "success"),
            (None, None, None, "rejected"),
            (None, None, None, "rejected"),
        ]
    );
    let lines: Vec<Option<i64>> = conservative.iter().map(|r| r.line).collect();
    assert_eq!(lines, [Some(2), Some(3), Some(4), Some(5), Some(6)]);
    let deadlines: Vec<Option<i64>> = conservative.iter().map(|r| r.deadline).collect();
    assert_eq!(deadlines, [Some(1200), Some(1210), Some(2420), Some(1230), Some(640)]);
    // 4 CPUs for 600 s: 2/3 of a CPU-hour.
    assert!((conservative[0].money - 4.0 * 600.0 / 3600.0).abs() < 1e-12);
    assert_eq!(conservative[3].reason.as_deref(), Some("no-room"));

    let heuristic = run(on_conf(dir.path(), Some(DUMP), "heuristic-planning")).unwrap();
    assert_eq!(rows(&heuristic)[1], row(300, 900, "c1", "success"));
    assert_eq!(rows(&heuristic)[3..], rows(&conservative)[3..]);

    let admitted_all = [
        row(0, 300, "c1", "success"),
        row(300, 900, "c1", "success"),
        row(20, 120, "g1", "success"),
        row(120, 720, "g1", "success"),
        row(900, 1200, "c1", "late"),
    ];
    let easy = run(on_conf(dir.path(), Some(DUMP), "easy")).unwrap();
    assert_eq!(rows(&easy), admitted_all);
    let twin = run(on_conf(dir.path(), Some(DUMP), "slurm")).unwrap();
    assert_eq!(rows(&twin), admitted_all);
    assert!(twin[4].money < 0.0);

    // The twin holds what Slurm gives: J5 both CPU nodes whole.
    let point = on_conf(dir.path(), Some(DUMP), "slurm").resolve().unwrap();
    let loaded = point.open().unwrap();
    assert_eq!(loaded.machine().names, ["c1", "c2", "g1"]);
    let m = measure(loaded.machine(), &twin);
    assert_eq!((m.accepted, m.rejected, m.late), (5, 0, 1));
}

/// A synthetic battery is one draw of the generator for the conf's
/// partitions: every strategy runs the same jobs; another battery or seed
/// draws others; the same settings draw the same jobs again.
#[test]
fn synthetic_batteries_are_the_same_for_every_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let synthetic = |strategy, battery, seed| SlaMachineSettings {
        synthetic: Some(SlurmSynthetic { days: 0.5, load: 0.8, users: 10, accounts: 2 }),
        batteries: 3,
        battery,
        seed,
        ..on_conf(dir.path(), None, strategy)
    };
    let submits = |r: &[JobResult]| r.iter().map(|j| j.submit).collect::<Vec<_>>();
    let planned = run(synthetic("conservative-backfilling", 1, 7)).unwrap();
    let twin = run(synthetic("slurm", 1, 7)).unwrap();
    assert!(planned.len() > 20, "{}", planned.len());
    assert_eq!(submits(&planned), submits(&twin));
    assert!(planned.iter().all(|r| r.line.is_none()));
    assert_eq!(run(synthetic("conservative-backfilling", 1, 7)).unwrap(), planned);
    assert_ne!(submits(&run(synthetic("slurm", 2, 7)).unwrap()), submits(&twin));
    assert_ne!(submits(&run(synthetic("slurm", 1, 8)).unwrap()), submits(&twin));
    // The twin admits every job; the planner rejects some of this load.
    assert!(twin.iter().all(|r| r.outcome != "rejected"));
    // The point keeps the seed and the generator's settings.
    let point = synthetic("slurm", 1, 7).resolve().unwrap();
    assert_eq!((point.seed, point.synthetic.map(|s| s.days)), (Some(7), Some(0.5)));
}

/// What a Slurm workload cannot ask is refused with its key, or with the
/// job's file, line and field; nothing runs.
#[test]
fn what_a_slurm_workload_cannot_ask_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |s: SlaMachineSettings| s.resolve().unwrap_err().to_string();
    let base = on_conf(dir.path(), Some(DUMP), "conservative-backfilling");
    let nodes = refused(SlaMachineSettings { nodes: Some("nodes.csv".into()), ..base.clone() });
    assert!(nodes.contains("`sla_machine.nodes`"), "{nodes}");
    let sampled = refused(SlaMachineSettings { arrivals: Arrivals::Sampled, ..base.clone() });
    assert!(sampled.contains("`sla_machine.arrivals`"), "{sampled}");
    let both = refused(SlaMachineSettings { synthetic: Some(SlurmSynthetic::default()), ..base.clone() });
    assert!(both.contains("`sla_machine.synthetic`") && both.contains("not both"), "{both}");
    let no_conf = SlaMachineSettings { conf: None, trace: None, synthetic: Some(SlurmSynthetic::default()), ..base };
    let no_conf = refused(no_conf);
    assert!(no_conf.contains("`sla_machine.synthetic`") && no_conf.contains("set `conf`"), "{no_conf}");
    let days = SlurmSynthetic { days: 0.0, ..SlurmSynthetic::default() };
    let days = refused(SlaMachineSettings { synthetic: Some(days), ..on_conf(dir.path(), None, "easy") });
    assert!(days.contains("`sla_machine.synthetic.days`"), "{days}");
    let users = SlurmSynthetic { users: 0, ..SlurmSynthetic::default() };
    let users = refused(SlaMachineSettings { synthetic: Some(users), ..on_conf(dir.path(), None, "easy") });
    assert!(users.contains("`sla_machine.synthetic.users`"), "{users}");
    // Failures under a conf are the planners' as under pods: a LANL replay
    // needs identical nodes.
    let lanl = FailureSource::default_for("lanl").unwrap();
    let twin = refused(SlaMachineSettings { failures: lanl, ..on_conf(dir.path(), Some(DUMP), "slurm") });
    assert!(twin.contains("sla_machine.failures.model"), "{twin}");

    // A feature alternative (which a `|`-separated dump cannot hold: set on
    // a read job), a partition the conf lacks, a limit above MaxTime: the
    // job's line and field.
    let error = |dump: String| format!("{:#}", run(on_conf(dir.path(), Some(&dump), "easy")).unwrap_err());
    let any = alternative(dir.path());
    assert!(any.contains("t.sacct:3: job 2: Constraints") && any.contains("a|b"), "{any}");
    let partition = error(DUMP.replace("|gpu|normal|2024-01-01T00:00:30", "|gpux|normal|2024-01-01T00:00:30"));
    assert!(partition.contains("t.sacct:5") && partition.contains("Partition"), "{partition}");
    let limit = error(DUMP.replace("00:05:00|cpu=8", "02:00:00|cpu=8"));
    assert!(limit.contains("t.sacct:6") && limit.contains("Timelimit") && limit.contains("MaxTime"), "{limit}");
    // A GPU trace's pods under a conf.
    let pods = dir.path().join("openb_pod_list_default.csv");
    std::fs::write(
        &pods,
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n\
         p0,2000,4096,1,500,,LS,Running,0,100,0\n",
    )
    .unwrap();
    let pods = error_of(SlaMachineSettings { trace: Some(pods), ..on_conf(dir.path(), None, "easy") });
    assert!(pods.starts_with("sla_machine.trace") && pods.contains("sacct dump"), "{pods}");
}

fn error_of(settings: SlaMachineSettings) -> String {
    format!("{:#}", run(settings).unwrap_err())
}

/// The error of the dump's J2 asking for `big|fast`.
fn alternative(dir: &Path) -> String {
    use slasim_core::experiment::registry;
    use slasim_data::trace::sacct::{NativeOptions, read_native};
    let (mut workload, _) = read_native(&dir.join("t.sacct"), NativeOptions::default()).unwrap();
    workload.jobs[1].constraints = Some("big|fast".into());
    let conf = slasim_slurm::conf::read(&dir.join("t.conf")).unwrap();
    let machine = slasim_slurm::machine::Machine::new(&conf);
    let rule = registry::find::<slasim_single::workload::sla::SlaTermsRules>("uniform").unwrap();
    slasim_sla_machine::slurm_jobs::jobs(&workload, &machine, rule, 2.0, 1.0).unwrap_err().to_string()
}

/// A dump's batteries are consecutive slices in submission order, each from
/// its first submission, at `load` times the dump's speed; every strategy of
/// a battery runs its jobs, and the jobs keep their dump lines.
#[test]
fn a_dumps_batteries_are_its_consecutive_slices() {
    let dir = tempfile::tempdir().unwrap();
    let sliced = |battery, load| {
        let settings = SlaMachineSettings { batteries: 2, battery, load, ..on_conf(dir.path(), Some(DUMP), "easy") };
        let results = run(settings).unwrap();
        results.iter().map(|r| (r.line, r.submit)).collect::<Vec<_>>()
    };
    // Five jobs in two batteries: the first two, then the other three
    // (submitted at 20, 30 and 40 s: from 0).
    assert_eq!(sliced(0, 1.0), [(Some(2), 0), (Some(3), 10)]);
    assert_eq!(sliced(1, 1.0), [(Some(4), 0), (Some(5), 10), (Some(6), 20)]);
    // Twice the speed: half the gaps.
    assert_eq!(sliced(1, 2.0), [(Some(4), 0), (Some(5), 5), (Some(6), 10)]);
    let twin = SlaMachineSettings { batteries: 2, battery: 1, ..on_conf(dir.path(), Some(DUMP), "slurm") };
    let twin: Vec<_> = run(twin).unwrap().iter().map(|r| (r.line, r.submit)).collect();
    assert_eq!(twin, sliced(1, 1.0));
}

/// The twin under node failures, on the dump above: c1 fails at 100 and is
/// repaired at 200.
/// - 0: J1 on c1 (300 s); 20: J3 on g1; 120: J4 on g1 after J3, as without
///   failures.
/// - 100: c1 goes down: J1 is killed and requeued, eligible 121 s on (221).
/// - 200: c1 is back: J2 (2 CPUs of the `big` node) starts there, for 600 s.
/// - 221: J1 is queued again, behind J5 (submitted at 40, FIFO priority).
///   J5 needs both CPU nodes whole: it waits for J2's end (800) and runs to
///   1,100. J1 could take c2 now, but its limit (600) would cross J5's
///   reservation: it starts after J5, on c1 (the first node free),
///   1,100–1,400, after its deadline 1,200.
///
/// So J1 is late (its killed run 0–100 is kept), J5 late as without
/// failures; J2 ends by its deadline 1,210 at 800.
#[test]
fn the_twin_under_a_node_failure_worked_out_by_hand() {
    use slasim_core::experiment::registry;
    use slasim_single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
    use slasim_single::workload::sla::SlaTermsRules;
    use slasim_sla_machine::battery::{slice_workload, under_slurm};

    let dir = tempfile::tempdir().unwrap();
    let point = on_conf(dir.path(), Some(DUMP), "slurm").resolve().unwrap();
    let loaded = point.open().unwrap();
    let slasim_sla_machine::kind::Loaded::Centre(centre) = &loaded else { panic!("a conf's machine") };
    let dump = centre.dump.as_ref().expect("the dump");
    let workload = slice_workload(dump, 1, 0, 1.0);
    let rule = registry::find::<SlaTermsRules>("uniform").unwrap();
    let jobs = slasim_sla_machine::slurm_jobs::jobs(&workload, &centre.twin, rule, 2.0, 1.0).unwrap();
    let failures = FailureStream {
        nodes: 3,
        events: vec![
            NodeEvent { time: 100, kind: NodeEventKind::Fail, node: 0 },
            NodeEvent { time: 200, kind: NodeEventKind::Repair, node: 0 },
        ],
        source_records: 0,
    };
    let twin = under_slurm(&centre.conf, &workload, &jobs, &failures, &centre.machine).unwrap();
    assert_eq!(
        rows(&twin),
        [
            row(1100, 1400, "c1", "late"),
            row(200, 800, "c1", "success"),
            row(20, 120, "g1", "success"),
            row(120, 720, "g1", "success"),
            row(800, 1100, "c1", "late"),
        ]
    );
    let runs: Vec<(i64, i64)> = twin[0].runs.iter().map(|r| (r.start, r.end)).collect();
    assert_eq!(runs, [(0, 100), (1100, 1400)]);
    let stopped: Vec<u32> = twin.iter().map(|r| r.stopped).collect();
    assert_eq!(stopped, [1, 0, 0, 0, 0]);
    let m = measure(loaded.machine(), &twin);
    assert_eq!((m.accepted, m.late, m.failed), (5, 2, 0));

    // Under `JobRequeue=0` J1 is ended at 100 (`NODE_FAIL`): failed, and it
    // pays its penalty.
    std::fs::write(dir.path().join("t.conf"), format!("{CONF}JobRequeue=0\n")).unwrap();
    let conf = slasim_slurm::conf::read(&dir.path().join("t.conf")).unwrap();
    let twin = under_slurm(&conf, &workload, &jobs, &failures, &centre.machine).unwrap();
    assert_eq!(rows(&twin)[0], row(0, 100, "c1", "failed"));
    assert!(twin[0].money < 0.0);
    assert_eq!(measure(loaded.machine(), &twin).failed, 1);
}
