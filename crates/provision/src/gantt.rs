//! A provisioning point's Gantt chart: the store keeps no placements, so the
//! point is run again from its stored settings ([`run_point_reserved`]); one
//! band per α and site holds every submission's reserved slots (outlined, on
//! CPU rows: a site counts processors, so each slot gets the lowest CPUs free
//! over its span) and each task on CPUs of the slots it took processors
//! from. Background jobs are not drawn (the sites keep no CPU identities).
//!
//! Contract: the point simulated again must agree with the stored one (every
//! submission's instant and planned, enacted and best-effort makespans),
//! else it is an error naming the build that stored it. A slot-statistics or
//! pricing point runs no workflow: asking for its chart is an error. A
//! report draws the first provisioning run (its section chooses it).

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension};

use crate::kind::provision::point::ProvisionPoint;
use crate::kind::provision::run::{ReservedRun, run_point_reserved};
use slasim_core::experiment::provenance::code_version;
use slasim_core::report::gantt::layout::{BandSource, Item, Mark, Source};
use slasim_core::report::gantt::source::{GanttSource, trace_name};
use slasim_core::store::has_table;
use slasim_core::units::Time;

/// The Gantt charts of provisioning points.
pub struct ProvisionGantt;

impl GanttSource for ProvisionGantt {
    fn name(&self) -> &'static str {
        "provision"
    }

    fn source(&self, db: &Path, point: i64) -> anyhow::Result<Option<Source>> {
        if !has_table(db, "provision_points")? {
            return Ok(None);
        }
        let conn = slasim_core::store::open_read_only(db)?;
        type Row = (String, Option<String>, Option<String>, String, String, String);
        let found: Option<Row> = conn
            .query_row(
                "SELECT kind, method, workflow, traces, config, code_version FROM provision_points WHERE point_id = ?",
                [point],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )
            .optional()?;
        let Some((kind, method, workflow, traces, config, stored_by)) = found else { return Ok(None) };
        if kind != "run" {
            bail!("point {point} is a provisioning '{kind}' point: it runs no workflow, so it has no Gantt chart");
        }
        let traces: Vec<&str> = traces.split(',').map(trace_name).collect();
        provision_source(
            &conn,
            point,
            &config,
            &stored_by,
            method.as_deref().unwrap_or("moga"),
            workflow.as_deref(),
            &traces.join(", "),
        )
        .map(Some)
    }
}

/// A stored provisioning row: submission, instant, α, planned, enacted and
/// best-effort makespans.
type StoredSubmission = (i64, Time, f64, Option<Time>, Option<Time>, Option<Time>);

