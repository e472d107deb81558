//! The `sla-machine` point kind: the same pods on the same machine of unlike
//! nodes under an SLA planner or under the Slurm twin, with the SLA terms
//! applied to both ([`crate::battery`]).
//!
//! Contract:
//! - *Settings* (`[sla_machine]`), the workload and machine: either `trace`
//!   (a GPU trace's pods: a path, or a name under the traces directory) and
//!   `nodes` (its node list; absent: `openb_node_list_gpu_node.csv[.gz]`
//!   beside the pods); or `conf` (a `slurm.conf`: the machine, and the
//!   twin's priority, schedulers and preemption) with `trace` a sacct dump
//!   (`sacct --parsable2`), or without `trace` the twin's synthetic
//!   workload, `synthetic = { days, load, users, accounts }` (as `[slurm]`
//!   takes it; a battery is one draw of it, [`crate::battery`]). Then:
//!   `strategy` (a strategy registered on the machine,
//!   [`MachineStrategies`], or `slurm`: the twin), `node_choice` (a
//!   registered node choice, the planner's; default `first-fit`; reset under
//!   `slurm`), `failures` (the planners' node failures, a law as the single
//!   cluster's `[failures]` names it: `none` (default), `poisson`, `weibull`,
//!   `hyperexp`; the LANL replay and failures under `slurm` are refused),
//!   `overbooking` (read by a strategy that overbooks, and named by its
//!   points only: [`crate::overbooking`]), `sla_terms` (default `qos-classes`), `deadline_factor` (2),
//!   `penalty_ratio` (1), `batteries` (10), `battery` (`"all"` in a sweep
//!   means every one), `load` (1: submissions as fast as the trace's),
//!   `arrivals` (`logged`: a slice of the trace; `sampled`: `jobs` pods,
//!   default 2,000, drawn with `seed`, the config's by default; pods only;
//!   `jobs` is reset under `logged`, `seed` under `logged` without failures
//!   or a synthetic workload), `reservations` (paper B's fixed reservations,
//!   as the single cluster's `[reservations]` takes them: copies of the
//!   battery's jobs, drawn on the `reservations` stream from the seed and
//!   the battery; for a strategy that takes them, never under `slurm` or
//!   `easy`). Every key but `synthetic` is a sweep axis.
//! - *Failures*: one stream per node, until the battery's last deadline,
//!   drawn on the `node-failures` stream from the seed and the battery.
//! - *A point* runs one battery under one strategy. Points that differ only
//!   in their strategy or node choice run the same jobs.
//! - *Stored* in `sla_machine_points` and `sla_machine_jobs`
//!   ([`crate::tables`]) in one transaction; sharding, resuming and merging
//!   are the engine's.
//! - *Bad input* is refused before anything is stored: an unknown
//!   strategy, node choice or terms rule, a battery outside the batteries,
//!   a load that is not positive, a pod file or node list that cannot be
//!   read (named with its line), a `gpu_spec` model the machine lacks; a
//!   `slurm.conf` or dump that cannot be read, a job the twin refuses or the
//!   planners cannot hold ([`crate::slurm_jobs`]), `nodes`, sampled arrivals
//!   or pods under `conf`, `synthetic` without `conf` or beside `trace`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, anyhow};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim_core::experiment::provenance::code_version;
use slasim_core::experiment::registry;
use slasim_core::rng;
use slasim_core::setting::InvalidSetting;
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_data::trace::gpu::{self, GpuJobs};
use slasim_data::trace::resolve_trace;
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_data::trace::sacct::{NativeOptions, read_native};
use slasim_machine::Machine;
use slasim_single::cluster::strategy::ReservationHandling;
use slasim_single::plan::node_choice::{NodeChoice, NodeChoices};
use slasim_single::policy::on_machine::overbooking::MachineOverbooking;
use slasim_single::policy::on_machine::{MachineStrategies, MachineStrategyInfo, Overbooks, Setting};
use slasim_single::policy::overbooking::AcceptanceKind;
use slasim_single::stats::pdf::LearnFrom;
use slasim_single::streams::NODE_FAILURES;
use slasim_single::workload::failures::{FailureSource, FailureStream, restarted_failures, synthetic_stream};
use slasim_single::workload::job::{Job, MachineJob, NO_DEADLINE};
use slasim_single::workload::pods;
use slasim_single::workload::reservations::ReservationConfig;
use slasim_single::workload::sla::SlaTermsRules;
use slasim_slurm::conf::SlurmConf;
use slasim_slurm::generated::{NodeSpec, conf_text};
use slasim_slurm::kind::shapes;
use slasim_slurm::machine::Machine as TwinMachine;
use slasim_slurm::synthetic::{SlurmSynthetic, generate};

use crate::battery::{self, JobResult};
use crate::overbooking::OverbookingSettings;
use crate::slurm_jobs;
use crate::streams::SYNTHETIC_BATTERIES;
use crate::tables::{GROUP, PointRow, SLA_MACHINE_JOBS, SLA_MACHINE_POINTS, StoredJob};

