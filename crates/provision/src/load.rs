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

use slasim_core::rng::{Stream, stream};
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
    let mut rng = stream(seed, Stream::LoadCopy, 0);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(n: u32) -> Vec<Job> {
        (0..n).map(|i| Job::without_sla(i, Time::from(i) * 3600, 1 + i % 4, 1800, 1800)).collect()
    }

    #[test]
    fn copy_is_shifted_thinned_and_renumbered() {
        let base = jobs(200);
        assert_eq!(with_shifted_copy(&base, 0.0, 1), base);
        let all = with_shifted_copy(&base, 1.0, 1);
        assert_eq!(all.len(), 400);
        assert!(all.windows(2).all(|w| w[0].occurrence <= w[1].occurrence));
        assert!(all.iter().enumerate().all(|(i, j)| j.id == i as u32));
        // Monotone in the probability: the kept copies at 0.3 are a subset of those at 0.6.
        let (a, b) = (with_shifted_copy(&base, 0.3, 9), with_shifted_copy(&base, 0.6, 9));
        assert!(a.len() < b.len());
        let keys = |v: &[Job]| v.iter().map(|j| (j.occurrence, j.swf_id)).collect::<std::collections::BTreeSet<_>>();
        assert!(keys(&a).is_subset(&keys(&b)));
    }

    #[test]
    fn bisection_hits_the_target() {
        let base = jobs(2000);
        let u0 = offered_utilisation(&base, 8).unwrap();
        let target = u0 * 1.3;
        let (p, scaled) = scale_to(&base, 8, target, 5).unwrap();
        assert!(p > 0.0 && p < 1.0, "{p}");
        assert!((offered_utilisation(&scaled, 8).unwrap() - target).abs() < 0.01 * target);
        assert_eq!(scale_to(&base, 8, u0 * 0.5, 5).unwrap().0, 0.0);
        assert!(scale_to(&base, 8, 50.0, 5).unwrap_err().to_string().contains("target_load"));
        assert!(scale_to(&base, 8, f64::NAN, 5).is_err());
    }
}
