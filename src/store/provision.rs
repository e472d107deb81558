//! Provisioning rows of the store: points, sites, submissions, slot statistics.
//!
//! Contract: a point is written in one transaction (its `provision_points`
//! row last-checked by [`Store::has_provision_point`] for resuming), with
//! cached prepared statements; a crash never leaves half a point behind.

use rusqlite::params;

use super::{Store, StoreError, sqlite};
use crate::provision::buyer::PricedRecord;
use crate::provision::experiment::{Harm, SiteSummary, SlotStatistics, SubmissionOutcome};

/// The `provision_points` row of a point.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionPointRow {
    /// Stable id from the resolved settings.
    pub point_id: i64,
    /// 'run' or 'slots'.
    pub kind: &'static str,
    /// The config's name.
    pub experiment: Option<String>,
    /// Workflow name.
    pub workflow: Option<String>,
    /// Tasks.
    pub workflow_tasks: Option<usize>,
    /// Mean processors per task.
    pub task_processors: Option<f64>,
    /// Site count.
    pub sites: usize,
    /// Traces in site order.
    pub traces: String,
    /// Site 0's target load.
    pub target_load: Option<f64>,
    /// Exact estimates.
    pub exact_estimates: bool,
    /// Seed.
    pub seed: u64,
    /// Submissions.
    pub submissions: Option<usize>,
    /// Resolved settings.
    pub config: String,
    /// Code version.
    pub code_version: String,
    /// Wall-clock seconds (informational).
    pub wall_seconds: f64,
    /// Run points: 'moga', 'greedy' or 'greedy-easy'.
    pub method: Option<&'static str>,
}

impl Store {
    /// True if the provisioning point is stored.
    pub fn has_provision_point(&self, point_id: i64) -> Result<bool, StoreError> {
        self.conn
            .query_row("SELECT EXISTS (SELECT 1 FROM provision_points WHERE point_id = ?1)", [point_id], |r| r.get(0))
            .map_err(sqlite(&self.path))
    }

    /// Writes a MOGA-vs-best-effort point in one transaction.
    pub fn write_provision_run(
        &mut self,
        point: &ProvisionPointRow,
        sites: &[(SiteSummary, Option<f64>)],
        rows: &[SubmissionOutcome],
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        insert_point(&tx, point).map_err(&err)?;
        insert_sites(&tx, point.point_id, sites).map_err(&err)?;
        {
            let mut st = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO provision_submissions VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                )
                .map_err(&err)?;
            for r in rows {
                let makespan_ratio = match (r.makespan, r.be_makespan) {
                    (Some(m), Some(b)) if b > 0 => Some(m as f64 / b as f64),
                    _ => None,
                };
                let cost_ratio = r.cost.filter(|_| r.be_cost > 0.0).map(|c| c / r.be_cost);
                st.execute(params![
                    point.point_id,
                    r.submission as i64,
                    r.time,
                    r.alpha,
                    r.makespan,
                    r.cost,
                    r.enacted_makespan,
                    r.be_makespan,
                    r.be_cost,
                    makespan_ratio,
                    cost_ratio,
                    r.archive as i64,
                    r.slots as i64,
                    r.fallback,
                    r.f,
                ])
                .map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }

    /// Writes a pricing point in one transaction.
    pub fn write_pricing(
        &mut self,
        point: &ProvisionPointRow,
        site: (&SiteSummary, Option<f64>),
        be_wait: Option<f64>,
        alpha: f64,
        records: &[PricedRecord],
        harm: &Harm,
    ) -> Result<(), StoreError> {
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

    /// Writes a slot-statistics point in one transaction.
    pub fn write_slot_statistics(
        &mut self,
        point: &ProvisionPointRow,
        target_load: Option<f64>,
        stats: &SlotStatistics,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        insert_point(&tx, point).map_err(&err)?;
        insert_sites(&tx, point.point_id, &[(stats.site.clone(), target_load)]).map_err(&err)?;
        {
            let mut st = tx.prepare_cached("INSERT INTO slot_samples VALUES (?1, ?2, ?3, ?4)").map_err(&err)?;
            for s in &stats.samples {
                st.execute(params![point.point_id, s.time, s.slots, s.tasks]).map_err(&err)?;
            }
            let mut st =
                tx.prepare_cached("INSERT INTO advertised_slots VALUES (?1, ?2, ?3, ?4, ?5, ?6)").map_err(&err)?;
            for (t, a) in &stats.observed {
                st.execute(params![point.point_id, t, a.start - t, a.duration, a.procs, a.extensible]).map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }
}

fn insert_point(tx: &rusqlite::Transaction<'_>, p: &ProvisionPointRow) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM provision_submissions WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM provision_sites WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM slot_samples WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM advertised_slots WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM priced_reservations WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM pricing_harm WHERE point_id = ?1", [p.point_id])?;
    tx.execute(
        "INSERT OR REPLACE INTO provision_points VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            p.point_id,
            p.kind,
            p.experiment,
            p.workflow,
            p.workflow_tasks.map(|n| n as i64),
            p.task_processors,
            p.sites as i64,
            p.traces,
            p.target_load,
            p.exact_estimates,
            p.seed as i64,
            p.submissions.map(|n| n as i64),
            p.config,
            p.code_version,
            p.wall_seconds,
            p.method,
        ],
    )?;
    Ok(())
}

fn insert_sites(
    tx: &rusqlite::Transaction<'_>,
    point_id: i64,
    sites: &[(SiteSummary, Option<f64>)],
) -> rusqlite::Result<()> {
    let mut st = tx.prepare_cached("INSERT INTO provision_sites VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL)")?;
    for (i, (s, target)) in sites.iter().enumerate() {
        st.execute(params![
            point_id,
            i as i64,
            s.trace,
            s.capacity,
            s.jobs as i64,
            target,
            s.copy_probability,
            s.offered,
            s.achieved,
        ])?;
    }
    Ok(())
}
