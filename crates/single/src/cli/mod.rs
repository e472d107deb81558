//! The single cluster's command line: `slasim run`, `slasim trace …`, its
//! lists (`slasim list strategies|placements|energy-policies`), its options,
//! and the same commands embedded in another program.
//!
//! Contract: the commands come into the shell ([`slasim_core::cli`]) as any
//! kind's do, as [`Subcommand`]s ([`SUBCOMMANDS`]) and
//! [`slasim_core::cli::list::Listing`]s ([`list::LISTS`]), added to a
//! registry by [`crate::SingleKind`] and placed where they always stood (`run` first,
//! `trace` after `report`), so `--help`, completions, the manual pages and
//! the reference are unchanged.

pub mod embed;
pub mod list;
pub mod options;
pub mod run;
pub(crate) mod trace;

use std::process::ExitCode;

use clap::{Args, FromArgMatches, Subcommand as _};

use slasim_core::cli::subcommand::{Place, Subcommand};
use slasim_core::experiment::registry::Registry;

/// The single cluster's commands, for the shell's registry of subcommands.
pub static SUBCOMMANDS: [&'static dyn Subcommand; 2] = [&RUN, &TRACE];

/// `slasim run`.
pub struct RunCommand;

/// `slasim run`: one of [`SUBCOMMANDS`].
pub static RUN: RunCommand = RunCommand;

impl Subcommand for RunCommand {
    fn name(&self) -> &'static str {
        "run"
    }

    fn command(&self) -> clap::Command {
        // The about is the one line clap's derive made of the variant's doc comment.
        run::RunArgs::augment_args(clap::Command::new("run")).about(
            "Run the battery set of a trace (or the synthetic default) under one or more strategies; store every \
             job in SQLite and print a summary",
        )
    }

    fn place(&self) -> Place {
        Place::First
    }

    fn run(&self, registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
        run::run(registry, run::RunArgs::from_arg_matches(matches)?)
    }
}

/// `slasim trace …`.
pub struct TraceCommand;

/// `slasim trace`: one of [`SUBCOMMANDS`].
pub static TRACE: TraceCommand = TraceCommand;

impl Subcommand for TraceCommand {
    fn name(&self) -> &'static str {
        "trace"
    }

    fn command(&self) -> clap::Command {
        trace::TraceCommand::augment_subcommands(clap::Command::new("trace"))
            .about("Inspect, generate, prepare and export workloads and failure streams")
            // As clap's derive makes a required subcommand.
            .subcommand_required(true)
            .arg_required_else_help(true)
    }

    fn place(&self) -> Place {
        Place::After("report")
    }

    fn run(&self, _registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
        trace::run(trace::TraceCommand::from_arg_matches(matches)?).map(|()| ExitCode::SUCCESS)
    }
}
