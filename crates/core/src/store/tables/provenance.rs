//! The table of where each point came from: `provenance`.
//!
//! Contract: a point's row is written in the transaction that stores the
//! point (so a stored point written by this schema has one, and nothing is
//! half-stored), from its group's
//! [`crate::store::tables::groups::PointTables::provenance`] select and the
//! files as read then; merging shards copies the rows. Points stored before
//! schema 13 have none (`slasim export` computes theirs).

use crate::store::columns::{Conflict, Described, Rows, Table, column};

/// A point's provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvenanceRow {
    /// The point's id (the key of its group's tables).
    pub point: i64,
    /// Its group's key table.
    pub points_table: &'static str,
    /// The slasim build that ran it.
    pub code_version: Option<String>,
    /// sha256 of its resolved settings (the `config` of its key table).
    pub config_sha256: Option<String>,
    /// Its trace, or traces comma-separated, as given.
    pub trace: Option<String>,
    /// sha256 of each trace file as read, comma-separated.
    pub trace_sha256: Option<String>,
    /// Its seed.
    pub seed: Option<i64>,
}

/// The row type of `provenance`.
pub enum Provenance {}

impl Rows for Provenance {
    type Row<'a> = ProvenanceRow;
    type Summary = ();
}

/// One row per stored point: how it was made.
pub static PROVENANCE: Table<Provenance> = Table::new(
    "provenance",
    13,
    "One row per point stored since schema 13: the build that ran it, the sha256 of its settings, its trace and the sha256 of the trace file as read, and its seed.",
)
.key(&["point"])
.conflict(Conflict::Ignore)
.columns(&[
    column!("point", Int, "the point's id (`run_id` or `point_id` of its key table)", |r| r.point),
    column!("points_table", Text, "its key table (`runs`, `slurm_points`, `provision_points`, …)", |r| r.points_table),
    column!("code_version", Text null, "the slasim version and commit that ran it", |r| r.code_version.as_deref()),
    column!("config_sha256", Text null, "sha256 of its resolved settings (the key table's `config`)", |r| {
        r.config_sha256.as_deref()
    }),
    column!("trace", Text null, "its trace as given (the key table's), comma-separated when several", |r| {
        r.trace.as_deref()
    }),
    column!("trace_sha256", Text null, "sha256 of each trace file as read, comma-separated (NULL: not a file, as a generated workload)", |r| {
        r.trace_sha256.as_deref()
    }),
    column!("seed", Int null, "its seed", |r| r.seed),
]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 1] {
    [&PROVENANCE]
}
