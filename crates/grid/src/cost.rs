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

use slasim_core::units::{DAY, HOUR, Time};

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

/// The calendar of the cost tables: where simulation time falls in the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calendar {
    /// Week second of t = 0 (Monday 00:00 is 0).
    pub offset: Time,
}

impl Calendar {
    /// Second of the week at `t`.
    pub fn week_second(&self, t: Time) -> Time {
        (t + self.offset).rem_euclid(WEEK)
    }

    /// Day time: 08:00–18:00 (spec A20).
    pub fn is_day(&self, t: Time) -> bool {
        (8..18).contains(&((self.week_second(t) % DAY) / HOUR))
    }

    /// Saturday or Sunday.
    pub fn is_weekend(&self, t: Time) -> bool {
        self.week_second(t) / DAY >= 5
    }

    /// The weekend §6.9 calls "the first": [Saturday 00:00, Monday 00:00) of
    /// the simulation's second week (800,000–972,800 s by default; with
    /// Wednesday 17:46:40 at t = 0 a weekend also falls at 195,200 s, but
    /// the thesis' 2-week figures begin after it).
    pub fn first_weekend(&self) -> (Time, Time) {
        let saturday = (5 * DAY - self.offset).rem_euclid(WEEK) + WEEK;
        (saturday, saturday + 2 * DAY)
    }

    /// Seconds of `[start, end)` inside day time, and inside night or weekend time.
    pub fn split(&self, start: Time, end: Time) -> (Time, Time) {
        let (mut day, mut off_peak) = (0, 0);
        let mut t = start;
        while t < end {
            // Up to the next full hour: day and weekend change only on hours.
            let next = (t - self.week_second(t) % HOUR + HOUR).min(end);
            if self.is_day(t) {
                day += next - t;
            }
            if !self.is_day(t) || self.is_weekend(t) {
                off_peak += next - t;
            }
            t = next;
        }
        (day, off_peak)
    }
}

/// One rate of a configured cost table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateConfig {
    /// Days it applies to: `mon` … `sun`, a range `mon-fri`, or `all`.
    pub days: String,
    /// First hour (0–23).
    pub from: u32,
    /// End hour (exclusive, 1–24).
    pub to: u32,
    /// Price per CPU-hour (≥ 0).
    pub price: f64,
}

/// A configured cost table and the clusters using it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostTableConfig {
    /// Cluster indices using this table.
    pub clusters: Vec<u32>,
    /// Its rates; together they must cover every hour of the week exactly once.
    pub rates: Vec<RateConfig>,
}

/// The cost settings of a Grid run (`[grid.costs]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CostConfig {
    /// Week second of t = 0 (default: Saturday 00:00 at 800,000 s).
    pub calendar_offset: Time,
    /// Hourly sampling of a window (A21).
    pub sampling: CostSampling,
    /// Per-cluster tables; a cluster without one uses the thesis' (§6.9).
    pub tables: Vec<CostTableConfig>,
}

impl Default for CostConfig {
    fn default() -> Self {
        CostConfig { calendar_offset: DEFAULT_CALENDAR_OFFSET, sampling: CostSampling::default(), tables: Vec::new() }
    }
}

/// A cost setting out of its domain: which table (and rate) and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("setting `{setting}` (cost table {}{}): {message}", .table + 1, .rate.map_or_else(String::new, |r| format!(", rate {}", r + 1)))]
pub struct CostError {
    /// The setting, as written in a config.
    pub setting: &'static str,
    /// The table (0-based).
    pub table: usize,
    /// The rate (0-based), if one is at fault.
    pub rate: Option<usize>,
    /// What is wrong.
    pub message: String,
}

const DAY_NAMES: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// The weekdays (0 = Monday) of a `days` value.
fn days_of(text: &str) -> Option<Vec<usize>> {
    let day = |d: &str| DAY_NAMES.iter().position(|n| *n == d.trim().to_ascii_lowercase());
    match text.trim().to_ascii_lowercase().as_str() {
        "all" => Some((0..7).collect()),
        range => match range.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (day(a)?, day(b)?);
                (a <= b).then(|| (a..=b).collect())
            }
            None => day(range).map(|d| vec![d]),
        },
    }
}

