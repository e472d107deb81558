//! Shortest job first: the smallest requested time first, then the earliest
//! submission (RLScheduler's `sjf_score`).

use super::{Key, Priority, Waiting};
use slasim_core::units::Time;

/// Shortest (requested time) job first.
pub struct Sjf;

impl Priority for Sjf {
    fn key(&self, job: &Waiting, _now: Time) -> Key {
        (job.estimate as f64, job.submit as f64)
    }
}
