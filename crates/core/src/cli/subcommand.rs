//! The subcommands of kinds registered from other crates.
//!
//! Contract: a kind crate registers a [`Subcommand`] in [`SUBCOMMANDS`]
//! before [`crate::cli::main`] runs; the command line then has it beside the
//! built-in commands (in `--help`, completions and the manual pages, after
//! them, in registration order). Its name is its clap command's name. It
//! runs with what clap matched for it, under the same rules as every command:
//! an error is one `error: …` paragraph and exit status 1.

use std::process::ExitCode;

use crate::registry::Registry;

/// A subcommand of the `slasim` command line.
pub trait Subcommand: Send + Sync + 'static {
    /// Its name on the command line (kebab-case).
    fn name(&self) -> &'static str;

    /// Its clap command, named [`Subcommand::name`]: about, arguments, its
    /// own subcommands.
    fn command(&self) -> clap::Command;

    /// Runs it with what clap matched for it.
    fn run(&self, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode>;
}

crate::named_trait_objects!(Subcommand);

/// The registered subcommands.
pub static SUBCOMMANDS: Registry<&'static dyn Subcommand> = Registry::new("subcommand", &[]);
