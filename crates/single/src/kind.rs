//! The single-cluster kind: its sections, its axes, its base point, how a
//! swept point is resolved, and its points' inputs, run and output.
//!
//! Contract: a config without a kind's section is single-cluster. It reads
//! `[workload]`, `[prepare]`, `[failures]`, `[overbooking]`,
//! `[reservations]`, `[classic]`, `[batsim]`, `[energy]`, `[signals]` and `placement`;
//! every table denies unknown keys. A swept point's settings are checked
//! before its strategy's normalisation, so a value outside its domain is
//! refused even where the strategy does not read it; errors point at the
//! sweep's axis that set the value, else at its key.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;

use crate::point::{SinglePoint, default_failures, run};
use crate::policy::classic::ClassicConfig;
use crate::policy::energy::EnergyPolicySettings;
use crate::policy::overbooking::OverbookingConfig;
use crate::policy::{Placement, StrategyRef, strategy_infos};
use crate::summary::RunSummary;
use crate::tables::RUNS;
use crate::workload::WorkloadSource;
use crate::workload::failures::existing_lanl_file;
use crate::workload::failures::{FailureSource, restarted_failures};
use crate::workload::prepare::{PrepareConfig, Prepared};
use crate::workload::reservations::{ReservationConfig, ReservationOption};
use crate::workload::synthetic::SyntheticConfig;
use crate::writer::{RunOutput, stored_summary, write_battery, write_run};
use slasim_core::experiment::id::Unserialisable;
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, Summary, axis};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;

/// Where the jobs come from, as written in a config.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadConfig {
    /// An SWF trace (a path, or a name under the traces directory), or a
    /// Slurm accounting dump (detected by its `sacct --parsable2` header).
    pub trace: Option<PathBuf>,
    /// Skip malformed trace lines.
    #[serde(default)]
    pub lenient: bool,
    /// Synthetic workload settings (used when no trace is given).
    pub synthetic: Option<SyntheticConfig>,
}

impl WorkloadConfig {
    /// The workload it names.
    pub fn source(&self) -> WorkloadSource {
        match &self.trace {
            Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: self.lenient },
            None => WorkloadSource::Synthetic(self.synthetic.clone().unwrap_or_default()),
        }
    }
}

/// A single-cluster config file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
// The top-level keys are checked by the config reader before a kind reads
// its own (`Experiment::kind_of`): the common ones are not repeated here.
struct SingleConfig {
    /// The jobs.
    #[serde(default)]
    workload: WorkloadConfig,
    /// Preparation.
    #[serde(default)]
    prepare: PrepareConfig,
    /// Node failures (default: LANL replay with a trace, Poisson otherwise,
    /// none for the classic queueing modes).
    #[serde(default)]
    failures: Option<FailureSource>,
    /// Overbooking settings.
    #[serde(default)]
    overbooking: OverbookingConfig,
    /// Paper B's reservations.
    #[serde(default)]
    reservations: ReservationConfig,
    /// The classic queueing modes (`fcfs`, `easy`, `conservative`).
    #[serde(default)]
    classic: ClassicConfig,
    /// The external scheduler of a strategy speaking Batsim's protocol (`batsim`).
    #[serde(default)]
    batsim: Option<crate::policy::batsim::BatsimConfig>,
    /// An energy meter on each run's cluster (watts per node state): off when absent.
    #[serde(default)]
    energy: Option<crate::cluster::energy::EnergyConfig>,
    /// Who switches the nodes off and on: nobody when absent.
    #[serde(default)]
    energy_policy: EnergyPolicySettings,
    /// Grid signals the energy is accounted against: none when absent.
    #[serde(default)]
    signals: Option<crate::cluster::carbon::SignalsConfig>,
    /// When jobs run by a grid signal: not shifted when absent.
    #[serde(default)]
    shifting: Option<crate::policy::shifting::ShiftingConfig>,
    /// Placement policy.
    #[serde(default)]
    placement: Placement,
    /// Store a row per job (`job_outcomes`, `reservations`, `job_carbon`);
    /// `false` keeps each run's row and aggregates only.
    #[serde(default = "crate::point::yes")]
    store_jobs: bool,
}

/// The single-cluster kind.
pub struct SingleKind;

