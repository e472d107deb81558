//! Writing a provisioning point (MOGA or greedy against best effort) or a
//! site's slot statistics.

use crate::experiment::kinds::provision::run::SubmissionOutcome;
use crate::experiment::kinds::provision::slots::SlotStatistics;
use crate::provision::outcome::SiteSummary;
use crate::store::columns::{insert, insert_all};
use crate::store::tables::provision::{
    ADVERTISED_SLOTS, AdvertisedRow, PROVISION_POINTS, PROVISION_SITES, PROVISION_SUBMISSIONS, SLOT_SAMPLES, SiteRow,
    SlotSampleRow, SubmissionRow,
};
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
        insert_sites(&tx, point.point_id, sites.iter().map(|(s, target)| (s, *target, None))).map_err(&err)?;
        let point_id = point.point_id;
        insert_all(&tx, &PROVISION_SUBMISSIONS, rows.iter().map(|outcome| SubmissionRow { point_id, outcome }))
            .map_err(&err)?;
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
        insert_sites(&tx, point.point_id, std::iter::once((&stats.site, target_load, None))).map_err(&err)?;
        let point_id = point.point_id;
        let samples =
            stats.samples.iter().map(|s| SlotSampleRow { point_id, time: s.time, slots: s.slots, tasks: s.tasks });
        insert_all(&tx, &SLOT_SAMPLES, samples).map_err(&err)?;
        let observed = stats.observed.iter().map(|(t, a)| AdvertisedRow {
            point_id,
            time: *t,
            start: a.start - t,
            duration: a.duration,
            procs: a.procs,
            edge: a.extensible,
        });
        insert_all(&tx, &ADVERTISED_SLOTS, observed).map_err(&err)?;
        tx.commit().map_err(&err)
    }
}

/// The tables holding a point's rows besides `provision_points`, cleared
/// before it is written again.
const POINT_TABLES: [&str; 6] = [
    "provision_submissions",
    "provision_sites",
    "slot_samples",
    "advertised_slots",
    "priced_reservations",
    "pricing_harm",
];

pub(crate) fn insert_point(tx: &rusqlite::Transaction<'_>, p: &ProvisionPointRow) -> rusqlite::Result<()> {
    for table in POINT_TABLES {
        tx.prepare_cached(&format!("DELETE FROM {table} WHERE point_id = ?"))?.execute([p.point_id])?;
    }
    insert(tx, &PROVISION_POINTS, &p)
}

/// Inserts a point's sites: (figures, target utilisation, best-effort wait) each.
pub(crate) fn insert_sites<'a>(
    tx: &rusqlite::Transaction<'_>,
    point_id: i64,
    sites: impl ExactSizeIterator<Item = (&'a SiteSummary, Option<f64>, Option<f64>)>,
) -> rusqlite::Result<()> {
    let rows = sites.enumerate().map(|(site, (summary, target_load, be_wait))| SiteRow {
        point_id,
        site,
        summary,
        target_load,
        be_wait,
    });
    insert_all(tx, &PROVISION_SITES, rows)
}