/// Provisioning point `point`: simulated again from its stored settings, one
/// band per α and site with the reserved slots and the tasks in them.
fn provision_source(
    conn: &Connection,
    point: i64,
    config: &str,
    stored_by: &str,
    method: &str,
    workflow: Option<&str>,
    traces: &str,
) -> anyhow::Result<Source> {
    let settings: ProvisionPoint =
        toml::from_str(config).with_context(|| format!("point {point}: its stored settings do not parse"))?;
    let budget = std::sync::Arc::new(slasim_core::threads::Budget::serial());
    let (outcome, runs) =
        run_point_reserved(&settings, &budget).with_context(|| format!("point {point}: simulating it again"))?;
    let mut stmt = conn.prepare(
        "SELECT submission, submit_time, alpha, makespan, enacted_makespan, be_makespan FROM provision_submissions \
         WHERE point_id = ? ORDER BY alpha, submission",
    )?;
    let stored: Vec<StoredSubmission> = stmt
        .query_map([point], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?
        .collect::<Result<_, _>>()?;
    let mut simulated: Vec<StoredSubmission> = outcome
        .rows
        .iter()
        .filter(|r| !r.alpha.is_nan())
        .map(|r| (r.submission as i64, r.time, r.alpha, r.makespan, r.enacted_makespan, r.be_makespan))
        .collect();
    simulated.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
    let differ = |what: String| -> anyhow::Result<()> {
        bail!(
            "point {point} was stored by another build of slasim ({stored_by}); this build ({}) provisions it \
             differently ({what}), so its reserved slots cannot be recovered: run it again with this build to draw it",
            code_version()
        )
    };
    if stored.len() != simulated.len() {
        differ(format!("{} submission rows stored, {} simulated", stored.len(), simulated.len()))?;
    }
    for (s, now) in stored.iter().zip(&simulated) {
        if s != now {
            differ(format!(
                "submission {} at α = {}: stored (instant, makespan, enacted, best effort) {:?}, simulated {:?}",
                s.0,
                s.2,
                (s.1, s.3, s.4, s.5),
                (now.1, now.3, now.4, now.5)
            ))?;
        }
    }
    let mut alphas: Vec<f64> = Vec::new();
    for run in &runs {
        if !alphas.contains(&run.alpha) {
            alphas.push(run.alpha);
        }
    }
    alphas.sort_by(f64::total_cmp);
    let mut bands = Vec::new();
    for &alpha in &alphas {
        let mine: Vec<&ReservedRun> = runs.iter().filter(|r| r.alpha == alpha).collect();
        for (site, summary) in outcome.sites.iter().enumerate() {
            let mut band = provision_band(&mine, site as u32, summary.capacity);
            if band.items.is_empty() {
                continue;
            }
            band.label = format!("α = {alpha} · site {site}");
            bands.push(band);
        }
    }
    Ok(Source {
        title: format!(
            "provisioning point {point}: {method}, workflow {} on {traces}; reserved slots and the tasks in them",
            workflow.unwrap_or("?")
        ),
        bands,
    })
}

/// The lowest `count` CPUs of `candidates` (ascending) that are free from `at`
/// (by `busy`) and not in `taken`.
fn free_cpus(candidates: &[u32], count: u32, at: Time, busy: &[Time], taken: &[u32]) -> Vec<u32> {
    candidates
        .iter()
        .copied()
        .filter(|&c| busy.get(c as usize).is_none_or(|&b| b <= at) && !taken.contains(&c))
        .take(count as usize)
        .collect()
}

/// A drawn slot: its pool, start, end and CPU rows.
type DrawnSlot = (u32, Time, Time, Vec<u32>);

/// The band of one site for one α: every submission's reserved slots on
/// CPU rows (lowest free CPUs, in one block where one is free; more rows than
/// the site has only where plans of different submissions overlap in time),
/// and each task on CPUs of the slots it took processors from.
fn provision_band(runs: &[&ReservedRun], site: u32, capacity: u32) -> BandSource {
    let mut items = Vec::new();
    // Slots, by start: each takes CPUs free at its start.
    let mut slots: Vec<(usize, usize)> = runs
        .iter()
        .enumerate()
        .flat_map(|(r, run)| run.slots.iter().enumerate().filter(|s| s.1.site == site).map(move |(k, _)| (r, k)))
        .collect();
    slots.sort_by_key(|&(r, k)| (runs[r].slots[k].start, runs[r].submission, k));
    let mut busy: Vec<Time> = vec![Time::MIN; capacity as usize];
    // Per run: (pool, start, end, CPUs) of its slots.
    let mut pools: Vec<Vec<DrawnSlot>> = vec![Vec::new(); runs.len()];
    for (r, k) in slots {
        let run = runs[r];
        let slot = run.slots[k];
        let free: Vec<u32> = (0..busy.len() as u32).filter(|&c| busy[c as usize] <= slot.start).collect();
        let block = free.windows(slot.procs.max(1) as usize).find(|w| w[w.len() - 1] - w[0] + 1 == slot.procs);
        let mut cpus: Vec<u32> = match block {
            Some(w) => w.to_vec(),
            None => free.into_iter().take(slot.procs as usize).collect(),
        };
        while cpus.len() < slot.procs as usize {
            cpus.push(busy.len() as u32);
            busy.push(Time::MIN);
        }
        for &c in &cpus {
            busy[c as usize] = slot.end.max(slot.start);
        }
        pools[r].push((slot.pool, slot.start, slot.end, cpus.clone()));
        items.push(Item {
            job: run.submission as u32,
            swf_id: k as i64,
            start: slot.start,
            end: slot.end,
            nodes: cpus,
            mark: Mark::Slot,
            overbooked: false,
            planned_start: None,
            planned_end: None,
            link: None,
            cpus: slot.procs,
            provision: Some((run.submission as u32, run.alpha)),
        });
    }
    // Tasks, by start: each takes, from every pool it used, CPUs of that
    // pool's slots spanning it that no earlier task still holds.
    let mut held: Vec<Time> = vec![Time::MIN; busy.len()];
    for (r, run) in runs.iter().enumerate() {
        let mut tasks: Vec<&crate::kind::provision::run::PlacedTask> =
            run.tasks.iter().filter(|t| t.placement.site == site).collect();
        tasks.sort_by_key(|t| (t.placement.start, t.placement.task));
        for t in tasks {
            let p = t.placement;
            let mut cpus: Vec<u32> = Vec::with_capacity(t.procs as usize);
            let spanning = |pool: Option<u32>| -> Vec<u32> {
                let mut c: Vec<u32> = pools[r]
                    .iter()
                    .filter(|s| pool.is_none_or(|x| x == s.0) && s.1 <= p.start && s.2 >= p.end)
                    .flat_map(|s| s.3.iter().copied())
                    .collect();
                c.sort_unstable();
                c.dedup();
                c
            };
            for &(pool, count) in &t.from {
                let got = free_cpus(&spanning(Some(pool)), count, p.start, &held, &cpus);
                cpus.extend(got);
            }
            if t.from.is_empty() {
                let got = free_cpus(&spanning(None), t.procs, p.start, &held, &cpus);
                cpus.extend(got);
            }
            // What the slots cannot hold (never, for a consistent plan) goes on free rows.
            let want = if t.from.is_empty() { t.procs } else { t.from.iter().map(|f| f.1).sum() };
            if (cpus.len() as u32) < want {
                let all: Vec<u32> = (0..held.len() as u32).collect();
                let got = free_cpus(&all, want - cpus.len() as u32, p.start, &held, &cpus);
                cpus.extend(got);
            }
            while (cpus.len() as u32) < want {
                cpus.push(held.len() as u32);
                held.push(Time::MIN);
            }
            for &c in &cpus {
                held[c as usize] = p.end.max(p.start);
            }
            cpus.sort_unstable();
            items.push(Item {
                job: p.task,
                swf_id: run.submission as i64,
                start: p.start,
                end: p.end,
                nodes: cpus,
                mark: Mark::Task,
                overbooked: false,
                planned_start: None,
                planned_end: None,
                link: None,
                cpus: t.procs,
                provision: Some((run.submission as u32, run.alpha)),
            });
        }
    }
    BandSource {
        label: String::new(),
        nodes: held.len().max(busy.len()) as u32,
        row_names: Vec::new(),
        items,
        outages: Vec::new(),
        lanes: Vec::new(),
        power: None,
    }
}
