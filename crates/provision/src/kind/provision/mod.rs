//! The provisioning point: a workflow provisioned against the sites'
//! background load (MOGA or greedy), or one site's slot statistics.
//!
//! Reference: the provisioning dissertation, Ch. 3 (slot statistics), Ch. 4
//! (the MOGA against best effort: trade-off α, workflow size, task size,
//! load, CyberShake, several sites) and Ch. 7 (greedy provisioning with
//! adaptive pricing).
//!
//! Contract:
//! - [`ProvisionSettings`] is what a config's `[provision]` table and the
//!   command line say; [`ProvisionSettings::resolve`] is the one place their
//!   defaults and checks live. It cuts the site list to `site_count`, gives
//!   every site the `utilisation` set for all, builds the workflow's
//!   description and keeps only what the method reads (the pricing policy
//!   for greedy provisioning; the MOGA, the enacting and the hole charging
//!   for the MOGA; nothing about the workflow for `slots`), so points
//!   differing only in the rest are one simulation.
//! - [`run()`] runs a point on the threads the run's budget has free and
//!   returns its rows for the store; [`ProvisionKind`] reads `[provision]`
//!   configs.
//! - One concept per file: the resolved point ([`point`]), a site's
//!   background load ([`background`]), the provisioning run and its forks
//!   ([`run`](mod@run)), and slot statistics ([`slots`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim_core::experiment::provenance::code_version;
pub mod background;
pub mod point;
pub mod run;
pub mod slots;

use crate::kind::provision::point::{
    DEFAULT_ENACT, DEFAULT_HOLE_CHARGING, DEFAULT_PRICING_POLICY, DEFAULT_SUBMISSIONS, FORK_WINDOW, Method,
    MethodSettings, ProvisionPoint, SiteSpec, WorkflowSettings, WorkflowSpec,
};
use crate::kind::provision::run::run_point;
use crate::kind::provision::slots::{OBSERVE_EVERY, slot_statistics};
use crate::moga::MogaConfig;
use crate::plan::HoleCharging;
use crate::pricing::Policy;
use crate::tables::GROUP;
use crate::tables::provision::ProvisionPointRow;
use crate::workflow::SyntheticWorkflow;
use crate::writer::provision::ProvisionOutput;
use slasim_core::setting::InvalidSetting;
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_core::units::DAY;
use slasim_single::workload::WorkloadSource;
use slasim_single::workload::prepare::Estimates;

/// The α grid of the Ch. 4 trade-off sweep: 0, 0.1, …, 1.
pub fn default_alphas() -> Vec<f64> {
    (0..=10).map(|i| f64::from(i) / 10.0).collect()
}

/// One site as a config names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSettings {
    /// SWF path or name under the traces directory; `synthetic` for the embedded generator.
    pub trace: String,
    /// Processors (default: the trace header's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// Raise the offered utilisation to this with a week-shifted copy of the trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub utilisation: Option<f64>,
}

impl SiteSettings {
    /// The site as run.
    pub fn spec(&self, utilisation: Option<f64>) -> SiteSpec {
        SiteSpec {
            trace: workload(&self.trace),
            utilisation: utilisation.or(self.utilisation),
            capacity: self.capacity,
        }
    }
}

/// `synthetic` is the embedded generator; anything else a trace path or name.
pub fn workload(trace: &str) -> WorkloadSource {
    if trace == "synthetic" {
        WorkloadSource::default()
    } else {
        WorkloadSource::Swf { path: PathBuf::from(trace), lenient: false }
    }
}

/// A provisioning experiment's settings (`[provision]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProvisionSettings {
    /// `moga` (Ch. 4), `greedy` (Ch. 7) or `slots` (Ch. 3: one site's slot statistics).
    pub method: Method,
    /// Greedy provisioning: the scheduler the sites price with.
    pub pricing_policy: Policy,
    /// Experiment seed (the workflow, the load copies, the MOGA streams).
    pub seed: u64,
    /// Background jobs request their actual run times or their logged estimates.
    pub estimates: Estimates,
    /// The sites, in order.
    pub sites: Vec<SiteSettings>,
    /// Use only the first K sites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_count: Option<usize>,
    /// Every site's target utilisation (overrides each site's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utilisation: Option<f64>,
    /// `synthetic`, `cybershake` or a workflow file (one task per line: `NAME RUNTIME PROCS [PARENT[:TRANSFER]...]`).
    pub workflow: String,
    /// Tasks of the synthetic workflow.
    pub tasks: usize,
    /// Mean processors per task of the synthetic workflow.
    pub task_processors: u32,
    /// Levels of the synthetic workflow (default: √tasks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<usize>,
    /// Mean task run time of the synthetic workflow, seconds.
    pub mean_runtime: i64,
    /// Mean transfer time between sites, seconds (0: none).
    pub mean_transfer: i64,
    /// Trade-off factors α a plan is picked for (every one from the same MOGA run).
    pub alphas: Vec<f64>,
    /// Submission instants.
    pub submissions: usize,
    /// Reserve and run each chosen MOGA plan in a fork.
    pub enact: bool,
    /// MOGA population, generations and σ_share.
    pub moga: MogaConfig,
    /// How far a what-if fork simulates past its submission, days.
    pub fork_window_days: f64,
    /// How MOGA plans pay for holes: `whole` (Table 1) or `used` (an ablation).
    pub hole_charging: HoleCharging,
}

