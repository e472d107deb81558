//! The single-cluster report tables, computed with Polars from the loaded
//! points.
//!
//! Reference: `overbooking-dissertation-spec.md` §9 (Tables 6.1–6.14: maximum
//! gain per strategy with the PoF_max where it is reached and the additional
//! gain over the non-overbooking base; gain per penalty ratio), §6.4 (money).
//!
//! Contract:
//! - [`aggregates`]: per combination of the sweep axes, the number of
//!   batteries and the mean and 95 % Student-t half-width of accepted,
//!   successful, failed, fees, penalties, gain, utilisation and wall time.
//! - A strategy that does not read an axis (see `policy::Reads`) is constant
//!   along it: its one aggregate stands for every value of that axis.
//! - [`pof_table`], [`risk_table`]: the dissertation's two table forms.
//! - [`calibration`]: predicted PoF in bins of 0.05 against the observed
//!   failure rate of overbooked jobs (with Wilson intervals), and the Brier
//!   score per strategy. [`runtime`]: wall time per battery.

use polars::prelude::*;

use crate::policy::{strategy, strategy_infos};
use crate::report::reference;
use crate::stats::calibration::{Z95, wilson_bounds};
use crate::tables::points::{self, POINTS};
use slasim_core::report::summary::{additional_percent, ci_from, t_quantile_975, wilson};
use slasim_core::report::tables::{aggregate_by, floats, strs};
use slasim_core::store::columns::{Part, Section, report_columns};

/// The columns of `points` a report section uses as `part`, by rank (from
/// the descriptors).
fn points_columns(section: Section, part: Part) -> Vec<&'static str> {
    report_columns(&POINTS, section, part)
}

/// The sweep axes a report groups by.
pub fn axes() -> Vec<&'static str> {
    points_columns(points::SUMMARY, Part::Axis)
}

/// The per-point metrics a report averages over batteries.
pub fn metrics() -> Vec<&'static str> {
    points_columns(points::SUMMARY, Part::Metric)
}

/// One aggregate row, for the derived tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Agg {
    /// Axis values.
    pub strategy: String,
    /// Trace name.
    pub trace: String,
    /// PDF source.
    pub pdf_source: String,
    /// `pof` or `risk`.
    pub acceptance: String,
    /// PoF_max.
    pub pof_max: f64,
    /// Penalty ratio.
    pub penalty_ratio: f64,
    /// Batteries averaged.
    pub n: usize,
    /// Mean gain.
    pub gain: f64,
    /// Half-width of the gain's interval.
    pub gain_ci: f64,
    /// Mean successful jobs.
    pub successful: f64,
    /// Half-width.
    pub successful_ci: f64,
    /// Mean failed jobs.
    pub failed: f64,
    /// Half-width.
    pub failed_ci: f64,
}

/// Mean and 95 % interval of every metric per combination of the axes.
pub fn aggregates(points: &DataFrame) -> PolarsResult<DataFrame> {
    aggregate_by(points.clone().lazy(), &axes(), &metrics())
}

/// The aggregate rows the dissertation tables and plots need: those of runs
/// without reservations (the dissertation has none).
pub fn agg_rows(agg: &DataFrame) -> PolarsResult<Vec<Agg>> {
    let agg = &agg.clone().lazy().filter(col("reservation_percent").eq(lit(0.0))).collect()?;
    let (strategy, trace, pdf, acceptance) =
        (strs(agg, "strategy")?, strs(agg, "trace")?, strs(agg, "pdf_source")?, strs(agg, "acceptance")?);
    let (pof, ratio, n) = (floats(agg, "pof_max")?, floats(agg, "penalty_ratio")?, floats(agg, "batteries")?);
    let get = |name: &str| floats(agg, name);
    let (gain, gain_ci) = (get("gain_mean")?, get("gain_ci")?);
    let (succ, succ_ci) = (get("successful_mean")?, get("successful_ci")?);
    let (fail, fail_ci) = (get("failed_mean")?, get("failed_ci")?);
    Ok((0..agg.height())
        .map(|i| Agg {
            strategy: strategy[i].clone(),
            trace: trace[i].clone(),
            pdf_source: pdf[i].clone(),
            acceptance: acceptance[i].clone(),
            pof_max: pof[i].unwrap_or(0.0),
            penalty_ratio: ratio[i].unwrap_or(1.0),
            n: n[i].unwrap_or(0.0) as usize,
            gain: gain[i].unwrap_or(0.0),
            gain_ci: gain_ci[i].unwrap_or(0.0),
            successful: succ[i].unwrap_or(0.0),
            successful_ci: succ_ci[i].unwrap_or(0.0),
            failed: fail[i].unwrap_or(0.0),
            failed_ci: fail_ci[i].unwrap_or(0.0),
        })
        .collect())
}

