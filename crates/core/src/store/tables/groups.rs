//! The tables points are stored in, by point kind: what the store lists as
//! stored and what merge copies.
//!
//! Contract:
//! - A [`PointTables`] is a key table (one row per stored point, keyed by
//!   the point's id) and every table holding rows of those points, keyed by
//!   the same column. Kinds may share one (single-cluster and Grid runs are
//!   both `runs`; provisioning and pricing points both `provision_points`).
//! - The schema's migrations (the store's history up to schema 11) create
//!   the tables of the groups that existed then (the single cluster's, the
//!   Grid's, provisioning and pricing's), which their kinds' crates register
//!   with an empty script; a group added since (Slurm's) brings its own
//!   `CREATE TABLE IF NOT EXISTS` script, run whenever a store is opened for
//!   writing (new tables, no migration of older stores needed). Every group
//!   gives its descriptors ([`PointTables::described`], checked against the
//!   schema) and a registered group a sentence per table for the schema page.
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

/// How merge copies a table's rows of new points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyRows {
    /// Every row (`INSERT`).
    All,
    /// Rows whose key is not there yet (`INSERT OR IGNORE`).
    New,
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
    /// Every table, the key table first, in merge order.
    pub tables: &'static [StoredTable],
    /// `CREATE TABLE IF NOT EXISTS …` for a registered group; empty for the
    /// groups the migrations create (see [`crate::store::schema`]).
    pub schema: &'static str,
    /// Its descriptors (gathered by [`crate::store::tables::described_tables`]).
    pub described: fn() -> Vec<&'static dyn Described>,
    /// Its tables, one sentence each (the schema page), for a group the
    /// migrations did not make (theirs are in [`crate::store::schema::TABLES`]).
    pub docs: &'static [(&'static str, &'static str)],
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

pub const fn new(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::New }
}
