//! Alignment of a run's virtual time onto a signal.
//!
//! Contract, the exact rule. Given an [`Alignment`] `{ start, offset, scale }`
//! (`start`: the UTC instant of virtual time 0, e.g. an SWF log's
//! `UnixStartTime`; `offset`: seconds added after it; `scale`: real seconds
//! per virtual second, > 0) and a signal spanning `[A, A + L)`:
//!
//! 1. The *shift* `D` is the whole number of weeks nearest to `start − S`,
//!    where `S` is `start`'s UTC calendar date and clock time in the year of
//!    `A` (29 February becomes 28 February); a tie of half a week rounds up.
//!    So `start − D` has `start`'s weekday and UTC hour and lies within half
//!    a week of the same date in the signal's first year: the season is kept.
//! 2. The *period* `P` is the longest whole number of weeks within `L`; a
//!    signal shorter than one week cannot be aligned.
//! 3. Virtual time `t` is the signal instant `A + ((start + offset + scale·t
//!    − D − A) mod P)` (mod: the non-negative remainder). The signal loops
//!    with period `P`: by whole weeks, so weekday and hour of day stay those
//!    of the log at every `t`.
//!
//! At the loop seam (every `P` seconds of signal time) the value jumps from
//! the signal's value just before `A + P` to its value at `A`: the same
//! weekday and hour, one period earlier in the data. The signal's last
//! `L − P` seconds (a day of a 365-day year, two of a leap year) are never
//! used, and linear interpolation does not run across the seam. An `offset`
//! that is not a whole number of weeks moves the run off its weekday and hour
//! on purpose.
//!
//! [`AlignedSignal::value_at`] and [`AlignedSignal::integral`] (`∫ value dt`
//! over virtual seconds, so a power in W held over `[a, b]` times a carbon
//! intensity integral gives g·W·s/kWh) are O(log n) and allocate nothing.

use slasim_sim::units::seconds;
use std::sync::Arc;

use chrono::{DateTime, Datelike, NaiveDate};

use super::Signal;
use slasim_sim::units::{DAY, Time};

/// Seconds per week.
pub const WEEK: Time = 7 * DAY;

/// Where a run's virtual time 0 is in real (UTC) time (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alignment {
    /// The UTC instant (Unix seconds) of virtual time 0.
    pub start: i64,
    /// Seconds added to every instant after the shift is chosen.
    pub offset: Time,
    /// Real seconds per virtual second (> 0).
    pub scale: f64,
}

/// A signal that cannot be aligned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignError {
    /// The scale is not a positive, finite number.
    #[error("setting `alignment scale` = {0}: must be a positive, finite number")]
    Scale(f64),
    /// The signal spans less than one week: it cannot loop by whole weeks.
    #[error(
        "{signal}: spans {}, less than one week: a signal must span a week to keep weekday and hour",
        seconds(span)
    )]
    TooShort {
        /// The signal's name.
        signal: String,
        /// Its span, seconds.
        span: Time,
    },
}

impl Alignment {
    /// Virtual time 0 at `start`, no offset, scale 1.
    pub fn at(start: i64) -> Alignment {
        Alignment { start, offset: 0, scale: 1.0 }
    }

    /// The shift `D` (whole weeks) that brings `start` into the year of
    /// `signal_start` (rule step 1).
    pub fn shift(&self, signal_start: i64) -> Time {
        let (Some(log), Some(signal)) =
            (DateTime::from_timestamp(self.start, 0), DateTime::from_timestamp(signal_start, 0))
        else {
            return 0;
        };
        let year = signal.year();
        let date = NaiveDate::from_ymd_opt(year, log.month(), log.day())
            .or_else(|| NaiveDate::from_ymd_opt(year, log.month(), log.day() - 1));
        let Some(same) = date.map(|d| d.and_time(log.time()).and_utc().timestamp()) else {
            return 0;
        };
        (self.start - same + WEEK / 2).div_euclid(WEEK) * WEEK
    }

    /// The signal seen through this alignment.
    pub fn align(&self, signal: Arc<Signal>) -> Result<AlignedSignal, AlignError> {
        let scale = self.scale;
        if !(scale.is_finite() && scale > 0.0) {
            return Err(AlignError::Scale(scale));
        }
        let span = signal.span();
        if span < WEEK {
            return Err(AlignError::TooShort { signal: signal.name().to_string(), span });
        }
        let shift = self.shift(signal.start());
        let period = span / WEEK * WEEK;
        let origin = self.start.saturating_add(self.offset).saturating_sub(shift).saturating_sub(signal.start());
        let period_integral = signal.integral_to_offset(period as f64);
        Ok(AlignedSignal { signal, shift, period, origin, scale, period_integral })
    }
}

/// A signal mapped onto a run's virtual time, looping by whole weeks.
#[derive(Debug, Clone)]
pub struct AlignedSignal {
    signal: Arc<Signal>,
    shift: Time,
    period: Time,
    /// Signal seconds (after its start) of virtual time 0, before the loop.
    origin: i64,
    scale: f64,
    /// ∫ value over one period.
    period_integral: f64,
}

