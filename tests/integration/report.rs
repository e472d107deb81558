//! Reports on a small hand-made store with known numbers: means and Student-t
//! intervals, maximum-gain selection, additional gain in %, the risk table,
//! Wilson intervals, the Brier score; the files written; bad input; compare.

use crate::common;

use std::path::Path;

use polars::prelude::*;
use rusqlite::{Connection, params};
use slasim::report::compare;
use slasim::report::load::Filter;
use slasim::report::{ReportOptions, generate};
use slasim::single::report::load::{load_calibration, load_points};
use slasim::single::report::tables::{
    agg_rows, aggregates, calibration, checkpoint_table, pof_table, queueing_table, reservation_table, risk_table,
};
use slasim::store::Store;

const TRACE: &str = "/data/swf/CTC-SP2-1996-3.1-cln.swf.gz";

struct Point<'a> {
    strategy: &'a str,
    acceptance: &'a str,
    pof_max: f64,
    ratio: f64,
    battery: i64,
    gain: f64,
}

fn insert(conn: &Connection, run_id: i64, p: &Point) {
    conn.execute(
        "INSERT INTO points (run_id, strategy, trace, battery, seed, placement, acceptance, pof_max, \
         security_factor, penalty_ratio, pdf_source, failures, capacity, jobs, accepted, successful, failed, \
         rejected, fees, penalties, gain, utilisation, overbooked, overbooked_failed, overbooked_pof, wall_seconds) \
         VALUES (?1, ?2, ?3, ?4, 1, 'best-fit', ?5, ?6, NULL, ?7, 'runtime', 'lanl', 338, 100, 60, 55, 5, 40, \
         ?8 + 10.0, 10.0, ?8, 0.5, 0, 0, 0.0, ?9)",
        params![
            run_id,
            p.strategy,
            TRACE,
            p.battery,
            p.acceptance,
            p.pof_max,
            p.ratio,
            p.gain,
            0.01 * p.battery as f64
        ],
    )
    .unwrap();
}

fn outcome(conn: &Connection, run_id: i64, job: i64, pof: f64, failed: bool) {
    conn.execute(
        "INSERT INTO job_outcomes (run_id, job, accepted, overbooked, pof, outcome, fee, penalty, restarts, executed) \
         VALUES (?1, ?2, 1, 1, ?3, ?4, 0, 0, 0, 0)",
        params![run_id, job, pof, if failed { 2 } else { 1 }],
    )
    .unwrap();
}

/// The hand-made store:
/// - conservative-backfilling (PoF test, ratio 1): gains 8, 8, 8 → mean 8;
/// - comprehensive-overbooking, PoF test, ratio 1: PoF_max 0.1 gains 2, 4, 6
///   (mean 4, s = 2, half-width t(0.975, 2)·2/√3 = 4.968275); PoF_max 0.2
///   gains 10, 12, 14 (mean 12, the maximum, +50 % over 8); PoF_max 0.3
///   gains 12, 12, 12 (ties with 0.2: the smaller PoF_max wins);
/// - risk test at ratio 2: CB 4, 4, 4 and CO 5, 6, 7 (mean 6, +50 %);
/// - CO's overbooked jobs (run 4): 10 with PoF 0.12, 3 of them failed (Wilson
///   [0.1078, 0.6032]); 2 with PoF 0.5 and 1.0, both failed.
fn hand_made(path: &Path) {
    drop(Store::open(path, slasim::registry().groups()).unwrap());
    let conn = Connection::open(path).unwrap();
    // Only `points` and `job_outcomes` matter to reports: no `runs` rows.
    conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    let mut id = 0;
    let mut add = |strategy, acceptance, pof_max, ratio, gains: [f64; 3]| {
        for (b, gain) in gains.into_iter().enumerate() {
            id += 1;
            insert(&conn, id, &Point { strategy, acceptance, pof_max, ratio, battery: b as i64, gain });
        }
    };
    add("conservative-backfilling", "pof", 0.1, 1.0, [8.0, 8.0, 8.0]);
    add("comprehensive-overbooking", "pof", 0.1, 1.0, [2.0, 4.0, 6.0]);
    add("comprehensive-overbooking", "pof", 0.2, 1.0, [10.0, 12.0, 14.0]);
    add("comprehensive-overbooking", "pof", 0.3, 1.0, [12.0, 12.0, 12.0]);
    add("conservative-backfilling", "pof", 0.1, 2.0, [4.0, 4.0, 4.0]);
    add("comprehensive-overbooking", "risk", 0.1, 2.0, [5.0, 6.0, 7.0]);
    for job in 0..10 {
        outcome(&conn, 4, job, 0.12, job < 3);
    }
    outcome(&conn, 4, 10, 0.5, true);
    outcome(&conn, 4, 11, 1.0, true);
}

