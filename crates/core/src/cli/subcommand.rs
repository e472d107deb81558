//! The subcommands of kinds, registered by their crates.
//!
//! Contract: a kind adds a [`Subcommand`] to the program's registry's
//! [`Subcommands`]; the command line then has it beside the
//! shell's commands (in `--help`, completions, the manual pages and the
//! reference) where its [`Place`] puts it: by default after them, in
//! the registry's order. Its name is its clap command's name. It runs with
//! the registry and what clap matched for it, under the same rules as every
//! command: an error
//! is one `error: …` paragraph and exit status 1.

use std::process::ExitCode;

use crate::experiment::registry::{Entries, Registry};

/// A subcommand of the `slasim` command line.
pub trait Subcommand: Send + Sync + 'static {
    /// Its name on the command line (kebab-case).
    fn name(&self) -> &'static str;

    /// Its clap command, named [`Subcommand::name`]: about, arguments, its
    /// own subcommands (built inside [`Registry::reading`], so flags listing
    /// registered names list the program's).
    fn command(&self) -> clap::Command;

    /// Where it stands among the commands; after them unless it says otherwise.
    fn place(&self) -> Place {
        Place::Last
    }

    /// Runs it with the program's registry and what clap matched for it.
    fn run(&self, registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode>;
}

crate::named_trait_objects!(Subcommand);

/// The kinds' commands of a registry.
pub enum Subcommands {}

impl Entries for Subcommands {
    type Entry = dyn Subcommand;
    const WHAT: &'static str = "subcommand";
}

/// Where a kind's command (or list) stands among its parent's commands: the
/// order of `--help`, completions, the manual pages and the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Before every other (after the ones placed first earlier).
    First,
    /// Right after the named command (after the ones placed after it earlier);
    /// at the end if there is none of that name.
    After(&'static str),
    /// After every other placed so far.
    Last,
}

/// `parent` with `own` (its own commands, in order) and `placed` (a kind's,
/// in registration order, each where its [`Place`] puts it) as subcommands.
/// clap has no insertion, so the order is settled before any is added; each
/// gets its position as its display order, as clap numbers added commands.
pub(crate) fn arrange(
    parent: clap::Command,
    own: impl IntoIterator<Item = clap::Command>,
    placed: impl IntoIterator<Item = (Place, clap::Command)>,
) -> clap::Command {
    // Each command with the place it was put at (own ones: Last).
    let mut order: Vec<(Place, clap::Command)> = own.into_iter().map(|c| (Place::Last, c)).collect();
    for (place, command) in placed {
        let at = match place {
            Place::First => order.iter().take_while(|(p, _)| *p == Place::First).count(),
            Place::After(name) => match order.iter().position(|(_, c)| c.get_name() == name) {
                // Past the ones placed after it earlier, so registration order holds.
                Some(i) => i + 1 + order[i + 1..].iter().take_while(|(p, _)| *p == place).count(),
                None => order.len(),
            },
            Place::Last => order.len(),
        };
        order.insert(at, (place, command));
    }
    order.into_iter().enumerate().fold(parent, |parent, (i, (_, command))| parent.subcommand(command.display_order(i)))
}

/// The registry's subcommands with their places, for [`arrange`].
pub(crate) fn placed(registry: &Registry) -> Vec<(Place, clap::Command)> {
    registry.all::<Subcommands>().iter().map(|s| (s.place(), s.command())).collect()
}
