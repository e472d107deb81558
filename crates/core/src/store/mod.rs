//! The SQLite store of every point: the engine's experiments, and the
//! tables of the kinds registered from other crates.
//!
//! Contract:
//! - One module per concept: [`schema`] (the schema made from descriptors,
//!   and the steps that bring older stores up to it), [`columns`] (column
//!   descriptors: the one definition of each table, its INSERTs, report
//!   lists), [`tables`] (every table's descriptors, per group of point
//!   tables), [`writer`] (one writer per point kind, each point written
//!   whole, points committed in groups), [`mod@merge`] (every table of a sweep's shards) and
//!   [`mod@query`] (read-only access).
//! - WAL journal: readers (`slasim query`, reports) never block the writer.
//! - A crash never leaves half a point behind. Rows that points share (a
//!   battery of jobs stored once for every run of it) are inputs: they may
//!   be committed earlier, in a transaction of their own
//!   ([`crate::experiment::point::AnyPoint::shared_rows`]; merge copies them
//!   as [`tables::groups::CopyRows::Shared`]).
//! - Point ids: each kind's in its group's key table ([`tables`]);
//!   [`Store::stored_points`] is all of them.
//! - A store is opened with the groups of tables it holds (a program's
//!   registry's, [`crate::experiment::registry::Registry::groups`]). Opening it for
//!   writing brings it to this build's schema ([`schema`]): a new one from
//!   the groups' descriptors alone, an older one by its steps, and any one
//!   by the descriptors (a group's tables missing from it, a column added
//!   since). The `all_jobs` view (every kind's jobs in one vocabulary) is
//!   the union of the groups' job selects ([`jobs_view`]).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use tables::groups::PointTables;

pub mod columns;
mod error;
pub mod export;
pub mod merge;
mod provenance;
pub mod query;
pub mod schema;
pub mod tables;
pub mod writer;

/// The SQLite binding a registered point kind writes its rows with.
pub use rusqlite;

pub use merge::{MergeError, MergeReport, merge};
pub use query::{Columns, Table, Values, has_table, query, query_columns};
pub use schema::SCHEMA_VERSION;

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
    /// How many distinct points its sweeps make (all shards').
    pub points: Option<i64>,
}

/// An experiment's identity in a store: (hash, name, file).
pub type ExperimentId = (String, String, String);

/// The `all_jobs` columns, and no row.
const NO_JOBS: &str = "SELECT NULL AS point, NULL AS kind, NULL AS job, NULL AS submit, NULL AS start, \
     NULL AS \"end\", NULL AS wait, NULL AS processors WHERE 0";

/// What `all_jobs` holds (the schema page).
pub const ALL_JOBS_DOC: &str = "View: every kind's jobs in one vocabulary, one row per job of every point whose kind has jobs (single-cluster, Grid, Slurm): `point` (`run_id` or `point_id`), `kind` (the kind's name: `single`, `grid`, `slurm`), `job` (its index in the battery or workload), `submit`, `start`, `end`, `wait` (start − submit; the three NULL for a job that never started) and `processors` (single-cluster and Grid: the job's `nodes`, in the run's node unit, processors unless `prepare.node_unit = \"nodes\"`; Slurm: its CPUs).";

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
    /// The point whose provenance row the next write that stores it adds.
    pending: Option<i64>,
    /// The groups' queries of one point's provenance.
    provenance_selects: Vec<(&'static str, String)>,
    /// sha256 of each trace file read, by the name stored (None: no file).
    digests: HashMap<String, Option<String>>,
    /// Writes are grouped into one transaction until [`Store::commit`]
    /// ([`Store::group_writes`]).
    grouped: bool,
    /// A grouped transaction is open.
    open: bool,
}

