//! Energy by the hour (`[signals]`): a two-node run worked out by hand
//! against the store's `job_carbon` and `run_carbon` rows, a shipped config
//! on real regional signals, and located refusals that store nothing.

use crate::common;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

/// Monday 2023-01-02 00:00:00 UTC: the signals' first sample, and (the
/// default `start`) the run's virtual time 0.
const MONDAY: i64 = 1_672_617_600;
const HOUR: i64 = 3600;

/// A plain signal file `name` in `dir`: hourly samples over one week (the
/// shortest a signal may be to be aligned), `first` for the first hours and
/// `rest` after them.
fn signal(dir: &Path, name: &str, unit: &str, first: &[f64], rest: f64) -> PathBuf {
    let mut text = format!("time,{unit}\n");
    for h in 0..7 * 24 {
        let v = first.get(h as usize).copied().unwrap_or(rest);
        text.push_str(&format!("{},{v}\n", MONDAY + h * HOUR));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Sweeps `config` (written to `dir`) into `dir/c.sqlite`: success, stderr.
fn sweep(dir: &Path, config: &str) -> (bool, String, PathBuf) {
    let file = dir.join("c.toml");
    std::fs::write(&file, config).unwrap();
    let db = dir.join("c.sqlite");
    let out = common::slasim()
        .env("SLASIM_SIGNAL_DIR", common::signals())
        .arg("sweep")
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned(), db)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Two nodes at 100 W idle and 200 W busy, FCFS, no failures:
/// - j0: 1 node, 1 h, submitted at 0: runs [0 h, 1 h);
/// - j1: 1 node, 2 h, submitted at 0: runs [0 h, 2 h);
/// - j2: 2 nodes, 1 h, submitted at 1 h: waits for j1, runs [2 h, 3 h).
///
/// The cluster draws 400 W in hour 0 (two busy), 300 W in hour 1 (one busy,
/// one idle), 400 W in hour 2: 1.1 kWh over the window [0, 3 h).
///
/// Held hourly signals: carbon 100, 300, 200 gCO2eq/kWh, then 50; price 40,
/// −10, 100 EUR/MWh, then 0; renewable supply 500, 150, 0 W.
///
/// Each job's own energy (busy watts × its nodes over its run):
/// - j0: 200 W × 1 h = 0.2 kWh at 100 → 20 g; 0.0002 MWh × 40 = 0.008 EUR;
/// - j1: 0.2 kWh at 100 + 0.2 kWh at 300 → 80 g; 0.008 − 0.002 = 0.006 EUR;
/// - j2: 400 W × 1 h = 0.4 kWh at 200 → 80 g; 0.0004 × 100 = 0.04 EUR.
///
/// The rest is the idle node in hour 1: 100 W × 1 h = 0.1 kWh (360,000 J)
/// at 300 → 30 g, and 0.0001 × −10 = −0.001 EUR, shared by node-seconds:
/// j0 3,600, j1 7,200, j2 7,200 of 18,000, i.e. 0.2, 0.4, 0.4:
/// - j0: 720,000 + 72,000 = 792,000 J; 20 + 6 = 26 g; 0.008 − 0.0002 = 0.0078 EUR;
/// - j1: 1,440,000 + 144,000 = 1,584,000 J; 80 + 12 = 92 g; 0.006 − 0.0004 = 0.0056 EUR;
/// - j2: 1,440,000 + 144,000 = 1,584,000 J; 80 + 12 = 92 g; 0.04 − 0.0004 = 0.0396 EUR.
///
/// The run: 0.4 kWh at 100 + 0.3 at 300 + 0.4 at 200 = 210 g (= 26 + 92 + 92);
/// 0.016 − 0.003 + 0.04 = 0.053 EUR (the jobs' sum); renewable used
/// min(500, 400) + min(150, 300) + min(0, 400) = 400 + 150 + 0 W over an
/// hour each = 0.55 kWh, a share of 0.5.
#[test]
fn a_two_node_run_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let swf = common::write_swf(d, 2, &[(0, 1, HOUR, HOUR), (0, 1, 2 * HOUR, 2 * HOUR), (HOUR, 2, HOUR, HOUR)]);
    let carbon = signal(d, "carbon.csv", "gCO2eq/kWh", &[100.0, 300.0, 200.0], 50.0);
    let price = signal(d, "price.csv", "EUR/MWh", &[40.0, -10.0, 100.0], 0.0);
    let sun = signal(d, "sun.csv", "W", &[500.0, 150.0, 0.0], 0.0);
    let config = format!(
        r#"name = "carbon"

[workload]
trace = "{}"

[energy]
idle_watts = 100.0
busy_watts = 200.0
down_watts = 0.0

[signals]
carbon = "{}"
price = "{}"
renewable = "{}"

[[sweep]]
name = "fcfs"
[sweep.axes]
strategy = ["fcfs"]
failures = ["none"]
"#,
        swf.display(),
        carbon.display(),
        price.display(),
        sun.display()
    );
    let (ok, err, db) = sweep(d, &config);
    assert!(ok, "{err}");
    let conn = Connection::open(&db).unwrap();
    let starts: Vec<(i64, i64, i64)> = conn
        .prepare("SELECT job, actual_start, actual_end FROM job_outcomes ORDER BY job")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(starts, [(0, 0, HOUR), (1, 0, 2 * HOUR), (2, 2 * HOUR, 3 * HOUR)], "the schedule above");
    let jobs: Vec<(i64, f64, f64, f64)> = conn
        .prepare("SELECT job, joules, kg_co2, cost FROM job_carbon ORDER BY job")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let expected = [(0, 792_000.0, 0.026, 0.0078), (1, 1_584_000.0, 0.092, 0.0056), (2, 1_584_000.0, 0.092, 0.0396)];
    assert_eq!(jobs.len(), 3);
    for (got, want) in jobs.iter().zip(expected) {
        assert_eq!(got.0, want.0);
        assert!(
            close(got.1, want.1) && close(got.2, want.2) && close(got.3, want.3),
            "job {}: {got:?}, by hand {want:?}",
            want.0
        );
    }
    let run: (Option<String>, f64, f64, f64, String, f64, f64, f64) = conn
        .query_row(
            "SELECT region, kwh, kg_co2, cost, currency, renewable_kwh, renewable_share, shared_kwh FROM run_carbon",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)),
        )
        .unwrap();
    assert_eq!(run.0, None);
    assert_eq!(run.4, "EUR");
    for (got, want, what) in [
        (run.1, 1.1, "kWh"),
        (run.2, 0.21, "kg"),
        (run.3, 0.053, "cost"),
        (run.5, 0.55, "renewable kWh"),
        (run.6, 0.5, "share"),
        (run.7, 0.1, "shared kWh"),
    ] {
        assert!(close(got, want), "{what}: {got}, by hand {want}");
    }
    // The meter's joules are the run's.
    let joules: f64 = conn.query_row("SELECT joules FROM energy", [], |r| r.get(0)).unwrap();
    assert!(close(joules, 3_960_000.0));
    // The report's section shows the run.
    let out = common::slasim().args(["report", "--db"]).arg(&db).args(["--table", "carbon"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("EUR") && table.contains("fcfs"), "{table}");
}

