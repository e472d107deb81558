//! One battery of four pods on one node of 2 T4s, worked out by hand, under
//! the planner and under the Slurm twin.

use slasim_single::workload::failures::FailureSource;
use slasim_sla_machine::battery::measure;
use slasim_sla_machine::kind::SlaMachineSettings;

const NODES: &str = "sn,cpu_milli,memory_mib,gpu,model\nn0,8000,32768,2,T4\n";

/// p0 and p1 ask for half a card each, p2 for a whole card (all LS,
/// submitted at 0, 100 s); p3 for a whole card (BE, no deadline) at 10.
const PODS: &str =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p0,2000,4096,1,500,,LS,Running,0,100,0
p1,2000,4096,1,500,,LS,Running,0,100,0
p2,2000,4096,1,1000,,LS,Running,0,100,0
p3,2000,4096,1,1000,,BE,Running,10,110,10
";

fn settings(dir: &std::path::Path, strategy: &str) -> SlaMachineSettings {
    std::fs::write(dir.join("pods.csv"), PODS).unwrap();
    std::fs::write(dir.join("nodes.csv"), NODES).unwrap();
    SlaMachineSettings {
        trace: Some(dir.join("pods.csv")),
        nodes: Some(dir.join("nodes.csv")),
        strategy: strategy.into(),
        batteries: 1,
        ..SlaMachineSettings::default()
    }
}

/// The planner puts p0 and p1 on one card and p2 on the other at 0, so all
/// three LS pods meet their deadline (0 + 1.25 × 100 = 125); p3 waits for a
/// whole card until 100. The twin gives each share a whole card (Slurm
/// gives whole GPUs), so p2 waits until 100, ends at 200 and pays its
/// penalty; p3 also starts at 100.
#[test]
fn shares_of_a_card_meet_deadlines_the_twin_misses() {
    let dir = tempfile::tempdir().unwrap();
    let planner = settings(dir.path(), "conservative-backfilling").resolve().unwrap();
    let loaded = planner.open().unwrap();
    let planned = planner.results(&loaded).unwrap();
    // Heuristic planning and EASY give the same schedule on the same card
    // shares: nothing ends early and every pod fits where the planner put it.
    for strategy in ["conservative-backfilling", "heuristic-planning", "easy"] {
        let results = settings(dir.path(), strategy).resolve().unwrap().results(&loaded).unwrap();
        let starts: Vec<_> = results.iter().map(|r| (r.job, r.line, r.start, r.outcome)).collect();
        assert_eq!(
            starts,
            [
                (0, Some(2), Some(0), "success"),
                (1, Some(3), Some(0), "success"),
                (2, Some(4), Some(0), "success"),
                (3, Some(5), Some(100), "success")
            ],
            "{strategy}"
        );
    }
    assert_eq!(planned[0].deadline, Some(125));
    assert_eq!(planned[3].deadline, None);
    let m = measure(loaded.machine(), &planned);
    assert_eq!((m.accepted, m.rejected, m.late, m.penalties), (4, 0, 0, 0.0));
    assert_eq!(m.wait_p95, Some(90.0));

    let slurm = settings(dir.path(), "slurm").resolve().unwrap();
    assert_eq!(slurm.node_choice, None);
    let twin = slurm.results(&loaded).unwrap();
    assert_eq!(twin[0].start, Some(0));
    assert_eq!(twin[1].start, Some(0));
    assert!(twin[2].start.unwrap() >= 100 && twin[2].outcome == "late" && twin[2].money < 0.0, "{:?}", twin[2]);
    assert!(twin[3].start.unwrap() >= 100 && twin[3].outcome == "success", "{:?}", twin[3]);
    let t = measure(loaded.machine(), &twin);
    assert_eq!((t.accepted, t.rejected, t.late), (4, 0, 1));
    assert!(t.gain < m.gain);
    // From the first submission to the last (0 to 10 s) both hold both
    // cards: the planner with three pods, the twin with two.
    assert_eq!((m.gpu_use, t.gpu_use), (1.0, 1.0));
    // 6 CPUs of 8 against 4; 12 GiB of 32 against 8.
    assert_eq!((m.cpu_use, t.cpu_use), (0.75, 0.5));
    assert_eq!((m.mem_use, t.mem_use), (0.375, 0.25));
}

