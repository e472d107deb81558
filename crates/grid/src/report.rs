//! Grid reports: co-reservation results per algorithm, request workload and
//! cluster count, per cluster, and next to the thesis' numbers.
//!
//! Reference: `coreservation-thesis-spec.md` §6.1 (criteria), Table 6 (the
//! job-only reference), Figs. 19c/20c (§6.4), Table 9 (§6.5), Tables 11–12 and
//! Fig. 25b (§6.6), Table 14 (§6.7), Table 17 (§6.8), Tables 19–20 (§6.9).
//!
//! Contract:
//! - [`load_grid`] reads `grid_points` and `cluster_runs` (as filtered); a
//!   store without Grid runs gives `None`.
//! - [`grid_tables`]: per combination of the Grid axes, the number of seeds
//!   and each metric's mean and 95 % Student-t half-width; the same per
//!   cluster; the thesis' values next to ours with whether each lies inside
//!   our interval (the thesis reports single runs, so an interval is the
//!   spread a single run may have); Table 6 for job-only runs.
//! - [`grid_figures`]: failure rate against the cluster count, and cost
//!   against the relative start delay over the start weights of Alg. 5.

use std::path::Path;

use polars::prelude::*;

use crate::reference::{TABLE_6, ThesisValue, coreservation_values};
use crate::tables::{CLUSTER_RUNS, GRID, GRID_CLUSTERS, GRID_POINTS};
use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::{Filter, Kind, LoadError, frame_of, has_table, kind_of, label_traces_of};
use slasim_core::report::plots::{Figure, Panel, Series};
use slasim_core::report::render::slug;
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::tables::{Table, aggregate_by, floats, strs};
use slasim_core::store::columns::{Part, SqlType, report_columns};

/// The axes a Grid report groups by: the run's sweep, then those the
/// descriptors of `grid_points` name.
fn grid_axes() -> Vec<&'static str> {
    std::iter::once("sweep").chain(report_columns(&GRID_POINTS, GRID, Part::Axis)).collect()
}

/// The per-run metrics averaged over seeds.
fn grid_metrics() -> Vec<&'static str> {
    report_columns(&GRID_POINTS, GRID, Part::Metric)
}

/// The Grid section of a report: its tables and figures, from the Grid runs
/// the filter keeps.
pub struct GridSection;

impl ReportSection for GridSection {
    fn name(&self) -> &'static str {
        "grid"
    }

    fn build(&self, _registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
        let Some(g) = load_grid(db, filter)? else { return Ok(None) };
        let tables = grid_tables(&g).map_err(|e| anyhow::anyhow!("building the Grid tables: {e}"))?;
        let figures = match tables.first() {
            Some(summary) => grid_figures(&summary.df).map_err(|e| anyhow::anyhow!("Grid plots: {e}"))?,
            None => Vec::new(),
        };
        let gantt = g.points.column("run_id")?.i64()?.iter().flatten().take(1).collect();
        Ok(Some(Section { tables, figures, points: g.points.height(), gantt, omitted: Vec::new() }))
    }
}

/// A store's Grid runs: one row per run, and one per run and cluster.
pub struct GridFrames {
    /// `grid_points` rows (traces by label).
    pub points: DataFrame,
    /// `cluster_runs` rows joined with their run's axes.
    pub clusters: DataFrame,
}

