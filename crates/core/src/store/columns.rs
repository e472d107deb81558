//! Column descriptors: every table of the store, one descriptor per column,
//! the one definition of each table.
//!
//! Contract:
//! - A [`Table`] names its SQL table, says what a row is (`doc`), its
//!   primary key (one column or several), whether it is `WITHOUT ROWID`, its
//!   indexes, and lists a [`Column`] per column, in table order: its name,
//!   SQL type, what it holds (`doc`: meaning, unit, what NULL means), whether
//!   it may be NULL, the schema version that added it, its `DEFAULT`, its
//!   `REFERENCES` and `CHECK`, how to bind it from the table's row type
//!   ([`Rows::Row`]), for a metric the store reads back how to read it
//!   ([`Rows::Summary`]), and where the report uses it ([`Use`]: an axis or a metric of a report section, at a
//!   rank).
//! - The store's `CREATE TABLE` and `CREATE INDEX` statements are generated
//!   from the descriptors ([`crate::store::schema::create_table`]); so is the
//!   `ALTER TABLE … ADD COLUMN` that brings a column to a store made before
//!   it, and the schema reference page (`slasim reference schema`).
//! - Every INSERT is generated from the descriptors: the column names, then
//!   anonymous `?` parameters bound in descriptor order, several rows per
//!   statement for the tables written row by row ([`insert_all`], batches of
//!   [`BATCH`]); the SQL texts are built once per table and statements are
//!   cached. No SQL of the store numbers its parameters.
//! - The report's axis and metric lists are collected from the descriptors
//!   ([`report_columns`]), never kept by hand; so is the `SELECT` that
//!   reads a point's row back ([`read_back`]).
//!
//! A new stored metric (or axis) is therefore one descriptor in its table's
//! list plus the code that computes its value: the schema, the INSERT, the
//! report's loading and aggregating follow from the descriptor. A column
//! appended to a table that stores already hold comes to them from its
//! descriptor when they are next opened for writing, with its `default`
//! standing for the rows already there (a `NOT NULL` column needs one).
//!
//! A table, as its crate declares it (the builders after [`Table::new`] are
//! optional, `columns` last); each column is `NOT NULL` unless its type says
//! `null`:
//!
//! ```text
//! pub static READINGS: Table<Readings> = Table::new("readings", 11, "A meter's reading per point and site.")
//!     .key(&["point_id", "site"])
//!     .without_rowid()
//!     .columns(&[
//!         column!("point_id", Int, "the point", |r| r.point_id; references "widgets(point_id)"),
//!         column!("site", Int, "the site: 0 with one site", |r| r.site),
//!         column!("kg_co2", Real null, "kgCO2eq; NULL without a carbon signal", |r| r.kg_co2),
//!         column!("moves", Int, "times moved later", |r| r.moves; default "0"; uses [metric(SITES, 8)]),
//!     ]);
//! ```

use std::sync::OnceLock;

use rusqlite::Statement;

use crate::names::Named;

/// A column's SQL type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SqlType {
    /// 64-bit integer (booleans are 0/1).
    Int,
    /// Double.
    Real,
    /// UTF-8 text.
    Text,
    /// Bytes (a file kept whole, an episode's Arrow file say).
    Blob,
}

impl SqlType {
    /// Its name in `CREATE TABLE` / `ALTER TABLE`.
    pub fn sql(self) -> &'static str {
        match self {
            SqlType::Int => "INTEGER",
            SqlType::Real => "REAL",
            SqlType::Text => "TEXT",
            SqlType::Blob => "BLOB",
        }
    }
}

/// A grouping of a table's rows a report section uses, by name: a kind
/// declares its own ([`crate::experiment::registry::Registry::report_groups`], which
/// refuses a name declared twice), e.g. the single cluster's `summary` or
/// the Grid's `grid-clusters`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section(pub &'static str);

impl Named for Section {
    fn name(&self) -> &'static str {
        self.0
    }
}

/// What a column is to a report section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Rows are grouped (and sorted) by it.
    Axis,
    /// It is averaged over each group.
    Metric,
    /// It is loaded along (an identity, a count), neither grouped nor averaged.
    Detail,
}

/// A column's use in a report section: its part and its rank among the
/// section's columns of that part (the order the section lists them in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Use {
    /// The section.
    pub section: Section,
    /// Axis, metric or detail.
    pub part: Part,
    /// Position among the section's columns of this part.
    pub rank: u8,
}

/// An axis of `section` at `rank`.
pub const fn axis(section: Section, rank: u8) -> Use {
    Use { section, part: Part::Axis, rank }
}