fn f64s(df: &DataFrame, name: &str) -> Vec<Option<f64>> {
    df.column(name).unwrap().cast(&DataType::Float64).unwrap().f64().unwrap().iter().collect()
}

fn texts(df: &DataFrame, name: &str) -> Vec<String> {
    df.column(name).unwrap().str().unwrap().iter().map(|v| v.unwrap_or("").to_string()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn tables_of_the_hand_made_store_have_the_known_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hand.sqlite");
    hand_made(&db);
    let points = load_points(&db, &Filter::default()).unwrap();
    assert_eq!(points.height(), 18);
    assert_eq!(texts(&points, "trace")[0], "CTC-SP2-1996-3.1-cln", "traces are labelled by file name");

    let agg = aggregates(&points).unwrap();
    let rows = agg_rows(&agg).unwrap();
    let co = |pof: f64| {
        rows.iter()
            .find(|r| r.strategy == "comprehensive-overbooking" && r.acceptance == "pof" && close(r.pof_max, pof))
            .unwrap()
    };
    assert_eq!(co(0.1).n, 3);
    assert!(close(co(0.1).gain, 4.0) && close(co(0.1).gain_ci, 4.968_275), "{:?}", co(0.1));
    assert!(close(co(0.2).gain, 12.0) && close(co(0.2).gain_ci, 4.968_275));
    assert!(close(co(0.3).gain, 12.0) && co(0.3).gain_ci == 0.0, "no spread, no interval");
    // Fees are gain + 10 in every point: the aggregate carries them along.
    let fees = f64s(&agg, "fees_mean");
    let gains = f64s(&agg, "gain_mean");
    assert!(fees.iter().zip(&gains).all(|(f, g)| close(f.unwrap(), g.unwrap() + 10.0)));

    // Tables 6.1/6.13: CO's maximum is 12 at PoF_max 0.2 (not the tie at
    // 0.3), +50 % over CB's 8; CB has no PoF_max and no base.
    let pof = pof_table(&rows).unwrap();
    let names = texts(&pof, "strategy");
    let at = |name: &str| names.iter().position(|n| n == name).unwrap();
    let (max, pofs, plus) = (f64s(&pof, "max_gain"), f64s(&pof, "pof_max"), f64s(&pof, "additional_gain_pct"));
    let (i, j) = (at("comprehensive-overbooking"), at("conservative-backfilling"));
    assert_eq!((max[i], pofs[i], plus[i]), (Some(12.0), Some(0.2), Some(50.0)));
    assert_eq!((max[j], pofs[j], plus[j]), (Some(8.0), None, None));

    // Tables 6.2/6.14: at ratio 2, CO 6 against CB 4 is +50 %.
    let risk = risk_table(&rows).unwrap();
    let (names, ratios, gains, plus) = (
        texts(&risk, "strategy"),
        f64s(&risk, "penalty_ratio"),
        f64s(&risk, "gain"),
        f64s(&risk, "additional_gain_pct"),
    );
    let k = names.iter().position(|n| n == "comprehensive-overbooking").unwrap();
    assert_eq!((ratios[k], gains[k], plus[k]), (Some(2.0), Some(6.0), Some(50.0)));
    let cb: Vec<_> = (0..names.len()).filter(|&i| names[i] == "conservative-backfilling").collect();
    assert_eq!(cb.len(), 1, "the risk table lists the ratios the risk points were run at");
    assert_eq!(gains[cb[0]], Some(4.0));

    // Calibration: bin [0.10, 0.15) holds 10 jobs, 3 failed; 0.5 goes to
    // [0.50, 0.55); PoF 1.0 joins the last bin [0.95, 1].
    let jobs = load_calibration(&db, &points).unwrap();
    let counted: i64 = jobs.column("jobs").unwrap().i64().unwrap().iter().flatten().sum();
    assert_eq!(counted, 12);
    let (bins, brier) = calibration(&jobs).unwrap();
    let (bin, count, observed) = (f64s(&bins, "bin"), f64s(&bins, "jobs"), f64s(&bins, "observed"));
    let (lo, hi) = (f64s(&bins, "wilson_low"), f64s(&bins, "wilson_high"));
    assert_eq!(bins.height(), 3);
    assert!(close(bin[0].unwrap(), 0.10) && close(bin[1].unwrap(), 0.50) && close(bin[2].unwrap(), 0.95), "{bin:?}");
    assert_eq!((count[0], observed[0]), (Some(10.0), Some(0.3)));
    assert!(close(lo[0].unwrap(), 0.107_789) && close(hi[0].unwrap(), 0.603_216), "{:?} {:?}", lo[0], hi[0]);
    // Brier: 7·0.12² + 3·0.88² + 0.5² + 0² over 12 = (0.1008 + 2.3232 + 0.25)/12.
    let score = f64s(&brier, "brier")[0].unwrap();
    assert!(close(score, 2.674 / 12.0), "{score}");
    // 0.12 lies inside [0.108, 0.603]; 0.5 and 1.0, each with 1 of 1 failed, inside [0.21, 1].
    let inside: Vec<Option<bool>> = bins.column("inside").unwrap().bool().unwrap().iter().collect();
    assert_eq!(inside, vec![Some(true); 3]);
    // Observed 5/12 against a mean prediction of (10 · 0.12 + 0.5 + 1)/12; no bin has 30 jobs to check.
    let ratio = f64s(&brier, "observed_over_predicted")[0].unwrap();
    assert!(close(ratio, 5.0 / 2.7), "{ratio}");
    assert_eq!((f64s(&brier, "bins_checked")[0], f64s(&brier, "bins_inside")[0]), (Some(0.0), Some(0.0)));
}

/// Three batteries of 10 overbooked jobs at PoF 0.04: 0, 6 and 0 failed.
/// Rate 0.2 over 30 jobs, binomial variance 30 · 0.2 · 0.8 = 4.8; across runs
/// 3/2 · ((0 − 2)² + (6 − 2)² + (0 − 2)²) = 36, so the design effect is 7.5
/// and the clustered interval is Wilson's at rate 0.2 over 4 jobs.
#[test]
fn clustered_checks_widen_the_interval_by_the_design_effect() {
    let sums = df!(
        "run_id" => [1i64, 2, 3],
        "strategy" => ["comprehensive-overbooking"; 3],
        "trace" => ["T"; 3],
        "pdf_source" => ["runtime"; 3],
        "bin" => [0.0f64; 3],
        "jobs" => [10i64; 3],
        "failures" => [0i64, 6, 0],
        "pof_sum" => [0.4f64; 3],
        "square_sum" => [0.0f64; 3],
    )
    .unwrap();
    let (bins, brier) = calibration(&sums).unwrap();
    let flag = |df: &DataFrame, c: &str| df.column(c).unwrap().bool().unwrap().get(0);
    // 0.04 lies below Wilson's 6 of 30, [0.095, 0.386], and inside [0.0308, 0.6632].
    assert_eq!(flag(&bins, "inside"), Some(false));
    assert_eq!(flag(&bins, "inside_clustered"), Some(true));
    assert!(close(f64s(&bins, "design_effect")[0].unwrap(), 7.5));
    assert!(close(f64s(&bins, "clustered_low")[0].unwrap(), 0.030_768));
    assert!(close(f64s(&bins, "clustered_high")[0].unwrap(), 0.663_166));
    // Observed / predicted 6 / 1.2 = 5; runs as clusters: ± t(2) · √36 / 1.2 = 4.302653 · 5.
    assert!(close(f64s(&brier, "observed_over_predicted")[0].unwrap(), 5.0));
    assert_eq!(f64s(&brier, "runs")[0], Some(3.0));
    assert_eq!(f64s(&brier, "ratio_low")[0], Some(0.0));
    assert!(close(f64s(&brier, "ratio_high")[0].unwrap(), 5.0 + 4.302_653 * 5.0));
    assert_eq!((f64s(&brier, "bins_inside")[0], f64s(&brier, "bins_inside_clustered")[0]), (Some(0.0), Some(1.0)));
}

fn options(db: &Path, out: &Path) -> ReportOptions {
    ReportOptions { db: db.to_path_buf(), config: None, trace: None, out: out.to_path_buf() }
}

#[test]
fn a_report_writes_every_table_and_plot_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hand.sqlite");
    hand_made(&db);
    let out = dir.path().join("report");
    let summary = generate(&slasim::registry(), &options(&db, &out)).unwrap();
    assert_eq!(
        summary.tables,
        [
            "max-gain",
            "risk",
            "max-gain-vs-dissertation",
            "risk-vs-dissertation",
            "calibration",
            "brier",
            "runtime",
            "aggregates"
        ]
    );
    assert!(summary.figures.iter().any(|f| f.starts_with("gain-vs-pofmax-")));
    assert!(summary.figures.iter().any(|f| f.starts_with("jobs-vs-pofmax-")));
    assert!(summary.figures.iter().any(|f| f.starts_with("gain-vs-penalty-ratio-")));
    assert!(summary.figures.iter().any(|f| f.starts_with("calibration-")));
    for t in &summary.tables {
        for ext in ["md", "csv", "parquet"] {
            let path = out.join("tables").join(format!("{t}.{ext}"));
            assert!(path.metadata().unwrap().len() > 0, "{}", path.display());
        }
    }
    let back = ParquetReader::new(std::fs::File::open(out.join("tables/max-gain.parquet")).unwrap()).finish().unwrap();
    assert_eq!(f64s(&back, "max_gain"), f64s(&pof_table_of(&db), "max_gain"));
    for f in &summary.figures {
        let svg = std::fs::read_to_string(out.join("plots").join(format!("{f}.svg"))).unwrap();
        assert!(svg.contains("<svg"));
        let png = std::fs::read(out.join("plots").join(format!("{f}.png"))).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
    let html = std::fs::read_to_string(&summary.index).unwrap();
    for t in &summary.tables {
        assert!(html.contains(&format!("data-table=\"{t}\"")), "{t}");
    }
    for f in &summary.figures {
        assert!(html.contains(&format!("data-plot=\"{f}\"")), "{f}");
    }
    for external in ["src=\"http", "href=\"http", "<link", "<script src", "url(http"] {
        assert!(!html.contains(external), "the page loads nothing from the network: {external}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| CTC-SP2-1996-3.1-cln | runtime | comprehensive-overbooking | 12.0 |"), "{md}");
    // A second report into the same directory overwrites it.
    generate(&slasim::registry(), &options(&db, &out)).unwrap();
}

/// Paper B's points: heuristic planning at 0 % (rejection 0, SLDwA 2, 2) and
/// at 50 % under *reject* (rejection 40 and 50 % → mean 45) and *move*
/// (20 and 30 % → 25, SLDwA 4 and 6 → 5, 3 moved jobs, delays 3600 s); and
/// comprehensive overbooking at 10 % without checkpointing (gains 10, 12, 14)
/// and with it (13, 15, 17: +3, +25 %, the intervals overlap).
fn with_reservations(path: &Path) {
    hand_made(path);
    let conn = Connection::open(path).unwrap();
    conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    let mut id = 100;
    let mut add = |strategy, percent: f64, option: &str, rejection: f64, sldwa: f64, ckpt: bool, gain: f64| {
        id += 1;
        let p = Point { strategy, acceptance: "pof", pof_max: 0.2, ratio: 1.0, battery: id % 2, gain };
        insert(&conn, id, &p);
        let moved = if option == "move" { 3 } else { 0 };
        conn.execute(
            "UPDATE points SET reservation_percent = ?2, reservation_option = ?3, reservation_rejection_rate = ?4, \
             sldwa = ?5, checkpointing = ?6, moved_jobs = ?7, move_delay_mean = ?8, checkpoints = ?9, \
             reservations = 50 WHERE run_id = ?1",
            params![id, percent, option, rejection, sldwa, ckpt, moved, 1200 * moved, if ckpt { 4 } else { 0 }],
        )
        .unwrap();
    };
    add("heuristic-planning", 0.0, "reject", 0.0, 2.0, false, 0.0);
    add("heuristic-planning", 0.0, "reject", 0.0, 2.0, false, 0.0);
    add("heuristic-planning", 50.0, "reject", 40.0, 3.0, false, 0.0);
    add("heuristic-planning", 50.0, "reject", 50.0, 3.0, false, 0.0);
    add("heuristic-planning", 50.0, "move", 20.0, 4.0, false, 0.0);
    add("heuristic-planning", 50.0, "move", 30.0, 6.0, false, 0.0);
    for (gain, ckpt) in [(10.0, false), (12.0, false), (14.0, false), (13.0, true), (15.0, true), (17.0, true)] {
        add("comprehensive-overbooking", 10.0, "reject", 5.0, 1.0, ckpt, gain);
    }
}

#[test]
fn reservation_and_checkpointing_tables_have_the_known_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hand.sqlite");
    with_reservations(&db);
    let points = load_points(&db, &Filter::default()).unwrap();
    let table = reservation_table(&points).unwrap();
    let hp: Vec<usize> = texts(&table, "strategy")
        .iter()
        .enumerate()
        .filter(|(_, s)| *s == "heuristic-planning")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hp.len(), 3, "{table}");
    let (percent, option) = (f64s(&table, "reservation_percent"), texts(&table, "reservation_option"));
    let (rejection, sldwa) = (f64s(&table, "reservation_rejection_rate_mean"), f64s(&table, "sldwa_mean"));
    let delay = f64s(&table, "move_delay_mean_mean");
    let row = |p: f64, o: &str| *hp.iter().find(|&&i| percent[i] == Some(p) && option[i] == o).unwrap();
    assert_eq!(rejection[row(0.0, "reject")], Some(0.0));
    assert_eq!(rejection[row(50.0, "reject")], Some(45.0));
    assert_eq!((rejection[row(50.0, "move")], sldwa[row(50.0, "move")]), (Some(25.0), Some(5.0)));
    assert_eq!(delay[row(50.0, "move")], Some(3600.0));
    // Strategies run only without reservations are not in the table.
    assert!(!texts(&table, "strategy").contains(&"conservative-backfilling".to_string()));
    // The dissertation tables ignore runs with reservations: CO's maximum is
    // still the 12 of the plain runs, not the 15 with checkpointing.
    let pof = pof_table(&agg_rows(&aggregates(&points).unwrap()).unwrap()).unwrap();
    assert!(f64s(&pof, "max_gain").contains(&Some(12.0)));
    assert!(!f64s(&pof, "max_gain").contains(&Some(15.0)));

    let ckpt = checkpoint_table(&points).unwrap();
    assert_eq!(ckpt.height(), 1, "{ckpt}");
    assert_eq!(texts(&ckpt, "strategy"), ["comprehensive-overbooking"]);
    assert_eq!((f64s(&ckpt, "gain_without"), f64s(&ckpt, "gain_with")), (vec![Some(12.0)], vec![Some(15.0)]));
    assert_eq!(f64s(&ckpt, "difference"), [Some(3.0)]);
    assert!(close(f64s(&ckpt, "additional_pct")[0].unwrap(), 25.0));
    assert!(close(f64s(&ckpt, "gain_with_ci")[0].unwrap(), 4.968275));
    assert_eq!(ckpt.column("intervals_overlap").unwrap().bool().unwrap().get(0), Some(true));
    assert_eq!(f64s(&ckpt, "checkpoints"), [Some(4.0)]);

    let out = dir.path().join("report");
    let summary = generate(&slasim::registry(), &options(&db, &out)).unwrap();
    assert!(summary.tables.contains(&"reservations".to_string()), "{:?}", summary.tables);
    assert!(summary.tables.contains(&"checkpointing".to_string()));
    assert!(
        summary.figures.iter().any(|f| f == "reservations-ctc-sp2-1996-3-1-cln-heuristic-planning"),
        "{:?}",
        summary.figures
    );
}

