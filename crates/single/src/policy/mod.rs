//! Scheduling policies: strategies, placement and (later) acceptance tests.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.6/§6.1 (the strategies),
//! §5.3–5.5 (placement), §6.2–6.5 (event handling).
//!
//! Contract (the Batsim split): the simulator's cluster owns the mechanics —
//! node states, running jobs, kill timers, outcomes and money — and calls a
//! [`Strategy`] at each event; the strategy owns its plan and makes every
//! decision through the [`Cluster`] interface ([`interface`], which the
//! strategies import). The simulator never branches on a strategy's name:
//! this file is the table of built-in strategies, [`STRATEGIES`], through which
//! they are built by name ([`build`]) and then used only through the trait.

pub mod batsim;
pub mod calibrator;
pub mod classic;
pub mod comprehensive;
pub mod energy;
pub mod forecast;
pub mod heuristic;
pub mod on_machine;
pub mod overbooking;
pub mod priority;
pub mod shifting;

pub mod reservation;

use std::sync::Arc;

pub use crate::cluster::strategy::{Booking, Cluster, Outcome, Placement, RejectReason, ReservationHandling, Strategy};
use crate::policy::classic::Classic;
use crate::policy::comprehensive::{
    Comprehensive, ComprehensiveBackfilling, ComprehensiveOverbooking, ShortenedBackfilling,
};
use crate::policy::heuristic::Heuristic;
use crate::policy::overbooking::Overbooking;
use crate::policy::priority::queueing::PriorityQueueing;
use crate::policy::priority::{f1::F1, sjf::Sjf, smallest::Smallest, uni::Uni, wfp3::Wfp3};
pub use crate::policy::reservation::{BacklogJob, Block, ReservationService, ReservingStrategy};
use crate::stats::pos::Reliability;
use crate::workload::reservations::ReservationOption;
use slasim_core::experiment::registry::{self, Entries, Named};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;

pub use slasim_core::experiment::registry::UnknownName;

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
    /// When jobs run by a grid signal (`[shifting]`), if at all.
    pub shifting: Option<Arc<shifting::Shift>>,
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
    /// It applies an in-plan shifting policy (`sla-aware`) to its bookings.
    pub shifts_in_plan: bool,
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
pub type BuildReserving = fn(u32, Time) -> Box<dyn ReservingStrategy>;

fn needs_overbooking(s: &StrategySettings) -> Option<Arc<Overbooking>> {
    s.overbooking.clone()
}

/// Builds a priority rule's queueing strategy.
type BuildStrategy = fn(&StrategySettings, u32) -> Box<dyn Strategy>;

/// What a built-in queueing mode reads: only `kill_at_estimate`.
const QUEUEING_READS: Reads =
    Reads { placement: false, overbooking: false, acceptance: false, scheduler: false, kill_at_estimate: true };

/// The entry of a priority rule's queueing strategy (`<rule>` or
/// `<rule>-easy`): a queueing mode that reads `kill_at_estimate`, like the
/// classic ones.
const fn priority_queueing(name: &'static str, description: &'static str, build: BuildStrategy) -> StrategyInfo {
    StrategyInfo {
        name,
        description,
        reads: QUEUEING_READS,
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        shifts_in_plan: false,
        node_failures: false,
        build,
        reserving: None,
    }
}

