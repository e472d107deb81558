//! The SQLite store of every run, job and node event.
//!
//! Contract:
//! - The schema is versioned with `PRAGMA user_version`; [`MIGRATIONS`] holds
//!   one script per version step. Opening for writing applies the missing steps
//!   in one transaction; a database from a *newer* slasim is refused before
//!   anything is written.
//! - WAL journal: readers (`slasim query`, reports) never block the writer.
//! - One writer ([`Store::write_run`]) commits each run in one transaction —
//!   its `runs` row, all its `jobs` rows and its `node_events` — with cached
//!   prepared statements, so a crash never leaves half a run behind.
//! - [`query`] opens the file read-only and refuses any statement that writes.
//! - `jobs.fee` is what the provider earned from the job (0 unless it
//!   succeeded), `jobs.penalty` what it paid (0 unless it failed):
//!   `sum(fee) - sum(penalty)` is the gain.

use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, params};

use crate::sim::record::{JobRecord, NodeEventRecord, RunSummary};
use crate::workload::failures::NodeEventKind;

/// Schema scripts; applying `MIGRATIONS[i]` takes a database from version i to i + 1.
pub const MIGRATIONS: [&str; 1] = [r#"
CREATE TABLE runs (
    run_id        INTEGER PRIMARY KEY,  -- stable: derived from the run's resolved settings
    strategy      TEXT    NOT NULL,
    battery       INTEGER NOT NULL,
    trace         TEXT    NOT NULL,
    seed          INTEGER NOT NULL,
    capacity      INTEGER NOT NULL,
    config        TEXT    NOT NULL,     -- the resolved settings, TOML
    config_hash   TEXT    NOT NULL,     -- sha256 of `config`
    code_version  TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,     -- wall clock (UTC), informational only
    finished_at   TEXT    NOT NULL,
    wall_seconds  REAL    NOT NULL
);
CREATE TABLE jobs (
    run_id        INTEGER NOT NULL REFERENCES runs(run_id),
    strategy      TEXT    NOT NULL,
    battery       INTEGER NOT NULL,
    job           INTEGER NOT NULL,     -- index within the battery
    swf_id        INTEGER NOT NULL,
    occurrence    INTEGER NOT NULL,
    release       INTEGER NOT NULL,
    deadline      INTEGER NOT NULL,
    estimate      INTEGER NOT NULL,
    runtime       INTEGER NOT NULL,
    nodes         INTEGER NOT NULL,
    user          INTEGER NOT NULL,
    application   INTEGER NOT NULL,
    queue         INTEGER NOT NULL,
    accepted      INTEGER NOT NULL,
    planned_start INTEGER,
    planned_end   INTEGER,
    actual_start  INTEGER,
    actual_end    INTEGER,
    overbooked    INTEGER NOT NULL,
    pof           REAL,
    outcome       TEXT    NOT NULL CHECK (outcome IN ('success', 'failed', 'rejected')),
    fee           REAL    NOT NULL,     -- earned: the job's fee if it succeeded, else 0
    penalty       REAL    NOT NULL,     -- paid: the job's penalty if it failed, else 0
    restarts      INTEGER NOT NULL,
    executed      INTEGER NOT NULL,     -- seconds of execution, all attempts
    PRIMARY KEY (run_id, job)
) WITHOUT ROWID;
CREATE TABLE node_events (
    run_id  INTEGER NOT NULL REFERENCES runs(run_id),
    seq     INTEGER NOT NULL,
    time    INTEGER NOT NULL,
    node    INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('fail', 'repair')),
    job     INTEGER,                    -- the running job a failure interrupted
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX jobs_by_strategy ON jobs(strategy, battery);
"#];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Store errors; each names the database file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("{path}: {source}", path = .path.display())]
    Sqlite { path: PathBuf, source: rusqlite::Error },
    /// The file was written by a newer slasim.
    #[error(
        "{path}: schema version {found} is newer than this slasim understands ({SCHEMA_VERSION}); \
         use a newer slasim or another --db file (nothing was changed)", path = .path.display()
    )]
    NewerSchema { path: PathBuf, found: i64 },
    /// The file does not exist (read-only opening).
    #[error("{path}: no such database", path = .path.display())]
    Missing { path: PathBuf },
    /// `query` was given a statement that writes.
    #[error("only read-only statements are allowed (SELECT, WITH …, read-only PRAGMA); refused: {sql}")]
    WriteRefused { sql: String },
    /// The SQL could not be prepared or run.
    #[error("{path}: SQL error: {message}", path = .path.display())]
    Sql { path: PathBuf, message: String },
}

