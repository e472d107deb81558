//! `slasim.run` and `slasim.sweep`: the command line's `slasim run` and
//! `slasim sweep` (of a file, or of config text `slasim.run` writes for a
//! machine of unlike nodes) on a worker thread, the GIL released, Ctrl-C
//! honoured.
//!
//! Contract: the calling thread waits in steps of [`POLL`] without the GIL
//! and checks for signals between them; on KeyboardInterrupt it bumps the
//! run's interrupt counter, which stops the dispatch of points as the
//! command line's first Ctrl-C does (points in flight finish and stay
//! stored), waits for the worker, and raises KeyboardInterrupt. A second
//! KeyboardInterrupt while waiting raises at once and leaves the worker to
//! finish on its own (the command line's second Ctrl-C abandons the points
//! in flight too).

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyList;
use slasim::cli::embed;
use slasim::single::cli::embed as single_embed;

use crate::error::{SlasimError, to_py};
use crate::store::rows_of;
use crate::table::columns;

/// How often the waiting thread checks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with an interrupt counter, the GIL
/// released, honouring Ctrl-C (see the module's contract).
pub(crate) fn drive<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicUsize>) -> anyhow::Result<T> + Send + 'static,
) -> PyResult<T> {
    let interrupts = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel();
    let counter = Arc::clone(&interrupts);
    let worker = std::thread::Builder::new()
        .name("slasim".into())
        .spawn(move || {
            // The receiver is gone only after a second Ctrl-C.
            let _ = tx.send(work(counter));
        })
        .map_err(|e| SlasimError::new_err(format!("cannot start the simulation thread: {e}")))?;
    let mut interrupted: Option<PyErr> = None;
    let mut rx = rx;
    loop {
        // The receiver goes along: it is Send, not Sync.
        let (received, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match received {
            Ok(result) => {
                let _ = worker.join();
                if let Some(e) = interrupted {
                    return Err(e);
                }
                return result.map_err(to_py);
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    if interrupted.is_some() {
                        // A second interrupt: the worker finishes alone.
                        return Err(e);
                    }
                    interrupts.fetch_add(1, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                return Err(SlasimError::new_err(
                    "the simulation thread stopped without a result (a bug: please report it)",
                ));
            }
        }
    }
}

fn words(args: Vec<String>) -> Vec<OsString> {
    args.into_iter().map(OsString::from).collect()
}

/// `slasim run ARGS…`: its stored job table (the store's `jobs` view: one
/// row per job of each run, runs in the command line's order, jobs by id).
#[pyfunction]
fn run<'py>(py: Python<'py>, args: Vec<String>) -> PyResult<Bound<'py, PyList>> {
    let args = words(args);
    let table = drive(py, move |interrupts| {
        let ran = single_embed::run(&slasim::registry(), args, interrupts)?;
        rows_of(&ran.db, "jobs", "run_id", &ran.run_ids, Some("job"))
    })?;
    columns(py, table)
}

/// The table a kind's points are summarised in, one row per point, and its
/// key: the one the report reads.
fn summary_table(kind: &dyn slasim::experiment::point::PointKind) -> (&'static str, &'static str) {
    (kind.tables().metrics, kind.tables().key)
}

/// `slasim sweep CONFIG ARGS…`: the stored points of the config (its
/// shard's) with their metrics, in the config's order.
#[pyfunction]
fn sweep<'py>(py: Python<'py>, args: Vec<String>) -> PyResult<Bound<'py, PyList>> {
    let args = words(args);
    let table = drive(py, move |interrupts| {
        let swept = embed::sweep(&slasim::registry(), args, interrupts)?;
        let (table, key) = summary_table(swept.kind);
        rows_of(&swept.db, table, key, &swept.point_ids, None)
    })?;
    columns(py, table)
}

/// `slasim sweep` of config `text`, called `name` (in messages and in the
/// store: no file is written), with the options `args`: the stored points of
/// the config with their metrics, in the config's order.
#[pyfunction]
fn sweep_text<'py>(py: Python<'py>, name: String, text: String, args: Vec<String>) -> PyResult<Bound<'py, PyList>> {
    let args = words(args);
    let table = drive(py, move |interrupts| {
        let swept = embed::sweep_text(&slasim::registry(), &name, &text, args, interrupts)?;
        let (table, key) = summary_table(swept.kind);
        rows_of(&swept.db, table, key, &swept.point_ids, None)
    })?;
    columns(py, table)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_text, m)?)
}
