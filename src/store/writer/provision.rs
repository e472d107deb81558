//! Writing a provisioning point (MOGA or greedy against best effort) or a
//! site's slot statistics.

use rusqlite::params;

use crate::experiment::kinds::provision::run::{SiteSummary, SubmissionOutcome};
use crate::experiment::kinds::provision::slots::SlotStatistics;
use crate::store::{Store, StoreError, sqlite};

/// The `provision_points` row of a point.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionPointRow {
    /// Stable id from the resolved settings.
    pub point_id: i64,
    /// 'run', 'slots' or 'price'.
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
    /// Pricing points: share (%), α and pricing policy.
    pub pricing: Option<(f64, f64, &'static str)>,
}

/// What a provisioning point stores.
#[derive(Debug, Clone)]
pub enum ProvisionOutput {
    /// A workflow provisioned at every submission, against best effort.
    Run {
        /// Its `provision_points` row.
        row: ProvisionPointRow,
        /// Each site's load figures and target utilisation.
        sites: Vec<(SiteSummary, Option<f64>)>,
        /// One row per submission and α.
        rows: Vec<SubmissionOutcome>,
    },
    /// A site's advertised-slot statistics.
    Slots {
        /// Its `provision_points` row.
        row: ProvisionPointRow,
        /// The site's target utilisation.
        load: Option<f64>,
        /// The statistics.
        stats: Box<SlotStatistics>,
    },
}

impl ProvisionOutput {
    /// Its `provision_points` row.
    pub fn row(&self) -> &ProvisionPointRow {
        match self {
            ProvisionOutput::Run { row, .. } | ProvisionOutput::Slots { row, .. } => row,
        }
    }
}

impl Store {
    /// Writes a provisioning point in one transaction.
    pub fn write_provision(&mut self, out: &ProvisionOutput) -> Result<(), StoreError> {
        match out {
            ProvisionOutput::Run { row, sites, rows } => self.write_provision_run(row, sites, rows),
            ProvisionOutput::Slots { row, load, stats } => self.write_slot_statistics(row, *load, stats),
        }
    }

    /// Writes a MOGA-vs-best-effort point in one transaction.
    fn write_provision_run(
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

    /// Writes a slot-statistics point in one transaction.
    fn write_slot_statistics(
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

pub(crate) fn insert_point(tx: &rusqlite::Transaction<'_>, p: &ProvisionPointRow) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM provision_submissions WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM provision_sites WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM slot_samples WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM advertised_slots WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM priced_reservations WHERE point_id = ?1", [p.point_id])?;
    tx.execute("DELETE FROM pricing_harm WHERE point_id = ?1", [p.point_id])?;
    tx.execute(
        "INSERT OR REPLACE INTO provision_points (point_id, kind, experiment, workflow, workflow_tasks, task_processors, \
         sites, traces, target_load, exact_estimates, seed, submissions, config, code_version, wall_seconds, method, \
         share, alpha, pricing_policy) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
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
            p.pricing.map(|x| x.0),
            p.pricing.map(|x| x.1),
            p.pricing.map(|x| x.2),
        ],
    )?;
    Ok(())
}

pub(crate) fn insert_sites(
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