/// The single-cluster kind, registered first.
pub static SINGLE: SingleKind = SingleKind;

/// Its short axis names.
const AXES: &[Axis] = &[
    axis("strategy", "strategy", "the scheduling strategy (`slasim list strategies`)"),
    axis("placement", "placement", "first-fit, best-fit, highest-pos or last-fit"),
    axis("battery", "battery", "a battery index, or \"all\""),
    axis("trace", "workload.swf.path", "an SWF trace (path or name under the traces directory)"),
    axis("pof_max", "overbooking.pof_max", "PoF_max of the PoF acceptance test"),
    axis("acceptance", "overbooking.acceptance", "pof or risk"),
    axis("security_factor", "overbooking.security_factor", "security factor of the risk test"),
    axis("penalty_ratio", "prepare.penalty_ratio", "penalty = ratio × fee"),
    axis("pdf_source", "overbooking.pdf.source", "runtime statistics by runtime, resources, user, …"),
    axis("pdf_update", "overbooking.pdf.update", "static or online runtime statistics"),
    axis("pdf_half_life", "overbooking.pdf.half_life_days", "online statistics' half-life, days"),
    axis("bin_rounding", "overbooking.pdf.bin_rounding", "how runtime ratios fall into bins"),
    axis("pof_calibration", "overbooking.calibration", "none, isotonic, isotonic-upper, scale, logistic"),
    axis("checkpointing", "overbooking.checkpoint.enabled", "paper A's checkpoint/restart"),
    axis("replan_shortens", "overbooking.replan_shortens", "heuristic re-planning may shorten (ablation)"),
    axis("pos_at", "overbooking.pos_at", "where heuristic overbooking reads a gap's PoS (ablation)"),
    axis("failures", "failures.model", "lanl, none, poisson, weibull or hyperexp"),
    axis("reservation_percent", "reservations.percent", "paper B's reservations, % of the jobs"),
    axis("start_factor", "reservations.start_factor", "start delay of a reservation / estimate"),
    axis("reservation_option", "reservations.option", "reject or move"),
    axis("max_moves", "reservations.max_moves", "starvation guard: pin after this many moves"),
    axis("drop_overruns", "prepare.filter.drop_overruns", "drop jobs that ran past their estimate"),
    axis("completed_only", "prepare.filter.completed_only", "keep completed jobs only"),
    axis("kill_at_estimate", "classic.kill_at_estimate", "classic modes: kill a job at its estimate"),
    axis(
        "scheduler_command",
        "batsim.command",
        "strategy batsim: the external scheduler's command, {port} for its port",
    ),
    axis("energy_policy", "energy_policy.name", "who switches nodes off and on (`slasim list energy-policies`)"),
    axis("idle_timeout", "energy_policy.idle_timeout", "seconds idle before a shutdown policy switches a node off"),
    axis("power_cap", "energy.cap_watts", "watts the cluster may draw at any instant (needs [energy])"),
    axis("region", "signals.region", "the shipped grid signals of a region, e.g. DE-LU (needs [energy])"),
    axis("signal_offset", "signals.offset", "seconds added to the run's instants on its grid signals"),
    axis("signal_scale", "signals.scale", "signal seconds per simulated second (> 0)"),
    axis("shifting", "shifting.policy", "when jobs run by a grid signal (`slasim list shifting-policies`)"),
    axis("forecast", "shifting.forecast", "what a shifting policy sees ahead (`slasim list forecasts`)"),
    axis("forecast_noise", "shifting.noise", "the noise forecast's relative error (0.1 is 10 %)"),
    axis("shift_horizon", "shifting.horizon", "seconds a job may be shifted beyond its earliest start"),
    axis("target_load", "prepare.target_load", "estimated offered load of the input (2.0 = 200 %)"),
    axis("capacity", "prepare.capacity", "machine size (default: the trace header's)"),
    axis("sla_terms", "prepare.sla_terms", "each job's deadline, fee and penalty (`slasim list sla-terms`)"),
];

/// The sections it reads (`workload` shared with the Grid kind).
pub(crate) const SECTIONS: [&str; 13] = [
    "workload",
    "prepare",
    "failures",
    "overbooking",
    "reservations",
    "classic",
    "batsim",
    "energy",
    "energy_policy",
    "signals",
    "shifting",
    "placement",
    "store_jobs",
];

