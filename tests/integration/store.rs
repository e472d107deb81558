//! The store's schema: the descriptors are the one definition of every
//! table, and the historical steps bring an older store to the same schema.
//!
//! Each test compares stores by their schema facts
//! (`store::schema::facts::schema_facts`): per table `PRAGMA table_info` (name,
//! type, NOT NULL, default, key), indexes, foreign keys, `WITHOUT ROWID`
//! and `CHECK`s; per view its columns.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::Connection;
use slasim::store::schema::described_store;
use slasim::store::schema::facts::schema_facts;
use slasim::store::schema::{self, SCHEMA_VERSION};
use slasim::store::{Store, StoreError};

type Facts = BTreeMap<String, Vec<String>>;

fn facts_of(path: &Path) -> Facts {
    schema_facts(&Connection::open(path).unwrap()).unwrap()
}

/// The tables and views whose facts differ, with both sides.
fn differences(a: &Facts, b: &Facts) -> Vec<String> {
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    names
        .into_iter()
        .filter(|n| a.get(*n) != b.get(*n))
        .map(|n| format!("{n}:\n  {:?}\n  {:?}", a.get(n), b.get(n)))
        .collect()
}

/// A new store in `dir`, made from the descriptors, and its facts.
fn new_store(dir: &Path) -> (std::path::PathBuf, Facts) {
    let new = dir.join("new.sqlite");
    Store::open(&new, slasim::registry().groups()).unwrap();
    let facts = facts_of(&new);
    (new, facts)
}

/// A store of schema `version` as the historical steps made it, from an
/// empty file (`version` 0: none).
fn historical(path: &Path, version: i64) {
    let conn = Connection::open(path).unwrap();
    for step in schema::steps(slasim::registry().groups()).into_iter().filter(|s| s.version <= version) {
        conn.execute_batch(step.sql).unwrap();
    }
    conn.pragma_update(None, "user_version", version).unwrap();
}

/// A new store, made from the descriptors alone, is the store every kind's
/// historical steps make from an empty file once reconciled with the
/// descriptors: the same tables, columns, constraints, indexes and views.
#[test]
fn a_store_from_the_descriptors_is_the_store_the_history_makes() {
    let registry = slasim::registry();
    let groups = registry.groups();
    let dir = tempfile::tempdir().unwrap();
    let (new, described) = new_store(dir.path());
    for table in ["experiments", "runs", "job_outcomes", "grid_points", "provision_points", "slurm_jobs", "jobs"] {
        assert!(described.contains_key(table), "{table} missing: {:?}", described.keys());
    }
    assert_eq!(described, schema_facts(&described_store(groups).unwrap()).unwrap());
    // Every step, from empty, then reconciled (the columns and tables the
    // descriptors add after schema 11's steps).
    let migrated = dir.path().join("migrated.sqlite");
    historical(&migrated, SCHEMA_VERSION);
    Store::open(&migrated, groups).unwrap();
    let found = facts_of(&migrated);
    assert!(found.get("points").is_some_and(|f| f.iter().any(|c| c.contains("power_cap"))), "{found:?}");
    assert_eq!(differences(&described, &found), Vec::<String>::new());
    // A store that agrees needs nothing.
    assert_eq!(schema::reconciliation(&Connection::open(&new).unwrap(), groups).unwrap(), Vec::<String>::new());
    assert_eq!(schema::reconciliation(&Connection::open(&migrated).unwrap(), groups).unwrap(), Vec::<String>::new());
}

