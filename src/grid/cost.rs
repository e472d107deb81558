//! Cost tables: a cluster's price per CPU-hour by weekday and hour, and the
//! partial cost of a sub-reservation.
//!
//! Reference: `coreservation-thesis-spec.md` §4.7.3 (Listings 6–7, the worked
//! example 10 CPUs Monday 07:30–09:00 → 25), §6.9 (Table 18: 2 from 08–18 h,
//! else 1; clusters 1 and 3 half price at weekends), ambiguities A20 (the
//! calendar: Saturday 00:00 at 800,000 s), A21 (hourly sampling).
//!
//! Contract:
//! - A [`CostTable`] holds one price for each of the 168 hours of a week,
//!   Monday 00:00–01:00 first; prices are finite and ≥ 0.
//! - Simulation time t is mapped to the week by the calendar offset: week
//!   second = (t + offset) mod 604,800. The default offset puts Saturday
//!   00:00 at t = 800,000 s (t = 0 is Wednesday 17:46:40).
//! - The partial cost of `cpus` CPUs over `[start, start + duration)` is
//!   `cpus × Σ price(sample)` with one sample at the start and every full hour
//!   after it while inside the window (⌈duration / 3600⌉ samples, A21); the
//!   literal Listing 7 also samples at `start + duration` when it falls on the
//!   hourly grid (⌊duration / 3600⌋ + 1 samples).

use serde::{Deserialize, Serialize};

use crate::units::{DAY, HOUR, Time};

/// Seconds per week.
pub const WEEK: Time = 7 * DAY;

/// Calendar offset putting Saturday 00:00 at t = 800,000 s (spec A20).
pub const DEFAULT_CALENDAR_OFFSET: Time = 5 * DAY - 800_000 + WEEK;

/// How the hourly rates of a window are sampled (spec A21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CostSampling {
    /// ⌈duration / 3600⌉ samples: start, start + 1 h, … before the end.
    #[default]
    HalfOpen,
    /// Listing 7 literally: `[st, st + 3600 .. st + dauer]`.
    Literal,
}

/// A cluster's price per CPU-hour for each hour of the week.
#[derive(Debug, Clone, PartialEq)]
pub struct CostTable {
    /// Price of each hour of the week, Monday 00:00 first.
    pub hourly: [f64; 168],
    /// Week second of t = 0.
    pub offset: Time,
    /// Sampling rule.
    pub sampling: CostSampling,
}

impl CostTable {
    /// The thesis' table (§6.9): `day` from 08:00 to 18:00, `night` otherwise,
    /// every price times `weekend_factor` on Saturday and Sunday.
    pub fn day_night(day: f64, night: f64, weekend_factor: f64, offset: Time) -> CostTable {
        let mut hourly = [0.0; 168];
        for (h, price) in hourly.iter_mut().enumerate() {
            let (weekday, hour) = (h / 24, h % 24);
            let base = if (8..18).contains(&hour) { day } else { night };
            *price = if weekday >= 5 { base * weekend_factor } else { base };
        }
        CostTable { hourly, offset, sampling: CostSampling::default() }
    }

    /// The price per CPU-hour at simulation time `t`.
    pub fn price_at(&self, t: Time) -> f64 {
        let second = (t + self.offset).rem_euclid(WEEK);
        self.hourly[(second / HOUR) as usize]
    }

    /// The partial cost of `cpus` CPUs over `[start, start + duration)`.
    pub fn partial_cost(&self, cpus: u32, start: Time, duration: Time) -> f64 {
        let samples = match self.sampling {
            CostSampling::HalfOpen => (duration.max(0) + HOUR - 1) / HOUR,
            CostSampling::Literal => duration.max(0) / HOUR + 1,
        };
        let sum: f64 = (0..samples).map(|k| self.price_at(start + k * HOUR)).sum();
        f64::from(cpus) * sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulation time of weekday `d` (0 = Monday) at `h:m` in the first full week.
    fn at(d: Time, h: Time, m: Time) -> Time {
        // Monday 00:00 of the week after t = 0.
        let monday = WEEK - DEFAULT_CALENDAR_OFFSET;
        monday + d * DAY + h * HOUR + m * 60
    }

    #[test]
    fn the_default_calendar_puts_saturday_at_800000() {
        let table = CostTable::day_night(2.0, 1.0, 0.5, DEFAULT_CALENDAR_OFFSET);
        // t = 0 is Wednesday 17:46:40: a day hour (price 2), 13 min before night.
        assert_eq!(DEFAULT_CALENDAR_OFFSET, 2 * DAY + 17 * HOUR + 46 * 60 + 40);
        assert_eq!(table.price_at(0), 2.0);
        assert_eq!(table.price_at(800_000 - 1), 1.0); // Friday 23:59:59, night
        assert_eq!(table.price_at(800_000), 0.5); // Saturday 00:00, weekend night
        assert_eq!(table.price_at(800_000 + 8 * HOUR), 1.0); // Saturday 08:00, weekend day
        assert_eq!(table.price_at(800_000 + 2 * DAY), 1.0); // Monday 00:00: 972,800 s
        assert_eq!(800_000 + 2 * DAY, 972_800);
    }

    #[test]
    fn the_worked_example_costs_25() {
        // Listing 6's Monday: 0–8 h 1.0, 8–18 h 1.5; 10 CPUs 07:30–09:00 → 10 · (1.0 + 1.5).
        let mut table = CostTable::day_night(1.5, 1.0, 1.0, DEFAULT_CALENDAR_OFFSET);
        let start = at(0, 7, 30);
        assert_eq!(table.partial_cost(10, start, 90 * 60), 25.0);
        table.sampling = CostSampling::Literal;
        assert_eq!(table.partial_cost(10, start, 90 * 60), 25.0);
        // The two rules differ for a whole-hour window: 1 h at night is one
        // sample half-open, two (start and end) literally.
        table.sampling = CostSampling::HalfOpen;
        assert_eq!(table.partial_cost(4, at(1, 2, 0), HOUR), 4.0);
        table.sampling = CostSampling::Literal;
        assert_eq!(table.partial_cost(4, at(1, 2, 0), HOUR), 8.0);
    }
}
