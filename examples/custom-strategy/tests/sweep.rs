//! The program built on slasim: its strategy and broker algorithm run from
//! configs beside the built-in ones, and land in the same store.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_slasim-custom-strategy");

/// The traces directory: `$SLASIM_TRACE_DIR`, else `../shared/data/traces`
/// beside the repository.
fn traces() -> PathBuf {
    std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/traces"))
}

fn slasim(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("SLASIM_TRACE_DIR", traces())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the example binary starts")
}

fn ok(args: &[&str]) -> String {
    let out = slasim(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned() + &stderr
}

fn rows(db: &Path, sql: &str) -> Vec<(String, i64, i64)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

#[test]
fn the_registered_names_are_listed_and_an_unknown_one_lists_them() {
    assert!(ok(&["list", "strategies"]).contains("sjf-backfilling"));
    assert!(ok(&["list", "algorithms"]).contains("a3b-unshuffled"));
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(
        &config,
        "name = \"bad\"\n\n[[sweep]]\nname = \"s\"\n[sweep.axes]\nstrategy = [\"sjf-backfiling\"]\n",
    )
    .unwrap();
    let out = slasim(&["sweep", config.to_str().unwrap(), "--db", dir.path().join("s.sqlite").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad.toml:6") && stderr.contains("unknown strategy `sjf-backfiling`"), "{stderr}");
    assert!(stderr.contains("f1-easy, sjf-backfilling"), "the registered names, built-in first: {stderr}");
}

#[test]
fn sjf_backfilling_tries_the_shortest_candidate_first_where_easy_takes_the_earliest() {
    // 4 processors. j1 (2 procs, 20 s) and j2 (2 procs, 100 s) start at 0;
    // j3 (4 procs) waits for both: its shadow time is 100, with no nodes to
    // spare. j4 (2 procs, 70 s) and j5 (2 procs, 40 s) wait. At 20 j1 ends
    // and 2 processors are free until 100:
    // - EASY tries j4 first (arrival order): 20 + 70 = 90 ≤ 100, it starts;
    //   j5 no longer fits. At 90 j4 ends, but j5 would end at 130 > 100 and
    //   there is no extra: j3 starts at 100, j5 at 110.
    // - SJF tries j5 first (40 s): it starts at 20 and ends at 60; then j4
    //   (60 + 70 = 130 > 100) must wait for j3: j3 at 100, j4 at 110.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("five.swf");
    let line = |id: u32, submit: u32, procs: u32, time: u32| {
        format!("{id} {submit} 0 {time} {procs} -1 -1 {procs} {time} -1 1 1 1 1 1 1 -1 -1\n")
    };
    let swf = String::from("; MaxProcs: 4\n")
        + &line(1, 0, 2, 20)
        + &line(2, 0, 2, 100)
        + &line(3, 1, 4, 10)
        + &line(4, 2, 2, 70)
        + &line(5, 3, 2, 40);
    std::fs::write(&trace, swf).unwrap();
    let db = dir.path().join("five.sqlite");
    let (trace, db_arg) = (trace.to_str().unwrap(), db.to_str().unwrap());
    ok(&["run", "--trace", trace, "--strategy", "easy", "--strategy", "sjf-backfilling", "--db", db_arg]);
    let starts = rows(&db, "SELECT strategy, swf_id, actual_start FROM jobs ORDER BY strategy, swf_id");
    let of =
        |strategy: &str| -> Vec<(i64, i64)> { starts.iter().filter(|r| r.0 == strategy).map(|r| (r.1, r.2)).collect() };
    assert_eq!(of("easy"), [(1, 0), (2, 0), (3, 100), (4, 20), (5, 110)]);
    assert_eq!(of("sjf-backfilling"), [(1, 0), (2, 0), (3, 100), (4, 110), (5, 20)]);
}

#[test]
fn the_sweeps_store_the_registered_strategy_and_algorithm_beside_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.sqlite");
    let db_arg = db.to_str().unwrap();
    ok(&["sweep", "backfilling.toml", "--db", db_arg, "--jobs", "2"]);
    ok(&["sweep", "grid.toml", "--db", db_arg, "--jobs", "2"]);
    // The whole CTC-SP2 log under each strategy: every job runs.
    let points = rows(&db, "SELECT strategy, jobs, successful FROM points ORDER BY strategy");
    let strategies: Vec<&str> = points.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(strategies, ["conservative", "easy", "fcfs", "sjf-backfilling"]);
    assert!(points.iter().all(|p| p.1 == 77_222 && p.2 == 77_222), "{points:?}");
    // Shortest first backfills more: a lower mean wait than EASY's.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let wait = |s: &str| -> f64 {
        conn.query_row("SELECT wait_mean FROM points WHERE strategy = ?", [s], |r| r.get(0)).unwrap()
    };
    assert!(wait("sjf-backfilling") < wait("easy"), "{} vs {}", wait("sjf-backfilling"), wait("easy"));
    let grid = rows(&db, "SELECT algorithm, seed, requests FROM grid_points ORDER BY algorithm, seed");
    let names: Vec<(&str, i64)> = grid.iter().map(|g| (g.0.as_str(), g.1)).collect();
    assert_eq!(names, [("a3b", 1), ("a3b", 2), ("a3b-unshuffled", 1), ("a3b-unshuffled", 2)]);
    // The same request workload for both algorithms, seed by seed.
    assert_eq!(grid[0].2, grid[2].2);
    assert_eq!(grid[1].2, grid[3].2);
    // A second sweep resumes: nothing left to simulate.
    assert!(ok(&["sweep", "backfilling.toml", "--db", db_arg]).contains("4 already there, 0 simulated"));
}