/// The strategy name of the Slurm twin.
pub const SLURM: &str = "slurm";

/// Who schedules a battery: a planning strategy registered on the machine,
/// or the Slurm twin (not a strategy of `single`: it lives in its crate).
#[derive(Clone, Copy)]
pub enum Scheduler {
    /// A planning strategy on the machine.
    Planner(&'static MachineStrategyInfo),
    /// The Slurm twin.
    Slurm,
}

impl Scheduler {
    /// The scheduler named `name` in `sla_machine.strategy`.
    pub fn named(name: &str) -> anyhow::Result<Scheduler> {
        if name == SLURM {
            return Ok(Scheduler::Slurm);
        }
        registry::find::<MachineStrategies>(name)
            .map(Scheduler::Planner)
            .map_err(|e| anyhow!("sla_machine.strategy: {e}, or {SLURM} (the twin)"))
    }
}

/// How a battery's pods arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    /// A slice of the trace at its logged times ([`battery::slice`]).
    #[default]
    Logged,
    /// Pods drawn from the trace, submitted by a Poisson process
    /// ([`battery::sample`]).
    Sampled,
}

/// The node lists looked for beside a v2023 pod file.
const NODE_LISTS: [&str; 2] = ["openb_node_list_gpu_node.csv.gz", "openb_node_list_gpu_node.csv"];

/// The settings (`[sla_machine]`), as a config says them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlaMachineSettings {
    /// The pods (a path, or a name under the traces directory); with
    /// `conf`, a sacct dump.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The node list (absent: the one beside the pods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<PathBuf>,
    /// A `slurm.conf`: the machine, and the twin's settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conf: Option<PathBuf>,
    /// The synthetic workload on `conf`, without `trace`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<SlurmSynthetic>,
    /// Who schedules: a strategy on the machine, or `slurm`.
    pub strategy: String,
    /// The planner's node choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_choice: Option<String>,
    /// Node failures of the planners' runs (none by default).
    #[serde(skip_serializing_if = "is_none")]
    pub failures: FailureSource,
    /// Overbooking, read by a strategy that overbooks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overbooking: Option<OverbookingSettings>,
    /// The SLA terms rule.
    pub sla_terms: String,
    /// d = o + factor · x for the classes without their own.
    pub deadline_factor: f64,
    /// penalty = ratio · fee for the classes without their own.
    pub penalty_ratio: f64,
    /// Batteries the pods are cut into.
    pub batteries: u32,
    /// This point's battery.
    pub battery: u32,
    /// Submissions come this many times as fast as the trace's.
    pub load: f64,
    /// How a battery's pods arrive.
    pub arrivals: Arrivals,
    /// Pods of a sampled battery.
    pub jobs: u32,
    /// Seed of a sampled battery's draws.
    pub seed: u64,
    /// Paper B's fixed reservations (none by default).
    #[serde(skip_serializing_if = "ReservationConfig::is_default")]
    pub reservations: ReservationConfig,
}

impl Default for SlaMachineSettings {
    fn default() -> Self {
        SlaMachineSettings {
            trace: None,
            nodes: None,
            conf: None,
            synthetic: None,
            strategy: "conservative-backfilling".into(),
            node_choice: None,
            failures: FailureSource::None,
            overbooking: None,
            sla_terms: "qos-classes".into(),
            deadline_factor: 2.0,
            penalty_ratio: 1.0,
            batteries: 10,
            battery: 0,
            load: 1.0,
            arrivals: Arrivals::Logged,
            jobs: 2000,
            seed: 1,
            reservations: ReservationConfig::default(),
        }
    }
}

impl SlaMachineSettings {
    /// Checks the workload and machine keys (module contract): the
    /// synthetic workload a point draws, if it draws one.
    fn workload(&self) -> anyhow::Result<Option<SlurmSynthetic>> {
        if self.conf.is_none() {
            if self.synthetic.is_some() {
                let why = "the synthetic workload is drawn for a slurm.conf's partitions: set `conf`";
                return Err(InvalidSetting::new("sla_machine.synthetic", "a table", why).into());
            }
            self.trace.as_ref().ok_or_else(|| {
                anyhow!(
                    "sla_machine.trace: required (a GPU trace's pods), or `conf` (a slurm.conf) for a Slurm workload"
                )
            })?;
            return Ok(None);
        }
        if let Some(nodes) = &self.nodes {
            let why = "the slurm.conf describes the machine: drop `nodes`, or `conf` to run pods on their node list";
            return Err(InvalidSetting::new("sla_machine.nodes", nodes.display(), why).into());
        }
        if self.arrivals == Arrivals::Sampled {
            let why = "sampled arrivals draw a GPU trace's pods; a slurm.conf's workload is a dump's slices or the synthetic generator's draws";
            return Err(InvalidSetting::new("sla_machine.arrivals", "sampled", why).into());
        }
        if self.trace.is_some() {
            if self.synthetic.is_some() {
                let why = "a workload is a sacct dump (`trace`) or the synthetic generator's, not both";
                return Err(InvalidSetting::new("sla_machine.synthetic", "a table", why).into());
            }
            return Ok(None);
        }
        let synthetic = self.synthetic.clone().unwrap_or_default();
        if !(synthetic.days.is_finite() && synthetic.days > 0.0) {
            return Err(
                InvalidSetting::new("sla_machine.synthetic.days", synthetic.days, "must be a positive number").into()
            );
        }
        if !(synthetic.load.is_finite() && synthetic.load > 0.0) {
            return Err(
                InvalidSetting::new("sla_machine.synthetic.load", synthetic.load, "must be a positive number").into()
            );
        }
        for (key, value) in
            [("sla_machine.synthetic.users", synthetic.users), ("sla_machine.synthetic.accounts", synthetic.accounts)]
        {
            if value == 0 {
                return Err(InvalidSetting::new(key, value, "must be at least 1").into());
            }
        }
        Ok(Some(synthetic))
    }

