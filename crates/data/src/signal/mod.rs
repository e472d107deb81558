//! Time-varying grid signals: carbon intensity, electricity price, renewable
//! supply, as time series read from the hourly files of
//! `../shared/data/signals` (see its `SOURCES.md`) or from a plain
//! `time,UNIT` file a user writes.
//!
//! Contract:
//! - A [`Signal`] is one quantity ([`Quantity`], which fixes its unit) sampled
//!   at absolute UTC instants (Unix seconds), strictly increasing. Its *step*
//!   is the smallest spacing between two samples; it covers the span
//!   `[start, end)` with `end = last sample + step`, so the last sample counts
//!   for one step like every other.
//! - Between samples the value follows the signal's [`Interpolation`]:
//!   [`Interpolation::Hold`] (a sample's value holds until the next sample) or
//!   [`Interpolation::Linear`] (straight line to the next sample; the last
//!   sample holds for its step). Every reader defaults to hold (the shipped
//!   files give hourly averages or hourly market products); the caller may
//!   choose linear.
//! - [`Signal::value_at`] and [`Signal::integral`] (`∫ value dt` over seconds)
//!   cost O(log n) (a binary search, then a prefix sum) and allocate nothing;
//!   outside the span they return `None`.
//! - Readers ([`read`], [`parse`]) know the five shipped formats and the plain
//!   form, detected from the header line, plain or gzip (by magic bytes); see
//!   [`Format`] for each one's columns and source. A missing value (an empty
//!   cell or `-`) drops its row; the missing steps between two samples are a
//!   *gap*, bridged by the interpolation when it is at most
//!   [`ReadOptions::max_gap`] long (default 24 h) and refused otherwise. Rows
//!   without a value before the first or after the last sample only narrow
//!   the span.
//! - Every refusal is a [`SignalError`] naming the file, and the line and the
//!   field when one is at fault: an unreadable header or unit, an unknown
//!   column, a time or value that cannot be read, time going back, a duplicate
//!   time, a refused gap, a negative value where the quantity cannot be
//!   negative (a price can: day-ahead markets clear below zero, as the shipped
//!   files show; a carbon intensity, a power or an energy cannot), fewer than
//!   two samples, an empty file. No input makes a reader panic.
//! - [`Alignment`] maps a run's virtual time onto a signal so that a log from
//!   another year keeps its weekday and hour of day, looping the signal by
//!   whole weeks ([`align`] has the exact rule).
//!
//! Signals are data, like traces: this module knows no kind and no run.

pub mod align;
mod read;

#[cfg(test)]
mod tests;

use std::fmt;
use std::path::{Path, PathBuf};

pub use align::{AlignError, AlignedSignal, Alignment, WEEK};
pub use read::{Format, ReadOptions, parse, read};

use slasim_sim::units::Time;

pub use crate::dirs::{LEGACY_SIGNAL_DIR, SIGNAL_DIR_ENV, signal_dirs};

/// The signals directory where fetched signals go: the first of [`signal_dirs`].
pub fn signal_dir() -> PathBuf {
    signal_dirs().swap_remove(0)
}

/// Resolves a signal name: the path itself if it exists; else a catalogue
/// name or file name ([`crate::trace::catalogue`]) found in
/// [`signal_dirs`]; else the same relative path under one of them.
pub fn resolve_signal(name: &Path) -> Result<PathBuf, String> {
    if name.exists() {
        return Ok(name.to_path_buf());
    }
    let entry = name
        .to_str()
        .and_then(crate::trace::catalogue::find)
        .filter(|e| e.dataset == crate::trace::catalogue::Dataset::Signals);
    if let Some(found) = entry.and_then(crate::trace::locate) {
        return Ok(found);
    }
    let dirs = signal_dirs();
    if let Some(found) = dirs.iter().map(|dir| dir.join(name)).find(|p| p.exists()) {
        return Ok(found);
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let hint = match entry {
        Some(entry) => format!("`slasim trace fetch {}` downloads it", entry.name),
        None => format!("set {SIGNAL_DIR_ENV} to the directory holding carbon_intensity/, grid_mix/ and prices/"),
    };
    Err(format!("{}: no such file (also looked under {}; {hint})", name.display(), looked.join(", ")))
}

/// What a signal measures; it fixes the unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Quantity {
    /// Grid carbon intensity, gCO2eq per kWh.
    CarbonIntensity,
    /// Electricity price per MWh, in `currency` (an ISO 4217 code: USD,
    /// EUR, …). May be negative.
    Price {
        /// The currency's code.
        currency: String,
    },
    /// Power, in watts.
    Power,
    /// Energy per hour, MWh per hour (an hour's mean power in MW): the
    /// generation of a fuel, or renewable (wind and solar) supply.
    EnergyPerHour,
}

