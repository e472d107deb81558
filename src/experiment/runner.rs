//! Running one point: its shared inputs, and the simulation.
//!
//! Contract:
//! - [`Inputs`] loads every input a list of points needs once — prepared
//!   workloads per distinct (workload, preparation) pair, runtime statistics,
//!   the LANL log, Grid logs — and checks the settings that need them;
//!   workers only read them (`Arc`). A trace the caller has already parsed
//!   ([`Inputs::load_with`]) is prepared from, not parsed again.
//! - [`run_point`] simulates one point on the calling thread's own
//!   single-threaded runtime and returns what to store; it shares nothing
//!   mutable, so there is no lock contention within a point. The executor
//!   that runs lists of points is [`crate::experiment::coordinator`].

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use anyhow::{Context, anyhow};
use chrono::DateTime;

use crate::experiment::grid::{GridInputError, GridLog, check_grid_point, run_grid_point};
use crate::experiment::point::Point;
use crate::policy::overbooking::AcceptanceKind;
use crate::policy::overbooking::Overbooking;
use crate::policy::{self, ReservationHandling, StrategySettings};
use crate::sim::bench::{Scenario, simulate_outcomes};
use crate::sim::record::RunSummary;
use crate::stats::calibration::OnlineCalibrator;
use crate::stats::failure_law::FailureLaw;
use crate::stats::pdf::{LearnFrom, RuntimeModel};
use crate::stats::pos::Reliability;
use crate::store::{PointAxes, RunOutput, RunRow};
use crate::units::Time;
use crate::units::per_hour_to_per_second;
use crate::workload::failures::{FailureSource, FailureStream, LANL_FILE, LanlLog, synthetic_stream};
use crate::workload::job::{Job, NO_DEADLINE};
use crate::workload::prepare::Prepared;
use crate::workload::swf::SwfTrace;
use crate::workload::{WorkloadSource, trace_dir};

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
    grid_logs: HashMap<String, Arc<GridLog>>,
}

