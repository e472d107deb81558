//! The inputs a list of points shares, loaded once.
//!
//! Contract: [`Inputs`] loads every input a list of points needs once —
//! prepared workloads per distinct (workload, preparation) pair, runtime
//! statistics, the LANL log, Grid logs — and checks the settings that need
//! them (a Grid point's windows and requests, a provisioning site's trace),
//! before anything is stored; workers only read them (`Arc`). A trace the
//! caller has already parsed ([`Inputs::load_with`]) is prepared from, not
//! parsed again.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::SystemTime;

use anyhow::{Context, anyhow};
use chrono::DateTime;

use crate::experiment::kinds::grid::{GridInputError, GridLog, GridPoint, check_grid_point};
use crate::experiment::kinds::single::SinglePoint;
use crate::experiment::point::Point;
use crate::policy::overbooking::Overbooking;
use crate::policy::{self, ReservationHandling, StrategySettings};
use crate::stats::failure_law::FailureLaw;
use crate::stats::pdf::{LearnFrom, RuntimeModel};
use crate::stats::pos::Reliability;
use crate::units::Time;
use crate::units::per_hour_to_per_second;
use crate::workload::failures::{FailureSource, FailureStream, LANL_FILE, LanlLog, synthetic_stream};
use crate::workload::prepare::Prepared;
use crate::workload::swf::SwfTrace;
use crate::workload::{WorkloadSource, resolve_trace, trace_dir};

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

fn model_key(p: &SinglePoint) -> String {
    format!("{}\n{}", prepared_key(p), toml::to_string(&p.overbooking.pdf).unwrap_or_default())
}

fn prepared_key(p: &SinglePoint) -> String {
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
        for (index, point) in points.iter().enumerate() {
            match point {
                Point::Single(p) => inputs.load_single(p, &parsed)?,
                Point::Grid(p) => inputs.load_grid(index, p)?,
                // Their traces are prepared per point (load scaling depends
                // on the point's seed); here they are only found.
                Point::Provision(p) => {
                    for site in &p.sites {
                        check_trace(&site.trace)?;
                    }
                }
                Point::Pricing(p) => check_trace(&p.site.trace)?,
            }
        }
        Ok(inputs)
    }

    fn load_grid(&mut self, index: usize, p: &GridPoint) -> anyhow::Result<()> {
        let key = toml::to_string(&p.workload).unwrap_or_default();
        if let Entry::Vacant(slot) = self.grid_logs.entry(key.clone()) {
            let log = GridLog::load(&p.workload).with_context(|| format!("loading {}", p.workload.name()))?;
            tracing::info!(trace = %log.trace, jobs = log.jobs.len(), "grid log loaded");
            slot.insert(Arc::new(log));
        }
        p.grid.validate()?;
        check_grid_point(&self.grid_logs[&key], &p.grid, p.seed).map_err(|error| PointInputError { index, error })?;
        Ok(())
    }

    fn load_single(&mut self, p: &SinglePoint, parsed: &[(WorkloadSource, SwfTrace)]) -> anyhow::Result<()> {
        if let Entry::Vacant(slot) = self.prepared.entry(prepared_key(p)) {
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
        if reads.overbooking && !self.models.contains_key(&model_key(p)) {
            let prepared = self.prepared(p)?;
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
            self.models.insert(model_key(p), Arc::new(model));
        }
        if let FailureSource::Lanl { path, .. } = &p.failures {
            let path = path.clone().unwrap_or_else(|| trace_dir().join(LANL_FILE));
            if let Entry::Vacant(slot) = self.lanl.entry(path) {
                let log = LanlLog::load(slot.key())?;
                slot.insert(Arc::new(log));
            }
        }
        Ok(())
    }

    /// The log a Grid point cuts its cluster windows from.
    pub fn grid_log(&self, p: &GridPoint) -> anyhow::Result<&Arc<GridLog>> {
        let key = toml::to_string(&p.workload).unwrap_or_default();
        self.grid_logs.get(&key).ok_or_else(|| anyhow!("grid log of point not loaded"))
    }

    /// The prepared workload of a point.
    pub fn prepared(&self, p: &SinglePoint) -> anyhow::Result<&Arc<Prepared>> {
        self.prepared.get(&prepared_key(p)).ok_or_else(|| anyhow!("workload of point not loaded"))
    }

    /// The strategy settings of a point: reliability, and overbooking when read.
    pub fn strategy_settings(&self, p: &SinglePoint) -> anyhow::Result<StrategySettings> {
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
            batsim: p.batsim.clone().map(Arc::new),
        })
    }

    pub(crate) fn failures(&self, p: &SinglePoint, capacity: u32, horizon: Time) -> anyhow::Result<FailureStream> {
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

pub(crate) fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    DateTime::from_timestamp(secs, 0).map_or_else(|| secs.to_string(), |d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// A trace named by a point exists (the synthetic workload always does).
fn check_trace(source: &WorkloadSource) -> anyhow::Result<()> {
    if let WorkloadSource::Swf { path, .. } = source {
        resolve_trace(path).map_err(|e| anyhow!(e))?;
    }
    Ok(())
}
