//! Reports: the store turned into comparison tables, plots and one HTML page.
//!
//! Contract: [`generate`] reads a store (read-only) with Polars and writes into
//! one directory: every table as Markdown, CSV and Parquet (`tables/`), every
//! figure as SVG and PNG (`plots/`), `report.md` with all tables, and a
//! self-contained `index.html` (tables and inline SVG, no external resources)
//! that opens offline. Bad input (empty store, unknown trace, older schema,
//! `--out` naming a file) is an error with a clear message, never a panic; a
//! store that cannot be reported is refused before anything is written.
//!
//! This module is the frame: what a report holds comes from the kinds'
//! sections ([`section::ReportSection`], registered in [`SECTIONS`]) and
//! their Gantt sources ([`gantt::GANTT_SOURCES`]), in registration order;
//! the frame names no kind. [`compare()`] puts two stores side by side
//! through the first section that compares stores.

pub mod gantt;
pub mod load;
pub mod plots;
pub(crate) mod png;
pub mod render;
pub mod section;
pub mod summary;
pub mod tables;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::experiment::registry::Registry;
use crate::report::load::{Filter, LoadError};
use crate::report::plots::Figure;
use crate::report::section::Sections;
use crate::report::tables::Table;
use render::*;

/// What to report on.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The store.
    pub db: PathBuf,
    /// Only this experiment's points (its config file).
    pub config: Option<PathBuf>,
    /// Only traces whose name contains this.
    pub trace: Option<String>,
    /// The output directory.
    pub out: PathBuf,
}

/// What a report wrote.
#[derive(Debug, Clone, Default)]
pub struct ReportSummary {
    /// Points read.
    pub points: usize,
    /// Table ids.
    pub tables: Vec<String>,
    /// Figure ids.
    pub figures: Vec<String>,
    /// Gantt chart ids (`gantt-<run id>`).
    pub gantts: Vec<String>,
    /// The HTML page.
    pub index: PathBuf,
    /// The first table as Markdown, for the terminal (the single cluster's
    /// maximum gain, when the store holds its points).
    pub headline: String,
}

pub fn prepare_out(out: &Path) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("{}: exists and is not a directory; choose another --out", out.display());
    }
    for sub in ["tables", "plots"] {
        std::fs::create_dir_all(out.join(sub))
            .with_context(|| format!("{}: cannot create", out.join(sub).display()))?;
    }
    Ok(())
}

fn experiment_filter(config: &Option<PathBuf>) -> anyhow::Result<Option<(String, String)>> {
    let Some(path) = config else { return Ok(None) };
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the config", path.display()))?;
    let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let name = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Some((hash, name)))
}

/// What a report holds before anything is written: its tables and figures
/// and the points it draws Gantt charts of.
struct Built {
    /// The points the sections draw Gantt charts of, in section order.
    gantt: Vec<i64>,
    tables: Vec<Table>,
    figures: Vec<Figure>,
    /// Titles of the tables left out for having no rows.
    omitted: Vec<String>,
    n_points: usize,
}

/// Reads the store (as filtered) and builds every table and figure a report
/// of it holds: each section's ([`Sections`], in order), whichever it has.
fn build(registry: &Registry, options: &ReportOptions) -> anyhow::Result<Built> {
    let filter = Filter { experiment: experiment_filter(&options.config)?, trace: options.trace.clone() };
    let mut sections = Vec::new();
    // Why the first section that found nothing found nothing: the report's
    // error when no section has anything.
    let mut nothing: Option<anyhow::Error> = None;
    for section in registry.all::<Sections>() {
        match registry.reading(|| section.build(registry, &options.db, &filter)) {
            Ok(built) => sections.extend(built),
            Err(e) if matches!(e.downcast_ref::<LoadError>(), Some(LoadError::Empty { .. })) => {
                nothing.get_or_insert(e);
            }
            Err(e) => {
                return Err(match section.error_context() {
                    Some(context) => e.context(context),
                    None => e,
                });
            }
        }
    }
    if sections.is_empty() {
        return Err(nothing.unwrap_or_else(|| {
            LoadError::Empty {
                path: options.db.clone(),
                what: "holds no points (run `slasim sweep` or `slasim run` into it first)".into(),
            }
            .into()
        }));
    }
    let (mut tables, mut figures, mut omitted) = (Vec::new(), Vec::new(), Vec::new());
    let (mut n_points, mut gantt) = (0, Vec::new());
    for section in sections {
        gantt.extend(section.gantt);
        tables.extend(section.tables.into_iter().filter(|t| t.df.height() > 0));
        figures.extend(section.figures);
        omitted.extend(section.omitted);
        n_points += section.points;
    }
    Ok(Built { gantt, tables, figures, omitted, n_points })
}

/// Puts two stores side by side in `out` (`slasim report --compare`): the
/// first section whose kind compares stores does (today the single cluster's).
pub fn compare(registry: &Registry, a: &Path, b: &Path, out: &Path) -> anyhow::Result<ReportSummary> {
    for section in registry.all::<Sections>() {
        if let Some(compared) = registry.reading(|| section.compare(registry, a, b, out)) {
            return compared;
        }
    }
    bail!("no kind of point registered here compares stores")
}

