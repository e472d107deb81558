//! F1 (Carastan-Santos and de Camargo, SC17, Table 2): the smallest
//! `log10(r) · n + 870 · log10(s)` first, with `r` the requested time, `n` the
//! processors and `s` the submission time; a non-positive `r` or `s` counts
//! as 0.1, as in RLScheduler's `f1_score`.

use super::{Key, Priority, Waiting, positive_or_tenth};
use slasim_core::units::Time;

/// F1, the best of the four functions learned in SC17.
pub struct F1;

impl Priority for F1 {
    fn key(&self, job: &Waiting, _now: Time) -> Key {
        let r = positive_or_tenth(job.estimate).log10();
        let s = positive_or_tenth(job.submit).log10();
        (r * f64::from(job.processors) + 870.0 * s, 0.0)
    }
}