impl Default for ProvisionSettings {
    fn default() -> Self {
        ProvisionSettings {
            method: Method::Moga,
            pricing_policy: DEFAULT_PRICING_POLICY,
            seed: 1,
            estimates: Estimates::Exact,
            sites: vec![SiteSettings { trace: "synthetic".into(), capacity: None, utilisation: None }],
            site_count: None,
            utilisation: None,
            workflow: "synthetic".into(),
            tasks: 100,
            task_processors: 22,
            levels: None,
            mean_runtime: 1000,
            mean_transfer: 0,
            alphas: default_alphas(),
            submissions: DEFAULT_SUBMISSIONS,
            enact: DEFAULT_ENACT,
            moga: MogaConfig::default(),
            fork_window_days: FORK_WINDOW as f64 / DAY as f64,
            hole_charging: DEFAULT_HOLE_CHARGING,
        }
    }
}

impl ProvisionSettings {
    /// The point these settings describe.
    pub fn resolve(&self) -> anyhow::Result<ProvisionPoint> {
        let mut sites = self.sites.as_slice();
        if let Some(k) = self.site_count {
            if k == 0 || k > sites.len() {
                return Err(InvalidSetting::new(
                    "provision.site_count",
                    k,
                    "must be between 1 and the number of sites",
                )
                .into());
            }
            sites = &sites[..k];
        }
        if let Some(u) = self.utilisation {
            slasim_core::setting::positive("provision.utilisation", u)?;
        }
        slasim_core::setting::positive("provision.fork_window_days", self.fork_window_days)?;
        let sites: Vec<SiteSpec> = sites.iter().map(|s| s.spec(self.utilisation)).collect();
        let max_procs = sites.iter().filter_map(|s| s.capacity).min().unwrap_or(u32::MAX);
        let workflow = || WorkflowSettings {
            workflow: match self.workflow.as_str() {
                "synthetic" => WorkflowSpec::Synthetic(SyntheticWorkflow {
                    tasks: self.tasks,
                    levels: self.levels,
                    mean_runtime: self.mean_runtime,
                    mean_procs: self.task_processors,
                    max_procs,
                    mean_transfer: self.mean_transfer,
                }),
                "cybershake" => WorkflowSpec::CyberShake,
                path => WorkflowSpec::File(PathBuf::from(path)),
            },
            alphas: self.alphas.clone(),
            submissions: self.submissions,
            fork_window: (self.fork_window_days * DAY as f64).round() as i64,
        };
        // The point holds what its method reads: points differing only in
        // the rest are one simulation.
        let method = match self.method {
            Method::Moga => MethodSettings::Moga {
                workflow: workflow(),
                moga: self.moga.clone(),
                enact: self.enact,
                hole_charging: self.hole_charging,
            },
            Method::Greedy => MethodSettings::Greedy { workflow: workflow(), pricing_policy: self.pricing_policy },
            Method::Slots => MethodSettings::Slots,
        };
        let point = ProvisionPoint { seed: self.seed, estimates: self.estimates, sites, method };
        point.validate()?;
        Ok(point)
    }
}

/// The canonical TOML text of a provisioning point.
pub fn canonical(point: &ProvisionPoint) -> Result<String, Unserialisable> {
    canonical_toml(point)
}

/// A provisioning point's stable id.
pub fn id(point: &ProvisionPoint) -> Result<PointId, Unserialisable> {
    canonical(point).map(|text| PointId::of(&text))
}

