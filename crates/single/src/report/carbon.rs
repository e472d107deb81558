//! The carbon section of a report: what each strategy's runs emitted and
//! cost over the aligned grid signals, next to their energy.
//!
//! Contract: built from the `run_carbon` rows of the loaded points' runs
//! (summed over a run's clusters), each with its shifting policy from
//! `run_shifting` (`none` without one; the forecast in brackets unless it
//! is the oracle); a store without them (no `[signals]` run, or written
//! before the table) gives no table. Rows are sorted and
//! every number is a mean over runs: the same store gives the same bytes.
//!
//! Shifting against none ([`shifting_table`], [`shifting_figures`]): a run
//! with a shifting policy is paired with the run of policy `none` that
//! differs from it in nothing else (trace, strategy, region, battery and
//! every other stored setting of its point); the differences are averaged
//! over the pairs, each with the half-width of its 95 % Student-t interval.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use polars::prelude::*;

use slasim_core::report::load::{Kind, frame_of, has_column, has_table};
use slasim_core::report::plots::{Figure, MARKERS, Palette, Panel, Series, TimeUnit};
use slasim_core::report::render::slug;
use slasim_core::report::summary::{MeanCi, mean_ci};
use slasim_core::report::tables::{floats, strs};

/// A run's trace, strategy, shifting, region, currency, kWh, kgCO2eq, cost and renewable %.
type RunRow = (String, String, String, String, String, f64, Option<f64>, Option<f64>, Option<f64>);

/// The settings of a point besides its trace, strategy, battery and
/// shifting that a shifted run must share with its unshifted pair.
const PAIRED_ON: [&str; 9] = [
    "seed",
    "placement",
    "pof_max",
    "penalty_ratio",
    "pdf_source",
    "failures",
    "energy_policy",
    "idle_timeout",
    "power_cap",
];

/// The point outcomes a shifted run is compared on.
const OUTCOMES: [&str; 3] = ["penalties", "rejected", "wait_mean"];

