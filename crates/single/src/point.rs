//! The single-cluster point: one cluster, one strategy, one battery (or the
//! whole log), and running it.
//!
//! Contract:
//! - A [`SinglePoint`] names everything a single-cluster simulation reads:
//!   workload, preparation, strategy and its settings, failures, seed and
//!   battery. [`SinglePoint::resolve`] is the one place its defaults and
//!   checks live, for the command line and configs alike: settings its
//!   strategy does not read are reset (points differing only there are one
//!   simulation), a classic queueing strategy (`fcfs`, `easy`,
//!   `conservative`) runs the whole log without deadlines and, unless
//!   failures were set explicitly, without node failures.
//! - [`run`] simulates the point on the calling thread's own single-threaded
//!   runtime and returns what to store; it shares nothing mutable.
//!
//! Reference: the overbooking dissertation, Ch. 6 (the experiments' setup).

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use anyhow::{Context, anyhow};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::cluster::Drive;
use crate::cluster::bench::{Scenario, Simulated, simulate, simulate_outcomes};
use crate::cluster::cap::CapSeries;
use crate::cluster::carbon::{Aligned, Origin, Signals, SignalsConfig, account};
use crate::cluster::energy::EnergyConfig;
use crate::policy::batsim::BatsimConfig;
use crate::policy::calibrator::{Calibrated, CalibratedRun, warm_up};
use crate::policy::classic::ClassicConfig;
use crate::policy::energy::{EnergyPolicySettings, PowerManager};
use crate::policy::overbooking::Overbooking;
use crate::policy::overbooking::{AcceptanceKind, OverbookingConfig};
use crate::policy::shifting::{Applies, Shift, ShiftingConfig, Steer};
use crate::policy::{Placement, ReservationHandling, StrategyRef, StrategySettings};
use crate::stats::calibration::OnlineCalibrator;
use crate::stats::pdf::{LearnFrom, RuntimeModel};
use crate::stats::pos::Reliability;
use crate::summary::RunSummary;
use crate::tables::points::PointAxes;
use crate::tables::run::{RunOf, RunRow};
use crate::workload::WorkloadSource;
use crate::workload::failure_law::FailureLaw;
use crate::workload::failures::{
    FailureSource, FailureStream, LanlLog, existing_lanl_file, lanl_file, synthetic_stream,
};
use crate::workload::job::{Job, NO_DEADLINE};
use crate::workload::prepare::{PrepareConfig, Prepared};
use crate::workload::reservations::ReservationConfig;
use crate::writer::RunOutput;
use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::units::{Time, per_hour_to_per_second};
use slasim_data::trace::swf::SwfTrace;

/// The resolved settings of one single-cluster simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SinglePoint {
    /// The strategy (stored and identified by its kebab-case name).
    pub strategy: StrategyRef,
    /// Placement policy.
    pub placement: Placement,
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Battery index.
    pub battery: usize,
    /// Where the jobs come from.
    pub workload: WorkloadSource,
    /// How they are prepared.
    pub prepare: PrepareConfig,
    /// Node failures.
    pub failures: FailureSource,
    /// Overbooking: acceptance test, PoF_max, runtime statistics, λ and μ.
    #[serde(default)]
    pub overbooking: OverbookingConfig,
    /// Paper B's reservations (none by default; left out of the canonical
    /// text when default, so the ids of points without them do not change).
    #[serde(default, skip_serializing_if = "ReservationConfig::is_default")]
    pub reservations: ReservationConfig,
    /// The classic queueing modes' settings (left out when default).
    #[serde(default, skip_serializing_if = "ClassicConfig::is_default")]
    pub classic: ClassicConfig,
    /// The external scheduler of a strategy that reads it (`batsim`): left
    /// out for every other strategy, so their ids do not change, and part
    /// of the id otherwise (different schedulers are different points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batsim: Option<BatsimConfig>,
    /// An energy meter's watts per node state: left out when off, so the
    /// ids of points without one do not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<EnergyConfig>,
    /// Who switches the nodes off and on (`[energy_policy]`): left out when
    /// `none`, so the ids of points without one do not change.
    #[serde(default, skip_serializing_if = "EnergyPolicySettings::is_default")]
    pub energy_policy: EnergyPolicySettings,
    /// Grid signals the run's energy is accounted against (`[signals]`,
    /// needs `[energy]`): left out when absent, so the ids of points
    /// without them do not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signals: Option<SignalsConfig>,
    /// When jobs run by a grid signal (`[shifting]`, needs `[signals]`):
    /// left out when absent or `none`, so the ids of points without it do
    /// not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shifting: Option<ShiftingConfig>,
    /// Store a row per job (`store_jobs = false`: the run's row and
    /// aggregates only, for sweeps of many points): left out when true, so
    /// the ids of points that store their jobs do not change.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub store_jobs: bool,
}

