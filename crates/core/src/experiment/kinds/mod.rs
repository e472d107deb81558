//! The registry of point kinds.
//!
//! Contract:
//! - [`KINDS`] holds the kinds a program adds with [`Kinds::register`]
//!   before it runs a config or the CLI (the `slasim` binary: every kind of
//!   the workspace, the single cluster first); registering a kind registers
//!   its tables with the store too. The engine has no kind of its own.
//! - A new kind is its settings, an [`AnyPoint`] and a [`PointKind`], in a
//!   crate of its own, and one registration: the config reader, the
//!   executor, the store's list of stored points and merge find it here.
//!
//! [`AnyPoint`]: crate::experiment::point::AnyPoint

use crate::experiment::inputs::Inputs;
use crate::experiment::point::{Point, PointKind};
use crate::registry::{BadName, Registry, UnknownName};

/// The registered point kinds.
pub struct Kinds(Registry<&'static dyn PointKind>);

/// Every point kind, in the order they were registered.
pub static KINDS: Kinds = Kinds(Registry::new("point kind", &[]));

impl Kinds {
    /// Adds `kind` after every kind registered so far, and its tables to the
    /// store's (once: kinds may share their tables).
    pub fn register(&self, kind: &'static dyn PointKind) -> Result<&'static dyn PointKind, BadName> {
        let kind = *self.0.register(kind)?;
        crate::store::tables::groups::register(kind.tables());
        Ok(kind)
    }

    /// Every kind, in the order they were registered.
    pub fn all(&self) -> Vec<&'static dyn PointKind> {
        self.0.all().into_iter().copied().collect()
    }

    /// The kind named `name`.
    pub fn get(&self, name: &str) -> Result<&'static dyn PointKind, UnknownName> {
        self.0.get(name).copied()
    }
}

impl Inputs {
    /// Loads everything `points` need.
    pub fn load(points: &[Point]) -> anyhow::Result<Inputs> {
        Inputs::load_with(points, Inputs::default())
    }

    /// [`Inputs::load`], starting from what the caller `given` (see
    /// [`Inputs::give`]); what was given is dropped once every point has
    /// loaded, before anything is simulated.
    pub fn load_with(points: &[Point], given: Inputs) -> anyhow::Result<Inputs> {
        let mut inputs = given;
        for (index, point) in points.iter().enumerate() {
            point.settings().load(index, &mut inputs)?;
        }
        inputs.loaded();
        Ok(inputs)
    }
}

/// The input files `points` would read that are not there, each once, as
/// messages naming the file and the way out; reads nothing. `--dry-run`
/// checks this, so a clean dry run means the sweep finds its files.
pub fn missing_inputs<'a>(points: impl IntoIterator<Item = &'a Point>) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    for point in points {
        for e in point.settings().missing() {
            let text = format!("{e:#}");
            if !missing.contains(&text) {
                missing.push(text);
            }
        }
    }
    missing
}
