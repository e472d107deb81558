//! The Slurm point: a workload (a sacct dump, or the synthetic Slurm
//! generator) on the machine and schedulers of a `slurm.conf`, with any of
//! its scheduling settings changed by a sweep.
//!
//! Contract:
//! - [`SlurmSettings`] is what a config's `[slurm]` table and `slasim run
//!   --slurm-conf` say; every `priority_*` / `bf_*` / `*_queue_depth` /
//!   `sched_interval` key left unset keeps the file's value. Units are
//!   Slurm's: `bf_window` in minutes, `priority_decay_half_life`,
//!   `priority_max_age` and `priority_calc_period` in minutes too,
//!   `bf_resolution`, `bf_interval` and `sched_interval` in seconds.
//! - The resolved point carries the sha256 of the `slurm.conf` it reads, so
//!   a changed file is a new point, never a stale "already there".
//! - Its rows: one `slurm_points` row (settings and aggregates), one
//!   `slurm_groups` row per partition, account, user and QOS (jobs, waits,
//!   CPU and GPU seconds), one `slurm_reasons` row per reason jobs waited
//!   for (a limit's, a dependency's or an array's), and, unless
//!   `store_jobs = false`, one `slurm_jobs` row per job (its last reason: a
//!   limit's, else a dependency's or an array's).
//! - Bad input (a `slurm.conf` error, a dump error, a job the machine
//!   cannot run) is an error naming the file, line and field; nothing is
//!   stored for the point.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::bench::{Scenario, simulate};
use crate::conf::{PrioritySettings, SchedulerSettings, SlurmConf};
use crate::controller::Outcome;
use crate::synthetic::{PartitionShape, SlurmSynthetic, generate};
use crate::tables::{
    Aggregates, SLURM_GROUPS, SLURM_JOBS, SLURM_POINTS as SLURM_POINT_ROWS, SLURM_REASONS, SlurmGroupRow, SlurmJobRow,
    SlurmPointRow, SlurmReasonRow,
};
use slasim_core::experiment::id::{Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim_core::experiment::provenance::code_version;
use slasim_core::metrics;
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_data::trace::gpu;
use slasim_sim::units::Time;

/// A Slurm experiment's settings (`[slurm]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlurmSettings {
    /// Seed of the synthetic workload.
    pub seed: u64,
    /// The `slurm.conf` (the machine, partitions, priority and schedulers).
    pub conf: PathBuf,
    /// A sacct dump (`sacct --parsable2`); without it, the synthetic workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// Skip malformed dump lines.
    pub lenient: bool,
    /// The synthetic workload, when no trace is given.
    pub synthetic: SlurmSynthetic,
    /// Store one row per job (`slurm_jobs`).
    pub store_jobs: bool,
    /// `PriorityWeightAge`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_weight_age: Option<f64>,
    /// `PriorityWeightFairshare`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_weight_fairshare: Option<f64>,
    /// `PriorityWeightJobSize`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_weight_job_size: Option<f64>,
    /// `PriorityWeightPartition`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_weight_partition: Option<f64>,
    /// `PriorityWeightQOS`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_weight_qos: Option<f64>,
    /// `PriorityDecayHalfLife`, minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_decay_half_life: Option<f64>,
    /// `PriorityMaxAge`, minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_max_age: Option<f64>,
    /// `PriorityCalcPeriod`, minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_calc_period: Option<f64>,
    /// `PriorityFavorSmall`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_favor_small: Option<bool>,
    /// `bf_window`, minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf_window: Option<f64>,
    /// `bf_resolution`, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf_resolution: Option<f64>,
    /// `bf_interval`, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf_interval: Option<f64>,
    /// `bf_max_job_test`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf_max_job_test: Option<u32>,
    /// `default_queue_depth`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_queue_depth: Option<u32>,
    /// `sched_interval`, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sched_interval: Option<f64>,
    /// `SchedulerType=sched/backfill` (true) or `sched/builtin` (false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backfill: Option<bool>,
    /// When slurmctld started (Unix seconds), for a dump with absolute
    /// times: the phase of its periodic events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller_start: Option<i64>,
    /// When slurmctld's backfill agent started (Unix seconds; its log's
    /// `Running as primary controller`): the phase of the backfill passes.
    /// Unset, the agent has long been running.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backfill_start: Option<i64>,
    /// A `sacctmgr show qos -P` dump: the QOS priority factor and the QOS
    /// limits ([`crate::accounting`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qos: Option<PathBuf>,
    /// A `sacctmgr show assoc -P` dump: the association limits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assoc: Option<PathBuf>,
    /// An `scontrol show reservation` dump: the advance reservations
    /// ([`crate::advance`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reservations: Option<PathBuf>,
}

