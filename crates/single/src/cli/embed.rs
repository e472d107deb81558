//! The single cluster's commands embedded in another program (the Python
//! package): `slasim run` and `slasim trace prepare` with the same options,
//! defaults, validation and messages, minus the terminal.
//!
//! Contract: as [`slasim_core::cli::embed`]'s: the words after the command's name,
//! parsed by the command line's own parser (a refused setting is the message
//! `slasim` prints); nothing drawn or printed, no Ctrl-C handler (the
//! caller's interrupt counter stops the dispatch of points); results where
//! the command line puts them.

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use clap::FromArgMatches;

pub use crate::cli::run::Ran;
use crate::cli::run::{Finished, RunArgs, run_driven};
use crate::cli::trace::PrepareArgs;
pub use crate::cli::trace::Workload;
use crate::policy::batsim::InProcess;
use slasim_core::cli::embed::matches;
use slasim_core::experiment::registry::Registry;

/// `slasim run ARGS…` with `registry`'s kinds, stopped when `interrupts` moves.
pub fn run(registry: &Registry, args: Vec<OsString>, interrupts: Arc<AtomicUsize>) -> anyhow::Result<Ran> {
    run_with(registry, args, interrupts, None)
}

/// `slasim run ARGS…` with the batsim strategy's scheduler in this process
/// (`--scheduler-name` names it in the runs' identity), stopped when
/// `interrupts` moves.
pub fn run_scheduled(
    registry: &Registry,
    args: Vec<OsString>,
    interrupts: Arc<AtomicUsize>,
    scheduler: InProcess,
) -> anyhow::Result<Ran> {
    run_with(registry, args, interrupts, Some(scheduler))
}

fn run_with(
    registry: &Registry,
    args: Vec<OsString>,
    interrupts: Arc<AtomicUsize>,
    scheduler: Option<InProcess>,
) -> anyhow::Result<Ran> {
    let args = RunArgs::from_arg_matches(&matches(registry, "run", args)?)?;
    match registry.reading(|| run_driven(registry, args, Some(interrupts), scheduler))? {
        Finished::Ran(ran) => Ok(ran),
        Finished::Printed(_) => anyhow::bail!("the run printed its summary instead of returning it"),
    }
}

/// The workload `slasim trace prepare ARGS…` prepares, or (`prepared`
/// false) the log it reads before preparing it.
pub fn workload(registry: &Registry, args: Vec<OsString>, prepared: bool) -> anyhow::Result<Workload> {
    let args = PrepareArgs::from_arg_matches(&matches(registry, "trace prepare", args)?)?;
    registry.reading(|| crate::cli::trace::workload_embedded(args, prepared))
}
