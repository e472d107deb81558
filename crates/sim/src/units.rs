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

/// A duration in the unit that reads best, one decimal above seconds:
/// `95 s`, `26.3 min`, `7.3 h`, `3.1 d`; every printed duration comes
/// from here.
pub fn duration(seconds: f64) -> String {
    let minute = 60.0;
    let (hour, day) = (HOUR as f64, DAY as f64);
    if seconds.abs() < 2.0 * minute {
        format!("{seconds:.0} s")
    } else if seconds.abs() < 2.0 * hour {
        format!("{:.1} min", seconds / minute)
    } else if seconds.abs() < 2.0 * day {
        format!("{:.1} h", seconds / hour)
    } else {
        format!("{:.1} d", seconds / day)
    }
}

/// `n` and the noun, singular for one: `1 battery`, `20 batteries`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}
