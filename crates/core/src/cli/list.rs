//! `slasim list`: what exists, one line each; `--markdown` prints the same as
//! the tables of the docs' references (a test keeps those equal). A kind of
//! another crate adds its lists through [`LISTS`]: `slasim list NAME`, after
//! the built-in ones.

use std::fmt::Write as _;

use clap::{Args, Subcommand, ValueEnum};

use crate::cli::emit;
use crate::cli::options::VOCABULARY;
use crate::experiment::kinds::KINDS;
use crate::policy::energy::ENERGY_POLICIES;
use crate::policy::{Placement, strategy_infos};
use crate::registry::Registry;

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(subcommand)]
    command: ListCommand,
    /// Print Markdown tables (as in the docs) instead of aligned text.
    #[arg(long, global = true)]
    markdown: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ListCommand {
    /// Scheduling strategies (`--strategy`, the `strategy` axis).
    Strategies,
    /// Sweep axes of every kind of config, with the setting each sets.
    Axes,
    /// Placement policies (`--placement`).
    Placements,
    /// Energy policies (`[energy_policy] name`, the `energy_policy` axis).
    EnergyPolicies,
    /// The command line's vocabulary: one flag per concept.
    Flags,
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

/// A list of a kind of another crate: `slasim list NAME`.
pub trait Listing: Send + Sync + 'static {
    /// Its name on the command line (kebab-case).
    fn name(&self) -> &'static str;

    /// One line for `--help`.
    fn about(&self) -> &'static str;

    /// Its two column heads: the name of a thing, and what it is.
    fn header(&self) -> [&'static str; 2];

    /// Its rows: a name and one line.
    fn rows(&self) -> Vec<(String, String)>;
}

crate::named_trait_objects!(Listing);

/// The registered lists.
pub static LISTS: Registry<&'static dyn Listing> = Registry::new("list", &[]);

/// `list` with the registered lists as its subcommands after the built-in ones.
pub(crate) fn with_registered(list: clap::Command) -> clap::Command {
    LISTS.all().into_iter().fold(list, |list, l| list.subcommand(clap::Command::new(l.name()).about(l.about())))
}

/// Runs `slasim list NAME` for a registered list; `None` for a built-in one.
pub(crate) fn run_registered(matches: &clap::ArgMatches) -> Option<anyhow::Result<()>> {
    let (name, _) = matches.subcommand()?;
    let listing = LISTS.get(name).ok()?;
    let sections = [Section::new(listing.header(), listing.rows())];
    let markdown_wanted = matches.get_flag("markdown");
    Some(emit(&if markdown_wanted { markdown(&sections) } else { text(&sections) }))
}

pub(crate) fn run(args: ListArgs) -> anyhow::Result<()> {
    let axes = matches!(args.command, ListCommand::Axes);
    let sections = match args.command {
        ListCommand::Strategies => vec![Section::new(
            ["strategy", "what it does"],
            strategy_infos().iter().map(|s| (s.name.to_string(), s.description.to_string())),
        )],
        ListCommand::Axes => KINDS
            .all()
            .into_iter()
            .map(|kind| {
                let mut axes: Vec<(String, String)> = vec![("seed".into(), "seed of every random stream".into())];
                axes.extend(kind.axes().iter().map(|a| (a.name.to_string(), format!("{} (`{}`)", a.about, a.path))));
                Section { title: Some(kind.described().to_string()), ..Section::new(["axis", "what it sets"], axes) }
            })
            .collect(),
        ListCommand::Placements => vec![Section::new(["placement", "what it does"], possible_values::<Placement>())],
        ListCommand::EnergyPolicies => vec![Section::new(
            ["energy policy", "what it does"],
            ENERGY_POLICIES.all().into_iter().map(|p| (p.name.to_string(), p.description.to_string())),
        )],
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
