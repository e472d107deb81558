//! Raising a trace's load without changing its jobs: a week-shifted, thinned copy.
//!
//! Reference: `provisioning-dissertation-spec.md` §3.8 "Resource load" (the
//! method of Sabin et al.: a second copy of the trace starting one week after
//! the first, each of its jobs submitted with a probability), §10 (calibrate
//! the probability by bisection to hit a target utilisation; record it) and
//! the utilisation definition there.
//!
//! Contract: every job of the copy draws one uniform number once, and is kept
//! iff it is below the probability; so the kept set grows monotonically with
//! the probability and bisection on it is well defined. The result is sorted
//! by submission (originals before copies at equal times) and renumbered
//! 0..n. The offered utilisation used to calibrate is Σ procs × runtime /
//! (capacity × (last submit-plus-runtime − first submit)); the utilisation the
//! simulation achieves is measured and stored separately.

use rand::RngExt;

use slasim_core::rng::{LOAD_COPY, stream};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::{DAY, Time};
use slasim_single::workload::job::Job;

/// The shift of the copy: one week.
pub const WEEK: Time = 7 * DAY;

/// Σ procs × runtime / (capacity × span), or `None` for an empty or zero-span list.
pub fn offered_utilisation(jobs: &[Job], capacity: u32) -> Option<f64> {
    let first = jobs.iter().map(|j| j.occurrence).min()?;
    let last = jobs.iter().map(|j| j.occurrence + j.runtime).max()?;
    let work: f64 = jobs.iter().map(|j| f64::from(j.nodes) * j.runtime as f64).sum();
    (last > first && capacity > 0).then(|| work / (f64::from(capacity) * (last - first) as f64))
}

/// The jobs plus a copy shifted by one week, whose jobs are kept with
/// `probability` (each decided by its own draw from `seed`'s load stream).
pub fn with_shifted_copy(jobs: &[Job], probability: f64, seed: u64) -> Vec<Job> {
    let mut rng = stream(seed, LOAD_COPY, 0);
    let mut out: Vec<Job> = jobs.to_vec();
    for job in jobs {
        let u: f64 = rng.random();
        if u < probability {
            out.push(Job { occurrence: job.occurrence + WEEK, release: job.release + WEEK, ..*job });
        }
    }
    // Stable: at equal times the originals (pushed first) stay first.
    out.sort_by_key(|j| j.occurrence);
    for (i, j) in out.iter_mut().enumerate() {
        j.id = i as u32;
    }
    out
}

/// The scaled workload that offers `target` utilisation: the probability
/// found by bisection (40 halvings) and the jobs. A target at or below the
/// trace's own offered utilisation keeps the trace as it is (probability 0);
/// one the full copy cannot reach is refused.
pub fn scale_to(jobs: &[Job], capacity: u32, target: f64, seed: u64) -> Result<(f64, Vec<Job>), InvalidSetting> {
    if !(target.is_finite() && target > 0.0) {
        return Err(InvalidSetting::new("target_load", target, "must be a positive, finite utilisation"));
    }
    let base = offered_utilisation(jobs, capacity).unwrap_or(0.0);
    if target <= base {
        return Ok((0.0, jobs.to_vec()));
    }
    let full = offered_utilisation(&with_shifted_copy(jobs, 1.0, seed), capacity).unwrap_or(0.0);
    if target > full {
        return Err(InvalidSetting::new(
            "target_load",
            target,
            "exceeds what the trace plus its full week-shifted copy offers",
        ));
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        let u = offered_utilisation(&with_shifted_copy(jobs, mid, seed), capacity).unwrap_or(0.0);
        if u < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok((hi, with_shifted_copy(jobs, hi, seed)))
}