/// A metric of `section` at `rank`.
pub const fn metric(section: Section, rank: u8) -> Use {
    Use { section, part: Part::Metric, rank }
}

/// A detail of `section` at `rank`.
pub const fn detail(section: Section, rank: u8) -> Use {
    Use { section, part: Part::Detail, rank }
}

/// The row type a table is written from, and what its metrics are read into.
pub trait Rows {
    /// One row's data (borrowed from the run's output).
    type Row<'a>;
    /// What [`Column::read`] sets (`()` for tables the store does not read back).
    type Summary;
}

/// Binds a column's value of a row to a statement's 1-based parameter.
pub type Bind<R> =
    for<'a, 'r, 's, 'c> fn(&'r <R as Rows>::Row<'a>, &'s mut Statement<'c>, usize) -> rusqlite::Result<()>;

/// Sets a summary's field from a stored value (0-based result column).
pub type Read<R> = fn(&mut <R as Rows>::Summary, &rusqlite::Row<'_>, usize) -> rusqlite::Result<()>;

/// What the schema knows of a column, whatever its table's row type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnDef {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub sql_type: SqlType,
    /// What it holds, in one sentence: meaning, unit, what NULL means.
    pub doc: &'static str,
    /// It may be NULL (otherwise `NOT NULL`).
    pub null: bool,
    /// The schema version whose step added it to its table (0: none did: it
    /// came with its table, or to stores already holding the table by its
    /// descriptor alone, with its `default`).
    pub since: i64,
    /// Its SQL `DEFAULT`, which rows stored before it stand for (none: NULL).
    pub default: Option<&'static str>,
    /// For a column that older stores held `NOT NULL`: the value (SQL) they
    /// wrote where this one is NULL (`-1`, `''`), read as NULL when such a
    /// store is brought to the descriptors.
    pub null_was: Option<&'static str>,
    /// `REFERENCES` target, `table(column)`.
    pub references: Option<&'static str>,
    /// `CHECK` expression.
    pub check: Option<&'static str>,
}

/// One column of a table.
pub struct Column<R: Rows + 'static> {
    /// Its schema.
    pub def: ColumnDef,
    /// Binds its value for a row.
    pub bind: Bind<R>,
    /// For a metric the store reads back: sets the summary's field.
    pub read: Option<Read<R>>,
    /// Where the report uses it.
    pub uses: &'static [Use],
}

impl<R: Rows + 'static> std::ops::Deref for Column<R> {
    type Target = ColumnDef;

    fn deref(&self) -> &ColumnDef {
        &self.def
    }
}

/// `xs`' one element, or `default` (for the optional parts of [`column!`]).
pub const fn one_or<T: Copy>(xs: &[T], default: T) -> T {
    if let [x] = xs { *x } else { default }
}

/// How rows go in when a row with the same key may exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// A duplicate key is an error.
    Abort,
    /// The new row replaces the old one.
    Replace,
    /// The old row stays.
    Ignore,
}

/// An index of a table: `CREATE INDEX name ON table(columns)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Index {
    /// Its name.
    pub name: &'static str,
    /// Its columns, in order.
    pub columns: &'static [&'static str],
}

/// A table and its columns.
pub struct Table<R: Rows + 'static> {
    /// Its SQL name.
    pub name: &'static str,
    /// The schema version that created it.
    pub since: i64,
    /// What one row is, in a sentence or two (the schema page).
    pub doc: &'static str,
    /// Its primary key's columns (none: empty).
    pub key: &'static [&'static str],
    /// `WITHOUT ROWID`.
    pub without_rowid: bool,
    /// Its indexes.
    pub indexes: &'static [Index],
    /// Every column, in table order.
    pub columns: &'static [Column<R>],
    /// What a duplicate key does.
    pub conflict: Conflict,
    /// The one-row and full-batch INSERTs, built on first use.
    sql: OnceLock<(String, String)>,
}

