//! `slasim.Store(path).query(sql)`: `slasim query`'s read-only guard, its
//! result by typed column; `Store(path).export(dir)`: `slasim export`; and
//! the stored rows of given points, in the order the command line ran them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::store::{Columns, Values, query_columns};

use crate::error::to_py;
use crate::table::{columns, reorder};

/// One read-only SQL statement on the store at `path`, by column.
#[pyfunction]
fn query<'py>(py: Python<'py>, path: PathBuf, sql: String) -> PyResult<Bound<'py, PyList>> {
    let result = py.detach(|| query_columns(&path, &sql)).map_err(|e| to_py(e.into()))?;
    columns(py, result)
}

/// `slasim export --db path --out dir [--force]`: every table as Parquet,
/// with the provenance table; returns (table, rows) per file written.
#[pyfunction]
#[pyo3(signature = (path, dir, force=false))]
fn export(py: Python<'_>, path: PathBuf, dir: PathBuf, force: bool) -> PyResult<Vec<(String, u64)>> {
    let exported =
        py.detach(|| slasim::store::export::export(slasim::registry().groups(), &path, &dir, force)).map_err(to_py)?;
    Ok(exported.tables)
}

/// The rows of `table` whose `key` is one of `ids`, ordered as `ids` are
/// (then by `then`, if given): the stored rows of a run's or a sweep's
/// points, in the order the command line ran them.
pub fn rows_of(db: &Path, table: &str, key: &str, ids: &[i64], then: Option<&str>) -> anyhow::Result<Columns> {
    let mut sql = format!("SELECT * FROM {table} WHERE {key} IN (");
    for (k, id) in ids.iter().enumerate() {
        write!(sql, "{}{id}", if k == 0 { "" } else { "," })?;
    }
    write!(sql, ") ORDER BY {key}")?;
    if let Some(then) = then {
        write!(sql, ", {then}")?;
    }
    let result = query_columns(db, &sql)?;
    let position: HashMap<i64, usize> = ids.iter().enumerate().map(|(k, &id)| (id, k)).collect();
    let Some((_, Values::Int(keys))) = result.columns.iter().find(|(name, _)| name == key) else {
        anyhow::bail!("{}: table {table} has no integer column {key}", db.display());
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    // Stable: rows of one point keep their `then` order.
    order.sort_by_key(|&i| keys[i].and_then(|id| position.get(&id).copied()).unwrap_or(usize::MAX));
    Ok(reorder(result, &order))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(query, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)
}