/// One run ready to be stored.
#[derive(Debug, Clone)]
pub struct RunRow {
    /// Stable id (from the resolved settings).
    pub run_id: i64,
    /// Strategy name.
    pub strategy: String,
    /// Battery index.
    pub battery: i64,
    /// Trace name.
    pub trace: String,
    /// Seed.
    pub seed: u64,
    /// Cluster size.
    pub capacity: u32,
    /// Resolved settings, TOML.
    pub config: String,
    /// sha256 of `config`, hex.
    pub config_hash: String,
    /// slasim version (and git commit when known).
    pub code_version: String,
    /// Wall-clock start, RFC 3339 UTC.
    pub started_at: String,
    /// Wall-clock end, RFC 3339 UTC.
    pub finished_at: String,
    /// Wall seconds the simulation took.
    pub wall_seconds: f64,
}

/// A run with its outcomes.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// The `runs` row.
    pub run: RunRow,
    /// One record per job.
    pub jobs: Vec<JobRecord>,
    /// Node failures and repairs.
    pub node_events: Vec<NodeEventRecord>,
}

/// A database open for writing.
pub struct Store {
    path: PathBuf,
    conn: Connection,
}

fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Sqlite { path: path.to_path_buf(), source }
}

/// Reads `PRAGMA user_version`.
fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

impl Store {
    /// Opens (or creates) a store, migrating an older schema.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let err = sqlite(&path);
        let mut conn = Connection::open(&path).map_err(&err)?;
        conn.busy_timeout(std::time::Duration::from_secs(30)).map_err(&err)?;
        let found = user_version(&conn).map_err(&err)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { path: path.clone(), found });
        }
        conn.pragma_update(None, "journal_mode", "WAL").map_err(&err)?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(&err)?;
        if found < SCHEMA_VERSION {
            let tx = conn.transaction().map_err(&err)?;
            for script in &MIGRATIONS[found as usize..] {
                tx.execute_batch(script).map_err(&err)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&err)?;
            tx.commit().map_err(&err)?;
        }
        drop(err);
        Ok(Store { path, conn })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True if a run with this id is already stored.
    pub fn has_run(&self, run_id: i64) -> Result<bool, StoreError> {
        self.conn
            .query_row("SELECT EXISTS (SELECT 1 FROM runs WHERE run_id = ?1)", [run_id], |r| r.get(0))
            .map_err(sqlite(&self.path))
    }

    /// Recomputes a stored run's summary from its `jobs` rows.
    pub fn summary(&self, run_id: i64) -> Result<RunSummary, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*), sum(accepted), sum(outcome = 'success'), sum(outcome = 'failed'), \
                 sum(outcome = 'rejected'), sum(fee), sum(penalty), sum(jobs.nodes * executed), max(actual_end), \
                 (SELECT capacity FROM runs WHERE runs.run_id = ?1), sum(accepted AND overbooked), \
                 sum(accepted AND overbooked AND outcome = 'failed'), \
                 sum(CASE WHEN accepted AND overbooked THEN pof ELSE 0 END) \
                 FROM jobs WHERE run_id = ?1",
                [run_id],
                |r| {
                    let busy: f64 = r.get::<_, Option<f64>>(7)?.unwrap_or(0.0);
                    let span: f64 = r.get::<_, Option<f64>>(8)?.unwrap_or(0.0);
                    let capacity: f64 = r.get::<_, Option<f64>>(9)?.unwrap_or(0.0);
                    let fees: f64 = r.get::<_, Option<f64>>(5)?.unwrap_or(0.0);
                    let penalties: f64 = r.get::<_, Option<f64>>(6)?.unwrap_or(0.0);
                    Ok(RunSummary {
                        jobs: r.get(0)?,
                        accepted: r.get::<_, Option<u32>>(1)?.unwrap_or(0),
                        successful: r.get::<_, Option<u32>>(2)?.unwrap_or(0),
                        failed: r.get::<_, Option<u32>>(3)?.unwrap_or(0),
                        rejected: r.get::<_, Option<u32>>(4)?.unwrap_or(0),
                        fees,
                        penalties,
                        gain: fees - penalties,
                        utilisation: if span > 0.0 && capacity > 0.0 { busy / (capacity * span) } else { 0.0 },
                        overbooked: r.get::<_, Option<u32>>(10)?.unwrap_or(0),
                        overbooked_failed: r.get::<_, Option<u32>>(11)?.unwrap_or(0),
                        overbooked_pof_sum: r.get::<_, Option<f64>>(12)?.unwrap_or(0.0),
                    })
                },
            )
            .map_err(sqlite(&self.path))
    }

    /// Stores one run, its jobs and node events in one transaction.
    pub fn write_run(&mut self, out: &RunOutput) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        {
            let r = &out.run;
            tx.execute(
                "INSERT INTO runs (run_id, strategy, battery, trace, seed, capacity, config, config_hash, \
                 code_version, started_at, finished_at, wall_seconds) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    r.run_id,
                    r.strategy,
                    r.battery,
                    r.trace,
                    r.seed as i64,
                    r.capacity,
                    r.config,
                    r.config_hash,
                    r.code_version,
                    r.started_at,
                    r.finished_at,
                    r.wall_seconds
                ],
            )
            .map_err(&err)?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO jobs (run_id, strategy, battery, job, swf_id, occurrence, release, deadline, \
                     estimate, runtime, nodes, user, application, queue, accepted, planned_start, planned_end, \
                     actual_start, actual_end, overbooked, pof, outcome, fee, penalty, restarts, executed) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, \
                     ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
                )
                .map_err(&err)?;
            for j in &out.jobs {
                let job = &j.job;
                insert
                    .execute(params![
                        r.run_id,
                        r.strategy,
                        r.battery,
                        job.id,
                        job.swf_id,
                        job.occurrence,
                        job.release,
                        job.deadline,
                        job.estimate,
                        job.runtime,
                        job.nodes,
                        job.user,
                        job.application,
                        job.queue,
                        j.accepted,
                        j.planned_start,
                        j.planned_end,
                        j.actual_start,
                        j.actual_end,
                        j.overbooked,
                        j.pof,
                        j.outcome.map_or("failed", |o| o.as_str()),
                        j.fee(),
                        j.penalty(),
                        j.restarts,
                        j.executed
                    ])
                    .map_err(&err)?;
            }
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO node_events (run_id, seq, time, node, kind, job) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(&err)?;
            for (seq, e) in out.node_events.iter().enumerate() {
                let kind = match e.kind {
                    NodeEventKind::Fail => "fail",
                    NodeEventKind::Repair => "repair",
                };
                insert.execute(params![r.run_id, seq as i64, e.time, e.node, kind, e.job]).map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }
}