/// The shipped config on the shipped DE-LU and US-CAL-CISO 2023 signals:
/// every run has its rows, the intensity its energy was drawn at lies within
/// the region's hourly range, and its jobs' figures sum to the run's.
#[test]
fn a_shipped_config_on_real_regional_signals() {
    let dir = tempfile::tempdir().unwrap();
    let config =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/carbon-quick.toml")).unwrap();
    let (ok, err, db) = sweep(dir.path(), &config);
    assert!(ok, "{err}");
    let conn = Connection::open(&db).unwrap();
    let runs: i64 = conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(runs, 8);
    let rows: Vec<(i64, String, f64, f64, f64, String)> = conn
        .prepare("SELECT run_id, region, kwh, kg_co2, cost, currency FROM run_carbon ORDER BY run_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 8);
    // Hourly lca ranges of the 2023 files (`slasim signal info`).
    let ranges = [("DE-LU", 126.85, 725.46), ("US-CAL-CISO", 0.0, 1000.0)];
    for (run, region, kwh, kg, cost, currency) in rows {
        assert!(kwh > 0.0 && cost.is_finite(), "{run}");
        assert_eq!(currency, "USD");
        let g_per_kwh = 1000.0 * kg / kwh;
        let (_, lo, hi) = ranges.iter().find(|r| r.0 == region).unwrap();
        assert!(*lo <= g_per_kwh && g_per_kwh <= *hi, "{region}: {g_per_kwh} g/kWh");
        let (jobs_kg, jobs_cost, jobs_j): (f64, f64, f64) = conn
            .query_row("SELECT sum(kg_co2), sum(cost), sum(joules) FROM job_carbon WHERE run_id = ?", [run], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert!((jobs_kg - kg).abs() <= 1e-6 * kg, "{run}: {jobs_kg} vs {kg}");
        assert!((jobs_cost - cost).abs() <= 1e-6 * cost.abs().max(1e-3), "{run}");
        assert!((jobs_j / 3.6e6 - kwh).abs() <= 1e-6 * kwh, "{run}");
    }
}

/// A config on the two-node log with `signals` as given (and `[energy]`
/// unless `energy` is false).
fn config_with(d: &Path, signals: &str, energy: bool) -> String {
    let swf = common::write_swf(d, 2, &[(0, 1, HOUR, HOUR), (HOUR, 1, HOUR, HOUR)]);
    let energy = if energy { "[energy]\nidle_watts = 100.0\nbusy_watts = 200.0\ndown_watts = 0.0\n" } else { "" };
    format!(
        "name = \"bad\"\n\n[workload]\ntrace = \"{}\"\n\n{energy}\n[signals]\n{signals}\n\n[[sweep]]\nname = \"s\"\n[sweep.axes]\nstrategy = [\"fcfs\"]\nfailures = [\"none\"]\n",
        swf.display()
    )
}

/// No run stored (the store may not even exist).
fn nothing_stored(db: &Path) -> bool {
    !db.exists() || {
        let conn = Connection::open(db).unwrap();
        let tables: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'runs'", [], |r| r.get(0)).unwrap();
        tables == 0 || conn.query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0)).unwrap() == 0
    }
}