/// Loads the Grid runs of a store; `None` when it has none (as filtered).
pub fn load_grid(path: &Path, filter: &Filter) -> Result<Option<GridFrames>, LoadError> {
    if !has_table(path, "grid_points")? {
        return Ok(None);
    }
    // A run's sweep (the first, if several experiments share it) labels variants of one setting.
    let sweep = "coalesce((SELECT min(x.sweep) FROM experiment_points x WHERE x.run_id = g.run_id), '') AS sweep";
    let (join, params): (&str, Vec<String>) = match &filter.experiment {
        Some((hash, _)) => {
            ("WHERE g.run_id IN (SELECT run_id FROM experiment_points WHERE experiment = ?)", vec![hash.clone()])
        }
        None => ("", Vec::new()),
    };
    // Per run: its id, sweep, axes, details and metrics; per cluster: the
    // run's id, sweep, axes and details, and the cluster's axes, details and
    // metrics (the run's metrics would clash with the cluster's names).
    let described = |columns: Vec<(&'static str, SqlType)>| -> Vec<(&'static str, Kind)> {
        columns.into_iter().map(|(name, t)| (name, kind_of(t))).collect()
    };
    let of_run = |part| GRID_POINTS.report_columns(GRID, part).into_iter().map(|c| (c.name, c.sql_type));
    let of_cluster = |part| CLUSTER_RUNS.report_columns(GRID_CLUSTERS, part).into_iter().map(|c| (c.name, c.sql_type));
    let run_keys = described(of_run(Part::Axis).chain(of_run(Part::Detail)).collect());
    let run_metrics = described(of_run(Part::Metric).collect());
    let cluster =
        described(of_cluster(Part::Axis).chain(of_cluster(Part::Detail)).chain(of_cluster(Part::Metric)).collect());
    let select = |prefix: &str, columns: &[&[(&str, Kind)]]| {
        columns.concat().iter().map(|(name, _)| format!("{prefix}.{name}")).collect::<Vec<_>>().join(", ")
    };
    let head = [("run_id", Kind::Int), ("sweep", Kind::Text)];
    let point_sql = format!(
        "SELECT g.run_id, {sweep}, {} FROM grid_points g {join} ORDER BY g.run_id",
        select("g", &[&run_keys, &run_metrics])
    );
    let mut points = frame_of(path, &point_sql, &params, &[&head[..], &run_keys, &run_metrics].concat())?;
    let cluster_sql = format!(
        "SELECT g.run_id, {sweep}, {}, {} FROM cluster_runs c JOIN grid_points g ON g.run_id = c.run_id {join} \
         ORDER BY g.run_id, c.cluster",
        select("g", &[&run_keys]),
        select("c", &[&cluster]),
    );
    let mut clusters = frame_of(path, &cluster_sql, &params, &[&head[..], &run_keys, &cluster].concat())?;
    let polars = |source| LoadError::Polars { path: path.to_path_buf(), source };
    label_traces_of(&mut points).map_err(polars)?;
    label_traces_of(&mut clusters).map_err(polars)?;
    if let Some(trace) = &filter.trace {
        let keep = |df: &DataFrame| -> PolarsResult<DataFrame> {
            let mask: BooleanChunked =
                df.column("trace")?.str()?.iter().map(|t| t.is_some_and(|t| t.contains(trace.as_str()))).collect();
            df.filter(&mask)
        };
        points = keep(&points).map_err(polars)?;
        clusters = keep(&clusters).map_err(polars)?;
    }
    Ok((points.height() > 0).then_some(GridFrames { points, clusters }))
}

