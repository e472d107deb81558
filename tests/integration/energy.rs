//! The energy meter on a schedule worked out by hand, and what it must not change.

use crate::common;

use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::energy::EnergyConfig;
use slasim::single::cluster::record::Outcome;
use slasim::single::policy::{StrategySettings, build};
use slasim::single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim::single::workload::job::Job;

const WATTS: EnergyConfig = EnergyConfig::watts(100.0, 250.0, 10.0);

/// EASY on 3 nodes, jobs killed at their estimate:
/// - j0: submitted at 0, 2 nodes, 100 s: nodes 0 and 1 over [0, 100);
/// - j1: submitted at 10, 1 node, 50 s: node 2 from 10;
/// - node 2 fails at 30 (j1 is stopped and fails) and is repaired at 80;
/// - j2: submitted at 40, 3 nodes, 20 s: waits for j0, runs over [100, 120).
fn run(energy: Option<EnergyConfig>) -> Simulated {
    let jobs = vec![
        Job::without_sla(0, 0, 2, 100, 100),
        Job::without_sla(1, 10, 1, 50, 50),
        Job::without_sla(2, 40, 3, 20, 20),
    ];
    let failures = FailureStream {
        nodes: 3,
        events: vec![
            NodeEvent { time: 30, kind: NodeEventKind::Fail, node: 2 },
            NodeEvent { time: 80, kind: NodeEventKind::Repair, node: 2 },
        ],
        source_records: 0,
    };
    let settings =
        StrategySettings { kill_at_estimate: true, ..common::settings("easy", Default::default(), &jobs, 0.1) };
    let strategy = build("easy", &settings, 3).unwrap();
    simulate(Scenario { energy, ..Scenario::new(3, jobs, failures, strategy) }).unwrap()
}

#[test]
fn a_three_node_schedule_with_one_failure_by_hand() {
    let sim = run(Some(WATTS));
    let r = &sim.cluster.records;
    assert_eq!((r[0].actual_start, r[1].actual_start, r[2].actual_start), (Some(0), Some(10), Some(100)));
    assert_eq!(r[1].outcome, Some(Outcome::Failed));
    // The window is the makespan: first submission 0 to last end 120.
    //   [0, 10)    busy 2 (j0)             idle 1
    //   [10, 30)   busy 3 (j0, j1)         idle 0
    //   [30, 80)   busy 2 (j0)     down 1  idle 0
    //   [80, 100)  busy 2 (j0)             idle 1
    //   [100, 120) busy 3 (j2)             idle 0
    // busy = 2·10 + 3·20 + 2·50 + 2·20 + 3·20 = 280 node-s
    // down = 1·50 = 50 node-s; idle = 1·10 + 1·20 = 30 node-s (280 + 50 + 30 = 3 · 120)
    // joules = 30 · 100 W + 280 · 250 W + 50 · 10 W = 3,000 + 70,000 + 500 = 73,500 J
    let e = sim.energy.unwrap();
    assert_eq!(
        (e.idle_node_seconds, e.busy_node_seconds, e.down_node_seconds, e.joules),
        (30.0, 280.0, 50.0, 73_500.0)
    );
    assert_eq!(e.states[..3], [(30.0, 3_000.0), (280.0, 70_000.0), (50.0, 500.0)]);
}

#[test]
fn a_meter_changes_no_outcome_and_no_meter_reads_nothing() {
    let (with, without) = (run(Some(WATTS)), run(None));
    assert_eq!(with.cluster.records, without.cluster.records);
    assert_eq!(with.cluster.node_events, without.cluster.node_events);
    assert_eq!(with.kernel.delivered, without.kernel.delivered + 7, "one reading per change of node states");
    assert_eq!(without.energy, None);
}

