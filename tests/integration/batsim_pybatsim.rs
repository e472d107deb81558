//! The `batsim` strategy against pybatsim 3.2.1 (installed by
//! `.ci/pip-install-batsim` into target/batsim-venv, or `$SLASIM_BATSIM_VENV`):
//! the FCFS of `examples/batsim/` reproduces the built-in `fcfs` on the whole
//! KTH-SP2 log, job by job; pybatsim's `fcfsSchedSleep` is refused at its
//! first SET_RESOURCE_STATE without a power model, and runs unmodified from
//! `configs/power-kth-fcfs-sleep.toml` with one; a scheduler that crashes mid-run is an error; a
//! sweep of two points (two scheduler processes, two ports) stores the same
//! outcomes with `--jobs 2` as with `--jobs 1`; evalys 4.0.7 reads the job
//! table and draws its Gantt chart.
//!
//! They need pybatsim and evalys, so plain `cargo test` ignores them;
//! `.ci/run` installs both and then runs them:
//!
//!     .ci/pip-install-batsim
//!     cargo test --release --locked --workspace --test integration batsim_pybatsim:: -- --ignored
//!
//! Run without them installed, they fail, naming `.ci/pip-install-batsim`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::batsim::BatsimConfig;
use slasim::single::policy::{Placement, StrategySettings};
use slasim::single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim::single::workload::job::Job;

/// The virtual environment with pybatsim and evalys; panics, naming the
/// install command, when they are not there.
fn venv() -> PathBuf {
    let dir = std::env::var_os("SLASIM_BATSIM_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/batsim-venv"));
    let python = dir.join("bin/python");
    let ok = Command::new(&python).args(["-c", "import batsim, evalys"]).output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "pybatsim and evalys are not installed in {} (SLASIM_BATSIM_VENV, else target/batsim-venv): \
         run .ci/pip-install-batsim",
        dir.display()
    );
    dir
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/batsim").join(name).display().to_string()
}

/// A pybatsim command template listening on 127.0.0.1:{port}.
fn pybatsim(venv: &Path, scheduler: &str, export: &Path) -> String {
    // `export-prefix`: the new scheduler API writes an event log there, not in the working directory.
    format!(
        "{} {scheduler} -s tcp://127.0.0.1:{{port}} -v warning -o '{{\"export-prefix\": \"{}\"}}'",
        venv.join("bin/pybatsim").display(),
        export.display()
    )
}

fn kth() -> String {
    common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz").display().to_string()
}

type Row = (i64, Option<i64>, Option<i64>, String);