/// The Grid tables of a report.
pub fn grid_tables(g: &GridFrames) -> PolarsResult<Vec<Table>> {
    let mut axes = grid_axes();
    let summary =
        aggregate_by(g.points.clone().lazy(), &axes, &grid_metrics())?.rename("batteries", "seeds".into())?.clone();
    axes.extend(report_columns(&CLUSTER_RUNS, GRID_CLUSTERS, Part::Axis));
    let cluster_metrics = report_columns(&CLUSTER_RUNS, GRID_CLUSTERS, Part::Metric);
    let clusters =
        aggregate_by(g.clusters.clone().lazy(), &axes, &cluster_metrics)?.rename("batteries", "seeds".into())?.clone();
    let thesis = versus_thesis(&summary, &clusters)?;
    let mut tables = vec![
        Table {
            id: "grid-summary".into(),
            title: "Co-reservations per algorithm, workload and cluster count".into(),
            note: "Per sweep (of the config), trace, cluster count, request workload, algorithm, minsize, start \
                   times, local scheduler and start weight: seeds, and the mean and 95 % Student-t half-width over seeds of the failure rate, \
                   messages per request (reservations, roll-backs and r·C status queries; reservation messages: \
                   without the status queries; max: the most one request needed), efficiency 1 − n/N, \
                   unfairness (granted requests), relative start difference (over the variants formed; _grid: \
                   against the start grid, §6.8), cost and relative cost difference (Alg. 5), mean utilisation to \
                   t_stop, longest and top-10 job waits (s, over every cluster), mean expansion factor, granted \
                   requests and wall seconds."
                .into(),
            df: summary.clone(),
        },
        Table {
            id: "grid-vs-thesis".into(),
            title: "Co-reservation results next to the thesis'".into(),
            note: "Each value the thesis reports (single runs) next to our mean and 95 % interval over seeds for the \
                   same algorithm, workload, cluster count, minsize and start times; `inside` says whether the \
                   thesis' value lies in our interval. Derived values (e.g. Alg. 3b = Alg. 3 − ΔRate of Table 14) \
                   say so in `note`."
                .into(),
            df: thesis,
        },
        Table {
            id: "grid-clusters".into(),
            title: "Per cluster: filtering, utilisation, waits and backlog".into(),
            note: "Per run setting and cluster: seeds, and the means and 95 % half-widths of its jobs, wall-clock \
                   accuracy, utilisation to t_stop (jobs + sub-reservations, and each share), mean expansion \
                   factor, longest and top-10 waits (s), time-weighted backlog time (s), filtering degree, \
                   infeasibility rate and sub-reservations held (Tables 11, 15, 20)."
                .into(),
            df: clusters.clone(),
        },
    ];
    let table6 = table_6(&clusters)?;
    if table6.height() > 0 {
        tables.push(Table {
            id: "grid-table-6".into(),
            title: "Job-only clusters next to Table 6".into(),
            note: "Runs without requests (`request_workload = none`): per cluster its jobs, utilisation, mean \
                   expansion factor and wall-clock accuracy next to the thesis' job-only simulation of BM 0-6 \
                   (its windows of SDSC Blue are not stated; ours are consecutive 2-week windows)."
                .into(),
            df: table6,
        });
    }
    Ok(tables)
}

/// The value of metric `m` (mean and half-width) in the row of `df` matching `thesis`, if any.
fn ours(df: &DataFrame, t: &ThesisValue, metric: &str) -> PolarsResult<Option<(f64, f64, usize)>> {
    let (alg, wl) = (strs(df, "algorithm")?, strs(df, "request_workload")?);
    let (clusters, minsize, starts) = (floats(df, "clusters")?, floats(df, "minsize")?, floats(df, "starts")?);
    let weight = floats(df, "start_weight")?;
    let cluster = if df.column("cluster").is_ok() { floats(df, "cluster")? } else { vec![None; df.height()] };
    let (mean, half, n) =
        (floats(df, &format!("{metric}_mean"))?, floats(df, &format!("{metric}_ci"))?, floats(df, "seeds")?);
    Ok((0..df.height())
        .find(|&i| {
            alg[i] == t.algorithm
                && wl[i] == t.workload
                && clusters[i] == Some(f64::from(t.clusters))
                && minsize[i] == Some(t.minsize as f64)
                && starts[i] == Some(f64::from(t.starts))
                && t.start_weight.is_none_or(|s| weight[i].is_some_and(|w| (w - s).abs() < 1e-9))
                && t.cluster.is_none_or(|c| cluster[i] == Some(f64::from(c)))
        })
        .and_then(|i| Some((mean[i]?, half[i].unwrap_or(0.0), n[i].unwrap_or(0.0) as usize))))
}