impl AlignedSignal {
    /// The signal.
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// The shift `D` (rule step 1), seconds, a whole number of weeks.
    pub fn shift(&self) -> Time {
        self.shift
    }

    /// Signal seconds per virtual second (the alignment's scale).
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The loop period `P`, seconds, a whole number of weeks.
    pub fn period(&self) -> Time {
        self.period
    }

    /// Signal seconds after its start of virtual `t`, unrolled (not looped).
    fn unrolled(&self, t: Time) -> f64 {
        self.origin as f64 + self.scale * t as f64
    }

    /// The signal instant (UTC seconds) virtual time `t` reads.
    pub fn signal_instant(&self, t: Time) -> i64 {
        self.signal.start() + self.unrolled(t).rem_euclid(self.period as f64).floor() as i64
    }

    /// The value at virtual time `t`.
    pub fn value_at(&self, t: Time) -> f64 {
        self.signal.value_at_offset(self.unrolled(t).rem_euclid(self.period as f64))
    }

    /// ∫ value dt over the loop from its origin to unrolled position `x`.
    fn cumulative(&self, x: f64) -> f64 {
        let period = self.period as f64;
        let loops = (x / period).floor();
        loops * self.period_integral + self.signal.integral_to_offset(x - loops * period)
    }

    /// `∫ min(value, cap) dt` over virtual seconds from `from` to `to` (0
    /// when `to ≤ from`): a supply used up to a draw of `cap`, exact under
    /// hold and linear, looping like [`AlignedSignal::integral`]; costs the
    /// samples crossed and allocates nothing.
    pub fn integral_capped(&self, from: Time, to: Time, cap: f64) -> f64 {
        let period = self.period as f64;
        let (mut x, end) = (self.unrolled(from), self.unrolled(to));
        let mut sum = 0.0;
        if end <= x {
            return 0.0;
        }
        // Whole loops counted in integers, so no rounding skips one.
        let mut k = (x / period).floor();
        loop {
            let base = k * period;
            let (local, stop) = ((x - base).clamp(0.0, period), (end - base).min(period));
            if stop > local {
                sum += self.signal.capped_between(local, stop, cap);
            }
            if end <= base + period {
                break;
            }
            k += 1.0;
            x = base + period;
        }
        sum / self.scale
    }

    /// A sample interval's lower value: its sample under hold, the lower of
    /// its two ends under linear interpolation (never above the signal).
    fn segment_low(&self, i: usize) -> f64 {
        let s = &self.signal;
        match (s.interpolation, s.values.get(i + 1)) {
            (super::Interpolation::Linear, Some(&next)) => s.values[i].min(next),
            _ => s.values[i],
        }
    }

    /// The least of [`AlignedSignal::lower_step`] over all time: the lowest
    /// sample interval of the loop.
    pub fn lowest(&self) -> f64 {
        let s = &self.signal;
        (0..s.times.len())
            .take_while(|&i| s.times[i] - s.start() < self.period)
            .map(|i| self.segment_low(i))
            .fold(f64::INFINITY, f64::min)
    }

    /// Virtual seconds that cover one loop of the signal and two seconds
    /// more: a property of every integer second holds at all times once it
    /// holds over this many seconds from any instant.
    pub fn period_seconds(&self) -> Time {
        (self.period as f64 / self.scale).ceil() as Time + 2
    }

    /// The least value over virtual second `[n, n + 1)` of the signal with
    /// each sample interval taken at its lower value (hold: the signal
    /// itself; linear: the lower end of each interval), and the first
    /// second after `n` where it may change: the value holds over `[n,
    /// until)`. A step function never above the signal; costs the sample
    /// intervals crossed and allocates nothing.
    pub fn lower_step(&self, n: Time) -> (f64, Time) {
        let s = &self.signal;
        let period = self.period as f64;
        let (a, b) = (self.unrolled(n), self.unrolled(n.saturating_add(1)));
        if b - a >= period {
            return (self.lowest(), n.saturating_add(1));
        }
        let (mut x, mut low, mut crossed, mut first_end) = (a, f64::INFINITY, 0u32, a);
        while x < b && crossed <= s.times.len() as u32 + 1 {
            let base = (x / period).floor() * period;
            let local = (x - base).clamp(0.0, period);
            let i = s.locate(local);
            let end = ((s.segment_end(i) - s.start()) as f64).min(period);
            low = low.min(self.segment_low(i));
            let next = if base + end > x { base + end } else { base + period };
            if crossed == 0 {
                first_end = next;
            }
            crossed += 1;
            x = next;
        }
        let until = if crossed == 1 {
            // Whole seconds inside the interval, up to the first that reaches past its end.
            let last = ((first_end - self.origin as f64) / self.scale).floor();
            if last.is_finite() && last < (Time::MAX / 2) as f64 { (last as Time).max(n + 1) } else { n + 1 }
        } else {
            n.saturating_add(1)
        };
        (low, until)
    }

    /// `∫ value dt` over virtual seconds from `from` to `to` (negative when
    /// `to < from`), in the signal's unit times seconds.
    pub fn integral(&self, from: Time, to: Time) -> f64 {
        (self.cumulative(self.unrolled(to)) - self.cumulative(self.unrolled(from))) / self.scale
    }
}
