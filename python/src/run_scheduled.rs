//! `_slasim.run_scheduled`: one single-cluster run of the `batsim` strategy
//! with an in-process Python scheduler (or of a built-in strategy, to compare
//! with), simulated on the calling thread with the GIL held; its job table as
//! columns. Nothing is stored. (Stands in until `slasim.run(…, scheduler=…)`
//! takes it over; the settings are the command line's classic-mode defaults:
//! the whole log, no failures.)

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use slasim::experiment::inputs::Inputs;
use slasim::experiment::kinds::single::{self, SinglePoint, default_failures};
use slasim::experiment::point::Point;
use slasim::policy::StrategyRef;
use slasim::policy::batsim::{BatsimConfig, InProcess};
use slasim::workload::WorkloadSource;

use crate::SlasimError;
use crate::scheduler::{PyScheduler, Raised};

/// The name an in-process scheduler gets in the run's identity when none is given.
fn default_name(py: Python<'_>, scheduler: &Bound<'_, PyAny>) -> String {
    let _ = py;
    let class = scheduler.get_type();
    let module = class.module().map(|m| m.to_string()).unwrap_or_default();
    let name = class.qualname().map(|n| n.to_string()).unwrap_or_else(|_| "scheduler".into());
    format!("python:{module}.{name}")
}

/// The run's error as a Python exception, chained to what a callback raised.
fn error(py: Python<'_>, e: anyhow::Error, raised: &Raised) -> PyErr {
    let cause = raised.lock().ok().and_then(|mut r| r.take());
    if let Some(cause) = &cause
        && cause.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py)
    {
        return cause.clone_ref(py);
    }
    let err = SlasimError::new_err(format!("{e:#}"));
    err.set_cause(py, cause);
    err
}

/// Runs `strategy` (or, with `scheduler`, the batsim strategy with that
/// Python object as its scheduler) on `trace`'s whole log; returns the job
/// table as a dict of lists.
#[pyfunction]
#[pyo3(signature = (trace, strategy = None, scheduler = None, name = None, lenient = false))]
pub fn run_scheduled<'py>(
    py: Python<'py>,
    trace: PathBuf,
    strategy: Option<&str>,
    scheduler: Option<Bound<'py, PyAny>>,
    name: Option<String>,
    lenient: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let raised: Raised = Arc::new(Mutex::new(None));
    let strategy_name = match (&scheduler, strategy) {
        (Some(_), None | Some("batsim")) => "batsim",
        (Some(_), Some(other)) => {
            return Err(SlasimError::new_err(format!(
                "a scheduler is the batsim strategy's; strategy {other} takes none"
            )));
        }
        (None, Some(s)) => s,
        (None, None) => "fcfs",
    };
    let strategy = StrategyRef::named(strategy_name).map_err(|e| SlasimError::new_err(e.to_string()))?;
    let batsim = match &scheduler {
        Some(object) => {
            let name = name.unwrap_or_else(|| default_name(py, object));
            let object = Arc::new(object.clone().unbind());
            let slot = Arc::clone(&raised);
            let make = InProcess::new(move || Box::new(PyScheduler::new(Arc::clone(&object), Arc::clone(&slot))));
            Some(BatsimConfig::in_process(&name, make))
        }
        None => None,
    };
    let workload = WorkloadSource::Swf { path: trace, lenient };
    let point = SinglePoint {
        strategy,
        placement: Default::default(),
        seed: 1,
        battery: 0,
        failures: default_failures(strategy, &workload),
        workload,
        prepare: Default::default(),
        overbooking: Default::default(),
        reservations: Default::default(),
        classic: Default::default(),
        batsim,
        energy: None,
    };
    let result = (|| {
        let point = point.resolve(false)?;
        let inputs = Inputs::load(&[Point::new(point.clone())])?;
        single::run(&inputs, &point)
    })();
    let (output, _) = result.map_err(|e| error(py, e, &raised))?;
    let records = &output.records;
    let columns = PyDict::new(py);
    let mut job = Vec::new();
    let mut submit = Vec::new();
    let mut start = Vec::new();
    let mut end = Vec::new();
    let mut outcome = Vec::new();
    for (j, r) in records.iter() {
        job.push(j.id);
        submit.push(j.occurrence);
        start.push(r.actual_start);
        end.push(r.actual_end);
        outcome.push(r.outcome.map(|o| format!("{o:?}").to_lowercase()));
    }
    columns.set_item("job", job)?;
    columns.set_item("submit", submit)?;
    columns.set_item("start", start)?;
    columns.set_item("end", end)?;
    columns.set_item("outcome", outcome)?;
    Ok(columns)
}