/// Checks that every strategy the points name is registered in this
/// program. What a strategy reads decides which rows stand for which
/// settings, and the report does not guess it: a store may hold the runs of
/// a strategy that another program registered (report it with that one).
pub fn check_strategies(points: &DataFrame) -> anyhow::Result<()> {
    let names = strs(points, "strategy")?;
    for name in &names {
        strategy(name).map_err(|e| {
            anyhow::anyhow!(
                "the store holds runs of strategy `{name}`, which this program does not register ({e}); \
                 report them with the program that registered it"
            )
        })?;
    }
    Ok(())
}

/// Does `strategy` read the overbooking settings (PoF_max, PDF source)?
/// (Every name the report reads is registered: [`check_strategies`].)
pub fn reads_overbooking(name: &str) -> bool {
    strategy(name).is_ok_and(|s| s.reads.overbooking)
}

/// Does `strategy` read the acceptance test?
pub fn reads_acceptance(name: &str) -> bool {
    strategy(name).is_ok_and(|s| s.reads.acceptance)
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// The row standing for `name` at (trace, pdf source, acceptance, ratio):
/// strategies that do not read an axis have one row for all its values.
pub fn lookup<'a>(rows: &'a [Agg], name: &str, trace: &str, pdf: &str, acceptance: &str, ratio: f64) -> Vec<&'a Agg> {
    let ob = reads_overbooking(name);
    let acc = reads_acceptance(name);
    rows.iter()
        .filter(|r| r.strategy == name && r.trace == trace && same(r.penalty_ratio, ratio))
        .filter(|r| !ob || r.pdf_source == pdf)
        .filter(|r| !acc || r.acceptance == acceptance)
        .collect()
}

/// Traces and, per trace, the PDF sources the overbooking strategies used.
fn groups(rows: &[Agg], acceptance: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = rows
        .iter()
        .filter(|r| reads_overbooking(&r.strategy) && (r.acceptance == acceptance || !reads_acceptance(&r.strategy)))
        .map(|r| (r.trace.clone(), r.pdf_source.clone()))
        .collect();
    if out.is_empty() {
        out = rows.iter().map(|r| (r.trace.clone(), r.pdf_source.clone())).collect();
    }
    out.sort();
    out.dedup();
    out
}

/// Tables 6.1/6.13: per trace and PDF source, each strategy's maximum mean
/// gain under the PoF test (penalty ratio 1), the PoF_max where it is
/// reached, and the additional gain over its non-overbooking base.
pub fn pof_table(rows: &[Agg]) -> PolarsResult<DataFrame> {
    let (mut trace, mut pdf, mut name, mut gain, mut ci, mut at, mut plus, mut n) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (t, p) in groups(rows, "pof") {
        let best = |s: &str| -> Option<&Agg> {
            lookup(rows, s, &t, &p, "pof", 1.0)
                .into_iter()
                .filter(|r| r.acceptance == "pof")
                .max_by(|a, b| a.gain.total_cmp(&b.gain).then(b.pof_max.total_cmp(&a.pof_max)))
        };
        for info in strategy_infos() {
            let Some(row) = best(info.name) else { continue };
            let base = info.base.and_then(&best).map(|b| b.gain);
            trace.push(t.clone());
            pdf.push(p.clone());
            name.push(info.name.to_string());
            gain.push(row.gain);
            ci.push(row.gain_ci);
            at.push(info.reads.overbooking.then_some(row.pof_max));
            plus.push(base.and_then(|b| additional_percent(row.gain, b)));
            n.push(row.n as i64);
        }
    }
    DataFrame::new_infer_height(vec![
        Column::new("trace".into(), trace),
        Column::new("pdf_source".into(), pdf),
        Column::new("strategy".into(), name),
        Column::new("max_gain".into(), gain),
        Column::new("gain_ci".into(), ci),
        Column::new("pof_max".into(), at),
        Column::new("additional_gain_pct".into(), plus),
        Column::new("batteries".into(), n),
    ])
}