#[test]
fn watts_must_be_finite_and_not_negative() {
    for (bad, setting) in [
        (EnergyConfig { idle_watts: -1.0, ..WATTS }, "energy.idle_watts"),
        (EnergyConfig { busy_watts: f64::NAN, ..WATTS }, "energy.busy_watts"),
        (EnergyConfig { down_watts: f64::INFINITY, ..WATTS }, "energy.down_watts"),
    ] {
        let err = bad.validate().unwrap_err().to_string();
        assert!(err.contains(setting), "{err}");
    }
    assert!(WATTS.validate().is_ok());
}

fn slasim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_slasim"))
        .args(args)
        .env("SLASIM_TRACE_DIR", common::traces())
        .output()
        .expect("slasim starts")
}

const CONFIG: &str = r#"name = "metered"

[workload.synthetic]
seed = 1
jobs = 1500

[prepare]
input_jobs = 500
batteries = 2
battery_size = 250

[failures]
model = "poisson"
lambda_per_hour = 1e-3
mu_per_hour = 0.4333

[energy]
idle_watts = 95.0
busy_watts = 240.0
down_watts = 5.0

[[sweep]]
name = "two"
[sweep.axes]
strategy = ["conservative-backfilling", "heuristic-overbooking"]
battery = "all"
"#;

#[test]
fn a_metered_sweep_stores_each_runs_energy_and_busy_time_is_the_jobs_node_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let (config, db) = (dir.path().join("metered.toml"), dir.path().join("metered.sqlite"));
    std::fs::write(&config, CONFIG).unwrap();
    let out = slasim(&["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap(), "--jobs", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: Vec<(i64, f64, f64, f64, f64)> = conn
        .prepare("SELECT run_id, idle_node_seconds, busy_node_seconds, down_node_seconds, joules FROM energy")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 4, "one row per run: 2 strategies × 2 batteries");
    let mut down = 0.0;
    for (run, idle, busy, d, joules) in rows {
        assert!((joules - (95.0 * idle + 240.0 * busy + 5.0 * d)).abs() < 1e-6 * joules, "run {run}");
        // Every execution lies inside the window (first submission to last
        // end): busy node-seconds are the jobs' executed node-seconds.
        let executed: f64 = conn
            .query_row("SELECT sum(executed * nodes) FROM jobs WHERE run_id = ?1", [run], |r| {
                r.get::<_, Option<f64>>(0)
            })
            .unwrap()
            .unwrap_or(0.0);
        assert_eq!(busy, executed, "run {run}");
        // The window is the makespan on the whole machine.
        let (capacity, makespan): (f64, f64) = conn
            .query_row(
                "SELECT (SELECT capacity FROM runs WHERE run_id = ?1), max(actual_end) - min(occurrence) FROM jobs WHERE run_id = ?1",
                [run],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(idle + busy + d, capacity * makespan, "run {run}");
        down += d;
    }
    assert!(down > 0.0, "the failures took nodes down");
}

#[test]
fn negative_watts_in_a_config_name_the_key_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (config, db) = (dir.path().join("bad.toml"), dir.path().join("bad.sqlite"));
    std::fs::write(&config, CONFIG.replace("busy_watts = 240.0", "busy_watts = -240.0")).unwrap();
    let out = slasim(&["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad.toml:19:1") && stderr.contains("energy.busy_watts"), "{stderr}");
    assert!(!db.exists());
}

#[test]
fn the_report_of_a_metered_store_has_the_energy_table_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (config, db, out) = (dir.path().join("metered.toml"), dir.path().join("m.sqlite"), dir.path().join("report"));
    std::fs::write(&config, CONFIG).unwrap();
    let sweep = slasim(&["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert!(sweep.status.success(), "{}", String::from_utf8_lossy(&sweep.stderr));
    let report = slasim(&["report", "--db", db.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    let table = std::fs::read_to_string(out.join("tables/energy.csv")).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "a header and one row per strategy: {table}");
    assert!(lines[1].contains("conservative-backfilling") && lines[2].contains("heuristic-overbooking"), "{table}");
    let plots: Vec<String> = std::fs::read_dir(out.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(plots.iter().any(|p| p.starts_with("energy-vs-gain-") && p.ends_with(".svg")), "{plots:?}");
}