impl Quantity {
    /// What it is, in words.
    pub fn name(&self) -> &'static str {
        match self {
            Quantity::CarbonIntensity => "carbon intensity",
            Quantity::Price { .. } => "electricity price",
            Quantity::Power => "power",
            Quantity::EnergyPerHour => "energy per hour",
        }
    }

    /// Its unit, as written in the plain form's header.
    pub fn unit(&self) -> String {
        match self {
            Quantity::CarbonIntensity => "gCO2eq/kWh".to_string(),
            Quantity::Price { currency } => format!("{currency}/MWh"),
            Quantity::Power => "W".to_string(),
            Quantity::EnergyPerHour => "MWh/h".to_string(),
        }
    }

    /// Whether a value below zero is valid: only for a price.
    pub fn may_be_negative(&self) -> bool {
        matches!(self, Quantity::Price { .. })
    }

    /// The quantity a unit names (the plain form's header): `gCO2eq/kWh` (or
    /// `gCO2/kWh`), `XXX/MWh` with a three-letter currency code, `W`, `MWh/h`.
    pub fn from_unit(unit: &str) -> Option<Quantity> {
        let unit = unit.trim();
        match unit {
            "gCO2eq/kWh" | "gCO2/kWh" | "gCO₂eq/kWh" => Some(Quantity::CarbonIntensity),
            "W" => Some(Quantity::Power),
            "MWh/h" => Some(Quantity::EnergyPerHour),
            _ => {
                let currency = unit.strip_suffix("/MWh")?;
                (currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase()))
                    .then(|| Quantity::Price { currency: currency.to_string() })
            }
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.name(), self.unit())
    }
}

/// How a signal's value runs between two samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// A step function: a sample's value holds until the next sample.
    #[default]
    Hold,
    /// A straight line from each sample to the next; the last sample holds
    /// for one step.
    Linear,
}

impl fmt::Display for Interpolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Interpolation::Hold => "hold",
            Interpolation::Linear => "linear",
        })
    }
}

/// The gaps a reader bridged, and the rows it found without a value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gaps {
    /// Gaps bridged by the interpolation: spacings longer than the step.
    pub filled: usize,
    /// Steps without a sample inside the span (over all filled gaps).
    pub missing_steps: u64,
    /// The longest filled gap, in seconds without a sample (spacing − step).
    pub longest: Time,
    /// Data rows whose value was missing (an empty cell or `-`), wherever
    /// they were (inside gaps, or before the first or after the last sample).
    pub rows_without_value: u64,
}

/// What went wrong, for tests and callers that branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// The file cannot be opened or read, or its gzip stream is corrupt.
    Io,
    /// Zero bytes, or no line at all.
    Empty,
    /// The header line is not one of the known formats, or names no unit.
    Header,
    /// The column asked for is not in the file (or the format needs one).
    Column,
    /// A row has a different number of fields than the header.
    FieldCount,
    /// A time that cannot be read (or a local time that does not exist).
    Time,
    /// A value that is not a finite number.
    NotANumber,
    /// A negative value of a quantity that cannot be negative.
    Negative,
    /// A time before the previous sample's.
    TimeGoesBack,
    /// A time equal to the previous sample's.
    DuplicateTime,
    /// More missing time between two samples than the tolerance.
    Gap,
    /// Fewer than two samples.
    TooFewSamples,
}

