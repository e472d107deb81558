//! A strategy, a co-reservation algorithm and a point kind written outside
//! slasim, and their registration. `main.rs` registers them and hands over to slasim's
//! own command line, so every `slasim` command (sweep, run, report, list)
//! knows them by name.

pub mod dice;
pub mod sjf_backfilling;
pub mod unshuffled;

use slasim::cli::SUBCOMMANDS;
use slasim::experiment::kinds::KINDS;
use slasim::grid::algorithm::{ALGORITHMS, AlgorithmInfo};
use slasim::registry::BadName;
use slasim::report::SECTIONS;
use slasim::single::policy::{Reads, STRATEGIES, StrategyInfo};

/// Registers slasim's own kinds, then `sjf-backfilling`, `a3b-unshuffled`
/// and the `dice` point kind with its report section and subcommand.
pub fn register() -> Result<(), BadName> {
    slasim::register_kinds()?;
    STRATEGIES.register(StrategyInfo {
        name: "sjf-backfilling",
        description: "EASY backfilling whose candidates are tried shortest estimate first (outside the crate)",
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
        // A queueing mode: every job runs, no deadlines, fees or rejections.
        queueing: true,
        shifts_in_plan: false,
        node_failures: false,
        build: |settings, capacity| Box::new(sjf_backfilling::SjfBackfilling::new(capacity, settings.kill_at_estimate)),
        reserving: None,
    })?;
    ALGORITHMS.register(AlgorithmInfo {
        name: "a3b-unshuffled",
        description: "Alg. 3b with the variants tried in generation order instead of a random one (outside the crate)",
        queries: true,
        build: || Box::new(unshuffled::Unshuffled),
    })?;
    KINDS.register(&dice::DICE)?;
    SECTIONS.register(&dice::DiceSection)?;
    SUBCOMMANDS.register(&dice::DiceCommand)?;
    Ok(())
}
