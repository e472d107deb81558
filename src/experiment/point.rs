//! A point: the fully resolved settings of one simulation, of one of four kinds.
//!
//! Contract:
//! - A [`Point`] is a single-cluster run, a Grid run, a provisioning run
//!   (slot statistics, MOGA or greedy provisioning) or an adaptive-pricing
//!   run. Each kind's settings type lives in its own file under
//!   [`crate::experiment::kinds`], with the one `resolve` that fills its
//!   defaults, resets what the point does not read and checks the rest; the
//!   command line and configs both build points through it.
//! - A point's canonical TOML text is hashed (sha256) into a stable id: the
//!   same settings get the same id in any process, on any machine. It is the
//!   `run_id` of single-cluster and Grid runs and the `point_id` of
//!   provisioning and pricing runs in the store.
//! - Single-cluster ids are those of every earlier version. Grid, provisioning
//!   and pricing ids were derived anew with store schema 9 (see
//!   [`crate::store::schema`]): an older store holding such points is refused
//!   for writing rather than silently re-run.

use crate::experiment::id::{PointId, Unserialisable};
use crate::experiment::kinds::grid::GridPoint;
use crate::experiment::kinds::single::SinglePoint;
use crate::provision::experiment::{PricingPoint, ProvisionPoint};

/// The resolved settings of one simulation.
// A sweep holds its points once, in one Vec; boxing the large variants would
// buy nothing but an indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Point {
    /// One cluster under one strategy (one battery, or the whole log).
    Single(SinglePoint),
    /// Clusters, their local schedulers and a co-reservation broker.
    Grid(GridPoint),
    /// Slot statistics, or a workflow provisioned (MOGA or greedy) against the sites' load.
    Provision(ProvisionPoint),
    /// Adaptive pricing: a share of a trace's jobs buy priced reservations.
    Pricing(PricingPoint),
}

/// A point's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// [`Point::Single`].
    Single,
    /// [`Point::Grid`].
    Grid,
    /// [`Point::Provision`].
    Provision,
    /// [`Point::Pricing`].
    Pricing,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 4] = [Kind::Single, Kind::Grid, Kind::Provision, Kind::Pricing];

    /// Its name: the config section that makes a config of this kind
    /// (`single` has none).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Grid => "grid",
            Kind::Provision => "provision",
            Kind::Pricing => "pricing",
        }
    }

    /// A phrase for messages: "a single-cluster point", …
    pub fn described(self) -> &'static str {
        match self {
            Kind::Single => "a single-cluster experiment",
            Kind::Grid => "a Grid experiment ([grid])",
            Kind::Provision => "a provisioning experiment ([provision])",
            Kind::Pricing => "a pricing experiment ([pricing])",
        }
    }
}

impl Point {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Point::Single(_) => Kind::Single,
            Point::Grid(_) => Kind::Grid,
            Point::Provision(_) => Kind::Provision,
            Point::Pricing(_) => Kind::Pricing,
        }
    }

    /// The canonical TOML text of its settings.
    pub fn canonical(&self) -> Result<String, Unserialisable> {
        match self {
            Point::Single(p) => p.canonical(),
            Point::Grid(p) => p.canonical(),
            Point::Provision(p) => crate::experiment::kinds::provision::canonical(p),
            Point::Pricing(p) => crate::experiment::kinds::pricing::canonical(p),
        }
    }

    /// Its stable id.
    pub fn id(&self) -> Result<PointId, Unserialisable> {
        self.canonical().map(|text| PointId::of(&text))
    }

    /// A short description for messages and progress: the strategy, the
    /// algorithm or the method.
    pub fn label(&self) -> String {
        match self {
            Point::Single(p) => format!("{} battery {}", p.strategy, p.battery),
            Point::Grid(p) => format!("{} on {} clusters, {}", p.grid.algorithm, p.grid.clusters, p.strategy),
            Point::Provision(p) => format!("{} provisioning", p.method.name()),
            Point::Pricing(p) => format!("pricing at α = {}", p.alpha),
        }
    }
}
