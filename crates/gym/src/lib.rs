//! Reinforcement-learning environments stepped in Rust, for Gymnasium-style
//! loops (the Python package wraps them as `gymnasium.Env`s).
//!
//! Contract: an environment owns its seeded generator (a [`slasim_core::rng`]
//! stream), reads no clock, and writes observations, masks and rewards into
//! buffers its caller owns. The same log, options, seed and actions give the
//! same observations and rewards to the bit. One environment per
//! sub-module: [`pick`] (choose the next job to start, RLScheduler's MDP);
//! [`admission`] (book an arriving SLA job on one of the planning
//! scheduler's candidates, or reject it; the kernel simulates);
//! [`vector`] steps many job-picking environments in one call; [`record`]
//! writes offline-RL datasets of behaviour policies, and [`cli`] is
//! `slasim gym`.

pub mod admission;
pub mod cli;
pub mod pick;
pub mod record;
pub mod vector;

use std::sync::OnceLock;

use slasim_core::registry::BadName;

/// Adds `slasim gym` to the command line. Once per process; later calls
/// return the first one's result.
pub fn register() -> Result<(), BadName> {
    static DONE: OnceLock<Result<(), BadName>> = OnceLock::new();
    DONE.get_or_init(|| slasim_core::cli::SUBCOMMANDS.register(&cli::GymSubcommand).map(|_| ())).clone()
}
