//! `slasim query`: read-only SQL on the store.

use std::path::PathBuf;

use clap::Args;

use crate::cli::emit;
use crate::cli::options::DEFAULT_DB;
use crate::store::query;

#[derive(Debug, Args)]
pub(crate) struct QueryArgs {
    /// The SQLite store to read.
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
    /// Print CSV instead of an aligned table.
    #[arg(long, conflicts_with = "markdown")]
    csv: bool,
    /// Print a Markdown table instead of an aligned table.
    #[arg(long)]
    markdown: bool,
    /// One read-only SQL statement, e.g. "SELECT strategy, sum(fee) - sum(penalty) FROM jobs GROUP BY strategy".
    sql: String,
}

pub(crate) fn run(args: QueryArgs) -> anyhow::Result<()> {
    let table = query(&args.db, &args.sql)?;
    emit(&if args.csv {
        table.to_csv()
    } else if args.markdown {
        table.to_markdown()
    } else {
        table.to_text()
    })
}
