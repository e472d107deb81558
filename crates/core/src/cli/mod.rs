//! The `slasim` command line.
//!
//! Contract: parsing is clap's; every command returns `anyhow::Result`, and
//! [`main`] turns an error into one `error: …` paragraph on stderr and exit
//! status 1 — a flag clap refuses too (an unknown flag, a value not in a
//! flag's list), so every kind of bad input exits with 1. Results go to
//! stdout, logs (tracing) to stderr, so output can be piped. Nothing here
//! panics on user input. One concept has one flag name in every command
//! ([`options::VOCABULARY`]). This shell has the commands of every kind
//! (sweep, merge, report, …); a kind adds its own commands and lists to the
//! program's registry ([`subcommand::Subcommands`], [`list::Lists`]; the
//! single cluster's `run`, `trace` and lists too), so the shell names no
//! kind. A command runs with the registry [`main`] was given, which is
//! also the one clap's parsers and serde's name lookups see
//! ([`Registry::reading`]).

pub mod embed;
mod export;
mod gantt;
pub mod list;
pub mod options;
pub mod points;
mod query;
mod reference;
mod report;
mod signal;
pub mod subcommand;
pub(crate) mod sweep;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;

use crate::cli::subcommand::Subcommands;
use crate::experiment::registry::Registry;

/// The version `--version` prints: the package version and the commit it was built from.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SLASIM_GIT_COMMIT"), ")");

/// slasim: SLA-aware, planning-based HPC and Grid scheduling experiments.
#[derive(Debug, Parser)]
#[command(
    name = "slasim",
    version = VERSION,
    about = "Experiment engine for SLA-aware, planning-based HPC and Grid scheduling research",
    long_about = None
)]
pub struct Cli {
    /// More log output on stderr (-v info, -vv debug). `SLASIM_LOG` overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
}

// The shell's commands; a kind's (`run`, `trace`, `grid`, …) are in the
// registry's `subcommands`. Not a field of `Cli`: `command()` adds them
// beside the kinds' in the order the kinds' places ask for. (A `//` comment:
// clap's derive would take a doc comment for the parent's about.)
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run (or resume) an experiment config of any kind: every point of its
    /// sweeps, on all cores, stored in SQLite; or write a Slurm script for it.
    Sweep(sweep::SweepArgs),
    /// Merge the stores of a sweep's shards into one.
    Merge(sweep::MergeArgs),
    /// Draw a Gantt chart of a stored run (SVG, PNG or HTML): one row per
    /// node, one bar per execution, coloured by outcome.
    Gantt(gantt::GanttArgs),
    /// Run one read-only SQL statement on the store and print the result.
    Query(query::QueryArgs),
    /// Write every table of a store as Parquet, with a provenance table
    /// (settings, code version, trace and seed of every point).
    Export(export::ExportArgs),
    /// Inspect a grid signal file: carbon intensity, electricity price or
    /// renewable supply as a time series.
    #[command(subcommand)]
    Signal(signal::SignalCommand),
    /// Write comparison tables (Markdown, CSV, Parquet), plots (SVG, PNG) and
    /// an offline HTML page from a store; or compare two stores.
    Report(report::ReportArgs),
    /// What exists: strategies, algorithms, axes, request workloads, … one line each.
    List(list::ListArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(reference::CompletionsArgs),
    /// Write the manual pages (slasim.1 and one per subcommand).
    Man(reference::ManArgs),
    /// Print a generated reference page of the docs (Markdown).
    #[command(subcommand, hide = true)]
    Reference(reference::ReferenceCommand),
}

/// The command tree of `registry`'s kinds, for parsing, completions, the
/// manual page and the tests.
pub fn command(registry: &Registry) -> clap::Command {
    registry.reading(command_reading)
}

/// [`command`], inside [`Registry::reading`] (the kinds' flags list their
/// registered names, the list command the kinds' lists).
fn command_reading() -> clap::Command {
    // The shell's commands, taken from a scratch parent to be arranged.
    let scratch = <Command as Subcommand>::augment_subcommands(clap::Command::new("slasim"));
    let own: Vec<clap::Command> = scratch.get_subcommands().cloned().collect();
    let placed = crate::experiment::registry::lookup(|r| r.map(subcommand::placed).unwrap_or_default());
    subcommand::arrange(<Cli as clap::CommandFactory>::command(), own, placed)
        // As clap's derive makes a required subcommand.
        .subcommand_required(true)
        .arg_required_else_help(true)
        // `list` stands in its place in `--help` (its display order) but last
        // in the tree, which the reference page and completions follow, as it
        // always has: clap's `mut_subcommand` moves a command last.
        .mut_subcommand("list", |list| list)
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = EnvFilter::try_from_env("SLASIM_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    // A second initialisation (tests) is harmless.
    // Colours only on a terminal: a log redirected to a file stays plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).try_init();
}

/// Writes command output to stdout; a closed pipe (`| head`) is not an error.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Runs the command line with `registry`'s kinds; the binary's `main`.
pub fn main(registry: &Registry) -> ExitCode {
    registry.reading(|| main_reading(registry))
}

/// [`main`], inside [`Registry::reading`].
fn main_reading(registry: &Registry) -> ExitCode {
    // --help and --version are not errors.
    let refused = |e: clap::Error| {
        let code = if e.use_stderr() { ExitCode::FAILURE } else { ExitCode::SUCCESS };
        let _ = e.print();
        code
    };
    let matches = match command_reading().try_get_matches() {
        Ok(matches) => matches,
        Err(e) => return refused(e),
    };
    init_logging(matches.get_count("verbose"));
    let registered =
        matches.subcommand().and_then(|(name, matched)| Some((registry.find::<Subcommands>(name).ok()?, matched)));
    let result = match registered {
        Some((registered, matched)) => registered.run(registry, matched),
        None => match <Command as clap::FromArgMatches>::from_arg_matches(&matches) {
            Ok(command) => run(registry, command),
            Err(e) => return refused(e),
        },
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one of the shell's commands.
fn run(registry: &Registry, command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Sweep(args) => sweep::sweep(registry, args),
        Command::Merge(args) => sweep::merge_command(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Gantt(args) => gantt::run(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Query(args) => query::run(args).map(|()| ExitCode::SUCCESS),
        Command::Export(args) => export::run(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Signal(command) => signal::run(command).map(|()| ExitCode::SUCCESS),
        Command::Report(args) => report::run(registry, args).map(|()| ExitCode::SUCCESS),
        Command::List(args) => list::run(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Completions(args) => reference::completions(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Man(args) => reference::man(registry, args).map(|()| ExitCode::SUCCESS),
        Command::Reference(command) => reference::reference(registry, command).map(|()| ExitCode::SUCCESS),
    }
}
