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
/// (a generated workload). Each file is read once per `cache`.
pub(crate) fn trace_sha256(
    traces: &str,
    cache: &mut HashMap<String, Option<String>>,
) -> Result<Option<String>, (String, std::io::Error)> {
    let mut sums = Vec::new();
    for name in traces.split(',').map(str::trim) {
        let sum = match cache.get(name) {
            Some(known) => known.clone(),
            None => {
                let found = match slasim_data::trace::resolve_trace(Path::new(name)) {
                    Ok(file) => Some(
                        slasim_data::trace::fetch::digest_of(&file)
                            .map(|(_, sum)| sum)
                            .map_err(|e| (file.display().to_string(), e))?,
                    ),
                    Err(_) => None,
                };
                cache.insert(name.to_string(), found.clone());
                found
            }
        };
        match sum {
            Some(sum) => sums.push(sum),
            None => return Ok(None),
        }
    }
    Ok(Some(sums.join(",")))
}

/// Adds `point`'s provenance row if `tx` holds its row in a group's key
/// table; whether it did.
pub(crate) fn record(
    tx: &rusqlite::Connection,
    groups: &[&'static PointTables],
    point: i64,
    digests: &mut HashMap<String, Option<String>>,
    db: &Path,
) -> Result<bool, StoreError> {
    let sql = |e: rusqlite::Error| StoreError::Sqlite { path: db.to_path_buf(), source: e };
    for group in groups {
        let Some(select) = group.provenance else { continue };
        let mut statement = tx.prepare_cached(&format!("SELECT * FROM ({select}) WHERE point = ?1")).map_err(sql)?;
        let mut rows = statement.query([point]).map_err(sql)?;
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
            points_table: group.key_table,
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
