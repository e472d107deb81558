//! `slasim.read_trace`: a workload as `slasim trace prepare` reads it: the
//! whole log's records, or its jobs as prepared for a run.

use std::ffi::OsString;

use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::single::cli::embed::{self, Workload};
use slasim::single::workload::job::Job;
use slasim::store::{Columns, Values};
use slasim::trace::swf::SwfRecord;

use crate::error::to_py;
use crate::table::columns;

/// A column of `items`, one value each.
fn int<T>(name: &str, items: &[T], value: impl Fn(&T) -> i64) -> (String, Values) {
    (name.to_string(), Values::Int(items.iter().map(|x| Some(value(x))).collect()))
}

fn real<T>(name: &str, items: &[T], value: impl Fn(&T) -> f64) -> (String, Values) {
    (name.to_string(), Values::Real(items.iter().map(|x| Some(value(x))).collect()))
}

/// The log's records, one column per SWF field (SWF's names, `-1` unknown).
fn records(r: &[SwfRecord]) -> Columns {
    Columns {
        columns: vec![
            int("job", r, |x| x.job),
            int("submit", r, |x| x.submit),
            int("wait", r, |x| x.wait),
            int("runtime", r, |x| x.runtime),
            int("allocated_procs", r, |x| x.allocated_procs),
            real("avg_cpu_time", r, |x| x.avg_cpu_time),
            real("used_memory", r, |x| x.used_memory),
            int("requested_procs", r, |x| x.requested_procs),
            int("requested_time", r, |x| x.requested_time),
            real("requested_memory", r, |x| x.requested_memory),
            int("status", r, |x| x.status),
            int("user", r, |x| x.user),
            int("group", r, |x| x.group),
            int("executable", r, |x| x.executable),
            int("queue", r, |x| x.queue),
            int("partition", r, |x| x.partition),
            int("preceding_job", r, |x| x.preceding_job),
            int("think_time", r, |x| x.think_time),
        ],
    }
}

/// The prepared batteries' jobs, `battery` first, then the columns the
/// store's `battery_jobs` gives a job, then its SLA money.
fn jobs(batteries: &[(usize, &[Job])]) -> Columns {
    let rows: Vec<(i64, &Job)> =
        batteries.iter().flat_map(|(b, jobs)| jobs.iter().map(move |j| (*b as i64, j))).collect();
    Columns {
        columns: vec![
            int("battery", &rows, |(b, _)| *b),
            int("job", &rows, |(_, j)| i64::from(j.id)),
            int("swf_id", &rows, |(_, j)| j.swf_id),
            int("occurrence", &rows, |(_, j)| j.occurrence),
            int("release", &rows, |(_, j)| j.release),
            int("deadline", &rows, |(_, j)| j.deadline),
            int("estimate", &rows, |(_, j)| j.estimate),
            int("runtime", &rows, |(_, j)| j.runtime),
            int("nodes", &rows, |(_, j)| i64::from(j.nodes)),
            int("user", &rows, |(_, j)| j.user),
            int("application", &rows, |(_, j)| j.application),
            int("queue", &rows, |(_, j)| j.queue),
            real("fee", &rows, |(_, j)| j.fee),
            real("penalty", &rows, |(_, j)| j.penalty),
        ],
    }
}

/// `slasim trace prepare ARGS…`'s workload, prepared or as read.
#[pyfunction]
fn read_trace<'py>(py: Python<'py>, args: Vec<String>, prepared: bool) -> PyResult<Bound<'py, PyList>> {
    let args: Vec<OsString> = args.into_iter().map(OsString::from).collect();
    let table = py
        .detach(move || {
            Ok::<_, anyhow::Error>(match embed::workload(&slasim::registry(), args, prepared)? {
                Workload::Read(trace) => records(&trace.records),
                Workload::Prepared(p) => jobs(&p.batteries.iter().map(|b| (b.index, &b.jobs[..])).collect::<Vec<_>>()),
            })
        })
        .map_err(to_py)?;
    columns(py, table)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_trace, m)?)
}
