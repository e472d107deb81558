//! Scheduling policies: strategies, placement and (later) acceptance tests.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.6/§6.1 (the strategies),
//! §5.3–5.5 (placement), §6.2–6.5 (event handling).
//!
//! Contract (the Batsim split): the simulator's cluster owns the mechanics —
//! node states, running jobs, kill timers, outcomes and money — and calls a
//! [`Strategy`] at each event; the strategy owns its plan and makes every
//! decision through the [`Cluster`] interface. The simulator never branches on
//! a strategy's name: strategies are built by name here ([`build`]) and used
//! only through the trait.

pub mod batsim;
pub mod classic;
pub mod comprehensive;
pub mod heuristic;
pub mod overbooking;

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::policy::classic::Classic;
use crate::policy::comprehensive::{
    Comprehensive, ComprehensiveBackfilling, ComprehensiveOverbooking, ShortenedBackfilling,
};
use crate::policy::heuristic::Heuristic;
use crate::policy::overbooking::Overbooking;
use crate::registry::{Named, Registry};
use crate::setting::InvalidSetting;
use crate::stats::pos::Reliability;

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

pub use crate::registry::UnknownName;

/// What a strategy is built from.
#[derive(Debug, Clone)]
pub struct StrategySettings {
    /// Placement policy.
    pub placement: Placement,
    /// Node reliability, for the predicted PoF of every booking.
    pub reliability: Reliability,
    /// Overbooking settings (needed by strategies that read them).
    pub overbooking: Option<Arc<Overbooking>>,
    /// Reservation handling.
    pub reservations: ReservationHandling,
    /// Classic queueing modes: kill a job at start + estimate.
    pub kill_at_estimate: bool,
    /// The external scheduler of a strategy that reads one (`batsim`).
    pub batsim: Option<Arc<batsim::BatsimConfig>>,
}

/// Which settings a strategy reads: points that differ only in other settings
/// are the same simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    /// The placement policy changes its plans.
    pub placement: bool,
    /// The overbooking settings (PoF_max, PDFs) change its decisions.
    pub overbooking: bool,
    /// The acceptance test (PoF or risk, security factor) changes its decisions.
    pub acceptance: bool,
    /// Its decisions come from an external scheduler (`[batsim]`: command or
    /// endpoint), which is then part of the point's identity.
    pub scheduler: bool,
    /// `kill_at_estimate`: the built-in queueing modes (an external
    /// scheduler's jobs are killed at their walltime, as Batsim's are).
    pub kill_at_estimate: bool,
}

/// A registered strategy: what the experiment pipeline, the reports and the
/// command line know of it, and how to build it.
pub struct StrategyInfo {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// One line for `--help` and reports.
    pub description: &'static str,
    /// Settings it reads.
    pub reads: Reads,
    /// Default security factor of the risk test.
    pub security_factor: f64,
    /// Whether it is one of the overbooking strategies, and its base strategy.
    pub base: Option<&'static str>,
    /// It can move planned jobs later for a reservation (paper B's *move*).
    pub moves_planned_jobs: bool,
    /// A queueing mode: no deadlines, fees or rejections.
    pub queueing: bool,
    /// A queueing mode that still models node failures (an external
    /// scheduler is told of them); every planning strategy does.
    pub node_failures: bool,
    /// Builds it for a cluster of the given number of nodes.
    pub build: fn(&StrategySettings, u32) -> Box<dyn Strategy>,
    /// Builds it as a Grid cluster's local scheduler taking advance
    /// reservations, with backlog integrals over `[0, t_stop]` (queueing modes only).
    pub reserving: Option<BuildReserving>,
}

impl Named for StrategyInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

impl StrategyInfo {
    /// It can run a Grid cluster: a queueing mode that takes advance reservations.
    pub fn takes_reservations(&self) -> bool {
        self.reserving.is_some()
    }
}

/// Builds a queueing mode for a cluster of `capacity` CPUs taking advance
/// reservations, with backlog integrals over `[0, t_stop]`.
pub type BuildReserving = fn(u32, Time) -> Box<dyn Strategy>;

