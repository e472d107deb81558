//! `_slasim.run_scheduled`: `slasim run` with the batsim strategy's
//! scheduler a Python object (`slasim.run(…, scheduler=obj)`).
//!
//! Contract: the same path as `slasim.run` (the command line's parser,
//! settings, store and job table; `run`'s worker thread and Ctrl-C
//! handling), with the scheduler handed to the strategy in process
//! ([`PyScheduler`]). A failed run raises `SlasimError` with the command
//! line's message (the decision or callback, the job, the simulated time),
//! its `__cause__` the exception a callback raised, if one did; the failed
//! run is not stored. Ctrl-C raises KeyboardInterrupt.

use std::ffi::OsString;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::cli::embed;
use slasim::policy::batsim::InProcess;

use crate::run::drive;
use crate::scheduler::{PyScheduler, Raised};
use crate::store::rows_of;
use crate::table::columns;

/// `slasim run ARGS…` (which name `--strategy batsim` and
/// `--scheduler-name`) with `scheduler`'s callbacks as the scheduler: the
/// stored job table.
#[pyfunction]
pub fn run_scheduled<'py>(
    py: Python<'py>,
    args: Vec<String>,
    scheduler: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let args: Vec<OsString> = args.into_iter().map(OsString::from).collect();
    let raised: Raised = Arc::new(Mutex::new(None));
    let object = Arc::new(scheduler.unbind());
    let slot = Arc::clone(&raised);
    let table = drive(py, move |interrupts: Arc<AtomicUsize>| {
        let counter = Arc::clone(&interrupts);
        let make = InProcess::new(move || {
            Box::new(PyScheduler::new(Arc::clone(&object), Arc::clone(&slot), Some(Arc::clone(&counter))))
        });
        let ran = embed::run_scheduled(args, interrupts, make)?;
        rows_of(&ran.db, "jobs", "run_id", &ran.run_ids, Some("job"))
    });
    match table {
        Ok(table) => columns(py, table),
        Err(err) => {
            let cause = raised.lock().ok().and_then(|mut r| r.take());
            if !err.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
                err.set_cause(py, cause);
            }
            Err(err)
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_scheduled, m)?)?;
    m.add_class::<crate::scheduler::Job>()?;
    m.add_class::<crate::scheduler::Handle>()
}