/// Tables 6.2/6.14: per trace and PDF source, each strategy's mean gain
/// under the risk test at every penalty ratio, and the additional gain over
/// its base at the same ratio.
pub fn risk_table(rows: &[Agg]) -> PolarsResult<DataFrame> {
    let mut ratios: Vec<f64> = rows.iter().filter(|r| r.acceptance == "risk").map(|r| r.penalty_ratio).collect();
    ratios.sort_by(f64::total_cmp);
    ratios.dedup_by(|a, b| same(*a, *b));
    let (mut trace, mut pdf, mut name, mut ratio_col, mut gain, mut ci, mut plus) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    if !ratios.is_empty() {
        for (t, p) in groups(rows, "risk") {
            for info in strategy_infos().into_iter().filter(|s| !s.reads.overbooking || s.reads.acceptance) {
                for &r in &ratios {
                    let pick = |s: &str| lookup(rows, s, &t, &p, "risk", r).into_iter().next();
                    let Some(row) = pick(info.name) else { continue };
                    let base = info.base.and_then(pick).map(|b| b.gain);
                    trace.push(t.clone());
                    pdf.push(p.clone());
                    name.push(info.name.to_string());
                    ratio_col.push(r);
                    gain.push(row.gain);
                    ci.push(row.gain_ci);
                    plus.push(base.and_then(|b| additional_percent(row.gain, b)));
                }
            }
        }
    }
    DataFrame::new_infer_height(vec![
        Column::new("trace".into(), trace),
        Column::new("pdf_source".into(), pdf),
        Column::new("strategy".into(), name),
        Column::new("penalty_ratio".into(), ratio_col),
        Column::new("gain".into(), gain),
        Column::new("gain_ci".into(), ci),
        Column::new("additional_gain_pct".into(), plus),
    ])
}

/// Width of a calibration bin of predicted PoF.
pub const BIN: f64 = 0.05;

/// Index of the last bin, [0.95, 1].
pub const LAST_BIN: i64 = 19;

/// Bins with at least this many jobs must hold their prediction inside the
/// 95 % Wilson interval of their observed rate (issue 17).
pub const CHECKED_BIN_JOBS: u32 = 30;

