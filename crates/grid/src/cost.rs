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