impl Default for SlurmSettings {
    fn default() -> Self {
        SlurmSettings {
            seed: 1,
            conf: PathBuf::new(),
            trace: None,
            lenient: false,
            synthetic: SlurmSynthetic::default(),
            store_jobs: true,
            priority_weight_age: None,
            priority_weight_fairshare: None,
            priority_weight_job_size: None,
            priority_weight_partition: None,
            priority_weight_qos: None,
            priority_decay_half_life: None,
            priority_max_age: None,
            priority_calc_period: None,
            priority_favor_small: None,
            bf_window: None,
            bf_resolution: None,
            bf_interval: None,
            bf_max_job_test: None,
            default_queue_depth: None,
            sched_interval: None,
            backfill: None,
            controller_start: None,
            backfill_start: None,
            qos: None,
            assoc: None,
            reservations: None,
        }
    }
}

/// A resolved Slurm point: the settings and the digest of the conf they read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlurmPoint {
    /// The settings.
    pub settings: SlurmSettings,
    /// sha256 of the `slurm.conf`'s bytes.
    pub conf_sha256: String,
    /// sha256 of the QOS dump's bytes, when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qos_sha256: Option<String>,
    /// sha256 of the association dump's bytes, when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assoc_sha256: Option<String>,
    /// sha256 of the reservations dump's bytes, when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reservations_sha256: Option<String>,
}

/// Checks a number a sweep or a config gives: finite and not negative.
fn amount(name: &'static str, value: Option<f64>) -> anyhow::Result<()> {
    match value {
        Some(v) if !v.is_finite() || v < 0.0 => {
            Err(slasim_core::setting::InvalidSetting::new(name, v, "must be a finite number, not negative").into())
        }
        _ => Ok(()),
    }
}

impl SlurmSettings {
    /// The point these settings describe: the conf read for its digest.
    pub fn resolve(&self) -> anyhow::Result<SlurmPoint> {
        for (name, v) in [
            ("slurm.priority_weight_age", self.priority_weight_age),
            ("slurm.priority_weight_fairshare", self.priority_weight_fairshare),
            ("slurm.priority_weight_job_size", self.priority_weight_job_size),
            ("slurm.priority_weight_partition", self.priority_weight_partition),
            ("slurm.priority_weight_qos", self.priority_weight_qos),
            ("slurm.priority_decay_half_life", self.priority_decay_half_life),
            ("slurm.priority_max_age", self.priority_max_age),
            ("slurm.priority_calc_period", self.priority_calc_period),
            ("slurm.bf_window", self.bf_window),
            ("slurm.bf_resolution", self.bf_resolution),
            ("slurm.bf_interval", self.bf_interval),
            ("slurm.sched_interval", self.sched_interval),
            ("slurm.synthetic.days", Some(self.synthetic.days)),
            ("slurm.synthetic.load", Some(self.synthetic.load)),
        ] {
            amount(name, v)?;
        }
        let bytes = match self.generated_conf()? {
            Some((text, _)) => text.into_bytes(),
            None => std::fs::read(&self.conf)
                .with_context(|| format!("{}: cannot read the slurm.conf", self.conf.display()))?,
        };
        let hex = |bytes: &[u8]| Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect::<String>();
        let conf_sha256 = hex(&bytes);
        let dump = |path: &Option<PathBuf>, what: &str| -> anyhow::Result<Option<String>> {
            path.as_ref()
                .map(|p| {
                    std::fs::read(p)
                        .map(|b| hex(&b))
                        .with_context(|| format!("{}: cannot read the {what}", p.display()))
                })
                .transpose()
        };
        let qos_sha256 = dump(&self.qos, "QOS dump")?;
        let assoc_sha256 = dump(&self.assoc, "association dump")?;
        let reservations_sha256 = dump(&self.reservations, "reservations dump")?;
        Ok(SlurmPoint { settings: self.clone(), conf_sha256, qos_sha256, assoc_sha256, reservations_sha256 })
    }