#[test]
fn a_store_from_before_reservations_reports_as_runs_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v1.sqlite");
    hand_made(&db);
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch("ALTER TABLE points DROP COLUMN sldwa; ALTER TABLE points DROP COLUMN reservation_percent;")
        .unwrap();
    drop(conn);
    let points = load_points(&db, &Filter::default()).unwrap();
    assert_eq!(f64s(&points, "reservation_percent"), vec![Some(0.0); 18]);
    assert_eq!(pof_table_of(&db), pof_table_of_fresh());
    assert_eq!(reservation_table(&points).unwrap().height(), 0);
}

fn pof_table_of_fresh() -> DataFrame {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hand.sqlite");
    hand_made(&db);
    pof_table_of(&db)
}

fn pof_table_of(db: &Path) -> DataFrame {
    let points = load_points(db, &Filter::default()).unwrap();
    pof_table(&agg_rows(&aggregates(&points).unwrap()).unwrap()).unwrap()
}

fn report_cli(args: &[&str]) -> (bool, String, String) {
    let out = common::slasim().arg("report").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_stores_and_outputs_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let out = dir.path().join("out");

    let empty = dir.path().join("empty.sqlite");
    drop(Store::open(&empty, slasim::registry().groups()).unwrap());
    let (ok, _, err) = report_cli(&["--db", &s(&empty), "--out", &s(&out)]);
    assert!(!ok && err.contains("empty.sqlite: holds no points"), "{err}");

    let missing = dir.path().join("nothing.sqlite");
    let (ok, _, err) = report_cli(&["--db", &s(&missing), "--out", &s(&out)]);
    assert!(!ok && err.contains("nothing.sqlite: no such store"), "{err}");

    let hand = dir.path().join("hand.sqlite");
    hand_made(&hand);
    let (ok, _, err) = report_cli(&["--db", &s(&hand), "--trace-contains", "KTH", "--out", &s(&out)]);
    assert!(!ok && err.contains("no points for trace `KTH`; its traces: CTC-SP2-1996-3.1-cln"), "{err}");

    // A store from an older schema: `points` without `wall_seconds`.
    let old = dir.path().join("old.sqlite");
    let conn = Connection::open(&old).unwrap();
    conn.execute_batch("CREATE TABLE points (run_id INTEGER, strategy TEXT, trace TEXT); PRAGMA user_version = 0;")
        .unwrap();
    drop(conn);
    let (ok, _, err) = report_cli(&["--db", &s(&old), "--out", &s(&out)]);
    assert!(!ok && err.contains("old.sqlite: no column `battery` in table `points`"), "{err}");
    let not_sqlite = dir.path().join("text.sqlite");
    std::fs::write(&not_sqlite, "not a database").unwrap();
    let (ok, _, err) = report_cli(&["--db", &s(&not_sqlite), "--out", &s(&out)]);
    assert!(!ok && err.contains("text.sqlite") && !err.contains("panicked"), "{err}");

    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let (ok, _, err) = report_cli(&["--db", &s(&hand), "--out", &s(&file)]);
    assert!(!ok && err.contains("a-file: exists and is not a directory"), "{err}");
    // Each refusal came before anything was written: no empty folders.
    assert!(!out.exists(), "a refused report left {}", out.display());

    let (ok, stdout, err) = report_cli(&["--db", &s(&hand), "--out", &s(&out)]);
    assert!(ok, "{err}");
    assert!(stdout.contains("18 points, 8 tables") && stdout.contains("index.html"), "{stdout}");
}

