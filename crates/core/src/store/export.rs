//! The store as Parquet: every table, and a provenance table.
//!
//! Contract:
//! - [`export`] reads a store (opened read-only; a file that is not a
//!   slasim store is refused) and writes `DIR/<table>.parquet` for every
//!   table of it (views are not written: they are queries over the tables),
//!   plus `DIR/provenance.parquet` ([`PROVENANCE_COLUMNS`]): one row per
//!   stored point of every group that gives its provenance
//!   ([`crate::store::tables::groups::PointTables::provenance`]).
//! - Column types follow the declared SQLite types: `INTEGER` → Int64,
//!   `REAL` → Float64, `BLOB` → Binary, anything else → String; NULL stays
//!   null. A value of another storage class than its column's (SQLite allows
//!   it) is an error naming the table, column and row; so is anything SQLite
//!   refuses.
//! - Nothing is half-written: the files go to `.DIR.part` beside `DIR`,
//!   which is renamed to `DIR` when every file is complete. An existing `DIR`
//!   is refused unless `replace` is set (then it is removed just before the
//!   rename). On an error the partial directory is removed.
//! - The same store gives the same bytes: rows in the tables' stored order,
//!   the writer's defaults (zstd, statistics), no wall-clock metadata.
//! - The trace's sha256 is of the file the name resolves to now
//!   ([`slasim_data::trace::resolve_trace`]), as stores do not record it; NULL
//!   when no file is found (a synthetic workload, a trace not on this
//!   machine). The settings' sha256 is of the stored `config` text.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use polars::prelude::*;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::store::open_read_only;
use crate::store::provenance::{sha256_hex, trace_sha256};
use crate::store::tables::groups::PointTables;
use crate::store::tables::provenance::PROVENANCE;

/// Rows per Parquet row group (and per read batch).
const BATCH_ROWS: usize = 65_536;

/// The provenance table's columns, with what each holds.
pub const PROVENANCE_COLUMNS: [(&str, &str); 9] = [
    ("point", "the point's id (the key of its group's tables)"),
    ("points_table", "the table its point row is in: its group's key table"),
    ("experiments", "the sha256 of each experiment config that holds it, comma-separated (`experiments.hash`)"),
    ("config", "its resolved settings, as stored"),
    ("config_sha256", "sha256 of `config`"),
    ("code_version", "the slasim build that ran it"),
    ("trace", "the trace (comma-separated when several)"),
    ("trace_sha256", "sha256 of each trace file found now, comma-separated; NULL when none is found"),
    ("seed", "its seed"),
];

/// What [`export`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// Each file written (table name, rows), the provenance table last.
    pub tables: Vec<(String, u64)>,
}

/// A column's type, from its declared SQLite type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Real,
    Text,
    Blob,
}

impl Kind {
    fn of(declared: &str) -> Kind {
        match declared.to_ascii_uppercase().as_str() {
            "INTEGER" | "INT" | "BIGINT" => Kind::Integer,
            "REAL" | "DOUBLE" | "FLOAT" => Kind::Real,
            "BLOB" => Kind::Blob,
            _ => Kind::Text,
        }
    }

    fn dtype(self) -> DataType {
        match self {
            Kind::Integer => DataType::Int64,
            Kind::Real => DataType::Float64,
            Kind::Text => DataType::String,
            Kind::Blob => DataType::Binary,
        }
    }
}

/// One column's values of a batch.
enum Values {
    Integer(Vec<Option<i64>>),
    Real(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Blob(Vec<Option<Vec<u8>>>),
}

impl Values {
    fn new(kind: Kind) -> Values {
        match kind {
            Kind::Integer => Values::Integer(Vec::new()),
            Kind::Real => Values::Real(Vec::new()),
            Kind::Text => Values::Text(Vec::new()),
            Kind::Blob => Values::Blob(Vec::new()),
        }
    }

    /// Appends `value`; `Err` names what it holds when its class does not fit.
    fn push(&mut self, value: ValueRef<'_>) -> Result<(), String> {
        match (self, value) {
            (Values::Integer(v), ValueRef::Null) => v.push(None),
            (Values::Real(v), ValueRef::Null) => v.push(None),
            (Values::Text(v), ValueRef::Null) => v.push(None),
            (Values::Blob(v), ValueRef::Null) => v.push(None),
            (Values::Integer(v), ValueRef::Integer(i)) => v.push(Some(i)),
            (Values::Real(v), ValueRef::Real(x)) => v.push(Some(x)),
            // REAL affinity keeps an integral value as an integer on disk when it fits.
            (Values::Real(v), ValueRef::Integer(i)) => v.push(Some(i as f64)),
            (Values::Text(v), ValueRef::Text(t)) => v.push(Some(
                std::str::from_utf8(t).map_err(|e| format!("holds text that is not UTF-8 ({e})"))?.to_owned(),
            )),
            (Values::Blob(v), ValueRef::Blob(b)) => v.push(Some(b.to_vec())),
            (_, other) => return Err(format!("holds a value of type {:?}", other.data_type())),
        }
        Ok(())
    }

