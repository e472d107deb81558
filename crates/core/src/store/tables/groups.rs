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
//! - [`groups`] lists the registered groups in their order, each once;
//!   merge copies them in that order, every table in its listed order.

use std::sync::RwLock;

use crate::store::columns::Described;
use crate::store::schema::{Step, View};

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

/// A table merge copies whole.
pub const fn all(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::All }
}

pub const fn new(name: &'static str) -> StoredTable {
    StoredTable { name, copy: CopyRows::New }
}

static ADDED: RwLock<Vec<&'static PointTables>> = RwLock::new(Vec::new());

/// Adds a group (a no-op for one already there: kinds may share theirs).
pub fn register(tables: &'static PointTables) {
    let mut added = ADDED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let known = |t: &PointTables| t.key_table == tables.key_table;
    if !added.iter().any(|t| known(t)) {
        added.push(tables);
    }
}

/// Every group, in the order they were registered (the order merge copies them).
pub fn groups() -> Vec<&'static PointTables> {
    ADDED.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
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
                assert!(t.columns().iter().any(|c| c.name == group.key), "{} has no {}", table.name, group.key);
            }
        }
    }
}