/// A signal that cannot be read, located: the file, and the line (1-based)
/// and the field when one is at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{path}{line}{field}: {detail}",
    path = .path.display(),
    line = .line.map(|l| format!(":{l}")).unwrap_or_default(),
    field = .field.as_ref().map(|f| format!(": field `{f}`")).unwrap_or_default())]
pub struct SignalError {
    /// The file (or the name given to [`parse`]).
    pub path: PathBuf,
    /// The 1-based line, when one is at fault.
    pub line: Option<u64>,
    /// The field's header name, when one is at fault.
    pub field: Option<String>,
    /// The class of problem.
    pub problem: Problem,
    /// What is wrong, with the text read.
    pub detail: String,
}

/// A time series of one quantity at absolute UTC instants (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Signal {
    name: String,
    format: Format,
    column: String,
    quantity: Quantity,
    interpolation: Interpolation,
    times: Vec<i64>,
    values: Vec<f64>,
    step: Time,
    /// `cumulative[i]` = ∫ value dt from the first sample to sample `i`;
    /// one more entry for the span's end.
    cumulative: Vec<f64>,
    gaps: Gaps,
    notes: Vec<String>,
}

/// The samples a reader collected, with the line of each (for located errors).
pub(crate) struct Samples {
    pub times: Vec<i64>,
    pub values: Vec<f64>,
    pub lines: Vec<u64>,
    pub rows_without_value: u64,
}

impl Signal {
    /// A signal from samples in memory (strictly increasing times within
    /// ±262,000 years, at least two), with no gap allowed beyond `max_gap`;
    /// errors name `name` as the file and a sample's 1-based index as the line.
    pub fn from_samples(
        name: &str,
        quantity: Quantity,
        interpolation: Interpolation,
        times: Vec<i64>,
        values: Vec<f64>,
        max_gap: Time,
    ) -> Result<Signal, SignalError> {
        let error = |line: Option<u64>, problem, detail: String| SignalError {
            path: PathBuf::from(name),
            line,
            field: None,
            problem,
            detail,
        };
        if times.len() != values.len() {
            return Err(error(None, Problem::FieldCount, format!("{} times but {} values", times.len(), values.len())));
        }
        for (i, (&t, &v)) in times.iter().zip(&values).enumerate() {
            let at = Some(i as u64 + 1);
            if !v.is_finite() {
                return Err(error(at, Problem::NotANumber, format!("sample {}: `{v}` is not a finite number", i + 1)));
            }
            if v < 0.0 && !quantity.may_be_negative() {
                return Err(error(
                    at,
                    Problem::Negative,
                    format!("sample {}: negative {} {v}", i + 1, quantity.name()),
                ));
            }
            if chrono::DateTime::from_timestamp(t, 0).is_none() {
                return Err(error(at, Problem::Time, format!("sample {}: time {t} is out of range", i + 1)));
            }
            if i > 0 && t <= times[i - 1] {
                let problem = if t == times[i - 1] { Problem::DuplicateTime } else { Problem::TimeGoesBack };
                return Err(error(at, problem, format!("sample {}: time {t} after {}", i + 1, times[i - 1])));
            }
        }
        let lines = (1..=times.len() as u64).collect();
        let samples = Samples { times, values, lines, rows_without_value: 0 };
        Signal::build(Path::new(name), Format::Memory, String::new(), quantity, interpolation, samples, max_gap, None)
    }

