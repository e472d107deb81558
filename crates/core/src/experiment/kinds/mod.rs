//! The point kinds: the registry, and one file per built-in kind with its
//! settings, its `resolve`, its `run` and its [`PointKind`].
//!
//! Contract:
//! - [`KINDS`] holds the built-in kind (single-cluster) and the kinds a program depending on this
//!   crate adds with [`Kinds::register`] before it runs a config or the CLI;
//!   registering a kind registers its tables with the store too.
//! - A new kind is one file (its settings, an [`AnyPoint`] and a
//!   [`PointKind`]) and one registration: the config reader, the executor,
//!   the store's list of stored points and merge find it here.
//!
//! [`AnyPoint`]: crate::experiment::point::AnyPoint

pub mod single;
pub mod single_kind;

use crate::experiment::inputs::Inputs;
use crate::experiment::point::{Point, PointKind};
use crate::registry::{BadName, Registry, UnknownName};

/// The registered point kinds.
pub struct Kinds(Registry<&'static dyn PointKind>);

static BUILTIN: [&'static dyn PointKind; 1] = [&single_kind::SINGLE];

/// Every point kind: the built-in ones, then the registered ones.
pub static KINDS: Kinds = Kinds(Registry::new("point kind", &BUILTIN));

impl Kinds {
    /// Adds `kind` after every kind registered so far, and its tables to the
    /// store's (once: kinds may share their tables).
    pub fn register(&self, kind: &'static dyn PointKind) -> Result<&'static dyn PointKind, BadName> {
        let kind = *self.0.register(kind)?;
        crate::store::tables::groups::register(kind.tables());
        Ok(kind)
    }

    /// Every kind, the built-in ones first.
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
