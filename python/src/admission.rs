//! `slasim._slasim.AdmissionCore`: the SLA admission environment
//! (`slasim::gym::admission`) for `slasim.envs.SlaAdmissionEnv`.

use std::sync::Mutex;

use numpy::PyArray1;
use pyo3::prelude::*;
use slasim::gym::admission::{AdmissionEnv, StepError};

use crate::SlasimError;
use crate::error::to_py as error;
use crate::gym::InvalidActionError;

/// The SLA admission environment's core: one episode at a time, stepped in Rust.
#[pyclass(module = "slasim._slasim")]
pub struct AdmissionCore {
    env: Mutex<AdmissionEnv>,
}

impl AdmissionCore {
    fn with<T>(&self, f: impl FnOnce(&mut AdmissionEnv) -> T) -> PyResult<T> {
        let mut env = self.env.lock().map_err(|_| SlasimError::new_err("the environment failed in another thread"))?;
        Ok(f(&mut env))
    }
}

#[pymethods]
impl AdmissionCore {
    /// The environment over point `point` of config `text` (from `file`), or
    /// over the default point when `text` is None.
    #[new]
    #[pyo3(signature = (file, text, point, slots))]
    fn new(py: Python<'_>, file: String, text: Option<String>, point: usize, slots: usize) -> PyResult<AdmissionCore> {
        let env = py
            .detach(|| match text {
                Some(text) => AdmissionEnv::from_config(&slasim::registry(), &file, &text, point, slots),
                None => AdmissionEnv::default_point(slots),
            })
            .map_err(error)?;
        Ok(AdmissionCore { env: Mutex::new(env) })
    }

    fn observation_len(&self) -> PyResult<usize> {
        self.with(|e| e.observation_len())
    }

    fn slots(&self) -> PyResult<usize> {
        self.with(|e| e.slots())
    }

    fn batteries(&self) -> PyResult<usize> {
        self.with(|e| e.batteries())
    }

    /// Starts an episode; True if an arrival waits for a decision.
    #[pyo3(signature = (seed, battery=None))]
    fn reset(&self, py: Python<'_>, seed: u64, battery: Option<usize>) -> PyResult<bool> {
        py.detach(|| self.with(|e| e.reset(seed, battery)))?.map_err(error)
    }

    /// Decides the waiting arrival (candidate index, or None to reject):
    /// (reward, terminated).
    fn step(&self, py: Python<'_>, action: Option<usize>) -> PyResult<(f64, bool)> {
        let step = py.detach(|| self.with(|e| e.step(action)))?.map_err(|e| match e {
            StepError::Action(what) => InvalidActionError::new_err(what),
            StepError::Simulation(e) => error(e),
        })?;
        Ok((step.reward, step.terminated))
    }

    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let obs = self.with(|e| {
            let mut obs = vec![0f32; e.observation_len()];
            e.observe(&mut obs);
            obs
        })?;
        Ok(PyArray1::from_vec(py, obs))
    }

    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mask = self.with(|e| {
            let mut mask = vec![false; e.slots() + 1];
            e.mask(&mut mask);
            mask
        })?;
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The dissertation's decision (candidate index, or None to reject).
    fn baseline(&self) -> PyResult<Option<usize>> {
        self.with(|e| e.baseline())
    }

    /// What the info dict tells: the arrival's time and job, or the
    /// episode's summary once over.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        self.with(|e| -> PyResult<()> {
            if let Some(a) = e.arrival() {
                d.set_item("time", a.now)?;
                d.set_item("job", a.job.id)?;
                d.set_item("candidates", a.candidates.len())?;
            }
            if let Some(s) = e.summary() {
                d.set_item("accepted", s.accepted)?;
                d.set_item("successful", s.successful)?;
                d.set_item("failed", s.failed)?;
                d.set_item("rejected", s.rejected)?;
                d.set_item("gain", s.gain)?;
            }
            Ok(())
        })??;
        Ok(d)
    }
}
