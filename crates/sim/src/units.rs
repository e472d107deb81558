//! Units shared by every module.
//!
//! Virtual time is an integer number of seconds (`Time`). Rates in configs and
//! specs are given per hour (λ, μ of the LANL traces); they are converted once,
//! at the edge, with [`per_hour_to_per_second`].

/// Virtual time and durations, in whole seconds.
pub type Time = i64;

/// Seconds per hour.
pub const HOUR: Time = 3600;

/// Seconds per day.
pub const DAY: Time = 86_400;

/// A node (or processor, depending on the node unit) index, 0-based.
pub type NodeId = u32;

/// A job's index within its battery (0-based, dense).
pub type JobId = u32;

/// Converts a rate per hour into a rate per second.
pub fn per_hour_to_per_second(rate_per_hour: f64) -> f64 {
    rate_per_hour / HOUR as f64
}

/// Groups digits by thousands: 447794 → 447,794.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A unit a printed figure carries. Every unit symbol slasim prints comes
/// from here (a test over the sources holds this).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// `%`
    Percent,
    /// `s`
    Seconds,
    /// `min`
    Minutes,
    /// `h`
    Hours,
    /// `d`
    Days,
    /// `W`
    Watts,
    /// `kWh`
    KilowattHours,
    /// `MiB`
    Mebibytes,
}

impl Unit {
    /// The symbol printed after a figure.
    pub const fn symbol(self) -> &'static str {
        match self {
            Unit::Percent => "%",
            Unit::Seconds => "s",
            Unit::Minutes => "min",
            Unit::Hours => "h",
            Unit::Days => "d",
            Unit::Watts => "W",
            Unit::KilowattHours => "kWh",
            Unit::Mebibytes => "MiB",
        }
    }
}

/// A figure, already formatted, and its unit: `amount(format_args!("{:.0}", w), Unit::Watts)` → `212 W`.
pub fn amount(figure: impl std::fmt::Display, unit: Unit) -> String {
    format!("{figure} {}", unit.symbol())
}

/// Whole or exact seconds, as given: `30 s`, `-17 s`.
pub fn seconds(figure: impl std::fmt::Display) -> String {
    amount(figure, Unit::Seconds)
}

/// A duration in seconds, printed in hours with `decimals` decimals: (5400, 1) → `1.5 h`.
pub fn hours_to(seconds: f64, decimals: usize) -> String {
    amount(format_args!("{:.*}", decimals, seconds / HOUR as f64), Unit::Hours)
}

/// A fraction as a percentage, one decimal: 0.425 → `42.5 %`.
pub fn percent(fraction: f64) -> String {
    percent_to(fraction, 1)
}

/// A fraction as a percentage with `decimals` decimals: (0.425, 2) → `42.50 %`.
pub fn percent_to(fraction: f64, decimals: usize) -> String {
    amount(format_args!("{:.*}", decimals, 100.0 * fraction), Unit::Percent)
}

/// The unit a duration reads best in, from its scale: seconds below two
/// minutes, minutes below two hours, hours below two days, then days.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeUnit {
    /// Seconds per unit.
    pub seconds: f64,
    /// Its symbol: `s`, `min`, `h` or `d`.
    pub name: &'static str,
}

impl TimeUnit {
    /// The unit for values (in seconds) whose largest magnitude is `largest`
    /// (NaN counts as small).
    pub fn of(largest: f64) -> TimeUnit {
        let largest = if largest.is_nan() { 0.0 } else { largest.abs() };
        let (minute, hour, day) = (60.0, HOUR as f64, DAY as f64);
        if largest < 2.0 * minute {
            TimeUnit { seconds: 1.0, name: Unit::Seconds.symbol() }
        } else if largest < 2.0 * hour {
            TimeUnit { seconds: minute, name: Unit::Minutes.symbol() }
        } else if largest < 2.0 * day {
            TimeUnit { seconds: hour, name: Unit::Hours.symbol() }
        } else {
            TimeUnit { seconds: day, name: Unit::Days.symbol() }
        }
    }
}

/// A duration in its [`TimeUnit`], one decimal above seconds: `95 s`,
/// `26.3 min`, `7.3 h`, `3.1 d`; every printed duration comes from here.
pub fn duration(seconds: f64) -> String {
    let unit = TimeUnit::of(seconds);
    if unit.seconds == 1.0 {
        amount(format_args!("{seconds:.0}"), Unit::Seconds)
    } else {
        format!("{:.1} {}", seconds / unit.seconds, unit.name)
    }
}

/// `n` and the noun, singular for one: `1 battery`, `20 batteries`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}
