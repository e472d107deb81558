//! Every table the writers fill, by descriptors ([`crate::store::columns`]):
//! one module per kind of point (and one for experiments), each exposing a
//! [`crate::store::columns::Table`] per table and its `tables()`.
//!
//! Contract: [`described_tables`] lists every table of the schema, a
//! registered group's too (the test below, and each kind crate's, checks
//! each against the schema the migrations and the groups' scripts build:
//! names, order, types); columns added after
//! [`DESCRIBED_SINCE`] come to older stores from their descriptors
//! ([`migrations_after`]).

use crate::store::columns::Described;
use crate::store::tables::groups::PointTables;

pub mod experiment;
pub mod groups;

/// Every table the writers fill: the experiments', then the `groups`'.
pub fn described_tables(groups: &[&'static PointTables]) -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = Vec::new();
    all.extend(experiment::tables());
    for group in groups {
        all.extend((group.described)());
    }
    all
}

/// The last schema version whose columns the migration scripts create;
/// later columns come from their descriptors.
pub const DESCRIBED_SINCE: i64 = 10;

/// The columns the descriptors add after [`DESCRIBED_SINCE`] (none of
/// today's), as `ALTER TABLE` statements for the step to `version`.
pub fn migrations_after(groups: &[&'static PointTables], version: i64) -> String {
    described_tables(groups)
        .iter()
        .flat_map(|t| t.columns().into_iter().map(move |c| (t.name(), c)))
        .filter(|(_, (_, _, since, _))| *since == version && version > DESCRIBED_SINCE)
        .map(|(table, (name, ty, _, default))| {
            format!("ALTER TABLE {table} ADD COLUMN {name} {} DEFAULT {default};\n", ty.sql())
        })
        .collect()
}

/// How the store at `path` (opened for writing once, so every registered
/// group's script has run) differs from [`described_tables`]: a table whose
/// columns (names, order, types) are not its descriptors', a column added at
/// a schema version it could not be, a table of the store with no
/// descriptors (but for [`crate::store::schema::MADE_FOR_OTHER_CRATES`],
/// described only once their crate is registered). Empty when they agree.
pub fn schema_mismatches(
    path: &std::path::Path,
    groups: &[&'static PointTables],
) -> Result<Vec<String>, crate::store::StoreError> {
    let tables = described_tables(groups);
    let mut found = Vec::new();
    for t in &tables {
        let sql = format!("SELECT name, type FROM pragma_table_info('{}') ORDER BY cid", t.name());
        let stored: Vec<(String, String)> =
            crate::store::query(path, &sql)?.rows.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
        let declared: Vec<(String, String)> =
            t.columns().iter().map(|c| (c.0.to_string(), c.1.sql().to_string())).collect();
        if stored != declared {
            found.push(format!("table {}: stored {stored:?}, described {declared:?}", t.name()));
        }
        for (name, _, since, _) in t.columns() {
            if !(since == 0 || (t.since() < since && since <= crate::store::SCHEMA_VERSION)) {
                found.push(format!("{}.{name}: since {since}", t.name()));
            }
        }
    }
    // Every table of the schema is described (views are derived), but for
    // those the migrations made for a kind now in a crate of its own, which
    // that crate describes when it is registered.
    let all = crate::store::query(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?;
    for row in all.rows {
        let of_another_crate = crate::store::schema::MADE_FOR_OTHER_CRATES.contains(&row[0].as_str());
        if !of_another_crate && !tables.iter().any(|t| t.name() == row[0]) {
            found.push(format!("table {} has no descriptors", row[0]));
        }
    }
    Ok(found)
}

/// For a kind crate whose tables the migrations made: a new store at `path`
/// (opened for writing, so every registered group's script has run) against
/// every descriptor ([`schema_mismatches`]), and each of the crate's `tables`
/// not among [`crate::store::schema::MADE_FOR_OTHER_CRATES`] or whose
/// descriptors are not registered. Empty when the crate, registered,
/// describes exactly its tables.
pub fn registered_mismatches(
    path: &std::path::Path,
    groups: &[&'static PointTables],
    tables: &[&str],
) -> Result<Vec<String>, crate::store::StoreError> {
    crate::store::Store::open(path, groups)?;
    let mut found = schema_mismatches(path, groups)?;
    let left = crate::store::schema::MADE_FOR_OTHER_CRATES;
    found.extend(tables.iter().filter(|t| !left.contains(t)).map(|t| format!("table {t} is not left to a crate")));
    let registered = described_tables(groups);
    let unregistered = tables.iter().filter(|t| !registered.iter().any(|d| d.name() == **t));
    found.extend(unregistered.map(|t| format!("table {t}: its descriptors are not registered")));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table's descriptors describe exactly the table the migrations
    /// build (the provisioning and pricing kinds' crate checks theirs).
    #[test]
    fn descriptors_match_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        crate::store::Store::open(&path, &[]).unwrap();
        assert_eq!(schema_mismatches(&path, &[]).unwrap(), Vec::<String>::new());
        // Those are the only tables it leaves to another crate.
        let stored = crate::store::query(&path, "SELECT name FROM sqlite_master WHERE type = 'table'").unwrap();
        let mut undescribed: Vec<&str> = stored
            .rows
            .iter()
            .map(|r| r[0].as_str())
            .filter(|n| !described_tables(&[]).iter().any(|t| t.name() == *n))
            .collect();
        let mut expected = crate::store::schema::MADE_FOR_OTHER_CRATES.to_vec();
        undescribed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(undescribed, expected);
    }
}