/// Runs one point; `experiment` names the config it came from.
pub fn run(point: &ProvisionPoint, budget: &Arc<Budget>, experiment: Option<&str>) -> anyhow::Result<ProvisionOutput> {
    let started = Instant::now();
    let mut row = ProvisionPointRow {
        point_id: id(point)?.run_id,
        kind: "run",
        experiment: experiment.map(str::to_string),
        workflow: None,
        workflow_tasks: None,
        task_processors: None,
        sites: point.sites.len(),
        traces: String::new(),
        target_load: point.sites.first().and_then(|s| s.utilisation),
        exact_estimates: point.estimates == Estimates::Exact,
        seed: point.seed,
        submissions: None,
        config: canonical(point)?,
        code_version: code_version(),
        wall_seconds: 0.0,
        method: Some(point.method_name()),
        pricing: None,
    };
    let Some(workflow) = point.method.workflow() else {
        let site = &point.sites[0];
        let stats = slot_statistics(site, point.estimates, OBSERVE_EVERY, point.seed)?;
        row.kind = "slots";
        row.method = None;
        row.traces = stats.site.trace.clone();
        row.wall_seconds = started.elapsed().as_secs_f64();
        return Ok(ProvisionOutput::Slots { row, load: site.utilisation, stats: Box::new(stats) });
    };
    let outcome = run_point(point, budget)?;
    row.workflow = Some(workflow.workflow.name());
    row.workflow_tasks = Some(outcome.tasks);
    row.task_processors = Some(outcome.mean_procs);
    row.traces = outcome.sites.iter().map(|s| s.trace.as_str()).collect::<Vec<_>>().join(",");
    row.submissions = Some(workflow.submissions);
    row.wall_seconds = started.elapsed().as_secs_f64();
    let sites = outcome.sites.into_iter().zip(point.sites.iter().map(|s| s.utilisation)).collect();
    Ok(ProvisionOutput::Run { row, sites, rows: outcome.rows })
}

/// A provisioning config file: `[provision]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
// The top-level keys are checked by the config reader before a kind reads
// its own (`Experiment::kind_of`): the common ones are not repeated here.
struct ProvisionFile {
    #[serde(default)]
    provision: Option<ProvisionSettings>,
}

/// The provisioning kind.
pub struct ProvisionKind;

/// The provisioning kind.
pub static PROVISION: ProvisionKind = ProvisionKind;

/// Its short axis names.
const AXES: &[Axis] = &[
    axis("method", "method", "moga, greedy or slots"),
    axis("pricing_policy", "pricing_policy", "greedy: the scheduler sites price with"),
    axis("sites", "sites", "the site list, e.g. [[{ trace = \"CTC-SP2-1996-3.1-cln.swf.gz\", capacity = 430 }]]"),
    axis("site_count", "site_count", "use the first K sites"),
    axis("utilisation", "utilisation", "every site's target utilisation (0.88 = 88 %)"),
    axis("estimates", "estimates", "exact or logged"),
    axis("workflow", "workflow", "synthetic, cybershake or a workflow file"),
    axis("tasks", "tasks", "tasks of the synthetic workflow"),
    axis("task_processors", "task_processors", "mean processors per task of the synthetic workflow"),
    axis("alphas", "alphas", "the trade-off factors each point picks plans for (a list per point)"),
    axis("submissions", "submissions", "submission instants per point"),
    axis("mean_transfer", "mean_transfer", "mean transfer time between sites, seconds"),
];

/// The provisioning kind, as data.
static INFO: KindInfo = KindInfo {
    name: "provision",
    described: "a provisioning experiment ([provision])",
    setting_of: "provisioning",
    section: Some("provision"),
    sections: &["provision"],
    settings_in_section: true,
    axes: AXES,
    tables: &GROUP,
};

impl PointKind for ProvisionKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: ProvisionFile = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        let settings = config.provision.unwrap_or_default();
        let base = ProvisionSettings { seed: file.seed_of("provision", settings.seed), ..settings };
        Base::of(file, base, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let settings: ProvisionSettings = value.try_into().map_err(|e| sweep.unreadable(e))?;
        Ok(Point::new(settings.resolve().map_err(|e| sweep.invalid(e))?))
    }
}

// The provisioning kind's points, stored as provisioning points.
impl AnyPoint for ProvisionPoint {
    fn kind(&self) -> &'static dyn PointKind {
        &PROVISION
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical(self)
    }

    fn label(&self) -> String {
        format!("{} provisioning", self.method.method().name())
    }

    // Their traces are prepared per point (load scaling depends on the
    // point's seed); the default `load` only finds them.
    fn missing(&self) -> Vec<anyhow::Error> {
        self.sites.iter().filter_map(|s| s.trace.check().err()).collect()
    }

    fn run(
        &self,
        _inputs: &Inputs,
        budget: &Arc<Budget>,
        experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        Ok(Box::new(run(self, budget, experiment)?))
    }

    slasim_core::point_boilerplate!();
}

impl PointOutput for ProvisionOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        crate::writer::provision::write_provision(store, self)
    }
}
