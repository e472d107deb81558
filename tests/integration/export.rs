//! `slasim export`: every table of a store as Parquet, read back with polars
//! and compared with SQLite row for row; the provenance table; the same bytes
//! twice; nothing half-written when a value does not fit its column.

use crate::common;

use std::fs::File;
use std::path::Path;

use polars::prelude::*;

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(File::open(path).unwrap()).finish().unwrap()
}

/// A store of `configs/quick.toml` (52 points in well under a second) in `dir`.
fn quick_store(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("q.sqlite");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = common::slasim().arg("sweep").arg(root.join("configs/quick.toml")).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    db
}

fn export(db: &Path, out: &Path) -> std::process::Output {
    common::slasim().args(["export", "--db"]).arg(db).arg("--out").arg(out).output().unwrap()
}

#[test]
fn every_table_equals_the_store_and_the_provenance_names_each_point() {
    let dir = tempfile::tempdir().unwrap();
    let db = quick_store(dir.path());
    let out = dir.path().join("parquet");
    let done = export(&db, &out);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(tables.len() > 10);
    for table in &tables {
        let frame = read(&out.join(format!("{table}.parquet")));
        let count: i64 = conn.query_row(&format!("SELECT count(*) FROM \"{table}\""), [], |r| r.get(0)).unwrap();
        assert_eq!(frame.height() as i64, count, "{table}");
    }
    // A column, value for value: the outcomes' fees in stored order.
    let fees: Vec<f64> = conn
        .prepare("SELECT fee FROM job_outcomes")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let frame = read(&out.join("job_outcomes.parquet"));
    let exported: Vec<f64> = frame.column("fee").unwrap().f64().unwrap().into_no_null_iter().collect();
    assert_eq!(exported, fees);
    assert!(frame.column("planned_start").unwrap().null_count() > 0, "rejected jobs keep NULL starts");
    // One provenance row per run, with its settings, version and seed.
    let provenance = read(&out.join("provenance.parquet"));
    let runs: i64 = conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(provenance.height() as i64, runs);
    let names: Vec<&str> = provenance.get_column_names().iter().map(|n| n.as_str()).collect();
    assert_eq!(names, slasim::store::export::PROVENANCE_COLUMNS.map(|(n, _)| n));
    let (config, version): (String, String) = conn
        .query_row("SELECT config, code_version FROM runs ORDER BY run_id LIMIT 1", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(provenance.column("config").unwrap().str().unwrap().get(0), Some(config.as_str()));
    assert_eq!(provenance.column("code_version").unwrap().str().unwrap().get(0), Some(version.as_str()));
    // The synthetic workload has no file: no trace sum.
    assert_eq!(provenance.column("trace_sha256").unwrap().null_count(), provenance.height());
    // A point in both of the config's sweeps is in its one experiment once.
    let in_two: i64 = conn
        .query_row("SELECT run_id FROM experiment_points GROUP BY run_id HAVING count(*) > 1 LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let hash: String = conn.query_row("SELECT hash FROM experiments", [], |r| r.get(0)).unwrap();
    let points = provenance.column("point").unwrap().i64().unwrap();
    let experiments = provenance.column("experiments").unwrap().str().unwrap();
    let row = points.into_no_null_iter().position(|p| p == in_two).unwrap();
    assert_eq!(experiments.get(row), Some(hash.as_str()));
}

#[test]
fn the_same_store_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let db = quick_store(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    assert!(export(&db, &a).status.success() && export(&db, &b).status.success());
    for entry in std::fs::read_dir(&a).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(b.join(name)).unwrap(), "{}", path.display());
    }
    let again = export(&db, &a);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists (give --force to replace it)"));
}

#[test]
fn a_value_that_does_not_fit_its_column_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = quick_store(dir.path());
    let conn = rusqlite::Connection::open(&db).unwrap();
    // SQLite keeps text in an INTEGER column; Parquet's Int64 cannot.
    conn.execute("UPDATE points SET jobs = 'many' WHERE rowid = (SELECT min(rowid) FROM points)", []).unwrap();
    drop(conn);
    let out = dir.path().join("parquet");
    let done = export(&db, &out);
    assert_eq!(done.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(stderr.contains("table points, column jobs, row 1: holds a value of type Text"), "{stderr}");
    assert!(!out.exists());
    assert!(!dir.path().join(".parquet.part").exists());
    // Not a store at all.
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, "not a database").unwrap();
    let done = export(&junk, &out);
    assert_eq!(done.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&done.stderr).contains("junk.sqlite"));
    assert!(!out.exists());
}

