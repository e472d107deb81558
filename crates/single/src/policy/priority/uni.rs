//! UNI (Tang et al., Cluster 2009): the largest `w / (log2(n) · r)` first, with
//! `w` the time waited so far, `n` the processors and `r` the requested time
//! (at least 1 s). A one-processor job has `log2(1) = 0`; as in RLScheduler's
//! `uni_score`, `n` and `w` get 1e-15 added, so such a job that has waited
//! goes first. RLScheduler measures `w` from a job's unset start (−1); this
//! rule uses the time actually waited.

use super::{Key, Priority, Waiting};
use slasim_core::units::Time;

/// UNI: favours short, narrow jobs that have waited.
pub struct Uni;

impl Priority for Uni {
    fn key(&self, job: &Waiting, now: Time) -> Key {
        let w = (now - job.submit).max(0) as f64 + 1e-15;
        let r = job.estimate.max(1) as f64;
        let n = (f64::from(job.processors) + 1e-15).log2();
        (-(w / (n * r)), job.submit as f64)
    }

    fn ages(&self) -> bool {
        true
    }
}
