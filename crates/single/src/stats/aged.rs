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
        "observation at t = {now} s is older than the latest one at t = {last} s: observations must arrive in time order"
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn ageing_weights_by_hand() {
        let mut h = AgedHistogram::with_half_life_days(1.0).unwrap();
        assert!(close(h.rate(), LN_2 / 86_400.0, 1e-20));
        assert_eq!(h.weight_of(0, 0), 1.0);
        assert!(close(h.weight_of(0, DAY), 0.5, 1e-15));
        assert!(close(h.weight_of(0, 2 * DAY), 0.25, 1e-15));
        assert!(close(h.weight_of(DAY, 3 * DAY), 0.25, 1e-15));
        assert_eq!(h.weight_of(DAY, 0), 0.0, "an observation from the future weighs nothing");
        // Bin 0 at t = 0, bin 1 at t = 1 day: weights 0.5 and 1 → 1/3, 2/3.
        h.observe(0, 0, 1.0).unwrap();
        h.observe(DAY, 1, 1.0).unwrap();
        let mut p = [0.0; BINS];
        assert!(h.probabilities(&mut p));
        assert!(close(p[0], 1.0 / 3.0, 1e-15) && close(p[1], 2.0 / 3.0, 1e-15));
        assert!(close(p.iter().sum::<f64>(), 1.0, 1e-15));
        // Effective count 0.5 + 1 at one day, half of it a day later.
        assert!(close(h.effective_count(DAY), 1.5, 1e-12));
        assert!(close(h.effective_count(2 * DAY), 0.75, 1e-12));
        // A third observation of weight 3 in bin 1 a day later: 0.25, 0.5 + 3.
        h.observe(2 * DAY, 1, 3.0).unwrap();
        assert!(h.probabilities(&mut p));
        assert!(close(p[0], 0.25 / 3.75, 1e-15) && close(p[1], 3.5 / 3.75, 1e-15));
        assert_eq!((h.samples(), h.last()), (3, Some(2 * DAY)));
    }

    #[test]
    fn no_decay_is_plain_frequencies_and_overruns_cap_at_100() {
        let mut h = AgedHistogram::new(0.0).unwrap();
        let mut p = [1.0; BINS];
        assert!(!h.probabilities(&mut p) && p.iter().all(|&x| x == 0.0), "empty");
        assert_eq!((h.last(), h.effective_count(5)), (None, 0.0));
        for (t, bin) in [(0, 10), (5, 10), (9, 50), (1_000_000, 100), (2_000_000, 250)] {
            h.observe(t, bin, 1.0).unwrap();
        }
        assert!(h.probabilities(&mut p));
        assert_eq!((p[10], p[50], p[100]), (0.4, 0.2, 0.4));
        assert_eq!(h.effective_count(10_000_000), 5.0);
    }

    #[test]
    fn refuses_the_past_and_bad_weights_without_changing() {
        let mut h = AgedHistogram::with_half_life_days(2.0).unwrap();
        h.observe(100, 3, 1.0).unwrap();
        let before = h.clone();
        assert_eq!(h.observe(99, 4, 1.0), Err(AgedError::OutOfOrder { now: 99, last: 100 }));
        assert!(matches!(h.observe(100, 4, -1.0), Err(AgedError::BadWeight(_))));
        assert!(h.observe(100, 4, f64::NAN).is_err() && h.observe(100, 4, f64::INFINITY).is_err());
        assert_eq!(h, before);
        h.observe(100, 4, 1.0).unwrap(); // same time is fine
        let msg = AgedError::OutOfOrder { now: 99, last: 100 }.to_string();
        assert!(msg.contains("99") && msg.contains("time order"), "{msg}");
    }

    #[test]
    fn renormalises_across_long_gaps() {
        // Half-life 1 h; 1000 h later the old mass is 2^−1000 ≈ 9e−302 of the new.
        let mut h = AgedHistogram::with_half_life_days(1.0 / 24.0).unwrap();
        h.observe(0, 0, 1.0).unwrap();
        h.observe(1000 * 3600, 5, 1.0).unwrap();
        let mut p = [0.0; BINS];
        assert!(h.probabilities(&mut p));
        assert!(p[0] < 1e-300 && close(p[5], 1.0, 1e-15));
        // Steps of 100 h (exponent ≈ 69 each) cross the threshold every 4th step.
        for k in 1..=20 {
            h.observe((1000 + 100 * k) * 3600, 7, 1.0).unwrap();
        }
        h.observe((3000 + 1) * 3600, 8, 1.0).unwrap();
        assert!(h.probabilities(&mut p));
        // Bin 7's latest entry is 1 h old (weight 1/2), the rest ≤ 2^−101.
        assert!(close(p[7], 0.5 / 1.5, 1e-12) && close(p[8], 1.0 / 1.5, 1e-12));
        assert!(h.effective_count((3000 + 1) * 3600).is_finite());
        assert!(close(h.effective_count((3000 + 1) * 3600), 1.5, 1e-12));
    }

    #[test]
    fn settings_are_checked_and_named() {
        assert!(close(half_life(0.5).unwrap(), LN_2 / 43_200.0, 1e-20));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-320, 1e308] {
            let err = half_life(bad).unwrap_err();
            assert_eq!(err.setting, "pdf_half_life", "{bad}");
        }
        assert_eq!(
            half_life(0.0).unwrap_err().to_string(),
            "setting `pdf_half_life` = 0: must be a positive, finite number"
        );
        assert_eq!(AgedHistogram::new(-1.0).unwrap_err().setting, "pdf_half_life");
        assert!(AgedHistogram::new(f64::NAN).is_err());
        assert_eq!("online".parse::<PdfUpdate>(), Ok(PdfUpdate::Online));
        for name in PdfUpdate::NAMES {
            assert_eq!(name.parse::<PdfUpdate>().map(|u| u.to_string()).as_deref(), Ok(name));
        }
        let err = "live".parse::<PdfUpdate>().unwrap_err();
        assert_eq!(err.to_string(), "setting `pdf_update` = live: must be static or online");
    }

    /// The normalised PDF from scratch, from the observations made at or
    /// before `t`: weights w·e^(−rate·(t − tᵢ)), computed relative to the
    /// latest included time (the same after normalisation, and no underflow).
    fn from_scratch(events: &[(Time, usize, f64)], rate: f64, t: Time) -> Option<[f64; BINS]> {
        let seen: Vec<_> = events.iter().filter(|e| e.0 <= t).collect();
        let latest = seen.iter().map(|e| e.0).max()?;
        let mut p = [0.0; BINS];
        for e in &seen {
            p[e.1.min(BINS - 1)] += e.2 * (-rate * (latest - e.0) as f64).exp();
        }
        let total: f64 = p.iter().sum();
        if total <= 0.0 {
            return None;
        }
        p.iter_mut().for_each(|x| *x /= total);
        Some(p)
    }

    proptest! {
        #![proptest_config(crate::testing::cases(256))]

        #[test]
        fn online_update_never_uses_the_future(
            half_life_hours in 1.0..2000.0f64,
            steps in prop::collection::vec((0i64..10 * DAY, 0usize..BINS + 5, 0.0..5.0f64), 1..80),
            zero_gaps in prop::collection::vec(any::<bool>(), 80),
        ) {
            // A time-ordered stream, with some simultaneous observations.
            let mut t = 0;
            let events: Vec<(Time, usize, f64)> = steps
                .iter()
                .zip(&zero_gaps)
                .map(|(&(gap, bin, w), &zero)| {
                    t += if zero { 0 } else { gap };
                    (t, bin, w)
                })
                .collect();
            let mut h = AgedHistogram::with_half_life_days(half_life_hours / 24.0).unwrap();
            let mut p = [0.0; BINS];
            for (i, &(ti, bin, w)) in events.iter().enumerate() {
                h.observe(ti, bin, w).unwrap();
                // Query at every time t in [tᵢ, tᵢ₊₁): the state holds exactly
                // the observations made at or before t.
                let next = events.get(i + 1).map_or(Time::MAX, |e| e.0);
                if next == ti {
                    continue;
                }
                for q in [ti, ti + (next.saturating_sub(ti)) / 2] {
                    let reference = from_scratch(&events, h.rate(), q);
                    prop_assert_eq!(h.probabilities(&mut p), reference.is_some());
                    if let Some(r) = reference {
                        for b in 0..BINS {
                            prop_assert!((p[b] - r[b]).abs() < 1e-9, "t = {q}, bin {b}: {} vs {}", p[b], r[b]);
                        }
                    }
                }
                // A late-arriving older observation is refused.
                if ti > 0 {
                    prop_assert!(h.clone().observe(ti - 1, 0, 1.0).is_err());
                }
            }
        }
    }
}
