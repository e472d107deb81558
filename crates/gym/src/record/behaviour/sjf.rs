//! Shortest job first: the visible job with the shortest requested time
//! (RLScheduler's `sjf_score`, the key its SJF baseline sorts by; SC20,
//! `HPCSimPickJobs.py`).

use super::{Behaviour, Plan, first_by};
use crate::pick::PickJobs;
use crate::pick::order::PyOrd;

/// Shortest (requested time) job first.
pub struct Sjf;

impl Behaviour for Sjf {
    fn name(&self) -> &'static str {
        "sjf"
    }

    fn description(&self) -> &'static str {
        "shortest job first: the visible job with the shortest requested time"
    }

    fn choose(&self, env: &PickJobs, _plan: &Plan) -> usize {
        first_by(env, |jobs, a, b| jobs.sjf[a as usize].total_cmp_py(&jobs.sjf[b as usize]))
    }
}