fn needs_overbooking(s: &StrategySettings) -> Option<Arc<Overbooking>> {
    s.overbooking.clone()
}

/// The built-in strategies, in report order.
static BUILTIN: [StrategyInfo; 9] = [
    StrategyInfo {
        name: "conservative-backfilling",
        description: "comprehensive (conservative) backfilling: nodes fixed at acceptance, held for the full estimate",
        reads: Reads {
            placement: true,
            overbooking: false,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: false,
        },
        security_factor: 4.0,
        base: None,
        moves_planned_jobs: false,
        queueing: false,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(Comprehensive::<ComprehensiveBackfilling>::new(k, s.placement, s.reliability.clone(), None))
        },
    },
    StrategyInfo {
        name: "heuristic-planning",
        description: "heuristic planning: counts nodes, picks them at start, re-plans at every end, failure and repair",
        reads: Reads {
            placement: false,
            overbooking: false,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: false,
        },
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: true,
        queueing: false,
        node_failures: true,
        reserving: None,
        build: |s, k| Box::new(Heuristic::new(k, s.placement, s.reliability.clone(), None, s.reservations)),
    },
    StrategyInfo {
        name: "comprehensive-overbooking",
        description: "comprehensive overbooking: early starts on freed nodes, PoS from predecessors' end CDFs by FFT convolution",
        reads: Reads {
            placement: true,
            overbooking: true,
            acceptance: true,
            scheduler: false,
            kill_at_estimate: false,
        },
        security_factor: 4.0,
        base: Some("conservative-backfilling"),
        moves_planned_jobs: false,
        queueing: false,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(Comprehensive::<ComprehensiveOverbooking>::new(
                k,
                s.placement,
                s.reliability.clone(),
                needs_overbooking(s),
            ))
        },
    },
    StrategyInfo {
        name: "heuristic-overbooking",
        description: "heuristic overbooking: heuristic planning that may book a gap shorter than the estimate",
        reads: Reads {
            placement: true,
            overbooking: true,
            acceptance: true,
            scheduler: false,
            kill_at_estimate: false,
        },
        security_factor: 2.0,
        base: Some("heuristic-planning"),
        moves_planned_jobs: true,
        queueing: false,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(Heuristic::new(k, s.placement, s.reliability.clone(), needs_overbooking(s), s.reservations))
        },
    },
    StrategyInfo {
        name: "shortened-backfilling",
        description: "paper A: conservative backfilling with d' = d/(1+maxPoF) and predecessor overbooking",
        reads: Reads {
            placement: false,
            overbooking: true,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: false,
        },
        security_factor: 4.0,
        base: Some("conservative-backfilling"),
        moves_planned_jobs: false,
        queueing: false,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(Comprehensive::<ShortenedBackfilling>::new(
                k,
                Placement::BestFit,
                s.reliability.clone(),
                needs_overbooking(s),
            ))
        },
    },
    StrategyInfo {
        name: "fcfs",
        description: "classic first come, first served: no backfilling, no deadlines, every job runs",
        reads: Reads {
            placement: false,
            overbooking: false,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: true,
        },
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        node_failures: false,
        build: |s, k| Box::new(Classic::new(classic::Mode::Fcfs, k, s.kill_at_estimate)),
        reserving: Some(|k, t_stop| {
            Box::new(Classic::new(classic::Mode::Fcfs, k, true).with_advance_reservations(t_stop))
        }),
    },
    StrategyInfo {
        name: "easy",
        description: "classic EASY backfilling: the queue head is reserved, later jobs may not delay it",
        reads: Reads {
            placement: false,
            overbooking: false,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: true,
        },
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        node_failures: false,
        build: |s, k| Box::new(Classic::new(classic::Mode::Easy, k, s.kill_at_estimate)),
        reserving: Some(|k, t_stop| {
            Box::new(Classic::new(classic::Mode::Easy, k, true).with_advance_reservations(t_stop))
        }),
    },
    StrategyInfo {
        name: "conservative",
        description: "classic conservative backfilling: every job reserved at arrival, compressed at early ends",
        reads: Reads {
            placement: false,
            overbooking: false,
            acceptance: false,
            scheduler: false,
            kill_at_estimate: true,
        },
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        node_failures: false,
        build: |s, k| Box::new(Classic::new(classic::Mode::Conservative, k, s.kill_at_estimate)),
        reserving: Some(|k, t_stop| {
            Box::new(Classic::new(classic::Mode::Conservative, k, true).with_advance_reservations(t_stop))
        }),
    },
    StrategyInfo {
        name: "batsim",
        description: "an external scheduler speaking Batsim's protocol (pybatsim, batsched, …) over ZeroMQ",
        reads: Reads {
            placement: false,
            overbooking: false,
            acceptance: false,
            scheduler: true,
            kill_at_estimate: false,
        },
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        node_failures: true,
        build: |s, k| Box::new(batsim::Batsim::new(s.batsim.clone().unwrap_or_default(), k)),
        reserving: None,
    },
];

