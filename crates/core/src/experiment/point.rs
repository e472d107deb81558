//! A point: the fully resolved settings of one simulation, of a registered kind.
//!
//! Contract:
//! - A [`PointKind`] is a kind of point (single-cluster, Grid,
//!   provisioning, pricing, Slurm, or one of a crate outside: each is added
//!   to a program's [`crate::experiment::registry::Registry`] by its crate). Its constants are one
//!   [`KindInfo`]: its name, which config sections and axes are its own, the
//!   tables its points are stored in ([`PointTables`]). Its code reads a
//!   config into the base settings its sweeps modify and resolves each swept
//!   point. The config reader, the executor and merge only ever call it:
//!   none of them knows a kind by name.
//! - A [`Point`] is one resolved point of any kind, behind [`AnyPoint`]: its
//!   canonical text, label, inputs, run and output. The typed settings are
//!   reached with [`Point::get`].
//! - A point's canonical TOML text is hashed (sha256) into a stable id: the
//!   same settings get the same id in any process, on any machine. It is the
//!   `run_id` of single-cluster and Grid runs and the `point_id` of
//!   provisioning and pricing runs in the store.
//! - Single-cluster ids are those of every earlier version. Grid, provisioning
//!   and pricing ids were derived anew with store schema 9 (see
//!   [`crate::store::schema`]): an older store holding such points is refused
//!   for writing rather than silently re-run.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::experiment::id::{PointId, Unserialisable};
use crate::experiment::inputs::Inputs;
use crate::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use crate::store::tables::groups::PointTables;
use crate::store::{Store, StoreError};
use crate::threads::Budget;

/// What a kind of point is, as data: the constants its [`PointKind`]
/// accessors return. Each kind writes one (a `static`) and returns it from
/// [`PointKind::info`].
#[derive(Debug)]
pub struct KindInfo {
    /// Its name (`single`, `grid`, …; kebab-case).
    pub name: &'static str,
    /// A phrase for messages: "a Grid experiment (`[grid]`)".
    pub described: &'static str,
    /// Its adjective in "`x` is a … setting": "Grid".
    pub setting_of: &'static str,
    /// The config section whose presence makes a config of this kind
    /// (`None`: the kind of a config with no such section; one kind only).
    pub section: Option<&'static str>,
    /// Every top-level config key it reads besides `name`, `description`,
    /// `seed` and `sweep`, its own section included.
    pub sections: &'static [&'static str],
    /// Are its points' settings its section's contents (so the axis
    /// `provision.tasks` sets `tasks`)? Else they are the whole config's.
    pub settings_in_section: bool,
    /// Its short axis names (`seed`, which every kind has, aside).
    pub axes: &'static [Axis],
    /// The tables its points are stored in.
    pub tables: &'static PointTables,
}

/// A kind of point, added once to a registry: its constants as one
/// [`KindInfo`], and the code reading a config and resolving its points.
pub trait PointKind: Send + Sync + 'static {
    /// What it is, as data.
    fn info(&self) -> &'static KindInfo;

    /// Its name (`single`, `grid`, …; kebab-case).
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// A phrase for messages: "a Grid experiment (`[grid]`)".
    fn described(&self) -> &'static str {
        self.info().described
    }

    /// Its adjective in "`x` is a … setting": "Grid".
    fn setting_of(&self) -> &'static str {
        self.info().setting_of
    }

    /// The config section whose presence makes a config of this kind
    /// (`None`: the kind of a config with no such section; one kind only).
    fn section(&self) -> Option<&'static str> {
        self.info().section
    }

    /// Every top-level config key it reads besides `name`, `description`,
    /// `seed` and `sweep`, its own section included.
    fn sections(&self) -> &'static [&'static str] {
        self.info().sections
    }

    /// Are its points' settings its section's contents (so the axis
    /// `provision.tasks` sets `tasks`)? Else they are the whole config's.
    fn settings_in_section(&self) -> bool {
        self.info().settings_in_section
    }

    /// Its short axis names (`seed`, which every kind has, aside).
    fn axes(&self) -> &'static [Axis] {
        self.info().axes
    }

    /// The tables its points are stored in.
    fn tables(&self) -> &'static PointTables {
        self.info().tables
    }

    /// Reads a config into the base settings its sweeps modify.
    fn base(&self, config: &ConfigFile<'_>) -> Result<Base, ConfigError>;

    /// The section that a sweep setting `path` to `value` in `table` starts
    /// anew from the defaults of its new value, and those defaults, if it
    /// does (another failure model starts from its own defaults, not the
    /// previous model's parameters); `None` sets the path as usual.
    fn restarted_section(
        &self,
        table: &toml::Table,
        path: &str,
        value: &toml::Value,
    ) -> Option<(&'static str, toml::Table)> {
        let _ = (table, path, value);
        None
    }

    /// Reads one swept point (the base with a sweep's settings applied) and
    /// resolves it: defaults filled, unread settings reset, settings checked.
    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError>;
}

crate::named_trait_objects!(PointKind);

impl PartialEq for dyn PointKind {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

/// A sweep axis: its short name, the setting it sets and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis {
    /// The name in `[sweep.axes]`.
    pub name: &'static str,
    /// The dotted setting it sets.
    pub path: &'static str,
    /// One line.
    pub about: &'static str,
}

/// An [`Axis`].
pub const fn axis(name: &'static str, path: &'static str, about: &'static str) -> Axis {
    Axis { name, path, about }
}