#[test]
fn compare_puts_two_stores_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    hand_made(&a);
    hand_made(&b);
    // B's CO at PoF_max 0.2 earns 100 more in every battery: no overlap.
    Connection::open(&b)
        .unwrap()
        .execute("UPDATE points SET gain = gain + 100 WHERE strategy = 'comprehensive-overbooking' AND pof_max = 0.2 AND acceptance = 'pof'", [])
        .unwrap();
    let out = dir.path().join("cmp");
    let summary = compare(&slasim::registry(), &a, &b, &out).unwrap();
    assert_eq!(summary.tables, ["compare"]);
    let df = CsvReadOptions::default()
        .try_into_reader_with_file_path(Some(out.join("tables/compare.csv")))
        .unwrap()
        .finish()
        .unwrap();
    let (names, pofs, diff) = (texts(&df, "strategy"), f64s(&df, "pof_max"), f64s(&df, "gain_difference"));
    let overlap: Vec<Option<bool>> = df.column("intervals_overlap").unwrap().bool().unwrap().iter().collect();
    for i in 0..df.height() {
        let changed = names[i] == "comprehensive-overbooking" && close(pofs[i].unwrap(), 0.2);
        assert_eq!(diff[i], Some(if changed { 100.0 } else { 0.0 }), "row {i}");
        assert_eq!(overlap[i], Some(!changed), "row {i}");
    }
    let (ok, _, err) = report_cli(&[
        "--compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        dir.path().join("c2").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(dir.path().join("c2/index.html").is_file());
}

#[test]
fn the_queueing_table_averages_the_classic_modes_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hand.sqlite");
    hand_made(&db);
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    for (id, strategy, wait) in [(201, "easy", 10.0), (202, "easy", 20.0), (203, "fcfs", 100.0)] {
        let p = Point { strategy, acceptance: "pof", pof_max: 0.1, ratio: 1.0, battery: id % 2, gain: 0.0 };
        insert(&conn, id, &p);
        conn.execute("UPDATE points SET wait_mean = ?2, makespan = 50 WHERE run_id = ?1", params![id, wait]).unwrap();
    }
    drop(conn);
    let points = load_points(&db, &Filter::default()).unwrap();
    let table = queueing_table(&points).unwrap();
    assert_eq!(texts(&table, "strategy"), ["easy", "fcfs"], "{table}");
    assert_eq!(f64s(&table, "wait_mean"), [Some(15.0), Some(100.0)]);
    assert_eq!(f64s(&table, "runs"), [Some(2.0), Some(1.0)]);
    let summary = generate(&slasim::registry(), &options(&db, &dir.path().join("report"))).unwrap();
    assert!(summary.tables.contains(&"queueing".to_string()));
}

