//! The carbon section of a report: what each strategy's runs emitted and
//! cost over the aligned grid signals, next to their energy.
//!
//! Contract: built from the `run_carbon` rows of the loaded points' runs
//! (summed over a run's clusters), each with its shifting policy from
//! `run_shifting` (`none` without one; the forecast in brackets unless it
//! is the oracle); a store without them (no `[signals]` run, or written
//! before the table) gives no table. Rows are sorted and
//! every number is a mean over runs: the same store gives the same bytes.

use std::collections::HashMap;
use std::path::Path;

use polars::prelude::*;

use slasim_core::report::load::{Kind, frame_of, has_table};
use slasim_core::report::tables::{floats, strs};

/// A run's trace, strategy, shifting, region, currency, kWh, kgCO2eq, cost and renewable %.
type RunRow = (String, String, String, String, String, f64, Option<f64>, Option<f64>, Option<f64>);

/// One row per run of `points` with a `run_carbon` row: trace, strategy,
/// shifting, region, currency, kWh, kgCO2eq, cost and renewable share (NULL where the
/// run had no such signal).
pub fn load_carbon(path: &Path, points: &DataFrame) -> anyhow::Result<DataFrame> {
    let mut rows: Vec<RunRow> = Vec::new();
    if has_table(path, "run_carbon")? {
        // Sums of NULLs stay NULL: a run without a signal has no figure.
        let shifting = if has_table(path, "run_shifting")? {
            "(SELECT s.policy || CASE WHEN s.forecast = 'oracle' THEN '' ELSE ' (' || s.forecast || ')' END \
             FROM run_shifting s WHERE s.run_id = c.run_id)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT c.run_id, coalesce({shifting}, 'none'), coalesce(max(region), '-'), coalesce(max(currency), '-'), \
             sum(kwh), sum(kg_co2), sum(cost), sum(renewable_kwh) / sum(kwh) FROM run_carbon c GROUP BY c.run_id"
        );
        let columns = [
            ("run_id", Kind::Int),
            ("shifting", Kind::Text),
            ("region", Kind::Text),
            ("currency", Kind::Text),
            ("kwh", Kind::Real),
            ("kg_co2", Kind::Real),
            ("cost", Kind::Real),
            ("renewable", Kind::Real),
        ];
        let runs = frame_of(path, &sql, &[], &columns)?;
        let ids = runs.column("run_id")?.i64()?.clone();
        let (shiftings, regions, currencies) =
            (strs(&runs, "shifting")?, strs(&runs, "region")?, strs(&runs, "currency")?);
        let (kwh, kg, cost, renewable) =
            (floats(&runs, "kwh")?, floats(&runs, "kg_co2")?, floats(&runs, "cost")?, floats(&runs, "renewable")?);
        let by_run: HashMap<i64, usize> = ids.iter().enumerate().filter_map(|(i, id)| id.map(|id| (id, i))).collect();
        let run_ids = points.column("run_id")?.i64()?.clone();
        let (traces, strategies) = (strs(points, "trace")?, strs(points, "strategy")?);
        for (p, id) in run_ids.iter().enumerate() {
            let Some(&i) = id.and_then(|id| by_run.get(&id)) else { continue };
            rows.push((
                traces[p].clone(),
                strategies[p].clone(),
                shiftings[i].clone(),
                regions[i].clone(),
                currencies[i].clone(),
                kwh[i].unwrap_or(0.0),
                kg[i],
                cost[i],
                renewable[i].map(|r| 100.0 * r),
            ));
        }
    }
    Ok(df!(
        "trace" => rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>(),
        "shifting" => rows.iter().map(|r| r.2.clone()).collect::<Vec<_>>(),
        "region" => rows.iter().map(|r| r.3.clone()).collect::<Vec<_>>(),
        "currency" => rows.iter().map(|r| r.4.clone()).collect::<Vec<_>>(),
        "kwh" => rows.iter().map(|r| r.5).collect::<Vec<_>>(),
        "kg_co2" => rows.iter().map(|r| r.6).collect::<Vec<_>>(),
        "cost" => rows.iter().map(|r| r.7).collect::<Vec<_>>(),
        "renewable" => rows.iter().map(|r| r.8).collect::<Vec<_>>(),
    )?)
}

/// Per trace, strategy, shifting, region and currency: runs, and the mean per run of
/// energy (kWh), emissions (kgCO2eq), cost and renewable share (%), and the
/// mean intensity (gCO2eq/kWh) its energy was drawn at.
pub fn carbon_table(runs: &DataFrame) -> PolarsResult<DataFrame> {
    runs.clone()
        .lazy()
        .group_by([col("trace"), col("strategy"), col("shifting"), col("region"), col("currency")])
        .agg([
            len().cast(DataType::Int64).alias("runs"),
            col("kwh").mean().alias("energy_kwh"),
            col("kg_co2").mean(),
            (lit(1000.0) * col("kg_co2").sum() / col("kwh").sum()).alias("g_co2_per_kwh"),
            col("cost").mean(),
            col("renewable").mean().alias("renewable_percent"),
        ])
        .sort(["trace", "strategy", "shifting", "region", "currency"], SortMultipleOptions::default())
        .collect()
}