#[test]
fn settings_that_cannot_run_are_refused_with_their_key() {
    let dir = tempfile::tempdir().unwrap();
    let base = settings(dir.path(), "conservative-backfilling");
    let refused = |s: SlaMachineSettings| s.resolve().unwrap_err().to_string();
    assert!(refused(SlaMachineSettings { trace: None, ..base.clone() }).starts_with("sla_machine.trace: required"));
    assert!(refused(SlaMachineSettings { battery: 1, ..base.clone() }).contains("sla_machine.battery"));
    assert!(refused(SlaMachineSettings { load: 0.0, ..base.clone() }).contains("sla_machine.load"));
    let unknown = refused(SlaMachineSettings { node_choice: Some("worst-fit".into()), ..base.clone() });
    assert!(unknown.starts_with("sla_machine.node_choice") && unknown.contains("first-fit"), "{unknown}");
    let unknown = refused(SlaMachineSettings { strategy: "fifo".into(), ..base.clone() });
    assert!(
        unknown.starts_with("sla_machine.strategy") && unknown.contains("easy") && unknown.contains("slurm"),
        "{unknown}"
    );
    // Failures: the twin runs them too, but the LANL replay needs identical nodes.
    let poisson = FailureSource::default_for("poisson").unwrap();
    let twin = SlaMachineSettings { failures: poisson.clone(), ..settings(dir.path(), "slurm") }.resolve();
    assert!(twin.is_ok_and(|p| p.seed.is_some()));
    let lanl = refused(SlaMachineSettings { failures: FailureSource::default_for("lanl").unwrap(), ..base.clone() });
    assert!(lanl.contains("sla_machine.failures.model"), "{lanl}");
    let bad = FailureSource::Poisson { lambda_per_hour: -1.0, mu_per_hour: 1.0 };
    let bad = refused(SlaMachineSettings { failures: bad, ..base.clone() });
    assert!(bad.contains("sla_machine.failures.lambda_per_hour"), "{bad}");
    // With failures, logged arrivals keep the seed: it draws the failures.
    let with = SlaMachineSettings { failures: poisson, ..base.clone() }.resolve().unwrap();
    assert_eq!((with.jobs, with.seed), (None, Some(base.seed)));
    // A model the machine lacks, named with its file, line and column.
    std::fs::write(dir.path().join("pods.csv"), PODS.replace("p3,2000,4096,1,1000,,", "p3,2000,4096,1,1000,A100,"))
        .unwrap();
    let point = base.resolve().unwrap();
    let loaded = point.open().unwrap();
    let err = point.results(&loaded).unwrap_err().to_string();
    assert!(err.ends_with("pods.csv:5: column gpu_spec: unknown GPU model \"A100\" (the machine has T4)"), "{err}");
    // A share above a whole card is refused by the reader.
    std::fs::write(dir.path().join("pods.csv"), PODS.replace("1,500,,LS", "1,1200,,LS")).unwrap();
    let err = format!("{:#}", point.open().unwrap_err());
    assert!(err.contains("pods.csv:2: column gpu_milli"), "{err}");
}

/// Sampled arrivals: the same seed and battery give the same pods and
/// submissions whatever the strategy; another battery gives others; the
/// rate follows `load`.
#[test]
fn sampled_batteries_are_the_same_for_every_strategy() {
    use slasim_sla_machine::kind::Arrivals;
    let dir = tempfile::tempdir().unwrap();
    let sampled = |strategy, battery, load| SlaMachineSettings {
        arrivals: Arrivals::Sampled,
        jobs: 50,
        batteries: 3,
        battery,
        load,
        ..settings(dir.path(), strategy)
    };
    let planner = sampled("conservative-backfilling", 1, 1.0).resolve().unwrap();
    let loaded = planner.open().unwrap();
    let a = planner.results(&loaded).unwrap();
    let b = sampled("slurm", 1, 1.0).resolve().unwrap().results(&loaded).unwrap();
    let arrivals =
        |r: &[slasim_sla_machine::battery::JobResult]| r.iter().map(|j| (j.line, j.submit)).collect::<Vec<_>>();
    assert_eq!(a.len(), 50);
    assert_eq!(arrivals(&a), arrivals(&b));
    let other = sampled("conservative-backfilling", 2, 1.0).resolve().unwrap().results(&loaded).unwrap();
    assert_ne!(arrivals(&a), arrivals(&other));
    // The trace submits 4 pods over 10 s: a gap of 2.5 s on average; ten
    // times the load, a tenth of it.
    let span = |r: &[slasim_sla_machine::battery::JobResult]| r.last().unwrap().submit as f64 / 49.0;
    assert!((1.0..5.0).contains(&span(&a)), "{}", span(&a));
    let fast = sampled("conservative-backfilling", 1, 10.0).resolve().unwrap().results(&loaded).unwrap();
    assert!(span(&fast) < 0.5, "{}", span(&fast));
    // Logged arrivals read neither `jobs` nor `seed`.
    let logged = settings(dir.path(), "slurm").resolve().unwrap();
    assert_eq!((logged.jobs, logged.seed), (None, None));
}
