//! Columns handed to Python: one `(name, kind, values, valid)` tuple per
//! column, `values` a numpy array (integers, floats) or a list of str,
//! `valid` a numpy bool mask when some rows are missing (else None). The
//! Python side builds a polars DataFrame from them without a per-row loop.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::store::columns::SqlType;
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
        // No row has a value: typed as the store's columns of that name are.
        Values::Null(n) => {
            let kind = match described_type(name) {
                Some(SqlType::Real) => "float",
                Some(SqlType::Text) => "str",
                _ => "int",
            };
            let values = match kind {
                "float" => PyArray1::from_vec(py, vec![0.0f64; n]).into_any(),
                "str" => PyList::new(py, vec![None::<String>; n])?.into_any(),
                _ => PyArray1::from_vec(py, vec![0i64; n]).into_any(),
            };
            let valid = (kind != "str").then(|| PyArray1::from_vec(py, vec![false; n]).into_any());
            (kind, values, valid)
        }
    };
    Ok((name, kind, values, valid).into_pyobject(py)?.into_any())
}

/// The type the store's descriptors give columns named `name`, if they agree.
fn described_type(name: &str) -> Option<SqlType> {
    let mut types = slasim::store::tables::described_tables(slasim::registry().groups())
        .into_iter()
        .flat_map(|t| t.columns())
        .filter(|c| c.name == name)
        .map(|c| c.sql_type);
    let first = types.next()?;
    types.all(|t| t == first).then_some(first)
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
                Values::Null(n) => Values::Null(n.min(order.len())),
            };
            (name, values)
        })
        .collect();
    Columns { columns }
}