pub(crate) fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// The failure model a point gets when none is set (configs and the command
/// line alike): none for the classic queueing modes, the LANL replay with a
/// trace, Poisson with the LANL rates for the synthetic workload.
pub fn default_failures(strategy: StrategyRef, workload: &WorkloadSource) -> FailureSource {
    let model = match (strategy.queueing, workload) {
        (true, _) => "none",
        (false, WorkloadSource::Swf { .. }) => "lanl",
        (false, _) => "poisson",
    };
    FailureSource::default_for(model).unwrap_or(FailureSource::None)
}

impl SinglePoint {
    /// The point as run: strategy-dependent defaults applied (failures as
    /// [`default_failures`] unless `failures_set`; a classic queueing mode
    /// runs the whole log without deadlines, failures or reservations),
    /// unread settings reset, settings checked.
    pub fn resolve(mut self, failures_set: bool) -> anyhow::Result<SinglePoint> {
        let info = self.strategy.info();
        if !failures_set {
            self.failures = default_failures(self.strategy, &self.workload);
        }
        if info.reads.scheduler {
            let batsim = self.batsim.as_ref().ok_or_else(|| {
                anyhow!(
                    "strategy {} needs its external scheduler: `[batsim] command` (started per point, with \
                     {{port}}) or `endpoint`, or --scheduler-command / --scheduler-endpoint",
                    self.strategy
                )
            })?;
            batsim.validate()?;
        }
        if info.queueing {
            if self.failures != FailureSource::None && !info.node_failures {
                anyhow::bail!(
                    "the queueing modes (fcfs, easy, conservative, the priority rules) model no node failures; set failures to none"
                );
            }
            if self.reservations.active() {
                anyhow::bail!("the queueing modes (fcfs, easy, conservative, the priority rules) take no reservations");
            }
            self.prepare = self.prepare.for_classic_modes();
        }
        self.check_energy()?;
        self.overbooking.validate()?;
        self.reservations.validate()?;
        self.prepare.validate_split()?;
        if !self.prepare.whole_log {
            self.prepare.validate()?;
        }
        Ok(self.normalized())
    }

