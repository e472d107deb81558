//! The provisioning and pricing points' store group, by descriptors: the
//! tables of [`provision`] (points, sites, submissions, slots) and of
//! [`pricing`] (priced reservations, the provider's view), created by the
//! engine's migrations (schemas 5 to 9).

pub mod pricing;
pub mod provision;

use slasim_core::store::columns::Described;
use slasim_core::store::tables::groups::{PointTables, all};

/// Every table of provisioning and pricing points, in merge order.
pub fn described() -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = provision::tables().to_vec();
    all.extend(pricing::tables());
    all
}

/// Provisioning and pricing points: the tables the engine's migrations
/// made for them (schemas 5 to 9), so no script of their own.
pub static GROUP: PointTables = PointTables {
    key_table: "provision_points",
    key: "point_id",
    tables: &[
        all("provision_points"),
        all("provision_sites"),
        all("provision_submissions"),
        all("priced_reservations"),
        all("pricing_harm"),
        all("slot_samples"),
        all("advertised_slots"),
    ],
    schema: "",
    described,
    docs: &[
        ("provision_points", "One row per provisioning or pricing point: its kind, settings and resolved TOML."),
        ("provision_sites", "Per-site metrics of a provisioning or pricing point (utilisation, best-effort wait)."),
        (
            "provision_submissions",
            "Each workflow submission of a provisioning point, per α: the chosen plan's cost and makespan.",
        ),
        ("priced_reservations", "Each priced reservation request of a pricing point: its price, start and wait."),
        ("slot_samples", "Slot statistics of a provisioning point: free slots sampled over time."),
        ("advertised_slots", "The slots a site advertised at each sample."),
        ("pricing_harm", "The provider's view of a pricing point: the externality charged against the delay suffered."),
    ],
    jobs: None,
    provenance: Some("SELECT point_id AS point, traces AS trace, seed, config, code_version FROM provision_points"),
};
