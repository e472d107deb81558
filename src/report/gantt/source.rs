//! Source adapters: what a stored run of each kind draws, as a [`Source`].
//!
//! Contract:
//! - Single-cluster runs: the store keeps no node lists, so the run is
//!   simulated again from its stored settings
//!   ([`crate::experiment::kinds::single::simulate_with_executions`], the
//!   path `slasim run --out` takes) and its executions drawn; its node
//!   failures are those of that simulation. Grid runs: the same through
//!   [`run_grid_point`], one band per cluster, with the stored
//!   sub-reservations in lanes above each cluster's nodes, the parts of one
//!   request linked. Provisioning runs: what the store keeps, per α one band
//!   with each submission's provisioned run and its best-effort run (task
//!   placements are not stored).
//! - A re-simulated run must agree with the stored outcomes (outcome,
//!   actual start and end of every job), else it is an error naming the
//!   build that stored it.
//! - An unknown id is an error naming it.

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension, params};

use crate::experiment::inputs::{Inputs, code_version};
use crate::experiment::kinds::grid::{GridPoint, run_grid_point};
use crate::experiment::kinds::single::{SinglePoint, simulate_with_executions};
use crate::experiment::point::Point;
use crate::report::gantt::layout::{BandSource, Item, Mark, Outage, Source};
use crate::cluster::ExecutionRecord;
use crate::cluster::record::{JobRecord, NodeEventRecord, Outcome};
use crate::units::Time;
use crate::workload::failures::NodeEventKind;

/// The band of one cluster: its executions, coloured by outcome, and its
/// node outages. `records` are by job id, as the executions number them.
pub fn cluster_band(
    label: String,
    capacity: u32,
    records: &[JobRecord],
    executions: &[ExecutionRecord],
    events: &[NodeEventRecord],
) -> BandSource {
    // The last execution of each job, and executions a failure ended.
    let mut last: Vec<Option<usize>> = vec![None; records.len()];
    for (i, e) in executions.iter().enumerate() {
        if let Some(slot) = last.get_mut(e.job as usize) {
            match slot {
                Some(prev) if executions[*prev].start > e.start => {}
                _ => *slot = Some(i),
            }
        }
    }
    let mut hit: Vec<(u32, Time)> =
        events.iter().filter(|e| e.kind == NodeEventKind::Fail).filter_map(|e| e.job.map(|j| (j, e.time))).collect();
    hit.sort_unstable();
    let mut items = Vec::with_capacity(executions.len());
    let mut end_of_run: Time = 0;
    for (i, e) in executions.iter().enumerate() {
        let Some(r) = records.get(e.job as usize) else { continue };
        end_of_run = end_of_run.max(e.end);
        let is_last = last[e.job as usize] == Some(i);
        let mark = match (is_last, r.outcome) {
            (_, Some(Outcome::Rejected)) => continue,
            (false, _) => Mark::Interrupted,
            (true, Some(Outcome::Success)) => Mark::Success,
            (true, _) if hit.binary_search(&(e.job, e.end)).is_ok() => Mark::Failed,
            (true, _) => Mark::Killed,
        };
        let mut nodes = e.nodes.clone();
        nodes.sort_unstable();
        items.push(Item {
            job: e.job,
            swf_id: r.job.swf_id,
            start: e.start,
            end: e.end,
            nodes,
            mark,
            overbooked: is_last && r.overbooked,
            planned_start: r.planned_start.filter(|_| is_last),
            planned_end: r.planned_end.filter(|_| is_last),
            link: None,
            cpus: 0,
        });
    }
    // Failure–repair pairs per node; an unrepaired node is down to the end.
    let mut down: Vec<(u32, Time)> = Vec::new();
    let mut outages = Vec::new();
    for e in events {
        end_of_run = end_of_run.max(e.time);
        match e.kind {
            NodeEventKind::Fail => down.push((e.node, e.time)),
            NodeEventKind::Repair => {
                if let Some(k) = down.iter().position(|d| d.0 == e.node) {
                    let (node, from) = down.swap_remove(k);
                    outages.push(Outage { node, from, to: e.time });
                }
            }
        }
    }
    outages.extend(down.into_iter().map(|(node, from)| Outage { node, from, to: end_of_run.max(from + 1) }));
    outages.sort_by_key(|o| (o.from, o.node));
    BandSource { label, nodes: capacity, row_names: Vec::new(), items, outages, lanes: Vec::new() }
}

