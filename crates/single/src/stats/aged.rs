//! Runtime-ratio statistics that learn online and age: an exponentially
//! decaying percent-bin histogram.
//!
//! Reference: issue 17 §3 (`--pdf-update static|online`, `--pdf-half-life
//! DAYS`); `overbooking-dissertation-spec.md` §2.1 (percent bins 0 … 100 %,
//! ratio 100·ω/x, overruns in bin 100) and §2.3 (the dissertation's PDFs are
//! static; an online update is the extension named there as missing).
//!
//! Contract:
//! - [`AgedHistogram`] has the [`BINS`] percent bins of `pdf::PercentPdf`. An
//!   observation of weight w made at time t weighs w·e^(−rate·(now − t)) at
//!   time `now`, with rate = ln 2 / half-life ([`half_life`]); rate 0 never
//!   forgets (plain counts, the static statistics).
//! - Observations must arrive in time order: [`AgedHistogram::observe`]
//!   refuses one older than the latest (it would be an outcome from the future
//!   of the state already built), so the PDF at time t depends only on the
//!   observations made at or before t.
//! - `observe` is O(1): rather than decaying every bin at each step, weights
//!   are stored multiplied by e^(rate·(t − origin)), so older entries need no
//!   update and the normalised PDF is simply bin / Σ bins. When that factor
//!   would exceed e^230 (≈ 10^100) the bins are multiplied by its inverse and
//!   the origin moves to the current time (O([`BINS`]), rare: once every
//!   ≈ 330 half-lives); entries that underflow to 0 then weighed < 10^−300 of
//!   the newest.
//! - Bad settings are [`InvalidSetting`]s naming `pdf_half_life` or
//!   `pdf_update`.

use slasim_core::units::seconds;
use std::f64::consts::LN_2;
use std::fmt;
use std::str::FromStr;

use slasim_core::setting::{InvalidSetting, positive};
use slasim_core::units::{DAY, Time};

/// Bins of a percent PDF: 0 … 100 %.
pub const BINS: usize = 101;

/// The scale factor e^230 ≈ 10^100 beyond which the stored weights are
/// renormalised.
const MAX_SCALE_EXPONENT: f64 = 230.0;

/// Whether the runtime PDFs stay as learned from the history or also learn
/// from the jobs that finish during the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PdfUpdate {
    /// Learned once, before the simulation (the dissertation).
    #[default]
    Static,
    /// Finished jobs enter their class's PDF as the simulation runs.
    Online,
}

impl PdfUpdate {
    /// The names `FromStr` accepts.
    pub const NAMES: [&'static str; 2] = ["static", "online"];
}

impl FromStr for PdfUpdate {
    type Err = InvalidSetting;

    fn from_str(s: &str) -> Result<PdfUpdate, InvalidSetting> {
        match s.trim() {
            "static" => Ok(PdfUpdate::Static),
            "online" => Ok(PdfUpdate::Online),
            _ => Err(InvalidSetting::new("pdf_update", s, "must be static or online")),
        }
    }
}

impl fmt::Display for PdfUpdate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PdfUpdate::Static => "static",
            PdfUpdate::Online => "online",
        })
    }
}

/// The decay rate per second of a half-life of `days` days: ln 2 / (days·86 400).
/// The half-life must be positive and finite, and give a positive, finite rate.
pub fn half_life(days: f64) -> Result<f64, InvalidSetting> {
    let days = positive("pdf_half_life", days)?;
    let rate = LN_2 / (days * DAY as f64);
    if rate.is_finite() && rate > 0.0 {
        Ok(rate)
    } else {
        Err(InvalidSetting::new("pdf_half_life", days, "is too small or too large to give a usable decay rate"))
    }
}

/// An observation the histogram refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgedError {
    /// Time went backwards.
    #[error(
        "observation at t = {} is older than the latest one at t = {}: observations must arrive in time order",
        seconds(now),
        seconds(last)
    )]
    OutOfOrder {
        /// The refused observation's time.
        now: Time,
        /// The latest observation's time.
        last: Time,
    },
    /// A weight that is negative, not finite, or would overflow the total.
    #[error("observation weight {0} must be finite, ≥ 0 and small enough not to overflow the histogram")]
    BadWeight(f64),
}

