//! Provenance: what a stored run records of where and when it was made.
//!
//! Contract: [`code_version`] names the build (crate version and git commit);
//! [`rfc3339`] writes a wall-clock instant in UTC, to the second. Only the
//! pipeline reads the wall clock, for these records; models never do.

use std::time::SystemTime;

use chrono::DateTime;

/// The code version stored with every run.
pub fn code_version() -> String {
    format!("slasim {} ({})", env!("CARGO_PKG_VERSION"), env!("SLASIM_GIT_COMMIT"))
}

/// `t` as `YYYY-MM-DDTHH:MM:SSZ` (seconds since the epoch if out of range).
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    DateTime::from_timestamp(secs, 0).map_or_else(|| secs.to_string(), |d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}
