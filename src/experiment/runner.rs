//! Running points: prepare shared inputs once, simulate on worker threads,
//! hand finished runs to one writer.
//!
//! Contract:
//! - Workloads are loaded and prepared once per distinct (workload,
//!   preparation) pair, the LANL log once; workers only read them (`Arc`).
//! - Each point is one simulation on the worker's own single-threaded
//!   runtime; workers share nothing mutable but an atomic cursor into the
//!   point list, so there is no lock contention within a point.
//! - Finished runs go over a channel to the caller's thread, which is the only
//!   writer of the store; results are returned in point order.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Instant, SystemTime};

use anyhow::{Context, anyhow};
use chrono::DateTime;

use crate::experiment::point::Point;
use crate::policy::overbooking::AcceptanceKind;
use crate::policy::overbooking::Overbooking;
use crate::policy::{self, ReservationHandling, StrategySettings};
use crate::sim::bench::{Scenario, simulate};
use crate::sim::record::RunSummary;
use crate::stats::failure_law::FailureLaw;
use crate::stats::pdf::{LearnFrom, RuntimeModel};
use crate::stats::pos::Reliability;
use crate::store::{PointAxes, RunOutput, RunRow, Store};
use crate::units::Time;
use crate::units::per_hour_to_per_second;
use crate::workload::failures::{FailureSource, FailureStream, LANL_FILE, LanlLog, synthetic_stream};
use crate::workload::job::{Job, NO_DEADLINE};
use crate::workload::prepare::Prepared;
use crate::workload::trace_dir;

/// The code version stored with every run.
pub fn code_version() -> String {
    format!("slasim {} ({})", env!("CARGO_PKG_VERSION"), env!("SLASIM_GIT_COMMIT"))
}

/// Inputs shared by the points of one run of the runner.
#[derive(Default)]
pub struct Inputs {
    prepared: HashMap<String, Arc<Prepared>>,
    lanl: HashMap<std::path::PathBuf, Arc<LanlLog>>,
    models: HashMap<String, Arc<RuntimeModel>>,
}

fn model_key(p: &Point) -> String {
    format!("{}\n{}", prepared_key(p), toml::to_string(&p.overbooking.pdf).unwrap_or_default())
}

fn prepared_key(p: &Point) -> String {
    format!("{}\n{}", toml::to_string(&p.workload).unwrap_or_default(), toml::to_string(&p.prepare).unwrap_or_default())
}

impl Inputs {
    /// Loads everything `points` need.
    pub fn load(points: &[Point]) -> anyhow::Result<Inputs> {
        let mut inputs = Inputs::default();
        for p in points {
            if let Entry::Vacant(slot) = inputs.prepared.entry(prepared_key(p)) {
                let trace = p.workload.load()?;
                let prepared = p.prepare.prepare(&trace).with_context(|| format!("preparing {}", p.workload.name()))?;
                tracing::info!(
                    trace = %prepared.trace,
                    batteries = prepared.batteries.len(),
                    factor = prepared.occurrence_factor,
                    "workload prepared"
                );
                slot.insert(Arc::new(prepared));
            }
            p.overbooking.validate()?;
            p.reservations.validate()?;
            let reads = policy::strategy(&p.strategy)?.reads;
            if reads.overbooking && !inputs.models.contains_key(&model_key(p)) {
                let prepared = inputs.prepared(p)?;
                let input: Vec<_>;
                let jobs = match p.overbooking.pdf.learn_from {
                    LearnFrom::History => &prepared.history,
                    LearnFrom::Input => {
                        input = prepared.batteries.iter().flat_map(|b| b.jobs.iter().copied()).collect();
                        &input
                    }
                };
                let model = RuntimeModel::learn(jobs, &p.overbooking.pdf)
                    .with_context(|| format!("learning runtime statistics of {}", prepared.trace))?;
                for battery in &prepared.batteries {
                    model.check_jobs(&battery.jobs)?;
                }
                tracing::info!(classes = model.class_count(), source = %p.overbooking.pdf.source, "runtime statistics learned");
                inputs.models.insert(model_key(p), Arc::new(model));
            }
            if let FailureSource::Lanl { path, .. } = &p.failures {
                let path = path.clone().unwrap_or_else(|| trace_dir().join(LANL_FILE));
                if let Entry::Vacant(slot) = inputs.lanl.entry(path) {
                    let log = LanlLog::load(slot.key())?;
                    slot.insert(Arc::new(log));
                }
            }
        }
        Ok(inputs)
    }

    /// The prepared workload of a point.
    pub fn prepared(&self, p: &Point) -> anyhow::Result<&Arc<Prepared>> {
        self.prepared.get(&prepared_key(p)).ok_or_else(|| anyhow!("workload of point not loaded"))
    }