impl<R: Rows + 'static> Table<R> {
    /// A table created by schema `since` (no key, no column yet: see the
    /// builders below), whose INSERTs abort on a duplicate key.
    pub const fn new(name: &'static str, since: i64, doc: &'static str) -> Table<R> {
        Table {
            name,
            since,
            doc,
            key: &[],
            without_rowid: false,
            indexes: &[],
            columns: &[],
            conflict: Conflict::Abort,
            sql: OnceLock::new(),
        }
    }

    /// Its primary key (one column: `PRIMARY KEY` on the column itself).
    pub const fn key(mut self, key: &'static [&'static str]) -> Table<R> {
        self.key = key;
        self
    }

    /// Stored `WITHOUT ROWID` (in its key's order).
    pub const fn without_rowid(mut self) -> Table<R> {
        self.without_rowid = true;
        self
    }

    /// Its indexes.
    pub const fn indexes(mut self, indexes: &'static [Index]) -> Table<R> {
        self.indexes = indexes;
        self
    }

    /// `conflict` on a duplicate key.
    pub const fn conflict(mut self, conflict: Conflict) -> Table<R> {
        self.conflict = conflict;
        self
    }

    /// Its columns, in table order.
    pub const fn columns(mut self, columns: &'static [Column<R>]) -> Table<R> {
        self.columns = columns;
        self
    }

    /// `INSERT … INTO name (columns) VALUES (?, …)` with `rows` rows.
    pub fn insert_sql(&self, rows: usize) -> String {
        let verb = match self.conflict {
            Conflict::Abort => "INSERT",
            Conflict::Replace => "INSERT OR REPLACE",
            Conflict::Ignore => "INSERT OR IGNORE",
        };
        let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
        let row = format!("({})", vec!["?"; names.len()].join(","));
        format!("{verb} INTO {} ({}) VALUES {}", self.name, names.join(", "), vec![row; rows].join(","))
    }

    fn cached_sql(&self) -> &(String, String) {
        self.sql.get_or_init(|| (self.insert_sql(1), self.insert_sql(BATCH)))
    }

    /// Binds `row` from parameter `first` (1-based) on, in descriptor order.
    fn bind(&self, stmt: &mut Statement<'_>, first: usize, row: &R::Row<'_>) -> rusqlite::Result<()> {
        for (k, c) in self.columns.iter().enumerate() {
            (c.bind)(row, stmt, first + k)?;
        }
        Ok(())
    }

    /// Its columns a report section uses as `part`, by rank.
    pub fn report_columns(&'static self, section: Section, part: Part) -> Vec<&'static Column<R>> {
        let mut found: Vec<(u8, &Column<R>)> = self
            .columns
            .iter()
            .filter_map(|c| c.uses.iter().find(|u| u.section == section && u.part == part).map(|u| (u.rank, c)))
            .collect();
        found.sort_by_key(|(rank, _)| *rank);
        found.into_iter().map(|(_, c)| c).collect()
    }

    /// Every rank two of its columns take in one report section and part
    /// (a report's order would then depend on the column order): empty when
    /// each section's ranks are unique.
    pub fn shared_ranks(&self) -> Vec<String> {
        let mut found = Vec::new();
        for c in self.columns {
            for u in c.uses {
                let same = self.columns.iter().flat_map(|d| d.uses.iter()).filter(|v| *v == u).count();
                if same > 1 {
                    found.push(format!("{}.{}: rank {} of {} {:?}", self.name, c.name, u.rank, u.section.0, u.part));
                }
            }
        }
        found
    }
}

/// The names of the columns of `table` a report section uses as `part`, by rank.
pub fn report_columns<R: Rows + 'static>(table: &'static Table<R>, section: Section, part: Part) -> Vec<&'static str> {
    table.report_columns(section, part).into_iter().map(|c| c.name).collect()
}

/// The row of `table` whose one-column key is `id`, read back: each column
/// with a `read` sets its part of a default summary (`None`: no such row).
pub fn read_back<R: Rows + 'static>(
    conn: &rusqlite::Connection,
    table: &Table<R>,
    id: i64,
) -> rusqlite::Result<Option<R::Summary>>
where
    R::Summary: Default,
{
    let [key] = table.key else {
        return Err(rusqlite::Error::InvalidColumnName(format!("{}: no one-column key to read a row by", table.name)));
    };
    let read: Vec<&Column<R>> = table.columns.iter().filter(|c| c.read.is_some()).collect();
    let names: Vec<&str> = read.iter().map(|c| c.name).collect();
    let sql = format!("SELECT {} FROM {} WHERE {key} = ?", names.join(", "), table.name);
    let mut statement = conn.prepare_cached(&sql)?;
    let mut rows = statement.query([id])?;
    let Some(row) = rows.next()? else { return Ok(None) };
    let mut summary = R::Summary::default();
    for (i, set) in read.iter().filter_map(|c| c.read).enumerate() {
        set(&mut summary, row, i)?;
    }
    Ok(Some(summary))
}

/// Rows per multi-row INSERT: one statement per batch instead of per row.
pub const BATCH: usize = 50;

/// Inserts one row (cached statement).
pub fn insert<R: Rows + 'static>(
    tx: &rusqlite::Connection,
    table: &Table<R>,
    row: &R::Row<'_>,
) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(&table.cached_sql().0)?;
    table.bind(&mut stmt, 1, row)?;
    stmt.raw_execute().map(|_| ())
}

