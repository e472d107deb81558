//! The inputs a list of points shares, loaded once.
//!
//! Contract: [`Inputs`] holds every input a list of points needs, once —
//! prepared workloads per distinct (workload, preparation) pair, runtime
//! statistics, LANL logs, Grid logs — keyed by the settings that make them.
//! Each point kind loads and checks what it needs in its own file under
//! [`crate::experiment::kinds`] (its `impl Inputs` block), before anything is
//! stored; workers only read them (`Arc`). A trace the caller has already
//! parsed ([`Inputs::load_with`]) is prepared from, not parsed again. This
//! file knows no point kind.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::stats::pdf::RuntimeModel;
use crate::workload::failures::LanlLog;
use crate::workload::prepare::Prepared;
use crate::workload::windows::GridLog;

/// Inputs shared by the points of one run of the runner.
#[derive(Default)]
pub struct Inputs {
    /// Prepared workloads, by workload and preparation settings.
    pub(crate) prepared: HashMap<String, Arc<Prepared>>,
    /// LANL failure logs, by path.
    pub(crate) lanl: HashMap<PathBuf, Arc<LanlLog>>,
    /// Runtime statistics, by workload, preparation and PDF settings.
    pub(crate) models: HashMap<String, Arc<RuntimeModel>>,
    /// Grid logs, by workload.
    pub(crate) grid_logs: HashMap<String, Arc<GridLog>>,
    /// Slurm confs and workloads, by conf and workload settings.
    pub(crate) slurm: HashMap<String, Arc<crate::slurm::bench::SlurmInputs>>,
}
