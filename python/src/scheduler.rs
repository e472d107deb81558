//! In-process Python schedulers: a Python object's callbacks as the
//! transport of the `batsim` strategy.
//!
//! Reference: pybatsim 3.2.1's scheduler callbacks (`onSimulationBegins`,
//! `onJobSubmission`, …) and its `bs` handle, whose spirit (not code) this
//! follows, in Python's naming.
//!
//! Contract:
//! - [`PyScheduler`] implements the crate's `Scheduler` transport: each event
//!   of an exchange becomes one callback of the Python object, in order
//!   (`on_simulation_begins()`, `on_job_submission(job)`,
//!   `on_job_completion(job)`, `on_job_killed(jobs)`,
//!   `on_machine_unavailable(resources)`, `on_machine_available(resources)`,
//!   `on_requested_call()`, `on_simulation_ends()`), then
//!   `on_no_more_events()` once the exchange's events are all delivered (a
//!   scheduler that decides once per instant decides there); a method the
//!   object lacks is a no-op. Before the first callback the object's `bs` attribute is set
//!   to a [`Handle`]: the scheduler answers by calling `bs.execute(job,
//!   resources)`, `bs.reject(job)`, `bs.kill(jobs)` and `bs.call_me_later(t)`
//!   during a callback. The handle only records decisions (after checking that
//!   they are readable: a job, a list of resource ids, a finite time); the
//!   strategy checks and applies them exactly as it does the Batsim bridge's.
//! - No JSON: jobs are [`Job`] objects made once per job (the same object at
//!   submission, completion and kill), callbacks are looked up once.
//! - A callback that raises, or returns anything but `None`, ends the run
//!   with an error naming the callback, the job and the simulated time; the
//!   exception itself is kept in the run's [`Raised`] slot so the caller can
//!   chain it. `KeyboardInterrupt` (Ctrl-C) is checked every
//!   [`SIGNAL_EVERY`] callbacks and ends the run the same way.
//! - The run is simulated on the calling thread, which holds the GIL
//!   throughout: each callback is a plain call (attaching is a counter
//!   increment), with no worker thread and no channel. Its points run one at
//!   a time (`slasim.run(scheduler=…)` runs with `jobs=1`). Ctrl-C raises
//!   KeyboardInterrupt in the callback running (Python checks its signals
//!   in `time.sleep` and the like, and this module every [`SIGNAL_EVERY`]
//!   callbacks), which ends the run as any exception does.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use slasim::single::policy::batsim::protocol::IntervalSet;
use slasim::single::policy::batsim::{Decision, Event, Scheduler, Workload};
use slasim::units::{JobId, NodeId, Time};

use crate::error::SlasimError;

/// Callbacks between two checks for Ctrl-C.
pub const SIGNAL_EVERY: u64 = 1024;

/// The exception a callback raised, kept for the caller to chain.
pub type Raised = Arc<Mutex<Option<PyErr>>>;

/// A job as a Python scheduler sees it (pybatsim's job attributes).
#[pyclass(module = "slasim", get_all)]
pub struct Job {
    /// `w0!NUMBER`, as the Batsim bridge names it.
    pub id: String,
    /// Its number in the trace (or slasim's id when the trace's repeat).
    pub number: i64,
    /// Submission time, seconds.
    pub submit_time: Time,
    /// Requested time (walltime: the job is killed when it is reached), seconds.
    pub requested_time: Time,
    /// Requested machines.
    pub requested_resources: u32,
    /// Where it runs or ran, once executed (`None` before).
    pub allocation: Option<Vec<NodeId>>,
    /// Batsim's state once it has completed (`COMPLETED_SUCCESSFULLY`, …), else `None`.
    pub job_state: Option<&'static str>,
    /// Its progress in `[0, 1]` when a KILL_JOB stopped it running.
    pub progress: Option<f64>,
    runtime: Time,
}

#[pymethods]
impl Job {
    /// Its delay profile's name (`delay<run time>`), as Batsim announces it.
    #[getter]
    fn profile(&self) -> String {
        slasim::single::workload::batsim::delay_profile_name(self.runtime)
    }

    fn __repr__(&self) -> String {
        format!(
            "Job(id={:?}, submit_time={}, requested_time={}, requested_resources={})",
            self.id, self.submit_time, self.requested_time, self.requested_resources
        )
    }
}

