//! The job-picking environments (`slasim::gym`) as Python classes:
//! `PickJobs` (one environment) and `VectorPickJobs` (N in one call). The
//! Gymnasium classes around them are in `slasim/gym.py`.
//!
//! Contract: observations and masks come back as new NumPy arrays from
//! `PickJobs` (so a caller may keep them), and are written in place into the
//! caller's arrays by `VectorPickJobs`, which releases the GIL while it
//! steps. An invalid action raises `slasim.InvalidActionError` (a
//! `SlasimError`) with the environment's message (action,
//! slot or job, simulated time); the environment stays usable.

use std::sync::Arc;

use numpy::{PyArray1, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use slasim::gym::pick::jobs::{Estimates, JobTable};
use slasim::gym::pick::reward::Score;
use slasim::gym::pick::{Episode, Options, PickJobs};
use slasim::gym::vector::{Buffers, VectorError, VectorPick};

use crate::SlasimError;

pyo3::create_exception!(
    _slasim,
    InvalidActionError,
    SlasimError,
    "An action an environment refuses (out of range, an empty or masked slot, or after the end)."
);

/// An observation and its mask.
type Observed<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

fn slasim_err(e: impl std::fmt::Display) -> PyErr {
    SlasimError::new_err(e.to_string())
}

#[allow(clippy::too_many_arguments)]
fn build(
    trace: Option<&str>,
    window: usize,
    backfill: bool,
    skip: bool,
    score: i64,
    sequence_len: Option<usize>,
    estimates: &str,
    baselines: bool,
) -> PyResult<(Arc<JobTable>, Options)> {
    let score = Score::from_code(score).ok_or_else(|| {
        PyValueError::new_err(format!("score must be 0..=4 (RLScheduler's job_score_type), got {score}"))
    })?;
    let estimates = match estimates {
        "logged" => Estimates::Logged,
        "exact" => Estimates::Exact,
        other => {
            return Err(PyValueError::new_err(format!("estimates must be \"logged\" or \"exact\", got {other:?}")));
        }
    };
    // A trace is a path, or a name found as the command line finds it.
    let path = trace.map(|t| slasim::trace::resolve_trace(std::path::Path::new(t))).transpose().map_err(slasim_err)?;
    let jobs = JobTable::open(path.as_deref(), estimates).map_err(slasim_err)?;
    let episode = match sequence_len {
        Some(len) => Episode::Sampled { len },
        None => Episode::WholeLog,
    };
    Ok((Arc::new(jobs), Options { window, backfill, skip, score, episode, baselines }))
}

/// One job-picking environment over an SWF log.
#[pyclass(module = "slasim._slasim", name = "PickJobs")]
pub struct PyPickJobs {
    env: PickJobs,
    obs: Vec<f32>,
    mask: Vec<u8>,
    /// The mask as Gymnasium wants it (`int8`).
    mask_i8: Vec<i8>,
}

impl PyPickJobs {
    fn write(&mut self) {
        self.env.write_observation(&mut self.obs, &mut self.mask);
        for (m, &v) in self.mask_i8.iter_mut().zip(&self.mask) {
            *m = v as i8;
        }
    }
}

#[pymethods]
impl PyPickJobs {
    #[new]
    #[pyo3(signature = (trace=None, *, window=128, backfill=false, skip=false, score=0, sequence_len=Some(256), estimates="logged", baselines=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        trace: Option<&str>,
        window: usize,
        backfill: bool,
        skip: bool,
        score: i64,
        sequence_len: Option<usize>,
        estimates: &str,
        baselines: bool,
    ) -> PyResult<Self> {
        let (jobs, options) = build(trace, window, backfill, skip, score, sequence_len, estimates, baselines)?;
        let env = PickJobs::new(jobs, options).map_err(slasim_err)?;
        let n = env.observation_len();
        Ok(PyPickJobs { env, obs: vec![0.0; n], mask: vec![0; window], mask_i8: vec![0; window] })
    }

    /// Reseeds the start-index generator.
    fn seed(&mut self, seed: u64) {
        self.env.seed(seed);
    }

    /// Starts an episode (at job position `start`, or a drawn one); returns (obs, mask).
    #[pyo3(signature = (start=None))]
    fn reset<'py>(&mut self, py: Python<'py>, start: Option<usize>) -> PyResult<Observed<'py>> {
        self.env.reset(start).map_err(slasim_err)?;
        self.write();
        Ok((PyArray1::from_slice(py, &self.obs), PyArray1::from_slice(py, &self.mask_i8)))
    }

    /// One step; returns (obs, mask, reward, terminated).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>, f64, bool)> {
        let step = self.env.step(action).map_err(|e| InvalidActionError::new_err(e.to_string()))?;
        self.write();
        Ok((PyArray1::from_slice(py, &self.obs), PyArray1::from_slice(py, &self.mask_i8), step.reward, step.terminated))
    }

    /// The current mask, as a new array.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, &self.mask_i8)
    }

    /// (SJF total, F1 total) of the current sequence, when computed.
    fn baselines(&self) -> Option<(f64, f64)> {
        self.env.baselines().map(|b| (b.sjf, b.f1))
    }

    /// The episode's total score once it is over.
    fn total(&self) -> Option<f64> {
        self.env.total()
    }

    /// Simulated time (the log's clock, s).
    #[getter]
    fn now(&self) -> i64 {
        self.env.now()
    }

    /// The sequence's first job (0-based position in the log's jobs).
    #[getter]
    fn start_index(&self) -> usize {
        self.env.start_index()
    }

    /// Jobs per episode.
    #[getter]
    fn sequence_len(&self) -> usize {
        self.env.sequence_len()
    }

    /// Jobs in the log.
    #[getter]
    fn num_jobs(&self) -> usize {
        self.env.jobs().len()
    }

    /// SWF job numbers of the visible jobs, in row order.
    fn visible_job_ids(&self) -> Vec<i64> {
        let jobs = self.env.jobs();
        self.env.visible().iter().map(|&j| jobs.id[j as usize]).collect()
    }
}

