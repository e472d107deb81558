//! A store's schema as facts two stores can be compared by, and what the
//! descriptors say of a store.
//!
//! Contract: [`schema_facts`] reads a store's schema as comparable facts
//! (columns with type, NOT NULL, default and key; indexes; foreign keys;
//! `WITHOUT ROWID`; `CHECK`s; views' columns), and [`schema_mismatches`]
//! holds a store to the descriptors with them, so tests can check that a
//! store brought up through the historical steps is the store the
//! descriptors make ([`history_mismatches`]).

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::Connection;
use rusqlite::types::Value;

use crate::store::schema::{SCHEMA_VERSION, described_store, steps};
use crate::store::tables::described_tables;
use crate::store::tables::groups::PointTables;
use crate::store::{Store, StoreError, sqlite};

/// Each row of `sql` as one line of its values.
fn lines(conn: &Connection, sql: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare(sql)?;
    let n = statement.column_count();
    let rows = statement.query_map([], |r| (0..n).map(|i| r.get::<_, Value>(i)).collect::<Result<Vec<_>, _>>())?;
    rows.map(|r| r.map(|values| format!("{values:?}"))).collect()
}

/// The `CHECK (…)` constraints of a `CREATE TABLE` text, whitespace folded.
fn checks(sql: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in sql.match_indices("CHECK") {
        let rest = &sql[at..];
        let (mut depth, mut end) = (0, rest.len());
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 1 => {
                    end = i + 1;
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        found.push(format!("check {}", rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    found
}

/// The schema of the store on `conn`, per table and view, as facts two
/// stores can be compared by (see the module contract).
pub fn schema_facts(conn: &Connection) -> rusqlite::Result<BTreeMap<String, Vec<String>>> {
    let mut facts = BTreeMap::new();
    let sql = "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'";
    let mut statement = conn.prepare(sql)?;
    let objects = statement.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get(2)?)))?;
    for object in objects {
        let (kind, name, sql): (String, String, String) = object?;
        let mut found = vec![kind.clone()];
        let info =
            format!("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('{name}') ORDER BY cid");
        // A view over a table this program does not register cannot be read:
        // its error is the fact.
        found.extend(lines(conn, &info).unwrap_or_else(|e| vec![e.to_string()]));
        if kind == "table" {
            found.extend(lines(conn, &format!("SELECT 'without rowid', wr FROM pragma_table_list('{name}')"))?);
            found.extend(lines(
                conn,
                &format!(
                    "SELECT 'index', l.name, l.origin, l.\"unique\", (SELECT group_concat(name) FROM \
                     (SELECT i.name FROM pragma_index_info(l.name) i ORDER BY i.seqno)) \
                     FROM pragma_index_list('{name}') l ORDER BY l.name"
                ),
            )?);
            found.extend(lines(
                conn,
                &format!(
                    "SELECT 'references', \"from\", \"table\", \"to\" FROM pragma_foreign_key_list('{name}') \
                     ORDER BY id, seq"
                ),
            )?);
            found.extend(checks(&sql));
        }
        facts.insert(name, found);
    }
    Ok(facts)
}

/// How the store at `path` differs from [`described_store`] (every table
/// and view, by [`schema_facts`]), and what the descriptors get wrong
/// themselves: a column added at a schema version it could not be, a NOT
/// NULL column added later without a default (older stores could not get
/// it), a table or column without its sentence. Empty when they agree.
pub fn schema_mismatches(path: &Path, groups: &[&'static PointTables]) -> Result<Vec<String>, StoreError> {
    let err = sqlite(path);
    let stored = schema_facts(&Connection::open(path).map_err(&err)?).map_err(&err)?;
    let described = schema_facts(&described_store(groups).map_err(&err)?).map_err(&err)?;
    let mut found = Vec::new();
    for name in stored.keys().chain(described.keys().filter(|n| !stored.contains_key(*n))) {
        match (stored.get(name), described.get(name)) {
            (Some(s), Some(d)) if s == d => {}
            (Some(_), None) => found.push(format!("{name} has no descriptors")),
            (s, d) => found.push(format!("{name}: stored {s:?}, described {d:?}")),
        }
    }
    for t in described_tables(groups) {
        if t.doc().is_empty() {
            found.push(format!("table {} has no sentence", t.name()));
        }
        for c in t.columns() {
            if !(c.since == 0 || (t.since() < c.since && c.since <= SCHEMA_VERSION)) {
                found.push(format!("{}.{}: since {}", t.name(), c.name, c.since));
            }
            if c.since > 0 && !c.null && c.default.is_none() {
                found.push(format!("{}.{}: added later, NOT NULL, without a default", t.name(), c.name));
            }
            if c.doc.is_empty() {
                found.push(format!("{}.{} has no sentence", t.name(), c.name));
            }
        }
    }
    Ok(found)
}

/// For a kind crate's tests: a store at `path` made by the historical
/// steps of schema 1 (every registered group's), then opened (which applies
/// every later step and reconciles it with the descriptors), against the
/// descriptors ([`schema_mismatches`]); and each of `tables` whose
/// descriptors are not registered. Empty when the crate's descriptors are
/// what its tables' history made of them.
pub fn history_mismatches(
    path: &Path,
    groups: &[&'static PointTables],
    tables: &[&str],
) -> Result<Vec<String>, StoreError> {
    let err = sqlite(path);
    let conn = Connection::open(path).map_err(&err)?;
    for step in steps(groups).into_iter().filter(|s| s.version == 1) {
        conn.execute_batch(step.sql).map_err(&err)?;
    }
    conn.pragma_update(None, "user_version", 1).map_err(&err)?;
    drop(conn);
    Store::open(path, groups)?;
    let mut found = schema_mismatches(path, groups)?;
    let registered = described_tables(groups);
    let unregistered = tables.iter().filter(|t| !registered.iter().any(|d| d.name() == **t));
    found.extend(unregistered.map(|t| format!("table {t}: its descriptors are not registered")));
    Ok(found)
}
