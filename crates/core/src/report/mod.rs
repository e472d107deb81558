//! Reports: the store turned into comparison tables, plots and one HTML page.
//!
//! Reference: `overbooking-dissertation-spec.md` §9 (the tables), §6.4 (money).
//!
//! Contract: [`generate`] reads a store (read-only) with Polars and writes into
//! one directory: every table as Markdown, CSV and Parquet (`tables/`), every
//! figure as SVG and PNG (`plots/`), `report.md` with all tables, and a
//! self-contained `index.html` (tables and inline SVG, no external resources)
//! that opens offline. [`compare()`] puts two stores side by side. Bad input
//! (empty store, unknown trace, older schema, `--out` naming a file) is an
//! error with a clear message, never a panic; a store that cannot be
//! reported is refused before anything is written.

pub mod batsim_jobs;
pub mod compare;
pub mod energy;
pub mod figures;
pub mod gantt;
pub mod load;
pub mod plots;
pub mod reference;
pub mod render;
pub mod section;
pub mod summary;
pub mod tables;
pub mod text;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use polars::prelude::*;
use sha2::{Digest, Sha256};

use crate::report::load::{Filter, load_calibration, load_points};
use crate::report::plots::Figure;
use crate::report::tables::{
    Table, agg_rows, aggregates, calibration, checkpoint_table, pof_table, pof_versus_dissertation, queueing_table,
    reservation_table, risk_table, risk_versus_dissertation, runtime,
};

pub use compare::compare;
use figures::*;
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
    /// The maximum-gain table as Markdown, for the terminal.
    pub headline: String,
}