    /// Checks the spacing (gaps) and computes the step and prefix sums.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        path: &Path,
        format: Format,
        column: String,
        quantity: Quantity,
        interpolation: Interpolation,
        samples: Samples,
        max_gap: Time,
        time_field: Option<&str>,
    ) -> Result<Signal, SignalError> {
        let Samples { times, values, lines, rows_without_value } = samples;
        if times.len() < 2 {
            return Err(SignalError {
                path: path.to_path_buf(),
                line: None,
                field: None,
                problem: Problem::TooFewSamples,
                detail: format!(
                    "{} sample(s) with a value{}: a signal needs at least two, to know its step",
                    times.len(),
                    if rows_without_value > 0 {
                        format!(" ({rows_without_value} row(s) without one)")
                    } else {
                        String::new()
                    }
                ),
            });
        }
        let step = times.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(1);
        let mut gaps = Gaps { rows_without_value, ..Gaps::default() };
        for (i, w) in times.windows(2).enumerate() {
            let spacing = w[1] - w[0];
            if spacing == step {
                continue;
            }
            let missing = spacing - step;
            if missing > max_gap {
                return Err(SignalError {
                    path: path.to_path_buf(),
                    line: Some(lines[i + 1]),
                    field: time_field.map(str::to_string),
                    problem: Problem::Gap,
                    detail: format!(
                        "gap: no sample for {} after {} (the step is {}; gaps up to {} are bridged)",
                        duration(missing),
                        utc(w[0]),
                        duration(step),
                        duration(max_gap)
                    ),
                });
            }
            gaps.filled += 1;
            gaps.missing_steps += (missing / step) as u64;
            gaps.longest = gaps.longest.max(missing);
        }
        let mut signal = Signal {
            name: path.display().to_string(),
            format,
            column,
            quantity,
            interpolation,
            times,
            values,
            step,
            cumulative: Vec::new(),
            gaps,
            notes: Vec::new(),
        };
        signal.accumulate();
        Ok(signal)
    }

    fn accumulate(&mut self) {
        let n = self.times.len();
        let mut cumulative = Vec::with_capacity(n + 1);
        let mut sum = 0.0;
        cumulative.push(0.0);
        for i in 0..n {
            sum += self.segment(i, self.segment_end(i) as f64 - self.times[i] as f64);
            cumulative.push(sum);
        }
        self.cumulative = cumulative;
    }

    /// The same samples under another interpolation.
    pub fn with_interpolation(mut self, interpolation: Interpolation) -> Signal {
        if interpolation != self.interpolation {
            self.interpolation = interpolation;
            self.accumulate();
        }
        self
    }

    pub(crate) fn push_note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// The file it was read from (or the name given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format it was read in.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The column read, as the reader names it (`lca`, `avg_CI`, a zone…).
    pub fn column(&self) -> &str {
        &self.column
    }

    /// What it measures.
    pub fn quantity(&self) -> &Quantity {
        &self.quantity
    }

    /// How it runs between samples.
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// The sample instants, UTC Unix seconds, strictly increasing.
    pub fn times(&self) -> &[i64] {
        &self.times
    }

    /// The sample values, in the quantity's unit.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The smallest spacing between two samples, seconds.
    pub fn step(&self) -> Time {
        self.step
    }

    /// The first sample's instant.
    pub fn start(&self) -> i64 {
        self.times[0]
    }

    /// The end of the span (exclusive): the last sample plus one step.
    pub fn end(&self) -> i64 {
        self.times[self.times.len() - 1] + self.step
    }

    /// The gaps bridged when it was read.
    pub fn gaps(&self) -> Gaps {
        self.gaps
    }

    /// What a reader noted about the file (e.g. a known mislabelled unit).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Where segment `i` ends: the next sample, or the span's end.
    fn segment_end(&self, i: usize) -> i64 {
        self.times.get(i + 1).copied().unwrap_or_else(|| self.end())
    }

    /// ∫ value over the first `d` seconds of segment `i` (0 ≤ d ≤ its length).
    fn segment(&self, i: usize, d: f64) -> f64 {
        let v = self.values[i];
        match (self.interpolation, self.values.get(i + 1)) {
            (Interpolation::Linear, Some(&next)) => {
                let length = (self.times[i + 1] - self.times[i]) as f64;
                v * d + (next - v) * d * d / (2.0 * length)
            }
            _ => v * d,
        }
    }

    /// The segment holding `x` seconds after the start (0 ≤ x < span).
    fn locate(&self, x: f64) -> usize {
        let t0 = self.times[0];
        self.times.partition_point(|&t| ((t - t0) as f64) <= x).saturating_sub(1)
    }

    /// The span's length in seconds.
    pub fn span(&self) -> Time {
        self.end() - self.start()
    }

    /// The value `x` seconds after the start, `0 ≤ x < span` (not checked).
    pub(crate) fn value_at_offset(&self, x: f64) -> f64 {
        let i = self.locate(x);
        let d = x - (self.times[i] - self.times[0]) as f64;
        match (self.interpolation, self.values.get(i + 1)) {
            (Interpolation::Linear, Some(&next)) => {
                let length = (self.times[i + 1] - self.times[i]) as f64;
                self.values[i] + (next - self.values[i]) * d / length
            }
            _ => self.values[i],
        }
    }

    /// ∫ value dt from the start to `x` seconds after it, `0 ≤ x ≤ span`
    /// (not checked).
    pub(crate) fn integral_to_offset(&self, x: f64) -> f64 {
        if x >= self.span() as f64 {
            return self.cumulative[self.times.len()];
        }
        let i = self.locate(x);
        let d = x - (self.times[i] - self.times[0]) as f64;
        self.cumulative[i] + self.segment(i, d)
    }

    /// `∫ min(value, cap) dt` from `a` to `b` seconds after the start,
    /// `0 ≤ a ≤ b ≤ span` (not checked): exact under both interpolations (a
    /// linear segment crossing the cap is split where it crosses); costs the
    /// segments crossed, allocates nothing.
    pub(crate) fn capped_between(&self, a: f64, b: f64, cap: f64) -> f64 {
        let t0 = self.times[0];
        let mut i = self.locate(a);
        let (mut x, mut sum) = (a, 0.0);
        while x < b && i < self.times.len() {
            let from = (self.times[i] - t0) as f64;
            let to = b.min((self.segment_end(i) - t0) as f64);
            let value = |y: f64| match (self.interpolation, self.values.get(i + 1)) {
                (Interpolation::Linear, Some(&next)) => {
                    let length = (self.times[i + 1] - self.times[i]) as f64;
                    self.values[i] + (next - self.values[i]) * (y - from) / length
                }
                _ => self.values[i],
            };
            sum += capped_line(to - x, value(x), value(to), cap);
            x = to;
            i += 1;
        }
        sum
    }

    /// The value at UTC instant `t`; `None` outside `[start, end)`.
    pub fn value_at(&self, t: i64) -> Option<f64> {
        (self.start() <= t && t < self.end()).then(|| self.value_at_offset((t - self.start()) as f64))
    }

    /// `∫ value dt` from `from` to `to` (UTC instants, seconds), in the unit
    /// times seconds; `None` unless `start ≤ from ≤ to ≤ end`.
    pub fn integral(&self, from: i64, to: i64) -> Option<f64> {
        (self.start() <= from && from <= to && to <= self.end()).then(|| {
            self.integral_to_offset((to - self.start()) as f64) - self.integral_to_offset((from - self.start()) as f64)
        })
    }

    /// The time-weighted mean over the span.
    pub fn mean(&self) -> f64 {
        self.cumulative[self.times.len()] / self.span() as f64
    }
}

