//! Reports: the store turned into comparison tables, plots and one HTML page.
//!
//! Reference: `overbooking-dissertation-spec.md` §9 (the tables), §6.4 (money).
//!
//! Contract: [`generate`] reads a store (read-only) with Polars and writes into
//! one directory: every table as Markdown, CSV and Parquet (`tables/`), every
//! figure as SVG and PNG (`plots/`), `report.md` with all tables, and a
//! self-contained `index.html` (tables and inline SVG, no external resources)
//! that opens offline. [`compare`] puts two stores side by side. Bad input
//! (empty store, unknown trace, older schema, `--out` naming a file) is an
//! error with a clear message, never a panic; a store that cannot be
//! reported is refused before anything is written.

pub mod batsim_jobs;
pub mod energy;
pub mod gantt;
pub mod grid;
pub mod load;
pub mod plots;
pub mod provision;
pub mod reference;
pub mod summary;
pub mod tables;
pub mod text;

use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use polars::prelude::*;
use sha2::{Digest, Sha256};

use crate::policy::strategy_infos;
use crate::report::load::{Filter, load_calibration, load_points};
use crate::report::plots::{Figure, Panel, Series};
use crate::report::tables::{
    Agg, Table, agg_rows, aggregates, calibration, checkpoint_table, lookup, pof_table, pof_versus_dissertation,
    queueing_table, reservation_table, risk_table, risk_versus_dissertation, runtime,
};

/// What to report on.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The store.
    pub db: PathBuf,
    /// Only this experiment's points (its config file).
    pub config: Option<PathBuf>,
    /// Only traces whose name contains this.
    pub trace: Option<String>,
    /// The output directory.
    pub out: PathBuf,
}

/// What a report wrote.
#[derive(Debug, Clone, Default)]
pub struct ReportSummary {
    /// Points read.
    pub points: usize,
    /// Table ids.
    pub tables: Vec<String>,
    /// Figure ids.
    pub figures: Vec<String>,
    /// Gantt chart ids (`gantt-<run id>`).
    pub gantts: Vec<String>,
    /// The HTML page.
    pub index: PathBuf,
    /// The maximum-gain table as Markdown, for the terminal.
    pub headline: String,
}

fn prepare_out(out: &Path) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("{}: exists and is not a directory; choose another --out", out.display());
    }
    for sub in ["tables", "plots"] {
        std::fs::create_dir_all(out.join(sub))
            .with_context(|| format!("{}: cannot create", out.join(sub).display()))?;
    }
    Ok(())
}

fn experiment_filter(config: &Option<PathBuf>) -> anyhow::Result<Option<(String, String)>> {
    let Some(path) = config else { return Ok(None) };
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the config", path.display()))?;
    let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let name = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Some((hash, name)))
}

/// Formats a cell for Markdown and HTML.
fn cell(v: AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => String::new(),
        AnyValue::Float64(f) => number(f),
        AnyValue::Float32(f) => number(f64::from(f)),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        other => other.to_string().trim_matches('"').to_string(),
    }
}

fn number(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    let a = f.abs();
    if a >= 1000.0 {
        let whole = format!("{:.0}", a);
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        if f < 0.0 { format!("-{grouped}") } else { grouped }
    } else if a >= 10.0 {
        format!("{f:.1}")
    } else {
        format!("{f:.3}")
    }
}

fn rows(df: &DataFrame) -> Vec<Vec<String>> {
    (0..df.height()).map(|i| df.columns().iter().map(|c| c.get(i).map(cell).unwrap_or_default()).collect()).collect()
}

fn markdown(table: &Table) -> String {
    format!("### {}\n\n{}\n\n{}", table.title, table.note, markdown_rows(table))
}

