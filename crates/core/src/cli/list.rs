//! `slasim list`: what exists, one line each; `--markdown` prints the same as
//! the tables of the docs' references (a test keeps those equal).
//!
//! Contract: the shell lists what every kind has (axes, flags); a kind adds
//! its lists to a registry's [`Lists`]: `slasim list NAME`, where its [`Place`] puts
//! it among the others, printed in the same frame (aligned text or Markdown).

use std::fmt::Write as _;

use clap::{Args, FromArgMatches, Subcommand, ValueEnum};

use crate::cli::emit;
use crate::cli::options::VOCABULARY;
use crate::cli::subcommand::{Place, arrange};
use crate::experiment::registry::{Entries, Registry, lookup};

/// `slasim list`'s flags.
#[derive(Debug, Args)]
struct ListFlags {
    /// Print Markdown tables (as in the docs) instead of aligned text.
    #[arg(long, global = true)]
    markdown: bool,
}

/// `slasim list NAME`: the flags and the list chosen, one of the shell's or
/// a kind's. Not derived: clap cannot insert the kinds' lists among the
/// shell's, so [`clap::Args::augment_args`] arranges them.
#[derive(Debug)]
pub(crate) struct ListArgs {
    markdown: bool,
    list: Chosen,
}

/// The list asked for.
#[derive(Debug)]
enum Chosen {
    Own(ListCommand),
    Kind(&'static dyn Listing),
}

#[derive(Debug, Subcommand)]
enum ListCommand {
    /// Sweep axes of every kind of config, with the setting each sets.
    Axes,
    /// The command line's vocabulary: one flag per concept.
    Flags,
}

impl FromArgMatches for ListArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = ListFlags::from_arg_matches(matches)?;
        let kind = matches.subcommand_name().and_then(|name| lookup(|r| r.and_then(|r| r.find::<Lists>(name).ok())));
        let list = match kind {
            Some(listing) => Chosen::Kind(listing),
            None => Chosen::Own(ListCommand::from_arg_matches(matches)?),
        };
        Ok(ListArgs { markdown: flags.markdown, list })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = ListArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for ListArgs {
    fn augment_args(list: clap::Command) -> clap::Command {
        // The shell's lists, taken from a scratch parent to be arranged.
        let scratch = ListCommand::augment_subcommands(clap::Command::new("list"));
        let own: Vec<clap::Command> = scratch.get_subcommands().cloned().collect();
        // Inside the command line's `Registry::reading`: its kinds' lists.
        let lists: Vec<&'static dyn Listing> = lookup(|r| r.map(|r| r.all::<Lists>()).unwrap_or_default());
        let kinds = lists.into_iter().map(|l| (l.place(), clap::Command::new(l.name()).about(l.about())));
        // The lists first, then the flags, as clap's derive adds a subcommand
        // field before a later one: the display order counts both, and
        // `--verbose` (the root's first) stays before `--markdown`.
        let list = arrange(list, own, kinds);
        // As clap's derive makes a required subcommand.
        ListFlags::augment_args(list).subcommand_required(true).arg_required_else_help(true)
    }

    fn augment_args_for_update(list: clap::Command) -> clap::Command {
        ListArgs::augment_args(list)
    }
}

/// A titled table; the first column is a name, the last its meaning.
struct Section {
    title: Option<String>,
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Section {
    fn new(header: [&'static str; 2], rows: impl IntoIterator<Item = (String, String)>) -> Section {
        Section { title: None, header: header.to_vec(), rows: rows.into_iter().map(|(n, a)| vec![n, a]).collect() }
    }
}

fn text(sections: &[Section]) -> String {
    let mut out = String::new();
    for section in sections {
        let indent = if let Some(title) = &section.title {
            let _ = writeln!(out, "{title}:");
            "  "
        } else {
            ""
        };
        let columns = section.header.len();
        let widths: Vec<usize> =
            (0..columns).map(|c| section.rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
        for row in &section.rows {
            let mut line = indent.to_string();
            for (c, cell) in row.iter().enumerate() {
                if c + 1 < columns {
                    let _ = write!(line, "{cell:<w$}  ", w = widths[c]);
                } else {
                    line.push_str(cell);
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    out
}

fn markdown(sections: &[Section]) -> String {
    let mut out = String::new();
    for (i, section) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if let Some(title) = &section.title {
            let _ = writeln!(out, "**{title}**\n");
        }
        let _ = writeln!(out, "| {} |", section.header.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(section.header.len()));
        for row in &section.rows {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    let cell = cell.replace('|', "\\|");
                    if c == 0 { format!("`{cell}`") } else { cell }
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    }
    out
}

/// A list of a kind: `slasim list NAME`.
pub trait Listing: Send + Sync + 'static {
    /// Its name on the command line (kebab-case).
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// Where it stands among the lists; after them unless it says otherwise.
    fn place(&self) -> Place {
        Place::Last
    }

    /// Its two column heads: the name of a thing, and what it is.
    fn header(&self) -> [&'static str; 2];

    /// Its rows of `registry` (a kind's own tables are there): a name and one line.
    fn rows(&self, registry: &Registry) -> Vec<(String, String)>;
}

crate::named_trait_objects!(Listing);

/// A list given by its parts, as most lists are: its name, help line, place,
/// column heads and how its rows are read (from a registry's entries, or a
/// fixed set of values).
#[derive(Debug, Clone, Copy)]
pub struct ListOf {
    /// Its name on the command line (kebab-case).
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    /// Where it stands among the lists.
    pub place: Place,
    /// Its two column heads.
    pub header: [&'static str; 2],
    /// Its rows: a name and one line each.
    pub rows: fn(&Registry) -> Vec<(String, String)>,
}

impl Listing for ListOf {
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn place(&self) -> Place {
        self.place
    }

    fn header(&self) -> [&'static str; 2] {
        self.header
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        (self.rows)(registry)
    }
}

/// The kinds' lists of a registry (`slasim list NAME`).
pub enum Lists {}

impl Entries for Lists {
    type Entry = dyn Listing;
    const WHAT: &'static str = "list";
}

pub(crate) fn run(registry: &Registry, args: ListArgs) -> anyhow::Result<()> {
    let own = match args.list {
        Chosen::Own(own) => own,
        Chosen::Kind(listing) => {
            let sections = [Section::new(listing.header(), listing.rows(registry))];
            return emit(&if args.markdown { markdown(&sections) } else { text(&sections) });
        }
    };
    let axes = matches!(own, ListCommand::Axes);
    let sections = match own {
        ListCommand::Axes => registry
            .point_kinds
            .all()
            .iter()
            .map(|kind| {
                let mut axes: Vec<(String, String)> = vec![("seed".into(), "seed of every random stream".into())];
                axes.extend(kind.axes().iter().map(|a| (a.name.to_string(), format!("{} (`{}`)", a.about, a.path))));
                Section { title: Some(kind.described().to_string()), ..Section::new(["axis", "what it sets"], axes) }
            })
            .collect(),
        ListCommand::Flags => vec![Section {
            title: None,
            header: vec!["flag", "concept", "never called", "meaning"],
            rows: VOCABULARY
                .iter()
                .map(|w| {
                    let not = w.not.iter().map(|n| format!("--{n}")).collect::<Vec<_>>().join(", ");
                    vec![format!("--{}", w.flag), w.concept.to_string(), not, w.meaning.to_string()]
                })
                .collect(),
        }],
    };
    let mut out = if args.markdown { markdown(&sections) } else { text(&sections) };
    if !args.markdown && axes {
        out.push_str("\nAny setting can also be swept by its dotted path, e.g. prepare.deadline_factor.\n");
    }
    emit(&out)
}

/// Every value of an enumerated flag with its help line.
pub fn possible_values<T: ValueEnum>() -> Vec<(String, String)> {
    T::value_variants()
        .iter()
        .filter_map(T::to_possible_value)
        .map(|v| (v.get_name().to_string(), v.get_help().map(ToString::to_string).unwrap_or_default()))
        .collect()
}