/// Every strategy a config or the command line can name: the built-in ones
/// in report order, then those a program registered
/// (`STRATEGIES.register(StrategyInfo { .. })`).
pub static STRATEGIES: Registry<StrategyInfo> = Registry::new("strategy", &BUILTIN);

/// Every registered strategy, in report order.
pub fn strategy_infos() -> Vec<&'static StrategyInfo> {
    STRATEGIES.all()
}

/// The valid strategy names.
pub fn strategy_names() -> Vec<&'static str> {
    STRATEGIES.names()
}

/// A strategy's registration, by name.
pub fn strategy(name: &str) -> Result<&'static StrategyInfo, UnknownName> {
    STRATEGIES.get(name)
}

/// Checks a strategy name.
pub fn check_strategy(name: &str) -> Result<&'static str, UnknownName> {
    strategy(name).map(|s| s.name)
}

/// A strategy could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// Unknown name.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// A needed setting is missing or invalid.
    #[error(transparent)]
    Setting(#[from] InvalidSetting),
}

/// Builds the named queueing mode as a Grid cluster's local scheduler: it
/// takes advance reservations and integrates its backlog over `[0, t_stop]`.
pub fn build_reserving(name: &str, capacity: u32, t_stop: Time) -> Result<Box<dyn Strategy>, BuildError> {
    let info = strategy(name)?;
    let build = info.reserving.ok_or_else(|| {
        InvalidSetting::new(
            "strategy",
            name,
            "a Grid cluster's local scheduler must be a queueing mode that takes advance reservations: \
             fcfs, easy or conservative",
        )
    })?;
    Ok(build(capacity, t_stop))
}

/// Builds the named strategy for a cluster of `capacity` nodes.
pub fn build(name: &str, settings: &StrategySettings, capacity: u32) -> Result<Box<dyn Strategy>, BuildError> {
    let info = strategy(name)?;
    if settings.reservations.option == ReservationOption::Move && !info.moves_planned_jobs {
        return Err(InvalidSetting::new(
            "reservations.option",
            format!("move (strategy {name})"),
            "this strategy keeps every booking where it was placed; heuristic-planning and heuristic-overbooking \
             move planned jobs",
        )
        .into());
    }
    if info.reads.overbooking && settings.overbooking.is_none() {
        return Err(
            InvalidSetting::new("overbooking", name, "needs runtime statistics (a trace history) to run").into()
        );
    }
    Ok((info.build)(settings, capacity))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let err = check_strategy("easy-peasy").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown strategy `easy-peasy`; valid strategy names: conservative-backfilling, heuristic-planning, \
             comprehensive-overbooking, heuristic-overbooking, shortened-backfilling, fcfs, easy, conservative, batsim"
        );
        let err = Placement::parse("worst-fit").unwrap_err();
        assert!(err.to_string().contains("first-fit, best-fit, highest-pos, last-fit"));
        assert_eq!(Placement::parse("first-fit"), Ok(Placement::FirstFit));
    }
}