/// An exponentially aged histogram over the percent bins.
#[derive(Debug, Clone, PartialEq)]
pub struct AgedHistogram {
    /// Weights scaled by e^(rate·(t − origin)), t the observation time.
    bins: Vec<f64>,
    /// Σ bins (same scale).
    total: f64,
    /// Time of the latest observation (meaningless while `samples` is 0).
    last: Time,
    /// The time at which the scale factor is 1.
    origin: Time,
    /// Decay rate per second.
    rate: f64,
    /// Observations so far.
    samples: u64,
}

impl AgedHistogram {
    /// An empty histogram decaying at `rate` per second (0: never forgets).
    pub fn new(rate: f64) -> Result<AgedHistogram, InvalidSetting> {
        if !(rate.is_finite() && rate >= 0.0) {
            return Err(InvalidSetting::new("pdf_half_life", rate, "decay rate must be finite and ≥ 0"));
        }
        Ok(AgedHistogram { bins: vec![0.0; BINS], total: 0.0, last: 0, origin: 0, rate, samples: 0 })
    }

    /// An empty histogram with a half-life of `days` days.
    pub fn with_half_life_days(days: f64) -> Result<AgedHistogram, InvalidSetting> {
        AgedHistogram::new(half_life(days)?)
    }

    /// Adds `weight` to `bin` (bins past 100 % count as 100 %) at time `now`.
    /// Refuses an observation older than the latest one, or a weight that is
    /// negative or not finite; a refused observation changes nothing.
    pub fn observe(&mut self, now: Time, bin: usize, weight: f64) -> Result<(), AgedError> {
        if self.samples > 0 && now < self.last {
            return Err(AgedError::OutOfOrder { now, last: self.last });
        }
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(AgedError::BadWeight(weight));
        }
        let origin = if self.samples == 0 { now } else { self.origin };
        let exponent = self.rate * now.saturating_sub(origin) as f64;
        let rebase = exponent > MAX_SCALE_EXPONENT;
        let scaled = if rebase { weight } else { weight * exponent.exp() };
        if !scaled.is_finite() || (!rebase && !(self.total + scaled).is_finite()) {
            return Err(AgedError::BadWeight(weight));
        }
        self.origin = origin;
        if rebase {
            let factor = (-exponent).exp();
            for b in &mut self.bins {
                *b *= factor;
            }
            self.total = self.bins.iter().sum();
            self.origin = now;
        }
        self.bins[bin.min(BINS - 1)] += scaled;
        self.total += scaled;
        self.last = now;
        self.samples += 1;
        Ok(())
    }

    /// Writes the normalised PDF into `out[..BINS]` (as far as `out` reaches).
    /// The normalised PDF does not depend on the current time: ageing scales
    /// every observation alike. Returns false, with zeros, when there is no
    /// weight yet.
    pub fn probabilities(&self, out: &mut [f64]) -> bool {
        let total: f64 = self.bins.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            out.iter_mut().take(BINS).for_each(|o| *o = 0.0);
            return false;
        }
        for (o, b) in out.iter_mut().zip(&self.bins) {
            *o = b / total;
        }
        true
    }

    /// The weight at `now` of a unit observation made at `observed_at`:
    /// e^(−rate·(now − observed_at)); 0 for an observation after `now`.
    pub fn weight_of(&self, observed_at: Time, now: Time) -> f64 {
        if now < observed_at { 0.0 } else { (-self.rate * now.saturating_sub(observed_at) as f64).exp() }
    }

    /// The total aged weight at `now` (the effective sample size); a time
    /// before the latest observation counts as that observation's time.
    pub fn effective_count(&self, now: Time) -> f64 {
        if self.samples == 0 {
            return 0.0;
        }
        self.total * (-self.rate * now.max(self.last).saturating_sub(self.origin) as f64).exp()
    }

    /// The decay rate per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Time of the latest observation, if any.
    pub fn last(&self) -> Option<Time> {
        (self.samples > 0).then_some(self.last)
    }

    /// Number of observations so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }
}
