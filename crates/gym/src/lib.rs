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
//! writes offline-RL datasets of behaviour policies; [`kind`] is recording
//! as a point kind (its tables in [`tables`], its report section in
//! [`report`]), and [`cli`] is `slasim gym`.

pub mod admission;
pub mod cli;
pub mod kind;
pub mod pick;
pub mod record;
pub mod report;
pub mod streams;
pub mod tables;
pub mod vector;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The environments as a kind: `slasim gym`, the recording point kind
/// (and so its tables) and its report section, their random streams and their table of behaviour
/// policies. A program lists it after the single
/// cluster and Slurm, whose models the environments run.
pub struct GymKind;

/// The environments, for a program's list of kinds.
pub static KIND: GymKind = GymKind;

impl Kind for GymKind {
    fn name(&self) -> &'static str {
        "gym"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add_point_kind(&kind::RECORDING)?;
        registry.add::<slasim_core::report::section::Sections>(&report::RecordingSection)?;
        registry.add::<slasim_core::cli::subcommand::Subcommands>(&cli::GymSubcommand)?;
        for stream in streams::STREAMS {
            registry.add_stream(stream)?;
        }
        registry.add_list::<record::behaviour::Behaviours>()
    }
}