    /// The file's priority settings with this point's changes.
    pub fn priority(&self, file: &PrioritySettings) -> PrioritySettings {
        let minutes = |m: Option<f64>, keep: Time| m.map_or(keep, |m| (m * 60.0).round() as Time);
        PrioritySettings {
            weight_age: self.priority_weight_age.unwrap_or(file.weight_age),
            weight_fairshare: self.priority_weight_fairshare.unwrap_or(file.weight_fairshare),
            weight_job_size: self.priority_weight_job_size.unwrap_or(file.weight_job_size),
            weight_partition: self.priority_weight_partition.unwrap_or(file.weight_partition),
            weight_qos: self.priority_weight_qos.unwrap_or(file.weight_qos),
            decay_half_life: minutes(self.priority_decay_half_life, file.decay_half_life),
            max_age: minutes(self.priority_max_age, file.max_age),
            calc_period: minutes(self.priority_calc_period, file.calc_period).max(1),
            favor_small: self.priority_favor_small.unwrap_or(file.favor_small),
            ..file.clone()
        }
    }

    /// The file's scheduler settings with this point's changes.
    pub fn scheduler(&self, file: &SchedulerSettings) -> SchedulerSettings {
        let seconds = |s: Option<f64>, keep: Time| s.map_or(keep, |s| s.round() as Time);
        SchedulerSettings {
            backfill: self.backfill.unwrap_or(file.backfill),
            bf_window: self.bf_window.map_or(file.bf_window, |m| (m * 60.0).round() as Time),
            bf_resolution: seconds(self.bf_resolution, file.bf_resolution).max(1),
            bf_interval: seconds(self.bf_interval, file.bf_interval).max(1),
            bf_max_job_test: self.bf_max_job_test.unwrap_or(file.bf_max_job_test),
            default_queue_depth: self.default_queue_depth.unwrap_or(file.default_queue_depth),
            sched_interval: seconds(self.sched_interval, file.sched_interval).max(1),
            ..file.clone()
        }
    }

    /// Without a `conf`, the `slurm.conf` generated for the machine of a
    /// GPU-era trace ([`crate::gpu::machine`]) and the name its errors give;
    /// `None` when a conf is given.
    fn generated_conf(&self) -> anyhow::Result<Option<(String, PathBuf)>> {
        if !self.conf.as_os_str().is_empty() {
            return Ok(None);
        }
        let trace = match &self.trace {
            Some(t) => slasim_data::trace::resolve_trace(t).map_err(|e| anyhow::anyhow!(e))?,
            None => PathBuf::new(),
        };
        if !gpu::is_gpu_trace(&trace) {
            anyhow::bail!(
                "slurm.conf: no file given (set `conf = \"path/to/slurm.conf\"` in [slurm], or --slurm-conf; \
                 only a GPU-era trace describes its own machine)"
            );
        }
        let text = crate::gpu::machine(&trace, &gpu::read_jobs(&trace)?)?;
        Ok(Some((text, PathBuf::from(format!("(slurm.conf generated from {})", trace.display())))))
    }

    fn workload_key(&self) -> String {
        format!(
            "{}|{:?}|{}|{:?}|{}|{:?}|{:?}|{:?}",
            self.conf.display(),
            self.trace,
            self.lenient,
            self.synthetic,
            self.seed,
            self.qos,
            self.assoc,
            self.reservations
        )
    }
}

pub use crate::bench::SlurmInputs;

/// The partitions of `conf` as the synthetic generator sees them.
pub fn shapes(conf: &SlurmConf) -> Vec<PartitionShape> {
    conf.partitions
        .iter()
        .map(|p| {
            let nodes = p.nodes.iter().map(|&i| &conf.nodes[i]);
            PartitionShape {
                name: p.name.clone(),
                nodes: p.nodes.len() as u32,
                cpus_per_node: nodes.clone().map(|n| n.cpus).min().unwrap_or(0),
                mem_per_node: nodes.clone().map(|n| n.real_memory_mib).min().unwrap_or(0),
                gpus_per_node: nodes.map(|n| n.gpus).min().unwrap_or(0),
                max_time: p.max_time,
            }
        })
        .collect()
}

