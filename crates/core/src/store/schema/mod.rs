//! The store's schema: generated from the descriptors, and the history that
//! brings an older store up to it.
//!
//! Contract:
//! - `PRAGMA user_version` is the schema version ([`SCHEMA_VERSION`]). A
//!   store from a newer slasim is refused before anything is written.
//! - A new store is made from the descriptors alone
//!   ([`crate::store::tables::described_tables`], [`create_table`]), then the
//!   views (a group's [`crate::store::tables::groups::View`]s, then `all_jobs`).
//! - A store from an older schema is brought up by every step with a later
//!   version, in version order: the engine's own ([`ENGINE_STEPS`], the
//!   experiments' tables), then each registered group's
//!   ([`crate::store::tables::groups::PointTables::steps`]), each step the
//!   verbatim script of the schema version it made; then it is reconciled
//!   with the descriptors like any store opened for writing
//!   ([`reconciliation`]: missing tables and indexes created, columns added
//!   since appended with their default, views that differ made again). All
//!   of it is one transaction.
//! - A store older than a group's
//!   [`crate::store::tables::groups::PointTables::ids_since`] that holds
//!   points of that group is refused for writing: those points' ids were
//!   derived differently then, so resuming it would run them again under new
//!   ids ([`older_ids`]).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::store::columns::{ColumnDef, Described};
use crate::store::tables::described_tables;
use crate::store::tables::groups::{PointTables, Step};
use crate::store::{StoreError, sqlite};

pub mod facts;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 16;

/// The engine's own steps: the experiments' tables (schema 1) and a point
/// belonging to every sweep that names it (schema 9).
pub const ENGINE_STEPS: [Step; 2] = [
    Step {
        version: 1,
        sql: r#"
CREATE TABLE experiments (
    hash          TEXT PRIMARY KEY,       -- sha256 of the config text
    name          TEXT NOT NULL,
    file          TEXT NOT NULL,
    config        TEXT NOT NULL,
    code_version  TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE TABLE experiment_points (
    experiment  TEXT    NOT NULL REFERENCES experiments(hash),
    run_id      INTEGER NOT NULL,
    sweep       TEXT    NOT NULL,
    PRIMARY KEY (experiment, run_id)
) WITHOUT ROWID;
"#,
    },
    // v9: one pipeline for every point kind. Grid, provisioning and pricing
    // point ids are derived from their canonical TOML settings (like
    // single-cluster ids, which do not change); a point belongs to every
    // sweep of an experiment that names it.
    Step {
        version: 9,
        sql: r#"
CREATE TABLE experiment_points_v9 (
    experiment  TEXT    NOT NULL REFERENCES experiments(hash),
    run_id      INTEGER NOT NULL,          -- a run_id or a provisioning/pricing point_id
    sweep       TEXT    NOT NULL,
    PRIMARY KEY (experiment, run_id, sweep)
) WITHOUT ROWID;
INSERT INTO experiment_points_v9 SELECT experiment, run_id, sweep FROM experiment_points;
DROP TABLE experiment_points;
ALTER TABLE experiment_points_v9 RENAME TO experiment_points;
"#,
    },
];

/// Every step, the engine's and the `groups`', in version order (the
/// engine's first within a version, then the groups' in their order).
pub fn steps(groups: &[&'static PointTables]) -> Vec<Step> {
    let mut all: Vec<Step> = ENGINE_STEPS.to_vec();
    all.extend(groups.iter().flat_map(|g| g.steps.iter().copied()));
    // Stable: within a version, the order above.
    all.sort_by_key(|s| s.version);
    all
}

/// Reads `PRAGMA user_version`.
pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

fn has_table(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", [name], |r| {
        r.get(0)
    })
}