/// A store of every older schema version, as the steps of its time left it
/// (empty, as no point then derived ids differently), is brought by opening
/// to the schema a new store has.
#[test]
fn a_store_of_every_older_schema_upgrades_to_the_descriptors() {
    let registry = slasim::registry();
    let groups = registry.groups();
    let dir = tempfile::tempdir().unwrap();
    let (_, described) = new_store(dir.path());
    for version in 1..SCHEMA_VERSION {
        let path = dir.path().join(format!("v{version}.sqlite"));
        historical(&path, version);
        Store::open(&path, groups).unwrap();
        assert_eq!(differences(&described, &facts_of(&path)), Vec::<String>::new(), "from schema {version}");
        let stored: i64 = Connection::open(&path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(stored, SCHEMA_VERSION);
    }
}

/// A store of schema 11 kept "no deadline" and an unknown SWF field as
/// sentinels in `NOT NULL` columns: opened, the table is made again with
/// them NULL, every other value kept, and the `jobs` view reads it.
#[test]
fn a_store_of_schema_11_reads_its_sentinels_as_null() {
    let registry = slasim::registry();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v11.sqlite");
    historical(&path, 11);
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "INSERT INTO battery_jobs VALUES (7, 0, 11, 0, 0, 2305843009213693951, 60, 50, 2, -1, -1, 3);
             INSERT INTO battery_jobs VALUES (7, 1, 12, 5, 5, 125, 60, 50, 2, 4, 9, -1);",
        )
        .unwrap();
    Store::open(&path, registry.groups()).unwrap();
    let sql = "SELECT swf_id, deadline, user, application, queue FROM battery_jobs ORDER BY job";
    let rows = slasim::store::query(&path, sql).unwrap().rows;
    assert_eq!(rows, [["11", "", "", "", "3"], ["12", "125", "4", "9", ""]].map(|r| r.map(str::to_string).to_vec()));
    let mut upgraded = facts_of(&path);
    let (_, mut fresh) = new_store(dir.path());
    upgraded.retain(|k, _| k == "battery_jobs" || k == "jobs");
    fresh.retain(|k, _| k == "battery_jobs" || k == "jobs");
    assert_eq!(differences(&fresh, &upgraded), Vec::<String>::new());
}

/// A table that another's rows reference is made again all the same: an
/// sla-machine store whose `trace` and `line` were `NOT NULL`, with a point
/// and its job, opened, allows them NULL and keeps both rows; the foreign
/// keys are on again afterwards.
#[test]
fn a_referenced_table_is_relaxed_with_its_rows_kept() {
    let registry = slasim::registry();
    let dir = tempfile::tempdir().unwrap();
    let (path, fresh) = new_store(dir.path());
    let conn = Connection::open(&path).unwrap();
    let made = |table: &str| -> String {
        conn.query_row("SELECT sql FROM sqlite_master WHERE name = ?", [table], |r| r.get(0)).unwrap()
    };
    let (points, jobs) = (made("sla_machine_points"), made("sla_machine_jobs"));
    let older = |sql: &str, column: &str| {
        let narrowed = sql.replace(&format!("    {column} TEXT,"), &format!("    {column} TEXT NOT NULL,"));
        let narrowed = narrowed.replace(&format!("    {column} INTEGER,"), &format!("    {column} INTEGER NOT NULL,"));
        assert_ne!(narrowed, sql, "{column} is nullable in {sql}");
        narrowed
    };
    let points_cols: i64 =
        conn.query_row("SELECT count(*) FROM pragma_table_info('sla_machine_points')", [], |r| r.get(0)).unwrap();
    conn.execute_batch(&format!(
        "DROP VIEW IF EXISTS all_jobs; DROP TABLE sla_machine_jobs; DROP TABLE sla_machine_points; {}; {};",
        older(&points, "trace"),
        older(&jobs, "line")
    ))
    .unwrap();
    let mut values = vec!["1".to_string(), "'pods.csv'".into()];
    values.extend((2..points_cols).map(|_| "0".to_string()));
    conn.execute_batch(&format!(
        "INSERT INTO sla_machine_points VALUES ({}); \
         INSERT INTO sla_machine_jobs (point_id, job, line, submit, outcome, money) VALUES (1, 0, 2, 0, 'success', 1.0);",
        values.join(", ")
    ))
    .unwrap();
    drop(conn);
    Store::open(&path, registry.groups()).unwrap();
    assert_eq!(differences(&fresh, &facts_of(&path)), Vec::<String>::new());
    let rows = slasim::store::query(
        &path,
        "SELECT p.trace, j.line FROM sla_machine_jobs j JOIN sla_machine_points p USING (point_id)",
    )
    .unwrap()
    .rows;
    assert_eq!(rows, [["pods.csv".to_string(), "2".to_string()]]);
    let conn = Connection::open(&path).unwrap();
    let orphan = conn.execute(
        "INSERT INTO sla_machine_jobs (point_id, job, submit, outcome, money) VALUES (9, 0, 0, 'success', 0)",
        [],
    );
    assert!(orphan.is_err(), "foreign keys are enforced again");
}

