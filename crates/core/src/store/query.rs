//! Read-only access: `slasim query`'s guard and the rendering of its tables.
//!
//! Contract: [`query`] opens the store read-only (`query_only` too) and
//! refuses any statement that writes; a statement SQLite cannot prepare is
//! an error naming the store and SQLite's message. Reading a store from a
//! newer slasim is allowed; only writing is refused.

use std::path::Path;

use rusqlite::types::ValueRef;

use crate::store::error::{StoreError, sqlite};

/// A query result: column names and rendered rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of rendered values (`NULL` as empty).
    pub rows: Vec<Vec<String>>,
}

fn render(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => {
            if r.fract() == 0.0 && r.abs() < 1e15 {
                format!("{r:.1}")
            } else {
                format!("{r:.6}").trim_end_matches('0').to_string()
            }
        }
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

/// True if the store at `path` has a table or view `name` (a store written
/// before a kind of point existed lacks that kind's tables).
pub fn has_table(path: impl AsRef<Path>, name: &'static str) -> Result<bool, StoreError> {
    // `name` is one of the code's table names, never user text.
    Ok(!query(path, &format!("SELECT name FROM sqlite_master WHERE name = '{name}'"))?.rows.is_empty())
}

/// Runs one read-only SQL statement on the database at `path`.
pub fn query(path: impl AsRef<Path>, sql: &str) -> Result<Table, StoreError> {
    guarded(path.as_ref(), sql, |stmt, sql_err| {
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let n = columns.len();
        let mut rows = Vec::new();
        let mut result = stmt.query([]).map_err(sql_err)?;
        while let Some(row) = result.next().map_err(sql_err)? {
            rows.push((0..n).map(|i| row.get_ref(i).map(render).unwrap_or_default()).collect());
        }
        Ok(Table { columns, rows })
    })
}

/// Prepares `sql` on the store at `path` opened read-only, refuses it if it
/// writes, and hands the statement to `read`.
fn guarded<T>(
    path: &Path,
    sql: &str,
    read: impl FnOnce(&mut rusqlite::Statement<'_>, &dyn Fn(rusqlite::Error) -> StoreError) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let path = path.to_path_buf();
    if !path.is_file() {
        return Err(StoreError::Missing { path });
    }
    let sql_err = |e: rusqlite::Error| StoreError::Sql { path: path.clone(), message: e.to_string() };
    // Reading a newer store is harmless: only writing is refused.
    let conn = crate::store::reading(&path).map_err(sqlite(&path))?;
    let mut stmt = conn.prepare(sql).map_err(sql_err)?;
    if !stmt.readonly() {
        return Err(StoreError::WriteRefused { sql: sql.trim().to_string() });
    }
    read(&mut stmt, &sql_err)
}

/// One column of a [`Columns`] result, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Integers (`NULL` as `None`).
    Int(Vec<Option<i64>>),
    /// Reals.
    Real(Vec<Option<f64>>),
    /// Text (a blob as `<n bytes>`).
    Text(Vec<Option<String>>),
    /// This many rows, none with a value: of no type SQLite can tell (an
    /// embedding program may look the column's name up in the descriptors,
    /// [`crate::store::tables::described_tables`]).
    Null(usize),
}

impl Values {
    /// Its number of rows.
    pub fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::Real(v) => v.len(),
            Values::Text(v) => v.len(),
            Values::Null(n) => *n,
        }
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a value; a value its type cannot hold widens the column
    /// (integers to reals, numbers to text), as SQLite's are dynamic.
    fn push(&mut self, value: ValueRef<'_>) {
        match (&mut *self, value) {
            (_, ValueRef::Null) => self.push_null(),
            (Values::Int(v), ValueRef::Integer(i)) => v.push(Some(i)),
            (Values::Real(v), ValueRef::Real(r)) => v.push(Some(r)),
            (Values::Real(v), ValueRef::Integer(i)) => v.push(Some(i as f64)),
            (Values::Text(v), value) => v.push(Some(render(value))),
            (Values::Int(v), ValueRef::Real(r)) => {
                let mut widened: Vec<Option<f64>> = v.iter().map(|x| x.map(|i| i as f64)).collect();
                widened.push(Some(r));
                *self = Values::Real(widened);
            }
            (_, value) => {
                let mut text = self.texts();
                text.push(Some(render(value)));
                *self = Values::Text(text);
            }
        }
    }

    fn push_null(&mut self) {
        match self {
            Values::Int(v) => v.push(None),
            Values::Real(v) => v.push(None),
            Values::Text(v) => v.push(None),
            Values::Null(n) => *n += 1,
        }
    }

    fn texts(&self) -> Vec<Option<String>> {
        match self {
            Values::Int(v) => v.iter().map(|x| x.map(|i| i.to_string())).collect(),
            Values::Real(v) => v.iter().map(|x| x.map(|r| render(ValueRef::Real(r)))).collect(),
            Values::Text(v) => v.clone(),
            Values::Null(n) => vec![None; *n],
        }
    }
}

/// A query result by column, each typed as the store declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    /// Column names and values, in the statement's order.
    pub columns: Vec<(String, Values)>,
}

/// [`query`], its result by typed column (for data frames rather than
/// printing): integers stay integers, `NULL` stays missing; a column is
/// typed by its values (integers widen to reals, numbers to text, as
/// SQLite's values are dynamic); one without a value is [`Values::Null`].
pub fn query_columns(path: impl AsRef<Path>, sql: &str) -> Result<Columns, StoreError> {
    guarded(path.as_ref(), sql, |stmt, sql_err| {
        // Typed by their values (integers widen to reals, numbers to text),
        // as SQLite's values are.
        let mut columns: Vec<(String, Values, bool)> =
            stmt.column_names().map(|n| (n.to_string(), Values::Int(Vec::new()), false)).collect();
        let mut result = stmt.query([]).map_err(sql_err)?;
        while let Some(row) = result.next().map_err(sql_err)? {
            for (i, (_, values, typed)) in columns.iter_mut().enumerate() {
                let value = row.get_ref(i).map_err(sql_err)?;
                *typed |= value != ValueRef::Null;
                values.push(value);
            }
        }
        let columns = columns
            .into_iter()
            .map(|(name, values, typed)| {
                let values = if typed { values } else { Values::Null(values.len()) };
                (name, values)
            })
            .collect();
        Ok(Columns { columns })
    })
}

impl Table {
    /// Aligned text, numbers right-aligned.
    pub fn to_text(&self) -> String {
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.columns[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let numeric = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
        let mut out = String::new();
        let line = |cells: Vec<String>, out: &mut String| {
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        };
        line(self.columns.iter().enumerate().map(|(i, c)| format!("{c:<w$}", w = widths[i])).collect(), &mut out);
        line(widths.iter().map(|&w| "-".repeat(w)).collect(), &mut out);
        for row in &self.rows {
            let cells = row
                .iter()
                .enumerate()
                .map(
                    |(i, v)| {
                        if numeric(v) { format!("{v:>w$}", w = widths[i]) } else { format!("{v:<w$}", w = widths[i]) }
                    },
                )
                .collect();
            line(cells, &mut out);
        }
        out
    }

    /// CSV with a header line (RFC 4180 quoting).
    pub fn to_csv(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.columns).chain(&self.rows) {
            out.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }

    /// A Markdown (GitHub) table: header, rule, one line a row; `|` in a
    /// cell is escaped.
    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| {
            format!("| {} |\n", cells.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | "))
        };
        let mut out = line(&self.columns);
        out.push_str(&format!("|{}|\n", vec!["---"; self.columns.len()].join("|")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}