/// The table's header and rows in Markdown.
fn markdown_rows(table: &Table) -> String {
    let mut s = String::new();
    let names: Vec<String> = table.df.get_column_names().iter().map(|n| n.to_string()).collect();
    let _ = writeln!(s, "| {} |", names.join(" | "));
    let _ = writeln!(s, "|{}|", names.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
    for row in rows(&table.df) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn html_table(table: &Table) -> String {
    let mut s = format!(
        "<section id=\"{id}\"><h2>{title}</h2><p>{note}</p><div class=\"scroll\"><table class=\"report-table\" data-table=\"{id}\"><thead><tr>",
        id = table.id,
        title = escape(&table.title),
        note = escape(&table.note)
    );
    for n in table.df.get_column_names() {
        let _ = write!(s, "<th>{}</th>", escape(n));
    }
    s.push_str("</tr></thead><tbody>");
    let text: Vec<bool> = table.df.columns().iter().map(|c| !c.dtype().is_primitive_numeric()).collect();
    for row in rows(&table.df) {
        s.push_str("<tr>");
        for (c, is_text) in row.iter().zip(&text) {
            let class = if *is_text { " class=\"text\"" } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", escape(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div></section>\n");
    s
}

fn write_table(out: &Path, table: &mut Table) -> anyhow::Result<()> {
    let base = out.join("tables").join(&table.id);
    std::fs::write(base.with_extension("md"), markdown(table))?;
    let file = File::create(base.with_extension("csv"))?;
    CsvWriter::new(file).finish(&mut table.df).map_err(|e| anyhow::anyhow!("writing CSV: {e}"))?;
    let file = File::create(base.with_extension("parquet"))?;
    ParquetWriter::new(file).finish(&mut table.df).map_err(|e| anyhow::anyhow!("writing Parquet: {e}"))?;
    Ok(())
}

/// A Gantt chart of the report: its id, caption and SVG.
#[derive(Debug, Clone, Default)]
struct GanttFigure {
    id: String,
    caption: String,
    svg: String,
}

/// The Gantt section of a report: its charts and a paragraph saying which
/// runs and windows they show (and any run that could not be drawn).
#[derive(Debug, Clone, Default)]
struct Gantts {
    charts: Vec<GanttFigure>,
    text: String,
}

/// The runs a report draws Gantt charts of: the first single-cluster run of
/// each trace (three traces at most), the first Grid run and the first
/// provisioning run.
fn gantt_runs(db: &Path, points: Option<&DataFrame>, grid: Option<&grid::GridFrames>) -> anyhow::Result<Vec<i64>> {
    let mut runs = Vec::new();
    if let Some(df) = points {
        let ids = df.column("run_id")?.i64()?;
        let traces = df.column("trace")?.str()?;
        let mut seen: Vec<&str> = Vec::new();
        for (id, trace) in ids.iter().zip(traces.iter()) {
            if let (Some(id), Some(trace)) = (id, trace) {
                if seen.len() < 3 && !seen.contains(&trace) {
                    seen.push(trace);
                    runs.push(id);
                }
            }
        }
    }
    if let Some(g) = grid {
        runs.extend(g.points.column("run_id")?.i64()?.iter().flatten().take(1));
    }
    if crate::store::has_table(db, "provision_points")? {
        let first = crate::store::query(db, "SELECT min(point_id) FROM provision_points WHERE kind = 'run'")?;
        runs.extend(first.rows.iter().flatten().filter_map(|v| v.parse::<i64>().ok()));
    }
    Ok(runs)
}

/// Draws the report's Gantt charts into `plots/` (SVG, PNG, HTML).
fn gantt_figures(out: &Path, db: &Path, runs: &[i64]) -> anyhow::Result<Gantts> {
    let mut gantts = Gantts::default();
    let mut failed = Vec::new();
    for &run in runs {
        let chart = match gantt::chart_for_run(db, run, None) {
            Ok(chart) => chart,
            Err(e) => {
                failed.push(format!("run {run}: {e:#}"));
                continue;
            }
        };
        let id = format!("gantt-{run}");
        let base = out.join("plots").join(&id);
        gantt::write(&chart, &base.with_extension("png"))?;
        let svg = gantt::render::svg(&chart);
        std::fs::write(base.with_extension("svg"), &svg).with_context(|| format!("writing {id}.svg"))?;
        let html = gantt::render::html_with(&chart, &svg);
        std::fs::write(base.with_extension("html"), html).with_context(|| format!("writing {id}.html"))?;
        let caption = format!("{}; {}", chart.title, gantt::render::window_text(&chart));
        gantts.charts.push(GanttFigure { id, caption, svg });
    }
    let mut text = String::new();
    if !gantts.charts.is_empty() {
        text.push_str(
            "<p>One row per node (nodes no execution splits share a row), one bar per execution coloured by \
             outcome; hatched: a node down; dashed outline: overbooked, with a tick at its booked end; a thin line \
             runs from a job's planned to its actual start. Each chart shows its run's busiest week (or the whole \
             run if shorter), named under it; <code>slasim gantt --run ID --from T --to T</code> draws another \
             window. Hover over a bar for the job's fields.</p>",
        );
    }
    if !failed.is_empty() {
        let _ = write!(text, "<p>Not drawn: {}.</p>", escape(&failed.join("; ")));
    }
    gantts.text = text;
    Ok(gantts)
}

fn page(title: &str, intro: &str, tables: &[Table], figures: &[(Figure, String)], gantts: &Gantts) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n\
         <meta name=\"slasim-tables\" content=\"{tables}\">\n<meta name=\"slasim-plots\" content=\"{plots}\">\n\
         <meta name=\"slasim-gantts\" content=\"{gantt_ids}\">\n\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1100px}}table{{border-collapse:collapse;font-size:13px}}\
         th,td{{border:1px solid #ccc;padding:3px 7px;text-align:right}}th{{background:#f2f2f2}}\
         td.text,th{{text-align:left}}.scroll{{overflow-x:auto;max-height:600px}}\
         figure{{margin:1.5em 0}}nav a{{margin-right:1em}}</style></head><body>\n<h1>{t}</h1>\n{intro}\n<nav>",
        t = escape(title),
        tables = tables.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(","),
        plots = figures.iter().map(|(f, _)| f.id.as_str()).collect::<Vec<_>>().join(","),
        gantt_ids = gantts.charts.iter().map(|g| g.id.as_str()).collect::<Vec<_>>().join(","),
    );
    for t in tables {
        let _ = write!(s, "<a href=\"#{}\">{}</a>", t.id, escape(&t.title));
    }
    s.push_str("<a href=\"#plots\">Plots</a>");
    if !gantts.charts.is_empty() {
        s.push_str("<a href=\"#gantt\">Gantt charts</a>");
    }
    s.push_str("</nav>\n");
    for t in tables {
        s.push_str(&html_table(t));
    }
    s.push_str("<section id=\"plots\"><h2>Plots</h2>\n");
    for (f, svg) in figures {
        let _ = writeln!(
            s,
            "<figure class=\"report-plot\" data-plot=\"{id}\" id=\"plot-{id}\">{svg}<figcaption>{c} \
             (<a href=\"plots/{id}.png\">PNG</a>, <a href=\"plots/{id}.svg\">SVG</a>)</figcaption></figure>",
            id = f.id,
            c = escape(&f.caption)
        );
    }
    s.push_str("</section>\n");
    if !gantts.charts.is_empty() || !gantts.text.is_empty() {
        s.push_str("<section id=\"gantt\"><h2>Gantt charts</h2>\n");
        s.push_str(&gantts.text);
        s.push_str(gantt::render::HOVER);
        for g in &gantts.charts {
            let _ = writeln!(
                s,
                "<figure class=\"report-gantt\" data-gantt=\"{id}\" id=\"{id}\" style=\"overflow-x:auto\">{svg}\
                 <figcaption>{c} (<a href=\"plots/{id}.png\">PNG</a>, <a href=\"plots/{id}.svg\">SVG</a>, \
                 <a href=\"plots/{id}.html\">HTML</a>)</figcaption></figure>",
                id = g.id,
                svg = g.svg,
                c = escape(&g.caption)
            );
        }
        s.push_str("</section>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// A file-name and anchor-safe id: lower-case alphanumerics joined by `-`.
pub(crate) fn slug(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

fn band(rows: &[&Agg], value: fn(&Agg) -> (f64, f64)) -> Vec<(f64, f64, f64, f64)> {
    rows.iter()
        .map(|r| {
            let (m, h) = value(r);
            (r.pof_max, m, m - h, m + h)
        })
        .collect()
}

/// The PoF-test figures of one trace and PDF source.
fn pof_figures(rows: &[Agg], trace: &str, pdf: &str) -> Vec<Figure> {
    let mut pofs: Vec<f64> = rows
        .iter()
        .filter(|r| {
            r.trace == trace && r.pdf_source == pdf && r.acceptance == "pof" && tables::reads_overbooking(&r.strategy)
        })
        .map(|r| r.pof_max)
        .collect();
    pofs.sort_by(f64::total_cmp);
    pofs.dedup();
    if pofs.len() < 2 {
        return Vec::new();
    }
    let curves = |value: fn(&Agg) -> (f64, f64)| -> Vec<Series> {
        strategy_infos()
            .into_iter()
            .enumerate()
            .filter_map(|(k, info)| {
                let mut found: Vec<&Agg> = lookup(rows, info.name, trace, pdf, "pof", 1.0)
                    .into_iter()
                    .filter(|r| r.acceptance == "pof")
                    .collect();
                if found.is_empty() {
                    return None;
                }
                let points = if info.reads.overbooking {
                    found.sort_by(|a, b| a.pof_max.total_cmp(&b.pof_max));
                    band(&found, value)
                } else {
                    // Constant along PoF_max: one row for every value.
                    let (m, h) = value(found[0]);
                    pofs.iter().map(|&p| (p, m, m - h, m + h)).collect()
                };
                Some(Series { name: info.name.into(), points, band: true, error_bars: false, line: true, colour: k })
            })
            .collect()
    };
    let t = trace;
    let id = slug(&format!("{t}-{pdf}"));
    vec![
        Figure {
            id: format!("gain-vs-pofmax-{id}"),
            caption: format!("{t}, {pdf} PDFs: mean gain per battery vs PoF_max (95 % confidence bands)"),
            panels: vec![Panel {
                title: format!("{t} ({pdf} PDFs): gain vs PoF_max"),
                x_label: "PoF_max".into(),
                y_label: "gain per battery (VC)".into(),
                series: curves(|r| (r.gain, r.gain_ci)),
                diagonal: false,
            }],
        },
        Figure {
            id: format!("jobs-vs-pofmax-{id}"),
            caption: format!("{t}, {pdf} PDFs: successful and failed jobs per battery vs PoF_max"),
            panels: vec![
                Panel {
                    title: format!("{t} ({pdf} PDFs): successful jobs"),
                    x_label: "PoF_max".into(),
                    y_label: "successful jobs per battery".into(),
                    series: curves(|r| (r.successful, r.successful_ci)),
                    diagonal: false,
                },
                Panel {
                    title: format!("{t} ({pdf} PDFs): failed jobs"),
                    x_label: "PoF_max".into(),
                    y_label: "failed jobs per battery".into(),
                    series: curves(|r| (r.failed, r.failed_ci)),
                    diagonal: false,
                },
            ],
        },
    ]
}

/// One series per strategy from the rows of `df` that `keep` selects, each
/// row giving the point (x, y, low, high) drawn with an error bar; sorted by x.
pub(crate) fn series_per_strategy(
    df: &DataFrame,
    keep: impl Fn(usize) -> bool,
    point: impl Fn(usize) -> (f64, f64, f64, f64),
    line: bool,
) -> PolarsResult<Vec<Series>> {
    let names = tables::strs(df, "strategy")?;
    Ok(strategy_infos()
        .into_iter()
        .enumerate()
        .filter_map(|(k, info)| {
            let mut points: Vec<_> =
                (0..df.height()).filter(|&i| names[i] == info.name && keep(i)).map(&point).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            (!points.is_empty()).then(|| Series::with_error_bars(info.name.into(), points, line, k))
        })
        .collect())
}

/// A numeric column with nulls as 0.
pub(crate) fn values(df: &DataFrame, name: &str) -> PolarsResult<Vec<f64>> {
    Ok(tables::floats(df, name)?.into_iter().map(|v| v.unwrap_or(0.0)).collect())
}

/// Rows of `df` for one trace and PDF source.
fn rows_of(df: &DataFrame, trace: &str, pdf: &str) -> PolarsResult<impl Fn(usize) -> bool> {
    let (traces, pdfs) = (tables::strs(df, "trace")?, tables::strs(df, "pdf_source")?);
    let (trace, pdf) = (trace.to_string(), pdf.to_string());
    Ok(move |i: usize| traces[i] == trace && pdfs[i] == pdf)
}

/// The risk-test figure of one trace and PDF source.
fn risk_figure(risk: &DataFrame, trace: &str, pdf: &str) -> anyhow::Result<Option<Figure>> {
    let (ratio, gain, ci) = (values(risk, "penalty_ratio")?, values(risk, "gain")?, values(risk, "gain_ci")?);
    let series = series_per_strategy(
        risk,
        rows_of(risk, trace, pdf)?,
        |i| (ratio[i], gain[i], gain[i] - ci[i], gain[i] + ci[i]),
        true,
    )?;
    if series.is_empty() {
        return Ok(None);
    }
    Ok(Some(Figure {
        id: format!("gain-vs-penalty-ratio-{}", slug(&format!("{trace}-{pdf}"))),
        caption: format!("{trace}, {pdf} PDFs, risk test: mean gain per battery vs penalty ratio (95 % intervals)"),
        panels: vec![Panel {
            title: format!("{trace} ({pdf} PDFs): gain vs penalty ratio"),
            x_label: "penalty ratio".into(),
            y_label: "gain per battery (VC)".into(),
            series,
            diagonal: false,
        }],
    }))
}

/// The calibration diagram of one trace and PDF source.
fn calibration_figure(bins: &DataFrame, trace: &str, pdf: &str) -> anyhow::Result<Option<Figure>> {
    let (pred, obs) = (values(bins, "predicted")?, values(bins, "observed")?);
    let (lo, hi) = (values(bins, "wilson_low")?, values(bins, "wilson_high")?);
    let series = series_per_strategy(bins, rows_of(bins, trace, pdf)?, |i| (pred[i], obs[i], lo[i], hi[i]), false)?;
    if series.is_empty() {
        return Ok(None);
    }
    Ok(Some(Figure {
        id: format!("calibration-{}", slug(&format!("{trace}-{pdf}"))),
        caption: format!(
            "{trace}, {pdf} PDFs: predicted PoF (bin means) against the observed failure rate of overbooked jobs, \
             with 95 % Wilson intervals; the diagonal is perfect calibration"
        ),
        panels: vec![Panel {
            title: format!("{trace} ({pdf} PDFs): calibration of overbooked jobs"),
            x_label: "predicted PoF".into(),
            y_label: "observed failure rate".into(),
            series,
            diagonal: true,
        }],
    }))
}

/// Paper B's figures, one per trace and strategy run with reservations:
/// rejection rate, SLDwA, utilisation and the mean delay of moved jobs
/// against the reservation percentage, one series per option and start
/// factor (each starting from the shared 0 % baseline), 95 % error bars.
fn reservation_figures(table: &DataFrame) -> anyhow::Result<Vec<Figure>> {
    let (trace, strategy, option) =
        (tables::strs(table, "trace")?, tables::strs(table, "strategy")?, tables::strs(table, "reservation_option")?);
    let (factor, checkpointing, percent) =
        (values(table, "start_factor")?, values(table, "checkpointing")?, values(table, "reservation_percent")?);
    let mut groups: Vec<(String, String, u8)> =
        (0..table.height()).map(|i| (trace[i].clone(), strategy[i].clone(), checkpointing[i] as u8)).collect();
    groups.dedup();
    let mut figures = Vec::new();
    for (t, name, ckpt) in groups {
        let in_group = |i: usize| trace[i] == t && strategy[i] == name && checkpointing[i] as u8 == ckpt;
        let mut curves: Vec<(String, f64)> = (0..table.height())
            .filter(|&i| in_group(i) && percent[i] > 0.0)
            .map(|i| (option[i].clone(), factor[i]))
            .collect();
        curves.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        curves.dedup();
        if curves.is_empty() {
            continue;
        }
        let panel = |metric: &str, title: &str, y_label: &str, scale: f64| -> anyhow::Result<Panel> {
            let (mean, ci) = (values(table, &format!("{metric}_mean"))?, values(table, &format!("{metric}_ci"))?);
            let series = curves
                .iter()
                .enumerate()
                .map(|(k, (opt, f))| {
                    let mut points: Vec<_> = (0..table.height())
                        .filter(|&i| in_group(i) && (percent[i] == 0.0 || (option[i] == *opt && factor[i] == *f)))
                        .map(|i| {
                            let (m, h) = (mean[i] * scale, ci[i] * scale);
                            (percent[i], m, m - h, m + h)
                        })
                        .collect();
                    points.sort_by(|a, b| a.0.total_cmp(&b.0));
                    Series::with_error_bars(format!("{opt}, start factor {f}"), points, true, k)
                })
                .collect();
            Ok(Panel {
                title: format!("{t} ({name}): {title}"),
                x_label: "reservations per variable job (%)".into(),
                y_label: y_label.into(),
                series,
                diagonal: false,
            })
        };
        let suffix = if ckpt == 1 { ", checkpointing" } else { "" };
        figures.push(Figure {
            id: format!("reservations-{}", slug(&format!("{t}-{name}{suffix}"))),
            caption: format!(
                "{t}, {name}{suffix}: reservation rejection rate, SLDwA of variable jobs, utilisation and the mean \
                 delay of moved jobs against the reservation percentage, per option and start factor (means over \
                 repetitions with 95 % intervals; paper B's Figs. 2-4)"
            ),
            panels: vec![
                panel("reservation_rejection_rate", "rejected reservations", "rejection rate (%)", 1.0)?,
                panel("sldwa", "slowdown of variable jobs", "SLDwA", 1.0)?,
                panel("utilisation", "utilisation", "utilisation (%)", 100.0)?,
                panel("move_delay_mean", "delay of moved jobs", "mean delay (h)", 1.0 / 3600.0)?,
            ],
        });
    }
    Ok(figures)
}

/// Runtime per battery against cluster size (dissertation Figs. 6.29/6.30),
/// when the store holds more than one cluster size.
fn runtime_figure(times: &DataFrame) -> anyhow::Result<Option<Figure>> {
    let (capacity, mean, ci) =
        (values(times, "capacity")?, values(times, "seconds_mean")?, values(times, "seconds_ci")?);
    let mut sizes = capacity.clone();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    if sizes.len() < 2 {
        return Ok(None);
    }
    let series =
        series_per_strategy(times, |_| true, |i| (capacity[i], mean[i], mean[i] - ci[i], mean[i] + ci[i]), true)?;
    Ok(Some(Figure {
        id: "runtime-vs-cluster-size".into(),
        caption: "Wall seconds to simulate one battery against the cluster size (one point per trace), with 95 % \
                  intervals"
            .into(),
        panels: vec![Panel {
            title: "runtime per battery".into(),
            x_label: "cluster size (nodes)".into(),
            y_label: "seconds per battery".into(),
            series,
            diagonal: false,
        }],
    }))
}

/// The single-cluster tables and figures of a store's points.
fn single_cluster(
    points: &DataFrame,
    options: &ReportOptions,
) -> anyhow::Result<(Vec<Table>, Vec<Figure>, Vec<String>)> {
    let points = points.clone();
    let agg = aggregates(&points).map_err(|e| anyhow::anyhow!("aggregating points: {e}"))?;
    let rows = agg_rows(&agg)?;
    let pof = pof_table(&rows)?;
    let risk = risk_table(&rows)?;
    let jobs = load_calibration(&options.db, &points)?;
    let (bins, brier) = calibration(&jobs)?;
    let times = runtime(&points)?;
    let reservations = reservation_table(&points)?;
    let queueing = queueing_table(&points)?;
    let checkpointing = checkpoint_table(&points)?;
    let metered = energy::load_energy(&options.db, &points).context("reading the energy meters' rows")?;

    let mut tables = vec![
        Table {
            id: "max-gain".into(),
            title: "Maximum gain per strategy (PoF test)".into(),
            note: "Per trace and PDF source: each strategy's highest mean gain per battery (VC) over PoF_max at \
                   penalty ratio 1, with its 95 % half-width, the PoF_max where it is reached, and the additional \
                   gain in % over its non-overbooking base (dissertation Tables 6.1/6.13). Strategies that do not \
                   overbook are constant along PoF_max."
                .into(),
            df: pof.clone(),
        },
        Table {
            id: "risk".into(),
            title: "Gain per penalty ratio (risk test)".into(),
            note: "Mean gain per battery (VC) under the risk test at each penalty ratio, and the additional gain in % \
                   over the non-overbooking base at the same ratio (dissertation Tables 6.2/6.14)."
                .into(),
            df: risk.clone(),
        },
        Table {
            id: "max-gain-vs-dissertation".into(),
            title: "Maximum gain next to the dissertation's".into(),
            note:
                "For the dissertation's PWA traces: our maximum gain, PoF_max and additional gain next to its Tables \
                   6.1–6.11 (same trace and PDF source), how far ours is from its value in %, and whether its value \
                   lies inside our 95 % interval. Comparable when the store was run with the dissertation's \
                   occurrence factor and machine size (the chapter-6 configs)."
                    .into(),
            df: pof_versus_dissertation(&pof)?,
        },
        Table {
            id: "risk-vs-dissertation".into(),
            title: "Risk-test gain next to the dissertation's".into(),
            note: "For the dissertation's PWA traces: our mean gain and additional gain at each penalty ratio next to \
                   its Tables 6.2–6.12 (its additional gain computed from its gains as ours is)."
                .into(),
            df: risk_versus_dissertation(&risk)?,
        },
        Table {
            id: "calibration".into(),
            title: "Calibration of overbooked jobs".into(),
            note: "Accepted overbooked jobs per trace, PDF source and strategy, binned by predicted PoF (bins \
                   of 0.05): count, failures, mean prediction, observed failure rate and its 95 % Wilson interval, \
                   and whether the prediction lies inside it. The Wilson interval assumes independent outcomes; \
                   jobs of one battery share users and node failures, so the design effect (the variance of the \
                   bin's failures across runs over the binomial variance, at least 1) gives the clustered \
                   interval: Wilson over jobs / design effect."
                .into(),
            df: bins.clone(),
        },
        Table {
            id: "brier".into(),
            title: "Brier score per strategy".into(),
            note: "Mean squared difference between the predicted PoF and the outcome (1 failed, 0 succeeded) of \
                   every accepted overbooked job; lower is better. Then observed / predicted failure rate, and the \
                   bins with at least 30 jobs and how many of them hold their prediction inside their 95 % \
                   Wilson interval (calibrated: all). Then the runs (batteries × settings) with overbooked jobs, \
                   the 95 % interval of observed / predicted with runs as clusters, and the bins inside their \
                   clustered interval."
                .into(),
            df: brier,
        },
        Table {
            id: "runtime".into(),
            title: "Runtime per battery".into(),
            note: "Wall seconds to simulate one battery, per strategy, trace and cluster size (dissertation Figs. \
                   6.29/6.30): mean, 95 % half-width and maximum."
                .into(),
            df: times,
        },
        Table {
            id: "queueing".into(),
            title: "Classic queueing modes".into(),
            note: "FCFS, EASY and conservative backfilling per trace, machine size and kill-at-estimate setting: \
                   runs, jobs, dropped jobs (wider than the machine), and the means of wait, response, slowdown \
                   (over max(run time, 1 s)), bounded slowdown (τ = 10 s), utilisation, makespan and maximum \
                   wait; times in seconds."
                .into(),
            df: queueing,
        },
        Table {
            id: "reservations".into(),
            title: "Reservations: rejection rate, SLDwA and utilisation (paper B)".into(),
            note: "Per trace, strategy, option (reject, or variable jobs move), start factor, checkpointing and \
                   reservation percentage: repetitions, and the mean and 95 % half-width of the reservation \
                   rejection rate (%), the area-weighted slowdown of variable jobs (SLDwA), utilisation (%), the \
                   reservations submitted, jobs moved later, their mean and maximum delay (s), and jobs pinned by \
                   the starvation guard. Points at 0 % have no reservations and stand for every option."
                .into(),
            df: reservations.clone(),
        },
        Table {
            id: "checkpointing".into(),
            title: "Gain with and without checkpointing".into(),
            note: "Settings run both without and with checkpoint/restart of killed overbooked jobs: the mean gain \
                   (VC) of each with its 95 % half-width, the difference, the additional gain in %, whether the \
                   intervals overlap, and per run the checkpoints written and resumed jobs that then succeeded."
                .into(),
            df: checkpointing,
        },
        Table {
            id: "energy".into(),
            title: "Energy per strategy".into(),
            note: "Runs with an energy meter (`[energy]`), per trace and strategy: runs, the mean energy per run \
                   over its makespan window (first submission to last end) in kWh, the mean gain per run (VC), gain \
                   per kWh, and the mean shares of busy, idle and down node-time in %."
                .into(),
            df: energy::energy_table(&metered)?,
        },
        Table {
            id: "aggregates".into(),
            title: "Means over batteries along every sweep axis".into(),
            note: "Per combination of the sweep axes: batteries, and the mean and 95 % Student-t half-width of \
                   accepted, successful, failed, fees, penalties, gain, utilisation and wall seconds."
                .into(),
            df: agg,
        },
    ];
    // A store without risk-test (or overbooked) points has nothing for those
    // tables: they are left out rather than shown empty.
    let omitted: Vec<String> = tables.iter().filter(|t| t.df.height() == 0).map(|t| t.title.clone()).collect();
    tables.retain(|t| t.df.height() > 0);

    let mut figures = Vec::new();
    let mut groups: Vec<(String, String)> = rows
        .iter()
        .filter(|r| tables::reads_overbooking(&r.strategy))
        .map(|r| (r.trace.clone(), r.pdf_source.clone()))
        .collect();
    groups.sort();
    groups.dedup();
    for (trace, pdf) in &groups {
        figures.extend(pof_figures(&rows, trace, pdf));
        figures.extend(risk_figure(&risk, trace, pdf)?);
        figures.extend(calibration_figure(&bins, trace, pdf)?);
    }
    figures.extend(reservation_figures(&reservations)?);
    figures.extend(energy::energy_figures(&metered)?);
    let times = tables.iter().find(|t| t.id == "runtime").map(|t| &t.df);
    if let Some(times) = times {
        figures.extend(runtime_figure(times)?);
    }
    Ok((tables, figures, omitted))
}

/// What a report holds before anything is written: the points it read and
/// its tables and figures.
struct Built {
    points: Option<DataFrame>,
    grid: Option<grid::GridFrames>,
    tables: Vec<Table>,
    figures: Vec<Figure>,
    /// Titles of the tables left out for having no rows.
    omitted: Vec<String>,
    n_points: usize,
}

/// Reads the store (as filtered) and builds every table and figure a report
/// of it holds: the single-cluster tables of its points, the Grid tables of
/// its Grid runs and the provisioning tables, whichever it has.
fn build(options: &ReportOptions) -> anyhow::Result<Built> {
    let filter = Filter { experiment: experiment_filter(&options.config)?, trace: options.trace.clone() };
    let grid = grid::load_grid(&options.db, &filter)?;
    let provisioning = provision::provision_report(&options.db).context("building the provisioning tables")?;
    let points = match load_points(&options.db, &filter) {
        Ok(points) => Some(points),
        Err(load::LoadError::Empty { .. }) if grid.is_some() || provisioning.is_some() => None,
        Err(e) => return Err(e.into()),
    };
    if let Some(points) = &points {
        tables::check_strategies(points)?;
    }
    let (mut tables, mut figures, omitted) = match &points {
        Some(points) => single_cluster(points, options)?,
        None => Default::default(),
    };
    if let Some(g) = &grid {
        let grid_tables = grid::grid_tables(g).map_err(|e| anyhow::anyhow!("building the Grid tables: {e}"))?;
        if let Some(summary) = grid_tables.first() {
            figures.extend(grid::grid_figures(&summary.df).map_err(|e| anyhow::anyhow!("Grid plots: {e}"))?);
        }
        tables.extend(grid_tables.into_iter().filter(|t| t.df.height() > 0));
    }
    let mut provisioned = 0;
    if let Some((prov_tables, prov_figures, count)) = provisioning {
        tables.extend(prov_tables.into_iter().filter(|t| t.df.height() > 0));
        figures.extend(prov_figures);
        provisioned = count;
    }
    let n_points =
        points.as_ref().map_or(0, DataFrame::height) + grid.as_ref().map_or(0, |g| g.points.height()) + provisioned;
    Ok(Built { points, grid, tables, figures, omitted, n_points })
}

/// One table of the report a store gives, as a Markdown table (header and
/// rows, without title or note); nothing is written. The error lists the
/// tables there are when the store gives none called `id`.
pub fn table(options: &ReportOptions, id: &str) -> anyhow::Result<String> {
    let built = build(options)?;
    match built.tables.iter().find(|t| t.id == id) {
        Some(t) => Ok(markdown_rows(t)),
        None => bail!(
            "this report has no table `{id}`; it has: {}",
            built.tables.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Generates a report: the single-cluster tables of its points and the Grid
/// tables of its Grid runs, whichever the store (as filtered) holds.
pub fn generate(options: &ReportOptions) -> anyhow::Result<ReportSummary> {
    // Everything is read before the output directory is made: a store with
    // nothing to report leaves no empty folders behind.
    let Built { points, grid, mut tables, figures, omitted, n_points } = build(options)?;
    prepare_out(&options.out)?;
    for t in &mut tables {
        write_table(&options.out, t).with_context(|| format!("writing table {}", t.id))?;
    }
    let mut drawn = Vec::new();
    for f in figures {
        let svg = f.svg().map_err(anyhow::Error::msg).with_context(|| format!("drawing {}", f.id))?;
        std::fs::write(options.out.join("plots").join(format!("{}.svg", f.id)), &svg)?;
        f.png(&options.out.join("plots").join(format!("{}.png", f.id)))
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("drawing {}", f.id))?;
        drawn.push((f, svg));
    }

    let title = format!("slasim report: {}", options.db.display());
    let intro = format!(
        "<p>{} points from <code>{}</code>{}{}.{}</p>",
        n_points,
        escape(&options.db.display().to_string()),
        options
            .config
            .as_ref()
            .map_or_else(String::new, |c| format!(", experiment <code>{}</code>", escape(&c.display().to_string()))),
        options.trace.as_ref().map_or_else(String::new, |t| format!(", traces matching <code>{}</code>", escape(t))),
        if omitted.is_empty() {
            String::new()
        } else {
            format!(" No rows, left out: {}.", escape(&omitted.join("; ")))
        },
    );
    let all_md: String = tables.iter().map(markdown).collect::<Vec<_>>().join("\n");
    std::fs::write(options.out.join("report.md"), format!("# {title}\n\n{all_md}"))?;
    let index = options.out.join("index.html");
    let runs = gantt_runs(&options.db, points.as_ref(), grid.as_ref()).context("choosing the Gantt charts' runs")?;
    let gantts = gantt_figures(&options.out, &options.db, &runs)?;
    std::fs::write(&index, page(&title, &intro, &tables, &drawn, &gantts))?;
    // A report without figures (a store of slot statistics) keeps no empty folder.
    let _ = std::fs::remove_dir(options.out.join("plots"));
    Ok(ReportSummary {
        points: n_points,
        tables: tables.iter().map(|t| t.id.clone()).collect(),
        figures: drawn.iter().map(|(f, _)| f.id.clone()).collect(),
        gantts: gantts.charts.iter().map(|g| g.id.clone()).collect(),
        index,
        headline: tables.first().map(markdown).unwrap_or_default(),
    })
}

/// Puts two stores side by side: per combination of the axes, the mean gain
/// (and successful jobs) of each with its interval, the difference, and
/// whether the intervals overlap.
pub fn compare(a: &Path, b: &Path, out: &Path) -> anyhow::Result<ReportSummary> {
    let load = |p: &Path| -> anyhow::Result<Vec<Agg>> {
        let points = load_points(p, &Filter::default())?;
        Ok(agg_rows(&aggregates(&points)?)?)
    };
    let (ra, rb) = (load(a)?, load(b)?);
    let key = |r: &Agg| {
        (
            r.strategy.clone(),
            r.trace.clone(),
            r.pdf_source.clone(),
            r.acceptance.clone(),
            r.pof_max.to_bits(),
            r.penalty_ratio.to_bits(),
        )
    };
    let mut cols: [Vec<String>; 4] = Default::default();
    let mut nums: [Vec<f64>; 8] = Default::default();
    let mut overlap = Vec::new();
    for x in &ra {
        let Some(y) = rb.iter().find(|y| key(y) == key(x)) else { continue };
        cols[0].push(x.strategy.clone());
        cols[1].push(x.trace.clone());
        cols[2].push(x.pdf_source.clone());
        cols[3].push(x.acceptance.clone());
        for (i, v) in [
            x.pof_max,
            x.penalty_ratio,
            x.gain,
            x.gain_ci,
            y.gain,
            y.gain_ci,
            y.gain - x.gain,
            y.successful - x.successful,
        ]
        .into_iter()
        .enumerate()
        {
            nums[i].push(v);
        }
        let (ca, cb) = (
            summary::MeanCi { mean: x.gain, half: x.gain_ci, n: x.n },
            summary::MeanCi { mean: y.gain, half: y.gain_ci, n: y.n },
        );
        overlap.push(ca.overlaps(&cb));
    }
    if overlap.is_empty() {
        bail!("{} and {} have no point settings in common to compare", a.display(), b.display());
    }
    let names = [
        "pof_max",
        "penalty_ratio",
        "gain_a",
        "gain_a_ci",
        "gain_b",
        "gain_b_ci",
        "gain_difference",
        "successful_difference",
    ];
    let mut columns = vec![
        Column::new("strategy".into(), cols[0].clone()),
        Column::new("trace".into(), cols[1].clone()),
        Column::new("pdf_source".into(), cols[2].clone()),
        Column::new("acceptance".into(), cols[3].clone()),
    ];
    for (n, v) in names.iter().zip(nums) {
        columns.push(Column::new((*n).into(), v));
    }
    columns.push(Column::new("intervals_overlap".into(), overlap));
    let mut table = Table {
        id: "compare".into(),
        title: format!("{} (A) vs {} (B)", a.display(), b.display()),
        note: "Mean gain per battery in each store with its 95 % half-width, B − A, and whether the two intervals \
               overlap (no overlap: a difference beyond batch noise)."
            .into(),
        df: DataFrame::new_infer_height(columns)?,
    };
    prepare_out(out)?;
    write_table(out, &mut table)?;
    let headline = markdown(&table);
    std::fs::write(out.join("report.md"), &headline)?;
    let index = out.join("index.html");
    std::fs::write(&index, page("slasim comparison", "", std::slice::from_ref(&table), &[], &Gantts::default()))?;
    Ok(ReportSummary {
        points: ra.len() + rb.len(),
        tables: vec![table.id],
        figures: Vec::new(),
        gantts: Vec::new(),
        index,
        headline,
    })
}
