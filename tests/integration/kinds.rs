//! One instrument: every point kind goes through the one config language,
//! the one executor (shards, merge, resume after SIGKILL) and the one store.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use slasim::units::thousands;

fn slasim(args: &[&str]) -> (i32, String, String) {
    let out = common::slasim().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn config(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs").join(name).to_str().unwrap().to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every provisioning and pricing table, row for row, without wall-clock
/// columns, in a canonical order.
fn provisioning_tables(db: &Path) -> Vec<(&'static str, String)> {
    let q = |sql: &str| slasim::store::query(db, sql).unwrap().to_csv();
    vec![
        (
            "provision_points",
            q("SELECT point_id, kind, experiment, workflow, workflow_tasks, task_processors, sites, traces, \
               target_load, exact_estimates, seed, submissions, config, method, share, alpha, pricing_policy \
               FROM provision_points ORDER BY point_id"),
        ),
        ("provision_sites", q("SELECT * FROM provision_sites ORDER BY point_id, site")),
        ("provision_submissions", q("SELECT * FROM provision_submissions ORDER BY point_id, submission, alpha")),
        ("priced_reservations", q("SELECT * FROM priced_reservations ORDER BY point_id, request")),
        ("pricing_harm", q("SELECT * FROM pricing_harm ORDER BY point_id")),
        ("slot_samples", q("SELECT * FROM slot_samples ORDER BY point_id, time, slots, tasks")),
        ("advertised_slots", q("SELECT * FROM advertised_slots ORDER BY point_id, time, start, duration, procs, edge")),
        ("experiment_points", q("SELECT * FROM experiment_points ORDER BY experiment, run_id")),
    ]
}

fn count(db: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap_or(0)
}

/// Adaptive pricing on the first ten days of CTC-SP2, half the jobs buying:
/// 4 points of about a second.
const PRICING: &str = r#"
name = "pricing-tiny"
seed = 1

[pricing]
days = 10.0
share = 50.0
site = { trace = "CTC-SP2-1996-3.1-cln.swf.gz", capacity = 430 }

[[sweep]]
name = "tiny"
[sweep.axes]
alpha = [0.0, 1.0]
seed = [1, 2]
"#;

/// Two shards merged hold exactly what one unsharded sweep holds, for the
/// provisioning config of Ch. 3 and a pricing config.
#[test]
fn provisioning_and_pricing_shards_merge_to_the_unsharded_store() {
    let dir = tempfile::tempdir().unwrap();
    let pricing = dir.path().join("pricing.toml");
    std::fs::write(&pricing, PRICING).unwrap();
    for (name, file) in [("ch3", config("provisioning-ch3.toml")), ("pricing", s(&pricing).to_string())] {
        let whole = dir.path().join(format!("{name}-whole.sqlite"));
        let (code, out, err) = slasim(&["sweep", &file, "--db", s(&whole), "--no-progress"]);
        assert_eq!(code, 0, "{out}{err}");
        let shards: Vec<PathBuf> = (1..=2).map(|i| dir.path().join(format!("{name}-{i}.sqlite"))).collect();
        for (i, shard) in shards.iter().enumerate() {
            let part = format!("{}/2", i + 1);
            let (code, out, err) = slasim(&["sweep", &file, "--shard", &part, "--db", s(shard), "--no-progress"]);
            assert_eq!(code, 0, "{out}{err}");
        }
        let merged = dir.path().join(format!("{name}-merged.sqlite"));
        let (code, out, err) = slasim(&["merge", s(&shards[0]), s(&shards[1]), "--db", s(&merged)]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("4 points"), "{out}");
        let (a, b) = (provisioning_tables(&whole), provisioning_tables(&merged));
        for ((table, x), (_, y)) in a.iter().zip(&b) {
            assert_eq!(x, y, "{name}: table {table} differs between the sharded and the whole sweep");
        }
        // The pieces are there: the whole store is not empty where it should not be.
        let filled = if name == "ch3" { "advertised_slots" } else { "priced_reservations" };
        assert!(count(&whole, filled) > 100, "{name}: {filled}");
        assert_eq!(count(&whole, "provision_points"), 4);
    }
}

/// Quick MOGA provisioning points on the synthetic default: 60 points of
/// about 50 ms, 1.5 s in all on two threads, so that the writer commits
/// them in several groups (a quarter second each) before the sweep ends.
const PROVISIONING: &str = r#"
name = "provisioning-kill-test"

[provision]
method = "moga"
submissions = 2
tasks = 20
task_processors = 8
alphas = [0.0, 1.0]
moga = { population = 10, generations = 2, sigma_share = 0.041 }
fork_window_days = 10.0

[[sweep]]
name = "seeds"
[sweep.axes]
seed = { from = 1, to = 60 }
"#;

/// kill -9 during a provisioning sweep, then the same command again: the
/// store equals an uninterrupted run's.
#[test]
fn sigkill_mid_provisioning_sweep_then_rerun_equals_the_uninterrupted_store() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("provisioning.toml");
    std::fs::write(&file, PROVISIONING).unwrap();
    let reference = dir.path().join("reference.sqlite");
    let (code, out, err) = slasim(&["sweep", s(&file), "--db", s(&reference), "--no-progress"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(count(&reference, "provision_points"), 60);

    let db = dir.path().join("killed.sqlite");
    let mut child = common::slasim()
        .args(["sweep", s(&file), "--db", s(&db), "--jobs", "2", "--no-progress"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !(db.exists() && count(&db, "provision_points") >= 3)
        && child.try_wait().unwrap().is_none()
        && start.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let committed = count(&db, "provision_points");
    assert!((3..60).contains(&committed), "killed too late or too early: {committed} of 60");
    // Every committed point is whole: its submissions (2 × 2 α) are there.
    assert_eq!(count(&db, "provision_submissions"), committed * 4);

    let (code, out, err) = slasim(&["sweep", s(&file), "--db", s(&db), "--no-progress"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("{committed} already there")), "{out}");
    let (a, b) = (provisioning_tables(&reference), provisioning_tables(&db));
    for ((table, x), (_, y)) in a.iter().zip(&b) {
        assert_eq!(x, y, "table {table} differs from the uninterrupted run");
    }
}

/// `slasim run --strategy easy` and a config point with the same settings are
/// one point: the same id and the same stored rows.
#[test]
fn the_command_line_and_a_config_store_the_same_point() {
    let dir = tempfile::tempdir().unwrap();
    let cli = dir.path().join("cli.sqlite");
    let (code, out, err) = slasim(&["run", "--strategy", "easy", "--db", s(&cli)]);
    assert_eq!(code, 0, "{out}{err}");
    let file = dir.path().join("easy.toml");
    std::fs::write(&file, "name = \"easy\"\n[[sweep]]\n[sweep.axes]\nstrategy = [\"easy\"]\n").unwrap();
    let swept = dir.path().join("config.sqlite");
    let (code, out, err) = slasim(&["sweep", s(&file), "--db", s(&swept), "--no-progress"]);
    assert_eq!(code, 0, "{out}{err}");
    let rows = |db: &Path| {
        let q = |sql: &str| slasim::store::query(db, sql).unwrap().to_csv();
        (
            q("SELECT run_id, strategy, battery, battery_key, seed, capacity, config, config_hash FROM runs"),
            q("SELECT * FROM jobs ORDER BY run_id, job"),
            q("SELECT * FROM node_events ORDER BY run_id, seq"),
            q("SELECT * FROM points").lines().map(|l| l.to_string()).collect::<Vec<_>>().len(),
        )
    };
    let (a, b) = (rows(&cli), rows(&swept));
    assert_eq!(count(&cli, "runs"), 1);
    assert_eq!(a, b);
    let metrics = |db: &Path| {
        slasim::store::query(db, "SELECT jobs, successful, wait_mean, makespan, utilisation FROM points").unwrap().rows
    };
    assert_eq!(metrics(&cli), metrics(&swept));
}

/// Every config in `configs/` expands, under `--dry-run`, to its number of
/// points, and runs nothing.
#[test]
fn every_config_dry_runs_with_its_point_count() {
    let expected = [
        ("calibration-study-pof-0.1.toml", 600),
        ("calibration-study-pof-0.3.toml", 600),
        ("carbon-quick.toml", 8),
        ("carbon-shifting-gpu.toml", 300),
        ("carbon-shifting-logs.toml", 600),
        ("coreservation-6.2.toml", 2),
        ("coreservation-6.4.toml", 80),
        ("coreservation-6.5.toml", 30),
        ("coreservation-6.6.toml", 60),
        ("coreservation-6.7.toml", 30),
        ("coreservation-6.8.toml", 105),
        ("coreservation-6.9.toml", 115),
        ("crates-grid.toml", 2),
        ("crates-pricing.toml", 8),
        ("crates-provisioning.toml", 2),
        ("ctc-sp2-bases.toml", 80),
        ("ctc-sp2-chapter6.toml", 3000),
        // PoF_max 0 … 1 for the overbooking strategies; the two bases once.
        ("ctc-sp2-computed-factor.toml", 1300),
        ("fixed-reservations.toml", 180),
        ("heuristic-ablation-ctc.toml", 3280),
        ("heuristic-ablation-sdsc.toml", 3280),
        ("hpc2n-chapter6.toml", 3000),
        ("lanl-cm5-chapter6.toml", 3000),
        ("million-points.toml", 1_000_000),
        ("offline-rl.toml", 500),
        ("online-pdfs-study.toml", 1920),
        ("paper-b-unguarded.toml", 6),
        ("paper-b.toml", 610),
        ("power-idle-timeouts.toml", 30),
        ("power-kth-fcfs-sleep.toml", 4),
        // 350 settings of its figures, 60 of them shared by two (Fig. 29's
        // conservative arm is Fig. 23's), run once each.
        ("pricing-ch5.toml", 290),
        ("provisioning-ch3.toml", 4),
        // Fig. 14's SDSC point at 100 tasks is Fig. 15's at 6 processors per task.
        ("provisioning-ch4.toml", 46),
        ("provisioning-ch7.toml", 48),
        ("quick.toml", 52),
        ("scale-100k.toml", 100),
        ("sdsc-blue-chapter6.toml", 3000),
        ("sdsc-ds-chapter6.toml", 3000),
        ("sdsc-sp2-chapter6.toml", 3000),
        ("sla-centre-fortnight.toml", 18),
        ("sla-centre-reservations.toml", 48),
        ("sla-gpu-cluster-month.toml", 140),
        ("sla-gpu-cluster-v2023.toml", 200),
        ("sla-gpu-machine.toml", 50),
        ("slurm-kestrel-fortnight.toml", 2),
        ("slurm-month-centre-parts.toml", 5),
        ("slurm-month-centre.toml", 1),
        ("slurm-month.toml", 1),
        ("slurm-priority-sweep.toml", 1000),
        ("slurm-what-if.toml", 60),
        ("small-points.toml", 20_000),
    ];
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".toml"))
        .collect();
    files.sort();
    let listed: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, listed, "a config without its expected point count (or one that is gone)");
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("none.sqlite");
    for (name, points) in expected {
        let (code, out, err) = slasim(&["sweep", &config(name), "--dry-run", "--db", s(&db)]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let summary = out.lines().last().unwrap_or_default();
        assert!(
            summary.contains(&format!(": {} points, 0 already in", thousands(points))),
            "{name}: expected {points} points: {summary}"
        );
        assert_eq!(out.lines().count(), points + 1, "{name}: one line per point and the summary");
    }
    assert!(!db.exists(), "a dry run wrote a store");
    // Bad input: --dry-run with --emit-slurm, and a config of the old provisioning dialect.
    let (code, _, err) = slasim(&["sweep", &config("quick.toml"), "--dry-run", "--emit-slurm", "2"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--dry-run") && err.contains("--emit-slurm"), "{err}");
    let old = tmp.path().join("old.toml");
    std::fs::write(&old, "name = \"old\"\n\n[defaults]\nseed = 1\n\n[[group]]\nname = \"g\"\npool = []\n").unwrap();
    let (code, _, err) = slasim(&["sweep", s(&old), "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("old.toml:3:1") && err.contains("[provision]"), "{err}");
    // An axis of another kind names itself and its line.
    let wrong = tmp.path().join("wrong.toml");
    std::fs::write(&wrong, "[provision]\n[[sweep]]\n[sweep.axes]\npof_max = [0.1]\n").unwrap();
    let (code, _, err) = slasim(&["sweep", s(&wrong), "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("wrong.toml:4:1") && err.contains("axis `pof_max` is a single-cluster setting"), "{err}");
}

/// Point ids are stored in every store: those of earlier versions stay.
#[test]
fn provisioning_point_ids_of_earlier_versions_stay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    for (config, ids) in [
        ("provisioning-ch3.toml", [1593941871666343950, 1346202431474796465]),
        ("provisioning-ch7.toml", [893587144497815523, 247929184619477614]),
    ] {
        let e = slasim::experiment::config::Experiment::load(&slasim::registry(), root.join(config)).unwrap();
        let found: Vec<i64> = e.points.ids().take(2).collect();
        assert_eq!(found, ids, "{config}");
    }
}
