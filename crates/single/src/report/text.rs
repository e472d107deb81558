//! The text report of `slasim run`: the settings it ran with, and per
//! strategy (one row per PoF_max for strategies that read it) the means per
//! battery, the queueing metrics, the reservations and the calibration of
//! overbooked jobs.
//!
//! Contract: [`run_text`] is a pure function of what the command ran and the
//! stored summaries of its runs; it reads no store and no clock. Its output
//! is compared byte for byte by the CLI tests and the generated docs blocks:
//! a change of layout is a change of those.

use std::fmt::Write as _;
use std::path::Path;

use crate::policy::overbooking::{AcceptanceKind, OverbookingConfig};
use crate::policy::{Placement, StrategyRef};
use crate::stats::calibration::Calibration;
use crate::summary::RunSummary;
use crate::workload::reservations::ReservationConfig;
use slasim_core::units::{count, duration, percent};

/// One summary row: its label, the strategy and the PoF_max it ran with.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRow {
    /// `strategy`, or `strategy @PoF_max` when the strategy reads a curve of them.
    pub label: String,
    /// The strategy.
    pub strategy: StrategyRef,
    /// Its PoF_max (the curve's first for strategies that do not read it).
    pub pof_max: f64,
}

/// One simulated run: its strategy, its PoF_max and its stored summary.
#[derive(Debug, Clone, Copy)]
pub struct RunResult {
    /// The strategy.
    pub strategy: StrategyRef,
    /// The PoF_max it ran with.
    pub pof_max: f64,
    /// Its summary.
    pub summary: RunSummary,
}

/// What `slasim run` ran, as its report states it.
#[derive(Debug, Clone, Copy)]
pub struct RunSettings<'a> {
    /// The workload's name.
    pub workload: &'a str,
    /// Batteries per strategy.
    pub batteries: usize,
    /// The placement.
    pub placement: Placement,
    /// The failure model's name.
    pub failures: &'a str,
    /// The store.
    pub db: &'a Path,
    /// The overbooking settings (the curve's first PoF_max).
    pub overbooking: &'a OverbookingConfig,
    /// Every PoF_max swept.
    pub curve: &'a [f64],
    /// Runs already stored before this command, of `total`.
    pub already: usize,
    /// Runs of the command.
    pub total: usize,
    /// The endpoint of an external scheduler the runs used, if any.
    pub external_endpoint: Option<&'a str>,
    /// Whether a queueing mode ran (the queueing metrics are reported).
    pub queueing: bool,
    /// Whether jobs were killed at their estimate.
    pub kill_at_estimate: bool,
    /// The reservation settings.
    pub reservations: &'a ReservationConfig,
}

