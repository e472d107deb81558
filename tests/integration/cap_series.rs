//! A power cap that follows a series (`[energy.cap_series]`): a schedule
//! worked out by hand against the store, the cap over random workloads,
//! series and strategies, and located refusals.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use rusqlite::Connection;
use slasim::signal::{Alignment, Interpolation, Quantity, Signal};
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::cluster::cap::{CapSeries, CapSeriesConfig, CapSignal};
use slasim::single::cluster::energy::{EnergyConfig, SleepState};
use slasim::single::cluster::power::PowerState;
use slasim::single::cluster::record::Outcome;
use slasim::single::policy::energy::{EnergyPolicyRef, EnergyPolicySettings, PowerManager};
use slasim::single::policy::{Strategy, StrategySettings, build};
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;
use slasim::units::Time;

/// Monday 2023-01-02 00:00:00 UTC: the signal's first sample and the run's
/// virtual time 0.
const MONDAY: i64 = 1_672_617_600;
const HOUR: i64 = 3600;
const WEEK: i64 = 7 * 24 * HOUR;

/// A plain `time,W` file: hourly samples over one week (the shortest a
/// signal may be), `first` for the first hours and `rest` after them.
fn supply(dir: &Path, first: &[f64], rest: f64) -> PathBuf {
    let mut text = "time,W\n".to_string();
    for h in 0..7 * 24 {
        let v = first.get(h as usize).copied().unwrap_or(rest);
        text.push_str(&format!("{},{v}\n", MONDAY + h * HOUR));
    }
    let path = dir.join("supply.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// Sweeps `config` (written to `dir`) into `dir/c.sqlite`: success, stderr.
fn sweep(dir: &Path, config: &str) -> (bool, String, PathBuf) {
    let file = dir.join("c.toml");
    std::fs::write(&file, config).unwrap();
    let db = dir.join("c.sqlite");
    let out = common::slasim().arg("sweep").arg(&file).arg("--db").arg(&db).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned(), db)
}

/// Two nodes, FCFS, 100 W idle and 200 W busy, jobs killed at their estimate.
fn config(d: &Path, energy_extra: &str, signals: &str) -> String {
    // j0: 1 node, 1,800 s, submitted at 0; j1: 2 nodes, 1,800 s, at 1.
    let swf = common::write_swf(d, 2, &[(0, 1, 1800, 1800), (1, 2, 1800, 1800)]);
    format!(
        r#"name = "cap"

[workload]
trace = "{}"

[energy]
idle_watts = 100.0
busy_watts = 200.0
down_watts = 0.0
{energy_extra}

{signals}

[[sweep]]
name = "fcfs"
[sweep.axes]
strategy = ["fcfs"]
failures = ["none"]
"#,
        swf.display()
    )
}

fn starts(db: &Path) -> Vec<(i64, Option<i64>, Option<i64>)> {
    let conn = Connection::open(db).unwrap();
    conn.prepare("SELECT job, actual_start, actual_end FROM job_outcomes ORDER BY job")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

const SERIES: &str = "[energy.cap_series]\nfollows = \"renewable\"\ngrid_watts = 200.0\nrenewable_scale = 0.5";

/// The cap is 200 W of grid plus half the supply: supply 0, 200 and 400 W
/// in hours 0, 1 and 2 on, so the cap is 200, 300 and 400 W. Idle, the two
/// nodes draw 200 W: the lowest cap holds them.
/// - 0: j0 (1 node) would commit 200 + 100 = 300 W over [0, 1,800): above
///   200 W. Refused; the cap first has room for it over a whole 1,800 s
///   from 3,600 (300 W), so the cluster wakes FCFS then. j1 (submitted at
///   1) waits behind.
/// - 3,600: j0 starts, 300 W ≤ 300 W over [3,600, 5,400).
/// - 5,400: j0 ends; j1 (2 nodes) would commit 400 W over [5,400, 7,200)
///   at a 300 W cap: refused; room from 7,200 (400 W), woken then.
/// - 7,200: j1 starts and runs to 9,000.
///
/// Without the cap both run at once from 0: j0 [0, 1,800), j1 [1,800, 3,600).
#[test]
fn a_job_held_until_the_cap_rises_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = supply(d, &[0.0, 200.0], 400.0);
    let signals = format!("[signals]\nrenewable = \"{}\"", file.display());
    let (ok, err, db) = sweep(d, &config(d, SERIES, &signals));
    assert!(ok, "{err}");
    assert_eq!(starts(&db), [(0, Some(3600), Some(5400)), (1, Some(7200), Some(9000))], "the schedule above");
    // The accounting reads the same aligned supply: renewable energy used
    // is min(supply, draw): hour 1 (j0 on [3,600, 5,400) at 300 W, then
    // 200 W) min(200, ·) = 200 W for the hour; hour 2 on [7,200, 9,000)
    // at 400 W, min(400, 400); hour 0: 0. 200 · 3,600 + 400 · 1,800 J.
    let conn = Connection::open(&db).unwrap();
    let renewable: f64 = conn.query_row("SELECT renewable_kwh FROM run_carbon", [], |r| r.get(0)).unwrap();
    let by_hand = (200.0 * 3600.0 + 400.0 * 1800.0) / 3.6e6;
    assert!((renewable - by_hand).abs() < 1e-9, "{renewable} kWh, by hand {by_hand}");

    let plain = tempfile::tempdir().unwrap();
    let (ok, err, db) = sweep(plain.path(), &config(plain.path(), "", &signals));
    assert!(ok, "{err}");
    assert_eq!(starts(&db), [(0, Some(0), Some(1800)), (1, Some(1800), Some(3600))]);
}

/// Located refusals: a bad table, a cap series beside a constant cap or
/// without a renewable supply, a lowest cap below the idle cluster.
#[test]
fn bad_cap_series_are_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = supply(d, &[0.0, 200.0], 400.0);
    let renewable = format!("[signals]\nrenewable = \"{}\"", file.display());
    let carbon_only = {
        let mut text = "time,gCO2eq/kWh\n".to_string();
        for h in 0..7 * 24 {
            text.push_str(&format!("{},100\n", MONDAY + h * HOUR));
        }
        let path = d.join("carbon.csv");
        std::fs::write(&path, text).unwrap();
        format!("[signals]\ncarbon = \"{}\"", path.display())
    };
    let series = |grid: &str, scale: &str| {
        format!("[energy.cap_series]\nfollows = \"renewable\"\ngrid_watts = {grid}\nrenewable_scale = {scale}")
    };
    // (extra [energy] lines, [signals], what the error must say)
    let cases: Vec<(String, String, Vec<&str>)> = vec![
        (series("200.0", "0.5"), String::new(), vec!["energy.cap_series.follows", "renewable"]),
        (series("200.0", "0.5"), carbon_only, vec!["energy.cap_series.follows", "signals"]),
        (
            format!("cap_watts = 500.0\n{}", series("200.0", "0.5")),
            renewable.clone(),
            vec!["energy.cap_watts", "not both"],
        ),
        (series("-1.0", "0.5"), renewable.clone(), vec!["energy.cap_series.grid_watts"]),
        (series("200.0", "nan"), renewable.clone(), vec!["energy.cap_series.renewable_scale"]),
        (series("200.0", "0.5").replace("renewable\"", "sunshine\""), renewable.clone(), vec!["sunshine"]),
        // Lowest cap 150 W (supply 0 in hour 0): two idle nodes draw 200 W.
        (series("150.0", "0.5"), renewable.clone(), vec!["energy.cap_series.grid_watts", "150", "200"]),
    ];
    for (energy, signals, wanted) in cases {
        let case = tempfile::tempdir().unwrap();
        let (ok, err, db) = sweep(case.path(), &config(case.path(), &energy, &signals));
        assert!(!ok, "{energy} / {signals}: accepted");
        for w in wanted {
            assert!(err.contains(w), "{energy} / {signals}: `{w}` not in: {err}");
        }
        assert!(!db.exists() || starts(&db).is_empty(), "{energy}: stored a run");
    }
    // A busy node must draw at least an idle one (a job's end never raises the power).
    let config = CapSeriesConfig { follows: CapSignal::Renewable, grid_watts: 200.0, renewable_scale: 0.5 };
    let bad = EnergyConfig { cap_series: Some(config), ..EnergyConfig::watts(100.0, 90.0, 0.0) };
    assert!(bad.validate().unwrap_err().to_string().contains("energy.busy_watts"));
}