impl Store {
    /// Opens (or creates) a store of the `groups` of tables, migrating an older schema.
    pub fn open(path: impl AsRef<Path>, groups: &[&'static PointTables]) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let err = sqlite(&path);
        let mut conn = Connection::open(&path).map_err(&err)?;
        conn.busy_timeout(std::time::Duration::from_secs(30)).map_err(&err)?;
        // Every kind's INSERTs (batched ones in two sizes) and the
        // provenance row's stay prepared: rusqlite's 16 would evict them.
        conn.set_prepared_statement_cache_capacity(128);
        let found = user_version(&conn).map_err(&err)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { path: path.clone(), found });
        }
        // Refused before anything is written (the journal mode included).
        let older = schema::older_ids(&conn, groups, found).map_err(&err)?;
        if !older.is_empty() {
            let kinds = older.iter().map(|(k, n)| format!("{n} {k} points")).collect::<Vec<_>>().join(" and ");
            return Err(StoreError::OlderIds { path: path.clone(), found, kinds });
        }
        if found == 0 {
            // A new file: 4 KB pages. A point's rows land on random pages
            // of its tables (they are keyed by the point's hash), and each
            // commit writes every page it touched twice (the WAL, then the
            // file): at a million small points 4 KB pages write a quarter of
            // what 16 KB pages did (performance page, "Sweeps"). Set before
            // the WAL exists; ignored for an existing database.
            conn.pragma_update(None, "page_size", 4096).map_err(&err)?;
        }
        conn.pragma_update(None, "journal_mode", "WAL").map_err(&err)?;
        // Commits stay atomic and survive a killed process; only a power
        // loss may roll back the last commits (WAL with synchronous=NORMAL).
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(&err)?;
        schema::upgrade(&mut conn, groups, found, &path)?;
        drop(err);
        Ok(Store {
            path,
            conn,
            kept: HashMap::new(),
            groups: groups.to_vec(),
            pending: None,
            provenance_selects: provenance::selects(groups),
            digests: HashMap::new(),
            grouped: false,
            open: false,
        })
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
        points: impl IntoIterator<Item = (i64, impl AsRef<str>)>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        columns::insert(&tx, &tables::experiment::EXPERIMENTS, &e).map_err(&err)?;
        // A store written before schema 14 has no count yet.
        tx.execute(
            "UPDATE experiments SET points = :points WHERE hash = :hash AND points IS NULL",
            rusqlite::named_params! { ":points": e.points, ":hash": e.hash },
        )
        .map_err(&err)?;
        let points: Vec<(i64, _)> = points.into_iter().collect();
        let rows = points.iter().map(|(point_id, sweep)| tables::experiment::ExperimentPointRow {
            experiment: &e.hash,
            point_id: *point_id,
            sweep: sweep.as_ref(),
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

    /// Writes a registered point kind's rows all or nothing: `write` gets
    /// the connection inside a savepoint, released when it returns `Ok`
    /// (its own transaction, or part of the grouped one). When the rows
    /// store the point [`Store::expect_point`] named, its `provenance` row
    /// is added with them.
    pub fn write_with(
        &mut self,
        write: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<()>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        if self.grouped && !self.open {
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(&err)?;
            self.open = true;
        }
        let rows = self.conn.savepoint().map_err(&err)?;
        write(&rows).map_err(&err)?;
        if let Some(point) = self.pending
            && provenance::record(&rows, &self.provenance_selects, point, &mut self.digests, &self.path)?
        {
            self.pending = None;
        }
        rows.commit().map_err(&err)
    }

    /// From now on, writes are grouped into one transaction until
    /// [`Store::commit`]: one commit for many small points (each commit
    /// writes every page it touched to the journal). A crash loses the
    /// uncommitted group whole, never part of a point.
    pub fn group_writes(&mut self) {
        self.grouped = true;
    }

    /// Commits the grouped writes (nothing when none is open).
    pub fn commit(&mut self) -> Result<(), StoreError> {
        if self.open {
            self.conn.execute_batch("COMMIT").map_err(sqlite(&self.path))?;
            self.open = false;
        }
        Ok(())
    }

    /// The point the next writes store: the write that stores its row in
    /// its group's key table also stores its `provenance` row.
    pub fn expect_point(&mut self, point: i64) {
        self.pending = Some(point);
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

/// The name and number of points of the experiment whose config hash is
/// `hash`, if the store at `path` holds every one of its points: a finished
/// sweep is recognised from the count its experiment keeps, without making
/// its points. `None` when it does not (or the store predates the count).
pub fn finished(
    path: &Path,
    groups: &[&'static PointTables],
    hash: &str,
) -> Result<Option<(String, usize)>, StoreError> {
    let conn = open_read_only(path)?;
    let err = sqlite(path);
    if user_version(&conn).map_err(&err)? < 14 {
        return Ok(None);
    }
    let Some((name, Some(points))) = conn
        .query_row(
            "SELECT name, points FROM experiments WHERE hash = :hash",
            rusqlite::named_params! { ":hash": hash },
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(1)?)),
        )
        .optional()
        .map_err(&err)?
    else {
        return Ok(None);
    };
    let stored: i64 = conn
        .query_row(
            &format!(
                "SELECT count(DISTINCT run_id) FROM experiment_points WHERE experiment = :hash AND run_id IN ({})",
                stored_points_sql(&conn, groups)
            ),
            rusqlite::named_params! { ":hash": hash },
            |r| r.get(0),
        )
        .map_err(&err)?;
    Ok((stored == points).then_some((name, points as usize)))
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
    let selects: Vec<String> = groups
        .iter()
        .filter(|g| exists(g.key_table))
        .map(|g| format!("SELECT {} FROM {}", g.key, g.key_table))
        .collect();
    if selects.is_empty() { "SELECT NULL WHERE 0".to_string() } else { selects.join(" UNION ALL ") }
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
    let mut stmt = conn.prepare(&stored_points_sql(&conn, groups)).map_err(&err)?;
    let rows = stmt.query_map([], |r| r.get(0)).map_err(&err)?;
    rows.collect::<Result<_, _>>().map_err(&err)
}

/// A connection that reads the store at `path` and never writes it
/// (`query_only`). It is opened for writing where the file allows: closing
/// it then removes the write-ahead log and shared-memory files as a
/// writer's close does, where a read-only connection would leave them
/// beside the store. A write-protected file is opened read-only.
pub fn reading(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
}

/// The store at `path`, to read ([`reading`]): a missing file and a store
/// of a newer schema are refused.
pub fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    if !path.is_file() {
        return Err(StoreError::Missing { path: path.to_path_buf() });
    }
    let conn = reading(path).map_err(sqlite(path))?;
    let version = user_version(&conn).map_err(sqlite(path))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { path: path.to_path_buf(), found: version });
    }
    Ok(conn)
}
