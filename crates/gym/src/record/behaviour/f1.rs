//! F1: the visible job with the smallest F1 score, `log10(r)·n + 870·log10(s)`
//! (Carastan-Santos and de Camargo, "Obtaining dynamic scheduling policies
//! with simulation and machine learning", SC17; RLScheduler's `f1_score`).

use super::{Behaviour, Plan, first_by};
use crate::pick::PickJobs;
use crate::pick::order::PyOrd;

/// F1 (SC17).
pub struct F1;

impl Behaviour for F1 {
    fn name(&self) -> &'static str {
        "f1"
    }

    fn description(&self) -> &'static str {
        "F1 (SC17): the visible job with the smallest log10(requested time) × processors + 870 × log10(submit)"
    }

    fn choose(&self, env: &PickJobs, _plan: &Plan) -> usize {
        first_by(env, |jobs, a, b| jobs.f1[a as usize].total_cmp_py(&jobs.f1[b as usize]))
    }
}
