//! Every table the writers fill, by descriptors ([`crate::store::columns`]):
//! one module per kind of point (and one for experiments), each exposing a
//! [`crate::store::columns::Table`] per table and its `tables()` (the Slurm
//! tables too, though their group's own script creates them).
//!
//! Contract: [`described_tables`] lists every table of the schema (the test
//! below checks each against the schema the migrations and the Slurm
//! group's script build: names, order, types); columns added after
//! [`DESCRIBED_SINCE`] come to older stores from their descriptors
//! ([`migrations_after`]).

use crate::store::columns::Described;

pub mod experiment;
pub mod grid;
pub mod groups;
pub mod points;
pub mod pricing;
pub mod provision;
pub mod run;
pub mod slurm;

/// Every table the writers fill, by kind of point.
pub fn described_tables() -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = Vec::new();
    all.extend(run::tables());
    all.extend(points::tables());
    all.extend(experiment::tables());
    all.extend(grid::tables());
    all.extend(provision::tables());
    all.extend(pricing::tables());
    all.extend(slurm::tables());
    all
}

/// The last schema version whose columns the migration scripts create;
/// later columns come from their descriptors.
pub const DESCRIBED_SINCE: i64 = 10;

/// The columns the descriptors add after [`DESCRIBED_SINCE`] (none of
/// today's), as `ALTER TABLE` statements for the step to `version`.
pub fn migrations_after(version: i64) -> String {
    described_tables()
        .iter()
        .flat_map(|t| t.columns().into_iter().map(move |c| (t.name(), c)))
        .filter(|(_, (_, _, since, _))| *since == version && version > DESCRIBED_SINCE)
        .map(|(table, (name, ty, _, default))| {
            format!("ALTER TABLE {table} ADD COLUMN {name} {} DEFAULT {default};\n", ty.sql())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::columns::{Rows, Table};

    /// Every table's descriptors describe exactly the table the migrations build.
    #[test]
    fn descriptors_match_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        crate::store::Store::open(&path).unwrap();
        let tables = described_tables();
        for t in &tables {
            let sql = format!("SELECT name, type FROM pragma_table_info('{}') ORDER BY cid", t.name());
            let stored: Vec<(String, String)> =
                crate::store::query(&path, &sql).unwrap().rows.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
            let declared: Vec<(String, String)> =
                t.columns().iter().map(|c| (c.0.to_string(), c.1.sql().to_string())).collect();
            assert_eq!(stored, declared, "table {}", t.name());
            for (name, _, since, _) in t.columns() {
                let ok = since == 0 || (t.since() < since && since <= crate::store::SCHEMA_VERSION);
                assert!(ok, "{}.{name}: since {since}", t.name());
            }
        }
        // Every table of the schema is described (the `jobs` view is derived).
        let all = crate::store::query(&path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r[0].clone())
            .collect::<Vec<_>>();
        // Only a registered kind's tables (another test may register one)
        // are described by their group's script alone.
        let scripted: Vec<&str> = super::groups::groups()
            .iter()
            .filter(|g| !g.schema.is_empty() && !std::ptr::eq(**g, &super::groups::SLURM_POINTS))
            .flat_map(|g| g.tables.iter().map(|t| t.name))
            .collect();
        for name in all {
            assert!(
                tables.iter().any(|t| t.name() == name) || scripted.contains(&name.as_str()),
                "table {name} has no descriptors"
            );
        }
    }

    /// The Slurm group's tables are checked like the others: described,
    /// and written through their descriptors' INSERTs.
    #[test]
    fn the_slurm_tables_are_described() {
        let names: Vec<&str> = described_tables().iter().map(|t| t.name()).collect();
        for table in ["slurm_points", "slurm_groups", "slurm_jobs"] {
            assert!(names.contains(&table), "{table} has no descriptors");
        }
        let sql = slurm::SLURM_GROUPS.insert_sql(1);
        assert_eq!(
            sql,
            "INSERT INTO slurm_groups (point_id, grouping, name, jobs, mean_wait, max_wait, cpu_seconds, \
             gpu_seconds) VALUES (?,?,?,?,?,?,?,?)"
        );
    }

    #[test]
    fn inserts_name_their_columns_and_number_no_parameter() {
        let sql = run::NODE_EVENTS.insert_sql(2);
        assert_eq!(
            sql,
            "INSERT INTO node_events (run_id, seq, time, node, kind, job) VALUES (?,?,?,?,?,?),(?,?,?,?,?,?)"
        );
        let replace = provision::PROVISION_POINTS.insert_sql(1);
        assert!(replace.starts_with("INSERT OR REPLACE INTO provision_points (point_id, kind,"), "{replace}");
    }

    /// A sorted rank per section and part: no two columns of a table share one.
    #[test]
    fn report_ranks_are_unique() {
        fn check<R: Rows + 'static>(t: &'static Table<R>) {
            for c in t.columns {
                for u in c.uses {
                    let same = t
                        .columns
                        .iter()
                        .flat_map(|d| d.uses.iter())
                        .filter(|v| v.section == u.section && v.part == u.part && v.rank == u.rank)
                        .count();
                    assert_eq!(
                        same, 1,
                        "{}.{}: rank {} of {:?} {:?} taken twice",
                        t.name, c.name, u.rank, u.section, u.part
                    );
                }
            }
        }
        check(&points::POINTS);
        check(&grid::GRID_POINTS);
        check(&grid::CLUSTER_RUNS);
    }
}