    /// The point these settings describe (module contract).
    pub fn resolve(&self) -> anyhow::Result<SlaMachinePoint> {
        let synthetic = self.workload()?;
        registry::find::<SlaTermsRules>(&self.sla_terms).map_err(|e| anyhow!("sla_machine.sla_terms: {e}"))?;
        let scheduler = Scheduler::named(&self.strategy)?;
        let node_choice = match scheduler {
            Scheduler::Slurm => None,
            Scheduler::Planner(_) => {
                let name = self.node_choice.as_deref().unwrap_or("first-fit");
                let found = registry::find::<NodeChoices>(name).map_err(|e| anyhow!("sla_machine.node_choice: {e}"))?;
                Some(found.name.to_string())
            }
        };
        if let Some(settings) = &self.overbooking {
            settings.validate()?;
        }
        // Only a strategy that overbooks reads the settings, so only its
        // points name them.
        let overbooking = match scheduler {
            Scheduler::Planner(strategy) if strategy.overbooks.is_some() => {
                Some(self.overbooking.clone().unwrap_or_default())
            }
            _ => None,
        };
        match &self.failures {
            FailureSource::None => {}
            FailureSource::Lanl { .. } => {
                let why = "a machine's failures are drawn from a law (poisson, weibull, hyperexp); the LANL replay maps onto identical nodes only";
                return Err(InvalidSetting::new("sla_machine.failures.model", "lanl", why).into());
            }
            synthetic => {
                synthetic.laws().map_err(failures_setting)?;
            }
        }
        if self.batteries == 0 {
            return Err(InvalidSetting::new("sla_machine.batteries", self.batteries, "must be at least 1").into());
        }
        if self.battery >= self.batteries {
            let why = "must be below `batteries` (batteries are numbered from 0)";
            return Err(InvalidSetting::new("sla_machine.battery", self.battery, why).into());
        }
        if !(self.load.is_finite() && self.load > 0.0) {
            return Err(InvalidSetting::new("sla_machine.load", self.load, "must be a positive number").into());
        }
        if self.deadline_factor.is_nan() || self.deadline_factor < 1.0 {
            return Err(
                InvalidSetting::new("sla_machine.deadline_factor", self.deadline_factor, "must be at least 1").into()
            );
        }
        if !(self.penalty_ratio.is_finite() && self.penalty_ratio >= 0.0) {
            return Err(
                InvalidSetting::new("sla_machine.penalty_ratio", self.penalty_ratio, "must be 0 or more").into()
            );
        }
        if self.arrivals == Arrivals::Sampled && self.jobs == 0 {
            return Err(InvalidSetting::new("sla_machine.jobs", self.jobs, "must be at least 1").into());
        }
        self.reservations.validate().map_err(|e| {
            let key = reservations_key(e.setting);
            e.renamed(key)
        })?;
        let reservations = self.reservations.active().then(|| self.reservations.clone());
        if reservations.is_some() {
            match scheduler {
                Scheduler::Slurm => {
                    return Err(anyhow!(
                        "sla_machine.reservations: the twin ({SLURM}) takes a centre's own reservations, not paper B's; set a strategy that admits jobs (`slasim list machine-strategies`)"
                    ));
                }
                Scheduler::Planner(strategy) if !strategy.reserves => {
                    return Err(anyhow!(
                        "sla_machine.reservations: {} admits every job and takes no reservations; set a strategy that admits jobs (`slasim list machine-strategies`)",
                        strategy.name
                    ));
                }
                Scheduler::Planner(_) => {}
            }
        }
        let sampled = self.arrivals == Arrivals::Sampled;
        let drawn = sampled || self.failures != FailureSource::None || synthetic.is_some() || reservations.is_some();
        Ok(SlaMachinePoint {
            trace: self.trace.clone(),
            nodes: self.nodes.clone(),
            conf: self.conf.clone(),
            synthetic,
            strategy: self.strategy.clone(),
            node_choice,
            failures: self.failures.clone(),
            overbooking,
            sla_terms: self.sla_terms.clone(),
            deadline_factor: self.deadline_factor,
            penalty_ratio: self.penalty_ratio,
            batteries: self.batteries,
            battery: self.battery,
            load: self.load,
            arrivals: self.arrivals,
            jobs: sampled.then_some(self.jobs),
            seed: drawn.then_some(self.seed),
            reservations,
        })
    }
}

