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
//!   cannot run) is an error naming the file, line and field, found when
//!   the point's inputs are loaded; nothing is stored for the point.
//! - The settings have one shape from the config to the controller: a
//!   point's [`SlurmSettings`] and its conf resolve to the controller's
//!   [`Settings`] ([`SlurmSettings::controller`]), which the controller is
//!   built from and keeps.
//! - The machine is built once for the points that share their inputs,
//!   when those are loaded ([`load`]: with the workload admitted to it,
//!   [`crate::admission`]); a run starts from a copy, and its results
//!   ([`crate::metrics`]) are worked out on the worker that ran it: writing
//!   the point only binds rows.
//! - With `[slurm.replicas]` each sweep makes each point once per replica
//!   (the axis `replica`): the replica's workload is the inputs' read and
//!   aligned workload, perturbed ([`crate::replica`]) and admitted on the
//!   worker that runs it; the read inputs are loaded (and admitted once, to
//!   find a bad job) for the replicas that share them.
//! - Its summary (what `slasim slurm run` prints) is its
//!   [`crate::tables::Aggregates`]: the run's, or its stored row's when the
//!   store already held it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::accounting::Accounting;
use crate::admission::Admission;
use crate::advance::AdvanceReservations;
use crate::bench::simulate;
use crate::conf::{PrioritySettings, SchedulerSettings, SlurmConf};
use crate::controller::Settings;
use crate::machine::Machine;
use crate::metrics::{SlurmResults, SlurmRun, name, ran_in};
use crate::outage::Outages;
use crate::queued::RunEnd;
use crate::replica::{Noise, Replicas};
use crate::synthetic::{PartitionShape, SlurmSynthetic, generate};
use crate::tables::{
    SLURM_GROUPS, SLURM_JOBS, SLURM_POINTS as SLURM_POINT_ROWS, SLURM_REASONS, SlurmGroupRow, SlurmJobRow,
    SlurmPointRow, SlurmReasonRow,
};
use slasim_core::experiment::id::{Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, Summary, axis};
use slasim_core::experiment::provenance::code_version;
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_data::trace::gpu;
use slasim_data::trace::sacct::jobs::SlurmWorkload;
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
    /// A `sacctmgr show event -P` dump: nodes drained, failing or down over
    /// its events' times ([`crate::outage`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_events: Option<PathBuf>,
    /// `EPOCH:SECONDS`: the dump's jobs slept to a grid, as `slurm compare
    /// --grid` reads them (each run ends its logged time after the grid
    /// point nearest its start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// `[slurm.replicas]`: every point run as perturbed replicas
    /// ([`crate::replica`]), paired across settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<Replicas>,
    /// The replica this point is (the sweep's `replica` axis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica: Option<u32>,
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
            node_events: None,
            grid: None,
            replicas: None,
            replica: None,
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
    /// sha256 of the node event dump's bytes, when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_events_sha256: Option<String>,
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
        self.grid()?;
        match (&self.replicas, self.replica) {
            (None, Some(r)) => {
                return Err(slasim_core::setting::InvalidSetting::new(
                    "slurm.replica",
                    r,
                    "a replica needs [slurm.replicas] (what it perturbs)",
                )
                .into());
            }
            (Some(_), None) => anyhow::bail!("slurm.replicas: the point names no replica (the sweep axis `replica`)"),
            _ => {}
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
        let node_events_sha256 = dump(&self.node_events, "node event dump")?;
        Ok(SlurmPoint {
            settings: self.clone(),
            conf_sha256,
            qos_sha256,
            assoc_sha256,
            reservations_sha256,
            node_events_sha256,
        })
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

    /// The controller's settings for this point on `conf`, for a workload
    /// whose time 0 is Unix time `epoch` (none: the clocks' starts are not
    /// known, and kept at the first submission).
    pub fn controller(&self, conf: &SlurmConf, epoch: Option<i64>) -> Settings {
        let since = |at: Option<i64>| at.zip(epoch).map(|(at, epoch)| at - epoch);
        Settings {
            priority: self.priority(&conf.priority),
            scheduler: self.scheduler(&conf.scheduler),
            started: since(self.controller_start).unwrap_or(0),
            backfill_started: since(self.backfill_start),
            ..Settings::of(conf, epoch)
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
    pub(crate) fn generated_conf(&self) -> anyhow::Result<Option<(String, PathBuf)>> {
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

    /// The grid `grid` gives, checked.
    pub fn grid(&self) -> anyhow::Result<Option<(i64, i64)>> {
        self.grid
            .as_deref()
            .map(|g| crate::queued::parse_grid(g).map_err(|e| anyhow::anyhow!("slurm.grid: {e}")))
            .transpose()
    }

    fn workload_key(&self) -> String {
        format!(
            "{}|{:?}|{}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.conf.display(),
            self.trace,
            self.lenient,
            self.synthetic,
            self.seed,
            self.qos,
            self.assoc,
            self.reservations,
            self.node_events,
            self.grid
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

/// What a point reads before its jobs are admitted: its conf and the
/// machine of that conf (built here, once), its workload, its accounting
/// dumps and its advance reservations.
#[derive(Debug, Clone)]
pub struct Read {
    /// The conf.
    pub conf: SlurmConf,
    /// Its machine, every node free.
    pub machine: Machine,
    /// The workload.
    pub workload: SlurmWorkload,
    /// The accounting dumps (none: no QOS factor, no limits).
    pub accounting: Accounting,
    /// The advance reservations (none without a reservations file).
    pub advance: Option<AdvanceReservations>,
    /// The node events (none without an event dump).
    pub outages: Option<Outages>,
    /// The `slurm.conf` text generated from a GPU-era trace (none: read from a file).
    pub generated: Option<String>,
}

impl Read {
    /// The inputs of a run: every job admitted to the machine (checked
    /// against it, [`crate::admission`]) with the conf's preemption.
    pub fn admit(self) -> anyhow::Result<SlurmInputs> {
        let Read { conf, machine, workload, accounting, advance, outages, generated } = self;
        let admission = Admission::new(&conf, machine, &workload, &accounting, advance)?
            .preempting(&conf, &accounting, &workload)?
            .with_outages(outages);
        Ok(SlurmInputs { conf, generated, workload, accounting, admission })
    }
}

/// Reads the conf, the workload, the dumps and the reservations of
/// `settings`, and builds the conf's machine.
pub fn read(settings: &SlurmSettings) -> anyhow::Result<Read> {
    let (conf, generated) = match settings.generated_conf()? {
        Some((text, name)) => (crate::conf::parse(&text, &name)?, Some(text)),
        None => (crate::conf::read(&settings.conf)?, None),
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
    let machine = Machine::new(&conf);
    let advance = match &settings.reservations {
        Some(path) => {
            let file = crate::reservation::read(path)?;
            Some(crate::advance::AdvanceReservations::new(&file, &conf, &machine, &workload)?)
        }
        None => None,
    };
    let outages = match &settings.node_events {
        Some(path) => Some(Outages::new(&crate::sacctmgr::read_events(path)?, &machine, &workload)?),
        None => None,
    };
    Ok(Read { conf, machine, workload, accounting, advance, outages, generated })
}

/// The inputs of `settings`: read, its runs aligned to its grid, and every
/// job admitted to the machine.
pub fn load(settings: &SlurmSettings) -> anyhow::Result<SlurmInputs> {
    read_aligned(settings)?.admit()
}

/// What `settings` reads, its runs aligned to its grid.
fn read_aligned(settings: &SlurmSettings) -> anyhow::Result<Read> {
    let mut read = read(settings)?;
    let trace = settings.trace.clone().unwrap_or_default();
    crate::queued::aligned(settings.grid()?, &mut read.workload, &trace)?;
    Ok(read)
}

/// The inputs of `settings`, once [`AnyPoint::load`] loaded them: for a
/// replica, its workload perturbed ([`crate::replica`]) and admitted.
fn loaded(inputs: &Inputs, settings: &SlurmSettings) -> anyhow::Result<Arc<SlurmInputs>> {
    let key = settings.workload_key();
    match (&settings.replicas, settings.replica) {
        (Some(replicas), Some(replica)) => {
            let replicable = inputs.get::<Replicable>(&key).context("the Slurm replica's inputs were not loaded")?;
            let mut read = replicable.read.clone();
            replicable.noise.perturb(&mut read.workload, replicas, settings.seed, replica);
            Ok(Arc::new(read.admit()?))
        }
        _ => inputs.get::<SlurmInputs>(&key).context("the Slurm point's inputs were not loaded"),
    }
}

/// What the replicas of a workload start from: its inputs read (and
/// aligned to the grid), and the variation they show.
#[derive(Debug)]
pub struct Replicable {
    /// The inputs, read and aligned, not admitted.
    pub read: Read,
    /// Their variation.
    pub noise: Noise,
}

impl Replicable {
    /// The inputs of `settings`, read and aligned; admitted once here, so
    /// that a job the machine cannot run is an error before any replica runs.
    pub fn load(settings: &SlurmSettings) -> anyhow::Result<Replicable> {
        let read = read_aligned(settings)?;
        read.clone().admit()?;
        let noise = Noise::of(&read.workload);
        Ok(Replicable { read, noise })
    }
}

/// Runs `settings` on `inputs`.
pub fn simulate_point(settings: &SlurmSettings, inputs: &SlurmInputs) -> anyhow::Result<SlurmRun> {
    let run_end = match (settings.grid()?, inputs.workload.epoch) {
        (Some((origin, period)), Some(epoch)) => RunEnd::AfterGridPoint { origin: origin - epoch, period },
        _ => RunEnd::AfterStart,
    };
    simulate_point_ending(settings, inputs, run_end)
}

/// Runs `settings` on `inputs`, each run ending by `run_end`.
pub fn simulate_point_ending(
    settings: &SlurmSettings,
    inputs: &SlurmInputs,
    run_end: RunEnd,
) -> anyhow::Result<SlurmRun> {
    let controller = Settings { run_end, ..settings.controller(&inputs.conf, inputs.workload.epoch) };
    let done = simulate(inputs.scenario(controller))?;
    Ok(SlurmRun { outcomes: done.outcomes, counters: done.counters, reasons: done.reasons, waits: done.waits })
}

/// The Slurm kind.
pub struct SlurmKind;

/// The Slurm kind, registered among the built-in ones.
pub static SLURM: SlurmKind = SlurmKind;

static AXES: [Axis; 20] = [
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
    axis("replica", "replica", "the replica (with [slurm.replicas], each sweep has it: 0 to count − 1)"),
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
        let replicas = settings.replicas.as_ref().map(|r| r.checked(file)).transpose()?;
        let base = Base::of(file, settings, 1)?;
        Ok(match replicas {
            Some(count) => base.replicated(count),
            None => base,
        })
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
        // Every job is admitted to the machine (so fits it) here, before
        // anything runs or is stored.
        let key = self.settings.workload_key();
        match self.settings.replica {
            Some(_) => inputs.load_once(key, || Replicable::load(&self.settings)),
            None => inputs.load_once(key, || load(&self.settings)),
        }
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
            (&self.settings.node_events, "node event dump"),
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
        let wall_seconds = started.elapsed().as_secs_f64();
        let s = &self.settings;
        Ok(Box::new(SlurmOutput {
            id: self.id()?,
            config: canonical_toml(self)?,
            experiment: experiment.map(str::to_string),
            conf: (!s.conf.as_os_str().is_empty()).then(|| s.conf.display().to_string()),
            trace: s.trace.as_ref().map_or_else(|| "synthetic".to_string(), |t| t.display().to_string()),
            code_version: code_version(),
            point: self.clone(),
            results: SlurmResults::of(&loaded, &run),
            inputs: loaded,
            run,
            wall_seconds,
        }))
    }

    /// A stored point's aggregates ([`crate::tables::Aggregates`]), from its `slurm_points` row.
    fn stored_summary(&self, store: &Store, id: i64) -> Result<Option<Summary>, StoreError> {
        Ok(crate::tables::stored_aggregates(store, id)?.map(|a| Arc::new(a) as Summary))
    }

    slasim_core::point_boilerplate!();
}

/// A Slurm point's rows, worked out: writing binds them.
#[derive(Debug)]
struct SlurmOutput {
    id: i64,
    /// The point's canonical settings.
    config: String,
    experiment: Option<String>,
    /// The `slurm.conf`'s path, as given (none: generated from the trace).
    conf: Option<String>,
    /// The workload: the dump's path, or `synthetic`.
    trace: String,
    code_version: String,
    point: SlurmPoint,
    inputs: Arc<SlurmInputs>,
    run: SlurmRun,
    results: SlurmResults,
    wall_seconds: f64,
}

impl PointOutput for SlurmOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        let (w, machine) = (&self.inputs.workload, &self.inputs.admission.machine);
        let (run, results) = (&self.run, &self.results);
        let point = SlurmPointRow {
            point_id: self.id,
            experiment: self.experiment.as_deref(),
            conf: self.conf.as_deref(),
            conf_text: self.inputs.generated.as_deref(),
            conf_sha256: &self.point.conf_sha256,
            trace: &self.trace,
            seed: self.point.settings.seed as i64,
            config: &self.config,
            aggregates: &results.aggregates,
            main_passes: run.counters.main_passes as i64,
            backfill_passes: run.counters.backfill_passes as i64,
            preemptions: run.counters.preemptions as i64,
            node_failed: run.counters.node_failed as i64,
            code_version: &self.code_version,
            wall_seconds: self.wall_seconds,
        };
        let group_rows = results.groups.iter().map(|g| SlurmGroupRow {
            point_id: self.id,
            grouping: g.grouping,
            name: &g.name,
            jobs: g.jobs,
            mean_wait: g.mean_wait,
            max_wait: g.max_wait,
            p95_wait: g.p95_wait,
            cpu_seconds: g.cpu_seconds,
            gpu_seconds: g.gpu_seconds,
        });
        let reason_rows = results.reasons.iter().map(|r| SlurmReasonRow {
            point_id: self.id,
            reason: r.reason,
            jobs: r.jobs,
            tests: r.tests,
        });
        let job_rows = w.jobs.iter().zip(&run.outcomes).enumerate().map(|(i, (job, o))| SlurmJobRow {
            point_id: self.id,
            job: i,
            slurm: job,
            outcome: o,
            user: name(&w.users, job.user),
            account: name(&w.accounts, job.account),
            partition: ran_in(machine, w, job, o),
            first_node: machine.spec.names.get(o.first_node as usize).map_or("", String::as_str),
            // A limit's reason, else a dependency's or an array's.
            reason: run
                .reasons
                .get(i)
                .copied()
                .flatten()
                .map(crate::accounting::Reason::name)
                .or_else(|| run.waits.get(i).copied().flatten().map(crate::dependency::Wait::name)),
        });
        store.write_with(|tx| {
            insert(tx, &SLURM_POINT_ROWS, &point)?;
            insert_all(tx, &SLURM_GROUPS, group_rows)?;
            insert_all(tx, &SLURM_REASONS, reason_rows)?;
            if self.point.settings.store_jobs {
                insert_all(tx, &SLURM_JOBS, job_rows)?;
            }
            Ok(())
        })
    }

    fn summary(&self) -> Option<Summary> {
        Some(Arc::new(self.results.aggregates.clone()))
    }
}