/// The built-in strategies, in report order.
static BUILTIN: [StrategyInfo; 19] = [
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
        shifts_in_plan: true,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(
                Comprehensive::<ComprehensiveBackfilling>::new(k, s.placement, s.reliability.clone(), None)
                    .shifted_by(s.shifting.clone()),
            )
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
        shifts_in_plan: false,
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
        shifts_in_plan: true,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(
                Comprehensive::<ComprehensiveOverbooking>::new(
                    k,
                    s.placement,
                    s.reliability.clone(),
                    needs_overbooking(s),
                )
                .shifted_by(s.shifting.clone()),
            )
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
        shifts_in_plan: false,
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
        shifts_in_plan: true,
        node_failures: true,
        reserving: None,
        build: |s, k| {
            Box::new(
                Comprehensive::<ShortenedBackfilling>::new(
                    k,
                    Placement::BestFit,
                    s.reliability.clone(),
                    needs_overbooking(s),
                )
                .shifted_by(s.shifting.clone()),
            )
        },
    },
    StrategyInfo {
        name: "fcfs",
        description: "classic first come, first served: no backfilling, no deadlines, every job runs",
        reads: QUEUEING_READS,
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        shifts_in_plan: false,
        node_failures: false,
        build: |s, k| Box::new(Classic::new(classic::Mode::Fcfs, k, s.kill_at_estimate)),
        reserving: Some(|k, t_stop| {
            Box::new(Classic::new(classic::Mode::Fcfs, k, true).with_advance_reservations(t_stop))
        }),
    },
    StrategyInfo {
        name: "easy",
        description: "classic EASY backfilling: the queue head is reserved, later jobs may not delay it",
        reads: QUEUEING_READS,
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        shifts_in_plan: false,
        node_failures: false,
        build: |s, k| Box::new(Classic::new(classic::Mode::Easy, k, s.kill_at_estimate)),
        reserving: Some(|k, t_stop| {
            Box::new(Classic::new(classic::Mode::Easy, k, true).with_advance_reservations(t_stop))
        }),
    },
    StrategyInfo {
        name: "conservative",
        description: "classic conservative backfilling: every job reserved at arrival, compressed at early ends",
        reads: QUEUEING_READS,
        security_factor: 2.0,
        base: None,
        moves_planned_jobs: false,
        queueing: true,
        shifts_in_plan: false,
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
        shifts_in_plan: false,
        node_failures: true,
        build: |s, k| Box::new(batsim::Batsim::new(s.batsim.clone().unwrap_or_default(), k)),
        reserving: None,
    },
    priority_queueing(
        "sjf",
        "shortest job (requested time) first, no backfilling: the first job that does not fit blocks the queue",
        |s, k| Box::new(PriorityQueueing::new(Sjf, false, k, s.kill_at_estimate)),
    ),
    priority_queueing(
        "sjf-easy",
        "shortest job (requested time) first, with EASY backfilling in that order",
        |s, k| Box::new(PriorityQueueing::new(Sjf, true, k, s.kill_at_estimate)),
    ),
    priority_queueing(
        "smallest-first",
        "fewest processors first, no backfilling: the first job that does not fit blocks the queue",
        |s, k| Box::new(PriorityQueueing::new(Smallest, false, k, s.kill_at_estimate)),
    ),
    priority_queueing("smallest-first-easy", "fewest processors first, with EASY backfilling in that order", |s, k| {
        Box::new(PriorityQueueing::new(Smallest, true, k, s.kill_at_estimate))
    }),
    priority_queueing("wfp3", "WFP3 (largest (wait / estimate)^3 × processors first), no backfilling", |s, k| {
        Box::new(PriorityQueueing::new(Wfp3, false, k, s.kill_at_estimate))
    }),
    priority_queueing(
        "wfp3-easy",
        "WFP3 (largest (wait / estimate)^3 × processors first), with EASY backfilling in that order",
        |s, k| Box::new(PriorityQueueing::new(Wfp3, true, k, s.kill_at_estimate)),
    ),
    priority_queueing("uni", "UNI (largest wait / (log2(processors) × estimate) first), no backfilling", |s, k| {
        Box::new(PriorityQueueing::new(Uni, false, k, s.kill_at_estimate))
    }),
    priority_queueing(
        "uni-easy",
        "UNI (largest wait / (log2(processors) × estimate) first), with EASY backfilling in that order",
        |s, k| Box::new(PriorityQueueing::new(Uni, true, k, s.kill_at_estimate)),
    ),
    priority_queueing(
        "f1",
        "F1 (smallest log10(estimate) × processors + 870 × log10(submit) first), no backfilling",
        |s, k| Box::new(PriorityQueueing::new(F1, false, k, s.kill_at_estimate)),
    ),
    priority_queueing(
        "f1-easy",
        "F1 (smallest log10(estimate) × processors + 870 × log10(submit) first), with EASY backfilling in that order",
        |s, k| Box::new(PriorityQueueing::new(F1, true, k, s.kill_at_estimate)),
    ),
];