/// The single-cluster kind, as data.
static INFO: KindInfo = KindInfo {
    name: "single",
    described: "a single-cluster experiment",
    setting_of: "single-cluster",
    section: None,
    sections: &SECTIONS,
    settings_in_section: false,
    axes: AXES,
    tables: &RUNS,
};

impl PointKind for SingleKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: SingleConfig = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        config.overbooking.validate().map_err(|e| loc.at(loc.anywhere(e.setting), e))?;
        config.reservations.validate().map_err(|e| {
            let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
            loc.at(loc.anywhere(key), e)
        })?;
        config.prepare.validate_split().map_err(|e| loc.at(0, e))?;
        if let Some(energy) = &config.energy {
            energy.validate().map_err(|e| {
                let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                loc.at(loc.anywhere(key), e)
            })?;
        }
        config.energy_policy.validate().map_err(|e| loc.at(loc.anywhere("idle_timeout"), e))?;
        if let Some(signals) = &config.signals {
            signals.validate().map_err(|e| {
                let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                loc.at(loc.anywhere(key), e)
            })?;
            if config.energy.is_none() {
                return Err(loc.at(
                    loc.section("signals"),
                    "[signals] accounts the run's energy by the hour: it needs the nodes' power model, an [energy] section",
                ));
            }
        }
        if let Some(shifting) = &config.shifting {
            shifting.validate().map_err(|e| {
                let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                loc.at(loc.anywhere(key), e)
            })?;
        }
        let batteries = if config.prepare.whole_log { 1 } else { config.prepare.batteries };
        let workload = config.workload.source();
        let strategy = StrategyRef::named("conservative-backfilling").map_err(|e| loc.at(0, e))?;
        let failures = config.failures.clone().unwrap_or_else(|| default_failures(strategy, &workload));
        let base = SinglePoint {
            strategy,
            placement: config.placement,
            seed: file.seed,
            battery: 0,
            workload,
            prepare: config.prepare,
            failures,
            overbooking: config.overbooking,
            reservations: config.reservations,
            classic: config.classic,
            batsim: config.batsim,
            energy: config.energy,
            energy_policy: config.energy_policy,
            signals: config.signals,
            shifting: config.shifting,
            store_jobs: config.store_jobs,
        };
        Base::of(file, base, batteries)
    }

    fn restarted_section(
        &self,
        table: &toml::Table,
        path: &str,
        value: &toml::Value,
    ) -> Option<(&'static str, toml::Table)> {
        restarted_failures(table, path, value)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let point: SinglePoint = value.try_into().map_err(|e| sweep.unreadable(e))?;
        finish(point, sweep).map(Point::new)
    }
}

