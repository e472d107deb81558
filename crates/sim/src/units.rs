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

/// A fraction as a percentage, one decimal: 0.425 → `42.5 %`; every
/// printed percentage comes from here.
pub fn percent(fraction: f64) -> String {
    format!("{:.1} %", 100.0 * fraction)
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
            TimeUnit { seconds: 1.0, name: "s" }
        } else if largest < 2.0 * hour {
            TimeUnit { seconds: minute, name: "min" }
        } else if largest < 2.0 * day {
            TimeUnit { seconds: hour, name: "h" }
        } else {
            TimeUnit { seconds: day, name: "d" }
        }
    }
}

/// A duration in its [`TimeUnit`], one decimal above seconds: `95 s`,
/// `26.3 min`, `7.3 h`, `3.1 d`; every printed duration comes from here.
pub fn duration(seconds: f64) -> String {
    let unit = TimeUnit::of(seconds);
    if unit.seconds == 1.0 { format!("{seconds:.0} s") } else { format!("{:.1} {}", seconds / unit.seconds, unit.name) }
}

/// `n` and the noun, singular for one: `1 battery`, `20 batteries`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}