/// A job's stored outcome code, actual start and actual end.
type StoredOutcome = (i64, Option<Time>, Option<Time>);

/// Stored outcomes of a run's jobs on one cluster, by job.
fn stored_outcomes(conn: &Connection, run: i64, cluster: u32) -> anyhow::Result<Vec<StoredOutcome>> {
    let mut stmt = conn.prepare(
        "SELECT outcome, actual_start, actual_end FROM job_outcomes WHERE run_id = ?1 AND cluster = ?2 ORDER BY job",
    )?;
    let rows = stmt.query_map(params![run, cluster], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The re-simulated records agree with the stored ones, or an error.
fn check_agrees(
    conn: &Connection,
    run: i64,
    cluster: u32,
    records: &[JobRecord],
    stored_by: &str,
) -> anyhow::Result<()> {
    let stored = stored_outcomes(conn, run, cluster)?;
    let differ = |what: String| -> anyhow::Result<()> {
        bail!(
            "run {run} was stored by another build of slasim ({stored_by}); this build ({}) simulates it \
             differently ({what}), so its executions cannot be recovered: run it again with this build to draw it",
            code_version()
        )
    };
    if stored.len() != records.len() {
        return differ(format!("{} jobs stored, {} simulated", stored.len(), records.len()));
    }
    for (r, s) in records.iter().zip(&stored) {
        let now = (r.outcome.map_or(0, Outcome::code), r.actual_start, r.actual_end);
        if now != *s {
            return differ(format!("job {}: stored {s:?}, simulated {now:?}", r.job.id));
        }
    }
    Ok(())
}

/// A trace's file name (the store keeps its path).
fn trace_name(trace: &str) -> &str {
    trace.rsplit(['/', '\\']).next().unwrap_or(trace)
}

/// The source of stored run (or provisioning point) `run`.
pub fn for_run(db: &Path, run: i64) -> anyhow::Result<Source> {
    let conn = crate::store::open_read_only(db)?;
    let found: Option<(String, String, i64, String, String, i64)> = if crate::store::has_table(db, "runs")? {
        conn.query_row(
            "SELECT config, code_version, capacity, strategy, trace, battery FROM runs WHERE run_id = ?1",
            [run],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .optional()?
    } else {
        None
    };
    if let Some((config, stored_by, capacity, strategy, trace, battery)) = found {
        let grid = crate::store::has_table(db, "grid_points")?
            && conn.query_row("SELECT 1 FROM grid_points WHERE run_id = ?1", [run], |_| Ok(())).optional()?.is_some();
        return if grid {
            grid_source(&conn, run, &config, &stored_by, trace_name(&trace))
        } else {
            let capacity = u32::try_from(capacity).with_context(|| format!("run {run}: capacity {capacity}"))?;
            single_source(
                &conn,
                run,
                &config,
                &stored_by,
                capacity,
                &format!("{strategy} on {}, battery {battery}", trace_name(&trace)),
            )
        };
    }
    if crate::store::has_table(db, "provision_points")? {
        let point: Option<(String, Option<String>, Option<String>, String)> = conn
            .query_row("SELECT kind, method, workflow, traces FROM provision_points WHERE point_id = ?1", [run], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()?;
        if let Some((kind, method, workflow, traces)) = point {
            if kind != "run" {
                bail!("point {run} is a provisioning '{kind}' point: it runs no workflow, so it has no Gantt chart");
            }
            let traces: Vec<&str> = traces.split(',').map(trace_name).collect();
            return provision_source(
                &conn,
                run,
                method.as_deref().unwrap_or("moga"),
                workflow.as_deref(),
                &traces.join(", "),
            );
        }
    }
    bail!(
        "run {run} is not in {}: `slasim query --db {} \"SELECT run_id, strategy, trace FROM runs\"` lists its runs",
        db.display(),
        db.display()
    )
}

fn single_source(
    conn: &Connection,
    run: i64,
    config: &str,
    stored_by: &str,
    capacity: u32,
    what: &str,
) -> anyhow::Result<Source> {
    let point: SinglePoint =
        toml::from_str(config).with_context(|| format!("run {run}: its stored settings do not parse"))?;
    let inputs =
        Inputs::load(&[Point::Single(point.clone())]).with_context(|| format!("run {run}: loading its workload"))?;
    let simulated =
        simulate_with_executions(&inputs, &point).with_context(|| format!("run {run}: simulating it again"))?;
    let cluster = &simulated.cluster;
    check_agrees(conn, run, 0, &cluster.records, stored_by)?;
    let band = cluster_band(
        format!("{capacity} nodes"),
        capacity,
        &cluster.records,
        &cluster.executions,
        &cluster.node_events,
    );
    Ok(Source { title: format!("run {run}: {what}"), bands: vec![band] })
}

fn grid_source(conn: &Connection, run: i64, config: &str, stored_by: &str, trace: &str) -> anyhow::Result<Source> {
    let point: GridPoint =
        toml::from_str(config).with_context(|| format!("run {run}: its stored settings do not parse"))?;
    let inputs =
        Inputs::load(&[Point::Grid(point.clone())]).with_context(|| format!("run {run}: loading its workload"))?;
    let log = inputs.grid_log(&point)?;
    let simulated = run_grid_point(log, &point.grid, &point.strategy, point.seed)
        .with_context(|| format!("run {run}: simulating it again"))?;
    let mut bands = Vec::with_capacity(simulated.executions.len());
    for (c, executions) in simulated.executions.iter().enumerate() {
        let c = c as u32;
        let mine: Vec<JobRecord> = simulated
            .jobs
            .iter()
            .zip(&simulated.output.job_clusters)
            .filter(|(_, cluster)| **cluster == c)
            .map(|(r, _)| r.clone())
            .collect();
        // Records are numbered across clusters; the executions per cluster.
        let base = mine.first().map_or(0, |r| r.job.id);
        let local: Vec<JobRecord> = mine
            .into_iter()
            .map(|mut r| {
                r.job.id -= base;
                r
            })
            .collect();
        check_agrees(conn, run, c, &local, stored_by)?;
        bands.push(cluster_band(format!("cluster {c}"), point.grid.capacity, &local, executions, &[]));
    }
    let mut stmt = conn.prepare(
        "SELECT request, part, cluster, cpus, start, \"end\" FROM subreservations WHERE run_id = ?1 \
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

fn provision_source(
    conn: &Connection,
    point: i64,
    method: &str,
    workflow: Option<&str>,
    traces: &str,
) -> anyhow::Result<Source> {
    let mut stmt = conn.prepare(
        "SELECT submission, submit_time, alpha, makespan, enacted_makespan, be_makespan FROM provision_submissions \
         WHERE point_id = ?1 ORDER BY alpha, submission",
    )?;
    let rows = stmt.query_map([point], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, Time>(1)?,
            r.get::<_, f64>(2)?,
            r.get::<_, Option<Time>>(3)?,
            r.get::<_, Option<Time>>(4)?,
            r.get::<_, Option<Time>>(5)?,
        ))
    })?;
    let mut bands: Vec<(f64, BandSource)> = Vec::new();
    for row in rows {
        let (submission, submit, alpha, planned, enacted, best_effort) = row?;
        if bands.last().is_none_or(|(a, _)| *a != alpha) {
            bands.push((
                alpha,
                BandSource {
                    label: format!("α = {alpha}"),
                    nodes: 2,
                    row_names: vec!["provisioned".into(), "best effort".into()],
                    ..BandSource::default()
                },
            ));
        }
        let Some((_, band)) = bands.last_mut() else { continue };
        let job = u32::try_from(submission).unwrap_or(u32::MAX);
        let item = |end: Time, row: u32, mark: Mark| Item {
            job,
            swf_id: submission,
            start: submit,
            end: submit + end,
            nodes: vec![row],
            mark,
            overbooked: false,
            planned_start: (row == 0).then_some(submit),
            planned_end: planned.filter(|_| row == 0).map(|p| submit + p),
            link: None,
            cpus: 0,
        };
        if let Some(end) = enacted.or(planned) {
            band.items.push(item(end, 0, Mark::Reserved));
        }
        if let Some(end) = best_effort {
            band.items.push(item(end, 1, Mark::BestEffort));
        }
    }
    Ok(Source {
        title: format!("provisioning point {point}: {method}, workflow {} on {traces}", workflow.unwrap_or("?")),
        bands: bands.into_iter().map(|(_, b)| b).collect(),
    })
}