/// `∫ min(v, cap)` over `length` seconds where `v` runs in a straight line
/// from `v0` to `v1`.
fn capped_line(length: f64, v0: f64, v1: f64, cap: f64) -> f64 {
    if length <= 0.0 {
        return 0.0;
    }
    if v0 <= cap && v1 <= cap {
        return (v0 + v1) / 2.0 * length;
    }
    if v0 >= cap && v1 >= cap {
        return cap * length;
    }
    // One end above the cap: the line crosses it once, at `cross`.
    let cross = (cap - v0) / (v1 - v0) * length;
    if v0 < cap {
        (v0 + cap) / 2.0 * cross + cap * (length - cross)
    } else {
        cap * cross + (cap + v1) / 2.0 * (length - cross)
    }
}

/// A UTC instant as `YYYY-MM-DD HH:MM:SS`.
pub fn utc(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map_or_else(|| format!("{t} s"), |d| d.format("%Y-%m-%d %H:%M:%S").to_string())
}

/// A duration in the largest whole unit that divides it (`1 h`, `90 min`, `45 s`).
pub fn duration(seconds: Time) -> String {
    if seconds != 0 && seconds % 3600 == 0 {
        format!("{} h", seconds / 3600)
    } else if seconds != 0 && seconds % 60 == 0 {
        format!("{} min", seconds / 60)
    } else {
        format!("{seconds} s")
    }
}