/// Calibration of overbooked jobs per trace, PDF source, strategy and PoF
/// bin, and the Brier score per trace, PDF source and strategy, from the
/// per-run sums of [`crate::report::load::load_calibration`].
pub fn calibration(sums: &DataFrame) -> PolarsResult<(DataFrame, DataFrame)> {
    let bins = sums
        .clone()
        .lazy()
        .group_by([col("trace"), col("pdf_source"), col("strategy"), col("bin")])
        .agg([
            col("jobs").sum().alias("jobs"),
            col("failures").sum().alias("failures"),
            (col("pof_sum").sum() / col("jobs").sum().cast(DataType::Float64)).alias("predicted"),
        ])
        .sort(["trace", "pdf_source", "strategy", "bin"], SortMultipleOptions::default())
        .collect()?;
    let jobs_n = floats(&bins, "jobs")?;
    let fails = floats(&bins, "failures")?;
    let predicted = floats(&bins, "predicted")?;
    let (mut observed, mut low, mut high, mut inside) = (vec![], vec![], vec![], vec![]);
    for ((n, f), p) in jobs_n.iter().zip(&fails).zip(&predicted) {
        let (n, f) = (n.unwrap_or(0.0) as u64, f.unwrap_or(0.0) as u64);
        observed.push(if n > 0 { f as f64 / n as f64 } else { 0.0 });
        let (lo, hi) = wilson(f, n).unwrap_or((0.0, 1.0));
        low.push(lo);
        high.push(hi);
        inside.push(p.is_some_and(|p| (lo..=hi).contains(&p)));
    }
    let mut bins = bins;
    bins.with_column(Column::new("observed".into(), observed))?;
    bins.with_column(Column::new("wilson_low".into(), low))?;
    bins.with_column(Column::new("wilson_high".into(), high))?;
    bins.with_column(Column::new("inside".into(), inside))?;
    // Issue 17's check: every bin with enough jobs has its prediction inside its interval.
    let checked = bins
        .clone()
        .lazy()
        .filter(col("jobs").gt_eq(lit(CHECKED_BIN_JOBS)))
        .group_by([col("trace"), col("pdf_source"), col("strategy")])
        .agg([
            col("inside").count().alias("bins_checked"),
            col("inside").cast(DataType::UInt32).sum().alias("bins_inside"),
        ]);
    let brier = sums
        .clone()
        .lazy()
        .group_by([col("trace"), col("pdf_source"), col("strategy")])
        .agg([
            col("jobs").sum().alias("jobs"),
            (col("pof_sum").sum() / col("jobs").sum().cast(DataType::Float64)).alias("predicted"),
            (col("failures").sum().cast(DataType::Float64) / col("jobs").sum().cast(DataType::Float64))
                .alias("observed"),
            (col("square_sum").sum() / col("jobs").sum().cast(DataType::Float64)).alias("brier"),
        ])
        .with_column((col("observed") / col("predicted")).alias("observed_over_predicted"))
        .join(
            checked,
            [col("trace"), col("pdf_source"), col("strategy")],
            [col("trace"), col("pdf_source"), col("strategy")],
            JoinArgs::new(JoinType::Left),
        )
        .with_columns([
            col("bins_checked").fill_null(lit(0u32)).cast(DataType::UInt32),
            col("bins_inside").fill_null(lit(0u32)).cast(DataType::UInt32),
        ])
        .sort(["trace", "pdf_source", "strategy"], SortMultipleOptions::default())
        .collect()?;
    with_clustered_checks(sums, bins, brier)
}

/// A strategy's calibration rows: trace, PDF source, strategy.
type GroupKey = (String, String, String);

/// Per run (battery), its failures and jobs (bins) or its failures and
/// summed prediction (strategies).
type PerRun = std::collections::BTreeMap<i64, (f64, f64)>;

