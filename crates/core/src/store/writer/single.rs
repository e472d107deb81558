//! Writing a single-cluster run (and the run rows of a kind that stores its
//! points as runs, as the Grid does).

use crate::cluster::record::JobRecord;
use crate::policy::calibrator::CalibratedRun;
use crate::store::columns::{insert, insert_all};
use crate::store::tables::points::{POINTS, PointRow};
use crate::store::tables::run::{
    BATTERY_JOBS, BatteryJobRow, ENERGY, ENERGY_STATES, EnergyRow, JOB_OUTCOMES, JobRow, NODE_EVENTS, NodeEventRow,
    RESERVATIONS, RUNS, energy_state_rows,
};
use crate::store::{RunOutput, Store, StoreError, sqlite};
use crate::workload::job::Job;

/// Whether a battery's jobs are stored (its key bound as the one parameter).
const BATTERY_STORED: &str = "SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?)";

impl Store {
    /// Stores one run — its `runs` row, its jobs (their battery's attributes
    /// the first time), node events, energy and `points` row — in one transaction.
    pub fn write_run(&mut self, out: &RunOutput) -> Result<(), StoreError> {
        self.write_run_with(out, None, |_| Ok(()))
    }

    /// [`Store::write_run`] for a kind that stores its points as runs with
    /// rows of its own: each job's cluster (`job_clusters`, by job id; else
    /// 0), and `more` rows written in the same transaction, after the jobs.
    pub fn write_run_with(
        &mut self,
        out: &RunOutput,
        job_clusters: Option<&[u32]>,
        more: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let r = &out.run;
        let tx = self.conn.transaction().map_err(&err)?;
        insert(&tx, &RUNS, &r).map_err(&err)?;
        let new_battery = !self.batteries.contains(&r.battery_key)
            && !tx.query_row(BATTERY_STORED, [r.battery_key], |x| x.get::<_, bool>(0)).map_err(&err)?;
        // The battery's jobs come first (ids 0..n); reservations follow.
        let (jobs, records) = (out.records.recorded_jobs(), &out.records.records[..]);
        let variable = jobs.iter().take_while(|j| !j.reservation).count();
        let ((jobs, reservations), (records, reservation_records)) =
            (jobs.split_at(variable), records.split_at(variable));
        if new_battery {
            write_battery_jobs(&tx, r.battery_key, jobs).map_err(&err)?;
        }
        write_outcomes(&tx, r.run_id, jobs, records, job_clusters, out.calibrated.as_ref()).map_err(&err)?;
        more(&tx).map_err(&err)?;
        let reservations = reservations.iter().zip(reservation_records).map(|(job, record)| JobRow {
            run_id: r.run_id,
            job,
            record,
            cluster: 0,
            pof_calibrated: None,
        });
        insert_all(&tx, &RESERVATIONS, reservations).map_err(&err)?;
        let events =
            out.node_events.iter().enumerate().map(|(seq, event)| NodeEventRow { run_id: r.run_id, seq, event });
        insert_all(&tx, &NODE_EVENTS, events).map_err(&err)?;
        if let Some((watts, energy)) = &out.energy {
            insert(&tx, &ENERGY, &EnergyRow { run_id: r.run_id, cluster: 0, watts, energy }).map_err(&err)?;
            insert_all(&tx, &ENERGY_STATES, energy_state_rows(r.run_id, 0, watts, energy).into_iter()).map_err(&err)?;
        }
        if let Some((axes, summary)) = &out.point {
            insert(&tx, &POINTS, &PointRow { run: r, axes, summary }).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        self.batteries.insert(r.battery_key);
        Ok(())
    }

    /// Stores a battery's jobs (ids 0..n, no reservations) in a transaction
    /// of their own unless they are stored already; true if written now.
    /// The writer calls it while the battery is simulated: the rows are the
    /// ones [`Store::write_run`] would write, and being the run's inputs, not
    /// its results, they may commit before it (a crash leaves at most a
    /// battery no run refers to yet, which the resumed run then reuses).
    pub fn write_battery(&mut self, battery_key: i64, jobs: &[Job]) -> Result<bool, StoreError> {
        if self.batteries.contains(&battery_key) {
            return Ok(false);
        }
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        let stored = tx.query_row(BATTERY_STORED, [battery_key], |x| x.get::<_, bool>(0)).map_err(&err)?;
        if !stored {
            write_battery_jobs(&tx, battery_key, jobs).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        self.batteries.insert(battery_key);
        Ok(!stored)
    }
}

fn write_battery_jobs(tx: &rusqlite::Transaction<'_>, battery_key: i64, jobs: &[Job]) -> rusqlite::Result<()> {
    insert_all(tx, &BATTERY_JOBS, jobs.iter().map(|job| BatteryJobRow { battery_key, job }))
}

fn write_outcomes(
    tx: &rusqlite::Transaction<'_>,
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
