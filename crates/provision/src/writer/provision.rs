//! Writing a provisioning point (MOGA or greedy against best effort) or a
//! site's slot statistics.

use crate::outcome::SiteSummary;
use crate::outcome::{SlotStatistics, SubmissionOutcome};
use crate::tables::provision::{
    ADVERTISED_SLOTS, AdvertisedRow, PROVISION_POINTS, PROVISION_SITES, PROVISION_SUBMISSIONS, ProvisionPointRow,
    SLOT_SAMPLES, SiteRow, SlotSampleRow, SubmissionRow,
};
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};

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

/// Writes a provisioning point in one transaction.
pub fn write_provision(store: &mut Store, out: &ProvisionOutput) -> Result<(), StoreError> {
    store.write_with(|tx| match out {
        ProvisionOutput::Run { row, sites, rows } => write_provision_run(tx, row, sites, rows),
        ProvisionOutput::Slots { row, load, stats } => write_slot_statistics(tx, row, *load, stats),
    })
}

/// A MOGA-vs-best-effort point's rows.
fn write_provision_run(
    tx: &rusqlite::Connection,
    point: &ProvisionPointRow,
    sites: &[(SiteSummary, Option<f64>)],
    rows: &[SubmissionOutcome],
) -> rusqlite::Result<()> {
    insert_point(tx, point)?;
    insert_sites(tx, point.point_id, sites.iter().map(|(s, target)| (s, *target, None)))?;
    let point_id = point.point_id;
    insert_all(tx, &PROVISION_SUBMISSIONS, rows.iter().map(|outcome| SubmissionRow { point_id, outcome }))
}

/// A slot-statistics point's rows.
fn write_slot_statistics(
    tx: &rusqlite::Connection,
    point: &ProvisionPointRow,
    target_load: Option<f64>,
    stats: &SlotStatistics,
) -> rusqlite::Result<()> {
    insert_point(tx, point)?;
    insert_sites(tx, point.point_id, std::iter::once((&stats.site, target_load, None)))?;
    let point_id = point.point_id;
    let samples =
        stats.samples.iter().map(|s| SlotSampleRow { point_id, time: s.time, slots: s.slots, tasks: s.tasks });
    insert_all(tx, &SLOT_SAMPLES, samples)?;
    let observed = stats.observed.iter().map(|(t, a)| AdvertisedRow {
        point_id,
        time: *t,
        start: a.start - t,
        duration: a.duration,
        procs: a.procs,
        edge: a.extensible,
    });
    insert_all(tx, &ADVERTISED_SLOTS, observed)
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

pub(crate) fn insert_point(tx: &rusqlite::Connection, p: &ProvisionPointRow) -> rusqlite::Result<()> {
    for table in POINT_TABLES {
        tx.prepare_cached(&format!("DELETE FROM {table} WHERE point_id = ?"))?.execute([p.point_id])?;
    }
    insert(tx, &PROVISION_POINTS, &p)
}

/// Inserts a point's sites: (figures, target utilisation, best-effort wait) each.
pub(crate) fn insert_sites<'a>(
    tx: &rusqlite::Connection,
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