/// Every strategy a config or the command line can name: the built-in ones
/// in report order, then those later kinds of a registry add
/// (`registry.add_to::<Strategies>(…)`).
pub enum Strategies {}

impl Entries for Strategies {
    type Entry = StrategyInfo;
    const WHAT: &'static str = "strategy";
    fn builtin() -> Vec<&'static StrategyInfo> {
        BUILTIN.iter().collect()
    }
}

/// Every strategy of the registry being read with, in report order
/// ([`registry::own`]).
pub fn strategy_infos() -> Vec<&'static StrategyInfo> {
    registry::all::<Strategies>()
}

/// The valid strategy names.
pub fn strategy_names() -> Vec<&'static str> {
    strategy_infos().into_iter().map(|s| s.name).collect()
}

/// A strategy's registration, by name.
pub fn strategy(name: &str) -> Result<&'static StrategyInfo, UnknownName> {
    registry::find::<Strategies>(name)
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

impl BuildError {
    /// The error it wraps, so that a config reader finds the setting at
    /// fault (an [`InvalidSetting`]) or the unknown name by its own type.
    pub fn unwrapped(self) -> anyhow::Error {
        match self {
            BuildError::Unknown(e) => e.into(),
            BuildError::Setting(e) => e.into(),
        }
    }
}

/// A registered strategy, resolved once from its name: a point holds it,
/// and reads what the strategy reads and how it is built without looking
/// the name up again. It serialises as its name and deserialises by looking
/// the name up (an unknown name is an error there, naming the valid ones),
/// so canonical texts, point ids and the store see only the name.
#[derive(Clone, Copy)]
pub struct StrategyRef(&'static StrategyInfo);

impl StrategyRef {
    /// The strategy registered as `name`.
    pub fn named(name: &str) -> Result<StrategyRef, UnknownName> {
        strategy(name).map(StrategyRef)
    }

    /// Its registration.
    pub fn info(self) -> &'static StrategyInfo {
        self.0
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Builds it for a cluster of `capacity` nodes.
    pub fn build(self, settings: &StrategySettings, capacity: u32) -> Result<Box<dyn Strategy>, BuildError> {
        let (info, name) = (self.0, self.0.name);
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

    /// Builds it as a Grid cluster's local scheduler: a queueing mode that
    /// takes advance reservations and integrates its backlog over `[0, t_stop]`.
    pub fn build_reserving(self, capacity: u32, t_stop: Time) -> Result<Box<dyn ReservingStrategy>, BuildError> {
        let build = self.0.reserving.ok_or_else(|| {
            InvalidSetting::new(
                "strategy",
                self.0.name,
                "a Grid cluster's local scheduler must be a queueing mode that takes advance reservations: \
                 fcfs, easy or conservative",
            )
        })?;
        Ok(build(capacity, t_stop))
    }
}

impl std::ops::Deref for StrategyRef {
    type Target = StrategyInfo;

    fn deref(&self) -> &StrategyInfo {
        self.0
    }
}

/// Two references are equal when they name the same strategy.
impl PartialEq for StrategyRef {
    fn eq(&self, other: &StrategyRef) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for StrategyRef {}

impl std::fmt::Debug for StrategyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StrategyRef({:?})", self.0.name)
    }
}

/// Its name (padded as a string is, for tables).
impl std::fmt::Display for StrategyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.0.name)
    }
}

impl serde::Serialize for StrategyRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name)
    }
}

impl<'de> serde::Deserialize<'de> for StrategyRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<StrategyRef, D::Error> {
        let name = String::deserialize(deserializer)?;
        StrategyRef::named(&name).map_err(serde::de::Error::custom)
    }
}

/// Builds the named queueing mode as a Grid cluster's local scheduler
/// ([`StrategyRef::build_reserving`]).
pub fn build_reserving(name: &str, capacity: u32, t_stop: Time) -> Result<Box<dyn ReservingStrategy>, BuildError> {
    StrategyRef::named(name)?.build_reserving(capacity, t_stop)
}

/// Builds the named strategy for a cluster of `capacity` nodes ([`StrategyRef::build`]).
pub fn build(name: &str, settings: &StrategySettings, capacity: u32) -> Result<Box<dyn Strategy>, BuildError> {
    StrategyRef::named(name)?.build(settings, capacity)
}
