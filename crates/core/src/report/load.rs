//! Loading a store into Polars frames: the helpers every kind's section
//! reads its rows with.
//!
//! Contract: the store is opened read-only. [`frame_of`] runs one query and
//! builds a DataFrame of the given column names and kinds; [`has_table`]
//! says whether the store has a table; [`require`] checks a table's columns.
//! A store that is missing, lacks a table or a column (an older schema), or
//! has nothing for the report's [`Filter`], is a [`LoadError`] that names
//! the store and says so; nothing here panics on a store's contents.

use std::path::Path;

use polars::prelude::*;
use rusqlite::Connection;

use crate::store::columns::SqlType;

/// Report errors, each naming the store.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is not there.
    #[error("{path}: no such store", path = .path.display())]
    Missing { path: std::path::PathBuf },
    /// SQLite failed.
    #[error("{path}: {message}", path = .path.display())]
    Sqlite { path: std::path::PathBuf, message: String },
    /// A table or column is missing: the store is from another schema.
    #[error(
        "{path}: no {what}; the store was written by another slasim version (schema {version}); \
         re-run its sweep with this slasim", path = .path.display()
    )]
    Schema { path: std::path::PathBuf, what: String, version: i64 },
    /// Nothing to report.
    #[error("{path}: {what}", path = .path.display())]
    Empty { path: std::path::PathBuf, what: String },
    /// Polars failed.
    #[error("{path}: building the report tables: {source}", path = .path.display())]
    Polars { path: std::path::PathBuf, source: PolarsError },
}

/// A column's kind, from its descriptor's SQL type.
pub fn kind_of(t: SqlType) -> Kind {
    match t {
        SqlType::Int => Kind::Int,
        SqlType::Real => Kind::Real,
        SqlType::Text => Kind::Text,
        SqlType::Blob => Kind::Blob,
    }
}

/// Column kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 64-bit integer.
    Int,
    /// Double.
    Real,
    /// UTF-8 text.
    Text,
    /// Bytes.
    Blob,
}

/// What to load.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only the points of the experiment with this config hash.
    pub experiment: Option<(String, String)>,
    /// Only traces whose name contains this.
    pub trace: Option<String>,
}

impl Filter {
    /// The `WHERE` clause (empty without a filter) keeping the points of
    /// table alias `p` (its ids in `p.point_id`, its trace in `p.trace`)
    /// that pass, and its named parameters (`:experiment`, `:trace`) in order.
    pub fn points_where(&self) -> (String, Vec<String>) {
        let mut wheres = Vec::new();
        let mut params = Vec::new();
        if let Some((hash, _)) = &self.experiment {
            wheres.push("p.point_id IN (SELECT run_id FROM experiment_points WHERE experiment = :experiment)");
            params.push(hash.clone());
        }
        if let Some(trace) = &self.trace {
            wheres.push("instr(p.trace, :trace) > 0");
            params.push(trace.clone());
        }
        let clause = if wheres.is_empty() { String::new() } else { format!("WHERE {}", wheres.join(" AND ")) };
        (clause, params)
    }
}

/// Opens the store read-only (a missing file is [`LoadError::Missing`]).
pub fn open(path: &Path) -> Result<Connection, LoadError> {
    if !path.is_file() {
        return Err(LoadError::Missing { path: path.to_path_buf() });
    }
    crate::store::reading(path).map_err(|e| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() })
}

/// The columns of `table` (none if the store lacks it).
pub fn columns_of(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({table})"))?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(1))?;
    rows.collect()
}

/// Checks that `table` has `columns`; names the first missing one.
pub fn require(conn: &Connection, path: &Path, table: &str, columns: &[&str]) -> Result<(), LoadError> {
    let sql_err = |e: rusqlite::Error| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() };
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(sql_err)?;
    let have = columns_of(conn, table).map_err(sql_err)?;
    if have.is_empty() {
        return Err(LoadError::Schema { path: path.to_path_buf(), what: format!("`{table}` table"), version });
    }
    if let Some(missing) = columns.iter().find(|c| !have.iter().any(|h| h == *c)) {
        return Err(LoadError::Schema {
            path: path.to_path_buf(),
            what: format!("column `{missing}` in table `{table}`"),
            version,
        });
    }
    Ok(())
}

