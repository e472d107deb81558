//! Writing a single-cluster run (and the run rows of a kind that stores its
//! points as runs, as the Grid does), and reading its summary back.
//!
//! Contract: [`write_run`] stores one run in one transaction through the
//! descriptors of [`crate::tables::run`] and
//! [`crate::tables::points`]; a battery's jobs are written once per
//! store, by the first run of it or by [`write_battery`] while it is
//! simulated. The store's own code knows none of these types: they reach it
//! through [`Store::write_with`], [`Store::read`] and [`Store::kept`].

use std::collections::HashSet;

use crate::cluster::carbon::{JobCarbon, RunCarbon};
use crate::cluster::energy::{Energy, EnergyConfig};
use crate::cluster::record::{JobRecord, NodeEventRecord, RunRecords};
use crate::policy::calibrator::CalibratedRun;
use crate::policy::shifting::ShiftingConfig;
use crate::summary::RunSummary;
use crate::tables::carbon::{JOB_CARBON, JobCarbonRow, RUN_CARBON, RUN_SHIFTING, RunCarbonRow, RunShiftingRow};
use crate::tables::points::{POINTS, PointAxes, PointRow};
use crate::tables::run::{
    BATTERY_JOBS, BatteryJobRow, ENERGY, ENERGY_STATES, EnergyRow, JOB_OUTCOMES, JobRow, NODE_EVENTS, NodeEventRow,
    RESERVATIONS, RUNS, RunRow, energy_state_rows,
};
use crate::workload::job::Job;
use slasim_core::store::columns::{insert, insert_all, read_back};
use slasim_core::store::{Store, StoreError};

/// A run with its outcomes.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// The `runs` row.
    pub run: RunRow,
    /// Its jobs and the record of each.
    pub records: RunRecords,
    /// The calibrator's report of a run that calibrated its PoF online
    /// (the calibrated PoF of each job).
    pub calibrated: Option<CalibratedRun>,
    /// Node failures and repairs.
    pub node_events: Vec<NodeEventRecord>,
    /// The point's axes and aggregates, for `points`.
    pub point: Option<(PointAxes, RunSummary)>,
    /// Its energy meter's watts and reading, if it had one.
    pub energy: Option<(EnergyConfig, Energy)>,
    /// Its energy, emissions and cost by the hour, with `[signals]`.
    pub carbon: Option<(RunCarbon, Vec<JobCarbon>)>,
    /// Its shifting settings, with a shifting policy.
    pub shifting: Option<ShiftingConfig>,
    /// Store a row per job (`job_outcomes`, `reservations`, `job_carbon`).
    pub store_jobs: bool,
}

/// Battery keys whose jobs a store is known to hold.
#[derive(Default)]
struct StoredBatteries(HashSet<i64>);

/// Whether a battery's jobs are stored (its key bound as the one parameter).
const BATTERY_STORED: &str = "SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?)";

/// Stores one run (its `runs` row, its jobs with their battery's attributes
/// the first time, node events, energy and `points` row) in one transaction.
pub fn write_run(store: &mut Store, out: &RunOutput) -> Result<(), StoreError> {
    write_run_with(store, out, None, |_| Ok(()))
}