/// The battery-clustered checks (issue 17): overbooked jobs of one battery
/// share its workload, users and node failures, so their outcomes are not
/// independent, and the Wilson interval, which assumes they are, is too
/// narrow. Each bin gets its design effect (the variance of its failures
/// across runs over the binomial variance, at least 1; Kish) and the Wilson
/// interval of its rate over the effective sample jobs / design effect; each
/// strategy gets a 95 % interval of observed / predicted with runs as
/// clusters (the ratio estimator's sandwich variance, Student t with
/// runs − 1 degrees of freedom), and the bins inside the clustered interval.
fn with_clustered_checks(
    sums: &DataFrame,
    mut bins: DataFrame,
    mut brier: DataFrame,
) -> PolarsResult<(DataFrame, DataFrame)> {
    use std::collections::HashMap;
    let (trace, pdf, name) = (strs(sums, "trace")?, strs(sums, "pdf_source")?, strs(sums, "strategy")?);
    let (bin, run) = (floats(sums, "bin")?, sums.column("run_id")?.i64()?.iter().collect::<Vec<_>>());
    let (jobs, fails, pof) = (floats(sums, "jobs")?, floats(sums, "failures")?, floats(sums, "pof_sum")?);
    let mut per_bin: HashMap<(GroupKey, u64), PerRun> = HashMap::new();
    let mut per_group: HashMap<GroupKey, PerRun> = HashMap::new();
    for i in 0..sums.height() {
        let key = (trace[i].clone(), pdf[i].clone(), name[i].clone());
        let (r, n, f, p) =
            (run[i].unwrap_or(0), jobs[i].unwrap_or(0.0), fails[i].unwrap_or(0.0), pof[i].unwrap_or(0.0));
        let b = per_bin.entry((key.clone(), bin[i].unwrap_or(0.0).to_bits())).or_default().entry(r).or_default();
        *b = (b.0 + f, b.1 + n);
        let g = per_group.entry(key).or_default().entry(r).or_default();
        *g = (g.0 + f, g.1 + p);
    }
    // Σ over runs of (f − rate·x)², scaled by runs/(runs − 1); None for one run.
    let spread = |runs: &PerRun, rate: f64| {
        let k = runs.len() as f64;
        (runs.len() > 1).then(|| k / (k - 1.0) * runs.values().map(|&(f, x)| (f - rate * x).powi(2)).sum::<f64>())
    };
    let (b_trace, b_pdf, b_name, b_bin) =
        (strs(&bins, "trace")?, strs(&bins, "pdf_source")?, strs(&bins, "strategy")?, floats(&bins, "bin")?);
    let (b_predicted, b_jobs, b_fails) =
        (floats(&bins, "predicted")?, floats(&bins, "jobs")?, floats(&bins, "failures")?);
    let (mut deff, mut low, mut high, mut inside) = (vec![], vec![], vec![], vec![]);
    let mut inside_by_group: HashMap<GroupKey, u32> = HashMap::new();
    for i in 0..bins.height() {
        let key = (b_trace[i].clone(), b_pdf[i].clone(), b_name[i].clone());
        let runs = per_bin.get(&(key.clone(), b_bin[i].unwrap_or(0.0).to_bits()));
        let (f, n) = (b_fails[i].unwrap_or(0.0), b_jobs[i].unwrap_or(0.0));
        let q = if n > 0.0 { f / n } else { 0.0 };
        let binomial = n * q * (1.0 - q);
        let d = match runs.and_then(|r| spread(r, q)) {
            Some(s) if binomial > 0.0 => (s / binomial).max(1.0),
            _ => 1.0,
        };
        let (lo, hi) = if n > 0.0 { wilson_bounds(q, n / d, Z95) } else { (0.0, 1.0) };
        let ok = b_predicted[i].is_some_and(|p| (lo..=hi).contains(&p));
        if ok && n >= f64::from(CHECKED_BIN_JOBS) {
            *inside_by_group.entry(key).or_default() += 1;
        }
        deff.push(d);
        low.push(lo);
        high.push(hi);
        inside.push(ok);
    }
    bins.with_column(Column::new("design_effect".into(), deff))?;
    bins.with_column(Column::new("clustered_low".into(), low))?;
    bins.with_column(Column::new("clustered_high".into(), high))?;
    bins.with_column(Column::new("inside_clustered".into(), inside))?;
    let (g_trace, g_pdf, g_name) = (strs(&brier, "trace")?, strs(&brier, "pdf_source")?, strs(&brier, "strategy")?);
    let (mut ratio_low, mut ratio_high, mut clusters, mut bins_inside) = (vec![], vec![], vec![], vec![]);
    for i in 0..brier.height() {
        let key = (g_trace[i].clone(), g_pdf[i].clone(), g_name[i].clone());
        let runs = per_group.get(&key);
        let (f, e) = runs.map_or((0.0, 0.0), |r| r.values().fold((0.0, 0.0), |a, &(f, e)| (a.0 + f, a.1 + e)));
        let interval = runs.zip((e > 0.0).then(|| f / e)).and_then(|(r, ratio)| {
            let half = t_quantile_975(r.len() - 1) * spread(r, ratio)?.sqrt() / e;
            Some(((ratio - half).max(0.0), ratio + half))
        });
        ratio_low.push(interval.map(|i| i.0));
        ratio_high.push(interval.map(|i| i.1));
        clusters.push(runs.map_or(0, |r| r.len() as u32));
        bins_inside.push(inside_by_group.get(&key).copied().unwrap_or(0));
    }
    brier.with_column(Column::new("runs".into(), clusters))?;
    brier.with_column(Column::new("ratio_low".into(), ratio_low))?;
    brier.with_column(Column::new("ratio_high".into(), ratio_high))?;
    brier.with_column(Column::new("bins_inside_clustered".into(), bins_inside))?;
    Ok((bins, brier))
}