/// Reads the conf and the workload of `settings`.
pub fn load(settings: &SlurmSettings) -> anyhow::Result<SlurmInputs> {
    let conf = match settings.generated_conf()? {
        Some((text, name)) => crate::conf::parse(&text, &name)?,
        None => crate::conf::read(&settings.conf)?,
    };
    let workload = match &settings.trace {
        Some(path) => {
            let path = slasim_data::trace::resolve_trace(path).map_err(|e| anyhow::anyhow!(e))?;
            if gpu::is_gpu_trace(&path) {
                crate::gpu::workload(&path, &gpu::read_jobs(&path)?)
            } else {
                let options = slasim_data::trace::sacct::NativeOptions { lenient: settings.lenient };
                slasim_data::trace::sacct::read_native(&path, options)?.0
            }
        }
        None => generate(&settings.synthetic, &shapes(&conf), settings.seed),
    };
    let accounting = crate::accounting::Accounting::read(settings.qos.as_deref(), settings.assoc.as_deref())?;
    if let Some(dump) = &accounting.qos {
        crate::sacctmgr::check_partition_qos(&conf, dump)?;
    }
    let advance = match &settings.reservations {
        Some(path) => {
            let file = crate::reservation::read(path)?;
            let machine = crate::machine::Machine::new(&conf);
            Some(crate::advance::AdvanceReservations::new(&file, &conf, &machine, &workload)?)
        }
        None => None,
    };
    Ok(SlurmInputs { conf, workload, accounting, advance })
}

/// The inputs of `settings`, once [`AnyPoint::load`] loaded them.
fn loaded(inputs: &Inputs, settings: &SlurmSettings) -> anyhow::Result<Arc<SlurmInputs>> {
    inputs.get::<SlurmInputs>(&settings.workload_key()).context("the Slurm point's inputs were not loaded")
}

/// What one Slurm run produced.
#[derive(Debug, Clone)]
pub struct SlurmRun {
    /// Per job, in workload order.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: crate::controller::Counters,
    /// Per job: the reason it last waited for, or was rejected for (empty
    /// when no job had one).
    pub reasons: Vec<Option<crate::accounting::Reason>>,
    /// Per job: the dependency or array reason it last waited for (empty
    /// when no job had one).
    pub waits: Vec<Option<crate::dependency::Wait>>,
}

/// Runs `settings` on `inputs`.
pub fn simulate_point(settings: &SlurmSettings, inputs: &SlurmInputs) -> anyhow::Result<SlurmRun> {
    simulate_point_ending(settings, inputs, crate::queued::RunEnd::AfterStart)
}

/// Runs `settings` on `inputs`, each run ending by `run_end`.
pub fn simulate_point_ending(
    settings: &SlurmSettings,
    inputs: &SlurmInputs,
    run_end: crate::queued::RunEnd,
) -> anyhow::Result<SlurmRun> {
    let priority = settings.priority(&inputs.conf.priority);
    let scheduler = settings.scheduler(&inputs.conf.scheduler);
    let mut scenario = Scenario::with_reservations(
        &inputs.conf,
        priority,
        scheduler,
        &inputs.workload,
        &inputs.accounting,
        inputs.advance.as_ref(),
    )?
    .with_preemption(&inputs.conf, &inputs.accounting, &inputs.workload)?;
    if let (Some(start), Some(epoch)) = (settings.controller_start, inputs.workload.epoch) {
        scenario = scenario.controller_started_at(start - epoch);
    }
    if let (Some(start), Some(epoch)) = (settings.backfill_start, inputs.workload.epoch) {
        scenario = scenario.backfill_started_at(start - epoch);
    }
    let done = simulate(scenario.ending_runs(run_end))?;
    Ok(SlurmRun { outcomes: done.outcomes, counters: done.counters, reasons: done.reasons, waits: done.waits })
}

/// The Slurm kind.
pub struct SlurmKind;

/// The Slurm kind, registered among the built-in ones.
pub static SLURM: SlurmKind = SlurmKind;

