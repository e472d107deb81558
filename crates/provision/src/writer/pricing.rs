//! Writing a pricing point: its site, every purchase request and the
//! provider's view of what the reservations cost the queued jobs.

use super::provision::{insert_point, insert_sites};
use crate::outcome::PricingOutcome;
use crate::tables::pricing::{HarmRow, PRICED_RESERVATIONS, PRICING_HARM, PricedRow};
use crate::tables::provision::ProvisionPointRow;
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};

/// What a pricing point stores.
#[derive(Debug, Clone)]
pub struct PricingOutput {
    /// Its `provision_points` row.
    pub row: ProvisionPointRow,
    /// The site's target utilisation.
    pub load: Option<f64>,
    /// The buyers' α.
    pub alpha: f64,
    /// What the run produced.
    pub outcome: PricingOutcome,
}

/// Writes a pricing point in one transaction.
pub fn write_pricing(store: &mut Store, out: &PricingOutput) -> Result<(), StoreError> {
    let (point, point_id, alpha) = (&out.row, out.row.point_id, out.alpha);
    store.write_with(|tx| {
        insert_point(tx, point)?;
        let site = (&out.outcome.site, out.load, out.outcome.be_wait);
        insert_sites(tx, point_id, std::iter::once(site))?;
        insert(tx, &PRICING_HARM, &HarmRow { point_id, harm: &out.outcome.harm })?;
        let records = out.outcome.records.iter().map(|record| PricedRow { point_id, alpha, record });
        insert_all(tx, &PRICED_RESERVATIONS, records)
    })
}