/// The CSV of a report table as rows of named cells.
fn csv_rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let names: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines.map(|l| names.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

/// `slasim sweep configs/provisioning-ch3.toml` then `slasim report`: the
/// slot-statistics store is reported as the Ch. 3 table, beside the
/// dissertation's 27 (CTC) and 14 (SDSC) slots at 63 % and 70 % utilisation,
/// with the whole-log figures the reproduction page quotes.
#[test]
fn a_provisioning_ch3_store_reports_the_ch3_table() {
    let dir = tempfile::tempdir().unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let db = dir.path().join("ch3.sqlite");
    let sweep = common::slasim()
        .args(["sweep", "configs/provisioning-ch3.toml", "--db", &s(&db), "--no-progress"])
        .output()
        .unwrap();
    assert!(sweep.status.success(), "{}", String::from_utf8_lossy(&sweep.stderr));
    let out = dir.path().join("report");
    let (ok, stdout, err) = report_cli(&["--db", &s(&db), "--out", &s(&out)]);
    assert!(ok, "{err}");
    // The terminal shows the table first.
    assert!(stdout.starts_with("### Advertised slots (Ch. 3) beside the dissertation"), "{stdout}");
    assert!(stdout.contains("4 points, 1 tables"), "{stdout}");
    let rows = csv_rows(&out.join("tables/slots.csv"));
    let got: Vec<(&str, &str, &str)> =
        rows.iter().map(|r| (r["trace"].as_str(), r["processors"].as_str(), r["estimates"].as_str())).collect();
    assert_eq!(
        got,
        [
            ("CTC-SP2-1996-3.1-cln", "430", "exact"),
            ("CTC-SP2-1996-3.1-cln", "430", "logged"),
            ("SDSC-SP2-1998-4.2-cln", "128", "exact"),
            ("SDSC-SP2-1998-4.2-cln", "128", "logged"),
        ]
    );
    let stated: Vec<(&str, &str)> =
        rows.iter().map(|r| (r["dissertation_slots"].as_str(), r["dissertation_utilisation_pct"].as_str())).collect();
    assert_eq!(stated, [("27.0", "63.0"), ("", ""), ("14.0", "70.0"), ("", "")]);
    let num = |r: &std::collections::HashMap<String, String>, k: &str| -> f64 {
        r[k].parse().unwrap_or_else(|_| panic!("{k} = {:?}", r[k]))
    };
    // The page's Ch. 3 table, to its printed digits: utilisation, slots at
    // arrivals, hourly, the 1–10-processor share, corr(slots, tasks).
    let page = [
        (66.1, 44.9, 37.8, 78.0, 0.97),
        (65.7, 36.3, 30.1, 73.0, 0.75),
        (83.4, 18.7, 15.1, 63.0, 0.70),
        (82.4, 16.2, 13.5, 57.0, 0.57),
    ];
    for (r, (util, arrivals, hourly, small, corr)) in rows.iter().zip(page) {
        let at = |k: &str, digits: i32| (num(r, k) * 10f64.powi(digits)).round() / 10f64.powi(digits);
        assert_eq!(
            (at("utilisation_pct", 1), at("slots_at_arrivals", 1), at("slots_hourly", 1)),
            (util, arrivals, hourly),
            "{r:?}"
        );
        assert_eq!((at("slots_1_10_procs_pct", 0), at("corr_slots_tasks", 2)), (small, corr), "{r:?}");
        assert!(num(r, "slots_at_arrivals_ci") > 0.0 && num(r, "slots_at_arrivals_ci") < 0.5, "{r:?}");
    }
    for file in ["report.md", "index.html", "tables/slots.md", "tables/slots.parquet"] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
}