/// One point: one battery under one strategy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlaMachinePoint {
    /// The pods, or with `conf` a sacct dump, as the config names them
    /// (none: the synthetic workload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The node list, as the config names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<PathBuf>,
    /// The `slurm.conf`, as the config names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conf: Option<PathBuf>,
    /// The synthetic workload (with `conf`, without `trace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<SlurmSynthetic>,
    /// Who schedules: a strategy on the machine, or `slurm`.
    pub strategy: String,
    /// The planner's node choice (none under Slurm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_choice: Option<String>,
    /// Node failures of the planners' runs.
    #[serde(skip_serializing_if = "is_none")]
    pub failures: FailureSource,
    /// Overbooking (only for a strategy that overbooks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overbooking: Option<OverbookingSettings>,
    /// The SLA terms rule.
    pub sla_terms: String,
    /// Its deadline factor.
    pub deadline_factor: f64,
    /// Its penalty ratio.
    pub penalty_ratio: f64,
    /// Batteries.
    pub batteries: u32,
    /// This battery.
    pub battery: u32,
    /// Submissions come this many times as fast as the trace's.
    pub load: f64,
    /// How its pods arrive.
    pub arrivals: Arrivals,
    /// Pods of a sampled battery (none: logged arrivals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jobs: Option<u32>,
    /// Seed of a sampled battery's draws, of its failures and of its
    /// reservations (none: logged arrivals without failures or
    /// reservations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Paper B's reservations (none: no reservations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reservations: Option<ReservationConfig>,
}

/// A reservation setting's key under `sla_machine`.
fn reservations_key(key: &str) -> &'static str {
    match key {
        "reservations.percent" => "sla_machine.reservations.percent",
        "reservations.start_factor" => "sla_machine.reservations.start_factor",
        "reservations.max_delay_factor" => "sla_machine.reservations.max_delay_factor",
        _ => "sla_machine.reservations",
    }
}

/// A failure law's bad setting, named under `sla_machine.failures`.
fn failures_setting(e: InvalidSetting) -> InvalidSetting {
    let key = match e.setting {
        "lambda_per_hour" => "sla_machine.failures.lambda_per_hour",
        "mu_per_hour" => "sla_machine.failures.mu_per_hour",
        "lambdas_per_hour" => "sla_machine.failures.lambdas_per_hour",
        "probabilities" => "sla_machine.failures.probabilities",
        "scale_hours" => "sla_machine.failures.scale_hours",
        "shape" => "sla_machine.failures.shape",
        _ => "sla_machine.failures",
    };
    e.renamed(key)
}

fn is_none(failures: &FailureSource) -> bool {
    *failures == FailureSource::None
}

/// The pods and their machine, loaded once per trace and node list.
#[derive(Debug)]
pub struct Pods {
    /// The pod file found.
    pub path: PathBuf,
    /// Its pods, as they ask.
    pub pods: GpuJobs,
    /// Their machine.
    pub machine: Arc<Machine>,
    /// The node list it was read from.
    list: PathBuf,
    /// Its nodes as the twin's `NodeName` lines.
    specs: Vec<NodeSpec>,
    /// The twin's `slurm.conf` of them, made for the first Slurm point.
    conf: OnceLock<SlurmConf>,
}

impl Pods {
    /// The same machine as the twin's `slurm.conf`.
    pub fn conf(&self) -> anyhow::Result<&SlurmConf> {
        if let Some(conf) = self.conf.get() {
            return Ok(conf);
        }
        let conf = slasim_slurm::conf::parse(&conf_text(&self.specs), &self.list)
            .with_context(|| format!("the twin's slurm.conf of {}", self.list.display()))?;
        Ok(self.conf.get_or_init(|| conf))
    }
}

/// A `slurm.conf`'s machine and its sacct dump, loaded once per conf and
/// dump.
#[derive(Debug)]
pub struct Centre {
    /// The conf.
    pub conf: SlurmConf,
    /// Its machine as the twin holds it (which admits each job).
    pub twin: TwinMachine,
    /// Its machine as the planners see it.
    pub machine: Arc<Machine>,
    /// The dump's jobs (none: the synthetic workload).
    pub dump: Option<SlurmWorkload>,
}

/// What a point's inputs are.
#[derive(Debug)]
pub enum Loaded {
    /// A GPU trace's pods on their node list.
    Pods(Box<Pods>),
    /// A Slurm workload on its `slurm.conf`.
    Centre(Box<Centre>),
}

