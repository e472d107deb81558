//! The strategy port: the interface between the cluster and the strategy
//! that drives it (the Batsim split).
//!
//! Contract: the simulator's cluster implements [`Cluster`] (mechanics: node
//! states, running jobs, kill timers, outcomes and money); a [`Strategy`]
//! owns its plan and decides at each event through it. [`Booking`],
//! [`RejectReason`], [`Outcome`], [`Placement`] and [`ReservationHandling`]
//! are the words they share. The port sits beside the mechanics that call
//! it and imports no strategy: the strategies (`crate::policy`) and the table
//! that lists them build on it, never the other way round.
//!
//! Reference: `overbooking-dissertation-spec.md` §5.3–5.5 (placement),
//! §6.2–6.5 (event handling).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cluster::energy::{EnergyConfig, NodeStates};
use crate::cluster::power::{PowerRefusal, PowerState};
use crate::plan::profile::AvailabilityProfile;
use crate::workload::job::Job;
use crate::workload::reservations::{MoveGuard, ReservationOption};
use slasim_core::experiment::registry::UnknownName;
use slasim_core::units::{JobId, NodeId, Time};

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
    /// An external scheduler or a learning agent rejected it (Batsim's REJECT_JOB).
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

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Ran to its real runtime, or was killed after receiving its full estimate.
    Success,
    /// Killed before receiving its estimate (overbooking), or lost to node failures.
    Failed,
    /// Rejected at its occurrence.
    Rejected,
}

impl Outcome {
    /// The code stored in `job_outcomes.outcome`.
    pub fn code(self) -> i64 {
        match self {
            Outcome::Success => 1,
            Outcome::Failed => 2,
            Outcome::Rejected => 3,
        }
    }

    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failed => "failed",
            Outcome::Rejected => "rejected",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
    /// Suspends the event being handled until the caller of the simulation
    /// has decided (the kernel's contract): the cluster calls
    /// [`Strategy::resume`] when it is run again, at the same instant. Where
    /// nobody can resume it, a defect.
    fn suspend(&mut self) {
        self.defect("it suspended for a caller's decision where the cluster has no caller");
    }
    /// The PoS an acceptance test reads for a predicted `pos`: `pos` itself,
    /// or what a calibrating decorator around the strategy makes of it (issue 17).
    fn calibrated_pos(&self, pos: f64) -> f64 {
        pos
    }
    /// Job `id`'s outcome once it is final: `None` while it waits, runs or
    /// is checkpointed (and for a job the cluster was not given).
    fn outcome(&self, id: JobId) -> Option<Outcome>;
    /// The nodes' power model, when they have power states or a cap.
    fn power_model(&self) -> Option<&EnergyConfig> {
        None
    }
    /// A node's power state (always on without a power model).
    fn power_state(&self, _node: NodeId) -> PowerState {
        PowerState::On
    }
    /// When an idle node became idle (0 without a power model).
    fn idle_since(&self, _node: NodeId) -> Time {
        0
    }
    /// How many nodes are in each state.
    fn node_states(&self) -> NodeStates {
        NodeStates::default()
    }
    /// How many nodes are idle (up, on, running nothing).
    fn idle_count(&self) -> u32 {
        0
    }
    /// Fills `out` with the up nodes in power state `state` (only the idle
    /// ones if `idle_only`), in ascending order.
    fn nodes_in(&self, _state: PowerState, _idle_only: bool, out: &mut Vec<NodeId>) {
        out.clear();
    }
    /// Begins switching idle `node` off into the sleep state; the strategy
    /// hears [`Strategy::power_changed`] when it sleeps.
    fn switch_off(&mut self, _node: NodeId) -> Result<(), PowerRefusal> {
        Err(PowerRefusal::NoSleepState)
    }
    /// Begins switching sleeping `node` on (one switching off: once it
    /// sleeps); the strategy hears [`Strategy::power_changed`] when it is on.
    fn switch_on(&mut self, _node: NodeId) -> Result<(), PowerRefusal> {
        Err(PowerRefusal::NoSleepState)
    }
    /// A node's computing pstate (DVFS; 0 without pstates).
    fn pstate(&self, _node: NodeId) -> u32 {
        0
    }
    /// Puts `node` in computing pstate `pstate`: a job running on it
    /// continues at its new speed, its work left kept.
    fn set_pstate(&mut self, _node: NodeId, pstate: u32) -> Result<(), PowerRefusal> {
        Err(PowerRefusal::NoSuchPstate(pstate))
    }
    /// Fills `out` with the running jobs, each once.
    fn running_jobs(&self, out: &mut Vec<JobId>) {
        out.clear();
    }
    /// Job `id`'s running execution, if it runs.
    fn running(&self, _id: JobId) -> Option<RunningJob> {
        None
    }
    /// Fills `out` with the nodes job `id` runs on (none if it does not run).
    fn job_nodes(&self, _id: JobId, out: &mut Vec<NodeId>) {
        out.clear();
    }
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
    /// Goes on with the event it suspended in ([`Cluster::suspend`]), once
    /// the caller has decided.
    fn resume(&mut self, cluster: &mut dyn Cluster) {
        cluster.defect("it was resumed, but it never suspends");
    }
    /// Called once before the run with every job it will be
    /// submitted, in order (an external scheduler is told the workload's
    /// profiles up front); an error ends the run before it starts.
    fn begin(&mut self, _jobs: &[Job]) -> Result<(), slasim_core::sim::kernel::SimError> {
        Ok(())
    }
    /// An error that ends the run, such as an external scheduler's invalid
    /// decision; checked after each batch.
    fn error(&self) -> Option<slasim_core::sim::kernel::SimError> {
        None
    }
    /// A node's power transition ended in `state` (handled with the
    /// repairs: no start here; by default a node on asks for a wake-up now).
    fn power_changed(&mut self, cluster: &mut dyn Cluster, _node: NodeId, state: PowerState) {
        if state == PowerState::On {
            cluster.wake_at(cluster.now());
        }
    }
    /// The plan's use of the nodes over time, for a strategy that plans
    /// every start (conservative backfilling): free nodes as a step function.
    fn planned_profile(&self) -> Option<&AvailabilityProfile> {
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

/// A running job as a policy sees it ([`Cluster::running`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunningJob {
    /// When this execution started.
    pub start: Time,
    /// When it is killed (its wall-time limit).
    pub kill_at: Time,
    /// Its speed (the slowest of its nodes' pstates).
    pub speed: f64,
    /// Work its estimate leaves (nominal seconds): what a planner knows.
    pub estimated_left: f64,
}
