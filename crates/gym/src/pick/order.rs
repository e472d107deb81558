//! Python's ordering of RLScheduler's sort keys, shared by the job table's
//! static ranks and the dynamics' queue sorts.
//!
//! Reference: RLScheduler (SC20), `HPCEnv`'s sorts: Python's stable
//! `sorted` with `<` on floats.

use slasim_single::policy::priority::Key;

/// Python's `<` on floats as an ordering: NaN-free keys compare as numbers.
pub(crate) trait PyOrd {
    /// The ordering Python's stable sort sees (equal when neither is less).
    fn total_cmp_py(&self, other: &Self) -> std::cmp::Ordering;
}

impl PyOrd for f64 {
    #[inline]
    fn total_cmp_py(&self, other: &f64) -> std::cmp::Ordering {
        self.partial_cmp(other).unwrap_or(std::cmp::Ordering::Equal)
    }
}

impl PyOrd for Key {
    #[inline]
    fn total_cmp_py(&self, other: &Key) -> std::cmp::Ordering {
        self.0.total_cmp_py(&other.0).then_with(|| self.1.total_cmp_py(&other.1))
    }
}