fn versus_thesis(summary: &DataFrame, clusters: &DataFrame) -> PolarsResult<DataFrame> {
    let mut cols: [Vec<String>; 5] = Default::default();
    let mut nums: [Vec<Option<f64>>; 3] = Default::default();
    let mut counts = Vec::new();
    let mut seeds = Vec::new();
    let mut inside = Vec::new();
    for t in coreservation_values() {
        let df = if t.cluster.is_some() { clusters } else { summary };
        let Some((mean, half, n)) = ours(df, &t, t.metric)? else { continue };
        cols[0].push(t.section.to_string());
        cols[1].push(t.algorithm.to_string());
        cols[2].push(t.workload.to_string());
        cols[3].push(match t.cluster {
            Some(c) => format!("{} (BM {c})", t.metric),
            None => t.metric.to_string(),
        });
        cols[4].push(t.note.to_string());
        counts.push(i64::from(t.clusters));
        nums[0].push(Some(t.value));
        nums[1].push(Some(mean));
        nums[2].push(Some(half));
        seeds.push(n as i64);
        inside.push((mean - t.value).abs() <= half);
    }
    DataFrame::new_infer_height(vec![
        Column::new("section".into(), cols[0].clone()),
        Column::new("algorithm".into(), cols[1].clone()),
        Column::new("workload".into(), cols[2].clone()),
        Column::new("clusters".into(), counts),
        Column::new("metric".into(), cols[3].clone()),
        Column::new("thesis".into(), nums[0].clone()),
        Column::new("ours".into(), nums[1].clone()),
        Column::new("ours_ci".into(), nums[2].clone()),
        Column::new("seeds".into(), seeds),
        Column::new("inside".into(), inside),
        Column::new("note".into(), cols[4].clone()),
    ])
}

/// Job-only runs' clusters next to the thesis' Table 6.
fn table_6(clusters: &DataFrame) -> PolarsResult<DataFrame> {
    let only = clusters.clone().lazy().filter(col("request_workload").eq(lit("none"))).collect()?;
    let (trace, local, cluster) = (strs(&only, "trace")?, strs(&only, "local_scheduler")?, floats(&only, "cluster")?);
    let get = |m: &str| floats(&only, &format!("{m}_mean"));
    let (jobs, util, ef, acc) = (get("jobs")?, get("job_utilisation")?, get("expansion_factor")?, get("wc_acc")?);
    let mut out: [Vec<Option<f64>>; 8] = Default::default();
    let (mut traces, mut locals, mut bms) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..only.height() {
        let Some(c) = cluster[i].map(|c| c as usize) else { continue };
        let thesis = TABLE_6.get(c);
        traces.push(trace[i].clone());
        locals.push(local[i].clone());
        bms.push(c as i64);
        for (k, v) in [
            jobs[i],
            thesis.map(|t| t.0),
            util[i].map(|u| 100.0 * u),
            thesis.map(|t| t.1),
            ef[i],
            thesis.map(|t| t.2),
            acc[i],
            thesis.map(|t| t.3),
        ]
        .into_iter()
        .enumerate()
        {
            out[k].push(v);
        }
    }
    let names = [
        "jobs",
        "thesis_jobs",
        "utilisation_pct",
        "thesis_utilisation_pct",
        "expansion_factor",
        "thesis_expansion_factor",
        "wc_acc",
        "thesis_wc_acc",
    ];
    let mut columns = vec![
        Column::new("trace".into(), traces),
        Column::new("local_scheduler".into(), locals),
        Column::new("cluster".into(), bms),
    ];
    columns.extend(names.iter().zip(out).map(|(n, v)| Column::new((*n).into(), v)));
    DataFrame::new_infer_height(columns)
}

