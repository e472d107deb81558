//! The provisioning and pricing points' store group, by descriptors: the
//! tables of [`provision`] (points, sites, submissions, slots) and of
//! [`pricing`] (priced reservations, the provider's view), and their history
//! ([`history`]: the steps of schemas 5 to 9).

pub mod history;
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

/// Provisioning and pricing points. Their ids are derived from their
/// canonical settings since schema 9.
pub static GROUP: PointTables = PointTables {
    key_table: "provision_points",
    key: "point_id",
    metrics: "provision_points",
    tables: &[
        all("provision_points"),
        all("provision_sites"),
        all("provision_submissions"),
        all("priced_reservations"),
        all("pricing_harm"),
        all("slot_samples"),
        all("advertised_slots"),
    ],
    described,
    steps: &history::STEPS,
    views: &[],
    ids_since: Some((9, "provisioning and pricing")),
    jobs: None,
    provenance: Some("SELECT point_id AS point, traces AS trace, seed, config, code_version FROM provision_points"),
};
