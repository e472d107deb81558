//! The native module of the `slasim` Python package (`slasim._slasim`).
//!
//! Contract: everything here is a thin translation between Python objects
//! and the `slasim` crate; no model, strategy or store logic lives here. The
//! command line's parser reads the settings ([`slasim::cli::embed`],
//! [`slasim::single::cli::embed`]), so names, defaults and messages are the
//! CLI's. Tables come back as columns ([`table`]) that the Python side
//! (`slasim/*.py`) turns into polars DataFrames. Errors from the crate
//! become `slasim.SlasimError` with the message the command line prints
//! ([`error`]).
//!
//! Each call builds the registry of the workspace's kinds
//! ([`slasim::registry()`], as the `slasim` binary does) and passes it down;
//! nothing is kept between calls. Each part registers its functions in
//! [`_slasim`], one line each.

mod admission;
mod error;
mod gym;
mod run;
mod scheduled_run;
mod scheduler;
mod store;
mod table;
mod trace;

use pyo3::prelude::*;

pub(crate) use error::SlasimError;

/// The version of the slasim crate this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _slasim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(version, m)?)?;
    error::register(m)?;
    run::register(m)?;
    scheduled_run::register(m)?;
    store::register(m)?;
    trace::register(m)?;
    gym::register(m)?;
    m.add_class::<admission::AdmissionCore>()?;
    Ok(())
}
