//! The simulation job model (spec `overbooking-dissertation-spec.md` §1.1, §1.2).
//!
//! Contract: a [`Job`] is immutable once prepared. Its times are virtual seconds
//! relative to the start of its battery; `release = occurrence` and
//! `deadline = occurrence + 2·estimate` under the default preparation
//! ([`NO_DEADLINE`] for jobs without one). Money is in virtual coins (VC): one
//! VC per booked node-hour. A reservation (paper B) is a job with a fixed
//! window: it starts at `release` or not at all.

use serde::{Deserialize, Serialize};

use slasim_core::units::{HOUR, Time};

/// The deadline of a job without one (paper B's variable jobs): far beyond any
/// trace, with room to add estimates without overflow.
pub const NO_DEADLINE: Time = Time::MAX / 4;

/// A job of a battery: the tuple `[o, e, x, ω, d, n]` plus the attributes PDF
/// classes are built from, and its SLA money.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Index within its battery (0-based), in occurrence order.
    pub id: u32,
    /// The SWF job number it came from.
    pub swf_id: i64,
    /// o: occurrence (submission) time.
    pub occurrence: Time,
    /// e: release, the earliest allowed start.
    pub release: Time,
    /// d: deadline, the latest allowed end.
    pub deadline: Time,
    /// x: the user's runtime estimate (seconds, > 0).
    pub estimate: Time,
    /// ω: the real runtime (seconds, ≥ 0; may exceed `estimate`).
    pub runtime: Time,
    /// n: requested nodes (in the chosen node unit, ≥ 1).
    pub nodes: u32,
    /// SWF user id (−1 unknown).
    pub user: i64,
    /// SWF executable number (the application; −1 unknown).
    pub application: i64,
    /// SWF queue number (−1 unknown).
    pub queue: i64,
    /// What the provider earns on success, VC.
    pub fee: f64,
    /// What the provider pays on failure, VC.
    pub penalty: f64,
    /// A fixed advance reservation: it must start exactly at `release` and
    /// `deadline = release + estimate`; never moved, shortened or overbooked.
    #[serde(default)]
    pub reservation: bool,
}

impl Job {
    /// A job without an SLA (no deadline, fee or penalty): a queued job of
    /// the classic modes and the Grid's clusters, submitted at `submit`.
    pub fn without_sla(id: u32, submit: Time, nodes: u32, estimate: Time, runtime: Time) -> Job {
        Job {
            id,
            swf_id: i64::from(id),
            occurrence: submit,
            release: submit,
            deadline: NO_DEADLINE,
            estimate,
            runtime,
            nodes,
            user: -1,
            application: -1,
            queue: -1,
            fee: 0.0,
            penalty: 0.0,
            reservation: false,
        }
    }

    /// The latest start at which its whole estimate ends by its deadline
    /// ([`NO_DEADLINE`] without one).
    pub fn latest_start(&self) -> Time {
        if self.deadline >= NO_DEADLINE { NO_DEADLINE } else { self.deadline.saturating_sub(self.estimate) }
    }

    /// Booked node-hours: n·x / 3600, the dissertation's fee unit.
    pub fn node_hours(&self) -> f64 {
        node_hours(self.nodes, self.estimate)
    }

    /// Real over estimated runtime, ω/x.
    pub fn runtime_ratio(&self) -> f64 {
        self.runtime as f64 / self.estimate as f64
    }
}

/// A job and what it asks of a machine of unlike nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineJob {
    /// The job: its times and SLA (its `nodes` is the request's).
    pub job: Job,
    /// What it asks of each node.
    pub request: slasim_machine::Request,
}

/// n·x in node-hours.
pub fn node_hours(nodes: u32, estimate: Time) -> f64 {
    f64::from(nodes) * estimate as f64 / HOUR as f64
}
