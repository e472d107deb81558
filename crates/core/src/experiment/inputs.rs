//! The inputs a list of points shares, loaded once.
//!
//! Contract: [`Inputs`] holds every input a list of points needs, once —
//! prepared workloads per distinct (workload, preparation) pair, runtime
//! statistics, LANL logs — keyed by the settings that make them.
//! Each point kind loads and checks what it needs in its own file under
//! [`crate::experiment::kinds`] (its `impl Inputs` block), before anything is
//! stored; workers only read them (`Arc`). A trace the caller has already
//! parsed ([`Inputs::load_with`]) is prepared from, not parsed again. This
//! file knows no point kind.
//! - A kind of another crate keeps its inputs here by type and key
//!   ([`Inputs::load_once`], [`Inputs::get`]): one load per key, shared by its
//!   points.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use std::sync::Arc;

use crate::stats::pdf::RuntimeModel;
use crate::workload::failures::LanlLog;
use crate::workload::prepare::Prepared;

/// Inputs shared by the points of one run of the runner.
#[derive(Default)]
pub struct Inputs {
    /// Prepared workloads, by workload and preparation settings.
    pub(crate) prepared: HashMap<String, Arc<Prepared>>,
    /// LANL failure logs, by path.
    pub(crate) lanl: HashMap<PathBuf, Arc<LanlLog>>,
    /// Runtime statistics, by workload, preparation and PDF settings.
    pub(crate) models: HashMap<String, Arc<RuntimeModel>>,
    /// Other kinds' inputs, by type, then by key.
    others: HashMap<TypeId, HashMap<String, Arc<dyn Any + Send + Sync>>>,
}

impl Inputs {
    /// Loads the `T` of `key` unless it is there (`load` runs at most once per key).
    pub fn load_once<T: Any + Send + Sync>(
        &mut self,
        key: String,
        load: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<()> {
        if let Entry::Vacant(slot) = self.others.entry(TypeId::of::<T>()).or_default().entry(key) {
            slot.insert(Arc::new(load()?));
        }
        Ok(())
    }

    /// The `T` loaded for `key`, if it was.
    pub fn get<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        let found = self.others.get(&TypeId::of::<T>())?.get(key)?;
        Arc::clone(found).downcast::<T>().ok()
    }
}

/// A point's setting that its inputs show out of its domain (a Grid window
/// longer than its log): the executor places it at the setting in the
/// config, or, for a command line, reports it as it is.
#[derive(Debug, thiserror::Error)]
#[error("point {index}: {error}")]
pub struct PointInputError {
    /// The point's position in the list.
    pub index: usize,
    /// The setting at fault (its dotted path).
    pub setting: &'static str,
    /// What is wrong.
    pub error: anyhow::Error,
}