impl Loaded {
    /// The machine the planners book.
    pub fn machine(&self) -> &Arc<Machine> {
        match self {
            Loaded::Pods(p) => &p.machine,
            Loaded::Centre(c) => &c.machine,
        }
    }
}

impl SlaMachinePoint {
    fn inputs_key(&self) -> String {
        let name = |p: &Option<PathBuf>| p.as_deref().map(|n| n.display().to_string()).unwrap_or_default();
        format!("sla-machine|{}|{}|{}", name(&self.trace), name(&self.nodes), name(&self.conf))
    }

    /// The node list: the one named, else the one beside the pods.
    fn node_list(&self, pods: &Path) -> anyhow::Result<PathBuf> {
        match &self.nodes {
            Some(n) => resolve_trace(n).map_err(|e| anyhow!("sla_machine.nodes: {e}")),
            None => NODE_LISTS.iter().map(|n| pods.with_file_name(n)).find(|p| p.exists()).ok_or_else(|| {
                anyhow!(
                    "sla_machine.nodes: no node list beside {} (looked for {}); name one with `nodes`",
                    pods.display(),
                    NODE_LISTS.join(", ")
                )
            }),
        }
    }

    /// The trace found, if the point names one.
    fn trace_path(&self) -> anyhow::Result<Option<PathBuf>> {
        self.trace.as_ref().map(|t| resolve_trace(t).map_err(|e| anyhow!("sla_machine.trace: {e}"))).transpose()
    }

    /// Loads the workload and its machine.
    pub fn open(&self) -> anyhow::Result<Loaded> {
        let trace = self.trace_path()?;
        if let Some(conf) = &self.conf {
            let conf = slasim_slurm::conf::read(conf).map_err(|e| anyhow!("sla_machine.conf: {e}"))?;
            let twin = TwinMachine::new(&conf);
            let machine = Arc::new(twin.spec.clone());
            let dump = match trace {
                Some(path) if gpu::is_gpu_trace(&path) => {
                    return Err(anyhow!(
                        "sla_machine.trace: {} is a GPU trace's pods; with `conf`, `trace` is a sacct dump (pods run on their own node list: drop `conf`)",
                        path.display()
                    ));
                }
                Some(path) => Some(read_native(&path, NativeOptions { lenient: false })?.0),
                None => None,
            };
            return Ok(Loaded::Centre(Box::new(Centre { conf, twin, machine, dump })));
        }
        let path = trace.ok_or_else(|| anyhow!("sla_machine.trace: required (a GPU trace's pods)"))?;
        let pods = gpu::read_pods(&path)?;
        let list = self.node_list(&path)?;
        let nodes = gpu::read_nodes(&list)?;
        let machine = Machine::from_gpu_nodes(&nodes, &list)?;
        let specs: Vec<NodeSpec> = nodes
            .iter()
            .map(|n| NodeSpec { names: n.name.clone(), cpus: n.cpus, memory_mib: n.memory_mib, gpus: n.gpus })
            .collect();
        Ok(Loaded::Pods(Box::new(Pods { path, pods, machine: Arc::new(machine), list, specs, conf: OnceLock::new() })))
    }

    /// Battery `battery` of the point's workload on `loaded`: its jobs as
    /// they ask, with what the twin is given of them.
    fn battery_of(&self, loaded: &Loaded, battery: u32) -> anyhow::Result<Battery> {
        let rule = registry::find::<SlaTermsRules>(&self.sla_terms)?;
        let (df, pr) = (self.deadline_factor, self.penalty_ratio);
        match loaded {
            Loaded::Pods(p) => {
                let slice = match (self.jobs, self.seed) {
                    (Some(jobs), Some(seed)) => {
                        battery::sample(&p.pods, jobs as usize, self.load, seed, u64::from(battery)).ok_or_else(
                            || {
                                anyhow!(
                                    "{}: all pods are submitted at one instant: no rate to sample arrivals at",
                                    p.path.display()
                                )
                            },
                        )?
                    }
                    _ => battery::slice(&p.pods, self.batteries as usize, battery as usize, self.load),
                };
                let jobs = pods::jobs(&p.path, &slice, &p.machine, rule, df, pr)?;
                Ok(Battery { jobs, of: Of::Pods(slice) })
            }
            Loaded::Centre(c) => {
                let workload = match (&c.dump, &self.synthetic) {
                    (Some(dump), _) => {
                        battery::slice_workload(dump, self.batteries as usize, battery as usize, self.load)
                    }
                    (None, Some(synthetic)) => {
                        let seed = rng::stream(self.seed.unwrap_or(0), SYNTHETIC_BATTERIES, u64::from(battery))
                            .random::<u64>();
                        battery::alone(generate(synthetic, &shapes(&c.conf), seed), 0, self.load)
                    }
                    (None, None) => return Err(anyhow!("sla_machine: neither a dump nor a synthetic workload")),
                };
                let jobs = slurm_jobs::jobs(&workload, &c.twin, rule, df, pr)?;
                Ok(Battery { jobs, of: Of::Centre(workload) })
            }
        }
    }

