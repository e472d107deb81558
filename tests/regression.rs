//! Single-cluster outcomes are pinned: the stores written before the Grid
//! work (schema v3, commit 24cec2c) are summarised in `tests/fixtures/regression/*.digest`
//! (per table: lines of its canonical CSV dump and their sha256); today's
//! binary must write the same rows and the same run ids. (The `trace`
//! column, the resolved path of the log, depends on where the traces are and
//! is left out.) Cases: every
//! strategy on the synthetic workload (PoF and risk tests, fixed
//! reservations with and without checkpoints, paper B's reject and move),
//! chapter-6 points of CTC-SP2 and SDSC-SP2 (LANL failures), and the classic
//! modes on the whole KTH-SP2 log (regenerated when `easy` came to count every
//! node free at the shadow time as extra; see the CHANGELOG).

mod common;

use std::path::Path;

use sha2::{Digest, Sha256};

/// The v3 columns of every outcome table, without wall-clock columns.
const TABLES: [(&str, &str); 6] = [
    (
        "runs",
        "SELECT run_id, strategy, battery, battery_key, seed, capacity, config, config_hash FROM runs ORDER BY run_id",
    ),
    (
        "job_outcomes",
        "SELECT run_id, job, accepted, planned_start, planned_end, actual_start, actual_end, overbooked, pof, outcome, \
         fee, penalty, restarts, executed, moves, pinned, checkpoints FROM job_outcomes ORDER BY run_id, job",
    ),
    ("battery_jobs", "SELECT * FROM battery_jobs ORDER BY battery_key, job"),
    ("node_events", "SELECT * FROM node_events ORDER BY run_id, seq"),
    ("reservations", "SELECT * FROM reservations ORDER BY run_id, reservation"),
    (
        "points",
        "SELECT run_id, strategy, battery, seed, placement, acceptance, pof_max, security_factor, penalty_ratio, \
         pdf_source, failures, capacity, jobs, accepted, successful, failed, rejected, fees, penalties, gain, \
         utilisation, overbooked, overbooked_failed, overbooked_pof, reservation_percent, start_factor, \
         reservation_option, checkpointing, reservations, reservations_accepted, reservation_rejection_rate, sldwa, \
         moved_jobs, move_delay_mean, move_delay_max, pinned_jobs, checkpoints, resumed_successful, kill_at_estimate, \
         dropped, wait_mean, wait_max, response_mean, slowdown_mean, bounded_slowdown_mean, makespan FROM points \
         ORDER BY run_id",
    ),
];

fn digest(db: &Path) -> String {
    TABLES
        .iter()
        .map(|(name, sql)| {
            let csv = slasim::store::query(db, sql).unwrap().to_csv();
            let hash: String = Sha256::digest(csv.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
            format!("{name} {} {hash}\n", csv.matches('\n').count() - 1)
        })
        .collect()
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/regression").join(name)
}

fn check(case: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let out = common::slasim().args(args).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{case}: {}", String::from_utf8_lossy(&out.stderr));
    let expected = std::fs::read_to_string(fixture(&format!("{case}.digest"))).unwrap();
    assert_eq!(digest(&db), expected, "{case}: stored outcomes differ from the store written before the change");
}

#[test]
fn every_strategy_on_the_synthetic_workload() {
    let config = fixture("synthetic.toml");
    check("synthetic", &["sweep", config.to_str().unwrap(), "--no-progress"]);
}

#[test]
fn chapter_6_points_of_ctc_and_sdsc_sp2() {
    for case in ["ctc-sp2", "sdsc-sp2"] {
        let config = fixture(&format!("{case}.toml"));
        check(case, &["sweep", config.to_str().unwrap(), "--no-progress"]);
    }
}

#[test]
fn the_classic_modes_on_the_whole_kth_log() {
    let args = [
        "run",
        "--trace",
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "--lenient",
        "--strategy",
        "easy",
        "--strategy",
        "conservative",
        "--strategy",
        "fcfs",
        "--failures",
        "none",
    ];
    check("classic-kth", &args);
}
