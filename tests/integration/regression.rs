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

use crate::common;

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

/// A table's digest line: its name, rows and the sha256 of its CSV.
fn digest_line(name: &str, csv: &str) -> String {
    let hash: String = Sha256::digest(csv.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    format!("{name} {} {hash}\n", csv.matches('\n').count() - 1)
}

fn digest(db: &Path) -> String {
    TABLES.iter().map(|(name, sql)| digest_line(name, &slasim::store::query(db, sql).unwrap().to_csv())).collect()
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

/// Axes every setting of which the digests below keep: what a strategy,
/// model or method is, not how far a number is swept.
const EVERY_VALUE: &[&str] = &[
    "strategy",
    "placement",
    "pdf_source",
    "pdf_update",
    "acceptance",
    "failures",
    "estimates",
    "pricing_policy",
    "method",
    "algorithm",
    "request_workload",
    "reservation_option",
    "checkpointing",
    "pof_calibration",
    "pos_at",
    "replan_shortens",
    "bin_rounding",
    "kill_at_estimate",
    "workflow",
    "site",
    "sites",
    "trace",
];

/// The config with every sweep shrunk to a small shard that still holds
/// every setting of the axes in `EVERY_VALUE`: every fourth battery of the
/// first 20 (what `"all"` prepares in the reproduction configs), one seed,
/// at most five workflow submissions a point, and the first, middle and
/// last value of every other axis. (One battery and the ends of PoF_max
/// missed the change of 4853d82, which moved heuristic outcomes only where
/// several jobs end at one instant; this shard catches it.)
fn shrink(text: &str) -> String {
    use toml::Value;
    let mut config: toml::Table = toml::from_str(text).unwrap();
    let three = |values: Vec<Value>| -> Value {
        let n = values.len();
        if n > 3 {
            Value::Array(vec![values[0].clone(), values[(n - 1) / 2].clone(), values[n - 1].clone()])
        } else {
            Value::Array(values)
        }
    };
    // A range's values, as the config's `{ from, to, step }` spells them.
    let range = |t: &toml::Table| -> Vec<Value> {
        let num = |v: &Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap();
        let (from, to) = (num(&t["from"]), num(&t["to"]));
        let step = t.get("step").map_or(1.0, num);
        let integers = t["from"].is_integer() && t["to"].is_integer() && t.get("step").is_none_or(Value::is_integer);
        let n = ((to - from) / step + 1e-9).floor() as usize;
        (0..=n)
            .map(|i| {
                let v = from + i as f64 * step;
                if integers { Value::Integer(v.round() as i64) } else { Value::Float((v * 1e9).round() / 1e9) }
            })
            .collect()
    };
    let values = |v: &Value| -> Option<Vec<Value>> {
        match v {
            Value::Array(a) => Some(a.clone()),
            Value::Table(t) if t.contains_key("from") && t.contains_key("to") => Some(range(t)),
            _ => None,
        }
    };
    // Fewer workflow submissions per point: each is a whole provisioning.
    if let Some(Value::Table(provision)) = config.get_mut("provision") {
        if let Some(Value::Integer(n)) = provision.get_mut("submissions") {
            *n = (*n).min(5);
        }
    }
    if let Some(Value::Array(sweeps)) = config.get_mut("sweep") {
        for sweep in sweeps {
            let Some(Value::Table(axes)) = sweep.get_mut("axes") else { continue };
            for (name, value) in axes.iter_mut() {
                *value = match (name.as_str(), values(value)) {
                    (n, _) if EVERY_VALUE.contains(&n) => value.clone(),
                    ("battery", None) => Value::Array((0..20).step_by(4).map(Value::Integer).collect()),
                    ("battery", Some(all)) => Value::Array(all.into_iter().step_by(4).collect()),
                    ("seed" | "submissions", Some(all)) => Value::Array(all[..1].to_vec()),
                    (_, Some(all)) => three(all),
                    _ => value.clone(),
                };
            }
        }
    }
    toml::to_string(&config).unwrap()
}

/// Every table of a store as canonical CSV, a line per table: its name, rows
/// and sha256. Wall-clock columns and the config's file name are left out,
/// and the traces directory is written `$TRACES` (it differs by checkout).
fn store_digest(db: &Path) -> String {
    const WALL_CLOCK: &[&str] = &["started_at", "finished_at", "wall_seconds", "created_at", "code_version", "file"];
    let tables = slasim::store::query(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").unwrap();
    let traces = common::traces().display().to_string();
    let mut out = String::new();
    for row in &tables.rows {
        let name = &row[0];
        let columns = slasim::store::query(db, &format!("SELECT name FROM pragma_table_info('{name}')")).unwrap();
        let kept: Vec<&str> = columns.rows.iter().map(|r| r[0].as_str()).filter(|c| !WALL_CLOCK.contains(c)).collect();
        if kept.is_empty() {
            continue;
        }
        let list = kept.join(", ");
        let csv = slasim::store::query(db, &format!("SELECT {list} FROM {name} ORDER BY {list}"))
            .unwrap()
            .to_csv()
            .replace(&traces, "$TRACES");
        out.push_str(&digest_line(name, &csv));
    }
    out
}

/// The reproduction configs whose every setting a digest pins.
const REPRODUCTIONS: &[&str] = &[
    "ctc-sp2-chapter6",
    "ctc-sp2-computed-factor",
    "ctc-sp2-bases",
    "hpc2n-chapter6",
    "lanl-cm5-chapter6",
    "sdsc-blue-chapter6",
    "sdsc-ds-chapter6",
    "sdsc-sp2-chapter6",
    "paper-b",
    "fixed-reservations",
    "coreservation-6.2",
    "coreservation-6.4",
    "coreservation-6.5",
    "coreservation-6.6",
    "coreservation-6.7",
    "coreservation-6.8",
    "coreservation-6.9",
    "provisioning-ch3",
    "provisioning-ch4",
    "pricing-ch5",
    "provisioning-ch7",
];

/// Every strategy × placement × PDF kind × failure model × estimate setting
/// (and every other axis of `EVERY_VALUE`) of the reproduction configs, on
/// one battery or seed and the ends of the numeric axes: the whole store's
/// digest is pinned in `tests/fixtures/regression/settings/`.
/// `SLASIM_DIGESTS_WRITE=1` rewrites a digest (say why in the CHANGELOG).
#[test]
fn every_setting_of_the_reproduction_configs() {
    let write = std::env::var_os("SLASIM_DIGESTS_WRITE").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut differ = Vec::new();
    for name in REPRODUCTIONS {
        let text = std::fs::read_to_string(root.join("configs").join(format!("{name}.toml"))).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(format!("{name}.toml"));
        std::fs::write(&config, shrink(&text)).unwrap();
        let db = dir.path().join("r.sqlite");
        let started = std::time::Instant::now();
        let out = common::slasim()
            .current_dir(root)
            .args(["sweep", "--jobs", "2", "--no-progress", "--db"])
            .arg(&db)
            .arg(&config)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        eprintln!("{name}: swept in {:.1} s", started.elapsed().as_secs_f64());
        let digest = store_digest(&db);
        let fixture = fixture(&format!("settings/{name}.digest"));
        if write {
            std::fs::create_dir_all(fixture.parent().unwrap()).unwrap();
            std::fs::write(&fixture, &digest).unwrap();
        } else if std::fs::read_to_string(&fixture).unwrap_or_default() != digest {
            differ.push(format!("{name}:\n{digest}"));
        }
    }
    assert!(
        differ.is_empty(),
        "stored outcomes differ from the pinned digests (SLASIM_DIGESTS_WRITE=1 rewrites them; say why in the \
         CHANGELOG):\n{}",
        differ.join("\n")
    );
}
