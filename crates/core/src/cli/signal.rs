//! `slasim signal …`: grid signal inspection.
//!
//! Contract: a signal is read by [`slasim_data::signal::read`], the reader runs
//! will use, with the same options; results go to stdout; a file that cannot
//! be read is one located error (file, line, field).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, Subcommand};

use crate::cli::emit;
use crate::units::{DAY, HOUR, thousands};
use slasim_data::signal::{Interpolation, ReadOptions, Signal, duration, read, resolve_signal, utc};

#[derive(Debug, Subcommand)]
pub(crate) enum SignalCommand {
    /// Print a signal's format, quantity and unit, span, samples and step,
    /// gaps, min/mean/max and hour-of-day profile.
    Info(InfoArgs),
}

#[derive(Debug, Args)]
pub(crate) struct InfoArgs {
    /// The signal file (plain or .gz) in a format of the signals reference
    /// page, or a name under the signals directory ($SLASIM_SIGNAL_DIR, else
    /// ../shared/data/signals).
    file: PathBuf,
    /// The column to read: `lca` (default) or `direct` (Electricity Maps);
    /// `avg_CI` (default), `renewable` (WND+SUN) or a fuel (EIA-930); a
    /// bidding zone such as `France` (SMARD, required).
    #[arg(long)]
    column: Option<String>,
    /// How the value runs between samples.
    #[arg(long, value_enum, default_value_t = InterpolationArg(Interpolation::Hold))]
    interpolation: InterpolationArg,
    /// The longest time without a sample that is bridged, in hours; a longer
    /// gap is an error.
    #[arg(long, value_name = "HOURS", default_value_t = 24.0)]
    max_gap: f64,
    /// Print a Markdown table instead of aligned text.
    #[arg(long)]
    markdown: bool,
}

/// [`Interpolation`] as the command line names it (the data crate knows no
/// command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct InterpolationArg(Interpolation);

crate::cli::options::value_enum!(InterpolationArg {
    InterpolationArg(Interpolation::Hold) => "hold": "a sample's value holds until the next sample (step function)",
    InterpolationArg(Interpolation::Linear) => "linear": "a straight line from each sample to the next",
});

impl std::fmt::Display for InterpolationArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

pub(crate) fn run(command: SignalCommand) -> anyhow::Result<()> {
    match command {
        SignalCommand::Info(args) => info(args),
    }
}

fn info(args: InfoArgs) -> anyhow::Result<()> {
    if !(args.max_gap.is_finite() && args.max_gap >= 0.0) {
        bail!("--max-gap {}: must be a finite number of hours, 0 or more", args.max_gap);
    }
    let path = resolve_signal(&args.file).map_err(anyhow::Error::msg)?;
    let options = ReadOptions {
        column: args.column,
        interpolation: args.interpolation.0,
        max_gap: (args.max_gap * HOUR as f64).round() as i64,
    };
    let signal = read(&path, &options)?;
    let lines = describe(&signal, options.max_gap);
    let mut out = String::new();
    if args.markdown {
        out.push_str("| | |\n|---|---|\n");
        for (key, value) in &lines {
            let _ = writeln!(out, "| {key} | {} |", value.replace('|', "\\|"));
        }
    } else {
        for (key, value) in &lines {
            let _ = writeln!(out, "{key:<14} {value}");
        }
    }
    emit(&out)
}

/// The `signal info` lines: (what, value).
fn describe(signal: &Signal, max_gap: i64) -> Vec<(&'static str, String)> {
    let unit = signal.quantity().unit();
    let mut out = Vec::new();
    let mut line = |key: &'static str, value: String| out.push((key, value));
    line("file", signal.name().to_string());
    line("format", format!("{}, column `{}`", signal.format(), signal.column()));
    line("quantity", signal.quantity().to_string());
    line("interpolation", signal.interpolation().to_string());
    let last = signal.times()[signal.times().len() - 1];
    line(
        "span",
        format!(
            "{} .. {} UTC, the last sample holding until {} ({:.2} days)",
            utc(signal.start()),
            utc(last),
            utc(signal.end()),
            signal.span() as f64 / DAY as f64
        ),
    );
    line("samples", format!("{}, step {}", thousands(signal.times().len()), duration(signal.step())));
    let gaps = signal.gaps();
    let filled = if gaps.filled == 0 {
        "none filled".to_string()
    } else {
        format!("{} filled ({} missing steps, the longest {})", gaps.filled, gaps.missing_steps, duration(gaps.longest))
    };
    line(
        "gaps",
        format!(
            "{filled}; rows without a value: {}; gaps longer than {} are refused",
            gaps.rows_without_value,
            duration(max_gap)
        ),
    );
    let values = signal.values();
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sample_mean = values.iter().sum::<f64>() / values.len() as f64;
    line(
        "min/mean/max",
        format!("{min:.2} / {sample_mean:.2} / {max:.2} {unit} (mean of the samples; over time {:.2})", signal.mean()),
    );
    let mut sums = [(0.0f64, 0u32); 24];
    for (&t, &v) in signal.times().iter().zip(values) {
        let hour = (t.rem_euclid(DAY) / HOUR) as usize;
        sums[hour].0 += v;
        sums[hour].1 += 1;
    }
    let means: Vec<(usize, f64)> =
        sums.iter().enumerate().filter(|(_, (_, n))| *n > 0).map(|(h, (s, n))| (h, s / f64::from(*n))).collect();
    let lowest = means.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
    let highest = means.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
    if let (Some((lo, lo_mean)), Some((hi, hi_mean))) = (lowest, highest) {
        line(
            "hour of day",
            format!("lowest mean at {lo:02}:00 UTC ({lo_mean:.2}), highest at {hi:02}:00 UTC ({hi_mean:.2}) {unit}"),
        );
    }
    for note in signal.notes() {
        line("note", note.clone());
    }
    out
}