    /// The strategy settings of a point: reliability, and overbooking when read.
    pub fn strategy_settings(&self, p: &Point) -> anyhow::Result<StrategySettings> {
        let info = policy::strategy(&p.strategy)?;
        let lambda = per_hour_to_per_second(p.overbooking.lambda_per_hour);
        let mu = per_hour_to_per_second(p.overbooking.mu_per_hour);
        // The PoS assumes the failure law of the configured synthetic model,
        // else the Poisson model the dissertation uses.
        let law = match p.failures.laws()? {
            Some((up, _)) if !matches!(p.failures, FailureSource::Poisson { .. }) => up,
            _ => FailureLaw::exponential(lambda).map_err(|e| e.renamed("lambda_per_hour"))?,
        };
        let reliability = Reliability::new(1.0 / law.mean(), mu, law);
        let overbooking = if info.reads.overbooking {
            let model = self.models.get(&model_key(p)).ok_or_else(|| anyhow!("runtime statistics not learned"))?;
            Some(Arc::new(Overbooking::new(&p.overbooking, Arc::clone(model), info.security_factor)))
        } else {
            None
        };
        let reservations = ReservationHandling { option: p.reservations.option, guard: p.reservations.guard() };
        Ok(StrategySettings {
            placement: p.placement,
            reliability,
            overbooking,
            reservations,
            kill_at_estimate: p.classic.kill_at_estimate,
        })
    }

    fn failures(&self, p: &Point, capacity: u32, horizon: Time) -> anyhow::Result<FailureStream> {
        Ok(match &p.failures {
            FailureSource::None => FailureStream::none(capacity),
            FailureSource::Lanl { path, systems, offset_hours } => {
                let path = path.clone().unwrap_or_else(|| trace_dir().join(LANL_FILE));
                let log = self.lanl.get(&path).ok_or_else(|| anyhow!("LANL log not loaded"))?;
                log.replay(systems, *offset_hours, capacity, Some(horizon))?
            }
            synthetic => {
                let (up, repair) = synthetic.laws()?.ok_or_else(|| anyhow!("no failure laws"))?;
                synthetic_stream(&up, &repair, capacity, horizon, p.seed)
            }
        })
    }
}

/// What running one point produced.
#[derive(Debug, Clone)]
pub struct PointResult {
    /// Index in the point list.
    pub index: usize,
    /// The stored run id.
    pub run_id: i64,
    /// Aggregates.
    pub summary: RunSummary,
    /// Jobs the strategy left open (a bug if ever non-zero).
    pub unresolved: u32,
    /// Wall seconds of the simulation.
    pub wall_seconds: f64,
    /// Already in the store; not simulated again.
    pub skipped: bool,
}

fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    DateTime::from_timestamp(secs, 0).map_or_else(|| secs.to_string(), |d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// The `points` columns describing a point's settings.
pub fn axes(p: &Point) -> PointAxes {
    let info = policy::strategy(&p.strategy).ok();
    let (acceptance, security_factor) = match p.overbooking.acceptance {
        AcceptanceKind::Pof => ("pof", None),
        AcceptanceKind::Risk => {
            ("risk", Some(p.overbooking.security_factor.unwrap_or(info.map_or(1.0, |i| i.security_factor))))
        }
    };
    let failures = match &p.failures {
        FailureSource::None => "none",
        FailureSource::Lanl { .. } => "lanl",
        FailureSource::Poisson { .. } => "poisson",
        FailureSource::Weibull { .. } => "weibull",
        FailureSource::Hyperexp { .. } => "hyperexp",
    };
    PointAxes {
        placement: p.placement.name().to_string(),
        acceptance: acceptance.to_string(),
        pof_max: p.overbooking.pof_max,
        security_factor,
        penalty_ratio: p.prepare.penalty_ratio,
        pdf_source: p.overbooking.pdf.source.to_string(),
        failures: failures.to_string(),
        reservation_percent: p.reservations.percent,
        start_factor: p.reservations.start_factor,
        reservation_option: p.reservations.option.name().to_string(),
        checkpointing: p.overbooking.checkpoint.enabled,
        kill_at_estimate: p.classic.kill_at_estimate,
    }
}

/// How far failures must reach: the last deadline, or for jobs without one
/// (paper B) the last submission plus every estimate run back to back.
fn failure_horizon(jobs: &[Job]) -> Time {
    let open = jobs.iter().any(|j| j.deadline >= NO_DEADLINE);
    let last_deadline = jobs.iter().map(|j| j.deadline).filter(|&d| d < NO_DEADLINE).max().unwrap_or(0);
    if !open {
        return last_deadline;
    }
    let last = jobs.iter().map(|j| j.occurrence).max().unwrap_or(0);
    let work: Time = jobs.iter().map(|j| j.estimate).sum();
    last_deadline.max(last.saturating_add(work))
}

/// Simulates one point.
pub fn run_point(inputs: &Inputs, p: &Point) -> anyhow::Result<(RunOutput, RunSummary, u32)> {
    let prepared = inputs.prepared(p)?;
    let battery = prepared.batteries.get(p.battery).ok_or_else(|| {
        anyhow!("battery {} does not exist: the workload has {} batteries", p.battery, prepared.batteries.len())
    })?;
    let capacity = prepared.capacity;
    let reservations = p.reservations.generate(&battery.jobs, p.seed, p.battery);
    let mut jobs = battery.jobs.clone();
    if !reservations.is_empty() {
        jobs.extend(reservations);
        jobs.sort_by_key(|j| (j.occurrence, j.id));
    }
    let failures = inputs.failures(p, capacity, failure_horizon(&jobs))?;
    let strategy = policy::build(&p.strategy, &inputs.strategy_settings(p)?, capacity)?;
    let started = SystemTime::now();
    let clock = Instant::now();
    let checkpoint = Some(p.overbooking.checkpoint);
    let simulated = simulate(Scenario { capacity, jobs, failures, strategy, checkpoint })?;
    let wall_seconds = clock.elapsed().as_secs_f64();
    let summary = RunSummary::of(&simulated.cluster.records, capacity);
    let id = p.id();
    let run = RunRow {
        run_id: id.run_id,
        strategy: p.strategy.clone(),
        battery: p.battery as i64,
        battery_key: p.battery_key(),
        trace: prepared.trace.clone(),
        seed: p.seed,
        capacity,
        config: p.canonical(),
        config_hash: id.hash,
        code_version: code_version(),
        started_at: rfc3339(started),
        finished_at: rfc3339(SystemTime::now()),
        wall_seconds,
    };
    let unresolved = simulated.cluster.unresolved;
    let point = Some((axes(p), summary));
    let output = RunOutput { run, jobs: simulated.cluster.records, node_events: simulated.cluster.node_events, point };
    Ok((output, summary, unresolved))
}

/// Simulates `points` on `threads` workers; stores each finished run in
/// `store` (if given) and skips points already stored there. Points equal
/// after normalisation (differing only in settings their strategy does not
/// read) are simulated once and share the result.
pub fn run_points(points: &[Point], threads: usize, mut store: Option<&mut Store>) -> anyhow::Result<Vec<PointResult>> {
    let points: Vec<Point> = points.iter().map(Point::normalized).collect::<Result<_, _>>()?;
    let inputs = Inputs::load(&points)?;
    let ids: Vec<i64> = points.iter().map(|p| p.id().run_id).collect();
    let mut results: Vec<Option<PointResult>> = vec![None; points.len()];
    let mut first_of: HashMap<i64, usize> = HashMap::new();
    let mut todo = Vec::with_capacity(points.len());
    for (index, &run_id) in ids.iter().enumerate() {
        if first_of.contains_key(&run_id) {
            continue;
        }
        first_of.insert(run_id, index);
        if let Some(store) = store.as_deref()
            && store.has_run(run_id)?
        {
            results[index] = Some(PointResult {
                index,
                run_id,
                summary: store.summary(run_id)?,
                unresolved: 0,
                wall_seconds: 0.0,
                skipped: true,
            });
        } else {
            todo.push(index);
        }
    }
    let cursor = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, anyhow::Result<(RunOutput, RunSummary, u32)>)>();
    let threads = threads.max(1).min(todo.len().max(1));
    let points = &points;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (cursor, abort, todo, inputs) = (&cursor, &abort, &todo, &inputs);
            scope.spawn(move || {
                while !abort.load(Ordering::Relaxed) {
                    let k = cursor.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = todo.get(k) else { break };
                    let outcome = run_point(inputs, &points[index]);
                    if tx.send((index, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (index, outcome) in rx {
            let (output, summary, unresolved) = match outcome {
                Ok(done) => done,
                Err(e) => {
                    abort.store(true, Ordering::Relaxed);
                    return Err(e.context(format!("point {index} ({})", points[index].strategy)));
                }
            };
            if let Some(store) = store.as_deref_mut() {
                store.write_run(&output)?;
            }
            results[index] = Some(PointResult {
                index,
                run_id: output.run.run_id,
                summary,
                unresolved,
                wall_seconds: output.run.wall_seconds,
                skipped: false,
            });
        }
        Ok(())
    })?;
    // Points that normalised to an earlier one share its result.
    for index in 0..results.len() {
        if results[index].is_none()
            && let Some(&first) = first_of.get(&ids[index])
        {
            results[index] = results[first].clone().map(|r| PointResult { index, ..r });
        }
    }
    results.into_iter().map(|r| r.ok_or_else(|| anyhow!("a point produced no result"))).collect()
}