static AXES: [Axis; 19] = [
    axis("conf", "conf", "the slurm.conf (a path): a centre's what-if"),
    axis("qos", "qos", "the sacctmgr show qos -P dump (a path)"),
    axis("assoc", "assoc", "the sacctmgr show assoc -P dump (a path)"),
    axis("priority_weight_age", "priority_weight_age", "PriorityWeightAge"),
    axis("priority_weight_fairshare", "priority_weight_fairshare", "PriorityWeightFairshare"),
    axis("priority_weight_job_size", "priority_weight_job_size", "PriorityWeightJobSize"),
    axis("priority_weight_partition", "priority_weight_partition", "PriorityWeightPartition"),
    axis("priority_weight_qos", "priority_weight_qos", "PriorityWeightQOS"),
    axis("priority_decay_half_life", "priority_decay_half_life", "PriorityDecayHalfLife, minutes"),
    axis("priority_max_age", "priority_max_age", "PriorityMaxAge, minutes"),
    axis("priority_favor_small", "priority_favor_small", "PriorityFavorSmall (true/false)"),
    axis("bf_window", "bf_window", "backfill window, minutes"),
    axis("bf_resolution", "bf_resolution", "backfill time resolution, seconds"),
    axis("bf_interval", "bf_interval", "seconds between backfill passes"),
    axis("bf_max_job_test", "bf_max_job_test", "jobs a backfill pass tests"),
    axis("default_queue_depth", "default_queue_depth", "jobs a main scheduler pass tests"),
    axis("backfill", "backfill", "sched/backfill (true) or sched/builtin (false)"),
    axis("load", "synthetic.load", "the synthetic workload's offered load"),
    axis("days", "synthetic.days", "days of synthetic submissions"),
];

#[derive(Debug, Deserialize)]
struct SlurmFile {
    #[serde(default)]
    slurm: Option<SlurmSettings>,
}

/// The Slurm kind, as data.
static INFO: KindInfo = KindInfo {
    name: "slurm",
    described: "a Slurm experiment ([slurm])",
    setting_of: "Slurm",
    section: Some("slurm"),
    sections: &["slurm"],
    settings_in_section: true,
    axes: &AXES,
    tables: &crate::tables::GROUP,
};

impl PointKind for SlurmKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let config: SlurmFile = toml::from_str(file.loc.text).map_err(|e| file.loc.syntax(e))?;
        let settings = config.slurm.unwrap_or_default();
        let settings = SlurmSettings { seed: file.seed_of("slurm", settings.seed), ..settings };
        Base::of(file, settings, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let settings: SlurmSettings = value.try_into().map_err(|e| sweep.unreadable(e))?;
        Ok(Point::new(settings.resolve().map_err(|e| sweep.invalid(e))?))
    }
}

impl SlurmPoint {
    /// Its stable id.
    pub fn id(&self) -> Result<i64, Unserialisable> {
        Ok(slasim_core::experiment::id::PointId::of(&canonical_toml(self)?).run_id)
    }
}

impl AnyPoint for SlurmPoint {
    fn kind(&self) -> &'static dyn PointKind {
        &SLURM
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    fn label(&self) -> String {
        let s = &self.settings;
        let workload = s.trace.as_ref().map_or_else(|| "synthetic".to_string(), |t| t.display().to_string());
        format!("slurm {} on {}", workload, s.conf.display())
    }

    fn load(&self, _index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        inputs.load_once(self.settings.workload_key(), || {
            let loaded = load(&self.settings)?;
            // Every job must fit the machine before anything runs or is stored.
            Scenario::with_reservations(
                &loaded.conf,
                loaded.conf.priority.clone(),
                loaded.conf.scheduler.clone(),
                &loaded.workload,
                &loaded.accounting,
                loaded.advance.as_ref(),
            )?
            .with_preemption(&loaded.conf, &loaded.accounting, &loaded.workload)?;
            Ok(loaded)
        })
    }

    fn missing(&self) -> Vec<anyhow::Error> {
        let mut missing = Vec::new();
        if !self.settings.conf.as_os_str().is_empty() && !self.settings.conf.exists() {
            missing.push(anyhow::anyhow!("{}: no such slurm.conf", self.settings.conf.display()));
        }
        if let Some(t) = &self.settings.trace
            && let Err(e) = slasim_data::trace::resolve_trace(t)
        {
            missing.push(anyhow::anyhow!(e));
        }
        for (path, what) in [
            (&self.settings.qos, "QOS dump"),
            (&self.settings.assoc, "association dump"),
            (&self.settings.reservations, "reservations dump"),
        ] {
            if let Some(p) = path
                && !p.exists()
            {
                missing.push(anyhow::anyhow!("{}: no such {what}", p.display()));
            }
        }
        missing
    }

    fn run(
        &self,
        inputs: &Inputs,
        _budget: &Arc<Budget>,
        experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        let started = Instant::now();
        let loaded = loaded(inputs, &self.settings)?;
        let run = simulate_point(&self.settings, &loaded)?;
        Ok(Box::new(SlurmOutput {
            id: self.id()?,
            config: canonical_toml(self)?,
            experiment: experiment.map(str::to_string),
            point: self.clone(),
            inputs: loaded,
            run,
            wall_seconds: started.elapsed().as_secs_f64(),
        }))
    }

