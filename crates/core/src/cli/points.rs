//! A command's own points (not a config's) run as an experiment: how a
//! kind's `run` command (`slasim run`, `slasim grid run`, …) hands what its
//! flags describe to the sweep executor.
//!
//! Contract: the points run exactly as a config's would (same ids, same
//! stored rows, already stored ones skipped), on `--jobs` threads, stopped
//! by Ctrl-C (or an embedding program's interrupt counter) between points;
//! the ids come back in the order the points were given.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use crate::cli::options::threads;
use crate::experiment::config::Experiment;
use crate::experiment::coordinator::{SweepOptions, SweepOutcome, run_sweep_with};
use crate::experiment::inputs::Inputs;
use crate::experiment::point::Point;
use crate::experiment::registry::Registry;

/// Hands the command line's points (each with a label) to the sweep executor
/// as an experiment; returns what it did and the points' ids, in order.
pub fn execute(
    registry: &Registry,
    points: &[(Point, String)],
    jobs: Option<usize>,
    db: &std::path::Path,
    command: &str,
) -> anyhow::Result<(SweepOutcome, Vec<i64>)> {
    execute_with(registry, points, jobs, db, command, Inputs::default(), None)
}

/// [`execute`] with inputs already loaded (see [`run_sweep_with`]) and,
/// from an embedding program, its interrupt counter (no Ctrl-C handler, no
/// progress bar).
pub fn execute_with(
    registry: &Registry,
    points: &[(Point, String)],
    jobs: Option<usize>,
    db: &std::path::Path,
    command: &str,
    parsed: Inputs,
    interrupts: Option<Arc<AtomicUsize>>,
) -> anyhow::Result<(SweepOutcome, Vec<i64>)> {
    let ids: Vec<i64> = points.iter().map(|(p, _)| p.id().map(|id| id.run_id)).collect::<Result<_, _>>()?;
    let name = command.trim_start_matches("slasim ").replace(' ', "-");
    let experiment = Experiment::from_points(&name, command, points.iter().cloned())?;
    let options = SweepOptions {
        threads: threads(jobs),
        shard: None,
        progress: interrupts.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()),
        interrupts: Some(interrupts.unwrap_or_else(crate::cli::sweep::interrupt_counter)),
    };
    Ok((run_sweep_with(registry, &experiment, db, &options, parsed)?, ids))
}