/// A store from before schema 9 holding Grid points (whose ids were then
/// derived otherwise) is refused for writing, untouched; one holding none
/// is upgraded.
#[test]
fn a_store_from_before_schema_9_with_grid_points_is_refused() {
    let registry = slasim::registry();
    let groups = registry.groups();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v8.sqlite");
    historical(&path, 8);
    let conn = Connection::open(&path).unwrap();
    // A run and its Grid row, every value 0.
    for table in ["runs", "grid_points"] {
        let sql = format!("SELECT count(*) FROM pragma_table_info('{table}')");
        let columns: i64 = conn.query_row(&sql, [], |r| r.get(0)).unwrap();
        conn.execute_batch(&format!("INSERT INTO {table} VALUES ({})", vec!["0"; columns as usize].join(", ")))
            .unwrap();
    }
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path, groups).err().unwrap();
    assert!(matches!(err, StoreError::OlderIds { found: 8, .. }), "{err}");
    assert!(err.to_string().contains("1 Grid points"), "{err}");
    assert!(std::fs::read(&path).unwrap() == before, "the refused store was written");
    Connection::open(&path).unwrap().execute_batch("DELETE FROM grid_points").unwrap();
    Store::open(&path, groups).unwrap();
}

/// Adding a column to a Slurm table is one descriptor line: a store whose
/// `slurm_jobs` was written before its last three columns existed (and a
/// single-cluster `points` before schema 11's columns) gets them from the
/// descriptors alone when opened for writing, its rows reading their
/// default, and is then the store the descriptors make.
#[test]
fn adding_a_column_to_a_slurm_table_is_one_descriptor_line() {
    let registry = slasim::registry();
    let groups = registry.groups();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    Store::open(&path, groups).unwrap();
    let columns = &slasim::slurm::tables::SLURM_JOBS.columns;
    let last: Vec<&str> = columns[columns.len() - 3..].iter().map(|c| c.name).collect();
    assert_eq!(last, ["preempt_cancelled", "node_failed", "node_fail_ended"]);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "ALTER TABLE slurm_jobs DROP COLUMN preempt_cancelled;
         ALTER TABLE slurm_jobs DROP COLUMN node_failed;
         ALTER TABLE slurm_jobs DROP COLUMN node_fail_ended;
         ALTER TABLE points DROP COLUMN power_cap;
         INSERT INTO slurm_jobs VALUES (1, 0, 7, 'a', 'p', 'batch', 0, 5, 9, 5, 1, 0, 1, 0, 60, 1, 0, 'n1', NULL, NULL, 2);",
    )
    .unwrap();
    drop(conn);
    assert!(!facts_of(&path)["slurm_jobs"].iter().any(|c| last.iter().any(|l| c.contains(l))));
    Store::open(&path, groups).unwrap();
    assert_eq!(
        differences(&schema_facts(&described_store(groups).unwrap()).unwrap(), &facts_of(&path)),
        Vec::<String>::new()
    );
    let sql = "SELECT preempted, preempt_cancelled, node_failed, node_fail_ended FROM slurm_jobs";
    let rows = slasim::store::query(&path, sql).unwrap().rows;
    assert_eq!(rows, [["2", "0", "0", "0"].map(String::from)]);
}

/// Each group lists, for merge, exactly the tables its descriptors define,
/// each once; every table of its points holds its key column (rows its
/// points share need not).
#[test]
fn each_group_lists_the_tables_it_describes() {
    use slasim::store::tables::groups::CopyRows;
    let registry = slasim::registry();
    for group in registry.groups() {
        let described = (group.described)();
        let mut listed: Vec<&str> = group.tables.iter().map(|t| t.name).collect();
        let mut names: Vec<&str> = described.iter().map(|t| t.name()).collect();
        listed.sort_unstable();
        names.sort_unstable();
        assert_eq!(listed, names, "group {}", group.key_table);
        assert_eq!(group.tables.first().map(|t| t.name), Some(group.key_table));
        for table in group.tables.iter().filter(|t| t.copy != CopyRows::Shared) {
            let Some(t) = described.iter().find(|t| t.name() == table.name) else { continue };
            assert!(t.columns().iter().any(|c| c.name == group.key), "{} has no {}", table.name, group.key);
        }
    }
}

