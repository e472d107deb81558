//! The interface between the simulator and a strategy (the Batsim split).
//!
//! Contract: the simulator's cluster implements [`Cluster`] (mechanics: node
//! states, running jobs, kill timers, outcomes and money); a [`Strategy`]
//! owns its plan and decides at each event through it. [`Booking`],
//! [`RejectReason`], [`Placement`] and [`ReservationHandling`] are the words
//! they share. This file imports no strategy, so strategies and the table
//! that lists them both build on it.
//!
//! Reference: `overbooking-dissertation-spec.md` §5.3–5.5 (placement),
//! §6.2–6.5 (event handling).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::registry::UnknownName;
use crate::units::{JobId, NodeId, Time};
use crate::workload::job::Job;
use crate::workload::reservations::{MoveGuard, ReservationOption};

/// The SLA booked for an accepted job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Booking {
    /// Planned start.
    pub start: Time,
    /// Planned end (start + allotment).
    pub end: Time,
    /// True when the allotment is shorter than the estimate.
    pub overbooked: bool,
    /// Predicted probability of failure, when the strategy computes one.
    pub pof: Option<f64>,
}

/// Why a job or reservation was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RejectReason {
    /// No acceptable window before its deadline.
    NoRoom,
    /// A reservation whose requested start lies before its submission.
    StartBeforeSubmission,
    /// More nodes than the cluster has.
    TooWide,
    /// Running jobs or accepted reservations occupy the reservation's window.
    Occupied,
    /// Only planned variable jobs occupy it (the *reject* option).
    PlannedJobs,
    /// Planned jobs the starvation guard pinned occupy it (*move*).
    PinnedJobs,
    /// A job it would move could no longer meet its deadline (*move*).
    MovedJobDeadline,
    /// An external scheduler rejected it (Batsim's REJECT_JOB).
    Scheduler,
}

impl RejectReason {
    /// Its name in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            RejectReason::NoRoom => "no-room",
            RejectReason::StartBeforeSubmission => "start-before-submission",
            RejectReason::TooWide => "too-wide",
            RejectReason::Occupied => "occupied",
            RejectReason::PlannedJobs => "planned-jobs",
            RejectReason::PinnedJobs => "pinned-jobs",
            RejectReason::MovedJobDeadline => "moved-job-deadline",
            RejectReason::Scheduler => "scheduler",
        }
    }
}

/// How a cluster handles reservations (paper B).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ReservationHandling {
    /// Reject, or move planned variable jobs.
    pub option: ReservationOption,
    /// When a moved job is pinned.
    pub guard: MoveGuard,
}

/// What a strategy can see and do in its cluster.
pub trait Cluster {
    /// Current virtual time.
    fn now(&self) -> Time;
    /// Total nodes.
    fn capacity(&self) -> u32;
    /// A submitted job.
    fn job(&self, id: JobId) -> &Job;
    /// Accepts a job with its booking.
    fn accept(&mut self, id: JobId, booking: Booking);
    /// Rejects a job at its occurrence, for `reason`.
    fn reject(&mut self, id: JobId, reason: RejectReason);
    /// Notes that a planned job was moved later.
    fn moved(&mut self, id: JobId);
    /// Notes that the starvation guard pinned a planned job.
    fn pin(&mut self, id: JobId);
    /// For an overbooked job checkpointed at its kill and waiting to resume:
    /// the estimated work left, restart overhead included. The strategy books
    /// it again as a full booking, or fails it.
    fn resumable(&self, id: JobId) -> Option<Time>;
    /// Gives up on an accepted job: it fails and the provider pays its penalty.
    fn fail(&mut self, id: JobId);
    /// Starts `id` now on `nodes` (all idle and up), to be killed at `kill_at`.
    /// Returns false, changing nothing, if a node is down or busy.
    fn start(&mut self, id: JobId, nodes: &[NodeId], kill_at: Time) -> bool;
    /// Fills `out` with the `n` lowest-id idle, up nodes; false if there are fewer.
    fn idle_nodes(&self, n: u32, out: &mut Vec<NodeId>) -> bool;
    /// True if every node in `nodes` is up and idle.
    fn nodes_ready(&self, nodes: &[NodeId]) -> bool;
    /// Asks for a `wake` call at `t` (≥ now).
    fn wake_at(&mut self, t: Time);
    /// Reports a defect of the strategy (a state its own invariants rule
    /// out): the run ends with an error naming it, and nothing of it is stored.
    fn defect(&mut self, what: &str);
    /// The PoS an acceptance test reads for a predicted `pos`: `pos` itself,
    /// or 1 − the calibrated PoF when the cluster calibrates online (issue 17).
    fn calibrated_pos(&self, pos: f64) -> f64 {
        pos
    }
}