/// The scheduler's side of the simulation (`self.bs`): the clock, the
/// machines, and the decisions.
#[pyclass(module = "slasim", name = "SchedulerHandle")]
pub struct Handle {
    now: Time,
    capacity: u32,
    decisions: Vec<Decision>,
}

/// A job argument: a [`Job`] or its id.
fn job_id(job: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(j) = job.cast::<Job>() {
        return Ok(j.borrow().id.clone());
    }
    if let Ok(s) = job.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    Err(PyTypeError::new_err(format!("a job is a slasim Job or its id (a str), not {}", job.get_type().name()?)))
}

impl Handle {
    fn bad(&self, what: &str, job: &str, why: impl std::fmt::Display) -> PyErr {
        SlasimError::new_err(format!("decision {what} for job {job} at t = {}: {why}", self.now))
    }
}

#[pymethods]
impl Handle {
    /// The simulated time, seconds.
    fn time(&self) -> Time {
        self.now
    }

    /// The number of machines (they are `0..nb_resources`).
    #[getter]
    fn nb_resources(&self) -> u32 {
        self.capacity
    }

    /// The number of compute machines (all of them).
    #[getter]
    fn nb_compute_resources(&self) -> u32 {
        self.capacity
    }

    /// EXECUTE_JOB: start `job` now on `resources` (a list of machine ids,
    /// or an interval set such as "0-3 7").
    fn execute(&mut self, job: &Bound<'_, PyAny>, resources: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = job_id(job)?;
        let alloc = if let Ok(text) = resources.cast::<PyString>() {
            IntervalSet::parse(&text.to_cow()?).map_err(|e| self.bad("EXECUTE_JOB", &id, e))?
        } else {
            let nodes: Vec<NodeId> = resources.extract().map_err(|_| {
                self.bad("EXECUTE_JOB", &id, "resources must be a list of machine ids (ints from 0) or an interval set")
            })?;
            let alloc = IntervalSet::from_nodes(&nodes);
            if alloc.len() != nodes.len() as u64 {
                return Err(self.bad("EXECUTE_JOB", &id, format!("a resource appears twice in {nodes:?}")));
            }
            if alloc.is_empty() {
                return Err(self.bad("EXECUTE_JOB", &id, "no resources"));
            }
            alloc
        };
        // Where it runs, as pybatsim's `job.allocation` says once executed
        // (the completion's allocation replaces it).
        if let Ok(j) = job.cast::<Job>() {
            let mut nodes = Vec::with_capacity(alloc.len() as usize);
            alloc.members(&mut nodes);
            j.borrow_mut().allocation = Some(nodes);
        }
        self.decisions.push(Decision::Execute { job: id, alloc });
        Ok(())
    }

    /// REJECT_JOB: `job` will never run.
    fn reject(&mut self, job: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = job_id(job)?;
        self.decisions.push(Decision::Reject { job: id });
        Ok(())
    }

    /// KILL_JOB: stop `jobs` (a job or a list of them) now; JOB_KILLED follows
    /// at the same instant (`on_job_killed`).
    fn kill(&mut self, jobs: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = if jobs.cast::<Job>().is_ok() || jobs.cast::<PyString>().is_ok() {
            vec![job_id(jobs)?]
        } else {
            jobs.try_iter()?.map(|j| job_id(&j?)).collect::<PyResult<Vec<_>>>()?
        };
        self.decisions.push(Decision::Kill { jobs: ids });
        Ok(())
    }

    /// CALL_ME_LATER: `on_requested_call` at time `at` (seconds; a fractional
    /// time is rounded up to the next whole second).
    fn call_me_later(&mut self, at: f64) -> PyResult<()> {
        self.decisions.push(Decision::CallMeLater { at });
        Ok(())
    }
}

/// The callbacks, in [`Event`] order, then the one after each exchange's events.
const CALLBACKS: [&str; 11] = [
    "on_simulation_begins",
    "on_job_submission",
    "on_job_completion",
    "on_job_killed",
    "on_machine_unavailable",
    "on_machine_available",
    "on_requested_call",
    "on_simulation_ends",
    "on_machine_pstate_changed",
    "on_report_energy_consumed",
    "on_no_more_events",
];