    /// The values as a column named `name`; `self` is left empty.
    fn take(&mut self, name: &str) -> Column {
        let name = PlSmallStr::from(name);
        match self {
            Values::Integer(v) => Column::new(name, std::mem::take(v)),
            Values::Real(v) => Column::new(name, std::mem::take(v)),
            Values::Text(v) => Column::new(name, std::mem::take(v)),
            Values::Blob(v) => Column::new(name, std::mem::take(v)),
        }
    }
}

/// `.NAME.part` beside `out`: where the files are written first.
fn partial_dir(out: &Path) -> anyhow::Result<PathBuf> {
    let name = out.file_name().with_context(|| format!("{}: not a directory name", out.display()))?;
    let mut part = std::ffi::OsString::from(".");
    part.push(name);
    part.push(".part");
    Ok(out.with_file_name(part))
}

/// Exports the store at `db` into the directory `out` (see the module contract).
pub fn export(groups: &[&'static PointTables], db: &Path, out: &Path, replace: bool) -> anyhow::Result<Exported> {
    let conn = open_read_only(db)?;
    let is_store: bool = conn
        .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'experiments'", [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n > 0)
        .with_context(|| format!("{}: reading its tables", db.display()))?;
    if !is_store {
        bail!("{}: not a slasim store (it has no `experiments` table)", db.display());
    }
    if out.exists() && !replace {
        bail!("{}: already exists (give --force to replace it)", out.display());
    }
    let part = partial_dir(out)?;
    if part.exists() {
        std::fs::remove_dir_all(&part).with_context(|| format!("removing the leftover {}", part.display()))?;
    }
    std::fs::create_dir_all(&part).with_context(|| format!("creating {}", part.display()))?;
    let written = write_all(groups, &conn, db, &part);
    let exported = match written {
        Ok(exported) => exported,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&part);
            return Err(e);
        }
    };
    if out.exists() {
        std::fs::remove_dir_all(out).with_context(|| format!("removing the old {}", out.display()))?;
    }
    std::fs::rename(&part, out).with_context(|| format!("renaming {} to {}", part.display(), out.display()))?;
    Ok(exported)
}

fn write_all(groups: &[&'static PointTables], conn: &Connection, db: &Path, dir: &Path) -> anyhow::Result<Exported> {
    let sql_err = |what: String| move |e: rusqlite::Error| anyhow::anyhow!("{}: {what}: {e}", db.display());
    let names: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(sql_err("listing its tables".into()))?;
    let mut tables = Vec::with_capacity(names.len() + 1);
    // The store's own `provenance` table is the core of `provenance.parquet`,
    // which adds each point's experiments and settings (and covers the points
    // stored before it): one file, one name.
    for name in names.iter().filter(|n| n.as_str() != PROVENANCE.name) {
        let columns: Vec<(String, Kind)> = conn
            .prepare(&format!("SELECT name, type FROM pragma_table_info('{}') ORDER BY cid", name.replace('\'', "''")))
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get::<_, String>(0)?, Kind::of(&r.get::<_, String>(1)?))))?.collect()
            })
            .map_err(sql_err(format!("reading the columns of {name}")))?;
        let select = format!(
            "SELECT {} FROM \"{}\"",
            columns.iter().map(|(c, _)| format!("\"{}\"", c.replace('"', "\"\""))).collect::<Vec<_>>().join(", "),
            name.replace('"', "\"\"")
        );
        let rows = write_table(conn, db, name, &columns, &select, &dir.join(format!("{name}.parquet")))?;
        tables.push((name.clone(), rows));
    }
    let rows = write_provenance(groups, conn, db, &dir.join(format!("{}.parquet", PROVENANCE.name)))?;
    tables.push((PROVENANCE.name.to_string(), rows));
    Ok(Exported { tables })
}

/// Writes the rows of `select` (columns `columns`) to `path`; returns how many.
fn write_table(
    conn: &Connection,
    db: &Path,
    table: &str,
    columns: &[(String, Kind)],
    select: &str,
    path: &Path,
) -> anyhow::Result<u64> {
    let at = |e: rusqlite::Error| anyhow::anyhow!("{}: reading table {table}: {e}", db.display());
    let mut statement = conn.prepare(select).map_err(at)?;
    let mut rows = statement.query([]).map_err(at)?;
    let mut values: Vec<Values> = columns.iter().map(|&(_, kind)| Values::new(kind)).collect();
    let schema = Schema::from_iter(columns.iter().map(|(name, kind)| Field::new(name.as_str().into(), kind.dtype())));
    let writing = |e: PolarsError| anyhow::anyhow!("writing {}: {e}", path.display());
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut writer = ParquetWriter::new(BufWriter::new(file)).batched(&schema).map_err(writing)?;
    let (mut count, mut batch) = (0u64, 0usize);
    let mut flush = |values: &mut [Values], batch: usize| -> anyhow::Result<()> {
        let columns: Vec<Column> = values.iter_mut().zip(columns).map(|(v, (name, _))| v.take(name)).collect();
        let frame = DataFrame::new(batch, columns).map_err(writing)?;
        writer.write_batch(&frame).map_err(writing)
    };
    while let Some(row) = rows.next().map_err(at)? {
        for (i, (v, (name, _))) in values.iter_mut().zip(columns).enumerate() {
            let value = row.get_ref(i).map_err(at)?;
            v.push(value).map_err(|why| {
                anyhow::anyhow!("{}: table {table}, column {name}, row {}: {why}", db.display(), count + 1)
            })?;
        }
        count += 1;
        batch += 1;
        if batch == BATCH_ROWS {
            flush(&mut values, batch)?;
            batch = 0;
        }
    }
    // An empty table still gets its columns.
    if batch > 0 || count == 0 {
        flush(&mut values, batch)?;
    }
    writer.finish().map_err(writing)?;
    Ok(count)
}

