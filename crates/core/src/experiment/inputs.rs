//! The inputs a list of points shares, loaded once.
//!
//! Contract: [`Inputs`] holds every input a list of points needs, once, by
//! type and key: a kind's points that name the same settings (a prepared
//! workload, runtime statistics, a failure log) share one load
//! ([`Inputs::load_once`], [`Inputs::get`]). Each point kind loads and checks
//! what it needs in its `AnyPoint::load`, before anything is stored; workers
//! only read them (`Arc`). What the caller already has (a trace it parsed) is
//! given ([`Inputs::give`], [`Inputs::given`]) and dropped once every point
//! has loaded, before anything is simulated. This file knows no point kind.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

type ByType = HashMap<TypeId, HashMap<String, Arc<dyn Any + Send + Sync>>>;

/// Inputs shared by the points of one run of the runner.
#[derive(Default)]
pub struct Inputs {
    /// What the points loaded, by type, then by key.
    loaded: ByType,
    /// What the caller gave, by type, then by key; dropped once loaded.
    given: ByType,
}

impl Inputs {
    /// Loads the `T` of `key` unless it is there (`load` runs at most once per key).
    pub fn load_once<T: Any + Send + Sync>(
        &mut self,
        key: String,
        load: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<()> {
        if let Entry::Vacant(slot) = self.loaded.entry(TypeId::of::<T>()).or_default().entry(key) {
            slot.insert(Arc::new(load()?));
        }
        Ok(())
    }

    /// The `T` loaded for `key`, if it was.
    pub fn get<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        find(&self.loaded, key)
    }

    /// Gives `value` as the `T` of `key` (what a caller already has, a parsed
    /// trace say), for the points' loads to use instead of loading it.
    pub fn give<T: Any + Send + Sync>(&mut self, key: String, value: T) {
        self.given.entry(TypeId::of::<T>()).or_default().insert(key, Arc::new(value));
    }

    /// The `T` given for `key`, if it was and the points are still loading.
    pub fn given<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        find(&self.given, key)
    }

    /// Drops what was given: every point has loaded.
    pub(crate) fn loaded(&mut self) {
        self.given.clear();
    }
}

fn find<T: Any + Send + Sync>(map: &ByType, key: &str) -> Option<Arc<T>> {
    let found = map.get(&TypeId::of::<T>())?.get(key)?;
    Arc::clone(found).downcast::<T>().ok()
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