/// Index of `on_no_more_events` in [`CALLBACKS`].
const NO_MORE_EVENTS: usize = 10;

/// A Python object as the `batsim` strategy's scheduler.
pub struct PyScheduler {
    object: Arc<Py<PyAny>>,
    /// Its bound methods, by [`CALLBACKS`] index (`None`: no such method).
    callbacks: Vec<Option<Py<PyAny>>>,
    handle: Option<Py<Handle>>,
    /// Per job: its Python object, once submitted.
    jobs: Vec<Option<Py<Job>>>,
    raised: Raised,
    exchanged: u64,
    called: u64,
}

impl PyScheduler {
    /// The [`CALLBACKS`] index of `event`'s callback, and the job it is about.
    fn callback_of(event: &Event) -> (usize, Option<JobId>) {
        match event {
            Event::SimulationBegins => (0, None),
            Event::JobSubmitted { job } => (1, Some(*job)),
            Event::JobCompleted { job, .. } => (2, Some(*job)),
            Event::JobKilled { jobs } => (3, jobs.first().map(|k| k.job)),
            Event::MachineUnavailable { .. } => (4, None),
            Event::MachineAvailable { .. } => (5, None),
            Event::RequestedCall => (6, None),
            Event::SimulationEnds => (7, None),
            Event::ResourceStateChanged { .. } => (8, None),
            Event::EnergyAnswer { .. } => (9, None),
        }
    }

    /// `object`'s callbacks; what one raises goes to `raised`.
    pub fn new(object: Arc<Py<PyAny>>, raised: Raised) -> PyScheduler {
        PyScheduler { object, callbacks: Vec::new(), handle: None, jobs: Vec::new(), raised, exchanged: 0, called: 0 }
    }

    /// Drops the Python objects (attached).
    fn release(&mut self) {
        if self.handle.is_none() {
            return;
        }
        Python::attach(|_| {
            self.callbacks.clear();
            self.jobs.clear();
            self.handle = None;
        });
    }

    fn keep(&self, err: PyErr) {
        if let Ok(mut slot) = self.raised.lock()
            && slot.is_none()
        {
            *slot = Some(err);
        }
    }