/// One row per run of `points` with a `run_carbon` row: trace, strategy,
/// shifting, region, currency, kWh, kgCO2eq, cost and renewable share (NULL where the
/// run had no such signal), then its battery, the paired settings ([`PAIRED_ON`],
/// joined) and its [`OUTCOMES`].
pub fn load_carbon(path: &Path, points: &DataFrame) -> anyhow::Result<DataFrame> {
    let mut rows: Vec<RunRow> = Vec::new();
    let (mut battery, mut setting) = (Vec::<i64>::new(), Vec::<String>::new());
    let mut own: Vec<Option<f64>> = Vec::new();
    let mut outcomes: Vec<(&str, Vec<Option<f64>>)> = OUTCOMES.iter().map(|c| (*c, Vec::new())).collect();
    if has_table(path, "run_carbon")? {
        // Sums of NULLs stay NULL: a run without a signal has no figure.
        let shifting = if has_table(path, "run_shifting")? {
            "(SELECT s.policy || CASE WHEN s.forecast = 'oracle' THEN '' ELSE ' (' || s.forecast || ')' END \
             FROM run_shifting s WHERE s.run_id = c.run_id)"
        } else {
            "NULL"
        };
        // A store written before the jobs' own figures has none.
        let own_sum = if has_column(path, "run_carbon", "own_kg_co2")? { "sum(own_kg_co2)" } else { "NULL" };
        let sql = format!(
            "SELECT c.run_id, coalesce({shifting}, 'none'), coalesce(max(region), '-'), coalesce(max(currency), '-'), \
             sum(kwh), sum(kg_co2), sum(cost), sum(renewable_kwh) / sum(kwh), {own_sum} \
             FROM run_carbon c GROUP BY c.run_id"
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
            ("own_kg_co2", Kind::Real),
        ];
        let runs = frame_of(path, &sql, &[], &columns)?;
        let ids = runs.column("run_id")?.i64()?.clone();
        let (shiftings, regions, currencies) =
            (strs(&runs, "shifting")?, strs(&runs, "region")?, strs(&runs, "currency")?);
        let (kwh, kg, cost, renewable) =
            (floats(&runs, "kwh")?, floats(&runs, "kg_co2")?, floats(&runs, "cost")?, floats(&runs, "renewable")?);
        let own_kg = floats(&runs, "own_kg_co2")?;
        let by_run: HashMap<i64, usize> = ids.iter().enumerate().filter_map(|(i, id)| id.map(|id| (id, i))).collect();
        let run_ids = points.column("run_id")?.i64()?.clone();
        let (traces, strategies) = (strs(points, "trace")?, strs(points, "strategy")?);
        let batteries = points.column("battery")?.cast(&DataType::Int64)?.i64()?.clone();
        let paired: Vec<Vec<String>> = PAIRED_ON
            .iter()
            .filter(|c| points.column(c).is_ok())
            .map(|c| Ok(points.column(c)?.as_materialized_series().iter().map(|v| v.to_string()).collect()))
            .collect::<PolarsResult<_>>()?;
        let measured: Vec<Vec<Option<f64>>> =
            OUTCOMES.iter().map(|c| floats(points, c)).collect::<PolarsResult<_>>()?;
        for (p, id) in run_ids.iter().enumerate() {
            let Some(&i) = id.and_then(|id| by_run.get(&id)) else { continue };
            battery.push(batteries.get(p).unwrap_or(0));
            own.push(own_kg[i]);
            setting.push(paired.iter().map(|c| c[p].as_str()).collect::<Vec<_>>().join("|"));
            for (k, values) in measured.iter().enumerate() {
                outcomes[k].1.push(values[p]);
            }
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
    let mut runs = df!(
        "trace" => rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>(),
        "shifting" => rows.iter().map(|r| r.2.clone()).collect::<Vec<_>>(),
        "region" => rows.iter().map(|r| r.3.clone()).collect::<Vec<_>>(),
        "currency" => rows.iter().map(|r| r.4.clone()).collect::<Vec<_>>(),
        "kwh" => rows.iter().map(|r| r.5).collect::<Vec<_>>(),
        "kg_co2" => rows.iter().map(|r| r.6).collect::<Vec<_>>(),
        "cost" => rows.iter().map(|r| r.7).collect::<Vec<_>>(),
        "renewable" => rows.iter().map(|r| r.8).collect::<Vec<_>>(),
    )?;
    runs.with_column(Column::new("own_kg_co2".into(), own))?;
    runs.with_column(Column::new("battery".into(), battery))?;
    runs.with_column(Column::new("setting".into(), setting))?;
    for (name, values) in outcomes {
        runs.with_column(Column::new(name.into(), values))?;
    }
    Ok(runs)
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

/// One shifting policy's pairs: per pair, its saving against `none`.
#[derive(Default)]
struct Pairs {
    kg_saved: Vec<f64>,
    own_saved: Vec<f64>,
    cost_saved: Vec<f64>,
    penalty: Vec<f64>,
    rejected: Vec<f64>,
    wait: Vec<f64>,
}

/// Trace, strategy, region and shifting policy.
type PolicyKey = (String, String, String, String);

/// (trace, strategy, region, shifting) → its pairs against `none`, sorted.
fn pairs(runs: &DataFrame) -> PolarsResult<Vec<(PolicyKey, Pairs)>> {
    let (traces, strategies, shiftings, regions) =
        (strs(runs, "trace")?, strs(runs, "strategy")?, strs(runs, "shifting")?, strs(runs, "region")?);
    let (currencies, settings) = (strs(runs, "currency")?, strs(runs, "setting")?);
    let batteries = runs.column("battery")?.i64()?.clone();
    let (kg, cost, own) = (floats(runs, "kg_co2")?, floats(runs, "cost")?, floats(runs, "own_kg_co2")?);
    let (penalties, rejected, wait) =
        (floats(runs, "penalties")?, floats(runs, "rejected")?, floats(runs, "wait_mean")?);
    let key = |i: usize| {
        (&traces[i], &strategies[i], &regions[i], &currencies[i], &settings[i], batteries.get(i).unwrap_or(0))
    };
    let baseline: HashMap<_, usize> =
        (0..runs.height()).filter(|&i| shiftings[i] == "none").map(|i| (key(i), i)).collect();
    let mut out: std::collections::BTreeMap<PolicyKey, Pairs> = Default::default();
    for i in (0..runs.height()).filter(|&i| shiftings[i] != "none") {
        let Some(&b) = baseline.get(&key(i)) else { continue };
        let saved = |v: &[Option<f64>]| match (v[b], v[i]) {
            (Some(base), Some(x)) if base > 0.0 => Some(100.0 * (base - x) / base),
            _ => None,
        };
        let change = |v: &[Option<f64>]| Some(v[i]? - v[b]?);
        let pair = out
            .entry((traces[i].clone(), strategies[i].clone(), regions[i].clone(), shiftings[i].clone()))
            .or_default();
        pair.kg_saved.extend(saved(&kg));
        pair.own_saved.extend(saved(&own));
        pair.cost_saved.extend(saved(&cost));
        pair.penalty.extend(change(&penalties));
        pair.rejected.extend(change(&rejected));
        pair.wait.extend(change(&wait));
    }
    Ok(out.into_iter().collect())
}

/// Per trace, strategy, region and shifting policy other than `none`: the
/// pairs, and over them the mean emissions saved (%: the run's, then the
/// jobs' own), the cost saved (%), the change in
/// SLA penalties (VC), rejected jobs and mean wait (s), each with its 95 %
/// half-width (module docs: the pairing).
pub fn shifting_table(runs: &DataFrame) -> PolarsResult<DataFrame> {
    let rows = pairs(runs)?;
    let mean = |f: fn(&Pairs) -> &Vec<f64>| -> (Vec<Option<f64>>, Vec<Option<f64>>) {
        rows.iter().map(|(_, p)| mean_ci(f(p)).map_or((None, None), |c| (Some(c.mean), Some(c.half)))).unzip()
    };
    let (kg, kg_half) = mean(|p| &p.kg_saved);
    let (own, own_half) = mean(|p| &p.own_saved);
    let (cost, cost_half) = mean(|p| &p.cost_saved);
    let (penalty, penalty_half) = mean(|p| &p.penalty);
    let (wait, wait_half) = mean(|p| &p.wait);
    let (rejected, _) = mean(|p| &p.rejected);
    df!(
        "trace" => rows.iter().map(|(k, _)| k.0.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|(k, _)| k.1.clone()).collect::<Vec<_>>(),
        "region" => rows.iter().map(|(k, _)| k.2.clone()).collect::<Vec<_>>(),
        "shifting" => rows.iter().map(|(k, _)| k.3.clone()).collect::<Vec<_>>(),
        "pairs" => rows.iter().map(|(_, p)| p.kg_saved.len().max(p.wait.len()) as i64).collect::<Vec<_>>(),
        "kg_co2_saved_percent" => kg,
        "kg_co2_saved_half" => kg_half,
        "jobs_kg_co2_saved_percent" => own,
        "jobs_kg_co2_saved_half" => own_half,
        "cost_saved_percent" => cost,
        "cost_saved_half" => cost_half,
        "penalty_change" => penalty,
        "penalty_change_half" => penalty_half,
        "rejected_change" => rejected,
        "wait_change_s" => wait,
        "wait_change_half" => wait_half,
    )
}

/// The points no other point beats on both (higher x, lower y), by x.
fn front(points: &[(f64, f64, f64, f64)]) -> Vec<(f64, f64, f64, f64)> {
    let mut out: Vec<_> = points
        .iter()
        .filter(|p| !points.iter().any(|q| q.0 >= p.0 && q.1 <= p.1 && (q.0 > p.0 || q.1 < p.1)))
        .copied()
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// Per trace: emissions saved (%) against the change in mean wait and in SLA
/// penalties, a point per strategy, shifting policy and region with its
/// interval on the y axis (labelled with its region), and each strategy's
/// Pareto front (more saved, less lost) drawn as a line. A shifting policy
/// has one colour in every figure, a strategy one hollow marker (so points
/// of two strategies on one spot both show), and the legend names each
/// strategy and policy.
pub fn shifting_figures(runs: &DataFrame) -> PolarsResult<Vec<Figure>> {
    let rows = pairs(runs)?;
    let policies = Palette::new(rows.iter().map(|(k, _)| k.3.as_str()));
    let strategies_all = Palette::new(rows.iter().map(|(k, _)| k.1.as_str()));
    // A policy's colour and shape, a strategy's fill (and its front's dashes):
    // two policies on one spot show both shapes; a strategy's hollow marker
    // rings the other's filled one.
    let shape = |policy: &str| MARKERS[policies.colour(policy) % MARKERS.len()];
    let hollow = |strategy: &str| strategies_all.colour(strategy) % 2 == 1;
    let regions = region_tags(rows.iter().map(|(k, _)| k.2.as_str()));
    // Changes in wait come in seconds; the axis takes the unit of their scale.
    let waits = rows.iter().filter_map(|(_, p)| mean_ci(&p.wait)).flat_map(|c| [c.low(), c.high()]);
    let unit = TimeUnit::of(waits.fold(0.0, |m: f64, v| m.max(v.abs())));
    let mut traces: Vec<&str> = rows.iter().map(|(k, _)| k.0.as_str()).collect();
    traces.dedup();
    let mut figures = Vec::new();
    for trace in traces {
        let mine: Vec<_> = rows.iter().filter(|(k, _)| k.0 == trace).collect();
        let mut strategies: Vec<&str> = mine.iter().map(|(k, _)| k.1.as_str()).collect();
        strategies.sort();
        strategies.dedup();
        let mut shiftings: Vec<&str> = mine.iter().map(|(k, _)| k.3.as_str()).collect();
        shiftings.sort();
        shiftings.dedup();
        let panel = |y: fn(&Pairs) -> &Vec<f64>, scale: f64, y_label: String, title: &str| {
            // A point: (x, y, low, high) and its region.
            let point = |p: &Pairs| -> Option<(f64, f64, f64, f64)> {
                let (x, y): (MeanCi, MeanCi) = (mean_ci(&p.kg_saved)?, mean_ci(y(p))?);
                Some((x.mean, y.mean / scale, y.low() / scale, y.high() / scale))
            };
            let mut fronts = Vec::new();
            let mut series = Vec::new();
            for strategy in &strategies {
                let all: Vec<(f64, f64, f64, f64)> =
                    mine.iter().filter(|(k, _)| k.1 == *strategy).filter_map(|(_, p)| point(p)).collect();
                fronts.push(Series {
                    name: format!("{strategy}: Pareto front"),
                    points: front(&all),
                    line: true,
                    line_only: true,
                    colour: FRONT,
                    dashed: hollow(strategy),
                    ..Series::default()
                });
                for shifting in &shiftings {
                    let (points, labels): (Vec<_>, Vec<_>) = mine
                        .iter()
                        .filter(|(k, _)| k.1 == *strategy && k.3 == *shifting)
                        .filter_map(|(k, p)| Some((point(p)?, regions[&k.2].clone())))
                        .unzip();
                    if points.is_empty() {
                        continue;
                    }
                    series.push(Series {
                        name: format!("{strategy} · {shifting}"),
                        points,
                        error_bars: true,
                        colour: policies.colour(shifting),
                        marker: Some(shape(shifting)),
                        hollow: hollow(strategy),
                        labels,
                        ..Series::default()
                    });
                }
            }
            // Fronts first: the points' colours are drawn over them.
            fronts.extend(series);
            Panel {
                title: format!("{trace}: {title}"),
                x_label: "emissions saved (%)".into(),
                y_label,
                series: fronts,
                ..Panel::default()
            }
        };
        figures.push(Figure {
            id: format!("carbon-shifting-{}", slug(trace)),
            caption: format!(
                "{trace}: emissions saved against `none` (%) beside the change in mean wait ({}) and in SLA \
                 penalties (VC); a point per strategy (filled or hollow), shifting policy (colour and shape) and \
                 region (its label: {}) with its 95 % interval, and each strategy's Pareto front; right and low is \
                 better",
                unit.name,
                legend_of(&regions)
            ),
            panels: vec![
                panel(|p| &p.wait, unit.seconds, format!("mean wait change ({})", unit.name), "emissions vs wait"),
                panel(|p| &p.penalty, 1.0, "penalty change (VC)".into(), "emissions vs SLA penalties"),
            ],
        });
    }
    Ok(figures)
}

/// Each region's label beside its points: the shortest leading part of its
/// name (split at `-`) that no other region shares, so labels stay short.
fn region_tags<'a>(regions: impl Iterator<Item = &'a str>) -> BTreeMap<String, String> {
    let mut all: Vec<&str> = regions.collect();
    all.sort();
    all.dedup();
    let prefix = |r: &str, n: usize| r.split('-').take(n).collect::<Vec<_>>().join("-");
    all.iter()
        .map(|r| {
            let parts = r.split('-').count();
            let n = (1..=parts)
                .find(|&n| all.iter().filter(|o| *o != r).all(|o| prefix(o, n) != prefix(r, n)))
                .unwrap_or(parts);
            (r.to_string(), prefix(r, n))
        })
        .collect()
}

/// `DE: DE-LU, US: US-CAL-CISO`: the shortened region labels.
fn legend_of(tags: &BTreeMap<String, String>) -> String {
    tags.iter().map(|(r, t)| if r == t { r.clone() } else { format!("{t}: {r}") }).collect::<Vec<_>>().join(", ")
}

/// The colour of the Pareto fronts: the palette's grey, past the policies'.
const FRONT: usize = 7;
