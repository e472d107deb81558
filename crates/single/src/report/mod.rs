//! The single-cluster kind's part of the report: its section (the tables
//! and figures of the `points` table), its Gantt source, the text report of
//! `slasim run`, Batsim's job table, and the comparison of two stores.
//!
//! Reference: `overbooking-dissertation-spec.md` §9 (the tables), §6.4 (money).
//!
//! Contract:
//! - [`SingleClusterSection`] is a [`ReportSection`] like every other
//!   kind's; [`crate::register`] adds it to [`slasim_core::report::SECTIONS`]
//!   (first, so its maximum-gain table heads the report) and its Gantt
//!   source ([`gantt::SingleClusterGantt`]) to
//!   [`slasim_core::report::gantt::GANTT_SOURCES`].
//! - A store (as filtered) without single-cluster points gives the error
//!   [`slasim_core::report::load::LoadError::Empty`] saying why (no points, none of
//!   the experiment, none for the trace, with the traces there are): the
//!   report shows it when no other section has anything either. An older
//!   schema is an error naming the missing table or column; its errors name
//!   the store already, so the report adds no context to them.
//! - Its tables with no rows are left out and their titles listed
//!   ([`Section::omitted`]); it draws the first run of each of (at most)
//!   three traces.

pub mod batsim_jobs;
pub mod carbon;
pub mod compare;
pub mod energy;
pub mod figures;
pub mod gantt;
pub mod load;
pub mod reference;
pub mod tables;
pub mod text;

use std::path::Path;

use anyhow::Context;
use polars::prelude::*;

use figures::{calibration_figure, pof_figures, reservation_figures, risk_figure, runtime_figure};
use load::{load_calibration, load_points};
use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::Filter;
use slasim_core::report::plots::Figure;
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::tables::Table;
use tables::{
    agg_rows, aggregates, calibration, checkpoint_table, pof_table, pof_versus_dissertation, queueing_table,
    reservation_table, risk_table, risk_versus_dissertation, runtime,
};

pub use compare::compare;

/// The single-cluster section of the report.
pub struct SingleClusterSection;

impl ReportSection for SingleClusterSection {
    fn name(&self) -> &'static str {
        "single-cluster"
    }

    fn build(&self, _registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
        // No points (as filtered) is `LoadError::Empty`: the report says why
        // when no other section has anything.
        let points = load_points(db, filter)?;
        tables::check_strategies(&points)?;
        let (tables, figures, omitted) = single_cluster(&points, db)?;
        Ok(Some(Section { tables, figures, points: points.height(), gantt: gantt_runs(&points)?, omitted }))
    }

    fn error_context(&self) -> Option<String> {
        // Its errors name the store and the table or column they are about.
        None
    }

    fn compare(
        &self,
        _registry: &Registry,
        a: &Path,
        b: &Path,
        out: &Path,
    ) -> Option<anyhow::Result<slasim_core::report::ReportSummary>> {
        Some(compare::compare(a, b, out))
    }
}

/// The single-cluster tables and figures of a store's points, and the
/// titles of the tables left out for having no rows.
fn single_cluster(points: &DataFrame, db: &Path) -> anyhow::Result<(Vec<Table>, Vec<Figure>, Vec<String>)> {
    let points = points.clone();
    let agg = aggregates(&points).map_err(|e| anyhow::anyhow!("aggregating points: {e}"))?;
    let rows = agg_rows(&agg)?;
    let pof = pof_table(&rows)?;
    let risk = risk_table(&rows)?;
    let jobs = load_calibration(db, &points)?;
    let (bins, brier) = calibration(&jobs)?;
    let times = runtime(&points)?;
    let reservations = reservation_table(&points)?;
    let queueing = queueing_table(&points)?;
    let checkpointing = checkpoint_table(&points)?;
    let metered = energy::load_energy(db, &points).context("reading the energy meters' rows")?;
    let power = energy::load_power(db, &points).context("reading the node power states' rows")?;
    let carbon = carbon::load_carbon(db, &points).context("reading the grid signals' rows")?;

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
            id: "carbon".into(),
            title: "Energy by the hour: emissions, cost and renewable share".into(),
            note: "Runs with grid signals (`[signals]`) and an energy meter, per trace, strategy, shifting policy \
                   (`none` without one; its forecast in brackets unless the oracle), region (`-` for files given \
                   by path) and price currency: runs, and per run the mean energy over its makespan \
                   window (kWh), emissions (kgCO2eq: the cluster's watts times the aligned carbon intensity, \
                   integrated over time), the intensity that energy was drawn at (gCO2eq/kWh), the cost (watts \
                   times the aligned price) and the share of the energy met by the renewable supply, capped at \
                   the draw at each instant (%). Empty cells: the run had no such signal."
                .into(),
            df: carbon::carbon_table(&carbon)?,
        },
        Table {
            id: "carbon-shifting".into(),
            title: "Shifting against none: emissions and cost saved, penalties and wait".into(),
            note: "Runs with a shifting policy, each paired with the run of policy `none` that differs from it in \
                   nothing else (the same trace, strategy, region, battery and settings), per trace, strategy, \
                   region and policy: the pairs; the mean emissions saved against `none` (%), the run's (the \
                   whole cluster's watts, idle nodes included) and the jobs' own (their nodes' busy watts over \
                   their runs: what shifting moves); the cost saved (%); the mean change in SLA penalties (VC), \
                   rejected jobs and mean wait (s). `_half` is the half-width of the mean's 95 % Student-t \
                   interval over the pairs."
                .into(),
            df: carbon::shifting_table(&carbon)?,
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
    figures.extend(carbon::shifting_figures(&carbon)?);
    let times = tables.iter().find(|t| t.id == "runtime").map(|t| &t.df);
    if let Some(times) = times {
        figures.extend(runtime_figure(times)?);
    }
    Ok((tables, figures, omitted))
}

/// The runs the report draws Gantt charts of: the first run of each trace
/// (three traces at most), in run-id order.
fn gantt_runs(points: &DataFrame) -> anyhow::Result<Vec<i64>> {
    let mut runs = Vec::new();
    let ids = points.column("run_id")?.i64()?;
    let traces = points.column("trace")?.str()?;
    let mut seen: Vec<&str> = Vec::new();
    for (id, trace) in ids.iter().zip(traces.iter()) {
        if let (Some(id), Some(trace)) = (id, trace) {
            if seen.len() < 3 && !seen.contains(&trace) {
                seen.push(trace);
                runs.push(id);
            }
        }
    }
    Ok(runs)
}
