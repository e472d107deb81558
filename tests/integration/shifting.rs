//! Shifting jobs by the hour (`[shifting]`): one job on a one-node cluster
//! under each queue policy, its start worked out by hand and read back from
//! the store, through the config language.

use crate::common;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

/// Monday 2023-01-02 00:00:00 UTC: the signal's first sample, and (the
/// default `start`) the run's virtual time 0.
const MONDAY: i64 = 1_672_617_600;
const HOUR: i64 = 3600;

/// A plain `time,value` carbon file over one week (the shortest a signal
/// may be), one sample per `step` seconds: `first` for the first samples,
/// `rest` after them.
fn carbon(dir: &Path, step: i64, first: &[f64], rest: f64) -> PathBuf {
    let mut text = String::from("time,gCO2eq/kWh\n");
    for i in 0..7 * 24 * HOUR / step {
        let v = first.get(i as usize).copied().unwrap_or(rest);
        text.push_str(&format!("{},{v}\n", MONDAY + i * step));
    }
    let path = dir.join("carbon.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// The hourly carbon of the main cases: 300, 300, 120, 120, 100, 100, then
/// 300 for the rest of the week (Sunday included).
const HOURLY: [f64; 6] = [300.0, 300.0, 120.0, 120.0, 100.0, 100.0];

/// Runs one job (1 node, estimate and runtime 2 h, submitted at `submit`)
/// on a one-node FCFS cluster over `carbon` with `shifting` as the
/// `[shifting]` body: the job's (occurrence, actual start). A second job,
/// a day later, only gives the log a span (a log whose jobs all occur at
/// one instant has no load).
fn run(d: &Path, carbon: &Path, submit: i64, shifting: &str) -> (i64, i64) {
    let swf = common::write_swf(d, 1, &[(submit, 1, 2 * HOUR, 2 * HOUR), (24 * HOUR, 1, HOUR, HOUR)]);
    let db = sweep(d, &swf, carbon, shifting, "fcfs");
    let conn = Connection::open(&db).unwrap();
    conn.query_row("SELECT occurrence, actual_start FROM jobs WHERE job = 0", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
}

/// Sweeps the log `swf` on one node under `strategy` over `carbon` with
/// `shifting` as the `[shifting]` body: the store.
fn sweep(d: &Path, swf: &Path, carbon: &Path, shifting: &str, strategy: &str) -> PathBuf {
    let config = format!(
        r#"name = "shifting"

[workload]
trace = "{}"

[energy]
idle_watts = 100.0
busy_watts = 200.0
down_watts = 0.0

[signals]
carbon = "{}"

[shifting]
{shifting}

[[sweep]]
name = "fcfs"
[sweep.axes]
strategy = ["{strategy}"]
failures = ["none"]
"#,
        swf.display(),
        carbon.display(),
    );
    let file = d.join("c.toml");
    std::fs::write(&file, config).unwrap();
    let db = d.join("c.sqlite");
    let _ = std::fs::remove_file(&db);
    let out = common::slasim().arg("sweep").arg(&file).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{shifting}: {}", String::from_utf8_lossy(&out.stderr));
    db
}

/// The job's start under `shifting` on the hourly signal, submitted at 0.
fn start(shifting: &str) -> i64 {
    let dir = tempfile::tempdir().unwrap();
    let file = carbon(dir.path(), HOUR, &HOURLY, 300.0);
    let (occurrence, start) = run(dir.path(), &file, 0, shifting);
    assert_eq!(occurrence, 0, "{shifting}: the job keeps its own submission time");
    start
}

/// Window: submitted at 0, horizon 4 h, so starts 0 h … 4 h. The forecast
/// ∫ carbon over each 2-hour run (value × hours), oracle forecast:
/// 0 h: 300 + 300 = 600; 1 h: 300 + 120 = 420; 2 h: 120 + 120 = 240;
/// 3 h: 120 + 100 = 220; 4 h: 100 + 100 = 200.
///
/// - `lowest-window`: the least, 200, at 4 h.
/// - `carbon-time`: saving against 0 h per hour of wait and run:
///   1 h: 180 / 3 = 60; 2 h: 360 / 4 = 90; 3 h: 380 / 5 = 76; 4 h: 400 / 6 ≈ 66.7:
///   the greatest at 2 h.
/// - `cats` (the signal's step is 1 h, so the same grid): the least mean,
///   200 / 2 = 100, at 4 h.
/// - `none`: at once.
#[test]
fn each_planning_policy_starts_the_job_where_the_arithmetic_says() {
    for (policy, want) in [("lowest-window", 4 * HOUR), ("carbon-time", 2 * HOUR), ("cats", 4 * HOUR), ("none", 0)] {
        let got = start(&format!("policy = \"{policy}\"\nhorizon = {}", 4 * HOUR));
        assert_eq!(got, want, "{policy}");
    }
}

/// `threshold`, observed values 300 (0 h), 300 (1 h), 120 (2 h):
/// - at 150: held at 0 h and 1 h, released at 2 h, the first hour at or under 150;
/// - at 120: released at 2 h too (at or under);
/// - at 50: never reached, so released at the end of its 4-hour horizon.
#[test]
fn threshold_releases_at_the_first_hour_under_it_or_at_the_horizon() {
    for (threshold, want) in [(150.0, 2 * HOUR), (120.0, 2 * HOUR), (50.0, 4 * HOUR), (300.0, 0)] {
        let got = start(&format!("policy = \"threshold\"\nthreshold = {threshold}\nhorizon = {}", 4 * HOUR));
        assert_eq!(got, want, "threshold {threshold}");
    }
}

/// A wrong forecast moves the start. At 0 the persistence forecast reads
/// each future hour from the same hour a day earlier: the signal loops by
/// the week, so Sunday, 300 all day. Every window then costs 600, the tie
/// goes to the earliest: `lowest-window` starts at once where the oracle
/// (above) starts at 4 h.
#[test]
fn a_persistence_forecast_moves_the_start() {
    let shifting =
        |forecast: &str| format!("policy = \"lowest-window\"\nhorizon = {}\nforecast = \"{forecast}\"", 4 * HOUR);
    assert_eq!(start(&shifting("oracle")), 4 * HOUR);
    assert_eq!(start(&shifting("persistence")), 0);
}

/// CATS steps by the forecast's own step. Half-hourly samples: 300 for the
/// first 2.5 h, 100 for 2 h (2.5 h … 4.5 h), then 300. One 2-hour job at 0,
/// horizon 4 h:
/// - `cats` tries every half hour; [2.5 h, 4.5 h) has mean 100, the least:
///   it starts at 2.5 h (9,000 s).
/// - `lowest-window` tries whole hours from the submission: 2 h costs
///   0.5 h × 300 + 1.5 h × 100 = 300, 3 h costs 1.5 h × 100 + 0.5 h × 300
///   = 300, the others more; the tie goes to 2 h.
#[test]
fn cats_steps_by_the_forecast_step() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut first = vec![300.0; 5];
    first.extend([100.0; 4]);
    let file = carbon(d, HOUR / 2, &first, 300.0);
    let at = |policy: &str| run(d, &file, 0, &format!("policy = \"{policy}\"\nhorizon = {}", 4 * HOUR)).1;
    assert_eq!(at("cats"), 9_000);
    assert_eq!(at("lowest-window"), 2 * HOUR);
}

/// Two 2-hour jobs submitted together at 0 on the hourly signal, under
/// EASY: both are released at one instant and reach the strategy in
/// submission order, so job 0 runs first and job 1 after it.
/// - `lowest-window` (horizon 4 h): both pick 4 h (as above): job 0 runs
///   [4 h, 6 h), job 1 waits for the node and runs [6 h, 8 h).
/// - `threshold` 150: both are released at 2 h: [2 h, 4 h) and [4 h, 6 h).
#[test]
fn jobs_released_together_go_in_submission_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = carbon(d, HOUR, &HOURLY, 300.0);
    let swf =
        common::write_swf(d, 1, &[(0, 1, 2 * HOUR, 2 * HOUR), (0, 1, 2 * HOUR, 2 * HOUR), (24 * HOUR, 1, HOUR, HOUR)]);
    for (shifting, want) in [
        (format!("policy = \"lowest-window\"\nhorizon = {}", 4 * HOUR), [(0, 4 * HOUR), (0, 6 * HOUR)]),
        (format!("policy = \"threshold\"\nthreshold = 150\nhorizon = {}", 4 * HOUR), [(0, 2 * HOUR), (0, 4 * HOUR)]),
    ] {
        let db = sweep(d, &swf, &file, &shifting, "easy");
        let conn = Connection::open(&db).unwrap();
        let got: Vec<(i64, i64)> = conn
            .prepare("SELECT occurrence, actual_start FROM jobs WHERE job < 2 ORDER BY job")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, want, "{shifting}");
    }
}