impl CostConfig {
    /// The cost table of every cluster of `clusters`: configured, else the thesis' §6.9 table
    /// (2 per CPU-hour from 08 to 18 h, 1 otherwise; clusters 1 and 3 half price at weekends).
    pub fn tables(&self, clusters: u32) -> Result<Vec<CostTable>, CostError> {
        let mut out: Vec<Option<CostTable>> = vec![None; clusters as usize];
        for (t, config) in self.tables.iter().enumerate() {
            let err = |setting, rate, message: String| CostError { setting, table: t, rate, message };
            let mut hourly = [f64::NAN; 168];
            for (r, rate) in config.rates.iter().enumerate() {
                if !(rate.price.is_finite() && rate.price >= 0.0) {
                    return Err(err(
                        "grid.costs.tables.rates",
                        Some(r),
                        format!("price {} must be finite and ≥ 0", rate.price),
                    ));
                }
                if rate.from >= rate.to || rate.to > 24 {
                    return Err(err(
                        "grid.costs.tables.rates",
                        Some(r),
                        format!("hours {}–{} must satisfy 0 ≤ from < to ≤ 24", rate.from, rate.to),
                    ));
                }
                let days = days_of(&rate.days).ok_or_else(|| {
                    err(
                        "grid.costs.tables.rates",
                        Some(r),
                        format!("days `{}`: expected mon … sun, a range like mon-fri, or all", rate.days),
                    )
                })?;
                for d in days {
                    for h in rate.from..rate.to {
                        let slot = &mut hourly[d * 24 + h as usize];
                        if !slot.is_nan() {
                            return Err(err(
                                "grid.costs.tables.rates",
                                Some(r),
                                format!("{} {h:02}:00–{:02}:00 has two prices", DAY_NAMES[d], h + 1),
                            ));
                        }
                        *slot = rate.price;
                    }
                }
            }
            if let Some(gap) = hourly.iter().position(|p| p.is_nan()) {
                return Err(err(
                    "grid.costs.tables.rates",
                    None,
                    format!(
                        "a gap in the hours: {} {:02}:00–{:02}:00 has no price",
                        DAY_NAMES[gap / 24],
                        gap % 24,
                        gap % 24 + 1
                    ),
                ));
            }
            for &c in &config.clusters {
                let slot = out.get_mut(c as usize).ok_or_else(|| {
                    err(
                        "grid.costs.tables.clusters",
                        None,
                        format!(
                            "cluster {c} does not exist (the grid has {clusters}: 0–{})",
                            clusters.saturating_sub(1)
                        ),
                    )
                })?;
                if slot.is_some() {
                    return Err(err("grid.costs.tables.clusters", None, format!("cluster {c} has two cost tables")));
                }
                *slot = Some(CostTable { hourly, offset: self.calendar_offset, sampling: self.sampling });
            }
        }
        Ok(out
            .into_iter()
            .enumerate()
            .map(|(c, table)| {
                table.unwrap_or_else(|| {
                    let weekend = if c == 1 || c == 3 { 0.5 } else { 1.0 };
                    CostTable {
                        sampling: self.sampling,
                        ..CostTable::day_night(2.0, 1.0, weekend, self.calendar_offset)
                    }
                })
            })
            .collect())
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

    fn rate(days: &str, from: u32, to: u32, price: f64) -> RateConfig {
        RateConfig { days: days.into(), from, to, price }
    }

    #[test]
    fn configured_tables_cover_the_week_once_and_default_to_the_thesis() {
        let flat = |clusters| CostTableConfig { clusters, rates: vec![rate("all", 0, 24, 3.0)] };
        let config = CostConfig { tables: vec![flat(vec![2])], ..CostConfig::default() };
        let tables = config.tables(4).unwrap();
        let saturday_noon = 800_000 + 12 * HOUR;
        let prices: Vec<f64> = tables.iter().map(|t| t.price_at(saturday_noon)).collect();
        // Thesis: day 2, weekend half price on clusters 1 and 3; cluster 2 flat 3.
        assert_eq!(prices, vec![2.0, 1.0, 3.0, 1.0]);
        let bad = |tables: Vec<CostTableConfig>| CostConfig { tables, ..CostConfig::default() }.tables(4).unwrap_err();
        let e = bad(vec![CostTableConfig { clusters: vec![0], rates: vec![rate("all", 0, 24, -1.0)] }]);
        assert_eq!((e.setting, e.rate), ("grid.costs.tables.rates", Some(0)));
        assert!(e.to_string().contains("price -1 must be finite and ≥ 0"), "{e}");
        let e = bad(vec![CostTableConfig {
            clusters: vec![0],
            rates: vec![rate("mon-fri", 0, 24, 1.0), rate("sat", 0, 24, 1.0)],
        }]);
        assert!(e.to_string().contains("a gap in the hours: sun 00:00–01:00 has no price"), "{e}");
        let e = bad(vec![CostTableConfig {
            clusters: vec![0],
            rates: vec![rate("all", 0, 24, 1.0), rate("tue", 18, 19, 2.0)],
        }]);
        assert!(e.to_string().contains("tue 18:00–19:00 has two prices") && e.rate == Some(1), "{e}");
        let e = bad(vec![flat(vec![7])]);
        assert_eq!(e.setting, "grid.costs.tables.clusters");
        assert!(e.to_string().contains("cluster 7 does not exist"), "{e}");
        let e = bad(vec![CostTableConfig { clusters: vec![0], rates: vec![rate("weekdays", 0, 24, 1.0)] }]);
        assert!(e.to_string().contains("days `weekdays`"), "{e}");
    }

    #[test]
    fn the_calendar_splits_windows_into_day_night_and_weekend() {
        let cal = Calendar { offset: DEFAULT_CALENDAR_OFFSET };
        assert_eq!(cal.first_weekend(), (800_000, 972_800));
        // Friday 17:00 (800,000 − 7 h) for 3 h: one day hour, two night hours, none at the weekend.
        assert_eq!(cal.split(800_000 - 7 * HOUR, 800_000 - 4 * HOUR), (HOUR, 2 * HOUR));
        // Saturday 07:30 for 1 h: 30 min night, 30 min day; all of it weekend (off-peak).
        assert_eq!(cal.split(800_000 + 7 * HOUR + 1800, 800_000 + 8 * HOUR + 1800), (1800, HOUR));
        assert!(cal.is_weekend(800_000) && !cal.is_weekend(800_000 - 1));
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
