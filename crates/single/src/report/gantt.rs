//! The single-cluster runs' Gantt charts, and the bands any kind built on
//! the cluster draws its runs with.
//!
//! Contract:
//! - [`SingleClusterGantt`] draws a stored single-cluster run (a `runs` row
//!   with a `points` row): the store keeps no node lists, so the run is
//!   simulated again from its stored settings
//!   ([`crate::point::simulate_with_executions`], the
//!   path `slasim run --out` takes) and its executions drawn; its node
//!   failures are those of that simulation. A run of another kind (a Grid
//!   run has a `runs` row but no `points` row) is not its: `None`.
//! - A re-simulated run must agree with the stored outcomes (outcome,
//!   actual start and end of every job), else it is an error naming the
//!   build that stored it ([`check_agrees`]).
//! - [`cluster_band`], [`add_power`] and [`power_curve`] turn one cluster's
//!   records, executions, node events and power states into a band; the
//!   Grid draws each of its clusters with them.

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension, params};

use crate::cluster::ExecutionRecord;
use crate::cluster::energy::EnergyConfig;
use crate::cluster::power::{PowerEventRecord, PowerState};
use crate::cluster::record::{JobRecord, NodeEventRecord, Outcome, RunRecords};
use crate::point::{SinglePoint, simulate_with_executions};
use crate::workload::failures::NodeEventKind;
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::provenance::code_version;
use slasim_core::report::gantt::layout::{BandSource, Item, Mark, Outage, OutageKind, PowerCurve, Source};
use slasim_core::report::gantt::source::{GanttSource, trace_name};
use slasim_core::units::Time;

/// The Gantt charts of single-cluster runs.
pub struct SingleClusterGantt;

impl GanttSource for SingleClusterGantt {
    fn name(&self) -> &'static str {
        "single-cluster"
    }

    fn source(&self, db: &Path, run: i64) -> anyhow::Result<Option<Source>> {
        // Its runs are those with a `points` row: a Grid run is a run too.
        if !slasim_core::store::has_table(db, "runs")? || !slasim_core::store::has_table(db, "points")? {
            return Ok(None);
        }
        let conn = slasim_core::store::open_read_only(db)?;
        let found: Option<(String, String, i64, String, String, i64)> = conn
            .query_row(
                "SELECT r.config, r.code_version, r.capacity, r.strategy, r.trace, r.battery \
                 FROM runs r JOIN points p ON p.run_id = r.run_id WHERE r.run_id = ?",
                [run],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )
            .optional()?;
        let Some((config, stored_by, capacity, strategy, trace, battery)) = found else { return Ok(None) };
        let capacity = u32::try_from(capacity).with_context(|| format!("run {run}: capacity {capacity}"))?;
        single_source(
            &conn,
            run,
            &config,
            &stored_by,
            capacity,
            &format!("{strategy} on {}, battery {battery}", trace_name(&trace)),
        )
        .map(Some)
    }
}

/// The band of one cluster: its executions, coloured by outcome, and its
/// node outages. `records` are by job id, as the executions number them.
pub fn cluster_band(
    label: String,
    capacity: u32,
    records: &RunRecords,
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
        let Some((job, r)) = records.get(e.job) else { continue };
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
            swf_id: job.swf_id,
            start: e.start,
            end: e.end,
            nodes,
            mark,
            overbooked: is_last && r.overbooked,
            planned_start: r.planned_start.filter(|_| is_last),
            planned_end: r.planned_end.filter(|_| is_last),
            link: None,
            cpus: 0,
            provision: None,
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
                    outages.push(Outage { node, from, to: e.time, kind: OutageKind::Down });
                }
            }
        }
    }
    outages.extend(down.into_iter().map(|(node, from)| Outage {
        node,
        from,
        to: end_of_run.max(from + 1),
        kind: OutageKind::Down,
    }));
    outages.sort_by_key(|o| (o.from, o.node));
    BandSource { label, nodes: capacity, row_names: Vec::new(), items, outages, lanes: Vec::new(), power: None }
}

fn power_kind(state: PowerState) -> Option<OutageKind> {
    match state {
        PowerState::On => None,
        PowerState::SwitchingOff => Some(OutageKind::SwitchingOff),
        PowerState::Asleep => Some(OutageKind::Asleep),
        PowerState::SwitchingOn => Some(OutageKind::SwitchingOn),
    }
}

/// Adds a run's node power states to its band: each node's spans switching
/// off, asleep and switching on (from `power`, the transitions as applied;
/// a span still open at the end lasts to the run's last event), and the
/// watts the cluster draws over time under `model`: a node down draws its
/// down watts, one running an execution its busy watts, any other its power
/// state's (on: idle).
pub fn add_power(
    band: &mut BandSource,
    model: &EnergyConfig,
    executions: &[ExecutionRecord],
    events: &[NodeEventRecord],
    power: &[PowerEventRecord],
) {
    let end_of_run = executions
        .iter()
        .map(|e| e.end)
        .chain(events.iter().map(|e| e.time))
        .chain(power.iter().map(|p| p.time))
        .max()
        .unwrap_or(0);
    // Spans per node, from its transitions in the order applied.
    let mut open: Vec<Option<(Time, OutageKind)>> = vec![None; band.nodes as usize];
    let mut spans = Vec::new();
    for p in power {
        let Some(slot) = open.get_mut(p.node as usize) else { continue };
        if let Some((from, kind)) = slot.take() {
            if p.time > from {
                spans.push(Outage { node: p.node, from, to: p.time, kind });
            }
        }
        *slot = power_kind(p.state).map(|k| (p.time, k));
    }
    for (node, slot) in open.into_iter().enumerate() {
        if let Some((from, kind)) = slot.filter(|s| end_of_run > s.0) {
            spans.push(Outage { node: node as u32, from, to: end_of_run, kind });
        }
    }
    band.outages.extend(spans);
    band.outages.sort_by_key(|o| (o.from, o.node, o.kind as u8));
    band.power = Some(power_curve(band.nodes, model, executions, events, power));
}

