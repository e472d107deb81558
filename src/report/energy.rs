//! The energy section of a report: what each strategy's runs drew, next to
//! what they earned.
//!
//! Contract: built from the `energy` rows of the loaded points' runs (summed
//! over a run's clusters); a store without metered runs (or from before the
//! `energy` table) gives no table and no figure.

use std::collections::HashMap;
use std::path::Path;

use polars::prelude::*;

use crate::report::load::{Kind, frame_of, has_table};
use crate::report::plots::{Figure, Panel};
use crate::report::tables::{floats, strs};
use crate::report::{series_per_strategy, slug, values};

const JOULES_PER_KWH: f64 = 3.6e6;

/// One row per metered run of `points`: trace, strategy, gain, kWh and the
/// shares of busy, idle and down node-seconds.
pub fn load_energy(path: &Path, points: &DataFrame) -> anyhow::Result<DataFrame> {
    let empty = || -> anyhow::Result<DataFrame> {
        Ok(df!(
            "trace" => Vec::<String>::new(),
            "strategy" => Vec::<String>::new(),
            "gain" => Vec::<f64>::new(),
            "kwh" => Vec::<f64>::new(),
            "busy" => Vec::<f64>::new(),
            "idle" => Vec::<f64>::new(),
            "down" => Vec::<f64>::new(),
        )?)
    };
    if !has_table(path, "energy")? {
        return empty();
    }
    let sql = "SELECT run_id, sum(joules), sum(idle_node_seconds), sum(busy_node_seconds), sum(down_node_seconds) \
               FROM energy GROUP BY run_id";
    let columns = [
        ("run_id", Kind::Int),
        ("joules", Kind::Real),
        ("idle", Kind::Real),
        ("busy", Kind::Real),
        ("down", Kind::Real),
    ];
    let metered = frame_of(path, sql, &[], &columns)?;
    let ids = metered.column("run_id")?.i64()?.clone();
    let (joules, idle, busy, down) =
        (floats(&metered, "joules")?, floats(&metered, "idle")?, floats(&metered, "busy")?, floats(&metered, "down")?);
    let by_run: HashMap<i64, usize> = ids.iter().enumerate().filter_map(|(i, id)| id.map(|id| (id, i))).collect();
    if by_run.is_empty() {
        return empty();
    }
    let run_ids = points.column("run_id")?.i64()?.clone();
    let (traces, strategies, gains) = (strs(points, "trace")?, strs(points, "strategy")?, floats(points, "gain")?);
    let mut rows: Vec<RunEnergy> = Vec::new();
    for (p, id) in run_ids.iter().enumerate() {
        let Some(&i) = id.and_then(|id| by_run.get(&id)) else { continue };
        let (j, s_idle, s_busy, s_down) =
            (joules[i].unwrap_or(0.0), idle[i].unwrap_or(0.0), busy[i].unwrap_or(0.0), down[i].unwrap_or(0.0));
        let total = (s_idle + s_busy + s_down).max(f64::MIN_POSITIVE);
        rows.push(RunEnergy {
            trace: traces[p].clone(),
            strategy: strategies[p].clone(),
            gain: gains[p].unwrap_or(0.0),
            kwh: j / JOULES_PER_KWH,
            busy: 100.0 * s_busy / total,
            idle: 100.0 * s_idle / total,
            down: 100.0 * s_down / total,
        });
    }
    Ok(df!(
        "trace" => rows.iter().map(|r| r.trace.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|r| r.strategy.clone()).collect::<Vec<_>>(),
        "gain" => rows.iter().map(|r| r.gain).collect::<Vec<_>>(),
        "kwh" => rows.iter().map(|r| r.kwh).collect::<Vec<_>>(),
        "busy" => rows.iter().map(|r| r.busy).collect::<Vec<_>>(),
        "idle" => rows.iter().map(|r| r.idle).collect::<Vec<_>>(),
        "down" => rows.iter().map(|r| r.down).collect::<Vec<_>>(),
    )?)
}

/// One metered run: shares in % of its node-time.
struct RunEnergy {
    trace: String,
    strategy: String,
    gain: f64,
    kwh: f64,
    busy: f64,
    idle: f64,
    down: f64,
}

/// Per trace and strategy: metered runs, mean energy (kWh), mean gain per
/// run, gain per kWh, and the mean shares of busy, idle and down node-time.
pub fn energy_table(runs: &DataFrame) -> PolarsResult<DataFrame> {
    runs.clone()
        .lazy()
        .group_by([col("trace"), col("strategy")])
        .agg([
            len().cast(DataType::Int64).alias("runs"),
            col("kwh").mean().alias("energy_kwh"),
            col("gain").mean(),
            (col("gain").sum() / col("kwh").sum()).alias("gain_per_kwh"),
            col("busy").mean().alias("busy_percent"),
            col("idle").mean().alias("idle_percent"),
            col("down").mean().alias("down_percent"),
        ])
        .sort(["trace", "strategy"], SortMultipleOptions::default())
        .collect()
}

/// Energy against gain, one point per metered run, one series per strategy.
pub fn energy_figures(runs: &DataFrame) -> anyhow::Result<Vec<Figure>> {
    let (traces, kwh, gain) = (strs(runs, "trace")?, values(runs, "kwh")?, values(runs, "gain")?);
    let mut names = traces.clone();
    names.sort();
    names.dedup();
    let mut figures = Vec::new();
    for trace in names {
        let series = series_per_strategy(runs, |i| traces[i] == trace, |i| (kwh[i], gain[i], gain[i], gain[i]), false)?;
        if series.is_empty() {
            continue;
        }
        figures.push(Figure {
            id: format!("energy-vs-gain-{}", slug(&trace)),
            caption: format!("{trace}: energy each metered run drew (kWh) against its gain (VC), per strategy"),
            panels: vec![Panel {
                title: format!("{trace}: energy vs gain"),
                x_label: "energy per run (kWh)".into(),
                y_label: "gain per run (VC)".into(),
                series,
                diagonal: false,
            }],
        });
    }
    Ok(figures)
}
