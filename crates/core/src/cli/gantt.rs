//! `slasim gantt`: a Gantt chart of one stored run.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use crate::cli::emit;
use crate::cli::options::DEFAULT_DB;
use crate::report::gantt::{Window, chart_for_run, render, write};

#[derive(Debug, Args)]
pub(crate) struct GanttArgs {
    /// The SQLite store to read.
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
    /// The run to draw: its run_id (a provisioning run: its point_id).
    #[arg(long)]
    run: i64,
    /// Window start, seconds of simulated time [default: the busiest week].
    #[arg(long, value_name = "T")]
    since: Option<i64>,
    /// Window end (exclusive), seconds of simulated time [default: the busiest week].
    #[arg(long, value_name = "T")]
    until: Option<i64>,
    /// The chart to write: FILE.svg, FILE.png or FILE.html (hover shows a job's fields).
    #[arg(long)]
    out: PathBuf,
}

pub(crate) fn run(registry: &crate::experiment::registry::Registry, args: GanttArgs) -> anyhow::Result<()> {
    let window = match (args.since, args.until) {
        (None, None) => None,
        (Some(from), Some(to)) if to > from => Some(Window { from, to }),
        (Some(from), Some(to)) => bail!("the window [{from}, {to}) is empty: --until must be after --since"),
        _ => bail!("a window takes both --since and --until (seconds of simulated time)"),
    };
    let chart = chart_for_run(registry, &args.db, args.run, window)?;
    write(&chart, &args.out)?;
    emit(&format!(
        "{}\n{}: {} bars, {} shaded node spans (down, switching or asleep)\nwrote {}\n",
        chart.title,
        render::window_text(&chart),
        chart.bars.len(),
        chart.shades.len(),
        args.out.display()
    ))
}