/// The provenance rows of every group that gives them.
fn write_provenance(groups: &[&'static PointTables], conn: &Connection, db: &Path, path: &Path) -> anyhow::Result<u64> {
    let mut experiments: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    // A point in two sweeps of one experiment has a row per sweep.
    conn.prepare("SELECT DISTINCT run_id, experiment FROM experiment_points ORDER BY run_id, experiment")
        .and_then(|mut s| {
            let mut rows = s.query([])?;
            while let Some(r) = rows.next()? {
                experiments.entry(r.get(0)?).or_default().push(r.get(1)?);
            }
            Ok(())
        })
        .map_err(|e| anyhow::anyhow!("{}: reading experiment_points: {e}", db.display()))?;
    let mut traces: HashMap<String, Option<String>> = HashMap::new();
    let mut sha_of = |names: &str| -> anyhow::Result<Option<String>> {
        trace_sha256(names, &mut traces).map_err(|(file, e)| anyhow::anyhow!("reading the trace {file}: {e}"))
    };
    // The rows stored with the points (schema 13 on): their trace sums are
    // of the files as read then.
    let mut recorded: HashMap<i64, (Option<String>, Option<String>)> = HashMap::new();
    let stored = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'provenance')",
            [],
            |r| r.get::<_, bool>(0),
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", db.display()))?;
    if stored {
        conn.prepare("SELECT point, config_sha256, trace_sha256 FROM provenance")
            .and_then(|mut s| {
                let mut rows = s.query([])?;
                while let Some(r) = rows.next()? {
                    recorded.insert(r.get(0)?, (r.get(1)?, r.get(2)?));
                }
                Ok(())
            })
            .map_err(|e| anyhow::anyhow!("{}: reading provenance: {e}", db.display()))?;
    }
    let mut points: Vec<i64> = Vec::new();
    let mut texts: [Vec<Option<String>>; 7] = Default::default();
    let mut seeds: Vec<Option<i64>> = Vec::new();
    let mut count = 0u64;
    let have: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| anyhow::anyhow!("{}: listing its tables: {e}", db.display()))?;
    for group in groups {
        let Some(select) = group.provenance else { continue };
        if !have.iter().any(|t| t == group.key_table) {
            continue;
        }
        let at = |e: rusqlite::Error| {
            anyhow::anyhow!("{}: reading the provenance of {}: {e}", db.display(), group.key_table)
        };
        let mut statement = conn.prepare(&format!("{select} ORDER BY point")).map_err(at)?;
        let mut rows = statement.query([]).map_err(at)?;
        while let Some(row) = rows.next().map_err(at)? {
            let point: i64 = row.get(0).map_err(at)?;
            let trace: Option<String> = row.get(1).map_err(at)?;
            let seed: Option<i64> = row.get(2).map_err(at)?;
            let config: Option<String> = row.get(3).map_err(at)?;
            let version: Option<String> = row.get(4).map_err(at)?;
            let (config_sha, trace_sha) = match recorded.remove(&point) {
                Some(stored) => stored,
                None => {
                    let trace_sha = match &trace {
                        Some(t) => sha_of(t)?,
                        None => None,
                    };
                    (config.as_ref().map(|c| sha256_hex(c.as_bytes())), trace_sha)
                }
            };
            let in_experiments = experiments.get(&point).map(|e| e.join(","));
            let row =
                [Some(group.key_table.to_string()), in_experiments, config, config_sha, version, trace, trace_sha];
            points.push(point);
            for (column, text) in texts.iter_mut().zip(row) {
                column.push(text);
            }
            seeds.push(seed);
            count += 1;
        }
    }
    let names = PROVENANCE_COLUMNS.map(|(name, _)| PlSmallStr::from(name));
    let mut frame_columns = vec![Column::new(names[0].clone(), points)];
    frame_columns.extend(texts.into_iter().zip(&names[1..8]).map(|(v, name)| Column::new(name.clone(), v)));
    frame_columns.push(Column::new(names[8].clone(), seeds));
    let mut frame = DataFrame::new(count as usize, frame_columns).map_err(|e| anyhow::anyhow!("provenance: {e}"))?;
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    ParquetWriter::new(BufWriter::new(file))
        .finish(&mut frame)
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    Ok(count)
}
