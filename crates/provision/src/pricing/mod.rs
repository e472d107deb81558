//! Adaptive pricing: what a slot costs in delay to the queued best-effort
//! jobs, the three query models, and the user's start-time choice.
//!
//! Reference: `provisioning-dissertation-spec.md` §4.1 (any slot that does not
//! conflict with running jobs or reservations may be reserved; queued jobs are
//! ignored for admission), §4.2 (Fig. 22: the price's additive part f = Σ over
//! queued jobs of delay × processors, from two schedules of the queue, with and
//! without the slot), §4.3 (eq. 17–19 and the candidate start times), §4.4
//! (eq. 20), §11 A7 (a profile-based scheduler for pricing), A18 (schedules
//! rebuilt from scratch in arrival order), A19 (EASY projected forward), A21
//! and A23 (degenerate normalisations; the no-slot schedule computed once).
//!
//! Contract: everything here is a pure function of a [`Snapshot`] (running
//! jobs to their planned ends, reservations, the queue in arrival order); a
//! query never changes a site. Times are seconds, f is in processor-seconds,
//! c per processor-second. An infeasible slot has no price (`None`).
//!
//! Rooms: `replan` (the queue re-planned under a policy, with or without a
//! slot), `pricer` (prices and externalities of slots on one snapshot),
//! `query` (the query models and the user's choice).

pub mod pricer;
pub mod query;
pub mod replan;

pub use pricer::{Externality, PolicyAudit, Pricer, audit};
pub use query::{Offer, candidates, choose, query_earliest, query_fixed, query_flexible, query_window};
pub use replan::{admissible, schedule};

use slasim_core::units::Time;

/// The state a price is computed on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// The instant.
    pub now: Time,
    /// Processors.
    pub capacity: u32,
    /// Running jobs: (processors, planned end).
    pub running: Vec<(u32, Time)>,
    /// Reservations: (start, end, processors).
    pub reservations: Vec<(Time, Time, u32)>,
    /// Queued best-effort jobs in arrival order: (processors, estimate).
    pub queue: Vec<(u32, Time)>,
}

/// How the queue is scheduled when pricing (the pricing policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Conservative backfilling: every queued job at its earliest start, in arrival order.
    #[default]
    Conservative,
    /// EASY (aggressive) backfilling, projected forward with estimates as runtimes.
    Easy,
}

impl Policy {
    /// Both, with one line each.
    pub const ALL: [(Policy, &'static str); 2] = [
        (Policy::Conservative, "the queue replanned by conservative backfilling, every job at its earliest start"),
        (Policy::Easy, "the queue replanned by EASY backfilling, projected forward with estimates as run times"),
    ];

    /// Its name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Conservative => "conservative",
            Policy::Easy => "easy",
        }
    }
}

/// A slot asked about: `procs` processors for `duration` from `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotRequest {
    /// Start.
    pub start: Time,
    /// Processors.
    pub procs: u32,
    /// Duration.
    pub duration: Time,
}