/// One table of the report a store gives, as a Markdown table (header and
/// rows, without title or note); nothing is written. The error lists the
/// tables there are when the store gives none called `id`.
pub fn table(registry: &Registry, options: &ReportOptions, id: &str) -> anyhow::Result<String> {
    let built = build(registry, options)?;
    match built.tables.iter().find(|t| t.id == id) {
        Some(t) => Ok(markdown_rows(t)),
        None => bail!(
            "this report has no table `{id}`; it has: {}",
            built.tables.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Generates a report: each section's tables and figures ([`Sections`]),
/// whichever the store (as filtered) holds, and the Gantt charts of the
/// points the sections chose.
pub fn generate(registry: &Registry, options: &ReportOptions) -> anyhow::Result<ReportSummary> {
    // Everything is read before the output directory is made: a store with
    // nothing to report leaves no empty folders behind.
    let Built { gantt, mut tables, figures, omitted, n_points } = build(registry, options)?;
    prepare_out(&options.out)?;
    for t in &mut tables {
        write_table(&options.out, t).with_context(|| format!("writing table {}", t.id))?;
    }
    let mut drawn = Vec::new();
    for f in figures {
        let svg = f.svg().map_err(anyhow::Error::msg).with_context(|| format!("drawing {}", f.id))?;
        std::fs::write(options.out.join("plots").join(format!("{}.svg", f.id)), &svg)?;
        f.png(&options.out.join("plots").join(format!("{}.png", f.id)))
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("drawing {}", f.id))?;
        drawn.push((f, svg));
    }

    let title = format!("slasim report: {}", options.db.display());
    let intro = format!(
        "<p>{} points from <code>{}</code>{}{}.{}</p>",
        n_points,
        escape(&options.db.display().to_string()),
        options
            .config
            .as_ref()
            .map_or_else(String::new, |c| format!(", experiment <code>{}</code>", escape(&c.display().to_string()))),
        options.trace.as_ref().map_or_else(String::new, |t| format!(", traces matching <code>{}</code>", escape(t))),
        if omitted.is_empty() {
            String::new()
        } else {
            format!(" No rows, left out: {}.", escape(&omitted.join("; ")))
        },
    );
    let all_md: String = tables.iter().map(markdown).collect::<Vec<_>>().join("\n");
    std::fs::write(options.out.join("report.md"), format!("# {title}\n\n{all_md}"))?;
    let index = options.out.join("index.html");
    let gantts = gantt_figures(registry, &options.out, &options.db, &gantt)?;
    std::fs::write(&index, page(&title, &intro, &tables, &drawn, &gantts))?;
    // A report without figures (a store of slot statistics) keeps no empty folder.
    let _ = std::fs::remove_dir(options.out.join("plots"));
    Ok(ReportSummary {
        points: n_points,
        tables: tables.iter().map(|t| t.id.clone()).collect(),
        figures: drawn.iter().map(|(f, _)| f.id.clone()).collect(),
        gantts: gantts.charts.iter().map(|g| g.id.clone()).collect(),
        index,
        headline: tables.first().map(markdown).unwrap_or_default(),
    })
}

/// Draws the report's Gantt charts into `plots/` (SVG, PNG, HTML).
fn gantt_figures(registry: &Registry, out: &Path, db: &Path, runs: &[i64]) -> anyhow::Result<Gantts> {
    let mut gantts = Gantts::default();
    let mut failed = Vec::new();
    for &run in runs {
        let chart = match gantt::chart_for_run(registry, db, run, None) {
            Ok(chart) => chart,
            Err(e) => {
                failed.push(format!("run {run}: {e:#}"));
                continue;
            }
        };
        let id = format!("gantt-{run}");
        let base = out.join("plots").join(&id);
        gantt::write(&chart, &base.with_extension("png"))?;
        let svg = gantt::render::svg(&chart);
        std::fs::write(base.with_extension("svg"), &svg).with_context(|| format!("writing {id}.svg"))?;
        let html = gantt::render::html_with(&chart, &svg);
        std::fs::write(base.with_extension("html"), html).with_context(|| format!("writing {id}.html"))?;
        let caption = format!("{}; {}", chart.title, gantt::render::window_text(&chart));
        gantts.charts.push(GanttFigure { id, caption, svg });
    }
    let mut text = String::new();
    if !gantts.charts.is_empty() {
        text.push_str(
            "<p>One row per node (nodes no execution splits share a row), one bar per execution coloured by \
             outcome; hatched: a node down; shaded: a node switching off, asleep or switching on (with \
             <code>[energy]</code>, the cluster's power is drawn under the nodes); dashed outline: overbooked, with a tick at its booked end; a thin line \
             runs from a job's planned to its actual start. Each chart shows its run's busiest week (or the whole \
             run if shorter), named under it; <code>slasim gantt --run ID --from T --to T</code> draws another \
             window. Hover over a bar for the job's fields.</p>",
        );
    }
    if !failed.is_empty() {
        let _ = write!(text, "<p>Not drawn: {}.</p>", escape(&failed.join("; ")));
    }
    gantts.text = text;
    Ok(gantts)
}