/// Paper B's table: per trace, strategy, option, start factor, checkpointing
/// and reservation percentage, the mean and 95 % half-width over repetitions
/// of the reservation rejection rate (%), SLDwA, utilisation (%), moved jobs,
/// their mean and maximum delay (s) and the jobs pinned by the starvation
/// guard. Only strategies and traces run with reservations appear (with
/// their 0 % baseline); empty otherwise.
pub fn reservation_table(points: &DataFrame) -> PolarsResult<DataFrame> {
    let with_reservations = points
        .clone()
        .lazy()
        .filter(col("reservation_percent").gt(lit(0.0)).any(true).over([col("trace"), col("strategy")])?);
    let (axes, metrics) =
        (points_columns(points::RESERVATIONS, Part::Axis), points_columns(points::RESERVATIONS, Part::Metric));
    let mut df = aggregate_by(with_reservations, &axes, &metrics)?;
    df.rename("batteries", "repetitions".into())?;
    Ok(df)
}

/// The gain with and without checkpointing: per trace, strategy, PDF source,
/// acceptance test, PoF_max, penalty ratio and reservation percentage that
/// was run both ways, the mean gain of each with its 95 % half-width, the
/// difference and the additional gain in %, and the checkpoints written and
/// resumed jobs that then succeeded (means per run). Empty when no such pair.
pub fn checkpoint_table(points: &DataFrame) -> PolarsResult<DataFrame> {
    // The last axis is `checkpointing`: the others pair a run without it with one with it.
    let axes = points_columns(points::CHECKPOINTS, Part::Axis);
    let keys: Vec<Expr> = axes[..axes.len() - 1].iter().map(|a| col(*a)).collect();
    let paired = points.clone().lazy().filter(col("checkpointing").n_unique().over(keys)?.gt(lit(1)));
    let agg = aggregate_by(paired, &axes, &points_columns(points::CHECKPOINTS, Part::Metric))?;
    let text = |name| strs(&agg, name);
    let num =
        |name| -> PolarsResult<Vec<f64>> { Ok(floats(&agg, name)?.into_iter().map(|v| v.unwrap_or(0.0)).collect()) };
    let (trace, strategy, pdf, acceptance) =
        (text("trace")?, text("strategy")?, text("pdf_source")?, text("acceptance")?);
    let (pof, ratio, percent, on) =
        (num("pof_max")?, num("penalty_ratio")?, num("reservation_percent")?, num("checkpointing")?);
    let (n, gain, gain_ci) = (num("batteries")?, num("gain_mean")?, num("gain_ci")?);
    let (checkpoints, resumed) = (num("checkpoints_mean")?, num("resumed_successful_mean")?);
    // Sorted by the axes with `checkpointing` last: a pair is (off, on).
    let pairs: Vec<usize> = (0..agg.height().saturating_sub(1)).filter(|&i| on[i] == 0.0 && on[i + 1] == 1.0).collect();
    let pick_s = |v: &[String]| pairs.iter().map(|&i| v[i].clone()).collect::<Vec<_>>();
    let pick = |v: &[f64], shift: usize| pairs.iter().map(|&i| v[i + shift]).collect::<Vec<_>>();
    let plus: Vec<Option<f64>> = pairs.iter().map(|&i| additional_percent(gain[i + 1], gain[i])).collect();
    let difference: Vec<f64> = pairs.iter().map(|&i| gain[i + 1] - gain[i]).collect();
    let overlap: Vec<bool> =
        pairs.iter().map(|&i| (gain[i] - gain[i + 1]).abs() <= gain_ci[i] + gain_ci[i + 1]).collect();
    DataFrame::new_infer_height(vec![
        Column::new("trace".into(), pick_s(&trace)),
        Column::new("strategy".into(), pick_s(&strategy)),
        Column::new("pdf_source".into(), pick_s(&pdf)),
        Column::new("acceptance".into(), pick_s(&acceptance)),
        Column::new("pof_max".into(), pick(&pof, 0)),
        Column::new("penalty_ratio".into(), pick(&ratio, 0)),
        Column::new("reservation_percent".into(), pick(&percent, 0)),
        Column::new("runs".into(), pick(&n, 0)),
        Column::new("gain_without".into(), pick(&gain, 0)),
        Column::new("gain_without_ci".into(), pick(&gain_ci, 0)),
        Column::new("gain_with".into(), pick(&gain, 1)),
        Column::new("gain_with_ci".into(), pick(&gain_ci, 1)),
        Column::new("difference".into(), difference),
        Column::new("additional_pct".into(), plus),
        Column::new("intervals_overlap".into(), overlap),
        Column::new("checkpoints".into(), pick(&checkpoints, 1)),
        Column::new("resumed_successful".into(), pick(&resumed, 1)),
    ])
}

