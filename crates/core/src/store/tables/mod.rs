//! Every table of the store, by descriptors ([`crate::store::columns`]):
//! the engine's own ([`experiment`], [`provenance`]) and each registered group's
//! ([`groups`]).
//!
//! Contract: [`described_tables`] lists every table of the schema, in the
//! order a new store creates them ([`crate::store::schema`] makes them;
//! [`crate::store::schema::facts`] holds a store to them).

use crate::store::columns::Described;
use crate::store::tables::groups::PointTables;

pub mod experiment;
pub mod groups;
pub mod provenance;

/// Every table the writers fill: the experiments', the points' provenance, then the `groups`'.
pub fn described_tables(groups: &[&'static PointTables]) -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = Vec::new();
    all.extend(experiment::tables());
    all.extend(provenance::tables());
    for group in groups {
        all.extend((group.described)());
    }
    all
}
