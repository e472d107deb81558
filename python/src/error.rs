//! `slasim.SlasimError`: every error slasim reports, with the message the
//! command line prints after `error: ` (anyhow's `{:#}` chain).

use pyo3::prelude::*;

// Named `slasim.SlasimError`: the package re-exports it, and tracebacks
// show the name users import.
pyo3::create_exception!(
    slasim,
    SlasimError,
    pyo3::exceptions::PyException,
    "An error slasim reports: a bad setting, trace, config or query, with the message the command line prints."
);

/// The Python exception of an error of the crate.
pub fn to_py(error: anyhow::Error) -> PyErr {
    SlasimError::new_err(format!("{error:#}"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SlasimError", m.py().get_type::<SlasimError>())
}