    /// The power model and the energy policy agree with each other and the strategy.
    fn check_energy(&self) -> anyhow::Result<()> {
        if let Some(energy) = &self.energy {
            energy.validate()?;
        }
        if let Some(signals) = &self.signals {
            signals.validate()?;
            if self.energy.is_none() {
                anyhow::bail!(
                    "[signals] accounts the run's energy by the hour: it needs the nodes' power model, an [energy] section"
                );
            }
        }
        if self.energy.is_some_and(|e| e.cap_series.is_some()) {
            let renewable = self.signals.as_ref().is_some_and(|s| s.renewable.is_some());
            if !renewable {
                return Err(slasim_core::setting::InvalidSetting::new(
                    "energy.cap_series.follows",
                    "renewable",
                    "the cap follows the renewable supply: give [signals] renewable = \"FILE\" (W, or an EIA-930 file's MWh/h)",
                )
                .into());
            }
        }
        self.check_shifting()?;
        self.energy_policy.validate()?;
        let policy = self.energy_policy.name;
        if policy.is_none() {
            return Ok(());
        }
        let Some(energy) = &self.energy else {
            anyhow::bail!("energy policy {policy} needs the nodes' power model: an [energy] section");
        };
        if policy.switches_off && energy.sleep.is_none() {
            return Err(slasim_core::setting::InvalidSetting::new(
                "energy_policy.name",
                policy.name,
                "this policy switches nodes off: give the nodes a sleep state ([energy.sleep])",
            )
            .into());
        }
        if policy.uses_pstates && energy.pstates.len() < 2 {
            return Err(slasim_core::setting::InvalidSetting::new(
                "energy_policy.name",
                policy.name,
                "this policy sets computing pstates: give the nodes at least two ([[energy.pstates]])",
            )
            .into());
        }
        if self.strategy.reads.scheduler {
            anyhow::bail!(
                "strategy {}: its external scheduler switches the nodes itself (Batsim's SET_RESOURCE_STATE); \
                 set energy_policy to none",
                self.strategy
            );
        }
        Ok(())
    }

    /// `[shifting]` has the signal it steers by, and a strategy that can apply its policy.
    fn check_shifting(&self) -> anyhow::Result<()> {
        let Some(shifting) = &self.shifting else { return Ok(()) };
        shifting.validate()?;
        let policy = shifting.policy()?;
        if matches!(policy.applies, Applies::Nothing) {
            return Ok(());
        }
        if matches!(policy.applies, Applies::InPlan) && !self.strategy.shifts_in_plan {
            return Err(slasim_core::setting::InvalidSetting::new(
                "shifting.policy",
                format!("{} (strategy {})", policy.name, self.strategy.name()),
                "this policy shifts bookings inside a plan that holds every deadline: conservative-backfilling, \
                 comprehensive-overbooking and shortened-backfilling apply it",
            )
            .into());
        }
        let Some(signals) = &self.signals else {
            return Err(slasim_core::setting::InvalidSetting::new(
                "shifting.policy",
                policy.name,
                "shifting steers by a grid signal: give the [signals] section",
            )
            .into());
        };
        let has = match shifting.signal {
            Steer::Carbon => signals.carbon.is_some() || signals.region.is_some(),
            Steer::Price => signals.price.is_some() || signals.region.is_some(),
        };
        if !has {
            return Err(slasim_core::setting::InvalidSetting::new(
                "shifting.signal",
                shifting.signal,
                "[signals] gives no such signal: give a region, or a carbon or price file",
            )
            .into());
        }
        Ok(())
    }

    /// The same point with every setting its strategy does not read reset to
    /// its default: points that differ only there are one simulation.
    pub fn normalized(&self) -> SinglePoint {
        let reads = self.strategy.reads;
        let mut p = self.clone();
        if !reads.kill_at_estimate {
            p.classic = ClassicConfig::default();
        }
        if !reads.scheduler {
            p.batsim = None;
        }
        let defaults = OverbookingConfig::default();
        if !reads.placement {
            p.placement = Placement::default();
        }
        if !reads.overbooking {
            p.overbooking.pof_max = defaults.pof_max;
            p.overbooking.pdf = defaults.pdf.clone();
            p.overbooking.calibration = defaults.calibration;
            p.overbooking.calibration_min_count = defaults.calibration_min_count;
            p.overbooking.calibration_warmup = defaults.calibration_warmup;
            // Only overbooked jobs are ever checkpointed.
            p.overbooking.checkpoint = defaults.checkpoint;
        }
        if !p.reservations.active() {
            p.reservations = ReservationConfig::default();
        }
        p.energy_policy = p.energy_policy.normalized();
        p.shifting = p.shifting.as_ref().and_then(ShiftingConfig::normalized);
        if !reads.acceptance {
            p.overbooking.acceptance = defaults.acceptance;
            p.overbooking.security_factor = None;
        } else {
            match p.overbooking.acceptance {
                AcceptanceKind::Pof => p.overbooking.security_factor = None,
                AcceptanceKind::Risk => p.overbooking.pof_max = defaults.pof_max,
            }
        }
        p
    }

