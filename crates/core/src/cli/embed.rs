//! The command line embedded in another program (the Python package):
//! `slasim run`, `slasim sweep` and `slasim trace prepare` with the same
//! options, defaults, validation and messages, minus the terminal.
//!
//! Contract: every function takes the words the command line would after
//! its command's name (`--trace`, `x.swf`, …) and parses them with the
//! command line's own parser, so a setting is refused with the message
//! `slasim` prints (clap's, without its `error: ` prefix). Nothing is drawn
//! or printed, no Ctrl-C handler is installed: the caller passes an
//! interrupt counter and bumps it to stop the dispatch of points (the
//! command line's first Ctrl-C); points in flight finish and stay stored.
//! Results are where the command line puts them: the store the options
//! name (default `slasim.sqlite`), read back with [`crate::store::query()`].

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use clap::Parser;

pub use crate::cli::run::Ran;
pub use crate::cli::sweep::Swept;
use crate::cli::trace::TraceCommand;
pub use crate::cli::trace::Workload;
use crate::cli::{Cli, Command};
use crate::policy::batsim::InProcess;

/// Parses `slasim WORDS…` with the command line's parser; a refused word is
/// clap's message.
fn parse(words: impl IntoIterator<Item = OsString>) -> anyhow::Result<Command> {
    let argv = std::iter::once(OsString::from("slasim")).chain(words);
    match Cli::try_parse_from(argv) {
        Ok(cli) => Ok(cli.command),
        Err(e) => {
            let text = e.render().to_string();
            Err(anyhow::anyhow!("{}", text.trim_start_matches("error: ").trim_end()))
        }
    }
}

fn with_command(command: &str, args: Vec<OsString>) -> impl Iterator<Item = OsString> {
    command.split(' ').map(OsString::from).collect::<Vec<_>>().into_iter().chain(args)
}

/// `slasim run ARGS…`, stopped when `interrupts` moves.
pub fn run(args: Vec<OsString>, interrupts: Arc<AtomicUsize>) -> anyhow::Result<Ran> {
    run_with(args, interrupts, None)
}

/// `slasim run ARGS…` with the batsim strategy's scheduler in this process
/// (`--scheduler-name` names it in the runs' identity), stopped when
/// `interrupts` moves.
pub fn run_scheduled(args: Vec<OsString>, interrupts: Arc<AtomicUsize>, scheduler: InProcess) -> anyhow::Result<Ran> {
    run_with(args, interrupts, Some(scheduler))
}

fn run_with(args: Vec<OsString>, interrupts: Arc<AtomicUsize>, scheduler: Option<InProcess>) -> anyhow::Result<Ran> {
    let Command::Run(args) = parse(with_command("run", args))? else {
        anyhow::bail!("not a run command");
    };
    match crate::cli::run::run_driven(*args, Some(interrupts), scheduler)? {
        crate::cli::run::Finished::Ran(ran) => Ok(ran),
        crate::cli::run::Finished::Printed(_) => anyhow::bail!("the run printed its summary instead of returning it"),
    }
}

/// `slasim sweep CONFIG ARGS…`, stopped when `interrupts` moves.
pub fn sweep(args: Vec<OsString>, interrupts: Arc<AtomicUsize>) -> anyhow::Result<Swept> {
    let Command::Sweep(args) = parse(with_command("sweep", args))? else {
        anyhow::bail!("not a sweep command");
    };
    crate::cli::sweep::sweep_embedded(args, interrupts)
}

/// The workload `slasim trace prepare ARGS…` prepares, or (`prepared`
/// false) the log it reads before preparing it.
pub fn workload(args: Vec<OsString>, prepared: bool) -> anyhow::Result<Workload> {
    let Command::Trace(TraceCommand::Prepare(args)) = parse(with_command("trace prepare", args))? else {
        anyhow::bail!("not a trace prepare command");
    };
    crate::cli::trace::workload_embedded(args, prepared)
}
