//! Command-line options shared by several commands.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::workload::prepare::{NodeUnit, PrepareConfig};

/// Preparation settings (dissertation defaults).
#[derive(Debug, Args)]
pub(crate) struct PrepareOptions {
    /// Simulation input: the last N usable jobs (the rest trains the PDFs).
    #[arg(long, default_value_t = 20_000)]
    pub input_jobs: usize,
    /// Number of batteries.
    #[arg(long, default_value_t = 20)]
    pub batteries: usize,
    /// Jobs per battery.
    #[arg(long, default_value_t = 1000)]
    pub battery_size: usize,
    /// Target estimated load of the scaled input (2.0 = 200 %).
    #[arg(long, default_value_t = 2.0)]
    pub target_load: f64,
    /// Use this occurrence factor instead of computing it: every occurrence
    /// time (and so every inter-arrival time) is multiplied by it
    /// (`--arrival-scale` for load sweeps over the classic modes).
    #[arg(long, visible_alias = "arrival-scale")]
    pub occurrence_factor: Option<f64>,
    /// Penalty = ratio × fee.
    #[arg(long, default_value_t = 1.0)]
    pub penalty_ratio: f64,
    /// Deadline d = o + factor × estimate; `inf` for jobs without a deadline.
    #[arg(long, default_value_t = 2.0)]
    pub deadline_factor: f64,
    /// Machine size (default: the header's MaxProcs, or MaxNodes with --node-unit nodes).
    #[arg(long, visible_alias = "processors")]
    pub capacity: Option<u32>,
    /// Count resources as processors (default) or whole nodes.
    #[arg(long, value_enum, default_value_t = NodeUnitArg::Processors)]
    pub node_unit: NodeUnitArg,
    /// Simulate the whole log as one battery at its original arrival times.
    #[arg(long)]
    pub whole_log: bool,
}

/// `--node-unit` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum NodeUnitArg {
    Processors,
    Nodes,
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
            node_unit: match self.node_unit {
                NodeUnitArg::Processors => NodeUnit::Processors,
                NodeUnitArg::Nodes => NodeUnit::Nodes,
            },
            whole_log: self.whole_log,
            ..PrepareConfig::default()
        }
    }
}

/// Where results go and how many worker threads produce them.
#[derive(Debug, Args)]
pub(crate) struct StoreOptions {
    /// SQLite file the results are stored in.
    #[arg(long, default_value = "slasim.sqlite")]
    pub db: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

impl StoreOptions {
    /// The worker threads: `--jobs`, else one per core.
    pub fn threads(&self) -> usize {
        threads(self.jobs)
    }
}

/// Worker threads for `--jobs`: the number given, else one per core.
pub(crate) fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1)
}