const SLEEP: SleepState = SleepState {
    watts: 5.0,
    switch_off_seconds: 10,
    switch_off_joules: 200.0,
    switch_on_seconds: 20,
    switch_on_joules: 1000.0,
};

/// A cap of `grid` watts plus a supply that is `levels[k]` over
/// `[k · step, (k + 1) · step)` and `tail` after them, over one week.
fn cap_series(grid: f64, levels: &[f64], step: Time, tail: f64) -> CapSeries {
    let times: Vec<i64> = (0..WEEK / step).map(|k| MONDAY + k * step).collect();
    let values: Vec<f64> = (0..times.len()).map(|k| levels.get(k).copied().unwrap_or(tail)).collect();
    let signal = Signal::from_samples("supply", Quantity::Power, Interpolation::Hold, times, values, 0).unwrap();
    let aligned = Alignment::at(MONDAY).align(Arc::new(signal)).unwrap();
    let config = CapSeriesConfig { follows: CapSignal::Renewable, grid_watts: grid, renewable_scale: 1.0 };
    CapSeries::new(&config, Some(&aligned), 1.0).unwrap()
}

fn workload(shapes: &[(Time, u32, Time)]) -> Vec<Job> {
    let mut t = 0;
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(gap, nodes, runtime))| {
            t += gap;
            Job::without_sla(i as u32, t, nodes, runtime, runtime)
        })
        .collect()
}

