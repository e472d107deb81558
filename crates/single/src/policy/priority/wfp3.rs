//! WFP3 (Tang et al., Cluster 2009): the largest `(w / r)^3 · n` first, with
//! `w` the time waited so far, `r` the requested time (at least 1 s) and `n`
//! the processors. RLScheduler's `wfp_score` measures `w` from a job's
//! unset start (−1), not from now; this rule uses the time actually waited.

use super::{Key, Priority, Waiting};
use slasim_core::units::Time;

/// WFP3: favours jobs that waited long relative to their length, and wide ones.
pub struct Wfp3;

impl Priority for Wfp3 {
    fn key(&self, job: &Waiting, now: Time) -> Key {
        let w = (now - job.submit).max(0) as f64;
        let r = job.estimate.max(1) as f64;
        (-(w / r).powi(3) * f64::from(job.processors), job.submit as f64)
    }

    fn ages(&self) -> bool {
        true
    }
}
