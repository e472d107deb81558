//! Writing a single-cluster run (and the job rows of a Grid run).

use rusqlite::params;

use super::{BATTERY_COLUMNS, OUTCOME_COLUMNS, insert_batched};
use crate::cluster::record::{JobRecord, Outcome};
use crate::policy::calibrator::CalibratedRun;
use crate::store::columns::{self, PointRow};
use crate::store::{RunOutput, Store, StoreError, sqlite};
use crate::workload::failures::NodeEventKind;
use crate::workload::job::Job;

impl Store {
    /// Stores one run — its `runs` row, its jobs (their battery's attributes
    /// the first time), node events, energy and `points` row — in one transaction.
    pub fn write_run(&mut self, out: &RunOutput) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let r = &out.run;
        let tx = self.conn.transaction().map_err(&err)?;
        tx.execute(
            "INSERT INTO runs (run_id, strategy, battery, battery_key, trace, seed, capacity, config, config_hash, \
             code_version, started_at, finished_at, wall_seconds) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                r.run_id,
                r.strategy,
                r.battery,
                r.battery_key,
                r.trace,
                r.seed as i64,
                r.capacity,
                r.config,
                r.config_hash,
                r.code_version,
                r.started_at,
                r.finished_at,
                r.wall_seconds
            ],
        )
        .map_err(&err)?;
        let new_battery = !self.batteries.contains(&r.battery_key)
            && !tx
                .query_row("SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?1)", [r.battery_key], |x| {
                    x.get::<_, bool>(0)
                })
                .map_err(&err)?;
        // The battery's jobs come first (ids 0..n); reservations follow.
        let (jobs, records) = (out.records.recorded_jobs(), &out.records.records[..]);
        let variable = jobs.iter().take_while(|j| !j.reservation).count();
        let ((jobs, reservations), (records, reservation_records)) =
            (jobs.split_at(variable), records.split_at(variable));
        if new_battery {
            write_battery_jobs(&tx, &self.battery_sql, r.battery_key, jobs).map_err(&err)?;
        }
        let clusters = out.grid.as_ref().map(|g| g.job_clusters.as_slice());
        let calibrated = out.calibrated.as_ref();
        write_outcomes(&tx, &self.outcome_sql, r.run_id, jobs, records, clusters, calibrated).map_err(&err)?;
        if let Some(g) = &out.grid {
            super::grid::write_grid(&tx, r, g).map_err(&err)?;
        }
        write_reservations(&tx, r.run_id, reservations, reservation_records).map_err(&err)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO node_events (run_id, seq, time, node, kind, job) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(&err)?;
            for (seq, e) in out.node_events.iter().enumerate() {
                let kind = match e.kind {
                    NodeEventKind::Fail => "fail",
                    NodeEventKind::Repair => "repair",
                };
                insert.execute(params![r.run_id, seq as i64, e.time, e.node, kind, e.job]).map_err(&err)?;
            }
        }
        if let Some((watts, e)) = &out.energy {
            tx.execute(
                "INSERT INTO energy (run_id, cluster, idle_watts, busy_watts, down_watts, idle_node_seconds, \
                 busy_node_seconds, down_node_seconds, joules) VALUES (?1, 0, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    r.run_id,
                    watts.idle_watts,
                    watts.busy_watts,
                    watts.down_watts,
                    e.idle_node_seconds,
                    e.busy_node_seconds,
                    e.down_node_seconds,
                    e.joules
                ],
            )
            .map_err(&err)?;
        }
        if let Some((axes, summary)) = &out.point {
            let row = PointRow { run: r, axes, summary };
            tx.prepare_cached(&columns::insert_sql())
                .and_then(|mut st| st.execute(rusqlite::params_from_iter(columns::values(&row))))
                .map_err(&err)?;
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
        let stored = tx
            .query_row("SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?1)", [battery_key], |x| {
                x.get::<_, bool>(0)
            })
            .map_err(&err)?;
        if !stored {
            write_battery_jobs(&tx, &self.battery_sql, battery_key, jobs).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        self.batteries.insert(battery_key);
        Ok(!stored)
    }
}

