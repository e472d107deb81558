//! The SQLite store of every point: runs, jobs, node events, Grid requests,
//! and the tables of the kinds registered from other crates.
//!
//! Contract:
//! - One module per concept: [`schema`] (versioned migrations), [`columns`]
//!   (column descriptors: INSERTs, schema check, report lists), [`tables`]
//!   (every table's descriptors, per kind of point), [`writer`] (one writer
//!   per point kind, each point in one transaction), [`mod@merge`] (every table
//!   of a sweep's shards), [`tables`] (the tables of each point kind) and
//!   [`mod@query`] (read-only access).
//! - WAL journal: readers (`slasim query`, reports) never block the writer.
//! - A crash never leaves half a point behind. Rows that points share (a
//!   single-cluster battery's jobs, `battery_jobs`) are inputs: they may be
//!   committed earlier, in a transaction of their own
//!   ([`crate::experiment::point::AnyPoint::shared_rows`]).
//! - Point ids: each kind's in its key table ([`tables`]; a single-cluster
//!   or Grid run's `run_id` in `runs`);
//!   [`Store::stored_points`] is all of them.
//! - `jobs.fee` is what the provider earned from the job (0 unless it
//!   succeeded), `jobs.penalty` what it paid (0 unless it failed):
//!   `sum(fee) - sum(penalty)` is the gain.
//! - A store is opened with the groups of tables it holds (a program's
//!   registry's, [`crate::experiment::registry::Registry::groups`]). A registered kind's
//!   tables come from its group's `CREATE … IF NOT EXISTS` script, run
//!   whenever a store is opened for writing, after the migrations. The
//!   `all_jobs` view (every kind's jobs in one vocabulary) is then made the
//!   union of the groups' job selects ([`jobs_view`]), unless the store
//!   already has that view.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use tables::groups::PointTables;

pub mod columns;
mod error;
pub mod export;
pub mod merge;
pub mod query;
pub mod schema;
pub mod tables;
pub mod writer;

/// The SQLite binding a registered point kind writes its rows with.
pub use rusqlite;

pub use merge::{MergeError, MergeReport, merge};
pub use query::{Columns, Table, Values, has_table, query, query_columns};
pub use schema::{MIGRATIONS, SCHEMA_VERSION};

pub use error::StoreError;
pub(crate) use error::sqlite;
use schema::user_version;

/// An experiment as stored in `experiments`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentRow {
    /// sha256 of the config text.
    pub hash: String,
    /// Its name.
    pub name: String,
    /// The config file.
    pub file: String,
    /// The config text.
    pub config: String,
    /// slasim version and commit.
    pub code_version: String,
    /// Wall-clock time of the first registration, RFC 3339.
    pub created_at: String,
}

/// An experiment's identity in a store: (hash, name, file).
pub type ExperimentId = (String, String, String);

/// The `all_jobs` columns, and no row.
const NO_JOBS: &str = "SELECT NULL AS point, NULL AS kind, NULL AS job, NULL AS submit, NULL AS start, \
     NULL AS \"end\", NULL AS wait, NULL AS processors WHERE 0";

