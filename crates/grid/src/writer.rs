//! Writing a Grid run's requests, sub-reservations and clusters (its run and
//! jobs go with the single-cluster writer, in the same transaction).

use crate::tables::GridOutput;
use crate::tables::{
    CLUSTER_RUNS, CORESERVATIONS, ClusterRunRow, GRID_POINTS, GridPointRow, RequestRowOf, SUBRESERVATIONS,
    SubreservationRow,
};
use slasim_core::store::columns::{insert, insert_all};
use slasim_single::tables::run::RunRow;

pub(crate) fn write_grid(tx: &rusqlite::Connection, run: &RunRow, g: &GridOutput) -> rusqlite::Result<()> {
    let run_id = run.run_id;
    insert(tx, &GRID_POINTS, &GridPointRow { run, grid: g })?;
    let requests = g.requests.iter().map(|request| RequestRowOf {
        run_id,
        algorithm: &g.algorithm,
        clusters: g.clusters,
        request,
    });
    insert_all(tx, &CORESERVATIONS, requests)?;
    let parts: Vec<SubreservationRow> = g
        .requests
        .iter()
        .filter_map(|row| Some((&row.record, row.record.start?)))
        .flat_map(|(r, start)| {
            r.placement.iter().enumerate().map(move |(k, &(cluster, cpus))| SubreservationRow {
                run_id,
                request: r.request.id,
                part: k as u32,
                cluster,
                cpus,
                start,
                end: start + r.request.duration,
            })
        })
        .collect();
    insert_all(tx, &SUBRESERVATIONS, parts.into_iter())?;
    insert_all(tx, &CLUSTER_RUNS, g.clusters_rows.iter().map(|cluster| ClusterRunRow { run_id, cluster }))
}