    /// Runs its battery on `loaded`: each job's result.
    pub fn results(&self, loaded: &Loaded) -> anyhow::Result<Vec<JobResult>> {
        let battery = self.battery_of(loaded, self.battery)?;
        let jobs = &battery.jobs;
        match (Scheduler::named(&self.strategy)?, &battery.of, loaded) {
            (Scheduler::Slurm, Of::Pods(slice), Loaded::Pods(p)) => {
                let failures = self.failure_stream(&p.machine, jobs)?;
                battery::under_slurm(
                    p.conf()?,
                    &slasim_slurm::gpu::workload(&p.path, slice),
                    jobs,
                    &failures,
                    &p.machine,
                )
            }
            (Scheduler::Slurm, Of::Centre(workload), Loaded::Centre(c)) => {
                let failures = self.failure_stream(&c.machine, jobs)?;
                battery::under_slurm(&c.conf, workload, jobs, &failures, &c.machine)
            }
            (Scheduler::Slurm, ..) => Err(anyhow!("sla_machine: a battery of another workload than its machine's")),
            (Scheduler::Planner(strategy), ..) => {
                let run = self.planner_run_of(strategy, loaded, battery)?;
                let setting = Setting {
                    choice: run.choice.as_ref(),
                    failures: &run.failures,
                    overbooking: run.overbooking.as_ref(),
                    reservations: run.reservations,
                };
                battery::planned(strategy, loaded.machine(), &run.jobs, &run.lines, &setting)
            }
        }
    }

    /// What `strategy` runs the point's battery with on `loaded`.
    pub fn planner_run(&self, strategy: &MachineStrategyInfo, loaded: &Loaded) -> anyhow::Result<PlannerRun> {
        let battery = self.battery_of(loaded, self.battery)?;
        self.planner_run_of(strategy, loaded, battery)
    }

    /// What `strategy` runs `battery` with: its jobs, then its reservations,
    /// under the point's node choice, failures and overbooking.
    fn planner_run_of(
        &self,
        strategy: &MachineStrategyInfo,
        loaded: &Loaded,
        battery: Battery,
    ) -> anyhow::Result<PlannerRun> {
        let mut lines: Vec<Option<i64>> = match &battery.of {
            Of::Pods(slice) => slice.jobs.iter().map(|j| Some(j.line as i64)).collect(),
            Of::Centre(workload) => battery::lines(workload),
        };
        let mut jobs = battery.jobs;
        let variable = jobs.len();
        if let Some(reservations) = &self.reservations {
            let own: Vec<Job> = jobs.iter().map(|j| j.job).collect();
            let seed = self.seed.unwrap_or(0);
            for (k, job) in reservations.copies(&own, seed, self.battery as usize) {
                jobs.push(MachineJob { job, request: jobs[k].request.clone() });
                lines.push(lines[k]);
            }
        }
        let machine = loaded.machine();
        let info = registry::find::<NodeChoices>(self.node_choice.as_deref().unwrap_or("first-fit"))?;
        let requests: Vec<_> = jobs.iter().map(|j| j.request.clone()).collect();
        let choice = (info.build)(&requests);
        let failures = self.failure_stream(machine, &jobs)?;
        let overbooking = match (&self.overbooking, strategy.overbooks) {
            (Some(settings), Some(overbooks)) => {
                Some(self.overbooking_of(settings, overbooks, loaded, &jobs[..variable])?)
            }
            _ => None,
        };
        let reservations = self
            .reservations
            .as_ref()
            .map(|r| ReservationHandling { option: r.option, guard: r.guard() })
            .unwrap_or_default();
        Ok(PlannerRun { jobs, lines, choice, failures, overbooking, reservations })
    }

    /// What `strategy` overbooks with (its module's contract): statistics
    /// learned from the other batteries, or from `jobs` themselves.
    fn overbooking_of(
        &self,
        settings: &OverbookingSettings,
        overbooks: Overbooks,
        loaded: &Loaded,
        jobs: &[MachineJob],
    ) -> anyhow::Result<MachineOverbooking> {
        let own: Vec<Job> = jobs.iter().map(|j| j.job).collect();
        let history = match settings.pdf.learn_from {
            LearnFrom::Input => own.clone(),
            LearnFrom::History => {
                if self.batteries < 2 {
                    let why = "the runtime statistics are learned from the other batteries: set at least 2, or sla_machine.overbooking.pdf.learn_from = \"input\"";
                    return Err(InvalidSetting::new("sla_machine.batteries", self.batteries, why).into());
                }
                let mut history = Vec::new();
                for b in (0..self.batteries).filter(|&b| b != self.battery) {
                    history.extend(self.battery_of(loaded, b)?.jobs.into_iter().map(|j| j.job));
                }
                history
            }
        };
        settings.build(overbooks, &history, &own, &self.failures)
    }

