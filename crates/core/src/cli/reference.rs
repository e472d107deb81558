//! `slasim reference cli|schema` (hidden): the docs' generated reference
//! pages, printed as Markdown; `slasim completions SHELL` and `slasim man`.
//!
//! Contract: the output depends on nothing but this build (the clap command
//! tree, the registered tables' descriptors and views), so `tests/integration/docs.rs` can hold the committed
//! pages equal to it.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use clap_complete::Shell;

use crate::cli::{command, emit};
use crate::experiment::registry::Registry;

#[derive(Debug, Subcommand)]
pub(crate) enum ReferenceCommand {
    /// Every command and flag, from the command tree.
    Cli,
    /// Every table and column of the store, from its descriptors.
    Schema,
}

/// `slasim completions SHELL`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// `slasim man`.
#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// Directory to write slasim.1 and a page per subcommand into.
    #[arg(long, default_value = "man")]
    out: PathBuf,
}

pub(crate) fn reference(registry: &Registry, command: ReferenceCommand) -> anyhow::Result<()> {
    let text = match command {
        ReferenceCommand::Cli => cli_reference(registry),
        ReferenceCommand::Schema => schema_reference(registry)?,
    };
    emit(&text)
}

pub(crate) fn completions(registry: &Registry, args: CompletionsArgs) -> anyhow::Result<()> {
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, &mut command(registry), "slasim", &mut buffer);
    emit(&String::from_utf8_lossy(&buffer))
}

pub(crate) fn man(registry: &Registry, args: ManArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    clap_mangen::generate_to(command(registry), &args.out)
        .with_context(|| format!("writing into {}", args.out.display()))?;
    println!("manual pages written to {} (man -l {}/slasim.1)", args.out.display(), args.out.display());
    Ok(())
}

/// One section per command, depth first: usage, what it does, its arguments.
fn cli_reference(registry: &Registry) -> String {
    let mut out = String::new();
    let mut root = command(registry);
    root.build();
    section(&mut out, &root, "slasim");
    out
}

fn section(out: &mut String, cmd: &clap::Command, path: &str) {
    let depth = path.split(' ').count().min(3);
    let _ = writeln!(out, "{} `{path}`\n", "#".repeat(depth + 1));
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        let _ = writeln!(out, "{}\n", about.to_string().trim());
    }
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ").trim();
    let _ = writeln!(out, "```text\n{usage}\n```\n");
    let args: Vec<&clap::Arg> =
        cmd.get_arguments().filter(|a| !a.is_hide_set() && a.get_id() != "help" && a.get_id() != "version").collect();
    if !args.is_empty() {
        let _ = writeln!(out, "| argument | meaning |\n|---|---|");
        for arg in args {
            let _ = writeln!(out, "| `{}` | {} |", arg_name(arg), cell(&arg_help(arg)));
        }
        out.push('\n');
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        section(out, sub, &format!("{path} {}", sub.get_name()));
    }
}

fn arg_name(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .map(|names| names.iter().map(|n| format!("<{n}>")).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| format!("<{}>", arg.get_id().as_str().to_uppercase()));
    let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
    match (arg.get_long(), arg.get_short()) {
        (Some(long), Some(short)) if takes_value => format!("-{short}, --{long} {value}"),
        (Some(long), Some(short)) => format!("-{short}, --{long}"),
        (Some(long), None) if takes_value => format!("--{long} {value}"),
        (Some(long), None) => format!("--{long}"),
        (None, Some(short)) => format!("-{short}"),
        (None, None) => value,
    }
}

fn arg_help(arg: &clap::Arg) -> String {
    let mut help = arg.get_long_help().or(arg.get_help()).map(|h| h.to_string()).unwrap_or_default();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| match v.get_help() {
            Some(h) => format!("`{}`: {h}", v.get_name()),
            None => format!("`{}`", v.get_name()),
        })
        .collect();
    let sentence = |help: &mut String| {
        if !help.is_empty() && !help.ends_with('.') {
            help.push('.');
        }
    };
    if !values.is_empty() {
        sentence(&mut help);
        let _ = write!(help, " Values: {}.", values.join("; "));
    }
    let defaults: Vec<String> = arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() && arg.get_num_args().is_some_and(|n| n.takes_values())
    {
        sentence(&mut help);
        let _ = write!(help, " Default: `{}`.", defaults.join(" "));
    }
    help
}

/// A Markdown table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

/// Every table of a store of this build, from its descriptors (what a row
/// is; each column's type, key or nullable, and meaning), then every view
/// (what a row is; its columns as SQLite derives them).
fn schema_reference(registry: &Registry) -> anyhow::Result<String> {
    let groups = registry.groups();
    let mut out = String::new();
    let head = "| column | type | meaning |\n|---|---|---|";
    for t in crate::store::tables::described_tables(groups) {
        let _ = writeln!(out, "## `{}`\n\n{}\n\n{head}", t.name(), t.doc());
        for c in t.columns() {
            let mut ty = c.sql_type.sql().to_string();
            if t.key().contains(&c.name) {
                ty.push_str(", key");
            } else if c.null {
                ty.push_str(", nullable");
            }
            let _ = writeln!(out, "| `{}` | {ty} | {} |", c.name, cell(c.doc));
        }
        out.push('\n');
    }
    let conn = crate::store::schema::described_store(groups)?;
    let views = groups.iter().flat_map(|g| g.views.iter().map(|v| (v.name, v.doc)));
    for (name, doc) in views.chain([("all_jobs", crate::store::ALL_JOBS_DOC)]) {
        let _ = writeln!(out, "## `{name}`\n\n{doc}\n\n{head}");
        let mut info = conn.prepare(&format!("SELECT name, type FROM pragma_table_info('{name}')"))?;
        let columns: Vec<(String, String)> =
            info.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        if columns.is_empty() {
            bail!("the view `{name}` has no columns");
        }
        for (column, ty) in columns {
            let ty = if ty.is_empty() { "any".to_string() } else { ty };
            let _ = writeln!(out, "| `{column}` | {ty} |  |");
        }
        out.push('\n');
    }
    Ok(out)
}
