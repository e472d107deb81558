//! Writing a pricing point: its site, every purchase request and the
//! provider's view of what the reservations cost the queued jobs.

use super::provision::{ProvisionPointRow, insert_point, insert_sites};
use crate::provision::outcome::PricingOutcome;
use crate::store::columns::{insert, insert_all};
use crate::store::tables::pricing::{HarmRow, PRICED_RESERVATIONS, PRICING_HARM, PricedRow};
use crate::store::{Store, StoreError, sqlite};

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

impl Store {
    /// Writes a pricing point in one transaction.
    pub fn write_pricing(&mut self, out: &PricingOutput) -> Result<(), StoreError> {
        let (point, point_id, alpha) = (&out.row, out.row.point_id, out.alpha);
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        insert_point(&tx, point).map_err(&err)?;
        let site = (&out.outcome.site, out.load, out.outcome.be_wait);
        insert_sites(&tx, point_id, std::iter::once(site)).map_err(&err)?;
        insert(&tx, &PRICING_HARM, &HarmRow { point_id, harm: &out.outcome.harm }).map_err(&err)?;
        let records = out.outcome.records.iter().map(|record| PricedRow { point_id, alpha, record });
        insert_all(&tx, &PRICED_RESERVATIONS, records).map_err(&err)?;
        tx.commit().map_err(&err)
    }
}