    /// The job's Python object (made at its submission).
    fn job<'py>(&mut self, py: Python<'py>, workload: &Workload, job: JobId) -> PyResult<Bound<'py, Job>> {
        if let Some(j) = &self.jobs[job as usize] {
            return Ok(j.bind(py).clone());
        }
        let spec = workload.jobs[job as usize];
        let object = Bound::new(
            py,
            Job {
                id: workload.names[job as usize].clone(),
                number: workload.numbers[job as usize],
                submit_time: spec.submit,
                requested_time: spec.walltime,
                requested_resources: spec.nodes,
                allocation: None,
                job_state: None,
                progress: None,
                runtime: spec.runtime,
            },
        )?;
        self.jobs[job as usize] = Some(object.clone().unbind());
        Ok(object)
    }

    /// Calls the callback of `event`; `Err` says which callback and job failed.
    fn dispatch(&mut self, py: Python<'_>, workload: &Workload, event: Option<&Event>) -> Result<(), String> {
        let (index, job): (usize, Option<JobId>) = match event {
            None => (NO_MORE_EVENTS, None),
            Some(event) => Self::callback_of(event),
        };
        let name = CALLBACKS[index];
        let what = || match job {
            Some(j) => format!("callback {name} (job {})", workload.names[j as usize]),
            None => format!("callback {name}"),
        };
        let called = self.call(py, workload, index, event);
        match called {
            Ok(Some(garbage)) => {
                let shown = garbage.bind(py).repr().map_or_else(|_| "?".into(), |r| r.to_string());
                Err(format!(
                    "{} returned {shown}: a scheduler answers through self.bs (execute, reject, kill, \
                     call_me_later) and its callbacks return None",
                    what()
                ))
            }
            Ok(None) => Ok(()),
            Err(err) => {
                let text = err.to_string();
                self.keep(err);
                Err(format!("{} raised {text}", what()))
            }
        }
    }

    /// Calls callback `index` with `event`'s arguments: what it returned when
    /// not `None`.
    fn call(
        &mut self,
        py: Python<'_>,
        workload: &Workload,
        index: usize,
        event: Option<&Event>,
    ) -> PyResult<Option<Py<PyAny>>> {
        // Job objects are kept up to date even when the callback is missing.
        let Some(event) = event else { return self.invoke(py, index, None) };
        let argument: Option<Bound<'_, PyAny>> = match event {
            Event::JobSubmitted { job } => Some(self.job(py, workload, *job)?.into_any()),
            Event::JobCompleted { job, state, alloc } => {
                let object = self.job(py, workload, *job)?;
                {
                    let mut j = object.borrow_mut();
                    let mut nodes = Vec::with_capacity(alloc.len() as usize);
                    alloc.members(&mut nodes);
                    j.allocation = Some(nodes);
                    j.job_state = Some(state.as_str());
                }
                Some(object.into_any())
            }
            Event::JobKilled { jobs } => {
                let list = PyList::empty(py);
                for k in jobs {
                    let object = self.job(py, workload, k.job)?;
                    if k.progress.is_some() {
                        let mut j = object.borrow_mut();
                        j.progress = k.progress;
                        j.job_state = Some("COMPLETED_KILLED");
                    }
                    list.append(object)?;
                }
                Some(list.into_any())
            }
            Event::MachineUnavailable { node } | Event::MachineAvailable { node } => {
                Some(PyList::new(py, [*node])?.into_any())
            }
            // One argument: (nodes, pstate).
            Event::ResourceStateChanged { nodes, pstate } => {
                let mut members = Vec::with_capacity(nodes.len() as usize);
                nodes.members(&mut members);
                Some((PyList::new(py, members)?, *pstate).into_pyobject(py)?.into_any())
            }
            Event::EnergyAnswer { joules } => Some(joules.into_pyobject(py)?.into_any()),
            _ => None,
        };
        self.invoke(py, index, argument)
    }

    /// Calls callback `index` (if the object has it) with `argument`.
    fn invoke(
        &mut self,
        py: Python<'_>,
        index: usize,
        argument: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let Some(callback) = &self.callbacks[index] else { return Ok(None) };
        let callback = callback.bind(py);
        let result = match argument {
            Some(a) => callback.call1((a,))?,
            None => callback.call0()?,
        };
        self.called += 1;
        if self.called % SIGNAL_EVERY == 0 {
            py.check_signals()?;
        }
        Ok((!result.is_none()).then(|| result.unbind()))
    }
}

impl Scheduler for PyScheduler {
    fn party(&self) -> &str {
        "Python scheduler"
    }

    fn start(&mut self, workload: &Workload) -> Result<(), String> {
        Python::attach(|py| {
            let object = self.object.bind(py);
            let handle =
                Py::new(py, Handle { now: 0, capacity: workload.capacity, decisions: Vec::new() }).map_err(|e| {
                    let t = e.to_string();
                    self.keep(e);
                    t
                })?;
            object.setattr("bs", handle.clone_ref(py)).map_err(|e| {
                let t = format!("cannot set the scheduler's `bs` handle: {e}");
                self.keep(e);
                t
            })?;
            self.handle = Some(handle);
            self.callbacks = CALLBACKS
                .iter()
                .map(|name| object.getattr(*name).ok().filter(|m| m.is_callable()).map(Bound::unbind))
                .collect();
            self.jobs = (0..workload.jobs.len()).map(|_| None).collect();
            Ok(())
        })
    }

    fn exchange(
        &mut self,
        workload: &Workload,
        now: Time,
        events: &[Event],
        decisions: &mut Vec<Decision>,
    ) -> Result<(), String> {
        Python::attach(|py| {
            let Some(handle) = self.handle.as_ref().map(|h| h.clone_ref(py)) else {
                return Err("the scheduler is not started".to_string());
            };
            handle.borrow_mut(py).now = now;
            self.exchanged += 1;
            let mut outcome = Ok(());
            for event in events.iter().map(Some).chain([None]) {
                outcome = self.dispatch(py, workload, event);
                if outcome.is_err() {
                    break;
                }
            }
            // Decisions made before a failure apply first (the strategy's rule).
            decisions.append(&mut handle.borrow_mut(py).decisions);
            outcome
        })
    }

    fn stop(&mut self, _finished: bool) {
        self.release();
    }

    fn exchanges(&self) -> u64 {
        self.exchanged
    }
}

impl Drop for PyScheduler {
    fn drop(&mut self) {
        self.release();
    }
}
