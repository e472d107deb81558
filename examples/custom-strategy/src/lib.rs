//! A strategy, a co-reservation algorithm and a point kind written outside
//! slasim, and their registration. `main.rs` builds the registry of slasim's
//! kinds and this one ([`kinds`]) and hands over to slasim's own command
//! line, so every `slasim` command (sweep, run, report, list) knows them by
//! name.

pub mod dice;
pub mod sjf_backfilling;
pub mod unshuffled;

use slasim::experiment::registry::{BadName, Kind, Registry};
use slasim::grid::algorithm::{AlgorithmInfo, Algorithms};
use slasim::single::policy::{Reads, Strategies, StrategyInfo};

/// The example as a kind: `sjf-backfilling` added to the single cluster's
/// strategies, `a3b-unshuffled` to the Grid's algorithms, and the `dice`
/// point kind with its report section, subcommand and random stream. It
/// comes after slasim's kinds in the list, since it adds to their tables.
pub struct Example;

/// The example, for the list of kinds.
pub static EXAMPLE: Example = Example;

/// `sjf-backfilling`: EASY backfilling trying the shortest estimate first.
static SJF_BACKFILLING: StrategyInfo = StrategyInfo {
    name: "sjf-backfilling",
    description: "EASY backfilling whose candidates are tried shortest estimate first (outside the crate)",
    reads: Reads { placement: false, overbooking: false, acceptance: false, scheduler: false, kill_at_estimate: true },
    security_factor: 2.0,
    base: None,
    moves_planned_jobs: false,
    // A queueing mode: every job runs, no deadlines, fees or rejections.
    queueing: true,
    shifts_in_plan: false,
    node_failures: false,
    build: |settings, capacity| Box::new(sjf_backfilling::SjfBackfilling::new(capacity, settings.kill_at_estimate)),
    reserving: None,
};

/// `a3b-unshuffled`: Alg. 3b trying the variants in generation order.
static A3B_UNSHUFFLED: AlgorithmInfo = AlgorithmInfo {
    name: "a3b-unshuffled",
    description: "Alg. 3b with the variants tried in generation order instead of a random one (outside the crate)",
    queries: true,
    build: || Box::new(unshuffled::Unshuffled),
};

impl Kind for Example {
    fn name(&self) -> &'static str {
        "custom-strategy"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add::<Strategies>(&SJF_BACKFILLING)?;
        registry.add::<Algorithms>(&A3B_UNSHUFFLED)?;
        registry.add_point_kind(&dice::DICE)?;
        registry.add::<slasim::report::section::Sections>(&dice::DiceSection)?;
        registry.add::<slasim::cli::subcommand::Subcommands>(&dice::DiceCommand)?;
        registry.add_stream(dice::ROLLS)
    }
}

/// slasim's kinds, then the example.
pub fn kinds() -> Vec<&'static dyn Kind> {
    slasim::KINDS.into_iter().chain([&EXAMPLE as &dyn Kind]).collect()
}