/// The Grid figures: failure rate against the cluster count per algorithm
/// and workload; cost against relative start over the start weights.
pub fn grid_figures(summary: &DataFrame) -> PolarsResult<Vec<Figure>> {
    let mut figures = Vec::new();
    let (alg, wl, trace) = (strs(summary, "algorithm")?, strs(summary, "request_workload")?, strs(summary, "trace")?);
    let clusters = floats(summary, "clusters")?;
    let (fr, fr_ci) = (floats(summary, "failure_rate_mean")?, floats(summary, "failure_rate_ci")?);
    let mut counts: Vec<u64> = clusters.iter().flatten().map(|c| *c as u64).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut groups: Vec<(String, String)> = (0..summary.height()).map(|i| (trace[i].clone(), wl[i].clone())).collect();
    groups.sort();
    groups.dedup();
    let weight = floats(summary, "start_weight")?;
    if counts.len() >= 2 {
        for (t, w) in &groups {
            let in_group = |i: usize| &trace[i] == t && &wl[i] == w;
            // One curve per algorithm, and per start weight where an algorithm ran several.
            let mut curves: Vec<(String, u64)> = (0..summary.height())
                .filter(|&i| in_group(i))
                .map(|i| (alg[i].clone(), weight[i].unwrap_or(0.0).to_bits()))
                .collect();
            curves.sort();
            curves.dedup();
            let several = |a: &str| curves.iter().filter(|(x, _)| x == a).count() > 1;
            let series: Vec<Series> = curves
                .iter()
                .enumerate()
                .filter_map(|(k, (a, bits))| {
                    let mut points: Vec<_> = (0..summary.height())
                        .filter(|&i| in_group(i) && &alg[i] == a && weight[i].unwrap_or(0.0).to_bits() == *bits)
                        .filter_map(|i| {
                            let (m, h) = (fr[i]?, fr_ci[i].unwrap_or(0.0));
                            Some((clusters[i]?, m, m - h, m + h))
                        })
                        .collect();
                    points.sort_by(|x, y| x.0.total_cmp(&y.0));
                    let name = if several(a) { format!("{a}, s = {}", f64::from_bits(*bits)) } else { a.clone() };
                    (points.len() >= 2).then(|| Series::with_error_bars(name, points, true, k))
                })
                .collect();
            if series.is_empty() {
                continue;
            }
            figures.push(Figure {
                id: format!("grid-failure-rate-vs-clusters-{}", slug(&format!("{t}-{w}"))),
                caption: format!(
                    "{t}, workload {w}: co-reservation failure rate against the number of cluster candidates \
                     (means over seeds with 95 % intervals)"
                ),
                panels: vec![Panel {
                    title: format!("{t} ({w}): failure rate vs clusters"),
                    x_label: "cluster candidates".into(),
                    y_label: "failure rate".into(),
                    series,
                    diagonal: false,
                    ..Default::default()
                }],
            });
        }
    }
    // Alg. 5's trade-off curve: cost against relative start, one point per start weight.
    let (cost, cost_ci) = (floats(summary, "cost_mean_mean")?, floats(summary, "cost_mean_ci")?);
    let rel = floats(summary, "rel_start_mean_mean")?;
    for (t, w) in &groups {
        let mut curves: Vec<(String, u64)> = (0..summary.height())
            .filter(|&i| &trace[i] == t && &wl[i] == w && alg[i] == "a5")
            .filter_map(|i| Some((alg[i].clone(), clusters[i]? as u64)))
            .collect();
        curves.sort();
        curves.dedup();
        let series: Vec<Series> = curves
            .iter()
            .enumerate()
            .filter_map(|(k, (a, c))| {
                let mut points: Vec<_> = (0..summary.height())
                    .filter(|&i| &trace[i] == t && &wl[i] == w && &alg[i] == a && clusters[i] == Some(*c as f64))
                    .filter_map(|i| {
                        let (m, h) = (cost[i]?, cost_ci[i].unwrap_or(0.0));
                        Some((rel[i]?, m, m - h, m + h, weight[i]?))
                    })
                    .collect();
                points.sort_by(|x, y| x.4.total_cmp(&y.4));
                (points.len() >= 2).then(|| {
                    let points = points.into_iter().map(|(x, y, lo, hi, _)| (x, y, lo, hi)).collect();
                    Series::with_error_bars(format!("{a}, {c} clusters (start weight 0 → 1)"), points, true, k)
                })
            })
            .collect();
        if series.is_empty() {
            continue;
        }
        figures.push(Figure {
            id: format!("grid-cost-vs-start-{}", slug(&format!("{t}-{w}"))),
            caption: format!(
                "{t}, workload {w}: Alg. 5's mean cost of a granted request against its mean relative start \
                 difference, one point per start weight s (k = 1 − s), 95 % intervals on the cost"
            ),
            panels: vec![Panel {
                title: format!("{t} ({w}): cost vs start delay over s"),
                x_label: "mean relative start difference".into(),
                y_label: "mean cost per granted request".into(),
                series,
                diagonal: false,
                ..Default::default()
            }],
        });
    }
    Ok(figures)
}
