//! Merging the stores of a sweep's shards.
//!
//! Contract: [`merge`] writes a new store holding every point of its inputs,
//! of every kind — every table of every group it is given
//! ([`crate::store::tables::groups`], in their order, each table as its
//! group says merge copies it) — each point once, with the experiments that
//! name them. Inputs of different
//! experiments, of another schema version, or an existing output are refused
//! before anything is written.

use std::path::{Path, PathBuf};

use crate::store::schema::{SCHEMA_VERSION, user_version};
use crate::store::tables::groups::{CopyRows, PointTables};
use crate::store::{ExperimentId, Store, StoreError, experiments, open_read_only, sqlite};

/// Merges shard stores into a new store at `output`. Refuses stores from
/// different experiments (config hashes), older or newer schemas, and an
/// existing output file. Runs present in several inputs are kept once.
pub fn merge(groups: &[&'static PointTables], inputs: &[PathBuf], output: &Path) -> Result<MergeReport, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    if output.exists() {
        return Err(MergeError::OutputExists { path: output.to_path_buf() });
    }
    let mut reference: Option<(PathBuf, Vec<ExperimentId>)> = None;
    for input in inputs {
        let conn = open_read_only(input)?;
        let version = user_version(&conn).map_err(sqlite(input))?;
        if version != SCHEMA_VERSION {
            return Err(MergeError::Schema { path: input.clone(), found: version });
        }
        let found = experiments(input)?;
        if found.is_empty() {
            return Err(MergeError::NoExperiment { path: input.clone() });
        }
        match &reference {
            None => reference = Some((input.clone(), found)),
            Some((first, expected)) if *expected != found => {
                let names = |v: &[ExperimentId]| {
                    v.iter()
                        .map(|(h, n, f)| format!("{n} ({f}, {})", &h[..12.min(h.len())]))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(MergeError::Mismatch {
                    first: first.clone(),
                    first_experiments: names(expected),
                    other: input.clone(),
                    other_experiments: names(&found),
                });
            }
            Some(_) => {}
        }
    }
    let mut store = Store::open(output, groups)?;
    let err = sqlite(output);
    let mut report = MergeReport::default();
    let count = |store: &Store| -> Result<i64, StoreError> {
        // A point in two groups' key tables (a Grid run is a run too)
        // counts once.
        let sql = groups.iter().map(|g| format!("SELECT {} FROM {}", g.key, g.key_table)).collect::<Vec<_>>();
        let sql = format!("SELECT count(*) FROM ({})", sql.join(" UNION "));
        store.conn.query_row(&sql, [], |r| r.get(0)).map_err(sqlite(output))
    };
    for input in inputs {
        let before = count(&store)?;
        store.conn.execute("ATTACH DATABASE ? AS src", [input.to_string_lossy()]).map_err(&err)?;
        let tx = store.conn.transaction().map_err(&err)?;
        // A registered kind's tables are missing from a store written without it.
        let mut present = Vec::new();
        for group in groups {
            let exists: bool = tx
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND name = :table)",
                    rusqlite::named_params! { ":table": group.key_table },
                    |r| r.get(0),
                )
                .map_err(&err)?;
            if exists {
                present.push(*group);
            }
        }
        tx.execute_batch(&copy_script(&present)).map_err(&err)?;
        tx.commit().map_err(&err)?;
        store.conn.execute("DETACH DATABASE src", []).map_err(&err)?;
        let after = count(&store)?;
        report.runs += (after - before) as usize;
        report.inputs += 1;
    }
    Ok(report)
}

/// The script copying the attached store `src` into `main`: the
/// experiments, then each group's new points, table by table (and the rows
/// they share).
fn copy_script(groups: &[&PointTables]) -> String {
    let mut sql = String::from(
        "INSERT OR IGNORE INTO main.experiments SELECT * FROM src.experiments;
         INSERT OR IGNORE INTO main.experiment_points SELECT * FROM src.experiment_points;
         INSERT OR IGNORE INTO main.provenance SELECT * FROM src.provenance;\n",
    );
    for group in groups {
        let (key, table) = (group.key, group.key_table);
        sql.push_str(&format!(
            "CREATE TEMP TABLE new_points AS SELECT {key} FROM src.{table} \
             WHERE {key} NOT IN (SELECT {key} FROM main.{table});\n"
        ));
        for t in group.tables {
            let name = t.name;
            sql.push_str(&match t.copy {
                CopyRows::All => format!(
                    "INSERT INTO main.{name} SELECT * FROM src.{name} WHERE {key} IN (SELECT {key} FROM new_points);\n"
                ),
                CopyRows::New => format!(
                    "INSERT OR IGNORE INTO main.{name} SELECT * FROM src.{name} \
                     WHERE {key} IN (SELECT {key} FROM new_points);\n"
                ),
                CopyRows::Shared => format!("INSERT OR IGNORE INTO main.{name} SELECT * FROM src.{name};\n"),
            });
        }
        sql.push_str("DROP TABLE temp.new_points;\n");
    }
    sql
}

/// What a merge did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Stores merged.
    pub inputs: usize,
    /// Points copied, of every kind (duplicates counted once).
    pub runs: usize,
}

/// Why a merge was refused.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no input stores given")]
    NoInputs,
    /// The output exists.
    #[error("{path}: already exists; merge writes a new store", path = .path.display())]
    OutputExists { path: PathBuf },
    /// A store with another schema version.
    #[error("{path}: schema version {found}, this slasim writes {SCHEMA_VERSION}; re-run its sweep or use the matching slasim", path = .path.display())]
    Schema { path: PathBuf, found: i64 },
    /// A store not written by `slasim sweep`.
    #[error("{path}: holds no experiment (was it written by `slasim sweep`?)", path = .path.display())]
    NoExperiment { path: PathBuf },
    /// Stores of different experiments.
    #[error(
        "refusing to merge stores of different configs: {first} holds {first_experiments}, \
         {other} holds {other_experiments}", first = .first.display(), other = .other.display()
    )]
    Mismatch { first: PathBuf, first_experiments: String, other: PathBuf, other_experiments: String },
    /// A store error.
    #[error(transparent)]
    Store(#[from] StoreError),
}
