//! The tables points are stored in, by point kind: what the store lists as
//! stored and what merge copies.
//!
//! Contract:
//! - A [`PointTables`] is a key table (one row per stored point, keyed by
//!   the point's id) and every table holding rows of those points, keyed by
//!   the same column. Kinds may share one (single-cluster and Grid runs are
//!   both runs; provisioning and pricing points share one key table).
//! - Every group gives its tables' descriptors ([`PointTables::described`]),
//!   the one definition of its tables: a new store's tables are made from
//!   them, and an older store gets from them the tables and columns it
//!   lacks. A group whose tables changed with the schema version gives the
//!   steps that changed them ([`PointTables::steps`], each the verbatim
//!   script of its version), so older stores upgrade as they always did,
//!   and its views as SQL ([`PointTables::views`]).
//! - A group whose point ids were derived differently before a schema
//!   version says so ([`PointTables::ids_since`]): an older store holding
//!   such points is refused for writing ([`crate::store::schema`]).
//! - A group whose points have jobs gives a `SELECT` of them in the
//!   vocabulary of the `all_jobs` view ([`PointTables::jobs`]); the view is
//!   every registered group's select, in group order
//!   ([`crate::store::jobs_view`]).
//! - A group whose key table holds its points' trace, seed and settings
//!   gives a `SELECT` of them ([`PointTables::provenance`]) for the
//!   export's provenance table.
//! - A program's registry lists its groups in their kinds' order, each once
//!   ([`crate::experiment::registry::Registry::tables`]); merge copies them in that
//!   order, every table in its listed order.

use crate::names::Named;
use crate::store::columns::Described;

/// A schema step: the script that took stores to `version`, as it ran then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The schema version it made.
    pub version: i64,
    /// Its SQL, verbatim.
    pub sql: &'static str,
}

/// A view a group declares (views are queries, not tables: their SQL is
/// their definition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// Its name.
    pub name: &'static str,
    /// What one row is (the schema page).
    pub doc: &'static str,
    /// `CREATE VIEW name AS …`, without the final semicolon (as SQLite keeps it).
    pub sql: &'static str,
}

/// How merge copies a table's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyRows {
    /// Every row of a new point (`INSERT`).
    All,
    /// Rows of a new point whose key is not there yet (`INSERT OR IGNORE`).
    New,
    /// Every row not there yet, of whichever point: rows points share (their
    /// inputs), not keyed by a point (`INSERT OR IGNORE`).
    Shared,
}

/// One table of a group, and how merge copies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredTable {
    /// Its name.
    pub name: &'static str,
    /// How merge copies it.
    pub copy: CopyRows,
}

/// The tables of a kind's points.
#[derive(Debug)]
pub struct PointTables {
    /// The table with one row per point.
    pub key_table: &'static str,
    /// The id column, in every table of the group.
    pub key: &'static str,
    /// The table with each point's metrics, one row per point under `key`
    /// (the key table itself, but for the single cluster's `points` beside
    /// its `runs`): what a program embedding a sweep reads back.
    pub metrics: &'static str,
    /// Every table, the key table first, in merge order (rows its points
    /// share too, [`CopyRows::Shared`]).
    pub tables: &'static [StoredTable],
    /// Its descriptors, in creation order (gathered by
    /// [`crate::store::tables::described_tables`]).
    pub described: fn() -> Vec<&'static dyn Described>,
    /// The schema steps that made and changed its tables, by version
    /// (none for a group whose tables came after schema 11).
    pub steps: &'static [Step],
    /// Its views.
    pub views: &'static [View],
    /// The first schema version whose ids of its points this build derives,
    /// and the points' name in the refusal of an older store holding some.
    pub ids_since: Option<(i64, &'static str)>,
    /// Its points' jobs as `SELECT point, kind, job, submit, start, "end",
    /// wait, processors` (see [`crate::store::jobs_view`]), if they have jobs.
    pub jobs: Option<&'static str>,
    /// Where its points came from, as `SELECT point, trace, seed, config,
    /// code_version` (one row per point; `trace` names every trace,
    /// comma-separated), for the export's provenance table
    /// ([`crate::store::export`]); `None` for a group whose points have
    /// their row in another group's key table (the Grid's runs are `runs`).
    pub provenance: Option<&'static str>,
}

impl Named for PointTables {
    fn name(&self) -> &'static str {
        self.key_table
    }
}

/// A table merge copies whole.
pub const fn all(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::All }
}

/// A table merge copies the rows of whose key are not there yet.
pub const fn new(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::New }
}

/// A table of rows points share, which merge copies whole, keeping a row
/// already there.
pub const fn shared(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::Shared }
}