/// The classic queueing modes' metrics: per trace, strategy, machine size,
/// kill-at-estimate setting and occurrence (arrival) scaling as run, the
/// means over the points of wait, response, slowdown, bounded slowdown,
/// utilisation, makespan and maximum wait, and the dropped jobs. Empty when
/// no classic mode was run.
pub fn queueing_table(points: &DataFrame) -> PolarsResult<DataFrame> {
    let classic: BooleanChunked =
        strs(points, "strategy")?.iter().map(|name| strategy(name).is_ok_and(|s| s.queueing)).collect();
    let metrics = points_columns(points::QUEUEING, Part::Metric);
    let axes: Vec<Expr> = points_columns(points::QUEUEING, Part::Axis).into_iter().map(col).collect();
    points
        .filter(&classic)?
        .lazy()
        .group_by(axes)
        .agg(
            std::iter::once(len().cast(DataType::Int64).alias("runs"))
                .chain(metrics.iter().map(|m| col(*m).cast(DataType::Float64).mean()))
                .collect::<Vec<_>>(),
        )
        .sort(["trace", "capacity", "strategy"], SortMultipleOptions::default())
        .collect()
}

/// Wall time per battery, per strategy, trace and cluster size.
pub fn runtime(points: &DataFrame) -> PolarsResult<DataFrame> {
    let mut df = points
        .clone()
        .lazy()
        .group_by([col("strategy"), col("trace"), col("capacity")])
        .agg([
            len().cast(DataType::Int64).alias("batteries"),
            col("wall_seconds").mean().alias("seconds_mean"),
            col("wall_seconds").std(1).alias("seconds_sd"),
            col("wall_seconds").max().alias("seconds_max"),
        ])
        .sort(["strategy", "capacity", "trace"], SortMultipleOptions::default())
        .collect()?;
    let n = floats(&df, "batteries")?;
    let means = floats(&df, "seconds_mean")?;
    let sds = floats(&df, "seconds_sd")?;
    let halves: Vec<f64> = (0..df.height())
        .map(|i| ci_from(means[i].unwrap_or(0.0), sds[i].unwrap_or(0.0), n[i].unwrap_or(0.0) as usize).half)
        .collect();
    df.with_column(Column::new("seconds_ci".into(), halves))?;
    df.drop_in_place("seconds_sd")?;
    Ok(df)
}

fn relative_pct(ours: f64, theirs: f64) -> Option<f64> {
    additional_percent(ours, theirs)
}