    /// The battery's node failures: one stream per node of the machine,
    /// until every job's deadline (or twice its estimate past its
    /// submission), drawn on the `node-failures` stream from the point's
    /// seed and battery.
    fn failure_stream(&self, machine: &Machine, jobs: &[MachineJob]) -> anyhow::Result<FailureStream> {
        let nodes = machine.len() as u32;
        let Some((up, repair)) = self.failures.laws().map_err(failures_setting)? else {
            return Ok(FailureStream::none(nodes));
        };
        let horizon = jobs
            .iter()
            .map(|j| if j.job.deadline < NO_DEADLINE { j.job.deadline } else { j.job.occurrence + 2 * j.job.estimate })
            .max()
            .unwrap_or(0);
        let seed = rng::stream(self.seed.unwrap_or(0), NODE_FAILURES, u64::from(self.battery)).random::<u64>();
        Ok(synthetic_stream(&up, &repair, nodes, horizon, seed))
    }

    /// The risk test's security factor, if the point's test is the risk test.
    fn security_factor(&self) -> Option<f64> {
        let o = self.overbooking.as_ref().filter(|o| o.acceptance == AcceptanceKind::Risk)?;
        let Ok(Scheduler::Planner(strategy)) = Scheduler::named(&self.strategy) else { return None };
        Some(o.security_factor.unwrap_or(strategy.overbooks?.security_factor))
    }

    /// What the store and the report name the workload by: the trace as
    /// the config names it, and the conf.
    fn names(&self) -> (Option<String>, Option<String>) {
        let name = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        (name(&self.trace), name(&self.conf))
    }
}

/// What a planner runs one battery with.
pub struct PlannerRun {
    /// The battery's jobs, then its reservations.
    pub jobs: Vec<MachineJob>,
    /// Their lines in the trace.
    pub lines: Vec<Option<i64>>,
    /// The node choice.
    pub choice: Box<dyn NodeChoice>,
    /// The nodes' failures.
    pub failures: FailureStream,
    /// The acceptance of overbooked windows, for a strategy that overbooks.
    pub overbooking: Option<MachineOverbooking>,
    /// How reservations are handled.
    pub reservations: ReservationHandling,
}

/// One battery's jobs, and what the twin is given of them.
struct Battery {
    jobs: Vec<MachineJob>,
    of: Of,
}

/// A battery as its workload has it.
enum Of {
    /// A GPU trace's pods.
    Pods(GpuJobs),
    /// A Slurm workload's jobs.
    Centre(SlurmWorkload),
}

/// What a point stores.
#[derive(Debug)]
pub struct SlaMachineOutput {
    /// Its `sla_machine_points` row.
    pub row: PointRow,
    /// Its jobs.
    pub jobs: Vec<JobResult>,
}

impl PointOutput for SlaMachineOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        write_point(store, self)
    }
}

/// An sla-machine config file: `[sla_machine]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct SlaMachineFile {
    #[serde(default)]
    sla_machine: Option<SlaMachineSettings>,
}

/// The sla-machine kind.
pub struct SlaMachineKind;

/// The sla-machine kind.
pub static SLA_MACHINE: SlaMachineKind = SlaMachineKind;

const AXES: &[Axis] = &[
    axis(
        "trace",
        "trace",
        "a GPU trace's pods (a path, or a name under the traces directory); with conf, a sacct dump",
    ),
    axis("nodes", "nodes", "the pods' node list (absent: the one beside them)"),
    axis("conf", "conf", "a slurm.conf (a path): the machine of a sacct dump or of the synthetic workload"),
    axis("strategy", "strategy", "a strategy on the machine (`slasim list machine-strategies`) or slurm (the twin)"),
    axis("node_choice", "node_choice", "the planner's node choice (`slasim list node-choices`)"),
    axis("failures", "failures.model", "the planners' node failures: none, poisson, weibull or hyperexp"),
    axis("acceptance", "overbooking.acceptance", "pof or risk: the acceptance test of overbooked windows"),
    axis("pof_max", "overbooking.pof_max", "PoF_max of the PoF acceptance test"),
    axis("security_factor", "overbooking.security_factor", "security factor of the risk test"),
    axis("sla_terms", "sla_terms", "the SLA terms rule"),
    axis("deadline_factor", "deadline_factor", "d = o + factor · x for the classes without their own"),
    axis("penalty_ratio", "penalty_ratio", "penalty = ratio · fee for the classes without their own"),
    axis("batteries", "batteries", "batteries the pods are cut into"),
    axis("battery", "battery", "the battery (\"all\": every one)"),
    axis("load", "load", "submissions come this many times as fast as the trace's"),
    axis("arrivals", "arrivals", "logged (a slice of the trace) or sampled (pods drawn, Poisson arrivals)"),
    axis("jobs", "jobs", "pods of a sampled battery"),
    axis("reservation_percent", "reservations.percent", "paper B's reservations, % of the jobs"),
    axis("start_factor", "reservations.start_factor", "start delay of a reservation / estimate"),
    axis("reservation_option", "reservations.option", "reject or move"),
    axis("max_moves", "reservations.max_moves", "starvation guard: pin after this many moves"),
];