/// [`write_run`] for a kind that stores its points as runs with rows of its
/// own: each job's cluster (`job_clusters`, by job id; else 0), and `more`
/// rows written in the same transaction, after the jobs.
pub fn write_run_with(
    store: &mut Store,
    out: &RunOutput,
    job_clusters: Option<&[u32]>,
    more: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<()>,
) -> Result<(), StoreError> {
    let r = &out.run;
    let known = store.kept::<StoredBatteries>().0.contains(&r.battery_key);
    store.write_with(|tx| {
        insert(tx, &RUNS, &r)?;
        let new_battery = !known && !tx.query_row(BATTERY_STORED, [r.battery_key], |x| x.get::<_, bool>(0))?;
        // The battery's jobs come first (ids 0..n); reservations follow.
        let (jobs, records) = (out.records.recorded_jobs(), &out.records.records[..]);
        let variable = jobs.iter().take_while(|j| !j.reservation).count();
        let ((jobs, reservations), (records, reservation_records)) =
            (jobs.split_at(variable), records.split_at(variable));
        if new_battery {
            write_battery_jobs(tx, r.battery_key, jobs)?;
        }
        if out.store_jobs {
            write_outcomes(tx, r.run_id, jobs, records, job_clusters, out.calibrated.as_ref())?;
        }
        more(tx)?;
        let reservations = reservations.iter().zip(reservation_records).map(|(job, record)| JobRow {
            run_id: r.run_id,
            job,
            record,
            cluster: 0,
            pof_calibrated: None,
        });
        if out.store_jobs {
            insert_all(tx, &RESERVATIONS, reservations)?;
        }
        let events =
            out.node_events.iter().enumerate().map(|(seq, event)| NodeEventRow { run_id: r.run_id, seq, event });
        insert_all(tx, &NODE_EVENTS, events)?;
        if let Some((watts, energy)) = &out.energy {
            insert(tx, &ENERGY, &EnergyRow { run_id: r.run_id, cluster: 0, watts, energy })?;
            insert_all(tx, &ENERGY_STATES, energy_state_rows(r.run_id, 0, watts, energy).into_iter())?;
        }
        if let Some((run, jobs)) = &out.carbon {
            insert(tx, &RUN_CARBON, &RunCarbonRow { run_id: r.run_id, cluster: 0, carbon: run })?;
            if out.store_jobs {
                insert_all(tx, &JOB_CARBON, jobs.iter().map(|job| JobCarbonRow { run_id: r.run_id, job }))?;
            }
        }
        if let Some(shifting) = &out.shifting {
            insert(tx, &RUN_SHIFTING, &RunShiftingRow { run_id: r.run_id, shifting })?;
        }
        if let Some((axes, summary)) = &out.point {
            insert(tx, &POINTS, &PointRow { run: r, axes, summary })?;
        }
        Ok(())
    })?;
    store.kept::<StoredBatteries>().0.insert(r.battery_key);
    Ok(())
}

/// Stores a battery's jobs (ids 0..n, no reservations) in a transaction of
/// their own unless they are stored already; true if written now. The
/// writer calls it while the battery is simulated: the rows are the ones
/// [`write_run`] would write, and being the run's inputs, not its results,
/// they may commit before it (a crash leaves at most a battery no run refers
/// to yet, which the resumed run then reuses).
pub fn write_battery(store: &mut Store, battery_key: i64, jobs: &[Job]) -> Result<bool, StoreError> {
    if store.kept::<StoredBatteries>().0.contains(&battery_key) {
        return Ok(false);
    }
    let mut written = false;
    store.write_with(|tx| {
        let stored = tx.query_row(BATTERY_STORED, [battery_key], |x| x.get::<_, bool>(0))?;
        if !stored {
            write_battery_jobs(tx, battery_key, jobs)?;
        }
        written = !stored;
        Ok(())
    })?;
    store.kept::<StoredBatteries>().0.insert(battery_key);
    Ok(written)
}

/// A stored single-cluster run's summary, from its `points` row.
pub fn stored_summary(store: &Store, run_id: i64) -> Result<RunSummary, StoreError> {
    store.read(|conn| read_back(conn, &POINTS, run_id)?.ok_or(rusqlite::Error::QueryReturnedNoRows))
}

fn write_battery_jobs(tx: &rusqlite::Connection, battery_key: i64, jobs: &[Job]) -> rusqlite::Result<()> {
    insert_all(tx, &BATTERY_JOBS, jobs.iter().map(|job| BatteryJobRow { battery_key, job }))
}

fn write_outcomes(
    tx: &rusqlite::Connection,
    run_id: i64,
    jobs: &[Job],
    records: &[JobRecord],
    clusters: Option<&[u32]>,
    calibrated: Option<&CalibratedRun>,
) -> rusqlite::Result<()> {
    let cluster_of = |job: u32| clusters.and_then(|c| c.get(job as usize)).copied().unwrap_or(0);
    let rows = records.iter().map(|record| JobRow {
        run_id,
        job: &jobs[record.job as usize],
        record,
        cluster: cluster_of(record.job),
        pof_calibrated: calibrated.and_then(|c| c.pof(record.job)),
    });
    insert_all(tx, &JOB_OUTCOMES, rows)
}
