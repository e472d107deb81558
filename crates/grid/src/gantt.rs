//! A Grid run's Gantt chart: the store keeps no node lists, so the run is
//! simulated again from its stored settings ([`run_grid_point`]), one band
//! per cluster, with the stored sub-reservations in lanes above each
//! cluster's nodes, the parts of one request linked.
//!
//! Contract: the run simulated again must agree with the stored one (every
//! job's outcome, actual start and end), else it is an error naming the
//! build that stored it. A report draws the first Grid run it keeps (its
//! section chooses it).

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension};

use crate::kind::{GridPoint, grid_log, run_grid_point};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::point::Point;
use slasim_core::report::gantt::layout::{Item, Mark, Source};
use slasim_core::report::gantt::source::{GanttSource, trace_name};
use slasim_core::store::has_table;
use slasim_core::units::Time;
use slasim_single::cluster::record::RunRecords;
use slasim_single::report::gantt::{check_agrees, cluster_band};

/// The Gantt charts of Grid runs.
pub struct GridGantt;

impl GanttSource for GridGantt {
    fn name(&self) -> &'static str {
        "grid"
    }

    fn source(&self, db: &Path, run: i64) -> anyhow::Result<Option<Source>> {
        if !has_table(db, "grid_points")? {
            return Ok(None);
        }
        let conn = slasim_core::store::open_read_only(db)?;
        let found: Option<(String, String, String)> = conn
            .query_row(
                "SELECT r.config, r.code_version, r.trace FROM runs r JOIN grid_points g ON g.run_id = r.run_id \
                 WHERE r.run_id = ?",
                [run],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let Some((config, stored_by, trace)) = found else { return Ok(None) };
        grid_source(&conn, run, &config, &stored_by, trace_name(&trace)).map(Some)
    }
}

fn grid_source(conn: &Connection, run: i64, config: &str, stored_by: &str, trace: &str) -> anyhow::Result<Source> {
    let point: GridPoint =
        toml::from_str(config).with_context(|| format!("run {run}: its stored settings do not parse"))?;
    let inputs =
        Inputs::load(&[Point::new(point.clone())]).with_context(|| format!("run {run}: loading its workload"))?;
    let log = grid_log(&inputs, &point)?;
    let simulated = run_grid_point(&log, &point.grid, point.strategy, point.seed)
        .with_context(|| format!("run {run}: simulating it again"))?;
    let mut bands = Vec::with_capacity(simulated.executions.len());
    for (c, executions) in simulated.executions.iter().enumerate() {
        let c = c as u32;
        let (mut jobs, mut records) = (Vec::new(), Vec::new());
        for ((job, r), _) in simulated.records.iter().zip(&simulated.output.job_clusters).filter(|(_, k)| **k == c) {
            jobs.push(*job);
            records.push(r.clone());
        }
        // Records are numbered across clusters; the executions per cluster.
        let base = records.first().map_or(0, |r| r.job);
        for job in &mut jobs {
            job.id -= base;
        }
        for r in &mut records {
            r.job -= base;
        }
        let local = RunRecords { jobs: jobs.into(), records };
        check_agrees(conn, run, c, &local.records, stored_by)?;
        bands.push(cluster_band(format!("cluster {c}"), point.grid.capacity, &local, executions, &[]));
    }
    let mut stmt = conn.prepare(
        "SELECT request, part, cluster, cpus, start, \"end\" FROM subreservations WHERE run_id = ? \
         ORDER BY request, part",
    )?;
    let parts = stmt.query_map([run], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?, r.get(4)?, r.get(5)?))
    })?;
    for part in parts {
        let (request, part, cluster, cpus, start, end): (i64, i64, i64, i64, Time, Time) = part?;
        let Some(band) = usize::try_from(cluster).ok().and_then(|c| bands.get_mut(c)) else {
            bail!("run {run}: a sub-reservation on cluster {cluster}, which the run does not have");
        };
        let request = u32::try_from(request).with_context(|| format!("run {run}: request {request}"))?;
        band.lanes.push(Item {
            job: request,
            swf_id: part,
            start,
            end,
            nodes: Vec::new(),
            mark: Mark::Reserved,
            overbooked: false,
            planned_start: None,
            planned_end: None,
            link: Some(request),
            cpus: u32::try_from(cpus).unwrap_or(0),
            provision: None,
        });
    }
    for band in &mut bands {
        band.lanes.sort_by_key(|i| (i.start, i.job, i.swf_id));
    }
    Ok(Source {
        title: format!(
            "Grid run {run}: {} on {} clusters of {trace}, local scheduler {}",
            point.grid.algorithm, point.grid.clusters, point.strategy
        ),
        bands,
    })
}