/// Our maximum-gain table next to the dissertation's (rows for the traces
/// and strategies it reports on; empty if none).
pub fn pof_versus_dissertation(pof: &DataFrame) -> PolarsResult<DataFrame> {
    let (trace, pdf, name) = (strs(pof, "trace")?, strs(pof, "pdf_source")?, strs(pof, "strategy")?);
    let (gain, ci, at, plus) = (
        floats(pof, "max_gain")?,
        floats(pof, "gain_ci")?,
        floats(pof, "pof_max")?,
        floats(pof, "additional_gain_pct")?,
    );
    let mut out: [Vec<String>; 3] = Default::default();
    let mut ours: [Vec<Option<f64>>; 3] = Default::default();
    let mut theirs: [Vec<Option<f64>>; 3] = Default::default();
    let (mut versus, mut within) = (vec![], vec![]);
    for i in 0..pof.height() {
        let Some(r) = reference::pof_result(&trace[i], &name[i], &pdf[i]) else { continue };
        let g = gain[i].unwrap_or(0.0);
        for (col, v) in out.iter_mut().zip([&trace[i], &pdf[i], &name[i]]) {
            col.push(v.clone());
        }
        for (col, v) in ours.iter_mut().zip([gain[i], at[i], plus[i]]) {
            col.push(v);
        }
        for (col, v) in theirs.iter_mut().zip([Some(r.gain), r.pof_max, r.additional_pct]) {
            col.push(v);
        }
        versus.push(relative_pct(g, r.gain));
        within.push((g - r.gain).abs() <= ci[i].unwrap_or(0.0));
    }
    let [t, p, s] = out;
    let [g, a, pl] = ours;
    let [tg, ta, tpl] = theirs;
    DataFrame::new_infer_height(vec![
        Column::new("trace".into(), t),
        Column::new("pdf_source".into(), p),
        Column::new("strategy".into(), s),
        Column::new("max_gain".into(), g),
        Column::new("pof_max".into(), a),
        Column::new("additional_gain_pct".into(), pl),
        Column::new("dissertation_gain".into(), tg),
        Column::new("dissertation_pof_max".into(), ta),
        Column::new("dissertation_additional_pct".into(), tpl),
        Column::new("gain_vs_dissertation_pct".into(), versus),
        Column::new("dissertation_within_ci".into(), within),
    ])
}

/// Our risk table next to the dissertation's; its additional gain is
/// computed from its gains as ours is.
pub fn risk_versus_dissertation(risk: &DataFrame) -> PolarsResult<DataFrame> {
    let (trace, pdf, name) = (strs(risk, "trace")?, strs(risk, "pdf_source")?, strs(risk, "strategy")?);
    let (ratio, gain, ci, plus) = (
        floats(risk, "penalty_ratio")?,
        floats(risk, "gain")?,
        floats(risk, "gain_ci")?,
        floats(risk, "additional_gain_pct")?,
    );
    let mut out: [Vec<String>; 3] = Default::default();
    let (mut ratios, mut ours, mut ours_plus, mut theirs, mut theirs_plus, mut versus, mut within) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for i in 0..risk.height() {
        let r = ratio[i].unwrap_or(1.0);
        let Some(d) = reference::risk_result(&trace[i], &name[i], &pdf[i], r) else { continue };
        let base = strategy(&name[i]).ok().and_then(|s| s.base);
        let d_plus =
            base.and_then(|b| reference::risk_result(&trace[i], b, &pdf[i], r)).and_then(|b| additional_percent(d, b));
        let g = gain[i].unwrap_or(0.0);
        for (col, v) in out.iter_mut().zip([&trace[i], &pdf[i], &name[i]]) {
            col.push(v.clone());
        }
        ratios.push(r);
        ours.push(g);
        ours_plus.push(plus[i]);
        theirs.push(d);
        theirs_plus.push(d_plus);
        versus.push(relative_pct(g, d));
        within.push((g - d).abs() <= ci[i].unwrap_or(0.0));
    }
    let [t, p, s] = out;
    DataFrame::new_infer_height(vec![
        Column::new("trace".into(), t),
        Column::new("pdf_source".into(), p),
        Column::new("strategy".into(), s),
        Column::new("penalty_ratio".into(), ratios),
        Column::new("gain".into(), ours),
        Column::new("additional_gain_pct".into(), ours_plus),
        Column::new("dissertation_gain".into(), theirs),
        Column::new("dissertation_additional_pct".into(), theirs_plus),
        Column::new("gain_vs_dissertation_pct".into(), versus),
        Column::new("dissertation_within_ci".into(), within),
    ])
}