/// A point's setting that needs its inputs is out of its domain.
#[derive(Debug, thiserror::Error)]
#[error("point {index}: {error}")]
pub struct PointInputError {
    /// The point's position in the list.
    pub index: usize,
    /// What is wrong.
    pub error: GridInputError,
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
        Inputs::load_with(points, Vec::new())
    }

    /// [`Inputs::load`], taking the trace of a workload from `parsed` when it
    /// is there: it must be what [`WorkloadSource::load`] returns for it. The
    /// traces are dropped once prepared, before anything is simulated.
    pub fn load_with(points: &[Point], parsed: Vec<(WorkloadSource, SwfTrace)>) -> anyhow::Result<Inputs> {
        let mut inputs = Inputs::default();
        for (index, p) in points.iter().enumerate() {
            if let Some(g) = &p.grid {
                let key = toml::to_string(&p.workload).unwrap_or_default();
                if let Entry::Vacant(slot) = inputs.grid_logs.entry(key.clone()) {
                    let log = GridLog::load(&p.workload).with_context(|| format!("loading {}", p.workload.name()))?;
                    tracing::info!(trace = %log.trace, jobs = log.jobs.len(), "grid log loaded");
                    slot.insert(Arc::new(log));
                }
                g.validate()?;
                check_grid_point(&inputs.grid_logs[&key], g, p.seed)
                    .map_err(|error| PointInputError { index, error })?;
                continue;
            }
            if let Entry::Vacant(slot) = inputs.prepared.entry(prepared_key(p)) {
                let loaded;
                let trace = match parsed.iter().find(|(w, _)| *w == p.workload) {
                    Some((_, trace)) => trace,
                    None => {
                        loaded = p.workload.load()?;
                        &loaded
                    }
                };
                let prepared = p.prepare.prepare(trace).with_context(|| format!("preparing {}", p.workload.name()))?;
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
        calibration: p.overbooking.calibration.to_string(),
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

/// The `runs` row of a point simulated from `started` for `wall_seconds`.
fn run_row(p: &Point, trace: &str, capacity: u32, started: SystemTime, wall_seconds: f64) -> RunRow {
    let id = p.id();
    RunRow {
        run_id: id.run_id,
        strategy: p.strategy.clone(),
        battery: p.battery as i64,
        battery_key: p.battery_key(),
        trace: trace.to_string(),
        seed: p.seed,
        capacity,
        config: p.canonical(),
        config_hash: id.hash,
        code_version: code_version(),
        started_at: rfc3339(started),
        finished_at: rfc3339(SystemTime::now()),
        wall_seconds,
    }
}

/// Simulates one Grid point.
fn run_grid(
    inputs: &Inputs,
    p: &Point,
    g: &crate::grid::config::GridConfig,
) -> anyhow::Result<(RunOutput, RunSummary, u32)> {
    let key = toml::to_string(&p.workload).unwrap_or_default();
    let log = inputs.grid_logs.get(&key).ok_or_else(|| anyhow!("grid log of point not loaded"))?;
    let started = SystemTime::now();
    let clock = Instant::now();
    let run = run_grid_point(log, g, &p.strategy, p.seed)?;
    let wall_seconds = clock.elapsed().as_secs_f64();
    let summary = RunSummary::of(&run.jobs, g.cpus);
    let row = run_row(p, &log.trace, g.cpus, started, wall_seconds);
    let output = RunOutput { run: row, jobs: run.jobs, node_events: Vec::new(), point: None, grid: Some(run.output) };
    Ok((output, summary, 0))
}

/// The single-cluster scenario of point `p` on `jobs` (a battery).
fn scenario(
    inputs: &Inputs,
    p: &Point,
    jobs: &[Job],
    capacity: u32,
    calibrator: Option<OnlineCalibrator>,
) -> anyhow::Result<Scenario> {
    let reservations = p.reservations.generate(jobs, p.seed, p.battery);
    let mut jobs = jobs.to_vec();
    if !reservations.is_empty() {
        jobs.extend(reservations);
        jobs.sort_by_key(|j| (j.occurrence, j.id));
    }
    let failures = inputs.failures(p, capacity, failure_horizon(&jobs))?;
    let strategy = policy::build(&p.strategy, &inputs.strategy_settings(p)?, capacity)?;
    let checkpoint = Some(p.overbooking.checkpoint);
    Ok(Scenario { capacity, jobs, failures, strategy, checkpoint, calibrator })
}

/// The calibrator a calibrated point starts with: carried through the
/// `calibration_warmup` batteries before its own, as if the cluster had been
/// running them, so it has seen outcomes (and only past ones) when its own
/// battery begins. None without calibration.
fn warm_calibrator(inputs: &Inputs, p: &Point, prepared: &Prepared) -> anyhow::Result<Option<OnlineCalibrator>> {
    let Some(mut calibrator) = p.overbooking.calibrator() else { return Ok(None) };
    for b in p.battery.saturating_sub(p.overbooking.calibration_warmup)..p.battery {
        let q = Point { battery: b, ..p.clone() };
        let Some(battery) = prepared.batteries.get(b) else { continue };
        let warm = simulate_outcomes(scenario(inputs, &q, &battery.jobs, prepared.capacity, Some(calibrator))?)?;
        calibrator = warm.cluster.calibrator.ok_or_else(|| anyhow!("the warm-up battery {b} lost its calibrator"))?;
    }
    Ok(Some(calibrator))
}

/// Simulates one point.
pub fn run_point(inputs: &Inputs, p: &Point) -> anyhow::Result<(RunOutput, RunSummary, u32)> {
    if let Some(g) = &p.grid {
        return run_grid(inputs, p, g);
    }
    let prepared = inputs.prepared(p)?;
    let battery = prepared.batteries.get(p.battery).ok_or_else(|| {
        anyhow!("battery {} does not exist: the workload has {} batteries", p.battery, prepared.batteries.len())
    })?;
    let capacity = prepared.capacity;
    let started = SystemTime::now();
    let clock = Instant::now();
    let calibrator = warm_calibrator(inputs, p, prepared)?;
    let simulated = simulate_outcomes(scenario(inputs, p, &battery.jobs, capacity, calibrator)?)?;
    let wall_seconds = clock.elapsed().as_secs_f64();
    let summary = RunSummary::of(&simulated.cluster.records, capacity);
    let run = run_row(p, &prepared.trace, capacity, started, wall_seconds);
    let unresolved = simulated.cluster.unresolved;
    let point = Some((axes(p), summary));
    let output = RunOutput {
        run,
        jobs: simulated.cluster.records,
        node_events: simulated.cluster.node_events,
        point,
        grid: None,
    };
    Ok((output, summary, unresolved))
}