enum Buffer {
    Int(Vec<Option<i64>>),
    Real(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Blob(Vec<Option<Vec<u8>>>),
}

/// Runs `sql` and builds a DataFrame with the given column names and kinds.
pub fn frame(
    conn: &Connection,
    path: &Path,
    sql: &str,
    params: &[&dyn rusqlite::ToSql],
    columns: &[(&str, Kind)],
) -> Result<DataFrame, LoadError> {
    let sql_err = |e: rusqlite::Error| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() };
    let mut buffers: Vec<Buffer> = columns
        .iter()
        .map(|(_, k)| match k {
            Kind::Int => Buffer::Int(Vec::new()),
            Kind::Real => Buffer::Real(Vec::new()),
            Kind::Text => Buffer::Text(Vec::new()),
            Kind::Blob => Buffer::Blob(Vec::new()),
        })
        .collect();
    let mut stmt = conn.prepare(sql).map_err(sql_err)?;
    let mut rows = stmt.query(params).map_err(sql_err)?;
    while let Some(row) = rows.next().map_err(sql_err)? {
        for (i, b) in buffers.iter_mut().enumerate() {
            match b {
                Buffer::Int(v) => v.push(row.get(i).map_err(sql_err)?),
                Buffer::Real(v) => v.push(row.get(i).map_err(sql_err)?),
                Buffer::Text(v) => v.push(row.get(i).map_err(sql_err)?),
                Buffer::Blob(v) => v.push(row.get(i).map_err(sql_err)?),
            }
        }
    }
    let cols: Vec<Column> = buffers
        .into_iter()
        .zip(columns)
        .map(|(b, (name, _))| match b {
            Buffer::Int(v) => Column::new((*name).into(), v),
            Buffer::Real(v) => Column::new((*name).into(), v),
            Buffer::Text(v) => Column::new((*name).into(), v),
            Buffer::Blob(v) => Column::new((*name).into(), v),
        })
        .collect();
    DataFrame::new_infer_height(cols).map_err(|source| LoadError::Polars { path: path.to_path_buf(), source })
}

/// A trace's label in reports: its file name without `.gz` and `.swf`.
pub fn trace_label(trace: &str) -> String {
    let name = Path::new(trace).file_name().map_or_else(|| trace.to_string(), |f| f.to_string_lossy().into_owned());
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.strip_suffix(".swf").unwrap_or(name).to_string()
}

/// Replaces the `trace` column's paths by their labels.
pub fn label_traces_of(df: &mut DataFrame) -> PolarsResult<()> {
    label_traces(df)
}

/// Column names and kinds for [`frame_of`].
pub type Loaded = Vec<(&'static str, Kind)>;

/// Every column of `table` as a `SELECT` list (`alias.name`, or `NULL AS
/// name` for a column the store at `path` lacks: one its descriptor added
/// since) and their kinds for [`frame_of`], in table order.
pub fn described_columns(
    path: &Path,
    table: &dyn crate::store::columns::Described,
    alias: &str,
) -> Result<(String, Loaded), LoadError> {
    let have = stored_columns(path, table.name())?;
    let columns = table.columns();
    let select = columns
        .iter()
        .map(|c| {
            if have.iter().any(|h| h == c.name) { format!("{alias}.{}", c.name) } else { format!("NULL AS {}", c.name) }
        })
        .collect::<Vec<_>>()
        .join(", ");
    Ok((select, columns.iter().map(|c| (c.name, kind_of(c.sql_type))).collect()))
}

/// True if the store has `table` (a Grid table needs schema v4).
pub fn has_table(path: &Path, table: &str) -> Result<bool, LoadError> {
    Ok(!stored_columns(path, table)?.is_empty())
}

/// True if the store's `table` has `column` (one added after the table was).
pub fn has_column(path: &Path, table: &str, column: &str) -> Result<bool, LoadError> {
    Ok(stored_columns(path, table)?.iter().any(|c| c == column))
}

fn stored_columns(path: &Path, table: &str) -> Result<Vec<String>, LoadError> {
    let conn = open(path)?;
    columns_of(&conn, table).map_err(|e| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() })
}

/// Runs `sql` with text parameters on the store and builds a DataFrame.
pub fn frame_of(path: &Path, sql: &str, params: &[String], columns: &[(&str, Kind)]) -> Result<DataFrame, LoadError> {
    let conn = open(path)?;
    let bound: Vec<&dyn rusqlite::ToSql> = params.iter().map(|p| p as &dyn rusqlite::ToSql).collect();
    frame(&conn, path, sql, &bound, columns)
}

/// Replaces the `trace` column's paths by their labels ([`trace_label`]).
fn label_traces(df: &mut DataFrame) -> PolarsResult<()> {
    let labels: Vec<Option<String>> = df.column("trace")?.str()?.iter().map(|t| t.map(trace_label)).collect();
    df.with_column(Column::new("trace".into(), labels))?;
    Ok(())
}
