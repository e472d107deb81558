//! First come, first served: the visible job submitted first (RLScheduler's
//! `fcfs_score`, the submission time; SC20, `HPCSimPickJobs.py`).

use super::{Behaviour, Plan, first_by};
use crate::pick::PickJobs;

/// First come, first served.
pub struct Fcfs;

impl Behaviour for Fcfs {
    fn name(&self) -> &'static str {
        "fcfs"
    }

    fn description(&self) -> &'static str {
        "first come, first served: the visible job submitted first"
    }

    fn choose(&self, env: &PickJobs, _plan: &Plan) -> usize {
        first_by(env, |jobs, a, b| jobs.submit[a as usize].cmp(&jobs.submit[b as usize]))
    }
}