fn jobs_of(db: &Path, strategy: &str) -> Vec<Row> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut q =
        c.prepare("SELECT job, actual_start, actual_end, outcome FROM jobs WHERE strategy = ?1 ORDER BY job").unwrap();
    q.query_map([strategy], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn the_example_fcfs_reproduces_builtin_fcfs_on_the_whole_kth_log() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kth.sqlite");
    let command = pybatsim(&venv, &example("fcfs.py"), &dir.path().join("out"));
    let out = common::slasim()
        .args(["run", "--trace", &kth(), "--whole-log", "--lenient", "--failures", "none"])
        .args(["--strategy", "fcfs", "--strategy", "batsim", "--scheduler-command", &command])
        .args(["--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let builtin = jobs_of(&db, "fcfs");
    let external = jobs_of(&db, "batsim");
    assert_eq!(builtin.len(), 28_475);
    assert_eq!(external.len(), 28_475);
    let differing: Vec<_> = builtin.iter().zip(&external).filter(|(a, b)| a != b).take(5).collect();
    assert!(differing.is_empty(), "first differing jobs (built-in, pybatsim): {differing:?}");
    // pybatsim's own EASY, unmodified, to the end of the log; then every
    // stored schedule is checked against the machine's 100 processors.
    let command = pybatsim(&venv, "easyBackfill", &dir.path().join("out"));
    let out = common::slasim()
        .args(["run", "--trace", &kth(), "--whole-log", "--lenient", "--failures", "none"])
        .args(["--strategy", "batsim", "--scheduler-command", &command, "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let c = rusqlite::Connection::open(&db).unwrap();
    let runs: Vec<i64> = c
        .prepare("SELECT run_id FROM runs")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(runs.len(), 3);
    for run in runs {
        let mut q = c
            .prepare("SELECT actual_start, actual_end, nodes FROM jobs WHERE run_id = ?1 AND actual_start IS NOT NULL")
            .unwrap();
        let spans: Vec<(i64, i64, i64)> =
            q.query_map([run], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
        assert_eq!(spans.len(), 28_475, "run {run}: every job ran");
        let peak = common::testing::peak_use(&spans);
        assert!(peak <= 100, "run {run}: {peak} processors in use at once on a machine of 100");
    }
}

/// A small workload: 6 jobs on 4 machines.
fn small_swf(dir: &Path) -> PathBuf {
    common::write_swf(
        dir,
        4,
        &[(0, 2, 100, 50), (0, 2, 100, 120), (10, 3, 40, 30), (10, 1, 30, 30), (30, 4, 60, 20), (30, 1, 10, 10)],
    )
}

#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn fcfs_sched_sleep_without_a_power_model_is_refused_at_its_first_power_state_decision() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sleep.sqlite");
    let command = pybatsim(&venv, "fcfsSchedSleep", &dir.path().join("out"));
    let out = common::slasim()
        .args(["run", "--trace", small_swf(dir.path()).to_str().unwrap(), "--failures", "none"])
        .args(["--strategy", "batsim", "--scheduler-command", &command, "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("SET_RESOURCE_STATE"), "{err}");
    assert!(err.contains("the cluster has no power model: add [energy] with [energy.sleep]"), "{err}");
    let c = rusqlite::Connection::open(&db).unwrap();
    let runs: i64 = c.query_row("SELECT COUNT(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(runs, 0);
}

/// The shipped `configs/power-kth-fcfs-sleep.toml`: pybatsim's
/// `fcfsSchedSleep`, unmodified, on the first 3,000 KTH-SP2 jobs beside the
/// built-in `fcfs` with and without idle shutdown. Every job of every run
/// succeeds; the sleeper switches nodes and uses less energy than nodes
/// always on; and in the re-simulated schedule no job runs on a node that
/// is not on (no bar over a shade of its node) and no node runs two jobs.
#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn fcfs_sched_sleep_runs_unmodified_beside_the_builtin_fcfs() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("power.sqlite");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("configs/power-kth-fcfs-sleep.toml")).unwrap();
    assert!(shipped.contains("target/batsim-venv/bin/pybatsim fcfsSchedSleep"));
    let config = dir.path().join("power-kth-fcfs-sleep.toml");
    let pybatsim = venv.join("bin/pybatsim").display().to_string();
    std::fs::write(&config, shipped.replace("target/batsim-venv/bin/pybatsim", &pybatsim)).unwrap();
    let out = common::slasim()
        .current_dir(dir.path())
        .args(["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let c = rusqlite::Connection::open(&db).unwrap();
    let mut q = c
        .prepare(
            "SELECT p.run_id, p.strategy, p.energy_policy, p.idle_timeout, p.jobs, p.successful, e.joules, \
             (SELECT transitions FROM energy_states s WHERE s.run_id = p.run_id AND s.state = 'switching-off') \
             FROM points p JOIN energy e USING (run_id) ORDER BY p.strategy, p.energy_policy, p.idle_timeout",
        )
        .unwrap();
    type Stored = (i64, String, String, i64, i64, i64, f64, i64);
    let rows: Vec<Stored> = q
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let keys: Vec<(&str, &str, i64)> = rows.iter().map(|r| (r.1.as_str(), r.2.as_str(), r.3)).collect();
    assert_eq!(
        keys,
        [("batsim", "none", 0), ("fcfs", "idle-shutdown", 600), ("fcfs", "idle-shutdown", 3600), ("fcfs", "none", 0)]
    );
    for r in &rows {
        assert_eq!((r.4, r.5), (3000, 3000), "{r:?}: every job ran to success");
    }
    let (sleeper, always_on) = (&rows[0], &rows[3]);
    assert!(sleeper.7 > 0, "fcfsSchedSleep switched no node off: {sleeper:?}");
    assert_eq!(always_on.7, 0);
    assert!(sleeper.6 < always_on.6, "fcfsSchedSleep used {} J, nodes always on {} J", sleeper.6, always_on.6);
    // The Gantt sources are the kinds': registered as the binary does.
    for r in &rows {
        let source = slasim::report::gantt::for_run(&slasim::registry(), &db, r.0).unwrap();
        let band = &source.bands[0];
        assert_eq!(band.items.len(), 3000);
        if r.7 > 0 {
            assert!(!band.outages.is_empty(), "{r:?}: no sleeping node drawn");
        }
        let mut by_node: Vec<Vec<(i64, i64)>> = vec![Vec::new(); band.nodes as usize];
        for item in &band.items {
            for &n in &item.nodes {
                by_node[n as usize].push((item.start, item.end));
            }
        }
        for spans in &mut by_node {
            spans.sort_unstable();
            for w in spans.windows(2) {
                assert!(w[0].1 <= w[1].0, "{r:?}: a node runs two jobs at once: {w:?}");
            }
        }
        for o in &band.outages {
            for &(start, end) in &by_node[o.node as usize] {
                assert!(
                    end <= o.from || o.to <= start,
                    "{r:?}: a job runs over [{start}, {end}) on node {} while it is {:?} over [{}, {})",
                    o.node,
                    o.kind,
                    o.from,
                    o.to
                );
            }
        }
    }
}

#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn a_scheduler_that_crashes_mid_run_is_an_error_with_its_last_words() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    // easyBackfill implements no machine events: a failure at t = 5 kills it.
    let jobs: Vec<Job> = (0..4).map(|i| Job::without_sla(i, 0, 1, 100, 50)).collect();
    let failures = FailureStream {
        nodes: 4,
        events: vec![
            NodeEvent { time: 5, kind: NodeEventKind::Fail, node: 3 },
            NodeEvent { time: 60, kind: NodeEventKind::Repair, node: 3 },
        ],
        source_records: 0,
    };
    let config = BatsimConfig {
        command: Some(pybatsim(&venv, "easyBackfill", &dir.path().join("out"))),
        timeout: 20.0,
        ..BatsimConfig::default()
    };
    let settings =
        StrategySettings { batsim: Some(Arc::new(config)), ..common::settings("fcfs", Placement::BestFit, &[], 0.1) };
    let strategy = slasim::single::policy::build("batsim", &settings, 4).unwrap();
    let err =
        simulate(Scenario::new(4, jobs, failures, strategy)).expect_err("easyBackfill cannot take machine events");
    let text = err.to_string();
    assert!(text.starts_with("external scheduler, at t = 5: the scheduler process exited (exit status: 1)"), "{text}");
    assert!(text.contains("NotImplementedError"), "{text}");
}

#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn a_sweep_stores_the_same_outcomes_with_one_or_two_threads() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    // Two points, each its own scheduler (the example FCFS and pybatsim's
    // EASY) in its own process on its own port, on 600 synthetic jobs.
    let quoted = |c: String| format!("\"{}\"", c.replace('\\', "\\\\").replace('"', "\\\""));
    let fcfs = quoted(pybatsim(&venv, &example("fcfs.py"), &dir.path().join("out-fcfs")));
    let easy = quoted(pybatsim(&venv, "easyBackfill", &dir.path().join("out-easy")));
    let config = format!(
        "name = \"batsim-two\"\n\
         [workload.synthetic]\njobs = 600\nseed = 5\nprocessors = 64\n\
         [failures]\nmodel = \"none\"\n\
         [batsim]\ntimeout = 30\n\
         [[sweep]]\nname = \"two\"\n[sweep.axes]\nstrategy = [\"batsim\"]\nscheduler_command = [{fcfs}, {easy}]\n"
    );
    let path = dir.path().join("two.toml");
    std::fs::write(&path, config).unwrap();
    let outcomes = |threads: &str| {
        let db = dir.path().join(format!("two-{threads}.sqlite"));
        let out = common::slasim()
            .args(["sweep", path.to_str().unwrap(), "--jobs", threads, "--db", db.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let c = rusqlite::Connection::open(&db).unwrap();
        let mut q = c
            .prepare("SELECT run_id, job, actual_start, actual_end, outcome FROM job_outcomes ORDER BY run_id, job")
            .unwrap();
        q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<i64>>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
    };
    let one = outcomes("1");
    assert_eq!(one.len(), 1200);
    let runs: std::collections::BTreeSet<i64> = one.iter().map(|r| r.0).collect();
    assert_eq!(runs.len(), 2);
    assert_eq!(one, outcomes("2"));
}

#[test]
#[ignore = "needs pybatsim and evalys: run .ci/pip-install-batsim, then --ignored"]
fn evalys_reads_the_job_table_and_draws_a_gantt_chart() {
    let venv = venv();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("small_jobs.csv");
    let png = dir.path().join("gantt.png");
    let command = pybatsim(&venv, &example("fcfs.py"), &dir.path().join("out"));
    let out = common::slasim()
        .args(["run", "--trace", small_swf(dir.path()).to_str().unwrap(), "--failures", "none"])
        .args(["--strategy", "batsim", "--scheduler-command", &command])
        .args(["--db", dir.path().join("g.sqlite").to_str().unwrap(), "--out", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(venv.join("bin/python"))
        .args([&example("gantt.py"), csv.to_str().unwrap(), png.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("6 jobs on 4 resources"), "{stdout}");
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[1..4], b"PNG");
    assert!(png_bytes.len() > 5_000, "{} bytes", png_bytes.len());
}
