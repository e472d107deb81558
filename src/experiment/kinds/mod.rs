//! The point kinds: one file each, with its settings, its `resolve` and its
//! `run`.
//!
//! Contract: [`run`] dispatches a [`Point`] to its kind's file and returns an
//! [`Output`], which the store writes in one transaction. A new kind is a new
//! file here, a [`Point`] variant, its config section in
//! [`crate::experiment::config`] and its writer in `store/writer/`.

pub mod grid;
pub mod pricing;
pub mod provision;
pub mod single;

use std::sync::Arc;

use anyhow::anyhow;

use crate::experiment::inputs::Inputs;
use crate::experiment::point::Point;
use crate::experiment::summary::RunSummary;
use crate::store::{PricingOutput, ProvisionOutput, RunOutput};
use crate::threads::Budget;
use crate::workload::swf::SwfTrace;
use crate::workload::{WorkloadSource, resolve_trace};

/// What running a point produced, ready for the store.
#[derive(Debug)]
pub enum Output {
    /// A single-cluster or Grid run: its rows and summary.
    Run {
        /// The rows.
        output: Box<RunOutput>,
        /// Aggregates over its jobs.
        summary: RunSummary,
    },
    /// A provisioning run or slot statistics.
    Provision(Box<ProvisionOutput>),
    /// A pricing run.
    Pricing(Box<PricingOutput>),
}

impl Output {
    /// The single-cluster or Grid summary, if it is one.
    pub fn summary(&self) -> Option<RunSummary> {
        match self {
            Output::Run { summary, .. } => Some(*summary),
            _ => None,
        }
    }
}

/// Runs one point with its shared inputs, on the calling thread and the
/// threads `budget` has free; `experiment` names the config it came from.
pub fn run(point: &Point, inputs: &Inputs, budget: &Arc<Budget>, experiment: Option<&str>) -> anyhow::Result<Output> {
    Ok(match point {
        Point::Single(p) => {
            let (output, summary) = single::run(inputs, p)?;
            Output::Run { output: Box::new(output), summary }
        }
        Point::Grid(p) => {
            let (output, summary) = grid::run(inputs, p)?;
            Output::Run { output: Box::new(output), summary }
        }
        Point::Provision(p) => Output::Provision(Box::new(provision::run(p, budget, experiment)?)),
        Point::Pricing(p) => Output::Pricing(Box::new(pricing::run(p, budget, experiment)?)),
    })
}

impl Inputs {
    /// Loads everything `points` need.
    pub fn load(points: &[Point]) -> anyhow::Result<Inputs> {
        Inputs::load_with(points, Vec::new())
    }

    /// [`Inputs::load`], taking the trace of a workload from `parsed` when it
    /// is there: it must be what [`WorkloadSource::load`] returns for it. The
    /// traces are dropped once prepared, before anything is simulated.
    pub fn load_with(points: &[Point], parsed: Vec<(WorkloadSource, SwfTrace)>) -> anyhow::Result<Inputs> {
        let mut inputs = Inputs::default();
        for (index, point) in points.iter().enumerate() {
            match point {
                Point::Single(p) => inputs.load_single(p, &parsed)?,
                Point::Grid(p) => inputs.load_grid(index, p)?,
                // Their traces are prepared per point (load scaling depends
                // on the point's seed); here they are only found.
                Point::Provision(p) => {
                    for site in &p.sites {
                        check_trace(&site.trace)?;
                    }
                }
                Point::Pricing(p) => check_trace(&p.site.trace)?,
            }
        }
        Ok(inputs)
    }
}

/// The input files `points` would read that are not there, each once, as
/// messages naming the file and the way out; reads nothing. `--dry-run`
/// checks this, so a clean dry run means the sweep finds its files.
pub fn missing_inputs<'a>(points: impl IntoIterator<Item = &'a Point>) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    let mut note = |r: anyhow::Result<()>| {
        if let Err(e) = r {
            let text = format!("{e:#}");
            if !missing.contains(&text) {
                missing.push(text);
            }
        }
    };
    for point in points {
        match point {
            Point::Single(p) => {
                note(check_trace(&p.workload));
                if let crate::workload::failures::FailureSource::Lanl { path, .. } = &p.failures {
                    note(crate::workload::failures::existing_lanl_file(path.as_deref()).map(drop).map_err(Into::into));
                }
            }
            Point::Grid(p) => note(check_trace(&p.workload)),
            Point::Provision(p) => p.sites.iter().for_each(|site| note(check_trace(&site.trace))),
            Point::Pricing(p) => note(check_trace(&p.site.trace)),
        }
    }
    missing
}

/// A trace named by a point exists (the synthetic workload always does).
fn check_trace(source: &WorkloadSource) -> anyhow::Result<()> {
    if let WorkloadSource::Swf { path, .. } = source {
        resolve_trace(path).map_err(|e| anyhow!(e))?;
    }
    Ok(())
}
