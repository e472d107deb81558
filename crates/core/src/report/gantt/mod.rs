//! Gantt charts of stored runs: one row per node (or node range), one bar
//! per execution coloured by outcome, node failures shaded, and, for a run
//! with node power states, nodes switching or asleep shaded and the power
//! drawn in a strip under the rows.
//!
//! Contract:
//! - [`chart_for_run`] is the one entry point the `gantt` command and the
//!   report share: a stored run of any kind → its [`for_run`] (the
//!   registry's Gantt source that claims it) → [`layout::layout`] in a window
//!   (default: the busiest week) → a [`Chart`]. [`write()`] renders it by
//!   the output's extension: `.svg`, `.png` or `.html` (SVG inline with a
//!   hover box).
//! - A registry's [`source::GanttSources`] holds the sources the kinds add.
//! - Bad input is an error with a clear message, never a panic: an unknown
//!   run id names it; an empty window names the window and the run's span.
//! - The same store and window give the same bytes (SVG, HTML).

pub mod layout;
pub mod render;
pub mod source;

use std::path::Path;

use anyhow::{Context, bail};

use crate::experiment::registry::Registry;

pub use layout::{Chart, Source, Window, layout};

/// The source of stored run `run`: the first of the registry's Gantt
/// sources that claims it. A run no source claims is an error naming it and
/// the store.
pub fn for_run(registry: &Registry, db: &Path, run: i64) -> anyhow::Result<Source> {
    // A store that cannot be opened is its own error, before any source.
    drop(crate::store::open_read_only(db)?);
    let sources = registry.all::<source::GanttSources>();
    if sources.is_empty() {
        bail!("no kind with Gantt charts is registered: a program embedding slasim registers its kinds first");
    }
    for registered in sources {
        if let Some(source) = registered.source(db, run)? {
            return Ok(source);
        }
    }
    bail!(
        "run {run} is not in {}: `slasim query --db {} \"SELECT run_id, strategy, trace FROM runs\"` lists its runs",
        db.display(),
        db.display()
    )
}

/// Lays out stored run `run` of `db` in `window` (default: its busiest week).
pub fn chart_for_run(registry: &Registry, db: &Path, run: i64, window: Option<Window>) -> anyhow::Result<Chart> {
    let source = for_run(registry, db, run)?;
    layout(&source, window).with_context(|| format!("run {run}: no Gantt chart"))
}

/// Writes a chart to `out` as SVG, PNG or HTML, by its extension.
pub fn write(chart: &Chart, out: &Path) -> anyhow::Result<()> {
    let ext = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let text = match ext.as_deref() {
        Some("svg") => render::svg(chart),
        Some("html" | "htm") => render::html(chart),
        Some("png") => return render::png(chart, out),
        _ => bail!("{}: a Gantt chart is written as .svg, .png or .html", out.display()),
    };
    std::fs::write(out, text).with_context(|| format!("{}: cannot write the Gantt chart", out.display()))
}