/// Rows of `sql` on `db`, each as its columns joined by `|` (NULL as `∅`).
fn rows(db: &Path, sql: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut statement = conn.prepare(sql).unwrap();
    let n = statement.column_count();
    let rows = statement.query_map([], |r| {
        (0..n)
            .map(|i| {
                Ok(match r.get_ref(i)? {
                    rusqlite::types::ValueRef::Null => "∅".to_string(),
                    rusqlite::types::ValueRef::Integer(v) => v.to_string(),
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    other => format!("{other:?}"),
                })
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map(|v| v.join("|"))
    });
    rows.unwrap().map(Result::unwrap).collect()
}

/// Each stored point tells how it was made, in the store itself: the build,
/// the sha256 of its settings and of the trace file as read, and its seed;
/// merged shards keep the rows, and the export takes the stored sums.
#[test]
fn each_stored_point_tells_how_it_was_made() {
    use sha2::{Digest, Sha256};
    let hex = |bytes: &[u8]| Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect::<String>();
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = root.join("configs/ctc-sp2-bases.toml");
    let sweep = |db: &Path, shard: Option<&str>| {
        let mut cmd = common::slasim();
        cmd.arg("sweep").arg(&config).arg("--no-progress").arg("--db").arg(db);
        if let Some(shard) = shard {
            cmd.args(["--shard", shard]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let whole = dir.path().join("whole.sqlite");
    sweep(&whole, None);
    // One row per point, from what the point's row holds.
    let checked = rows(
        &whole,
        "SELECT p.points_table, p.code_version = r.code_version, p.config_sha256, r.config, p.trace = r.trace, \
         p.trace_sha256, p.seed = r.seed FROM provenance p JOIN runs r ON r.run_id = p.point ORDER BY p.point",
    );
    let runs: i64 = rows(&whole, "SELECT count(*) FROM runs")[0].parse().unwrap();
    assert!(runs > 10);
    assert_eq!(checked.len() as i64, runs, "one provenance row per run");
    let trace = hex(&std::fs::read(common::traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz")).unwrap());
    for row in &checked {
        let f: Vec<&str> = row.split('|').collect();
        assert_eq!((f[0], f[1], f[4], f[6]), ("runs", "1", "1", "1"), "{row}");
        assert_eq!(f[2], hex(f[3].as_bytes()), "config_sha256 is the sha256 of the settings stored");
        assert_eq!(f[5], trace, "trace_sha256 is the sha256 of the file read");
    }
    // Shards merged hold the same rows.
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    sweep(&a, Some("1/2"));
    sweep(&b, Some("2/2"));
    let merged = dir.path().join("merged.sqlite");
    let out = common::slasim().arg("merge").arg(&a).arg(&b).arg("--db").arg(&merged).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let all = "SELECT * FROM provenance ORDER BY point";
    assert_eq!(rows(&merged, all), rows(&whole, all));
    // `slasim query` answers it.
    let (ok, out, err) = common::run(&[
        "query",
        "--db",
        whole.to_str().unwrap(),
        "--csv",
        "SELECT count(DISTINCT trace_sha256), count(*) FROM provenance",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().nth(1), Some(format!("1,{runs}").as_str()));
    // The export takes the stored sums (of the file as read then).
    let conn = rusqlite::Connection::open(&whole).unwrap();
    conn.execute(
        "UPDATE provenance SET trace_sha256 = 'as read then' WHERE point = (SELECT min(point) FROM provenance)",
        [],
    )
    .unwrap();
    drop(conn);
    let parquet = dir.path().join("parquet");
    let done = export(&whole, &parquet);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let exported = read(&parquet.join("provenance.parquet"));
    let sums: Vec<Option<&str>> = exported.column("trace_sha256").unwrap().str().unwrap().iter().collect();
    assert_eq!(sums.iter().filter(|s| **s == Some("as read then")).count(), 1);
    assert_eq!(sums.iter().filter(|s| **s == Some(trace.as_str())).count() as i64, runs - 1);
}