/// The report of `slasim run`: `rows` in order, each the mean over its runs
/// in `runs`.
pub fn run_text(s: &RunSettings, rows: &[SummaryRow], runs: &[RunResult]) -> Result<String, std::fmt::Error> {
    let mut text = String::new();
    writeln!(
        text,
        "workload {}, {}, placement {}, failures {}, stored in {}",
        s.workload,
        count(s.batteries, "battery", "batteries"),
        s.placement,
        s.failures,
        s.db.display()
    )?;
    // Only a strategy that overbooks reads these settings.
    if rows.iter().any(|r| r.strategy.reads.overbooking) {
        writeln!(
            text,
            "overbooking: {} test, PoF_max {}, runtime statistics by {}",
            match s.overbooking.acceptance {
                AcceptanceKind::Pof => "PoF",
                AcceptanceKind::Risk => "risk",
            },
            s.curve.iter().map(f64::to_string).collect::<Vec<_>>().join(", "),
            s.overbooking.pdf.source
        )?;
    }
    if s.already > 0 {
        writeln!(text, "{} of {} runs were already stored and were not simulated again", s.already, s.total)?;
        if let Some(endpoint) = s.external_endpoint {
            writeln!(
                text,
                "(slasim cannot tell which scheduler listens at {endpoint}: store another one there under its own \
                 --scheduler-name)"
            )?;
        }
    }
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(0).max(26);
    writeln!(text, "\nmeans per battery:")?;
    writeln!(
        text,
        "{:<width$} {:>9} {:>10} {:>8} {:>9} {:>11} {:>10} {:>11} {:>11}",
        "strategy", "accepted", "successful", "failed", "rejected", "fees", "penalties", "gain", "utilisation"
    )?;
    // The summaries of one row's runs, and a mean over them.
    let runs_of = |row: &SummaryRow| -> Vec<RunSummary> {
        runs.iter()
            .filter(|r| r.strategy == row.strategy && (r.pof_max == row.pof_max || !r.strategy.reads.overbooking))
            .map(|r| r.summary)
            .collect()
    };
    let mean_of =
        |runs: &[RunSummary], f: fn(&RunSummary) -> f64| runs.iter().map(f).sum::<f64>() / runs.len().max(1) as f64;
    for row in rows {
        let runs = runs_of(row);
        let mean = |f| mean_of(&runs, f);
        writeln!(
            text,
            "{:<width$} {:>9.1} {:>10.1} {:>8.1} {:>9.1} {:>11.1} {:>10.1} {:>11.1} {:>11}",
            row.label,
            mean(|s| f64::from(s.accepted)),
            mean(|s| f64::from(s.successful)),
            mean(|s| f64::from(s.failed)),
            mean(|s| f64::from(s.rejected)),
            mean(|s| s.fees),
            mean(|s| s.penalties),
            mean(|s| s.gain),
            percent(mean(|s| s.utilisation)),
        )?;
    }
    if s.queueing {
        queueing(&mut text, s.kill_at_estimate, runs)?;
    }
    if s.reservations.active() {
        let r = s.reservations;
        writeln!(
            text,
            "\nreservations ({} of the jobs, start factor {}, option {}), means per battery:",
            percent(r.percent / 100.0),
            r.start_factor,
            r.option
        )?;
        writeln!(
            text,
            "{:<width$} {:>12} {:>9} {:>10} {:>8} {:>6} {:>15} {:>14} {:>7}",
            "strategy",
            "reservations",
            "accepted",
            "rejected %",
            "SLDwA",
            "moved",
            "mean delay (h)",
            "max delay (h)",
            "pinned"
        )?;
        for row in rows {
            let runs = runs_of(row);
            let mean = |f| mean_of(&runs, f);
            let max_delay = runs.iter().map(|s| s.move_delay_max).fold(0.0, f64::max);
            writeln!(
                text,
                "{:<width$} {:>12.1} {:>9.1} {:>10.1} {:>8.2} {:>6.1} {:>15.2} {:>14.2} {:>7.1}",
                row.label,
                mean(|s| f64::from(s.reservations)),
                mean(|s| f64::from(s.reservations_accepted)),
                mean(|s| s.reservation_rejection_rate),
                mean(|s| s.sldwa),
                mean(|s| f64::from(s.moved_jobs)),
                mean(|s| s.move_delay_mean) / 3600.0,
                max_delay / 3600.0,
                mean(|s| f64::from(s.pinned_jobs)),
            )?;
        }
    }
    if s.overbooking.checkpoint.enabled {
        let checkpoints: u32 = runs.iter().map(|r| r.summary.checkpoints).sum();
        let resumed: u32 = runs.iter().map(|r| r.summary.resumed_successful).sum();
        writeln!(text, "\ncheckpoints written: {checkpoints}; of those jobs, {resumed} succeeded after resuming")?;
    }
    let overbooking_rows: Vec<&SummaryRow> = rows.iter().filter(|r| r.strategy.reads.overbooking).collect();
    if !overbooking_rows.is_empty() {
        writeln!(text, "\ncalibration of overbooked jobs (all batteries):")?;
        // The calibrated column only when the runs calibrate.
        let calibrating = s.overbooking.calibration != Calibration::None;
        let extra = if calibrating { format!(" {:>19}", "mean calibrated") } else { String::new() };
        writeln!(
            text,
            "{:<width$} {:>11} {:>19}{extra} {:>19}",
            "strategy", "overbooked", "mean predicted PoF", "observed failures"
        )?;
        for row in overbooking_rows {
            let runs = runs_of(row);
            let overbooked: u32 = runs.iter().map(|s| s.overbooked).sum();
            let failed: u32 = runs.iter().map(|s| s.overbooked_failed).sum();
            let pof: f64 = runs.iter().map(|s| s.overbooked_pof_sum).sum();
            let n = f64::from(overbooked.max(1));
            let calibrated: Option<f64> =
                runs.iter().filter_map(|s| s.overbooked_pof_calibrated_sum).reduce(|a, b| a + b);
            let extra = match (calibrating, calibrated) {
                (false, _) => String::new(),
                (true, Some(c)) => format!(" {:>19.4}", c / n),
                (true, None) => format!(" {:>19}", "-"),
            };
            writeln!(
                text,
                "{:<width$} {:>11} {:>19.4}{extra} {:>19.4}",
                row.label,
                overbooked,
                pof / n,
                f64::from(failed) / n
            )?;
        }
    }
    Ok(text)
}

/// The queueing metrics, one line per run.
fn queueing(text: &mut String, kill_at_estimate: bool, runs: &[RunResult]) -> std::fmt::Result {
    writeln!(
        text,
        "\nqueueing metrics ({}; slowdown over max(run time, 1 s), bounded slowdown τ = 10 s):",
        if kill_at_estimate { "jobs killed at their estimate" } else { "jobs run past their estimate" }
    )?;
    writeln!(
        text,
        "{:<26} {:>8} {:>8} {:>10} {:>11} {:>9} {:>10} {:>11} {:>12} {:>10}",
        "strategy",
        "jobs",
        "dropped",
        "mean wait",
        "mean resp.",
        "slowdown",
        "bounded sd",
        "utilisation",
        "makespan",
        "max wait"
    )?;
    for r in runs {
        let s = &r.summary;
        writeln!(
            text,
            "{:<26} {:>8} {:>8} {:>10} {:>11} {:>9.2} {:>10.2} {:>11} {:>12} {:>10}",
            r.strategy,
            s.jobs,
            s.dropped,
            duration(s.wait_mean),
            duration(s.response_mean),
            s.slowdown_mean,
            s.bounded_slowdown_mean,
            percent(s.utilisation),
            duration(s.makespan),
            duration(s.wait_max),
        )?;
    }
    Ok(())
}