/// The watts `capacity` nodes draw over time (see [`add_power`]).
pub fn power_curve(
    capacity: u32,
    model: &EnergyConfig,
    executions: &[ExecutionRecord],
    events: &[NodeEventRecord],
    power: &[PowerEventRecord],
) -> PowerCurve {
    // Changes: (time, node, what): 0 busy +1, 1 busy −1, 2 fail, 3 repair, 4.. a power state.
    let mut changes: Vec<(Time, u32, u8)> = Vec::new();
    for e in executions.iter().filter(|e| e.end > e.start) {
        for &n in &e.nodes {
            changes.push((e.start, n, 0));
            changes.push((e.end, n, 1));
        }
    }
    for e in events {
        changes.push((e.time, e.node, if e.kind == NodeEventKind::Fail { 2 } else { 3 }));
    }
    for p in power {
        let code = match p.state {
            PowerState::On => 4,
            PowerState::SwitchingOff => 5,
            PowerState::Asleep => 6,
            PowerState::SwitchingOn => 7,
        };
        changes.push((p.time, p.node, code));
    }
    // Stable: at one instant, changes apply in the order the run made them.
    changes.sort_by_key(|c| c.0);
    // Watts per category: idle, busy, down, switching off, asleep, switching on.
    let watts = model.state_watts();
    let n = capacity as usize;
    let (mut busy, mut down, mut state) = (vec![0u32; n], vec![false; n], vec![4u8; n]);
    let category = |busy: u32, down: bool, state: u8| -> usize {
        if down {
            2
        } else if busy > 0 {
            1
        } else {
            match state {
                5 => 3,
                6 => 4,
                7 => 5,
                _ => 0,
            }
        }
    };
    let mut counts = [0i64; 6];
    counts[0] = i64::from(capacity);
    let total = |counts: &[i64; 6]| counts.iter().zip(&watts).map(|(c, w)| *c as f64 * w).sum::<f64>();
    let first = changes.first().map_or(0, |c| c.0.min(0));
    let mut steps = vec![(first, total(&counts))];
    for group in changes.chunk_by(|a, b| a.0 == b.0) {
        for &(_, node, what) in group {
            let i = node as usize;
            if i >= n {
                continue;
            }
            counts[category(busy[i], down[i], state[i])] -= 1;
            match what {
                0 => busy[i] += 1,
                1 => busy[i] = busy[i].saturating_sub(1),
                2 => down[i] = true,
                3 => down[i] = false,
                code => state[i] = code,
            }
            counts[category(busy[i], down[i], state[i])] += 1;
        }
        let now = total(&counts);
        let t = group[0].0;
        match steps.last_mut() {
            Some(last) if last.0 == t => last.1 = now,
            Some(last) if last.1 == now => {}
            _ => steps.push((t, now)),
        }
    }
    PowerCurve { steps, cap: model.cap_watts }
}

/// A job's stored outcome code, actual start and actual end.
type StoredOutcome = (i64, Option<Time>, Option<Time>);

/// Stored outcomes of a run's jobs on one cluster, by job.
fn stored_outcomes(conn: &Connection, run: i64, cluster: u32) -> anyhow::Result<Vec<StoredOutcome>> {
    let mut stmt = conn.prepare(
        "SELECT outcome, actual_start, actual_end FROM job_outcomes WHERE run_id = ? AND cluster = ? ORDER BY job",
    )?;
    let rows = stmt.query_map(params![run, cluster], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The re-simulated records of `cluster` agree with the ones stored for
/// run `run`, or an error naming the build that stored it.
pub fn check_agrees(
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
            return differ(format!("job {}: stored {s:?}, simulated {now:?}", r.job));
        }
    }
    Ok(())
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
        Inputs::load(&[Point::new(point.clone())]).with_context(|| format!("run {run}: loading its workload"))?;
    let simulated =
        simulate_with_executions(&inputs, &point).with_context(|| format!("run {run}: simulating it again"))?;
    let cluster = &simulated.cluster;
    check_agrees(conn, run, 0, &cluster.records.records, stored_by)?;
    let mut band = cluster_band(
        format!("{capacity} nodes"),
        capacity,
        &cluster.records,
        &cluster.executions,
        &cluster.node_events,
    );
    if let Some(model) = &point.energy {
        add_power(&mut band, model, &cluster.executions, &cluster.node_events, &cluster.power_events);
    }
    Ok(Source { title: format!("run {run}: {what}"), bands: vec![band] })
}
