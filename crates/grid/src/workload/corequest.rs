//! A co-reservation request: what a Grid user submits.
//!
//! Reference: `coreservation-thesis-spec.md` ch. 3 (Table 1), §4.7.2 (the
//! trade-off weight), A2 (res_id over the parts sorted by size).
//!
//! Contract: a [`CoRequest`] asks for `parts.len()` sub-reservations of
//! `parts[i]` CPUs, all of the same `duration`, on pairwise distinct
//! clusters, all starting at one time `s` with `earliest_start ≤ s` and
//! `s + duration ≤ deadline`.

use serde::{Deserialize, Serialize};

use slasim_core::units::Time;

/// A request's id within its run (its position in the request workload).
pub type RequestId = u32;

/// A co-reservation request (spec Table 1), with its trade-off weight (§4.7.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoRequest {
    /// Position in the request workload.
    pub id: RequestId,
    /// When the client submits it.
    pub submit: Time,
    /// f_start: the earliest start of every sub-reservation.
    pub earliest_start: Time,
    /// The latest end of every sub-reservation.
    pub deadline: Time,
    /// dauer: the duration of every sub-reservation.
    pub duration: Time,
    /// res: the CPUs of each sub-reservation, as requested.
    pub parts: Vec<u32>,
    /// s of Alg. 5 (k = 1 − s): the weight of the start time against cost.
    pub start_weight: f64,
    /// The SWF job number of the template job it was made from (−1 if none).
    pub template: i64,
}

impl CoRequest {
    /// Start-time span: deadline − earliest start − duration (negative: infeasible).
    pub fn span(&self) -> Time {
        self.deadline - self.earliest_start - self.duration
    }

    /// The parts sorted by CPUs, largest first: `res_id` indexes this list.
    pub fn sorted_parts(&self) -> Vec<u32> {
        let mut parts = self.parts.clone();
        parts.sort_unstable_by(|a, b| b.cmp(a));
        parts
    }
}
