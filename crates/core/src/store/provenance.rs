//! A stored point's `provenance` row ([`crate::store::tables::provenance`]):
//! read back from its group's key table in the transaction that stored it,
//! with the sha256 of its settings and of each trace file it read.

use std::collections::HashMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::store::StoreError;
use crate::store::columns::insert;
use crate::store::tables::groups::PointTables;
use crate::store::tables::provenance::{PROVENANCE, ProvenanceRow};

/// Lowercase hex sha256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// sha256 of each trace of `traces` (names comma-separated, as stored),
/// comma-separated; `None` when one of them is not a file found now
/// (a generated workload). Each `traces` is hashed once per `cache`.
pub(crate) fn trace_sha256(
    traces: &str,
    cache: &mut HashMap<String, Option<String>>,
) -> Result<Option<String>, (String, std::io::Error)> {
    if let Some(known) = cache.get(traces) {
        return Ok(known.clone());
    }
    let mut sums = Vec::new();
    for name in traces.split(',').map(str::trim) {
        let Ok(file) = slasim_data::trace::resolve_trace(Path::new(name)) else {
            cache.insert(traces.to_string(), None);
            return Ok(None);
        };
        let (_, sum) = slasim_data::trace::fetch::digest_of(&file).map_err(|e| (file.display().to_string(), e))?;
        sums.push(sum);
    }
    let sums = Some(sums.join(","));
    cache.insert(traces.to_string(), sums.clone());
    Ok(sums)
}

/// Each group that gives its provenance, with the query of one point's
/// (made once per store, not per point).
pub(crate) fn selects(groups: &[&'static PointTables]) -> Vec<(&'static str, String)> {
    groups
        .iter()
        .filter_map(|g| Some((g.key_table, format!("SELECT * FROM ({}) WHERE point = :point", g.provenance?))))
        .collect()
}

/// Adds `point`'s provenance row if `tx` holds its row in a group's key
/// table (`selects`: [`selects`]); whether it did.
pub(crate) fn record(
    tx: &rusqlite::Connection,
    selects: &[(&'static str, String)],
    point: i64,
    digests: &mut HashMap<String, Option<String>>,
    db: &Path,
) -> Result<bool, StoreError> {
    let sql = |e: rusqlite::Error| StoreError::Sqlite { path: db.to_path_buf(), source: e };
    for (key_table, select) in selects {
        let mut statement = tx.prepare_cached(select).map_err(sql)?;
        let mut rows = statement.query(rusqlite::named_params! { ":point": point }).map_err(sql)?;
        let Some(row) = rows.next().map_err(sql)? else { continue };
        let trace: Option<String> = row.get(1).map_err(sql)?;
        let seed: Option<i64> = row.get(2).map_err(sql)?;
        let config: Option<String> = row.get(3).map_err(sql)?;
        let code_version: Option<String> = row.get(4).map_err(sql)?;
        drop(rows);
        drop(statement);
        let trace_sha256 = match &trace {
            Some(t) => trace_sha256(t, digests).map_err(|(file, e)| StoreError::Sql {
                path: db.to_path_buf(),
                message: format!("reading the trace {file} for the provenance of point {point}: {e}"),
            })?,
            None => None,
        };
        let row = ProvenanceRow {
            point,
            points_table: key_table,
            code_version,
            config_sha256: config.map(|c| sha256_hex(c.as_bytes())),
            trace,
            trace_sha256,
            seed,
        };
        insert(tx, &PROVENANCE, &row).map_err(sql)?;
        return Ok(true);
    }
    Ok(false)
}
