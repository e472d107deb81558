//! The native module of the `slasim` Python package (`slasim._slasim`).
//!
//! Contract: everything here is a thin translation between Python objects
//! and the `slasim` crate; no model, strategy or store logic lives here. The
//! Python side (`slasim/*.py`) turns the columns it returns into polars
//! DataFrames. Errors from the crate become `slasim.SlasimError` with the
//! same message the command line prints.

use pyo3::prelude::*;

mod run_scheduled;
mod scheduler;

pyo3::create_exception!(
    _slasim,
    SlasimError,
    pyo3::exceptions::PyException,
    "An error slasim reports: a bad setting, trace, config, query or scheduler decision."
);

/// The version of the slasim crate this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _slasim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SlasimError", m.py().get_type::<SlasimError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(run_scheduled::run_scheduled, m)?)?;
    m.add_class::<scheduler::Job>()?;
    m.add_class::<scheduler::Handle>()?;
    Ok(())
}
