//! `slasim export`: every table of a store as Parquet, with a provenance table.

use std::path::PathBuf;

use clap::Args;

use crate::cli::emit;
use crate::cli::options::DEFAULT_DB;
use crate::store::export::export;

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The SQLite store to read.
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
    /// The directory to write: one `<table>.parquet` per table and `provenance.parquet`.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the directory if it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(registry: &crate::experiment::registry::Registry, args: ExportArgs) -> anyhow::Result<()> {
    let exported = export(registry.groups(), &args.db, &args.out, args.force)?;
    let mut text = format!("{}: {} tables\n", args.out.display(), exported.tables.len());
    for (table, rows) in &exported.tables {
        text.push_str(&format!("  {table}.parquet  {}\n", slasim_sim::units::thousands(*rows as usize)));
    }
    emit(&text)
}
