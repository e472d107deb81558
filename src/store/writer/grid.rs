//! Writing a Grid run's requests, sub-reservations and clusters (its jobs
//! go with [`super::single`]).

use rusqlite::params;

use crate::store::{GridOutput, RunRow};

pub(crate) fn write_grid(tx: &rusqlite::Transaction<'_>, run: &RunRow, g: &GridOutput) -> rusqlite::Result<()> {
    let s = &g.summary;
    tx.execute(
        "INSERT INTO grid_points VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
         ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33)",
        params![
            run.run_id,
            g.algorithm,
            g.clusters,
            g.request_workload,
            g.minsize,
            g.starts,
            g.local_scheduler,
            g.start_weight,
            run.trace,
            run.seed as i64,
            g.t_stop,
            s.requests,
            s.granted,
            s.failure_rate,
            s.messages_mean,
            s.reservation_messages_mean,
            s.messages_max,
            s.efficiency_mean,
            s.unfairness_mean,
            s.rel_start_mean,
            s.rel_start_grid_mean,
            s.cost_mean,
            s.rel_cost_mean,
            s.day_share,
            s.night_share,
            s.off_peak_share,
            s.first_weekend_rel_start_mean,
            s.first_weekend_rel_cost_mean,
            s.utilisation_mean,
            s.wait_max,
            s.wait_top10,
            s.expansion_factor,
            run.wall_seconds
        ],
    )?;
    let mut request = tx.prepare_cached(
        "INSERT INTO coreservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
         ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)",
    )?;
    let mut part = tx.prepare_cached("INSERT INTO subreservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for row in &g.requests {
        let (r, m) = (&row.record, &row.metrics);
        let q = &r.request;
        let cpus = q.sorted_parts().iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        request.execute(params![
            run.run_id,
            q.id,
            g.algorithm,
            g.clusters,
            q.template,
            q.submit,
            q.earliest_start,
            q.deadline,
            q.duration,
            q.parts.len() as u32,
            cpus,
            q.start_weight,
            if r.granted() { "granted" } else { "rejected" },
            r.start,
            r.counters.attempts,
            r.counters.failures,
            r.counters.rollbacks,
            r.status_messages,
            r.messages(),
            r.tree.variants() as i64,
            r.max_messages as i64,
            m.efficiency,
            m.unfairness,
            m.rel_start,
            m.rel_start_grid,
            m.cost,
            m.rel_cost,
            m.first_weekend
        ])?;
        if let Some(start) = r.start {
            for (k, &(cluster, cpus)) in r.placement.iter().enumerate() {
                part.execute(params![run.run_id, q.id, k as u32, cluster, cpus, start, start + q.duration])?;
            }
        }
    }
    let mut cluster = tx.prepare_cached(
        "INSERT INTO cluster_runs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
         ?18)",
    )?;
    for c in &g.clusters_rows {
        let m = &c.metrics;
        cluster.execute(params![
            run.run_id,
            c.cluster,
            c.window,
            c.window_offset,
            c.raw_jobs,
            m.jobs as u32,
            c.wc_acc,
            m.utilisation(),
            m.job_utilisation,
            m.reservation_utilisation,
            m.expansion_factor,
            m.wait_max,
            m.wait_top10,
            m.backlog_time,
            m.filtering_degree,
            m.infeasibility_rate,
            m.subreservations as u32,
            m.first_weekend_subreservations as u32
        ])?;
    }
    Ok(())
}