pub(crate) fn prepare_out(out: &Path) -> anyhow::Result<()> {
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

/// The single-cluster tables and figures of a store's points.
fn single_cluster(
    points: &DataFrame,
    options: &ReportOptions,
) -> anyhow::Result<(Vec<Table>, Vec<Figure>, Vec<String>)> {
    let points = points.clone();
    let agg = aggregates(&points).map_err(|e| anyhow::anyhow!("aggregating points: {e}"))?;
    let rows = agg_rows(&agg)?;
    let pof = pof_table(&rows)?;
    let risk = risk_table(&rows)?;
    let jobs = load_calibration(&options.db, &points)?;
    let (bins, brier) = calibration(&jobs)?;
    let times = runtime(&points)?;
    let reservations = reservation_table(&points)?;
    let queueing = queueing_table(&points)?;
    let checkpointing = checkpoint_table(&points)?;
    let metered = energy::load_energy(&options.db, &points).context("reading the energy meters' rows")?;
    let power = energy::load_power(&options.db, &points).context("reading the node power states' rows")?;

    let mut tables = vec![
        Table {
            id: "max-gain".into(),
            title: "Maximum gain per strategy (PoF test)".into(),
            note: "Per trace and PDF source: each strategy's highest mean gain per battery (VC) over PoF_max at \
                   penalty ratio 1, with its 95 % half-width, the PoF_max where it is reached, and the additional \
                   gain in % over its non-overbooking base (dissertation Tables 6.1/6.13). Strategies that do not \
                   overbook are constant along PoF_max."
                .into(),
            df: pof.clone(),
        },
        Table {
            id: "risk".into(),
            title: "Gain per penalty ratio (risk test)".into(),
            note: "Mean gain per battery (VC) under the risk test at each penalty ratio, and the additional gain in % \
                   over the non-overbooking base at the same ratio (dissertation Tables 6.2/6.14)."
                .into(),
            df: risk.clone(),
        },
        Table {
            id: "max-gain-vs-dissertation".into(),
            title: "Maximum gain next to the dissertation's".into(),
            note:
                "For the dissertation's PWA traces: our maximum gain, PoF_max and additional gain next to its Tables \
                   6.1–6.11 (same trace and PDF source), how far ours is from its value in %, and whether its value \
                   lies inside our 95 % interval. Comparable when the store was run with the dissertation's \
                   occurrence factor and machine size (the chapter-6 configs)."
                    .into(),
            df: pof_versus_dissertation(&pof)?,
        },
        Table {
            id: "risk-vs-dissertation".into(),
            title: "Risk-test gain next to the dissertation's".into(),
            note: "For the dissertation's PWA traces: our mean gain and additional gain at each penalty ratio next to \
                   its Tables 6.2–6.12 (its additional gain computed from its gains as ours is)."
                .into(),
            df: risk_versus_dissertation(&risk)?,
        },
        Table {
            id: "calibration".into(),
            title: "Calibration of overbooked jobs".into(),
            note: "Accepted overbooked jobs per trace, PDF source and strategy, binned by predicted PoF (bins \
                   of 0.05): count, failures, mean prediction, observed failure rate and its 95 % Wilson interval, \
                   and whether the prediction lies inside it. The Wilson interval assumes independent outcomes; \
                   jobs of one battery share users and node failures, so the design effect (the variance of the \
                   bin's failures across runs over the binomial variance, at least 1) gives the clustered \
                   interval: Wilson over jobs / design effect."
                .into(),
            df: bins.clone(),
        },
        Table {
            id: "brier".into(),
            title: "Brier score per strategy".into(),
            note: "Mean squared difference between the predicted PoF and the outcome (1 failed, 0 succeeded) of \
                   every accepted overbooked job; lower is better. Then observed / predicted failure rate, and the \
                   bins with at least 30 jobs and how many of them hold their prediction inside their 95 % \
                   Wilson interval (calibrated: all). Then the runs (batteries × settings) with overbooked jobs, \
                   the 95 % interval of observed / predicted with runs as clusters, and the bins inside their \
                   clustered interval."
                .into(),
            df: brier,
        },
        Table {
            id: "runtime".into(),
            title: "Runtime per battery".into(),
            note: "Wall seconds to simulate one battery, per strategy, trace and cluster size (dissertation Figs. \
                   6.29/6.30): mean, 95 % half-width and maximum."
                .into(),
            df: times,
        },
        Table {
            id: "queueing".into(),
            title: "Classic queueing modes".into(),
            note: "FCFS, EASY, conservative backfilling and the priority rules per trace, machine size and \
                   kill-at-estimate setting: runs, jobs, dropped jobs (wider than the machine), and the means of \
                   wait, response, slowdown (over max(run time, 1 s)), bounded slowdown (τ = 10 s), utilisation, \
                   makespan and maximum wait; times in seconds."
                .into(),
            df: queueing,
        },
        Table {
            id: "reservations".into(),
            title: "Reservations: rejection rate, SLDwA and utilisation (paper B)".into(),
            note: "Per trace, strategy, option (reject, or variable jobs move), start factor, checkpointing and \
                   reservation percentage: repetitions, and the mean and 95 % half-width of the reservation \
                   rejection rate (%), the area-weighted slowdown of variable jobs (SLDwA), utilisation (%), the \
                   reservations submitted, jobs moved later, their mean and maximum delay (s), and jobs pinned by \
                   the starvation guard. Points at 0 % have no reservations and stand for every option."
                .into(),
            df: reservations.clone(),
        },
        Table {
            id: "checkpointing".into(),
            title: "Gain with and without checkpointing".into(),
            note: "Settings run both without and with checkpoint/restart of killed overbooked jobs: the mean gain \
                   (VC) of each with its 95 % half-width, the difference, the additional gain in %, whether the \
                   intervals overlap, and per run the checkpoints written and resumed jobs that then succeeded."
                .into(),
            df: checkpointing,
        },
        Table {
            id: "energy".into(),
            title: "Energy per strategy".into(),
            note: "Runs with an energy meter (`[energy]`), per trace and strategy: runs, the mean energy per run \
                   over its makespan window (first submission to last end) in kWh, the mean gain per run (VC), gain \
                   per kWh, and the mean shares of busy, idle and down node-time in %."
                .into(),
            df: energy::energy_table(&metered)?,
        },
        Table {
            id: "power".into(),
            title: "Node power states: energy against wait".into(),
            note: "Runs with node power states (`[energy.sleep]` or `energy.cap_watts`) and the metered runs of \
                   energy policy `none` beside them, per trace, strategy, machine size, power cap (W), energy \
                   policy and idle timeout (s): runs, the mean wait (s), the mean energy per run over its makespan \
                   window in kWh, the energy saved against policy `none` at the same cap (else without a cap) in \
                   %, and the mean switch-offs per run."
                .into(),
            df: energy::power_table(&power)?,
        },
        Table {
            id: "power-equal-energy".into(),
            title: "Planned wake-up against idle shutdown at equal energy".into(),
            note: "Per trace, strategy, machine size and power cap with both policies: each policy's mean wait (s) \
                   as a function of energy, piecewise-linear between its points over the swept idle timeouts, read \
                   at the energies (kWh) of idle-shutdown's points inside planned-wakeup's range (idle_timeout_s \
                   is that point's; the ends of the overlap when none is inside), and the wait planned-wakeup \
                   saves there (s and %). `no overlap` when the two energy ranges do not meet."
                .into(),
            df: energy::equal_energy_table(&power)?,
        },
        Table {
            id: "aggregates".into(),
            title: "Means over batteries along every sweep axis".into(),
            note: "Per combination of the sweep axes: batteries, and the mean and 95 % Student-t half-width of \
                   accepted, successful, failed, fees, penalties, gain, utilisation and wall seconds."
                .into(),
            df: agg,
        },
    ];
    // A store without risk-test (or overbooked) points has nothing for those
    // tables: they are left out rather than shown empty.
    let omitted: Vec<String> = tables.iter().filter(|t| t.df.height() == 0).map(|t| t.title.clone()).collect();
    tables.retain(|t| t.df.height() > 0);

    let mut figures = Vec::new();
    let mut groups: Vec<(String, String)> = rows
        .iter()
        .filter(|r| tables::reads_overbooking(&r.strategy))
        .map(|r| (r.trace.clone(), r.pdf_source.clone()))
        .collect();
    groups.sort();
    groups.dedup();
    for (trace, pdf) in &groups {
        figures.extend(pof_figures(&rows, trace, pdf));
        figures.extend(risk_figure(&risk, trace, pdf)?);
        figures.extend(calibration_figure(&bins, trace, pdf)?);
    }
    figures.extend(reservation_figures(&reservations)?);
    figures.extend(energy::energy_figures(&metered)?);
    figures.extend(energy::power_figures(&power));
    let times = tables.iter().find(|t| t.id == "runtime").map(|t| &t.df);
    if let Some(times) = times {
        figures.extend(runtime_figure(times)?);
    }
    Ok((tables, figures, omitted))
}

/// What a report holds before anything is written: the points it read and
/// its tables and figures.
struct Built {
    points: Option<DataFrame>,
    /// The points the registered kinds' sections draw Gantt charts of.
    gantt: Vec<i64>,
    tables: Vec<Table>,
    figures: Vec<Figure>,
    /// Titles of the tables left out for having no rows.
    omitted: Vec<String>,
    n_points: usize,
}

/// Reads the store (as filtered) and builds every table and figure a report
/// of it holds: the single-cluster tables of its points and each registered
/// kind's section
/// ([`section::SECTIONS`]), whichever it has.
fn build(options: &ReportOptions) -> anyhow::Result<Built> {
    let filter = Filter { experiment: experiment_filter(&options.config)?, trace: options.trace.clone() };
    let mut sections = Vec::new();
    for section in section::SECTIONS.all() {
        let built =
            section.build(&options.db, &filter).with_context(|| format!("building the {} tables", section.name()))?;
        sections.extend(built);
    }
    let points = match load_points(&options.db, &filter) {
        Ok(points) => Some(points),
        Err(load::LoadError::Empty { .. }) if !sections.is_empty() => None,
        Err(e) => return Err(e.into()),
    };
    if let Some(points) = &points {
        tables::check_strategies(points)?;
    }
    let (mut tables, mut figures, omitted) = match &points {
        Some(points) => single_cluster(points, options)?,
        None => Default::default(),
    };
    let (mut registered, mut gantt) = (0, Vec::new());
    for section in sections {
        gantt.extend(section.gantt);
        tables.extend(section.tables.into_iter().filter(|t| t.df.height() > 0));
        figures.extend(section.figures);
        registered += section.points;
    }
    let n_points = points.as_ref().map_or(0, DataFrame::height) + registered;
    Ok(Built { points, gantt, tables, figures, omitted, n_points })
}

/// One table of the report a store gives, as a Markdown table (header and
/// rows, without title or note); nothing is written. The error lists the
/// tables there are when the store gives none called `id`.
pub fn table(options: &ReportOptions, id: &str) -> anyhow::Result<String> {
    let built = build(options)?;
    match built.tables.iter().find(|t| t.id == id) {
        Some(t) => Ok(markdown_rows(t)),
        None => bail!(
            "this report has no table `{id}`; it has: {}",
            built.tables.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Generates a report: the single-cluster tables of its points and each
/// registered kind's section, whichever the store (as filtered) holds.
pub fn generate(options: &ReportOptions) -> anyhow::Result<ReportSummary> {
    // Everything is read before the output directory is made: a store with
    // nothing to report leaves no empty folders behind.
    let Built { points, gantt, mut tables, figures, omitted, n_points } = build(options)?;
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
    let runs = gantt_runs(points.as_ref(), gantt).context("choosing the Gantt charts' runs")?;
    let gantts = gantt_figures(&options.out, &options.db, &runs)?;
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
