//! Loading the single-cluster points of a store into Polars frames.
//!
//! Contract: the store is opened read-only. [`load_points`] returns the
//! `points` table (optionally only one experiment's points, or one trace's) as
//! a DataFrame; [`load_calibration`] returns the predicted PoF and the fate of
//! the accepted overbooked jobs, summed per run and PoF bin in SQL, so memory
//! stays bounded by runs, not jobs. A store that is empty, lacks a table or a
//! column (an older schema), or has no points for the filter, is an error
//! that says so ([`LoadError::Empty`], [`LoadError::Schema`]); nothing here
//! panics on a store's contents.

use std::path::Path;

use polars::prelude::*;

use crate::report::tables::{BIN, LAST_BIN};
use crate::tables::points::POINTS;
use slasim_core::report::load::{Filter, Kind, LoadError, columns_of, frame, kind_of, label_traces_of, open, require};

/// The `points` of a store (as filtered), one row per point; traces by label.
pub fn load_points(path: &Path, filter: &Filter) -> Result<DataFrame, LoadError> {
    let conn = open(path)?;
    // The columns every store has; those added later read as their default
    // in a store from before them.
    let base: Vec<&str> = POINTS.columns.iter().filter(|c| c.since == 0).map(|c| c.name).collect();
    require(&conn, path, "points", &base)?;
    let have = columns_of(&conn, "points")
        .map_err(|e| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() })?;
    let select = POINTS
        .columns
        .iter()
        .map(|c| {
            if have.iter().any(|h| h == c.name) {
                format!("p.{}", c.name)
            } else {
                format!("{} AS {}", c.default.unwrap_or("NULL"), c.name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut columns: Vec<(&str, Kind)> = POINTS.columns.iter().map(|c| (c.name, kind_of(c.sql_type))).collect();
    columns.push(("sweep", Kind::Text));
    let (sql, params): (String, Vec<String>) = match &filter.experiment {
        Some((hash, _)) => {
            require(&conn, path, "experiment_points", &["experiment", "run_id", "sweep"])?;
            (
                format!(
                    "SELECT {select}, (SELECT min(e.sweep) FROM experiment_points e \
                     WHERE e.run_id = p.run_id AND e.experiment = :experiment) AS sweep FROM points p \
                     WHERE p.run_id IN (SELECT run_id FROM experiment_points WHERE experiment = :experiment) ORDER BY p.run_id"
                ),
                vec![hash.clone()],
            )
        }
        None => (format!("SELECT {select}, '' FROM points p ORDER BY p.run_id"), Vec::new()),
    };
    let bound: Vec<&dyn rusqlite::ToSql> = params.iter().map(|p| p as &dyn rusqlite::ToSql).collect();
    let mut df = frame(&conn, path, &sql, &bound, &columns)?;
    label_traces_of(&mut df).map_err(|source| LoadError::Polars { path: path.to_path_buf(), source })?;
    if df.height() == 0 {
        let what = match &filter.experiment {
            Some((_, name)) => format!("holds no points of experiment `{name}` (run its sweep first)"),
            None => "holds no points (run `slasim sweep` or `slasim run` into it first)".to_string(),
        };
        return Err(LoadError::Empty { path: path.to_path_buf(), what });
    }
    match &filter.trace {
        None => Ok(df),
        Some(trace) => {
            let polars = |source| LoadError::Polars { path: path.to_path_buf(), source };
            let traces = df.column("trace").map_err(polars)?.str().map_err(polars)?.clone();
            let mask: BooleanChunked = traces.iter().map(|t| t.is_some_and(|t| t.contains(trace.as_str()))).collect();
            let out = df.filter(&mask).map_err(polars)?;
            if out.height() == 0 {
                let mut known: Vec<String> = df
                    .column("trace")
                    .map_err(polars)?
                    .str()
                    .map_err(polars)?
                    .iter()
                    .flatten()
                    .map(str::to_string)
                    .collect();
                known.sort();
                known.dedup();
                return Err(LoadError::Empty {
                    path: path.to_path_buf(),
                    what: format!("holds no points for trace `{trace}`; its traces: {}", known.join(", ")),
                });
            }
            Ok(out)
        }
    }
}

/// The calibration data of the loaded points' accepted overbooked jobs,
/// summed in SQL per run and PoF bin (so a report of millions of jobs holds
/// one row per run and bin): strategy, trace, PDF source, bin (its lower
/// edge), jobs, failures, Σ predicted PoF and Σ (PoF − failed)².
pub fn load_calibration(path: &Path, points: &DataFrame) -> Result<DataFrame, LoadError> {
    let conn = open(path)?;
    require(&conn, path, "job_outcomes", &["run_id", "accepted", "overbooked", "pof", "outcome"])?;
    let polars = |source| LoadError::Polars { path: path.to_path_buf(), source };
    let ids: Vec<i64> = points.column("run_id").map_err(polars)?.i64().map_err(polars)?.iter().flatten().collect();
    let wanted: std::collections::HashSet<i64> = ids.into_iter().collect();
    // PoF ≥ 0, so the integer cast floors; PoF = 1 joins the last bin. A
    // calibrated point (v7) shows twice, its raw and its calibrated
    // predictions, as "strategy [isotonic, raw]" and "[isotonic, calibrated]".
    let calibrated = columns_of(&conn, "job_outcomes")
        .map_err(|e| LoadError::Sqlite { path: path.to_path_buf(), message: e.to_string() })?
        .iter()
        .any(|c| c == "pof_calibrated");
    let select = |pof: &str, label: &str| {
        format!(
            "SELECT o.run_id, {label}, p.trace, p.pdf_source, min(CAST({pof} / {bin} AS INTEGER), {last}) * {bin}, \
             count(*), sum(o.outcome = 2), sum({pof}), sum(({pof} - (o.outcome = 2)) * ({pof} - (o.outcome = 2))) \
             FROM job_outcomes o JOIN points p ON p.run_id = o.run_id \
             WHERE o.accepted = 1 AND o.overbooked = 1 AND {pof} IS NOT NULL \
             GROUP BY o.run_id, min(CAST({pof} / {bin} AS INTEGER), {last})",
            bin = BIN,
            last = LAST_BIN,
        )
    };
    let sql = if calibrated {
        format!(
            "{} UNION ALL {}",
            select(
                "o.pof",
                "p.strategy || CASE p.calibration WHEN 'none' THEN '' ELSE ' [' || p.calibration || ', raw]' END"
            ),
            select("o.pof_calibrated", "p.strategy || ' [' || p.calibration || ', calibrated]'")
        )
    } else {
        select("o.pof", "p.strategy")
    };
    let df = frame(
        &conn,
        path,
        &sql,
        &[],
        &[
            ("run_id", Kind::Int),
            ("strategy", Kind::Text),
            ("trace", Kind::Text),
            ("pdf_source", Kind::Text),
            ("bin", Kind::Real),
            ("jobs", Kind::Int),
            ("failures", Kind::Int),
            ("pof_sum", Kind::Real),
            ("square_sum", Kind::Real),
        ],
    )?;
    let keep: BooleanChunked = df
        .column("run_id")
        .map_err(polars)?
        .i64()
        .map_err(polars)?
        .iter()
        .map(|id| id.is_some_and(|id| wanted.contains(&id)))
        .collect();
    let mut df = df.filter(&keep).map_err(polars)?;
    label_traces_of(&mut df).map_err(polars)?;
    Ok(df)
}