    slasim_core::point_boilerplate!();
}

/// A Slurm point's rows.
#[derive(Debug)]
struct SlurmOutput {
    id: i64,
    /// The point's canonical settings.
    config: String,
    experiment: Option<String>,
    point: SlurmPoint,
    inputs: Arc<SlurmInputs>,
    run: SlurmRun,
    wall_seconds: f64,
}

/// Waits and usage of a group of jobs.
#[derive(Debug, Default, Clone, Copy)]
struct Group {
    jobs: i64,
    wait_sum: f64,
    max_wait: i64,
    cpu_seconds: f64,
    gpu_seconds: f64,
}

/// The aggregates of `run` on `inputs`, on its `machine`.
pub fn aggregates(inputs: &SlurmInputs, machine: &crate::machine::Machine, run: &SlurmRun) -> Aggregates {
    let jobs = &inputs.workload.jobs;
    let total = machine.total();
    let mut waits: Vec<i64> = Vec::with_capacity(jobs.len());
    let (mut cpu, mut gpu, mut bsld) = (0.0, 0.0, 0.0);
    let (mut first, mut last) = (Time::MAX, Time::MIN);
    let mut backfilled = 0;
    for (job, o) in jobs.iter().zip(&run.outcomes) {
        if o.start < 0 {
            continue;
        }
        let wait = metrics::wait(job.submit, o.start);
        waits.push(wait);
        let ran = (o.end - o.start) as f64;
        let need = crate::machine::Need::of(&request_of(machine, &inputs.workload, job, o), machine.consumable).total();
        cpu += f64::from(need.cpus) * ran;
        gpu += f64::from(need.gpus) * ran;
        bsld += metrics::bounded_slowdown(wait, o.end - o.start);
        first = first.min(job.submit);
        last = last.max(o.end);
        backfilled += usize::from(o.backfilled);
    }
    let n = waits.len();
    let makespan = if n > 0 { last - first } else { 0 };
    let per = |x: f64, of: u64| (of > 0 && makespan > 0).then(|| x / (of as f64 * makespan as f64));
    let mut sorted = waits.clone();
    sorted.sort_unstable();
    Aggregates {
        jobs: n,
        mean_wait: (n > 0).then(|| waits.iter().sum::<i64>() as f64 / n as f64),
        median_wait: (n > 0)
            .then(|| if n % 2 == 1 { sorted[n / 2] as f64 } else { (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0 }),
        max_wait: sorted.last().copied(),
        mean_bounded_slowdown: (n > 0).then(|| bsld / n as f64),
        makespan,
        cpu_utilisation: per(cpu, u64::from(total.cpus)),
        gpu_utilisation: per(gpu, u64::from(total.gpus)),
        backfilled,
    }
}

impl PointOutput for SlurmOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        let w = &self.inputs.workload;
        let machine = crate::machine::Machine::new(&self.inputs.conf);
        let a = aggregates(&self.inputs, &machine, &self.run);
        let s = &self.point.settings;
        let config = &self.config;
        let trace = s.trace.as_ref().map_or_else(|| "synthetic".to_string(), |t| t.display().to_string());
        // Groups: partitions, accounts, users, QOS, in name order.
        let mut groups: std::collections::BTreeMap<(&str, &str), Group> = std::collections::BTreeMap::new();
        for (job, o) in w.jobs.iter().zip(&self.run.outcomes) {
            if o.start < 0 {
                continue;
            }
            let wait = metrics::wait(job.submit, o.start);
            let ran = (o.end - o.start) as f64;
            let need = crate::machine::Need::of(&request_of(&machine, w, job, o), machine.consumable).total();
            for key in [
                ("partition", ran_in(&machine, w, job, o)),
                ("account", name(&w.accounts, job.account)),
                ("user", name(&w.users, job.user)),
                ("qos", name(&w.qos, job.qos)),
            ] {
                let g = groups.entry(key).or_default();
                g.jobs += 1;
                g.wait_sum += wait as f64;
                g.max_wait = g.max_wait.max(wait);
                g.cpu_seconds += f64::from(need.cpus) * ran;
                g.gpu_seconds += f64::from(need.gpus) * ran;
            }
        }
        let conf = s.conf.display().to_string();
        let code_version = code_version();
        let point = SlurmPointRow {
            point_id: self.id,
            experiment: self.experiment.as_deref(),
            conf: &conf,
            conf_sha256: &self.point.conf_sha256,
            trace: &trace,
            seed: s.seed as i64,
            config,
            aggregates: &a,
            main_passes: self.run.counters.main_passes as i64,
            backfill_passes: self.run.counters.backfill_passes as i64,
            preemptions: self.run.counters.preemptions as i64,
            code_version: &code_version,
            wall_seconds: self.wall_seconds,
        };
        let group_rows = groups.iter().map(|(&(grouping, name), g)| SlurmGroupRow {
            point_id: self.id,
            grouping,
            name,
            jobs: g.jobs,
            mean_wait: g.wait_sum / g.jobs.max(1) as f64,
            max_wait: g.max_wait,
            cpu_seconds: g.cpu_seconds,
            gpu_seconds: g.gpu_seconds,
        });
        fn name(names: &[String], i: u32) -> &str {
            names.get(i as usize).map_or("", String::as_str)
        }
        let job_rows = w.jobs.iter().zip(&self.run.outcomes).enumerate().map(|(i, (job, o))| SlurmJobRow {
            point_id: self.id,
            job: i,
            slurm: job,
            outcome: o,
            user: name(&w.users, job.user),
            account: name(&w.accounts, job.account),
            partition: ran_in(&machine, w, job, o),
            first_node: machine.names.get(o.first_node as usize).map_or("", String::as_str),
            // A limit's reason, else a dependency's or an array's.
            reason: self
                .run
                .reasons
                .get(i)
                .copied()
                .flatten()
                .map(crate::accounting::Reason::name)
                .or_else(|| self.run.waits.get(i).copied().flatten().map(crate::dependency::Wait::name)),
        });
        // Per reason: the jobs whose last reason it was, and the tests it failed.
        let mut last = [0i64; crate::accounting::Reason::ALL.len()];
        for r in self.run.reasons.iter().flatten() {
            last[*r as usize] += 1;
        }
        let mut waited = [0i64; crate::dependency::Wait::ALL.len()];
        for w in self.run.waits.iter().flatten() {
            waited[*w as usize] += 1;
        }
        let limits = crate::accounting::Reason::ALL
            .iter()
            .map(|&r| (r.name(), last[r as usize], self.run.counters.limited[r as usize] as i64));
        let waits = crate::dependency::Wait::ALL
            .iter()
            .map(|&w| (w.name(), waited[w as usize], self.run.counters.waited[w as usize] as i64));
        let reason_rows = limits
            .chain(waits)
            .filter(|&(_, jobs, tests)| jobs > 0 || tests > 0)
            .map(|(reason, jobs, tests)| SlurmReasonRow { point_id: self.id, reason, jobs, tests })
            .collect::<Vec<_>>();
        store.write_with(|tx| {
            insert(tx, &SLURM_POINT_ROWS, &point)?;
            insert_all(tx, &SLURM_GROUPS, group_rows)?;
            insert_all(tx, &SLURM_REASONS, reason_rows.into_iter())?;
            if s.store_jobs {
                insert_all(tx, &SLURM_JOBS, job_rows)?;
            }
            Ok(())
        })
    }
}

/// `job`'s request as its partition's `DefMemPerCPU`/`MaxMemPerCPU` leave it.
fn request_of(
    machine: &crate::machine::Machine,
    w: &slasim_data::trace::sacct::jobs::SlurmWorkload,
    job: &slasim_data::trace::sacct::jobs::SlurmJob,
    o: &Outcome,
) -> slasim_data::trace::sacct::jobs::Tres {
    let name = ran_in(machine, w, job, o);
    machine.partition(name).map_or(job.request, |p| machine.request_of(p, job))
}

/// The partition `job` ran in: its own, or for a job of several
/// partitions that started, the one it started in ([`crate::multipart`]).
fn ran_in<'a>(
    machine: &'a crate::machine::Machine,
    w: &'a slasim_data::trace::sacct::jobs::SlurmWorkload,
    job: &slasim_data::trace::sacct::jobs::SlurmJob,
    o: &Outcome,
) -> &'a str {
    match machine.partitions.get(o.partition as usize) {
        Some(p) if job.partitions.len() > 1 && o.start >= 0 => &p.name,
        _ => w.partitions.get(job.partition as usize).map_or("", String::as_str),
    }
}