    /// The canonical TOML text of the settings.
    pub fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    /// The identity of the point's jobs: workload, preparation (but for the
    /// penalty ratio, which the jobs' attributes do not show) and battery.
    pub fn battery_key(&self) -> i64 {
        let prepare = PrepareConfig { penalty_ratio: 1.0, ..self.prepare.clone() };
        let text = format!(
            "{}\n{}\nbattery = {}",
            toml::to_string(&self.workload).unwrap_or_default(),
            toml::to_string(&prepare).unwrap_or_default(),
            self.battery
        );
        let digest = Sha256::digest(text.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        (u64::from_be_bytes(first) >> 1) as i64
    }

    /// The point's stable id.
    pub fn id(&self) -> Result<PointId, Unserialisable> {
        self.canonical().map(|text| PointId::of(&text))
    }
}

/// The `points` columns describing a point's settings.
pub fn axes(p: &SinglePoint) -> PointAxes {
    let acceptance = p.overbooking.acceptance.name();
    let security_factor = match p.overbooking.acceptance {
        AcceptanceKind::Pof => None,
        AcceptanceKind::Risk => Some(p.overbooking.security_factor.unwrap_or(p.strategy.security_factor)),
    };
    let failures = p.failures.name();
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
        energy_policy: p.energy_policy.name.name.to_string(),
        idle_timeout: p.energy_policy.idle_timeout,
        power_cap: p.energy.and_then(|e| e.cap_watts),
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

/// The single-cluster scenario of point `p` on `jobs` (a battery).
fn scenario(inputs: &Inputs, p: &SinglePoint, jobs: &Arc<[Job]>, capacity: u32) -> anyhow::Result<Scenario> {
    let reservations = p.reservations.generate(jobs, p.seed, p.battery);
    let jobs = if reservations.is_empty() {
        Arc::clone(jobs)
    } else {
        let mut all = jobs.to_vec();
        all.extend(reservations);
        all.sort_by_key(|j| (j.occurrence, j.id));
        all.into()
    };
    let failures = p.failure_stream(inputs, capacity, failure_horizon(&jobs))?;
    let settings = p.strategy_settings(inputs)?;
    let mut strategy = p.strategy.build(&settings, capacity)?;
    if let Some(shift) = &settings.shifting
        && let Applies::Wrapper(wrap) = shift.policy.applies
    {
        strategy = wrap(strategy, Arc::clone(shift));
    }
    // Nodes that can sleep are woken on demand, whatever the policy; an
    // external scheduler switches them itself.
    if p.energy.is_some_and(|e| e.has_power_states()) && !p.strategy.reads.scheduler {
        strategy = Box::new(PowerManager::new(strategy, &p.energy_policy));
    }
    let checkpoint = Some(p.overbooking.checkpoint);
    let record_power = p.signals.is_some();
    let cap = cap_series(inputs, p, capacity)?;
    Ok(Scenario { capacity, jobs, failures, strategy, checkpoint, energy: p.energy, record_power, cap })
}

/// The key the aligned signals of `config` are kept under in a run's inputs.
fn aligned_key(config: &SignalsConfig, origin: Origin) -> String {
    format!("aligned {origin:?} {}", config.inputs_key())
}

/// Point `p`'s signals aligned onto its virtual time (aligned once per
/// battery origin, when its inputs are loaded: the cap, the shifting and
/// the accounting read the same).
fn aligned(inputs: &Inputs, p: &SinglePoint, config: &SignalsConfig) -> anyhow::Result<Arc<Aligned>> {
    let prepared = p.prepared(inputs)?;
    let began = prepared.batteries.get(p.battery).map_or(0, |b| b.began);
    let origin = Origin { unix_start: prepared.unix_start, began };
    inputs.get(&aligned_key(config, origin)).ok_or_else(|| anyhow!("signals of point not loaded"))
}

/// The cap series of point `p` on `capacity` nodes, if its cap follows one:
/// its lowest value must hold every node idle.
fn cap_series(inputs: &Inputs, p: &SinglePoint, capacity: u32) -> anyhow::Result<Option<CapSeries>> {
    let (Some(energy), Some(signals)) = (&p.energy, &p.signals) else { return Ok(None) };
    let Some(config) = &energy.cap_series else { return Ok(None) };
    let aligned = aligned(inputs, p, signals)?;
    let cap = CapSeries::new(config, aligned.renewable.as_ref(), aligned.renewable_watts)?;
    cap.check_idle(capacity, energy.idle_watts)?;
    Ok(Some(cap))
}

/// The calibrator a calibrated point starts with: carried through the
/// `calibration_warmup` batteries before its own ([`warm_up`]). None without
/// calibration.
fn warm_calibrator(inputs: &Inputs, p: &SinglePoint, prepared: &Prepared) -> anyhow::Result<Option<OnlineCalibrator>> {
    let Some(calibrator) = p.overbooking.calibrator() else { return Ok(None) };
    let first = p.battery.saturating_sub(p.overbooking.calibration_warmup);
    let warm = warm_up(calibrator, first..p.battery, |calibrator, b| {
        let Some(battery) = prepared.batteries.get(b) else { return Ok(calibrator) };
        let q = SinglePoint { battery: b, ..p.clone() };
        let scenario = scenario(inputs, &q, &battery.jobs, prepared.capacity)?;
        let warm = simulate_outcomes(scenario.driven_by(|s| Calibrated::new(s, calibrator)))?;
        anyhow::Ok(warm.cluster.report.calibrator)
    })?;
    Ok(Some(warm))
}

/// Simulates point `p` on its battery (calibrated online if it calibrates),
/// keeping the executions if asked: the result and, calibrated, the
/// calibrator's report.
fn simulate_point(
    inputs: &Inputs,
    p: &SinglePoint,
    prepared: &Prepared,
    executions: bool,
) -> anyhow::Result<(Simulated, Option<CalibratedRun>)> {
    let battery = prepared.batteries.get(p.battery).ok_or_else(|| {
        anyhow!("battery {} does not exist: the workload has {} batteries", p.battery, prepared.batteries.len())
    })?;
    let calibrator = warm_calibrator(inputs, p, prepared)?;
    let scenario = scenario(inputs, p, &battery.jobs, prepared.capacity)?;
    Ok(match calibrator {
        None if executions => (simulate(scenario)?, None),
        None => (simulate_outcomes(scenario)?, None),
        Some(calibrator) => {
            let scenario = scenario.driven_by(|s| Calibrated::new(s, calibrator));
            let simulated = if executions { simulate(scenario)? } else { simulate_outcomes(scenario)? };
            let (simulated, calibrated) = simulated.split();
            (simulated, Some(calibrated))
        }
    })
}

/// Simulates a single-cluster point again keeping its executions (the node
/// list of every job), for Batsim's job table; nothing is stored.
pub fn simulate_with_executions(inputs: &Inputs, p: &SinglePoint) -> anyhow::Result<Simulated> {
    Ok(simulate_point(inputs, p, &*p.prepared(inputs)?, true)?.0)
}

/// The scenario of point `p` with what drives its cluster replaced by what
/// `replace` builds from the point's strategy settings and capacity (a
/// learning agent's strategy, say), for its caller to simulate; nothing is
/// stored, and the point is not calibrated.
pub fn scenario_replaced<D: Drive>(
    inputs: &Inputs,
    p: &SinglePoint,
    replace: impl FnOnce(&StrategySettings, u32) -> D,
) -> anyhow::Result<Scenario<D>> {
    let prepared = p.prepared(inputs)?;
    let battery = prepared.batteries.get(p.battery).ok_or_else(|| {
        anyhow!("battery {} does not exist: the workload has {} batteries", p.battery, prepared.batteries.len())
    })?;
    let settings = p.strategy_settings(inputs)?;
    let capacity = prepared.capacity;
    Ok(scenario(inputs, p, &battery.jobs, capacity)?.driven_by(|_| replace(&settings, capacity)))
}

/// Simulates one single-cluster point: what to store and its summary. A job
/// its strategy left without an outcome is an error (a defect), not a failure.
pub fn run(inputs: &Inputs, p: &SinglePoint) -> anyhow::Result<(RunOutput, RunSummary)> {
    let prepared = p.prepared(inputs)?;
    let capacity = prepared.capacity;
    let started = SystemTime::now();
    let clock = Instant::now();
    let (simulated, calibrated) = simulate_point(inputs, p, &prepared, false)?;
    let wall_seconds = clock.elapsed().as_secs_f64();
    let records = &simulated.cluster.records;
    let summary = RunSummary::of(records, capacity).calibrated(records, calibrated.as_ref());
    let of = RunOf {
        strategy: p.strategy.name(),
        battery: p.battery,
        battery_key: p.battery_key(),
        trace: &prepared.trace,
        seed: p.seed,
        capacity,
    };
    let run = RunRow::new(of, p.canonical()?, started, wall_seconds);
    let unresolved = simulated.cluster.unresolved;
    if unresolved > 0 {
        anyhow::bail!("{unresolved} jobs were left without an outcome (a defect of strategy {})", p.strategy);
    }
    let point = Some((axes(p), summary));
    let carbon = match (&p.signals, &p.energy, &simulated.power) {
        (Some(config), Some(watts), Some(profile)) => {
            let aligned = aligned(inputs, p, config)?;
            Some(account(config, &aligned, profile, watts, &simulated.cluster.records))
        }
        _ => None,
    };
    let output = RunOutput {
        run,
        records: simulated.cluster.records,
        calibrated,
        node_events: simulated.cluster.node_events,
        point,
        energy: p.energy.zip(simulated.energy),
        carbon,
        shifting: p.shifting.clone(),
        store_jobs: p.store_jobs,
    };
    Ok((output, summary))
}

fn model_key(p: &SinglePoint) -> String {
    format!("{}\n{}", prepared_key(p), toml::to_string(&p.overbooking.pdf).unwrap_or_default())
}

fn prepared_key(p: &SinglePoint) -> String {
    format!("{}\n{}", toml::to_string(&p.workload).unwrap_or_default(), toml::to_string(&p.prepare).unwrap_or_default())
}

// A single-cluster point's inputs: its prepared workload, runtime statistics
// and failure log, shared by the points that name the same settings.
impl SinglePoint {
    /// Loads its inputs into `inputs` unless a point of the same settings
    /// did: its workload prepared (from a trace given as an [`SwfTrace`]
    /// under [`SinglePoint::trace_key`], else read), its runtime statistics
    /// when its strategy reads them, its LANL log.
    pub fn load_inputs(&self, inputs: &mut Inputs) -> anyhow::Result<()> {
        let p = self;
        let given: Option<Arc<SwfTrace>> = inputs.given(&SinglePoint::trace_key(&p.workload));
        inputs.load_once(prepared_key(p), || {
            let trace = match given {
                Some(trace) => trace,
                None => Arc::new(p.workload.load()?),
            };
            let prepared = p.prepare.prepare(&trace).with_context(|| format!("preparing {}", p.workload.name()))?;
            tracing::info!(
                trace = %prepared.trace,
                batteries = prepared.batteries.len(),
                factor = prepared.occurrence_factor,
                "workload prepared"
            );
            Ok(prepared)
        })?;
        p.overbooking.validate()?;
        p.reservations.validate()?;
        if p.strategy.reads.overbooking {
            let prepared = p.prepared(inputs)?;
            inputs.load_once(model_key(p), || {
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
                    model.check_jobs(battery.jobs.iter())?;
                }
                tracing::info!(classes = model.class_count(), source = %p.overbooking.pdf.source, "runtime statistics learned");
                Ok(model)
            })?;
        }
        if let Some(signals) = &p.signals {
            inputs.load_once(signals.inputs_key(), || signals.load())?;
            let loaded: Arc<Signals> =
                inputs.get(&signals.inputs_key()).ok_or_else(|| anyhow!("signals of point not loaded"))?;
            let prepared = p.prepared(inputs)?;
            for b in &prepared.batteries {
                let origin = Origin { unix_start: prepared.unix_start, began: b.began };
                inputs.load_once(aligned_key(signals, origin), || signals.align(&loaded, origin))?;
            }
            // A cap series is checked before any run: it must hold every node idle.
            cap_series(inputs, p, prepared.capacity)?;
        }
        if let FailureSource::Lanl { path, .. } = &p.failures {
            let path = existing_lanl_file(path.as_deref())?;
            inputs.load_once(path.display().to_string(), || Ok(LanlLog::load(&path)?))?;
        }
        Ok(())
    }

    /// The key under which a caller gives its workload's parsed trace
    /// ([`Inputs::give`]); the trace must be what [`WorkloadSource::load`]
    /// returns for it.
    pub fn trace_key(workload: &WorkloadSource) -> String {
        toml::to_string(workload).unwrap_or_default()
    }

    /// Its prepared workload.
    pub fn prepared(&self, inputs: &Inputs) -> anyhow::Result<Arc<Prepared>> {
        inputs.get(&prepared_key(self)).ok_or_else(|| anyhow!("workload of point not loaded"))
    }

    /// Its strategy settings: reliability, and overbooking when read.
    pub fn strategy_settings(&self, inputs: &Inputs) -> anyhow::Result<StrategySettings> {
        let p = self;
        let info = p.strategy.info();
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
            let model: Arc<RuntimeModel> =
                inputs.get(&model_key(p)).ok_or_else(|| anyhow!("runtime statistics not learned"))?;
            Some(Arc::new(Overbooking::new(&p.overbooking, model, info.security_factor)))
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
            shifting: p.shift(inputs)?.map(Arc::new),
        })
    }

    /// The point's shifting, built over its aligned signals; none without `[shifting]`.
    fn shift(&self, inputs: &Inputs) -> anyhow::Result<Option<Shift>> {
        let (Some(shifting), Some(config)) = (&self.shifting, &self.signals) else { return Ok(None) };
        let aligned = aligned(inputs, self, config)?;
        let signal = match shifting.signal {
            Steer::Carbon => aligned.carbon.clone(),
            Steer::Price => aligned.price.clone(),
        };
        let signal = signal.ok_or_else(|| anyhow!("[shifting] steers by {}: [signals] has none", shifting.signal))?;
        Ok(Some(Shift::new(shifting, signal, self.seed)?))
    }

    fn failure_stream(&self, inputs: &Inputs, capacity: u32, horizon: Time) -> anyhow::Result<FailureStream> {
        let p = self;
        Ok(match &p.failures {
            FailureSource::None => FailureStream::none(capacity),
            FailureSource::Lanl { path, systems, offset_hours } => {
                let path = lanl_file(path.as_deref());
                let log: Arc<LanlLog> =
                    inputs.get(&path.display().to_string()).ok_or_else(|| anyhow!("LANL log not loaded"))?;
                log.replay(systems, *offset_hours, capacity, Some(horizon))?
            }
            synthetic => {
                let (up, repair) = synthetic.laws()?.ok_or_else(|| anyhow!("no failure laws"))?;
                synthetic_stream(&up, &repair, capacity, horizon, p.seed)
            }
        })
    }
}
