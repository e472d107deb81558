//! The tables points are stored in, by point kind: what the store lists as
//! stored and what merge copies.
//!
//! Contract:
//! - A [`PointTables`] is a key table (one row per stored point, keyed by
//!   the point's id) and every table holding rows of those points, keyed by
//!   the same column. Kinds may share one (single-cluster and Grid runs are
//!   both `runs`; provisioning and pricing points both `provision_points`).
//! - The schema's migrations (the store's history up to schema 11) create
//!   the tables of the groups that existed then, the provisioning and
//!   pricing group's too, which its kind's crate registers with an empty
//!   script; a group added since (Slurm's) brings its own
//!   `CREATE TABLE IF NOT EXISTS` script, run whenever a store is opened for
//!   writing (new tables, no migration of older stores needed), its
//!   descriptors ([`PointTables::described`], checked against that script
//!   like the built-in ones) and a sentence per table for the schema page.
//! - A group whose points have jobs gives a `SELECT` of them in the
//!   vocabulary of the `all_jobs` view ([`PointTables::jobs`]); the view is
//!   every registered group's select, in group order
//!   ([`crate::store::jobs_view`]).
//! - [`groups`] lists the built-in groups, then the registered ones, each once;
//!   merge copies them in that order, every table in its listed order.

use std::sync::RwLock;

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
    /// A registered group's descriptors (the built-in groups' are listed in
    /// [`crate::store::tables::described_tables`]).
    pub described: fn() -> Vec<&'static dyn Described>,
    /// A registered group's tables, one sentence each (the schema page).
    pub docs: &'static [(&'static str, &'static str)],
    /// Its points' jobs as `SELECT point, kind, job, submit, start, "end",
    /// wait, processors` (see [`crate::store::jobs_view`]), if they have jobs.
    pub jobs: Option<&'static str>,
}

/// No descriptors of its own (a built-in group).
fn described_elsewhere() -> Vec<&'static dyn Described> {
    Vec::new()
}

/// A table merge copies whole.
pub const fn all(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::All }
}

pub const fn new(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::New }
}

/// Single-cluster runs, and the runs of the Grid's points (whose own
/// tables are the Grid's group).
pub static RUNS: PointTables = PointTables {
    key_table: "runs",
    key: "run_id",
    tables: &[
        all("runs"),
        all("job_outcomes"),
        all("node_events"),
        all("energy"),
        all("energy_states"),
        all("reservations"),
        new("points"),
    ],
    schema: "",
    described: described_elsewhere,
    docs: &[],
    jobs: Some(
        "SELECT o.run_id AS point, CASE WHEN g.run_id IS NULL THEN 'single' ELSE 'grid' END AS kind, o.job AS job,
       b.occurrence AS submit, o.actual_start AS start, o.actual_end AS \"end\",
       o.actual_start - b.occurrence AS wait, b.nodes AS processors
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job
LEFT JOIN grid_points g ON g.run_id = o.run_id",
    ),
};

static ADDED: RwLock<Vec<&'static PointTables>> = RwLock::new(Vec::new());

/// Adds a group (a no-op for one already there: kinds may share theirs).
pub fn register(tables: &'static PointTables) {
    let mut added = ADDED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let known = |t: &PointTables| t.key_table == tables.key_table;
    if !BUILT_IN.iter().any(|t| known(t)) && !added.iter().any(|t| known(t)) {
        added.push(tables);
    }
}

/// The built-in groups, in merge order.
static BUILT_IN: [&PointTables; 1] = [&RUNS];

/// Every group: the built-in ones, then the registered ones.
pub fn groups() -> Vec<&'static PointTables> {
    let added = ADDED.read().unwrap_or_else(|poisoned| poisoned.into_inner());
    BUILT_IN.into_iter().chain(added.iter().copied()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The groups name exactly the tables described column by column
    /// (aside from the experiments' two and the batteries' jobs, which merge
    /// copies for every kind), and each holds its group's key column.
    #[test]
    fn groups_are_the_described_tables() {
        let described = crate::store::tables::described_tables();
        let mut grouped: Vec<&str> = groups().iter().flat_map(|g| g.tables.iter().map(|t| t.name)).collect();
        let mut expected: Vec<&str> = described
            .iter()
            .map(|t| t.name())
            .filter(|n| !["experiments", "experiment_points", "battery_jobs"].contains(n))
            .collect();
        grouped.sort_unstable();
        expected.sort_unstable();
        assert_eq!(grouped, expected);
        for group in groups() {
            for table in group.tables {
                let t = described.iter().find(|t| t.name() == table.name).expect("described above");
                assert!(t.columns().iter().any(|c| c.0 == group.key), "{} has no {}", table.name, group.key);
            }
        }
    }
}