#[test]
fn bad_signals_are_located_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let carbon = signal(d, "carbon.csv", "gCO2eq/kWh", &[100.0], 50.0);
    let carbon = carbon.display();
    // (the [signals] body, with [energy]?, what the error must say)
    let cases: Vec<(String, bool, Vec<String>)> = vec![
        (format!("carbon = \"{carbon}\""), false, vec!["c.toml:".into(), "[energy]".into()]),
        (format!("carbon = \"{carbon}\"\ncolour = 3"), true, vec!["c.toml:".into(), "colour".into()]),
        (format!("carbon = \"{carbon}\"\nscale = -2.0"), true, vec!["c.toml:".into(), "signals.scale".into()]),
        (format!("carbon = \"{carbon}\"\noffset = \"soon\""), true, vec!["c.toml:".into(), "offset".into()]),
        ("region = \"../etc\"".into(), true, vec!["c.toml:".into(), "signals.region".into()]),
        ("region = \"XX-NOWHERE\"".into(), true, vec!["XX-NOWHERE".into()]),
    ];
    for (signals, energy, wanted) in cases {
        let case = tempfile::tempdir().unwrap();
        let (ok, err, db) = sweep(case.path(), &config_with(case.path(), &signals, energy));
        assert!(!ok, "{signals}: accepted");
        for w in &wanted {
            assert!(err.contains(w.as_str()), "{signals}: `{w}` not in: {err}");
        }
        assert!(nothing_stored(&db), "{signals}: stored a run");
    }
    // A malformed signal file: its line 3 holds no number; the error names
    // the file, the line and the field.
    let bad = d.join("bad.csv");
    std::fs::write(&bad, format!("time,gCO2eq/kWh\n{MONDAY},10\n{},abc\n", MONDAY + HOUR)).unwrap();
    let (ok, err, db) = sweep(d, &config_with(d, &format!("carbon = \"{}\"", bad.display()), true));
    assert!(!ok);
    assert!(err.contains("bad.csv:3") && err.contains("field"), "{err}");
    assert!(nothing_stored(&db));
    // A price file given as carbon intensity.
    let price = signal(d, "price.csv", "EUR/MWh", &[1.0], 1.0);
    let (ok, err, db) = sweep(d, &config_with(d, &format!("carbon = \"{}\"", price.display()), true));
    assert!(!ok);
    assert!(err.contains("price.csv") && err.contains("carbon intensity"), "{err}");
    assert!(nothing_stored(&db));
}
