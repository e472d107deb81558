//! Command-line options shared by several commands, the value lists of the
//! enumerated flags, and the vocabulary every command follows.
//!
//! Contract: one concept has one flag name in every command ([`VOCABULARY`];
//! a test walks the whole command tree against it), and every enumerated
//! flag lists its values with one line each in `--help`: the fixed sets as
//! [`clap::ValueEnum`]s of the domain types, the registries (strategies,
//! broker algorithms) through parsers built from what is registered.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser};

use crate::policy::overbooking::AcceptanceKind;
use crate::policy::{Placement, strategy_infos};
use crate::stats::aged::PdfUpdate;
use crate::stats::calibration::Calibration;
use crate::workload::prepare::{Estimates, NodeUnit, PrepareConfig};
use crate::workload::reservations::ReservationOption;

/// A concept, its one flag, and the names it must not go by.
#[derive(Debug, Clone, Copy)]
pub struct Word {
    /// The concept.
    pub concept: &'static str,
    /// Its flag, in every command that takes it.
    pub flag: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// Other names of the same concept, which no command may use.
    pub not: &'static [&'static str],
}

/// The command line's vocabulary: one flag per concept, in every command.
pub const VOCABULARY: [Word; 12] = [
    Word {
        concept: "store",
        flag: "db",
        meaning: "the SQLite store a command writes or reads (default slasim.sqlite)",
        not: &["database", "store", "sqlite"],
    },
    Word {
        concept: "machine size",
        flag: "capacity",
        meaning: "processors of a cluster or site (default: the trace header's)",
        not: &["processors", "cpus", "procs", "nodes-total", "size"],
    },
    Word {
        concept: "workers",
        flag: "jobs",
        meaning: "threads busy at once, the whole run (default: one per core)",
        not: &["threads", "workers", "parallel"],
    },
    Word {
        concept: "output",
        flag: "out",
        meaning: "the file or directory a command writes (not a store)",
        not: &["output", "output-dir", "dir"],
    },
    Word {
        concept: "estimates",
        flag: "estimates",
        meaning: "jobs request their actual run times (exact) or their logged limits (logged)",
        not: &["exact-estimates", "logged-estimates", "exact"],
    },
    Word {
        concept: "offered load",
        flag: "target-load",
        meaning: "single cluster: the estimated offered load the arrivals are scaled to (2.0 = 200 %)",
        not: &["load"],
    },
    Word {
        concept: "utilisation",
        flag: "utilisation",
        meaning: "provisioning and pricing sites: the offered utilisation a week-shifted copy raises the trace to (0.88 = 88 %)",
        not: &["utilization", "target-utilisation"],
    },
    Word {
        concept: "seed",
        flag: "seed",
        meaning: "the seed of every random stream",
        not: &["random-seed", "rng-seed"],
    },
    Word {
        concept: "strategy",
        flag: "strategy",
        meaning: "a cluster's scheduling strategy (a Grid cluster's local scheduler too)",
        not: &["local-scheduler", "scheduler", "easy", "conservative", "fcfs"],
    },
    Word {
        concept: "pricing policy",
        flag: "pricing-policy",
        meaning: "the scheduler a site prices a slot with: conservative or easy",
        not: &["pricing", "price-with"],
    },
    Word {
        concept: "stored run",
        flag: "run",
        meaning: "a stored run by its id (runs.run_id, or a provisioning point's point_id)",
        not: &["run-id", "point", "point-id", "id"],
    },
    Word {
        concept: "trace",
        flag: "trace",
        meaning: "an SWF log (path or name under the traces directory) or a Slurm accounting dump; without it the embedded synthetic workload",
        not: &["swf", "log", "workload-file"],
    },
];

/// Implements [`clap::ValueEnum`] for a domain enum: its values with the
/// names configs use and one line of help each.
#[macro_export]
#[doc(hidden)]
macro_rules! __value_enum {
    ($ty:ty { $($variant:expr => $name:literal: $help:literal),+ $(,)? }) => {
        impl $crate::__clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<$crate::__clap::builder::PossibleValue> {
                let all: &[($ty, &'static str, &'static str)] = &[$(($variant, $name, $help)),+];
                all.iter()
                    .find(|(v, _, _)| v == self)
                    .map(|(_, n, h)| $crate::__clap::builder::PossibleValue::new(*n).help(*h))
            }
        }
    };
}
pub use crate::__value_enum as value_enum;

value_enum!(Placement {
    Placement::FirstFit => "first-fit": "the earliest start; among nodes, the lowest ids",
    Placement::BestFit => "best-fit": "the earliest gap holding the full estimate first, overbooking only if none does; the tightest nodes",
    Placement::HighestPos => "highest-pos": "the acceptable gap with the highest probability of success",
    Placement::LastFit => "last-fit": "the last acceptable gap (latest start)",
});

value_enum!(AcceptanceKind {
    AcceptanceKind::Pof => "pof": "accept an overbooked placement if its PoF < PoF_max",
    AcceptanceKind::Risk => "risk": "accept if PoS · fee > PoF · penalty · security factor",
});