proptest! {
    #![proptest_config(common::testing::cases(100))]

    /// Whatever the jobs, the series (its lowest value holding every node
    /// idle), the strategy and the energy policy: at every instant the
    /// watts the nodes commit (so also those they draw) stay within the cap
    /// of that instant, read from the records against the series as
    /// generated; the last level runs every job at once, so every job ends.
    #[test]
    fn a_cap_series_is_never_exceeded(
        shapes in prop::collection::vec((0i64..200, 1u32..=4, 1i64..400), 1..20),
        levels in prop::collection::vec(0.0f64..900.0, 1..12),
        step in prop::sample::select(vec![100i64, 300, 450]),
        which in 0usize..3,
        sleep in any::<bool>(),
    ) {
        let capacity = 4u32;
        let jobs = workload(&shapes);
        let (idle, busy) = (100.0, 300.0);
        let energy = EnergyConfig {
            sleep: sleep.then_some(SLEEP),
            ..EnergyConfig::watts(idle, busy, 0.0)
        };
        // Lowest cap: every node idle; the tail: every node busy.
        let grid = f64::from(capacity) * idle;
        let tail = f64::from(capacity) * (busy - idle);
        let cap = cap_series(grid, &levels, step, tail);
        let config = CapSeriesConfig { follows: CapSignal::Renewable, grid_watts: grid, renewable_scale: 1.0 };
        let energy = EnergyConfig { cap_series: Some(config), ..energy };
        prop_assert!(energy.validate().is_ok());
        let name = ["fcfs", "easy", "conservative"][which];
        let settings = StrategySettings { kill_at_estimate: true, ..common::settings(name, Default::default(), &jobs, 0.1) };
        let inner: Box<dyn Strategy> = build(name, &settings, capacity).unwrap();
        let policy = if sleep { "idle-shutdown" } else { "none" };
        let policy = EnergyPolicySettings { name: EnergyPolicyRef::named(policy).unwrap(), idle_timeout: 30 };
        let managed: Box<dyn Strategy> = Box::new(PowerManager::new(inner, &policy));
        let scenario = Scenario {
            energy: Some(energy),
            cap: Some(cap),
            ..Scenario::new(capacity, jobs.clone(), FailureStream::none(capacity), managed)
        };
        let sim = simulate(scenario).unwrap();
        let c = &sim.cluster;
        // The cap as generated, at second t.
        let cap_at = |t: Time| grid + levels.get((t.rem_euclid(WEEK) / step) as usize).copied().unwrap_or(tail);
        // Every change of a node's state, and every step of the cap.
        let mut times: Vec<Time> = c.executions.iter().flat_map(|e| [e.start, e.end]).collect();
        times.extend(c.power_events.iter().map(|p| p.time));
        let end = times.iter().copied().max().unwrap_or(0) + 1;
        times.extend((0..=end / step).map(|k| k * step));
        times.push(end);
        times.sort_unstable();
        times.dedup();
        for w in times.windows(2) {
            let t = w[0];
            let committed: f64 = (0..capacity)
                .map(|node| {
                    if c.executions.iter().any(|e| e.start <= t && t < e.end && e.nodes.contains(&node)) {
                        return busy;
                    }
                    match c.power_events.iter().rfind(|p| p.node == node && p.time <= t).map(|p| p.state) {
                        Some(PowerState::SwitchingOff) => SLEEP.switch_off_watts().max(SLEEP.watts),
                        Some(PowerState::Asleep) => SLEEP.watts,
                        Some(PowerState::SwitchingOn) => SLEEP.switch_on_watts().max(idle),
                        _ => idle,
                    }
                })
                .sum();
            // The cap holds over [t, next): it changes only at steps, which are in `times`.
            prop_assert!(committed <= cap_at(t) + 1e-9, "{committed} W at {t} above the cap {} W ({name})", cap_at(t));
        }
        prop_assert_eq!(c.unresolved, 0, "{}: a job was left waiting", name);
        prop_assert!(c.records.records.iter().all(|r| r.outcome == Some(Outcome::Success)), "{name}: every job ran");
    }
}