mod widgets {
    //! A kind's table as a store was written with it, then with one
    //! descriptor appended: nothing else of the kind changes.

    use slasim::store::columns::{Described, Rows, Table, column, insert};
    use slasim::store::schema::SCHEMA_VERSION;
    use slasim::store::schema::facts::schema_mismatches;
    use slasim::store::tables::groups::{PointTables, StoredTable, all};
    use slasim::store::{Store, query};

    enum Widgets {}

    impl Rows for Widgets {
        type Row<'a> = (i64, i64);
        type Summary = ();
    }

    static BEFORE: Table<Widgets> = Table::new("widgets", SCHEMA_VERSION, "A widget per point.")
        .key(&["point_id"])
        .columns(&[column!("point_id", Int, "the point", |r| r.0)]);
    static AFTER: Table<Widgets> =
        Table::new("widgets", SCHEMA_VERSION, "A widget per point.").key(&["point_id"]).columns(&[
            column!("point_id", Int, "the point", |r| r.0),
            column!("size", Int, "its size", |r| r.1; default "3"),
        ]);

    /// The same column without the default older rows would need.
    static NO_DEFAULT: Table<Widgets> = Table::new("widgets", SCHEMA_VERSION, "A widget per point.")
        .key(&["point_id"])
        .columns(&[column!("point_id", Int, "the point", |r| r.0), column!("size", Int, "its size", |r| r.1)]);

    static GROUP_BEFORE: PointTables = group(|| vec![&BEFORE]);
    static GROUP_AFTER: PointTables = group(|| vec![&AFTER]);
    static GROUP_NO_DEFAULT: PointTables = group(|| vec![&NO_DEFAULT]);

    const WIDGETS: &[StoredTable] = &[all("widgets")];

    const fn group(described: fn() -> Vec<&'static dyn Described>) -> PointTables {
        PointTables {
            key_table: "widgets",
            key: "point_id",
            metrics: "widgets",
            tables: WIDGETS,
            described,
            steps: &[],
            views: &[],
            ids_since: None,
            jobs: None,
            provenance: None,
        }
    }

    /// Adding a column is one descriptor: a store written before it gets it
    /// when next opened for writing, its rows reading the default, at the
    /// same schema version, and is then the store the descriptors make.
    #[test]
    fn a_column_appended_to_a_table_comes_to_an_older_store() {
        let (before, after): (&'static PointTables, &'static PointTables) = (&GROUP_BEFORE, &GROUP_AFTER);
        let names = |t: &Table<Widgets>| t.columns.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(&AFTER)[..names(&BEFORE).len()], names(&BEFORE));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.sqlite");
        Store::open(&path, &[before]).unwrap().write_with(|tx| insert(tx, &BEFORE, &(1, 0))).unwrap();
        let mut store = Store::open(&path, &[after]).unwrap();
        store.write_with(|tx| insert(tx, &AFTER, &(2, 5))).unwrap();
        drop(store);
        let rows = query(&path, "SELECT point_id, size FROM widgets ORDER BY point_id").unwrap().rows;
        assert_eq!(rows, [["1", "3"], ["2", "5"]]);
        assert_eq!(query(&path, "PRAGMA user_version").unwrap().rows, [[SCHEMA_VERSION.to_string()]]);
        assert_eq!(schema_mismatches(&path, &[after]).unwrap(), Vec::<String>::new());
    }

    /// A `NOT NULL` column appended without a default cannot come to an
    /// older store: opening it for writing fails, naming the statement, and
    /// leaves it as it was.
    #[test]
    fn a_not_null_column_without_a_default_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.sqlite");
        Store::open(&path, &[&GROUP_BEFORE]).unwrap().write_with(|tx| insert(tx, &BEFORE, &(1, 0))).unwrap();
        let err = Store::open(&path, &[&GROUP_NO_DEFAULT]).err().unwrap().to_string();
        assert!(err.contains("ALTER TABLE widgets ADD COLUMN size INTEGER NOT NULL"), "{err}");
        assert!(err.contains("w.sqlite"), "{err}");
        let columns = query(&path, "SELECT name FROM pragma_table_info('widgets')").unwrap().rows;
        assert_eq!(columns, [["point_id"]]);
    }
}
