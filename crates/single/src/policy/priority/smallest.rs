//! Smallest first: the fewest processors first, then the earliest submission
//! (RLScheduler's `smallest_score`).

use super::{Key, Priority, Waiting};
use slasim_core::units::Time;

/// Fewest processors first.
pub struct Smallest;

impl Priority for Smallest {
    fn key(&self, job: &Waiting, _now: Time) -> Key {
        (f64::from(job.processors), job.submit as f64)
    }
}