/// `CREATE VIEW all_jobs …`: one row per job of every point of a group with
/// jobs ([`tables::groups::PointTables::jobs`]), in the columns they share:
/// `point` (the point's id), `kind` (its kind's name), `job` (its index in
/// the battery or workload), `submit`, `start`, `end`, `wait` (start −
/// submit; the three NULL for a job that never started) and `processors`.
/// With no such group registered, the view has those columns and no row.
pub fn jobs_view(groups: &[&'static PointTables]) -> String {
    let selects: Vec<&str> = groups.iter().filter_map(|g| g.jobs).collect();
    let selects = if selects.is_empty() { vec![NO_JOBS] } else { selects };
    format!("CREATE VIEW all_jobs AS\n{}", selects.join("\nUNION ALL\n"))
}

/// A database open for writing.
pub struct Store {
    path: PathBuf,
    conn: Connection,
    /// What each kind's writer keeps of this store between points, by type.
    kept: HashMap<TypeId, Box<dyn Any + Send>>,
    /// The groups of tables it was opened with.
    groups: Vec<&'static PointTables>,
}

/// A registered group's table made by an older build lacks the columns its
/// descriptors have added since: they are added (by name, at the table's
/// end), with their default standing for the rows already there (the
/// group's script only creates missing tables).
fn add_trailing_columns(conn: &Connection, group: &tables::groups::PointTables) -> rusqlite::Result<()> {
    for table in (group.described)() {
        let sql = format!("SELECT name FROM pragma_table_info('{}')", table.name());
        let mut statement = conn.prepare(&sql)?;
        let stored: Vec<String> = statement.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        if stored.is_empty() {
            continue;
        }
        for (name, ty, _, default) in table.columns() {
            if !stored.iter().any(|s| s == name) {
                conn.execute_batch(&format!(
                    "ALTER TABLE {} ADD COLUMN {name} {} DEFAULT {default};",
                    table.name(),
                    ty.sql()
                ))?;
            }
        }
    }
    Ok(())
}

impl Store {
    /// Opens (or creates) a store of the `groups` of tables, migrating an older schema.
    pub fn open(path: impl AsRef<Path>, groups: &[&'static PointTables]) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let err = sqlite(&path);
        let mut conn = Connection::open(&path).map_err(&err)?;
        conn.busy_timeout(std::time::Duration::from_secs(30)).map_err(&err)?;
        let found = user_version(&conn).map_err(&err)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { path: path.clone(), found });
        }
        if found == 0 {
            // A new file: 16 KB pages take fewer writes per commit (set
            // before the WAL exists; ignored for an existing database).
            conn.pragma_update(None, "page_size", 16_384).map_err(&err)?;
        }
        conn.pragma_update(None, "journal_mode", "WAL").map_err(&err)?;
        // Commits stay atomic and survive a killed process; only a power
        // loss may roll back the last commits (WAL with synchronous=NORMAL).
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(&err)?;
        let older = schema::older_ids(&conn, found).map_err(&err)?;
        if !older.is_empty() {
            let kinds = older.iter().map(|(k, n)| format!("{n} {k} points")).collect::<Vec<_>>().join(" and ");
            return Err(StoreError::OlderIds { path: path.clone(), found, kinds });
        }
        if found < SCHEMA_VERSION {
            let tx = conn.transaction().map_err(&err)?;
            for (step, script) in MIGRATIONS.iter().enumerate().skip(found as usize) {
                tx.execute_batch(script).map_err(&err)?;
                tx.execute_batch(&tables::migrations_after(groups, step as i64 + 1)).map_err(&err)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&err)?;
            tx.commit().map_err(&err)?;
        }
        // Registered kinds' tables, then the view of every kind's jobs.
        for group in groups {
            if !group.schema.is_empty() {
                conn.execute_batch(group.schema).map_err(&err)?;
                add_trailing_columns(&conn, group).map_err(&err)?;
            }
        }
        let view = jobs_view(groups);
        let stored: Option<String> = conn
            .query_row("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'all_jobs'", [], |r| r.get(0))
            .optional()
            .map_err(&err)?;
        if stored.as_deref() != Some(view.as_str()) {
            conn.execute_batch(&format!("DROP VIEW IF EXISTS all_jobs;\n{view};")).map_err(&err)?;
        }
        drop(err);
        Ok(Store { path, conn, kept: HashMap::new(), groups: groups.to_vec() })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records an experiment and the points it consists of, each with every
    /// sweep that names it (idempotent).
    pub fn register_experiment(
        &mut self,
        e: &ExperimentRow,
        points: impl IntoIterator<Item = (i64, String)>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        columns::insert(&tx, &tables::experiment::EXPERIMENTS, &e).map_err(&err)?;
        let points: Vec<(i64, String)> = points.into_iter().collect();
        let rows = points.iter().map(|(point_id, sweep)| tables::experiment::ExperimentPointRow {
            experiment: &e.hash,
            point_id: *point_id,
            sweep,
        });
        columns::insert_all(&tx, &tables::experiment::EXPERIMENT_POINTS, rows).map_err(&err)?;
        tx.commit().map_err(&err)
    }

    /// Reads with `read`, which gets the connection; an error names the file.
    pub fn read<T>(&self, read: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        read(&self.conn).map_err(sqlite(&self.path))
    }

    /// What a kind's writer keeps of this store between points (the
    /// batteries it knows are stored, say), made on first use.
    pub fn kept<T: Any + Send + Default>(&mut self) -> &mut T {
        let kept = self.kept.entry(TypeId::of::<T>()).or_insert_with(|| Box::new(T::default()));
        kept.downcast_mut().expect("kept by its type")
    }

    /// Writes a registered point kind's rows in one transaction: `write`
    /// gets the transaction, which commits when it returns `Ok`.
    pub fn write_with(
        &mut self,
        write: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        write(&tx).map_err(&err)?;
        tx.commit().map_err(&err)
    }

    /// The ids of every point stored, of every kind.
    pub fn stored_points(&self) -> Result<std::collections::HashSet<i64>, StoreError> {
        let mut stmt = self.conn.prepare(&stored_points_sql(&self.conn, &self.groups)).map_err(sqlite(&self.path))?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(sqlite(&self.path))?;
        rows.collect::<Result<_, _>>().map_err(sqlite(&self.path))
    }
}

/// The experiments (config hash, name, file) a store holds.
pub fn experiments(path: &Path) -> Result<Vec<ExperimentId>, StoreError> {
    let conn = open_read_only(path)?;
    let mut stmt = conn
        .prepare("SELECT hash, name, file FROM experiments ORDER BY hash")
        .map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })?;
    rows.collect::<Result<_, _>>().map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })
}

