//! Workloads: SWF traces, the synthetic default, experiment preparation and
//! node-failure streams.
//!
//! Contract: everything a simulation consumes enters here. A [`WorkloadSource`]
//! yields an [`SwfTrace`] (a real log, or the embedded synthetic generator
//! when no trace is given); [`prepare::PrepareConfig`] turns it into PDF history
//! and batteries of [`job::Job`]s; [`failures`] yields node-event streams.
//! Trace files are never bundled: they are read from the path given, or looked
//! up under the traces directory ([`slasim_data::trace::trace_dir`]).

pub mod batsim;
pub mod failure_law;
pub mod failures;
pub mod info;
pub mod job;
pub mod pods;
pub mod prepare;
pub mod reservations;
pub mod sla;
pub mod synthetic;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::workload::synthetic::SyntheticConfig;
use slasim_data::trace::gpu;
use slasim_data::trace::resolve_trace;
use slasim_data::trace::sacct;
use slasim_data::trace::swf::{ReadOptions, SwfTrace};

/// Reads a trace file: an SWF log, a Batsim JSON workload, or a Slurm accounting dump (detected by
/// its `sacct --parsable2` header line, [`sacct::is_sacct_file`]) converted
/// to SWF in memory, or a GPU-era CSV trace ([`gpu::load`]: GPUs are the
/// counted processors).
pub fn load_trace(path: &Path, options: ReadOptions) -> anyhow::Result<SwfTrace> {
    if batsim::is_batsim_workload(path) {
        return Ok(batsim::load(path)?);
    }
    if sacct::is_sacct_file(path) {
        return Ok(sacct::load(path, options)?);
    }
    if gpu::is_gpu_trace(path) {
        return Ok(gpu::load(path)?);
    }
    Ok(SwfTrace::load(path, options)?)
}

/// Where a workload comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum WorkloadSource {
    /// An SWF log (plain or gzip), or a Slurm accounting dump ([`load_trace`]).
    Swf {
        /// Path, or a name under the traces directory.
        path: PathBuf,
        /// Skip malformed lines instead of failing.
        #[serde(default)]
        lenient: bool,
    },
    /// The embedded synthetic generator.
    Synthetic(SyntheticConfig),
}

impl Default for WorkloadSource {
    fn default() -> Self {
        WorkloadSource::Synthetic(SyntheticConfig::default())
    }
}

impl WorkloadSource {
    /// Loads (or generates) the trace.
    pub fn load(&self) -> anyhow::Result<SwfTrace> {
        match self {
            WorkloadSource::Swf { path: given, lenient } => {
                let path = resolve_trace(given).map_err(anyhow::Error::msg)?;
                let mut trace = load_trace(&path, ReadOptions { lenient: *lenient, ..ReadOptions::default() })?;
                // Stores and reports keep the name the user gave, not where
                // this machine found it.
                trace.name = given.display().to_string();
                Ok(trace)
            }
            WorkloadSource::Synthetic(config) => Ok(config.generate()?),
        }
    }

    /// Its trace exists (the synthetic workload always does); reads nothing.
    pub fn check(&self) -> anyhow::Result<()> {
        if let WorkloadSource::Swf { path, .. } = self {
            resolve_trace(path).map_err(anyhow::Error::msg)?;
        }
        Ok(())
    }

    /// A short name for reports: the file name, or the synthetic description.
    pub fn name(&self) -> String {
        match self {
            WorkloadSource::Swf { path, .. } => {
                path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned())
            }
            WorkloadSource::Synthetic(config) => config.name(),
        }
    }
}
