//! `_slasim.run_scheduled`: `slasim run` with the batsim strategy's
//! scheduler a Python object (`slasim.run(…, scheduler=obj)`).
//!
//! Contract: the same path as `slasim.run` (the command line's parser,
//! settings, store and job table), with the scheduler handed to the strategy
//! in process ([`PyScheduler`]), simulated on the calling thread with the
//! GIL held: the callbacks are plain calls. A failed run raises
//! `SlasimError` with the command line's message (the decision or callback,
//! the job, the simulated time), its `__cause__` the exception a callback
//! raised, if one did; the failed run is not stored. Ctrl-C in a callback
//! raises KeyboardInterrupt.

use std::ffi::OsString;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::single::cli::embed;
use slasim::single::policy::batsim::InProcess;

use crate::error::to_py;
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
    let make = InProcess::new(move || Box::new(PyScheduler::new(Arc::clone(&object), Arc::clone(&slot))));
    // Nothing else stops this run's dispatch: Ctrl-C raises in a callback.
    let interrupts = Arc::new(AtomicUsize::new(0));
    let table = embed::run_scheduled(&slasim::registry(), args, interrupts, make)
        .and_then(|ran| rows_of(&ran.db, "jobs", "run_id", &ran.run_ids, Some("job")));
    match table {
        Ok(table) => columns(py, table),
        Err(err) => {
            let cause = raised.lock().ok().and_then(|mut r| r.take());
            if let Some(interrupt) = cause.as_ref().filter(|c| c.is_instance_of::<PyKeyboardInterrupt>(py)) {
                return Err(interrupt.clone_ref(py));
            }
            let err = to_py(err);
            err.set_cause(py, cause);
            Err(err)
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_scheduled, m)?)?;
    m.add_class::<crate::scheduler::Job>()?;
    m.add_class::<crate::scheduler::Handle>()
}