/// What a kind reads from a config before its sweeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Base {
    /// The base settings, as a TOML table the sweeps set paths in.
    pub table: toml::Table,
    /// How many batteries `battery = "all"` means.
    pub batteries: usize,
    /// How many replicas of each point every sweep makes, when the config
    /// asks for replicas: each sweep that does not name the axis
    /// [`REPLICA_AXIS`] gains it, with the values 0 to this count − 1, as
    /// its innermost dimension (the kind must have the axis).
    pub replicas: Option<usize>,
}

/// The axis a kind's replicas are numbered by ([`Base::replicas`]).
pub const REPLICA_AXIS: &str = "replica";

impl Base {
    /// The base of a kind whose settings are `settings`, read from `file`.
    pub fn of(file: &ConfigFile<'_>, settings: impl serde::Serialize, batteries: usize) -> Result<Base, ConfigError> {
        let table =
            toml::Table::try_from(settings).map_err(|e| file.loc.at(0, format!("cannot build the base point: {e}")))?;
        Ok(Base { table, batteries, replicas: None })
    }

    /// The same base, each sweep's points made `replicas` times ([`Base::replicas`]).
    pub fn replicated(self, replicas: usize) -> Base {
        Base { replicas: Some(replicas), ..self }
    }
}

/// A run's aggregates, of a type its kind chooses (a single-cluster run's
/// `RunSummary`, say); [`PointResult`] hands it back to the caller.
///
/// [`PointResult`]: crate::experiment::coordinator::PointResult
pub type Summary = Arc<dyn Any + Send + Sync>;

/// One resolved point of some kind.
pub trait AnyPoint: fmt::Debug + Send + Sync + Any {
    /// Its kind.
    fn kind(&self) -> &'static dyn PointKind;

    /// The canonical TOML text of its settings.
    fn canonical(&self) -> Result<String, Unserialisable>;

    /// A short description for messages and progress.
    fn label(&self) -> String;

    /// Loads what it needs into `inputs` (shared by the points of a run;
    /// what the caller put there first, a trace it parsed, say, is used, not
    /// loaded again); `index` is its position in the run. The default loads
    /// nothing and checks that [`AnyPoint::missing`] is empty.
    fn load(&self, index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        let _ = (index, inputs);
        match self.missing().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The input files it would read that are not there, as errors; reads nothing.
    fn missing(&self) -> Vec<anyhow::Error> {
        Vec::new()
    }

    /// Rows its points share (a battery's jobs), to store while it runs; their
    /// writing must leave rows already there as they are, as every point
    /// sharing them hands them over.
    fn shared_rows(&self, inputs: &Inputs) -> Option<Box<dyn PointOutput>> {
        let _ = inputs;
        None
    }

    /// Runs it on the calling thread and the threads `budget` has free;
    /// `experiment` names the config it came from.
    fn run(
        &self,
        inputs: &Inputs,
        budget: &Arc<Budget>,
        experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>>;

    /// The summary of its run already in `store`, if its kind has one.
    fn stored_summary(&self, store: &Store, id: i64) -> Result<Option<Summary>, StoreError> {
        let _ = (store, id);
        Ok(None)
    }

    /// A copy, boxed.
    fn clone_point(&self) -> Box<dyn AnyPoint>;

    /// Equal to `other` (a point of any kind).
    fn equals(&self, other: &dyn Any) -> bool;

    /// As [`Any`], to reach its settings.
    fn as_any(&self) -> &dyn Any;

    /// As [`Any`], to change its settings.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// What running a point produced, ready for the store.
pub trait PointOutput: fmt::Debug + Send {
    /// Writes it in one transaction.
    fn write(&self, store: &mut Store) -> Result<(), StoreError>;

    /// Its run's aggregates, if its kind has them.
    fn summary(&self) -> Option<Summary> {
        None
    }
}

/// The resolved settings of one simulation, of any kind.
pub struct Point(Box<dyn AnyPoint>);

impl Point {
    /// A point of settings `p`.
    pub fn new(p: impl AnyPoint) -> Point {
        Point(Box::new(p))
    }

    /// Its kind.
    pub fn kind(&self) -> &'static dyn PointKind {
        self.0.kind()
    }

    /// Its settings, if they are a `T`.
    pub fn get<T: AnyPoint>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// Its settings to change, if they are a `T`.
    pub fn get_mut<T: AnyPoint>(&mut self) -> Option<&mut T> {
        self.0.as_any_mut().downcast_mut()
    }

    /// The canonical TOML text of its settings.
    pub fn canonical(&self) -> Result<String, Unserialisable> {
        self.0.canonical()
    }

    /// Its stable id.
    pub fn id(&self) -> Result<PointId, Unserialisable> {
        self.canonical().map(|text| PointId::of(&text))
    }

    /// A short description for messages and progress: the strategy, the
    /// algorithm or the method.
    pub fn label(&self) -> String {
        self.0.label()
    }

    /// Its kind's behaviour: inputs, run, output.
    pub fn settings(&self) -> &dyn AnyPoint {
        &*self.0
    }
}

impl Clone for Point {
    fn clone(&self) -> Point {
        Point(self.0.clone_point())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for Point {
    fn eq(&self, other: &Point) -> bool {
        self.0.equals(other.0.as_any())
    }
}

/// Implements [`AnyPoint`]'s copy, equality and [`Any`] access for a
/// settings type that is `Clone + PartialEq`.
#[macro_export]
macro_rules! point_boilerplate {
    () => {
        fn clone_point(&self) -> Box<dyn $crate::experiment::point::AnyPoint> {
            Box::new(self.clone())
        }
        fn equals(&self, other: &dyn std::any::Any) -> bool {
            other.downcast_ref::<Self>() == Some(self)
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }
    };
}
