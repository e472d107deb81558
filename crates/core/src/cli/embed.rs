//! The command line embedded in another program (the Python package): a
//! command with the same options, defaults, validation and messages, minus
//! the terminal. This shell embeds `slasim sweep`; a kind embeds its own
//! commands with [`matches()`] (the single cluster's `run` and `trace prepare`
//! beside its command line).
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

use clap::FromArgMatches;

use crate::experiment::registry::Registry;

pub use crate::cli::sweep::Swept;

/// What clap matched for `slasim COMMAND WORDS…` (`COMMAND` one or more
/// words, `trace prepare`), parsed by the whole command line's parser; a
/// refused word is clap's message.
pub fn matches(registry: &Registry, command: &str, words: Vec<OsString>) -> anyhow::Result<clap::ArgMatches> {
    let path: Vec<&str> = command.split(' ').collect();
    let argv = std::iter::once(OsString::from("slasim")).chain(path.iter().map(OsString::from)).chain(words);
    let mut matched = crate::cli::command(registry).try_get_matches_from(argv).map_err(|e| {
        let text = e.render().to_string();
        anyhow::anyhow!("{}", text.trim_start_matches("error: ").trim_end())
    })?;
    // Down the command's words to its own matches.
    for name in path {
        matched = match matched.remove_subcommand() {
            Some((found, sub)) if found == name => sub,
            _ => anyhow::bail!("not a {command} command"),
        };
    }
    Ok(matched)
}

/// `slasim sweep CONFIG ARGS…`, stopped when `interrupts` moves.
pub fn sweep(registry: &Registry, args: Vec<OsString>, interrupts: Arc<AtomicUsize>) -> anyhow::Result<Swept> {
    let args = crate::cli::sweep::SweepArgs::from_arg_matches(&matches(registry, "sweep", args)?)?;
    registry.reading(|| crate::cli::sweep::sweep_embedded(registry, args, None, interrupts))
}

/// `slasim sweep` of config `text` rather than a file: `name` stands for
/// the file in messages and in the store (the caller's name for the
/// config, never a path it made up), `args` are the options after it.
pub fn sweep_text(
    registry: &Registry,
    name: &str,
    text: &str,
    args: Vec<OsString>,
    interrupts: Arc<AtomicUsize>,
) -> anyhow::Result<Swept> {
    let words = std::iter::once(OsString::from(name)).chain(args).collect();
    let args = crate::cli::sweep::SweepArgs::from_arg_matches(&matches(registry, "sweep", words)?)?;
    registry.reading(|| crate::cli::sweep::sweep_embedded(registry, args, Some(text), interrupts))
}
