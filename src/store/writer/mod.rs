//! Writing a point: one writer per point kind, each one transaction.
//!
//! Contract: a point's rows are written in one transaction with cached
//! prepared statements, so a crash (even `kill -9`) never leaves half a point
//! behind: [`single`] writes a single-cluster run (and its battery's jobs
//! once), [`grid`] a Grid run's requests and clusters, [`provision`] a
//! provisioning point or slot statistics, [`pricing`] a pricing point.

pub mod grid;
pub mod pricing;
pub mod provision;
pub mod single;

/// Rows per multi-row INSERT: one statement per batch instead of per row.
pub(crate) const BATCH: usize = 50;
pub(crate) const OUTCOME_COLUMNS: usize = 19;
pub(crate) const BATTERY_COLUMNS: usize = 12;

pub(crate) fn insert_sql(table: &str, columns: usize, rows: usize) -> String {
    let row = |r: usize| {
        format!("({})", (1..=columns).map(|c| format!("?{}", r * columns + c)).collect::<Vec<_>>().join(","))
    };
    format!("INSERT INTO {table} VALUES {}", (0..rows).map(row).collect::<Vec<_>>().join(","))
}

/// Binds and inserts `items` in batches; `bind` binds one item from a 1-based parameter index.
pub(crate) fn insert_batched<T>(
    tx: &rusqlite::Transaction<'_>,
    table: &str,
    columns: usize,
    full_sql: &str,
    items: &[T],
    mut bind: impl FnMut(&mut rusqlite::CachedStatement<'_>, usize, &T) -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    for chunk in items.chunks(BATCH) {
        // Full batches reuse one SQL text (building and hashing it per chunk
        // cost as much as the inserts); only a short tail builds its own.
        let mut stmt = if chunk.len() == BATCH {
            tx.prepare_cached(full_sql)?
        } else {
            tx.prepare_cached(&insert_sql(table, columns, chunk.len()))?
        };
        for (r, item) in chunk.iter().enumerate() {
            bind(&mut stmt, r * columns + 1, item)?;
        }
        stmt.raw_execute()?;
    }
    Ok(())
}
