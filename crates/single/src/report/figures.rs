//! The single-cluster report's figures: gain and PoF curves per strategy,
//! risk, calibration, reservations and runtimes.
//!
//! Contract: each figure is drawn from a table the section built (never
//! from the store); a figure with nothing to draw (one PoF_max, one
//! cluster size, no strategy in the group) is left out, not drawn empty.
//! Series are per strategy in [`strategy_infos`] order, so a strategy keeps
//! its colour across figures.

use polars::prelude::*;

use crate::policy::strategy_infos;
use crate::report::tables::{self, Agg, lookup};
use slasim_core::report::plots::{Figure, Panel, Series};
use slasim_core::report::render::slug;
use slasim_core::report::tables::{floats, strs};

pub(crate) fn band(rows: &[&Agg], value: fn(&Agg) -> (f64, f64)) -> Vec<(f64, f64, f64, f64)> {
    rows.iter()
        .map(|r| {
            let (m, h) = value(r);
            (r.pof_max, m, m - h, m + h)
        })
        .collect()
}

/// The PoF-test figures of one trace and PDF source.
pub(crate) fn pof_figures(rows: &[Agg], trace: &str, pdf: &str) -> Vec<Figure> {
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
                Some(Series {
                    name: info.name.into(),
                    points,
                    band: true,
                    error_bars: false,
                    line: true,
                    colour: k,
                    ..Default::default()
                })
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
                ..Default::default()
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
                    ..Default::default()
                },
                Panel {
                    title: format!("{t} ({pdf} PDFs): failed jobs"),
                    x_label: "PoF_max".into(),
                    y_label: "failed jobs per battery".into(),
                    series: curves(|r| (r.failed, r.failed_ci)),
                    diagonal: false,
                    ..Default::default()
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
    let names = strs(df, "strategy")?;
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
    Ok(floats(df, name)?.into_iter().map(|v| v.unwrap_or(0.0)).collect())
}

/// Rows of `df` for one trace and PDF source.
pub(crate) fn rows_of(df: &DataFrame, trace: &str, pdf: &str) -> PolarsResult<impl Fn(usize) -> bool> {
    let (traces, pdfs) = (strs(df, "trace")?, strs(df, "pdf_source")?);
    let (trace, pdf) = (trace.to_string(), pdf.to_string());
    Ok(move |i: usize| traces[i] == trace && pdfs[i] == pdf)
}

/// The risk-test figure of one trace and PDF source.
pub(crate) fn risk_figure(risk: &DataFrame, trace: &str, pdf: &str) -> anyhow::Result<Option<Figure>> {
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
            ..Default::default()
        }],
    }))
}

/// The calibration diagram of one trace and PDF source.
pub(crate) fn calibration_figure(bins: &DataFrame, trace: &str, pdf: &str) -> anyhow::Result<Option<Figure>> {
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
            ..Default::default()
        }],
    }))
}

/// Paper B's figures, one per trace and strategy run with reservations:
/// rejection rate, SLDwA, utilisation and the mean delay of moved jobs
/// against the reservation percentage, one series per option and start
/// factor (each starting from the shared 0 % baseline), 95 % error bars.
pub(crate) fn reservation_figures(table: &DataFrame) -> anyhow::Result<Vec<Figure>> {
    let (trace, strategy, option) =
        (strs(table, "trace")?, strs(table, "strategy")?, strs(table, "reservation_option")?);
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
                ..Default::default()
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
pub(crate) fn runtime_figure(times: &DataFrame) -> anyhow::Result<Option<Figure>> {
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
            ..Default::default()
        }],
    }))
}