/// A query result: column names and rendered rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of rendered values (`NULL` as empty).
    pub rows: Vec<Vec<String>>,
}

fn render(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => {
            if r.fract() == 0.0 && r.abs() < 1e15 {
                format!("{r:.1}")
            } else {
                format!("{r:.6}").trim_end_matches('0').to_string()
            }
        }
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

/// Runs one read-only SQL statement on the database at `path`.
pub fn query(path: impl AsRef<Path>, sql: &str) -> Result<Table, StoreError> {
    let path = path.as_ref().to_path_buf();
    if !path.is_file() {
        return Err(StoreError::Missing { path });
    }
    let sql_err = |e: rusqlite::Error| StoreError::Sql { path: path.clone(), message: e.to_string() };
    let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(sqlite(&path))?;
    conn.pragma_update(None, "query_only", true).map_err(sqlite(&path))?;
    let mut stmt = conn.prepare(sql).map_err(sql_err)?;
    if !stmt.readonly() {
        return Err(StoreError::WriteRefused { sql: sql.trim().to_string() });
    }
    let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
    let n = columns.len();
    let mut rows = Vec::new();
    let mut result = stmt.query([]).map_err(sql_err)?;
    while let Some(row) = result.next().map_err(sql_err)? {
        rows.push((0..n).map(|i| row.get_ref(i).map(render).unwrap_or_default()).collect());
    }
    Ok(Table { columns, rows })
}

impl Table {
    /// Aligned text, numbers right-aligned.
    pub fn to_text(&self) -> String {
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.columns[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let numeric = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
        let mut out = String::new();
        let line = |cells: Vec<String>, out: &mut String| {
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        };
        line(self.columns.iter().enumerate().map(|(i, c)| format!("{c:<w$}", w = widths[i])).collect(), &mut out);
        line(widths.iter().map(|&w| "-".repeat(w)).collect(), &mut out);
        for row in &self.rows {
            let cells = row
                .iter()
                .enumerate()
                .map(
                    |(i, v)| {
                        if numeric(v) { format!("{v:>w$}", w = widths[i]) } else { format!("{v:<w$}", w = widths[i]) }
                    },
                )
                .collect();
            line(cells, &mut out);
        }
        out
    }

    /// CSV with a header line (RFC 4180 quoting).
    pub fn to_csv(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.columns).chain(&self.rows) {
            out.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_migrates_and_refuses_newer_schemas() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        Store::open(&path).unwrap();
        let table = query(&path, "PRAGMA user_version").unwrap();
        assert_eq!(table.rows, vec![vec![SCHEMA_VERSION.to_string()]]);
        // Re-opening is a no-op.
        Store::open(&path).unwrap();
        // A newer schema is refused and left untouched.
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        drop(conn);
        let before = std::fs::read(&path).unwrap();
        let err = Store::open(&path).err().unwrap();
        assert!(matches!(err, StoreError::NewerSchema { .. }), "{err}");
        assert!(err.to_string().contains("newer than this slasim"));
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn query_refuses_writes_and_reports_sql_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        Store::open(&path).unwrap();
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