value_enum!(Calibration {
    Calibration::None => "none": "the PoF as the strategy predicts it",
    Calibration::Isotonic => "isotonic": "a monotone map learned online from the overbooked outcomes seen so far",
    Calibration::IsotonicUpper => "isotonic-upper": "that map at the one-sided 90 % upper Wilson bound of each block's rate",
    Calibration::Scale => "scale": "one factor learned online: observed failures over predicted PoF",
    Calibration::Logistic => "logistic": "logit(calibrated) = a + b · logit(predicted), fitted online",
});

value_enum!(PdfUpdate {
    PdfUpdate::Static => "static": "runtime PDFs learned once, before the simulation",
    PdfUpdate::Online => "online": "jobs that end during the run enter their class's PDF",
});

value_enum!(ReservationOption {
    ReservationOption::Reject => "reject": "refuse a reservation that collides with planned jobs",
    ReservationOption::Move => "move": "move the planned jobs it collides with later",
});

value_enum!(NodeUnit {
    NodeUnit::Processors => "processors": "count resources as processors, as the logs give them",
    NodeUnit::Nodes => "nodes": "count whole nodes (capacity = MaxNodes)",
});

value_enum!(Estimates {
    Estimates::Exact => "exact": "jobs request their actual run times",
    Estimates::Logged => "logged": "jobs request the run time limits their users gave",
});

/// `--strategy`: every registered strategy, with its one line.
pub fn strategy_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(strategy_infos().into_iter().map(|s| PossibleValue::new(s.name).help(s.description)))
}

/// Preparation settings (dissertation defaults).
#[derive(Debug, Args)]
pub(crate) struct PrepareOptions {
    /// Simulation input: the last N usable jobs (the rest trains the PDFs).
    #[arg(long, default_value_t = PrepareConfig::default().input_jobs)]
    pub input_jobs: usize,
    /// Number of batteries.
    #[arg(long, default_value_t = PrepareConfig::default().batteries)]
    pub batteries: usize,
    /// Jobs per battery.
    #[arg(long, default_value_t = PrepareConfig::default().battery_size)]
    pub battery_size: usize,
    /// Estimated offered load the arrivals are scaled to (2.0 = 200 %).
    #[arg(long, default_value_t = PrepareConfig::default().target_load)]
    pub target_load: f64,
    /// Use this occurrence factor instead of computing it: every occurrence
    /// time (and so every inter-arrival time) is multiplied by it (load
    /// sweeps over the classic modes).
    #[arg(long)]
    pub occurrence_factor: Option<f64>,
    /// Penalty = ratio × fee.
    #[arg(long, default_value_t = PrepareConfig::default().penalty_ratio)]
    pub penalty_ratio: f64,
    /// Deadline d = o + factor × estimate; `inf` for jobs without a deadline.
    #[arg(long, default_value_t = PrepareConfig::default().deadline_factor)]
    pub deadline_factor: f64,
    /// Machine size (default: the header's MaxProcs, or MaxNodes with --node-unit nodes).
    #[arg(long)]
    pub capacity: Option<u32>,
    /// Count resources as processors or whole nodes.
    #[arg(long, value_enum, default_value_t = NodeUnit::Processors)]
    pub node_unit: NodeUnit,
    /// Simulate the whole log as one battery at its original arrival times.
    #[arg(long)]
    pub whole_log: bool,
}

impl PrepareOptions {
    /// The preparation config these options describe.
    pub fn config(&self) -> PrepareConfig {
        PrepareConfig {
            input_jobs: self.input_jobs,
            batteries: self.batteries,
            battery_size: self.battery_size,
            target_load: self.target_load,
            occurrence_factor: self.occurrence_factor,
            penalty_ratio: self.penalty_ratio,
            deadline_factor: self.deadline_factor,
            capacity: self.capacity,
            node_unit: self.node_unit,
            whole_log: self.whole_log,
            ..PrepareConfig::default()
        }
    }
}

/// A setting refused while resolving a command line's point, renamed to the
/// flag the user typed (`pricing.share` → `--share`): the error names what
/// was given, as a config error names its file and line.
pub fn as_flags(error: anyhow::Error, flags: &[(&'static str, &'static str)]) -> anyhow::Error {
    match error.downcast::<crate::setting::InvalidSetting>() {
        Ok(e) => match flags.iter().find(|(setting, _)| *setting == e.setting) {
            Some((_, flag)) => e.renamed(flag).into(),
            None => e.into(),
        },
        Err(other) => other,
    }
}

/// The default store of every command.
pub(crate) const DEFAULT_DB: &str = "slasim.sqlite";

/// Where results go and how many threads produce them.
#[derive(Debug, Args)]
pub struct StoreOptions {
    /// The SQLite store results are written to.
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Threads busy at once (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Worker threads for `--jobs`: the number given, else one per core.
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1)
}