/// In a store of schema `found`: the points of every group whose ids this
/// build derives differently from that schema's, as (name, count).
pub(crate) fn older_ids(
    conn: &Connection,
    groups: &[&'static PointTables],
    found: i64,
) -> rusqlite::Result<Vec<(&'static str, i64)>> {
    let mut kinds = Vec::new();
    for group in groups {
        let Some((since, name)) = group.ids_since else { continue };
        if found == 0 || found >= since || !has_table(conn, group.key_table)? {
            continue;
        }
        let count: i64 = conn.query_row(&format!("SELECT count(*) FROM {}", group.key_table), [], |r| r.get(0))?;
        if count > 0 {
            kinds.push((name, count));
        }
    }
    Ok(kinds)
}

/// A column's definition in `CREATE TABLE` or `ADD COLUMN`. A one-column key
/// is declared `PRIMARY KEY` alone, as the historical scripts declared it
/// (an INTEGER one is the rowid, which is never NULL).
pub fn column_definition(c: &ColumnDef, key: &[&str]) -> String {
    let mut sql = format!("{} {}", c.name, c.sql_type.sql());
    if key == [c.name] {
        sql.push_str(" PRIMARY KEY");
    } else if !c.null {
        sql.push_str(" NOT NULL");
    }
    if let Some(default) = c.default {
        sql.push_str(&format!(" DEFAULT {default}"));
    }
    if let Some(target) = c.references {
        sql.push_str(&format!(" REFERENCES {target}"));
    }
    if let Some(check) = c.check {
        sql.push_str(&format!(" CHECK ({check})"));
    }
    sql
}

/// `CREATE TABLE …;` and its indexes' `CREATE INDEX …;`, from its descriptors.
pub fn create_table(t: &dyn Described) -> String {
    let mut sql = create_table_named(t, t.name());
    for index in t.indexes() {
        sql.push_str(&format!("CREATE INDEX {} ON {}({});\n", index.name, t.name(), index.columns.join(", ")));
    }
    sql
}

/// `CREATE TABLE name (…);` of `t`'s descriptors, under `name`.
fn create_table_named(t: &dyn Described, name: &str) -> String {
    let mut lines: Vec<String> = t.columns().iter().map(|c| format!("    {}", column_definition(c, t.key()))).collect();
    if t.key().len() > 1 {
        lines.push(format!("    PRIMARY KEY ({})", t.key().join(", ")));
    }
    let rowid = if t.without_rowid() { " WITHOUT ROWID" } else { "" };
    format!("CREATE TABLE {name} (\n{}\n){rowid};\n", lines.join(",\n"))
}

/// A stored table some of whose `NOT NULL` columns the descriptors allow to
/// be NULL, made again from the descriptors (SQLite cannot drop a `NOT
/// NULL`): its rows copied, a column's [`ColumnDef::null_was`] value read as
/// NULL, a column it lacks given its default, its indexes made again.
fn relaxed_table(t: &dyn Described, stored: &[String]) -> String {
    let relaxed = format!("{}_relaxed", t.name());
    let mut sql = create_table_named(t, &relaxed);
    let common: Vec<&ColumnDef> = t.columns().into_iter().filter(|c| stored.iter().any(|s| s == c.name)).collect();
    let names: Vec<String> = common.iter().map(|c| format!("\"{}\"", c.name)).collect();
    let values: Vec<String> = common
        .iter()
        .map(|c| match c.null_was {
            Some(was) => format!("NULLIF(\"{}\", {was})", c.name),
            None => format!("\"{}\"", c.name),
        })
        .collect();
    sql.push_str(&format!(
        "INSERT INTO {relaxed} ({}) SELECT {} FROM {};\nDROP TABLE {};\nALTER TABLE {relaxed} RENAME TO {};\n",
        names.join(", "),
        values.join(", "),
        t.name(),
        t.name(),
        t.name()
    ));
    for index in t.indexes() {
        sql.push_str(&format!("CREATE INDEX {} ON {}({});\n", index.name, t.name(), index.columns.join(", ")));
    }
    sql
}

/// Every view of a store of the `groups`: each group's, then `all_jobs`.
pub fn views(groups: &[&'static PointTables]) -> Vec<(&'static str, String)> {
    let mut all: Vec<(&str, String)> =
        groups.iter().flat_map(|g| g.views.iter().map(|v| (v.name, v.sql.to_string()))).collect();
    all.push(("all_jobs", crate::store::jobs_view(groups)));
    all
}

/// What makes the store on `conn` agree with the descriptors and views: a
/// missing table or index created, a column a table lacks appended (with
/// its default standing for the rows there), a table whose `NOT NULL`
/// column the descriptors let be NULL made again ([`relaxed_table`]; the
/// views are then made again too), a view whose SQL differs made again.
/// Empty when it agrees.
pub fn reconciliation(conn: &Connection, groups: &[&'static PointTables]) -> rusqlite::Result<Vec<String>> {
    let mut statements = Vec::new();
    let mut relaxed = false;
    for t in described_tables(groups) {
        let mut info = conn.prepare(&format!("SELECT name, \"notnull\" FROM pragma_table_info('{}')", t.name()))?;
        let stored: Vec<(String, bool)> =
            info.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        if stored.is_empty() {
            statements.push(create_table(t));
            continue;
        }
        let relax = t.columns().into_iter().any(|c| {
            c.null && !t.key().contains(&c.name) && stored.iter().any(|(s, not_null)| s == c.name && *not_null)
        });
        if relax {
            let names: Vec<String> = stored.into_iter().map(|(s, _)| s).collect();
            statements.push(relaxed_table(t, &names));
            relaxed = true;
            continue;
        }
        let stored: Vec<String> = stored.into_iter().map(|(s, _)| s).collect();
        for c in t.columns().into_iter().filter(|c| !stored.iter().any(|s| s == c.name)) {
            statements.push(format!("ALTER TABLE {} ADD COLUMN {};", t.name(), column_definition(c, t.key())));
        }
        for index in t.indexes() {
            let found: Option<String> = conn
                .query_row("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?", [index.name], |r| {
                    r.get(0)
                })
                .optional()?;
            if found.is_none() {
                statements.push(format!("CREATE INDEX {} ON {}({});", index.name, t.name(), index.columns.join(", ")));
            }
        }
    }
    let (mut drops, mut creates) = (Vec::new(), Vec::new());
    for (name, sql) in views(groups) {
        let stored: Option<String> = conn
            .query_row("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", [name], |r| r.get(0))
            .optional()?;
        if relaxed || stored.as_deref() != Some(sql.as_str()) {
            drops.push(format!("DROP VIEW IF EXISTS {name};"));
            creates.push(format!("{sql};"));
        }
    }
    if relaxed {
        // Views go before a table is made again (one naming it would follow
        // its rename), and come back after.
        statements.splice(0..0, drops);
        statements.extend(creates);
    } else {
        statements.extend(drops.into_iter().zip(creates).map(|(drop, create)| format!("{drop}\n{create}")));
    }
    Ok(statements)
}

/// A store made from the descriptors of the `groups` alone, in memory.
pub fn described_store(groups: &[&'static PointTables]) -> rusqlite::Result<Connection> {
    let conn = Connection::open_in_memory()?;
    for statement in reconciliation(&conn, groups)? {
        conn.execute_batch(&statement)?;
    }
    Ok(conn)
}

/// Brings the store on `conn` at `path`, of schema `found`, to
/// [`SCHEMA_VERSION`] and to the descriptors, in one transaction (nothing to
/// do: no transaction). A failing statement is named in the error.
///
/// Foreign keys are off while it runs and checked before it commits (SQLite's
/// procedure for "other kinds of table schema changes"): a table made again
/// ([`relaxed_table`]) is dropped first, and with them on, dropping a table
/// that another's rows reference fails.
pub(crate) fn upgrade(
    conn: &mut Connection,
    groups: &[&'static PointTables],
    found: i64,
    path: &Path,
) -> Result<(), StoreError> {
    let err = sqlite(path);
    if found == SCHEMA_VERSION && reconciliation(conn, groups).map_err(&err)?.is_empty() {
        return Ok(());
    }
    let enforced: bool = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0)).map_err(&err)?;
    conn.pragma_update(None, "foreign_keys", false).map_err(&err)?;
    let upgraded = upgrade_in_one_transaction(conn, groups, path);
    conn.pragma_update(None, "foreign_keys", enforced).map_err(&err)?;
    upgraded
}

/// [`upgrade`]'s transaction.
fn upgrade_in_one_transaction(
    conn: &mut Connection,
    groups: &[&'static PointTables],
    path: &Path,
) -> Result<(), StoreError> {
    let err = sqlite(path);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&err)?;
    let run = |sql: &str| {
        tx.execute_batch(sql).map_err(|e| StoreError::Sql {
            path: path.to_path_buf(),
            message: format!("{e}, bringing it to schema {SCHEMA_VERSION} with: {}", sql.trim()),
        })
    };
    // Another writer may have upgraded it since `found` was read.
    let found = user_version(&tx).map_err(&err)?;
    if found > 0 {
        for step in steps(groups).into_iter().filter(|s| s.version > found) {
            run(step.sql)?;
        }
    }
    for statement in reconciliation(&tx, groups).map_err(&err)? {
        run(&statement)?;
    }
    let broken: Option<String> = tx
        .query_row(
            "SELECT \"table\" || ' row ' || rowid || ' references ' || parent FROM pragma_foreign_key_check",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(&err)?;
    if let Some(row) = broken {
        return Err(StoreError::Sql {
            path: path.to_path_buf(),
            message: format!("bringing it to schema {SCHEMA_VERSION} left {row} missing"),
        });
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&err)?;
    tx.commit().map_err(&err)
}
