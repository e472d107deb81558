//! Columns handed to Python: one `(name, kind, values, valid)` tuple per
//! column, `values` a numpy array (integers, floats) or a list of str,
//! `valid` a numpy bool mask when some rows are missing (else None). The
//! Python side builds a polars DataFrame from them without a per-row loop.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::store::{Columns, Values};

/// One column from values with gaps: the values (a filler in the gaps)
/// and, if any is missing, the mask of those present.
fn numeric<'py, T: numpy::Element + Copy + Default>(
    py: Python<'py>,
    values: Vec<Option<T>>,
) -> (Bound<'py, PyAny>, Option<Bound<'py, PyAny>>) {
    if values.iter().all(Option::is_some) {
        let dense: Vec<T> = values.into_iter().map(Option::unwrap_or_default).collect();
        return (PyArray1::from_vec(py, dense).into_any(), None);
    }
    let valid: Vec<bool> = values.iter().map(Option::is_some).collect();
    let dense: Vec<T> = values.into_iter().map(Option::unwrap_or_default).collect();
    (PyArray1::from_vec(py, dense).into_any(), Some(PyArray1::from_vec(py, valid).into_any()))
}

/// A named column for Python.
pub fn column<'py>(py: Python<'py>, name: &str, values: Values) -> PyResult<Bound<'py, PyAny>> {
    let (kind, values, valid) = match values {
        Values::Int(v) => {
            let (values, valid) = numeric(py, v);
            ("int", values, valid)
        }
        Values::Real(v) => {
            let (values, valid) = numeric(py, v);
            ("float", values, valid)
        }
        // None stays None in the list: polars reads it as missing.
        Values::Text(v) => ("str", PyList::new(py, v)?.into_any(), None),
    };
    Ok((name, kind, values, valid).into_pyobject(py)?.into_any())
}

/// Every column of a query result, in order.
pub fn columns<'py>(py: Python<'py>, result: Columns) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyAny>> =
        result.columns.into_iter().map(|(name, values)| column(py, &name, values)).collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

/// Reorders every column's rows: row `k` of the result is row `order[k]`.
pub fn reorder(result: Columns, order: &[usize]) -> Columns {
    fn pick<T: Clone>(v: &[T], order: &[usize]) -> Vec<T> {
        order.iter().map(|&i| v[i].clone()).collect()
    }
    let columns = result
        .columns
        .into_iter()
        .map(|(name, values)| {
            let values = match values {
                Values::Int(v) => Values::Int(pick(&v, order)),
                Values::Real(v) => Values::Real(pick(&v, order)),
                Values::Text(v) => Values::Text(pick(&v, order)),
            };
            (name, values)
        })
        .collect();
    Columns { columns }
}
