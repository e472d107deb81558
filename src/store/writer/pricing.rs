//! Writing a pricing point: its site, every purchase request and the
//! provider's view of what the reservations cost the queued jobs.

use rusqlite::params;

use super::provision::{ProvisionPointRow, insert_point, insert_sites};
use crate::experiment::kinds::pricing::PricingOutcome;
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
        let (point, alpha) = (&out.row, out.alpha);
        let site = (&out.outcome.site, out.load);
        let (be_wait, records, harm) = (out.outcome.be_wait, &out.outcome.records, &out.outcome.harm);
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        insert_point(&tx, point).map_err(&err)?;
        insert_sites(&tx, point.point_id, &[(site.0.clone(), site.1)]).map_err(&err)?;
        tx.execute("UPDATE provision_sites SET be_wait = ?2 WHERE point_id = ?1", params![point.point_id, be_wait])
            .map_err(&err)?;
        tx.execute(
            "INSERT INTO pricing_harm VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                point.point_id,
                harm.charged,
                harm.suffered,
                harm.suffered_vs_queueing,
                harm.be_jobs as i64,
                harm.be_wait_without
            ],
        )
        .map_err(&err)?;
        {
            let mut st = tx
                .prepare_cached(
                    "INSERT INTO priced_reservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
                )
                .map_err(&err)?;
            for r in records {
                st.execute(params![
                    point.point_id,
                    r.request,
                    r.submit,
                    r.procs,
                    r.duration,
                    alpha,
                    r.offers,
                    r.start,
                    r.start.map(|s| s - r.submit),
                    r.base_price,
                    r.f,
                    r.bought,
                    r.end,
                    r.audit.map(|a| a.queued),
                    r.audit.map(|a| a.queued_procs as i64),
                    r.audit.map(|a| a.conservative.delayed),
                    r.audit.map(|a| a.easy.delayed),
                    r.audit.map(|a| a.conservative.advanced),
                    r.audit.map(|a| a.easy.advanced),
                ])
                .map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }
}