/// Every point id a store holds: the key of every group of tables there
/// (a registered kind's tables are missing from a store it never wrote).
fn stored_points_sql(conn: &Connection, groups: &[&'static PointTables]) -> String {
    let exists = |table: &str| {
        conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :table)",
            rusqlite::named_params! { ":table": table },
            |r| r.get::<_, bool>(0),
        )
        .unwrap_or(false)
    };
    groups
        .iter()
        .filter(|g| g.schema.is_empty() || exists(g.key_table))
        .map(|g| format!("SELECT {} FROM {}", g.key, g.key_table))
        .collect::<Vec<_>>()
        .join(" UNION ALL ")
}

/// The ids of every point of the `groups` of tables stored in the database
/// at `path` (read-only).
pub fn stored_points(
    path: &Path,
    groups: &[&'static PointTables],
) -> Result<std::collections::HashSet<i64>, StoreError> {
    let conn = open_read_only(path)?;
    let err = sqlite(path);
    // A file without the schema yet (an interrupted creation) holds no point.
    let version = user_version(&conn).map_err(&err)?;
    if version == 0 {
        return Ok(Default::default());
    }
    let sql = if version >= 5 { stored_points_sql(&conn, groups) } else { "SELECT run_id FROM runs".to_string() };
    let mut stmt = conn.prepare(&sql).map_err(&err)?;
    let rows = stmt.query_map([], |r| r.get(0)).map_err(&err)?;
    rows.collect::<Result<_, _>>().map_err(&err)
}

pub fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    if !path.is_file() {
        return Err(StoreError::Missing { path: path.to_path_buf() });
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(sqlite(path))?;
    let version = user_version(&conn).map_err(sqlite(path))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { path: path.to_path_buf(), found: version });
    }
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::query::query;

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
        let conn = Connection::open(&path).unwrap();
        for step in MIGRATIONS {
            conn.execute_batch(step).unwrap();
        }
        conn.pragma_update(None, "user_version", SCHEMA_VERSION).unwrap();
        drop(conn);
        assert_eq!(query(&path, "SELECT count(*) FROM jobs").unwrap().rows, vec![vec!["0".to_string()]]);
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
        for sql in
            ["DELETE FROM jobs", "DROP TABLE runs", "INSERT INTO runs (run_id) VALUES (1)", "PRAGMA user_version = 9"]
        {
            let err = query(&path, sql).unwrap_err();
            assert!(matches!(err, StoreError::WriteRefused { .. } | StoreError::Sql { .. }), "{sql}: {err}");
        }
        let err = query(&path, "SELEC 1").unwrap_err();
        assert!(err.to_string().contains("syntax error"), "{err}");
        let err = query(&path, "SELECT nope FROM jobs").unwrap_err();
        assert!(err.to_string().contains("no such column: nope"), "{err}");
        let t = query(&path, "SELECT 1 AS a, 'x,y' AS b, NULL AS c, 2.5 AS d").unwrap();
        assert_eq!(t.to_csv(), "a,b,c,d\n1,\"x,y\",,2.5\n");
        assert!(query(dir.path().join("missing.sqlite"), "SELECT 1").is_err());
    }
}