static INFO: KindInfo = KindInfo {
    name: "sla-machine",
    described: "SLA planning beside the Slurm twin on a machine of unlike nodes ([sla_machine])",
    setting_of: "sla-machine",
    section: Some("sla_machine"),
    sections: &["sla_machine"],
    settings_in_section: true,
    axes: AXES,
    tables: &GROUP,
};

impl PointKind for SlaMachineKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: SlaMachineFile = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        let settings = config.sla_machine.unwrap_or_default();
        let batteries = settings.batteries as usize;
        let base = SlaMachineSettings { seed: file.seed_of("sla_machine", settings.seed), ..settings };
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
        let settings: SlaMachineSettings = value.try_into().map_err(|e| sweep.unreadable(e))?;
        Ok(Point::new(settings.resolve().map_err(|e| sweep.invalid(e))?))
    }
}

impl AnyPoint for SlaMachinePoint {
    fn kind(&self) -> &'static dyn PointKind {
        &SLA_MACHINE
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    fn label(&self) -> String {
        let by = match &self.node_choice {
            Some(choice) => format!("{} ({choice})", self.strategy),
            None => self.strategy.clone(),
        };
        let on = match (self.names(), &self.synthetic) {
            ((Some(trace), None), _) => trace,
            ((Some(trace), Some(conf)), _) => format!("{trace} on {conf}"),
            ((None, Some(conf)), Some(s)) => format!("synthetic ({} days at load {}) on {conf}", s.days, s.load),
            ((None, _), _) => String::new(),
        };
        format!("{by} on {on}, battery {} of {}", self.battery, self.batteries)
    }

    fn load(&self, _index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        inputs.load_once(self.inputs_key(), || self.open())
    }

    fn missing(&self) -> Vec<anyhow::Error> {
        let trace = match self.trace_path() {
            Err(e) => return vec![e],
            Ok(trace) => trace,
        };
        match (&self.conf, trace) {
            (Some(conf), _) if !conf.exists() => {
                vec![anyhow!("sla_machine.conf: {}: no such file", conf.display())]
            }
            (Some(_), _) => Vec::new(),
            (None, Some(path)) => self.node_list(&path).err().into_iter().collect(),
            (None, None) => vec![anyhow!("sla_machine.trace: required (a GPU trace's pods)")],
        }
    }

    fn run(
        &self,
        inputs: &Inputs,
        _budget: &Arc<Budget>,
        _experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        let loaded = inputs.get::<Loaded>(&self.inputs_key()).context("the workload was not loaded")?;
        let jobs = self.results(&loaded)?;
        let measures = battery::measure(loaded.machine(), &jobs);
        let config = self.canonical()?;
        let (trace, conf) = self.names();
        let row = PointRow {
            point_id: PointId::of(&config).run_id,
            trace,
            nodes: self.nodes.as_ref().map(|n| n.display().to_string()),
            conf,
            synthetic_days: self.synthetic.as_ref().map(|s| s.days),
            synthetic_load: self.synthetic.as_ref().map(|s| s.load),
            strategy: self.strategy.clone(),
            node_choice: self.node_choice.clone(),
            failures: self.failures.name(),
            acceptance: self.overbooking.as_ref().map(|o| o.acceptance.name()),
            pof_max: self.overbooking.as_ref().filter(|o| o.acceptance == AcceptanceKind::Pof).map(|o| o.pof_max),
            security_factor: self.security_factor(),
            sla_terms: self.sla_terms.clone(),
            deadline_factor: self.deadline_factor,
            penalty_ratio: self.penalty_ratio,
            batteries: i64::from(self.batteries),
            battery: i64::from(self.battery),
            load: self.load,
            arrivals: match self.arrivals {
                Arrivals::Logged => "logged",
                Arrivals::Sampled => "sampled",
            },
            jobs: self.jobs.map(i64::from),
            seed: self.seed.map(|s| s as i64),
            reservation_percent: self.reservations.as_ref().map(|r| r.percent),
            start_factor: self.reservations.as_ref().map(|r| r.start_factor),
            reservation_option: self.reservations.as_ref().map(|r| r.option.name()),
            measures,
            config,
            code_version: code_version(),
        };
        Ok(Box::new(SlaMachineOutput { row, jobs }))
    }

    slasim_core::point_boilerplate!();
}

/// Writes a point in one transaction.
pub fn write_point(store: &mut Store, out: &SlaMachineOutput) -> Result<(), StoreError> {
    let point_id = out.row.point_id;
    store.write_with(|tx| {
        insert(tx, &SLA_MACHINE_POINTS, &&out.row)?;
        insert_all(tx, &SLA_MACHINE_JOBS, out.jobs.iter().map(|job| StoredJob { point_id, job }))
    })
}
