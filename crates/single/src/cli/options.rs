//! The single cluster's command-line options: the value lists of its
//! enumerated flags (placement, acceptance test, calibration, PDF updates,
//! reservations, node unit, estimates, failure model), `--strategy`, and the
//! preparation settings `run` and `trace` share.
//!
//! Contract: every enumerated flag lists its values with one line each in
//! `--help` (a test walks the command tree), with the names configs use;
//! `--strategy` offers every registered strategy.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};

use crate::policy::overbooking::AcceptanceKind;
use crate::policy::{Placement, strategy_infos};
use crate::stats::aged::PdfUpdate;
use crate::stats::calibration::Calibration;
use crate::workload::prepare::{Estimates, NodeUnit, PrepareConfig};
use crate::workload::reservations::ReservationOption;
use slasim_core::cli::options::value_enum;

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
    /// How each job's deadline, fee and penalty are set (`slasim list sla-terms`).
    #[arg(long, default_value = crate::workload::sla::DEFAULT)]
    pub sla_terms: String,
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
            sla_terms: self.sla_terms.clone(),
            capacity: self.capacity,
            node_unit: self.node_unit,
            whole_log: self.whole_log,
            ..PrepareConfig::default()
        }
    }
}

/// `--failures` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum FailureModelArg {
    /// Replay the LANL failure log (systems 18 and 19) onto the nodes.
    Lanl,
    /// No node failures.
    None,
    /// Exponential up and repair times with the LANL mean rates.
    Poisson,
    /// Weibull up times (shape 0.7) with the LANL mean rates.
    Weibull,
    /// Hyper-exponential up times with the LANL mean rates.
    Hyperexp,
}

impl FailureModelArg {
    /// The model's name in configs and the store.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FailureModelArg::Lanl => "lanl",
            FailureModelArg::None => "none",
            FailureModelArg::Poisson => "poisson",
            FailureModelArg::Weibull => "weibull",
            FailureModelArg::Hyperexp => "hyperexp",
        }
    }
}