/// Checks one single-cluster point read from a sweep and resolves it.
fn finish(point: SinglePoint, sweep: &SweepContext<'_>) -> Result<SinglePoint, ConfigError> {
    let (loc, label) = (&sweep.loc, sweep.label);
    let alias_of = |setting: &str| AXES.iter().find(|a| a.path == setting).map(|a| a.name);
    // Checked before normalising: a value outside its domain is refused even
    // where the point's strategy does not read it.
    point.overbooking.validate().map_err(|e| {
        let axis = AXES.iter().find(|a| a.path.ends_with(e.setting)).map_or(e.setting, |a| a.name);
        loc.at(sweep.in_sweep(axis), e)
    })?;
    point.reservations.validate().map_err(|e| loc.at(sweep.in_sweep(alias_of(e.setting).unwrap_or(e.setting)), e))?;
    if let Some(energy) = &point.energy {
        energy.validate().map_err(|e| {
            let at = alias_of(e.setting)
                .map_or_else(|| loc.anywhere(e.setting.rsplit('.').next().unwrap_or(e.setting)), |a| sweep.in_sweep(a));
            loc.at(at, format!("{label}: {e}"))
        })?;
    }
    point.energy_policy.validate().map_err(|e| loc.at(sweep.in_sweep("idle_timeout"), format!("{label}: {e}")))?;
    if let Some(signals) = &point.signals {
        signals.validate().map_err(|e| {
            let at = alias_of(e.setting)
                .map_or_else(|| loc.anywhere(e.setting.rsplit('.').next().unwrap_or(e.setting)), |a| sweep.in_sweep(a));
            loc.at(at, format!("{label}: {e}"))
        })?;
    }
    if let Some(shifting) = &point.shifting {
        shifting.validate().map_err(|e| {
            let at = alias_of(e.setting)
                .map_or_else(|| loc.anywhere(e.setting.rsplit('.').next().unwrap_or(e.setting)), |a| sweep.in_sweep(a));
            loc.at(at, format!("{label}: {e}"))
        })?;
    }
    let moving = point.reservations.option == ReservationOption::Move;
    let point = point.resolve(sweep.sets("failures")).map_err(|e| {
        let at = match e.downcast_ref::<slasim_core::setting::InvalidSetting>() {
            Some(s) => alias_of(s.setting).map_or_else(|| loc.anywhere(s.setting), |a| sweep.in_sweep(a)),
            None => sweep.in_sweep("strategy"),
        };
        loc.at(at, format!("{label}: {e:#}"))
    })?;
    if moving && !point.strategy.moves_planned_jobs {
        return Err(loc.at(
            sweep.in_sweep("reservation_option"),
            format!(
                "{label}: reservation option `move` with strategy {}, which never moves a booking; \
                 strategies that move planned jobs: {}",
                point.strategy,
                strategy_infos().iter().filter(|s| s.moves_planned_jobs).map(|s| s.name).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let batteries = if point.prepare.whole_log { 1 } else { sweep.batteries };
    if point.battery >= batteries {
        return Err(loc.at(
            sweep.in_sweep("battery"),
            format!("battery {} does not exist: the preparation makes {batteries}", point.battery),
        ));
    }
    Ok(point)
}

// The single-cluster kind's points: run on one cluster, stored as runs.
impl AnyPoint for SinglePoint {
    fn kind(&self) -> &'static dyn PointKind {
        &SINGLE
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        SinglePoint::canonical(self)
    }

    fn label(&self) -> String {
        format!("{} battery {}", self.strategy, self.battery)
    }

    fn load(&self, _index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        self.load_inputs(inputs)
    }

    fn missing(&self) -> Vec<anyhow::Error> {
        let mut missing: Vec<anyhow::Error> = self.workload.check().err().into_iter().collect();
        if let FailureSource::Lanl { path, .. } = &self.failures
            && let Err(e) = existing_lanl_file(path.as_deref())
        {
            missing.push(e.into());
        }
        missing
    }

    fn shared_rows(&self, inputs: &Inputs) -> Option<Box<dyn PointOutput>> {
        let prepared = self.prepared(inputs).ok()?;
        Some(Box::new(BatteryRows { key: self.battery_key(), prepared, battery: self.battery }))
    }

    fn run(
        &self,
        inputs: &Inputs,
        _budget: &Arc<Budget>,
        _experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        let (output, summary) = run(inputs, self)?;
        Ok(Box::new(Simulated { output, summary }))
    }

    fn stored_summary(&self, store: &Store, id: i64) -> Result<Option<Summary>, StoreError> {
        Ok(Some(Arc::new(stored_summary(store, id)?)))
    }

    slasim_core::point_boilerplate!();
}

/// A single-cluster run's rows and summary.
#[derive(Debug)]
struct Simulated {
    output: RunOutput,
    summary: RunSummary,
}

impl PointOutput for Simulated {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        write_run(store, &self.output)
    }

    fn summary(&self) -> Option<Summary> {
        Some(Arc::new(self.summary))
    }
}

/// A battery's jobs, stored while a point that reads them runs (once: a
/// battery stored already is left as it is).
#[derive(Debug)]
struct BatteryRows {
    /// Its `battery_key`.
    key: i64,
    /// The prepared workload holding it.
    prepared: Arc<Prepared>,
    /// Its index there.
    battery: usize,
}

impl PointOutput for BatteryRows {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        if let Some(battery) = self.prepared.batteries.get(self.battery) {
            let written = write_battery(store, self.key, &battery.jobs)?;
            tracing::debug!(key = self.key, written, "battery stored");
        }
        Ok(())
    }
}
