mod schema;

use rusqlite::Connection;
use slasim_core::store::query::query;
use slasim_core::store::*;

#[test]
fn creates_migrates_and_refuses_newer_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    Store::open(&path, &[]).unwrap();
    let table = query(&path, "PRAGMA user_version").unwrap();
    assert_eq!(table.rows, vec![vec![SCHEMA_VERSION.to_string()]]);
    // Re-opening is a no-op.
    Store::open(&path, &[]).unwrap();
    // A newer schema is refused and left untouched.
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path, &[]).err().unwrap();
    assert!(matches!(err, StoreError::NewerSchema { .. }), "{err}");
    assert!(err.to_string().contains("newer than this slasim"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A store without the `all_jobs` view (schema 11 before it) is still
/// read; opened for writing it gets the view.
#[test]
fn a_store_opened_for_writing_gets_the_all_jobs_view() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    Store::open(&path, &[]).unwrap();
    Connection::open(&path).unwrap().execute_batch("DROP VIEW all_jobs").unwrap();
    assert!(query(&path, "SELECT count(*) FROM all_jobs").is_err());
    Store::open(&path, &[]).unwrap();
    let t = query(&path, "SELECT * FROM all_jobs").unwrap();
    assert_eq!(t.columns, ["point", "kind", "job", "submit", "start", "end", "wait", "processors"]);
    // Opening it again leaves it as it is.
    Store::open(&path, &[]).unwrap();
    assert!(query(&path, "SELECT count(*) FROM all_jobs").is_ok());
}

#[test]
fn query_refuses_writes_and_reports_sql_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    Store::open(&path, &[]).unwrap();
    for sql in [
        "DELETE FROM experiments",
        "DROP TABLE experiments",
        "INSERT INTO experiment_points (run_id) VALUES (1)",
        "PRAGMA user_version = 9",
    ] {
        let err = query(&path, sql).unwrap_err();
        assert!(matches!(err, StoreError::WriteRefused { .. } | StoreError::Sql { .. }), "{sql}: {err}");
    }
    let err = query(&path, "SELEC 1").unwrap_err();
    assert!(err.to_string().contains("syntax error"), "{err}");
    let err = query(&path, "SELECT nope FROM experiments").unwrap_err();
    assert!(err.to_string().contains("no such column: nope"), "{err}");
    let t = query(&path, "SELECT 1 AS a, 'x,y' AS b, NULL AS c, 2.5 AS d").unwrap();
    assert_eq!(t.to_csv(), "a,b,c,d\n1,\"x,y\",,2.5\n");
    assert!(query(dir.path().join("missing.sqlite"), "SELECT 1").is_err());
}
