//! `slasim report`: tables, plots and an HTML page from a store, or two
//! stores side by side.

use crate::units::seconds;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::emit;
use crate::cli::options::DEFAULT_DB;
use crate::report::compare;
use crate::report::{ReportOptions, generate, table};

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// The SQLite store to report on.
    #[arg(long, default_value = DEFAULT_DB, conflicts_with = "compare")]
    db: PathBuf,
    /// Only the points of this experiment config (the file `slasim sweep` ran).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Only traces whose name contains this text (e.g. `CTC-SP2`).
    #[arg(long, value_name = "TEXT")]
    trace_contains: Option<String>,
    /// Put two stores side by side instead: differences of the means and
    /// whether their 95 % intervals overlap.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    compare: Option<Vec<PathBuf>>,
    /// Output directory [default: reports/<config or store name>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print this one table (its id, e.g. `max-gain-vs-dissertation`) as
    /// Markdown and write nothing.
    #[arg(long, value_name = "ID", conflicts_with_all = ["compare", "out"])]
    table: Option<String>,
}

fn stem(path: &Path) -> String {
    path.file_stem().map_or_else(|| "report".to_string(), |s| s.to_string_lossy().into_owned())
}

pub(crate) fn run(registry: &crate::experiment::registry::Registry, args: ReportArgs) -> anyhow::Result<()> {
    if let Some(id) = &args.table {
        let options = ReportOptions {
            db: args.db.clone(),
            config: args.config.clone(),
            trace: args.trace_contains.clone(),
            out: PathBuf::new(),
        };
        return emit(&table(registry, &options, id)?);
    }
    let started = std::time::Instant::now();
    let summary = match (&args.compare, &args.db) {
        (Some(pair), _) => {
            let [a, b] = pair.as_slice() else { anyhow::bail!("--compare takes two stores") };
            let out =
                args.out.clone().unwrap_or_else(|| Path::new("reports").join(format!("{}-vs-{}", stem(a), stem(b))));
            compare(registry, a, b, &out)?
        }
        (None, db) => {
            let name = args.config.as_deref().map_or_else(|| stem(db), stem);
            let out = args.out.clone().unwrap_or_else(|| Path::new("reports").join(name));
            generate(
                registry,
                &ReportOptions { db: db.clone(), config: args.config.clone(), trace: args.trace_contains.clone(), out },
            )?
        }
    };
    emit(&format!(
        "{}\n{} points, {} tables, {} plots in {}\nwrote {}\n",
        summary.headline.trim_end(),
        summary.points,
        summary.tables.len(),
        summary.figures.len(),
        seconds(format_args!("{:.1}", started.elapsed().as_secs_f64())),
        summary.index.display()
    ))
}
