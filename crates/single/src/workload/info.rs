//! Summary statistics of an SWF trace, as `slasim trace info` prints them.
//!
//! Contract: [`TraceInfo::of`] reads only the trace in memory; it computes the
//! figures SOURCES.md and the dissertation's Table 5.2 quote (jobs, machine
//! size, span, utilisation, estimate coverage, over-runs) plus the
//! real/estimated-runtime histogram and the occurrence factor that preparation
//! would apply for a target load.

use slasim_core::units::{Unit, amount, percent, percent_to};
use std::fmt::{self, Write as _};

use chrono::DateTime;

use crate::workload::prepare::{PrepareConfig, PrepareError, Split};
use slasim_core::units::thousands;
use slasim_data::trace::swf::SwfTrace;

/// Histogram bins of real/estimated runtime: ten 10 % bins (the last includes
/// exactly 100 %) and one for over-runs.
pub const RATIO_BINS: usize = 11;

/// Statistics of one trace.
#[derive(Debug, Clone)]
pub struct TraceInfo {
    /// Trace name.
    pub name: String,
    /// `Computer` / `Installation` header values.
    pub computer: Option<String>,
    /// Job records.
    pub jobs: usize,
    /// `MaxNodes` header value, verbatim.
    pub max_nodes: Option<String>,
    /// `MaxProcs` header value, verbatim.
    pub max_procs: Option<String>,
    /// Unix time of submit time 0.
    pub unix_start: Option<i64>,
    /// First submit time.
    pub first_submit: i64,
    /// Last known end (submit + wait + run time).
    pub last_end: i64,
    /// Σ processors·runtime / (MaxProcs · span), when MaxProcs is known.
    pub utilisation: Option<f64>,
    /// Jobs with a runtime estimate (requested time > 0).
    pub with_estimate: usize,
    /// Jobs that ran longer than their estimate.
    pub overruns: usize,
    /// Histogram of runtime/estimate over jobs with both.
    pub ratio_histogram: [usize; RATIO_BINS],
    /// Lines skipped in lenient mode.
    pub skipped: String,
    /// Rows the reader of a non-SWF format left out, `(reason, rows)`.
    pub dropped: Vec<(String, u64)>,
    /// The preparation view, or why it is unavailable.
    pub preparation: Result<Split, PrepareError>,
    /// The target load the factor refers to.
    pub target_load: f64,
}

impl TraceInfo {
    /// Computes the statistics, with `config` for the preparation view.
    pub fn of(trace: &SwfTrace, config: &PrepareConfig) -> TraceInfo {
        let records = &trace.records;
        let first_submit = records.iter().filter(|r| r.submit >= 0).map(|r| r.submit).min().unwrap_or(0);
        let last_end = records
            .iter()
            .filter(|r| r.submit >= 0)
            .map(|r| r.submit + r.wait.max(0) + r.runtime.max(0))
            .max()
            .unwrap_or(first_submit);
        let work: f64 = records.iter().map(|r| r.processors().unwrap_or(0) as f64 * r.runtime.max(0) as f64).sum();
        let span = (last_end - first_submit) as f64;
        let utilisation = trace.header.max_procs().filter(|_| span > 0.0).map(|p| work / (p as f64 * span));
        let mut ratio_histogram = [0usize; RATIO_BINS];
        let (mut with_estimate, mut overruns) = (0, 0);
        for r in records {
            let Some(estimate) = r.estimate() else { continue };
            with_estimate += 1;
            if r.runtime > estimate {
                overruns += 1;
            }
            if r.runtime >= 0 {
                let bin = if r.runtime > estimate {
                    RATIO_BINS - 1
                } else {
                    ((r.runtime * 10 / estimate) as usize).min(RATIO_BINS - 2)
                };
                ratio_histogram[bin] += 1;
            }
        }
        let computer = match (trace.header.get("Computer"), trace.header.get("Installation")) {
            (Some(c), Some(i)) => Some(format!("{c} — {i}")),
            (c, i) => c.or(i).map(str::to_string),
        };
        TraceInfo {
            name: trace.name.clone(),
            computer,
            jobs: records.len(),
            max_nodes: trace.header.get("MaxNodes").map(str::to_string),
            max_procs: trace.header.get("MaxProcs").map(str::to_string),
            unix_start: trace.header.unix_start_time(),
            first_submit,
            last_end,
            utilisation,
            with_estimate,
            overruns,
            ratio_histogram,
            skipped: if trace.skipped.total() > 0 { trace.skipped.to_string() } else { String::new() },
            dropped: trace.dropped.clone(),
            preparation: config.split(trace),
            target_load: config.target_load,
        }
    }
}

fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 }
}

fn date(unix: i64) -> String {
    DateTime::from_timestamp(unix, 0).map_or_else(|| unix.to_string(), |d| d.format("%Y-%m-%d %H:%M").to_string())
}

impl fmt::Display for TraceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "trace         {}", self.name)?;
        if let Some(c) = &self.computer {
            writeln!(f, "computer      {c}")?;
        }
        if self.dropped.is_empty() {
            writeln!(f, "jobs          {}", thousands(self.jobs))?;
        } else {
            let left_out = self.dropped.iter().map(|&(_, n)| n as usize).sum::<usize>();
            let reasons: Vec<String> =
                self.dropped.iter().map(|(r, n)| format!("{}: {r}", thousands(*n as usize))).collect();
            writeln!(
                f,
                "jobs          {} of {} rows; the reader left out {} ({})",
                thousands(self.jobs),
                thousands(self.jobs + left_out),
                thousands(left_out),
                reasons.join("; ")
            )?;
        }
        writeln!(f, "MaxNodes      {}", self.max_nodes.as_deref().unwrap_or("(not in header)"))?;
        writeln!(f, "MaxProcs      {}", self.max_procs.as_deref().unwrap_or("(not in header)"))?;
        let days = (self.last_end - self.first_submit) as f64 / 86_400.0;
        match self.unix_start {
            Some(start) => writeln!(
                f,
                "time span     {} to {} UTC ({days:.1} days, first submit to last end)",
                date(start + self.first_submit),
                date(start + self.last_end)
            )?,
            None => writeln!(f, "time span     {days:.1} days (first submit to last end)")?,
        }
        match self.utilisation {
            Some(u) => writeln!(f, "utilisation   {} (processors × run time over MaxProcs × span)", percent(u))?,
            None => writeln!(f, "utilisation   unknown (no MaxProcs in the header)")?,
        }
        writeln!(
            f,
            "estimates     {} of {} jobs ({}) have a requested time",
            thousands(self.with_estimate),
            thousands(self.jobs),
            amount(format_args!("{:.2}", pct(self.with_estimate, self.jobs)), Unit::Percent)
        )?;
        writeln!(
            f,
            "over-runs     {} jobs ({} of those with an estimate) ran longer than requested",
            thousands(self.overruns),
            amount(format_args!("{:.2}", pct(self.overruns, self.with_estimate)), Unit::Percent)
        )?;
        if !self.skipped.is_empty() {
            writeln!(f, "lenient       {}", self.skipped)?;
        }
        let total: usize = self.ratio_histogram.iter().sum();
        writeln!(
            f,
            "real/estimated run time ({} jobs with both; bins [a, b), the last 90 % bin includes 100 %):",
            thousands(total)
        )?;
        let widest = self.ratio_histogram.iter().copied().max().unwrap_or(0).max(1);
        for (bin, &count) in self.ratio_histogram.iter().enumerate() {
            let label = if bin == RATIO_BINS - 1 {
                "> 100 %".to_string()
            } else {
                format!("{}–{}", bin * 10, amount(bin * 10 + 10, Unit::Percent))
            };
            let mut bar = String::new();
            for _ in 0..(40 * count).div_ceil(widest) {
                bar.push('█');
            }
            writeln!(f, "  {label:>9} {} {bar}", amount(format_args!("{:>6.2}", pct(count, total)), Unit::Percent))?;
        }
        match &self.preparation {
            Ok(split) => {
                let mut line = String::new();
                write!(line, "preparation   {}", split.filter).ok();
                writeln!(f, "{line}")?;
                writeln!(
                    f,
                    "              history {} jobs, simulation input {} jobs, capacity {}",
                    thousands(split.history_len),
                    thousands(split.input_len()),
                    split.capacity
                )?;
                writeln!(
                    f,
                    "scaling       estimated load of the input {} → occurrence factor {:.4} for {}",
                    percent_to(split.input_load, 2),
                    split.occurrence_factor,
                    percent_to(self.target_load, 0)
                )?;
            }
            Err(e) => writeln!(f, "preparation   unavailable: {e}")?,
        }
        Ok(())
    }
}
