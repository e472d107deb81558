//! The sweep engine as users drive it: resume after SIGKILL and Ctrl-C,
//! thread-count and sharding invariance, merge, bad configs, Slurm scripts.

use crate::common;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A sweep of 240 points that takes a few seconds on two cores.
const CONFIG: &str = r#"
name = "kill-test"
[workload.synthetic]
seed = 5
jobs = 26000

[prepare]
input_jobs = 24000
batteries = 24
battery_size = 1000

[failures]
model = "poisson"
lambda_per_hour = 1e-3
mu_per_hour = 0.5

[[sweep]]
name = "grid"
[sweep.axes]
strategy = ["comprehensive-overbooking", "heuristic-overbooking"]
pof_max = [0.1, 0.2, 0.3, 0.4, 0.5]
battery = "all"
"#;

fn write_config(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("sweep.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn sweep(args: &[&str]) -> (i32, String, String) {
    let out = common::slasim().arg("sweep").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn count(db: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap_or(0)
}

/// Every stored outcome (no wall-clock columns), in a canonical order.
fn outcomes(db: &Path) -> (String, String, String) {
    let q = |sql: &str| slasim::store::query(db, sql).unwrap().to_csv();
    (
        q("SELECT * FROM jobs ORDER BY run_id, job"),
        q("SELECT * FROM node_events ORDER BY run_id, seq"),
        q("SELECT run_id, strategy, trace, battery, seed, placement, acceptance, pof_max, security_factor, \
           penalty_ratio, pdf_source, failures, capacity, jobs, accepted, successful, failed, rejected, fees, \
           penalties, gain, utilisation, overbooked, overbooked_failed, overbooked_pof FROM points ORDER BY run_id"),
    )
}

fn spawn_sweep(config: &Path, db: &Path) -> Child {
    common::slasim()
        .args(["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap(), "--jobs", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `db` holds at least `n` points (or the child ends).
fn wait_for_points(child: &mut Child, db: &Path, n: i64) -> i64 {
    let start = Instant::now();
    loop {
        let done = if db.exists() { count(db, "points") } else { 0 };
        if done >= n || child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(120) {
            return done;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigkill_mid_sweep_then_rerun_completes_without_loss_or_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), CONFIG);
    let expected = 240;

    // A never-interrupted reference run.
    let reference = dir.path().join("reference.sqlite");
    let (code, out, err) = sweep(&[config.to_str().unwrap(), "--db", reference.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(count(&reference, "points"), expected);

    // Kill -9 once some points are committed.
    let db = dir.path().join("killed.sqlite");
    let mut child = spawn_sweep(&config, &db);
    let seen = wait_for_points(&mut child, &db, 30);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let committed = count(&db, "points");
    assert!(seen >= 30 && committed < expected, "killed too late or too early: {committed} of {expected} committed");
    // Every committed point is complete: its runs row, its jobs and its points row.
    assert_eq!(count(&db, "runs"), committed);
    assert_eq!(count(&db, "job_outcomes"), committed * 1000);

    // The re-run resumes and completes.
    let (code, out, err) = sweep(&[config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("{committed} already there")), "{out}");
    assert_eq!(count(&db, "points"), expected);
    assert_eq!(count(&db, "runs"), expected);
    assert_eq!(count(&db, "job_outcomes"), expected * 1000);
    assert_eq!(outcomes(&db), outcomes(&reference), "outcomes differ from the uninterrupted run");
}

#[cfg(unix)]
#[test]
fn ctrl_c_finishes_in_flight_points_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), CONFIG);
    let db = dir.path().join("interrupted.sqlite");
    let mut child = spawn_sweep(&config, &db);
    wait_for_points(&mut child, &db, 20);
    let pid = child.id().to_string();
    let status = std::process::Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stdout}{stderr}");
    assert!(stdout.contains("interrupted:") && stdout.contains("run the same command again to resume"), "{stdout}");
    assert!(stderr.contains("finishing the points in flight"), "{stderr}");
    let committed = count(&db, "points");
    assert!(committed < 240, "{committed}");
    assert_eq!(count(&db, "job_outcomes"), committed * 1000, "no partial point");
    let (code, out, err) = sweep(&[config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(count(&db, "points"), 240);
}

/// --jobs 1 and --jobs 2 give the same stored outcomes; so do two shards merged.
#[test]
fn thread_count_and_sharding_do_not_change_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let quick = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml");
    let quick = quick.to_str().unwrap();
    let one = dir.path().join("one.sqlite");
    let two = dir.path().join("two.sqlite");
    assert_eq!(sweep(&[quick, "--db", one.to_str().unwrap(), "--jobs", "1"]).0, 0);
    assert_eq!(sweep(&[quick, "--db", two.to_str().unwrap(), "--jobs", "2"]).0, 0);
    assert_eq!(outcomes(&one), outcomes(&two));
    assert_eq!(count(&one, "points"), 52);

    let shards: Vec<_> = (1..=2).map(|i| dir.path().join(format!("shard{i}.sqlite"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let spec = format!("{}/2", i + 1);
        let (code, out, err) = sweep(&[quick, "--db", shard.to_str().unwrap(), "--shard", &spec]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(&format!("shard {spec}: 26 points")), "{out}");
    }
    assert_eq!(count(&shards[0], "points") + count(&shards[1], "points"), 52);
    let merged = dir.path().join("merged.sqlite");
    let out = common::slasim()
        .args(["merge", shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--db", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("merged 2 stores"), "{out:?}");
    assert_eq!(outcomes(&merged), outcomes(&one));
    // Merging again into the same output is refused; so is merging a shard twice harmlessly.
    let again = common::slasim()
        .args(["merge", shards[0].to_str().unwrap(), "--db", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let twice = dir.path().join("twice.sqlite");
    let out = common::slasim()
        .args(["merge", shards[0].to_str().unwrap(), shards[0].to_str().unwrap(), "--db", twice.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(count(&twice, "points"), count(&shards[0], "points"), "no duplicates");
}

/// A store that holds every point of a config says so from its count of the
/// experiment's points (none is made); one that holds part of them runs the
/// rest; a merged store of shards is finished too.
#[test]
fn a_finished_sweep_is_recognised_from_its_count() {
    let dir = tempfile::tempdir().unwrap();
    let quick = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml");
    let quick = quick.to_str().unwrap();
    let db = dir.path().join("s.sqlite");
    let db = db.to_str().unwrap();
    let (code, out, err) = sweep(&[quick, "--db", db, "--shard", "1/2"]);
    assert_eq!(code, 0, "{out}{err}");
    let verbose = |args: &[&str]| {
        let out = common::slasim().arg("-vv").arg("sweep").args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let made = "finished: the store holds every point";
    let (out, err) = verbose(&[quick, "--db", db]);
    assert!(out.contains("26 already there, 26 simulated now"), "{out}");
    assert!(!err.contains(made), "half a sweep is not finished: {err}");
    let conn = rusqlite::Connection::open(db).unwrap();
    let points: i64 = conn.query_row("SELECT points FROM experiments", [], |r| r.get(0)).unwrap();
    assert_eq!(points, 52, "the experiment keeps its count of points");
    drop(conn);
    let (out, err) = verbose(&[quick, "--db", db]);
    assert!(out.contains("experiment quick ("), "{out}");
    assert!(out.contains("52 points"), "{out}");
    assert!(out.contains("52 already there, 0 simulated now"), "{out}");
    assert!(err.contains(made), "recognised from the count: {err}");
    // Shards merged: the merged store is finished as well.
    let shards: Vec<String> =
        (1..=2).map(|i| dir.path().join(format!("shard{i}.sqlite")).to_str().unwrap().to_string()).collect();
    for (i, shard) in shards.iter().enumerate() {
        assert_eq!(sweep(&[quick, "--db", shard, "--shard", &format!("{}/2", i + 1)]).0, 0);
    }
    let merged = dir.path().join("merged.sqlite");
    let merged = merged.to_str().unwrap();
    assert!(
        common::slasim().args(["merge", &shards[0], &shards[1], "--db", merged]).output().unwrap().status.success()
    );
    let (out, err) = verbose(&[quick, "--db", merged]);
    assert!(out.contains("52 already there, 0 simulated now") && err.contains(made), "{out}{err}");
}

/// `store_jobs = false` keeps each run's row and aggregates, and no row per
/// job: the aggregates are those of the same points with their jobs stored.
#[test]
fn store_jobs_false_keeps_the_aggregates_exact() {
    let dir = tempfile::tempdir().unwrap();
    let text = |store_jobs: &str| {
        format!(
            "name = \"rows\"\n{store_jobs}\n[workload.synthetic]\nseed = 3\nprocessors = 64\njobs = 400\n\
             [prepare]\nbatteries = 2\nbattery_size = 50\ninput_jobs = 200\n\
             [[sweep]]\n[sweep.axes]\nstrategy = [\"conservative-backfilling\", \"heuristic-overbooking\"]\n\
             seed = [1, 2]\nbattery = \"all\"\n"
        )
    };
    let run = |name: &str, store_jobs: &str| {
        let config = dir.path().join(format!("{name}.toml"));
        std::fs::write(&config, text(store_jobs)).unwrap();
        let db = dir.path().join(format!("{name}.sqlite"));
        let (code, out, err) = sweep(&[config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        db
    };
    let with = run("with", "");
    let without = run("without", "store_jobs = false");
    assert_eq!(count(&with, "job_outcomes"), 8 * 50);
    assert_eq!(count(&without, "job_outcomes"), 0, "no row per job");
    assert_eq!(count(&without, "runs"), 8);
    let aggregates = |db: &Path| {
        slasim::store::query(
            db,
            "SELECT strategy, seed, battery, failures, jobs, accepted, successful, failed, rejected, fees, penalties, \
             gain, utilisation, overbooked, overbooked_failed FROM points ORDER BY strategy, seed, battery",
        )
        .unwrap()
        .to_csv()
    };
    assert_eq!(aggregates(&with), aggregates(&without));
    assert!(aggregates(&with).lines().count() > 8, "{}", aggregates(&with));
}

#[test]
fn merging_different_configs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let quick = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml");
    let other_config = write_config(
        dir.path(),
        &std::fs::read_to_string(&quick).unwrap().replace("pof_max = [0.1, 0.3]", "pof_max = [0.2]"),
    );
    let a = dir.path().join("a.sqlite");
    let b = dir.path().join("b.sqlite");
    assert_eq!(sweep(&[quick.to_str().unwrap(), "--db", a.to_str().unwrap()]).0, 0);
    assert_eq!(sweep(&[other_config.to_str().unwrap(), "--db", b.to_str().unwrap()]).0, 0);
    let out = common::slasim()
        .args([
            "merge",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--db",
            dir.path().join("m.sqlite").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("refusing to merge stores of different configs"), "{err}");
    assert!(!dir.path().join("m.sqlite").exists());
}

#[test]
fn bad_configs_and_options_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("[prepare]\nbatteries = 2\nbogus = 1\n[[sweep]]\n", ":3:", "unknown field `bogus`"),
        ("[prepare]\nbatteries = \"two\"\n[[sweep]]\n", ":2:", "batteries"),
        (
            "[[sweep]]\n[sweep.axes]\nstrategy = [\"heuristic-planning\"]\npof_max = []\n",
            ":4:",
            "axis `pof_max` has no values",
        ),
        (
            "[[sweep]]\n[sweep.axes]\nstrategy = [\"heuristic-overbooking\"]\npof_max = [0.5, 2.0]\n",
            ":4:",
            "`pof_max` = 2",
        ),
        (
            "[[sweep]]\n[sweep.axes]\nstrategy = [\"heuristic-overbooking\"]\npos_at = [\"gap-middle\"]\n",
            ":4:",
            "axis `pos_at`: unknown variant `gap-middle`, expected `gap-start` or `likely-start`",
        ),
        ("[overbooking]\npos_at = \"soon\"\n[[sweep]]\n", ":2:", "unknown variant `soon`"),
    ];
    for (text, line, message) in cases {
        let config = write_config(dir.path(), text);
        let (code, _, err) = sweep(&[config.to_str().unwrap(), "--db", dir.path().join("x.sqlite").to_str().unwrap()]);
        assert_eq!(code, 1, "{text}");
        assert!(err.contains(&format!("sweep.toml{line}")), "{text}: {err}");
        assert!(err.contains(message), "{text}: {err}");
    }
    let quick = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml");
    let quick = quick.to_str().unwrap();
    let (code, _, err) = sweep(&[quick, "--shard", "3/2"]);
    assert_eq!(code, 1);
    assert!(err.contains("shard `3/2`: expected i/N with 1 ≤ i ≤ N"), "{err}");
    let (code, _, err) = sweep(&[quick, "--emit-slurm", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("--emit-slurm 0: needs at least one shard"), "{err}");
    let (code, _, err) = sweep(&[quick, "--emit-slurm", "53"]);
    assert_eq!(code, 1);
    assert!(err.contains("use at most 52"), "{err}");
    // More combinations than the bound: refused with the count and the axes
    // of each sweep, nothing stored; --max-points raises the bound.
    let many = write_config(
        dir.path(),
        "[[sweep]]\nname = \"seeds\"\n[sweep.axes]\nstrategy = [\"easy\", \"fcfs\"]\nseed = { from = 1, to = 1500 }\n\
         [[sweep]]\nname = \"one\"\n[sweep.axes]\nstrategy = [\"easy\"]\n",
    );
    let db = dir.path().join("many.sqlite");
    let (code, _, err) = sweep(&[many.to_str().unwrap(), "--max-points", "3000", "--db", db.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the sweeps make 3,001 combinations, more than 3,000 (--max-points raises the bound): seeds: 3,000 (strategy 2 × seed 1,500); one: 1 (strategy 1)"),
        "{err}"
    );
    assert!(!db.exists(), "nothing stored");
    let (code, out, err) = sweep(&[many.to_str().unwrap(), "--max-points", "3001", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    // The second sweep's point is one of the first's (easy, seed 1): it folds.
    assert!(out.contains("(3,000 points, single)"), "{out}");
    let script = dir.path().join("s.sbatch");
    let (code, _, err) =
        sweep(&[quick, "--emit-slurm", "4", "--partition", "bad name", "--script", script.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("--partition bad name"), "{err}");
    assert!(!script.exists(), "nothing written on a bad partition");
    let (code, out, err) = sweep(&[
        quick,
        "--emit-slurm",
        "4",
        "--partition",
        "batch",
        "--db",
        dir.path().join("q.sqlite").to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("submit it with: sbatch"), "{out}");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("#SBATCH --array=1-4") && text.contains("#SBATCH --partition=batch"), "{text}");
}

/// A Grid sweep on the SDSC-Blue log: 5 algorithms × 2 workloads × 3 seeds.
const GRID_CONFIG: &str = r#"
name = "grid-test"
[workload]
trace = "SDSC-BLUE-2000-4.2-cln.swf.gz"

[grid]
clusters = 4

[[sweep]]
name = "algorithms"
[sweep.axes]
algorithm = ["a1", "a2", "a3", "a3-star", "a3b"]
request_workload = ["r1", "r3"]
seed = [1, 2, 3]
"#;

/// Every stored Grid outcome (no wall-clock columns), in a canonical order.
fn grid_outcomes(db: &Path) -> Vec<String> {
    let q = |sql: &str| slasim::store::query(db, sql).unwrap().to_csv();
    vec![
        q("SELECT run_id, job, cluster, accepted, actual_start, actual_end, outcome FROM jobs ORDER BY run_id, job"),
        q("SELECT * FROM coreservations ORDER BY run_id, request"),
        q("SELECT * FROM subreservations ORDER BY run_id, request, part"),
        q("SELECT * FROM cluster_runs ORDER BY run_id, cluster"),
        q(
            "SELECT run_id, algorithm, clusters, request_workload, seed, requests, granted, failure_rate, messages_mean, \
           efficiency_mean, unfairness_mean, utilisation_mean, wait_max, wait_top10, expansion_factor \
           FROM grid_points ORDER BY run_id",
        ),
    ]
}

#[test]
fn grid_sweeps_are_thread_count_and_shard_invariant_and_resume_after_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("grid.toml");
    std::fs::write(&config, GRID_CONFIG).unwrap();
    let config = config.to_str().unwrap();
    let expected = 30;
    let one = dir.path().join("one.sqlite");
    let two = dir.path().join("two.sqlite");
    let (code, out, err) = sweep(&[config, "--db", one.to_str().unwrap(), "--jobs", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(sweep(&[config, "--db", two.to_str().unwrap(), "--jobs", "2"]).0, 0);
    assert_eq!(count(&one, "grid_points"), expected);
    let reference = grid_outcomes(&one);
    assert!(reference[1].lines().count() > 1000, "requests were stored");
    assert_eq!(grid_outcomes(&two), reference, "--jobs 1 vs --jobs 2");

    // Shards and their merge.
    let shards: Vec<_> = (1..=2).map(|i| dir.path().join(format!("grid-shard{i}.sqlite"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let spec = format!("{}/2", i + 1);
        assert_eq!(sweep(&[config, "--db", shard.to_str().unwrap(), "--shard", &spec]).0, 0);
    }
    let merged = dir.path().join("grid-merged.sqlite");
    let out = common::slasim()
        .args(["merge", shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--db", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(grid_outcomes(&merged), reference, "merged shards");

    // Kill -9 once some points are committed, then resume.
    let killed = dir.path().join("killed.sqlite");
    let mut child = common::slasim()
        .args(["sweep", config, "--db", killed.to_str().unwrap(), "--jobs", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let done = if killed.exists() { count(&killed, "grid_points") } else { 0 };
        if done >= 5 || child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let committed = count(&killed, "grid_points");
    assert!((5..expected).contains(&committed), "killed too late or too early: {committed} of {expected}");
    // Every committed point is whole.
    assert_eq!(count(&killed, "runs"), committed);
    assert_eq!(count(&killed, "cluster_runs"), committed * 4);
    let (code, out, err) = sweep(&[config, "--db", killed.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("{committed} already there")), "{out}");
    assert_eq!(grid_outcomes(&killed), reference, "resumed after SIGKILL");
}

#[test]
fn bad_grid_settings_name_the_setting_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let head = "[workload]\ntrace = \"SDSC-BLUE-2000-4.2-cln.swf.gz\"\n";
    let cases = [
        (format!("{head}[grid]\nclusters = 0\n[[sweep]]\n"), ":4:1", "`grid.clusters` = 0"),
        (
            format!("{head}[grid]\n[grid.windows]\ndays = 200\n[[sweep]]\n[sweep.axes]\nclusters = [2, 6]\n"),
            ":8:1",
            "more clusters than the log has whole 200-day windows",
        ),
        (format!("{head}[grid]\n[[sweep]]\n[sweep.axes]\nalgorithm = [\"a2\", \"a9\"]\n"), ":6:1", "unknown algorithm"),
        (format!("{head}[grid]\nminsize = 0\n[[sweep]]\n"), ":4:1", "`grid.minsize` = 0"),
        (format!("{head}[grid]\ncapacity = 100\n[[sweep]]\n"), ":4:1", "wider than every cluster"),
        (format!("{head}[[sweep]]\n[sweep.axes]\nclusters = [4]\n"), ":5:1", "axis `clusters` is a Grid setting"),
        (
            format!("{head}[grid]\n[[sweep]]\n[sweep.axes]\nstrategy = [\"heuristic-planning\"]\n"),
            ":6:1",
            "must be a queueing mode",
        ),
        (
            format!("{head}[grid]\nalgorithm = \"a5\"\n[[sweep]]\n[sweep.axes]\nstart_weight = [0.5, 1.5]\n"),
            ":7:1",
            "`grid.requests.start_weight` = 1.5: must lie in [0, 1]",
        ),
        (
            format!(
                "{head}[grid]\n[[grid.costs.tables]]\nclusters = [1]\nrates = [\n  {{ days = \"all\", from = 0, to = 8, \
                 price = 1.0 }},\n  {{ days = \"all\", from = 8, to = 24, price = -2.0 }},\n]\n[[sweep]]\n"
            ),
            ":8:3",
            "(cost table 1, rate 2): price -2 must be finite and ≥ 0",
        ),
        (
            format!(
                "{head}[grid]\n[[grid.costs.tables]]\nclusters = [1]\nrates = [{{ days = \"mon-sat\", from = 0, to = 24, \
                 price = 1.0 }}]\n[[sweep]]\n"
            ),
            ":6:1",
            "a gap in the hours: sun 00:00–01:00 has no price",
        ),
        (
            format!(
                "{head}[grid]\n[[grid.costs.tables]]\nclusters = [4]\nrates = [{{ days = \"all\", from = 0, to = 24, \
                 price = 1.0 }}]\n[[sweep]]\n"
            ),
            ":5:1",
            "cluster 4 does not exist (the grid has 4: 0–3)",
        ),
    ];
    for (text, at, message) in cases {
        let config = dir.path().join("bad.toml");
        std::fs::write(&config, &text).unwrap();
        let db = dir.path().join("bad.sqlite");
        let (code, out, err) = sweep(&[config.to_str().unwrap(), "--db", db.to_str().unwrap()]);
        assert_eq!(code, 1, "{text}\n{out}{err}");
        assert!(err.contains(&format!("bad.toml{at}")), "{text}\n{err}");
        assert!(err.contains(message), "{text}\n{err}");
        assert!(!db.exists(), "{text}: a store was written");
    }
    // The command line refuses the same values with exit status 1 and no store.
    let db = dir.path().join("cli.sqlite");
    for (args, message) in [
        (vec!["--clusters", "0"], "`grid.clusters` = 0"),
        (vec!["--algorithm", "a9"], "invalid value 'a9' for '--algorithm"),
        (vec!["--minsize", "0"], "`grid.minsize` = 0"),
        (vec!["--request-workload", "r9"], "invalid value 'r9' for '--request-workload"),
        (vec!["--capacity", "100", "--trace", "SDSC-BLUE-2000-4.2-cln.swf.gz"], "wider than every cluster"),
        (vec!["--clusters", "30", "--trace", "CTC-SP2-1996-3.1-cln.swf.gz"], "more clusters than the log has"),
    ] {
        let out = common::slasim().args(["grid", "run", "--db", db.to_str().unwrap()]).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!db.exists(), "{args:?}: a store was written");
    }
}

/// The heuristic-overbooking ablation (issue 17): each candidate is a swept
/// setting. Heuristic planning reads neither PoF_max nor the bin rounding, so
/// it runs once per trace filter: 20 batteries × (20 PoF_max + 1) × 4 filter
/// settings, plus 20 × 20 × 2 roundings, 20 × 20 with re-planning that
/// shortens and 20 × 20 with the PoS read at the likely start, of heuristic
/// overbooking.
#[test]
fn the_ablation_configs_sweep_each_candidate() {
    use slasim::experiment::config::Experiment;
    use slasim::single::point::SinglePoint;
    use slasim::single::policy::overbooking::PosAt;
    use slasim::single::stats::pdf::Rounding;
    for name in ["heuristic-ablation-ctc.toml", "heuristic-ablation-sdsc.toml"] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs").join(name);
        let e = Experiment::load(&slasim::registry(), &path).unwrap();
        let all = e.points.all(&slasim::registry()).unwrap();
        let singles: Vec<&SinglePoint> =
            all.iter().map(|p| p.point.get::<SinglePoint>().unwrap_or_else(|| panic!("{:?}", p.point))).collect();
        assert_eq!(e.points.len(), 20 * 21 * 4 + 20 * 20 * 4, "{name}");
        let filtered = |overruns: bool, completed: bool| {
            singles
                .iter()
                .filter(|p| {
                    let f = &p.prepare.filter;
                    f.drop_overruns == overruns && f.completed_only == completed
                })
                .count()
        };
        assert_eq!(
            [filtered(false, false), filtered(true, false), filtered(false, true), filtered(true, true)],
            [20 * 21 + 20 * 20 * 4, 420, 420, 420]
        );
        let shortens = singles.iter().filter(|p| p.overbooking.replan_shortens).count();
        assert_eq!(shortens, 20 * 20);
        let likely = singles.iter().filter(|p| p.overbooking.pos_at == PosAt::LikelyStart).count();
        assert_eq!(likely, 20 * 20);
        let floor = singles.iter().filter(|p| p.overbooking.pdf.bin_rounding == Rounding::Floor).count();
        assert_eq!(floor, 20 * 20);
    }
}