/// N job-picking environments over one log, stepped in one call.
#[pyclass(module = "slasim._slasim", name = "VectorPickJobs")]
pub struct PyVectorPickJobs {
    vec: VectorPick,
}

fn vector_err(e: VectorError) -> PyErr {
    match e {
        VectorError::Action { .. } => InvalidActionError::new_err(e.to_string()),
        _ => SlasimError::new_err(e.to_string()),
    }
}

fn slice_mut<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    a: &'a mut numpy::PyReadwriteArray<'_, T, D>,
    what: &str,
) -> PyResult<&'a mut [T]> {
    a.as_slice_mut().map_err(|e| PyValueError::new_err(format!("{what}: {e} (pass a C-contiguous array)")))
}

#[pymethods]
impl PyVectorPickJobs {
    #[new]
    #[pyo3(signature = (trace, num_envs, *, threads=1, window=128, backfill=false, skip=false, score=0, sequence_len=Some(256), estimates="logged", baselines=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        trace: Option<&str>,
        num_envs: usize,
        threads: usize,
        window: usize,
        backfill: bool,
        skip: bool,
        score: i64,
        sequence_len: Option<usize>,
        estimates: &str,
        baselines: bool,
    ) -> PyResult<Self> {
        let (jobs, options) = build(trace, window, backfill, skip, score, sequence_len, estimates, baselines)?;
        let envs = (0..num_envs)
            .map(|_| PickJobs::new(Arc::clone(&jobs), options).map_err(slasim_err))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyVectorPickJobs { vec: VectorPick::new(envs, threads) })
    }

    /// Seeds environment i with seed + i.
    fn seed(&mut self, seed: u64) {
        self.vec.seed(seed);
    }

    /// Resets every environment into the given arrays.
    fn reset(
        &mut self,
        py: Python<'_>,
        mut obs: PyReadwriteArray2<'_, f32>,
        mut masks: PyReadwriteArray2<'_, u8>,
        mut rewards: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let b = Buffers {
            obs: slice_mut(&mut obs, "obs")?,
            masks: slice_mut(&mut masks, "masks")?,
            rewards: slice_mut(&mut rewards, "rewards")?,
            terminated: slice_mut(&mut terminated, "terminated")?,
            truncated: slice_mut(&mut truncated, "truncated")?,
        };
        let vec = &mut self.vec;
        py.detach(move || vec.reset(b)).map_err(vector_err)
    }

    /// Steps every environment (next-step autoreset) into the given arrays.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut obs: PyReadwriteArray2<'_, f32>,
        mut masks: PyReadwriteArray2<'_, u8>,
        mut rewards: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let actions = actions.as_slice().map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        let b = Buffers {
            obs: slice_mut(&mut obs, "obs")?,
            masks: slice_mut(&mut masks, "masks")?,
            rewards: slice_mut(&mut rewards, "rewards")?,
            terminated: slice_mut(&mut terminated, "terminated")?,
            truncated: slice_mut(&mut truncated, "truncated")?,
        };
        let vec = &mut self.vec;
        py.detach(move || vec.step(actions, b)).map_err(vector_err)
    }

    /// Totals of the environments whose episode is over (None elsewhere).
    fn totals(&self) -> Vec<Option<f64>> {
        self.vec.envs().iter().map(|e| e.total()).collect()
    }

    /// (SJF, F1) baseline totals of each environment's current sequence.
    fn baselines(&self) -> Vec<Option<(f64, f64)>> {
        self.vec.envs().iter().map(|e| e.baselines().map(|b| (b.sjf, b.f1))).collect()
    }

    /// Number of environments.
    fn __len__(&self) -> usize {
        self.vec.len()
    }
}

/// Adds the environments' classes to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidActionError", m.py().get_type::<InvalidActionError>())?;
    m.add_class::<PyPickJobs>()?;
    m.add_class::<PyVectorPickJobs>()?;
    Ok(())
}
