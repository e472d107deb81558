//! EASY backfilling: first come, first served with the environment's
//! backfilling on (Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995).
//! While the picked job waits for processors, waiting jobs that fit now and
//! end (by their requested time) before its start are started first, as
//! `HPCEnv`'s `backfil` does: the environment holds the rule
//! ([`crate::pick::dynamics`]); this behaviour only picks FCFS's job.

use super::{Behaviour, Plan, fcfs::Fcfs};
use crate::pick::PickJobs;

/// EASY backfilling.
pub struct Easy;

impl Behaviour for Easy {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn description(&self) -> &'static str {
        "EASY backfilling: first come, first served with the environment's backfilling on"
    }

    fn backfill(&self) -> Option<bool> {
        Some(true)
    }

    fn choose(&self, env: &PickJobs, plan: &Plan) -> usize {
        Fcfs.choose(env, plan)
    }
}