/// An accepted advance reservation of CPUs: a Grid sub-reservation, a block
/// in the local plan that no job may overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// First reserved instant.
    pub start: Time,
    /// End (exclusive).
    pub end: Time,
    /// CPUs held.
    pub cpus: u32,
    /// Cancelled (rolled back) after it was accepted.
    pub cancelled: bool,
}

/// A job in a local scheduler's backlog: what a backlog time is computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BacklogJob {
    /// Start time if running, `None` if waiting.
    pub started: Option<Time>,
    /// Its estimate (wall-clock limit).
    pub estimate: Time,
    /// CPUs.
    pub cpus: u32,
}

/// A local scheduler that takes advance reservations of CPU counts: the
/// scheduler side of a Grid cluster's local reservation service
/// (`coreservation-thesis-spec.md` §4.1, A5, A16, A31).
pub trait ReservationService {
    /// Minimum free CPUs over `[start, end)` in the reservation table: running
    /// jobs held to start + estimate and accepted reservations; queued jobs
    /// are not in it (spec A5).
    fn table_free(&self, start: Time, end: Time) -> u32;
    /// Accepted reservations, by id.
    fn blocks(&self) -> &[Block];
    /// The running and waiting jobs.
    fn backlog(&self, cluster: &dyn Cluster, out: &mut Vec<BacklogJob>);
    /// The earliest planned end (start + estimate) of a running job after `now`.
    fn next_job_end(&self, now: Time) -> Option<Time>;
    /// Reserves `cpus` over `[start, end)` if the table has room; its id.
    fn reserve(&mut self, cluster: &mut dyn Cluster, cpus: u32, start: Time, end: Time) -> Option<u32>;
    /// Cancels an accepted reservation.
    fn cancel(&mut self, cluster: &mut dyn Cluster, id: u32);
    /// Time integrals over `[0, t_stop]` of the backlog's Σ estimate × CPUs
    /// and of the unfinished reservations' Σ duration × CPUs (CPU-s × s), up
    /// to the cluster's last event.
    fn backlog_integrals(&self) -> (f64, f64);
}

/// A scheduling strategy: the planning scheduler of one cluster.
pub trait Strategy: Send {
    /// A job occurs: accept it (and plan it) or reject it.
    fn submit(&mut self, cluster: &mut dyn Cluster, job: JobId);
    /// A requested wake-up: start what is due.
    fn wake(&mut self, cluster: &mut dyn Cluster);
    /// A running job ended (completed or killed) and freed its nodes.
    fn job_ended(&mut self, cluster: &mut dyn Cluster, job: JobId);
    /// A node failed; `victim` is the job that was running on it, now stopped.
    fn node_failed(&mut self, cluster: &mut dyn Cluster, node: NodeId, victim: Option<JobId>);
    /// A node was repaired.
    fn node_repaired(&mut self, cluster: &mut dyn Cluster, node: NodeId);
    /// Its advance-reservation service, if it takes reservations of CPUs.
    fn reservations(&mut self) -> Option<&mut dyn ReservationService> {
        None
    }
    /// Called once before the run with every job it will be
    /// submitted, in order (an external scheduler is told the workload's
    /// profiles up front); an error ends the run before it starts.
    fn begin(&mut self, _jobs: &[Job]) -> Result<(), crate::sim::kernel::SimError> {
        Ok(())
    }
    /// An error that ends the run — (simulated time, what) —
    /// such as an external scheduler's invalid decision; checked after each batch.
    fn error(&self) -> Option<(Time, String)> {
        None
    }
}

/// How a strategy picks among feasible placements (spec §5.3–5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Bottom-left first fit: the earliest start; among nodes, the lowest ids.
    FirstFit,
    /// The dissertation's "near best fit" (what its results used): the earliest
    /// gap that holds the full estimate first, overbooking only if none does;
    /// among nodes, the tightest fit (smallest free-until).
    #[default]
    BestFit,
    /// The acceptable gap with the highest PoS (spec §5.2; "conservative
    /// placement" in the dissertation).
    HighestPos,
    /// The last acceptable gap (latest start).
    LastFit,
}

impl Placement {
    /// Every placement with its name.
    pub const ALL: [(&'static str, Placement); 4] = [
        ("first-fit", Placement::FirstFit),
        ("best-fit", Placement::BestFit),
        ("highest-pos", Placement::HighestPos),
        ("last-fit", Placement::LastFit),
    ];

    /// Looks a placement up by name.
    pub fn parse(name: &str) -> Result<Placement, UnknownName> {
        Placement::ALL.iter().find(|(n, _)| *n == name).map(|(_, p)| *p).ok_or_else(|| UnknownName {
            kind: "placement",
            name: name.to_string(),
            valid: Placement::ALL.iter().map(|(n, _)| *n).collect(),
        })
    }

    /// The placement's name.
    pub fn name(self) -> &'static str {
        Placement::ALL.iter().find(|(_, p)| *p == self).map_or("?", |(n, _)| n)
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