/// Inserts `rows` in batches of [`BATCH`] rows per statement (cached).
pub fn insert_all<'a, R: Rows + 'static>(
    tx: &rusqlite::Connection,
    table: &Table<R>,
    rows: impl ExactSizeIterator<Item = R::Row<'a>>,
) -> rusqlite::Result<()> {
    let (total, width) = (rows.len(), table.columns.len());
    let (single, full) = table.cached_sql();
    let mut rows = rows.peekable();
    let mut done = 0;
    while done < total {
        let n = BATCH.min(total - done);
        // Full batches and single rows reuse their SQL text (building and
        // hashing it per chunk cost as much as the inserts); only a short
        // tail of several rows builds its own.
        let mut stmt = match n {
            BATCH => tx.prepare_cached(full)?,
            1 => tx.prepare_cached(single)?,
            _ => tx.prepare_cached(&table.insert_sql(n))?,
        };
        for r in 0..n {
            let Some(row) = rows.next() else { break };
            table.bind(&mut stmt, r * width + 1, &row)?;
        }
        stmt.raw_execute()?;
        done += n;
    }
    debug_assert!(rows.peek().is_none(), "{}: more rows than announced", table.name);
    Ok(())
}

/// A table's schema, whatever its row type.
pub trait Described: Sync {
    /// Its SQL name.
    fn name(&self) -> &'static str;
    /// The schema version that created it.
    fn since(&self) -> i64;
    /// What one row is.
    fn doc(&self) -> &'static str;
    /// Its primary key's columns.
    fn key(&self) -> &'static [&'static str];
    /// `WITHOUT ROWID`.
    fn without_rowid(&self) -> bool;
    /// Its indexes.
    fn indexes(&self) -> &'static [Index];
    /// Every column, in table order.
    fn columns(&self) -> Vec<&'static ColumnDef>;
}

impl<R: Rows + 'static> Described for Table<R>
where
    Table<R>: Sync,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn since(&self) -> i64 {
        self.since
    }

    fn doc(&self) -> &'static str {
        self.doc
    }

    fn key(&self) -> &'static [&'static str] {
        self.key
    }

    fn without_rowid(&self) -> bool {
        self.without_rowid
    }

    fn indexes(&self) -> &'static [Index] {
        self.indexes
    }

    fn columns(&self) -> Vec<&'static ColumnDef> {
        self.columns.iter().map(|c| &c.def).collect()
    }
}

/// The marker of a column that may be NULL (`column!("x", Real null, …)`).
#[doc(hidden)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
pub enum Nullable {
    null,
}

/// A descriptor: `column!(name, Type, "what it holds", |row| value)` binds
/// `value` of a row to a `NOT NULL` column; `Type null` allows NULL.
/// Optional parts, in this order: `; since VERSION` (a historical schema
/// step added it to its table), `; default "SQL"` (what rows stored before it stand for),
/// `; null_was "SQL"` (what older stores wrote where it is now NULL),
/// `; references "table(column)"`, `; check "SQL"`, `; uses [axis(…),
/// metric(…)]` (the report's), `; read READER` (read back by the store).
#[doc(hidden)]
#[macro_export]
macro_rules! __column {
    ($name:literal, $ty:ident $($null:ident)?, $doc:literal, |$r:ident| $value:expr
        $(; since $since:expr)?
        $(; default $default:literal)?
        $(; null_was $null_was:literal)?
        $(; references $references:literal)?
        $(; check $check:literal)?
        $(; uses [$($use:expr),* $(,)?])?
        $(; read $read:expr)?) => {
        $crate::store::columns::Column {
            def: $crate::store::columns::ColumnDef {
                name: $name,
                sql_type: $crate::store::columns::SqlType::$ty,
                doc: $doc,
                null: $crate::store::columns::one_or(&[$({
                    let _ = $crate::store::columns::Nullable::$null;
                    true
                })?], false),
                since: $crate::store::columns::one_or(&[$($since)?], 0),
                default: $crate::store::columns::one_or(&[$(Some($default))?], None),
                null_was: $crate::store::columns::one_or(&[$(Some($null_was))?], None),
                references: $crate::store::columns::one_or(&[$(Some($references))?], None),
                check: $crate::store::columns::one_or(&[$(Some($check))?], None),
            },
            bind: |$r, stmt, i| stmt.raw_bind_parameter(i, $value),
            read: $crate::store::columns::one_or(&[$(Some($read))?], None),
            uses: &[$($($use),*)?],
        }
    };
}
pub use crate::__column as column;