fn write_battery_jobs(tx: &rusqlite::Transaction<'_>, sql: &str, key: i64, jobs: &[Job]) -> rusqlite::Result<()> {
    insert_batched(tx, "battery_jobs", BATTERY_COLUMNS, sql, jobs, |s, i, j| {
        s.raw_bind_parameter(i, key)?;
        s.raw_bind_parameter(i + 1, j.id)?;
        s.raw_bind_parameter(i + 2, j.swf_id)?;
        s.raw_bind_parameter(i + 3, j.occurrence)?;
        s.raw_bind_parameter(i + 4, j.release)?;
        s.raw_bind_parameter(i + 5, j.deadline)?;
        s.raw_bind_parameter(i + 6, j.estimate)?;
        s.raw_bind_parameter(i + 7, j.runtime)?;
        s.raw_bind_parameter(i + 8, j.nodes)?;
        s.raw_bind_parameter(i + 9, j.user)?;
        s.raw_bind_parameter(i + 10, j.application)?;
        s.raw_bind_parameter(i + 11, j.queue)
    })
}

fn write_outcomes(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    run_id: i64,
    jobs: &[Job],
    records: &[JobRecord],
    clusters: Option<&[u32]>,
    calibrated: Option<&CalibratedRun>,
) -> rusqlite::Result<()> {
    let cluster_of = |job: u32| clusters.and_then(|c| c.get(job as usize)).copied().unwrap_or(0);
    insert_batched(tx, "job_outcomes", OUTCOME_COLUMNS, sql, records, |s, i, r| {
        let job = &jobs[r.job as usize];
        s.raw_bind_parameter(i, run_id)?;
        s.raw_bind_parameter(i + 1, r.job)?;
        s.raw_bind_parameter(i + 2, r.accepted)?;
        s.raw_bind_parameter(i + 3, r.planned_start)?;
        s.raw_bind_parameter(i + 4, r.planned_end)?;
        s.raw_bind_parameter(i + 5, r.actual_start)?;
        s.raw_bind_parameter(i + 6, r.actual_end)?;
        s.raw_bind_parameter(i + 7, r.overbooked)?;
        s.raw_bind_parameter(i + 8, r.pof)?;
        s.raw_bind_parameter(i + 9, r.outcome.map_or(2, Outcome::code))?;
        s.raw_bind_parameter(i + 10, r.fee(job))?;
        s.raw_bind_parameter(i + 11, r.penalty(job))?;
        s.raw_bind_parameter(i + 12, r.restarts)?;
        s.raw_bind_parameter(i + 13, r.executed)?;
        s.raw_bind_parameter(i + 14, r.moves)?;
        s.raw_bind_parameter(i + 15, r.pinned)?;
        s.raw_bind_parameter(i + 16, r.checkpoints)?;
        s.raw_bind_parameter(i + 17, cluster_of(r.job))?;
        s.raw_bind_parameter(i + 18, calibrated.and_then(|c| c.pof(r.job)))
    })
}

fn write_reservations(
    tx: &rusqlite::Transaction<'_>,
    run_id: i64,
    jobs: &[Job],
    records: &[JobRecord],
) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO reservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    for (j, r) in jobs.iter().zip(records) {
        insert.execute(params![
            run_id,
            j.id,
            j.swf_id,
            j.occurrence,
            j.release,
            j.nodes,
            j.estimate,
            j.runtime,
            r.accepted,
            r.reject_reason.map(|x| x.as_str()),
            r.actual_start,
            r.actual_end,
            r.outcome.unwrap_or(Outcome::Failed).as_str(),
            r.fee(j),
            r.penalty(j)
        ])?;
    }
    Ok(())
}
