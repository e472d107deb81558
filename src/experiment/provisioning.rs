//! Provisioning experiment configs and their sweeps.
//!
//! Reference: `provisioning-dissertation-spec.md` §2.6 (slot statistics),
//! §3.8 (the Ch. 4 sweeps: trade-off α, workflow size, task size, load,
//! CyberShake, multi-site), §12.4 (the α sweep: one MOGA per submission, every
//! α from its archive, A13).
//!
//! Contract:
//! - A config (TOML) has a `name`, shared `[defaults]` and `[[group]]`s. A
//!   group names its site pool (`pool`: traces with optional target loads, in
//!   site order) and its axes: `sites` (the first K of the pool),
//!   `workflow_tasks`, `task_processors`, `target_load` (every site's),
//!   `exact_estimates`; `alpha` is the list of trade-off factors each point
//!   picks plans for (not an axis that multiplies MOGA runs). A `kind =
//!   "slots"` group records advertised-slot statistics instead; a `kind =
//!   "price"` group runs adaptive pricing (Ch. 5), one point per site,
//!   `target_load`, `exact_estimates`, `easy`, `share` and `alpha`.
//! - Points are the product of a group's axes; each has a stable id (sha256
//!   of its resolved settings). A point is stored in one transaction; a
//!   re-run skips stored points, so an interrupted sweep resumes and loses no
//!   finished point. Points run on `jobs` threads; the store is written by
//!   one thread in point order of completion, and what is stored for a point
//!   does not depend on the thread count.
//! - Every error names the file and line of the key at fault, or the setting.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::experiment::config::line_col;
use crate::experiment::runner::code_version;
use crate::provision::experiment::{
    FORK_WINDOW, Method, OBSERVE_EVERY, PricingPoint, ProvisionPoint, SiteSpec, WorkflowSpec, run_point, run_pricing,
    slot_statistics,
};
use crate::provision::moga::MogaConfig;
use crate::provision::plan::HoleCharging;
use crate::provision::workflow::SyntheticWorkflow;
use crate::setting::InvalidSetting;
use crate::store::{ProvisionPointRow, Store};
use crate::workload::WorkloadSource;

/// The α grid of the Ch. 4 trade-off sweep: 0, 0.1, …, 1.
pub fn default_alphas() -> Vec<f64> {
    (0..=10).map(|i| f64::from(i) / 10.0).collect()
}

/// A pool entry: a site's trace and optional target load.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PoolSite {
    /// SWF path or name under the traces directory; "synthetic" for the embedded generator.
    pub trace: String,
    /// Target offered utilisation (e.g. 0.88).
    pub target_load: Option<f64>,
    /// Processors (default: the trace header's).
    pub capacity: Option<u32>,
}

/// Settings shared by every group unless a group overrides them.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Defaults {
    /// Submission instants per point.
    pub submissions: usize,
    /// Experiment seed.
    pub seed: u64,
    /// Workflow: "synthetic", "cybershake" or a workflow file.
    pub workflow: String,
    /// Levels of the synthetic workflow (default 10 for 100 tasks, else √n).
    pub levels: Option<usize>,
    /// Mean task runtime, seconds.
    pub mean_runtime: i64,
    /// Mean transfer time between sites, seconds (0: none).
    pub mean_transfer: i64,
    /// Reserve and run each chosen plan in a fork.
    pub enact: bool,
    /// MOGA population.
    pub population: usize,
    /// MOGA generations.
    pub generations: usize,
    /// MOGA σ_share.
    pub sigma_share: f64,
    /// Fork window, days.
    pub fork_window_days: f64,
    /// Ablation: charge holes for the parts used instead of whole (Table 1).
    pub charge_holes_by_use: bool,
    /// Pricing groups: the first `days` days of each trace.
    pub days: f64,
}

impl Default for Defaults {
    fn default() -> Self {
        let moga = MogaConfig::default();
        Defaults {
            submissions: 50,
            seed: 1,
            workflow: "synthetic".to_string(),
            levels: None,
            mean_runtime: 1000,
            mean_transfer: 0,
            enact: true,
            population: moga.population,
            generations: moga.generations,
            sigma_share: moga.sigma_share,
            fork_window_days: 30.0,
            charge_holes_by_use: false,
            days: 30.0,
        }
    }
}

/// A group's axes.
#[derive(Debug, Clone, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct Axes {
    /// Trade-off factors picked per point.
    pub alpha: Option<Vec<f64>>,
    /// Site counts (first K of the pool).
    pub sites: Option<Vec<usize>>,
    /// Workflow sizes.
    pub workflow_tasks: Option<Vec<usize>>,
    /// Mean processors per task.
    pub task_processors: Option<Vec<u32>>,
    /// Every site's target load (overrides the pool's).
    pub target_load: Option<Vec<f64>>,
    /// Exact (true) or logged (false) estimates.
    pub exact_estimates: Option<Vec<bool>>,
    /// Pricing groups: percentages of the jobs that buy reservations.
    pub share: Option<Vec<f64>>,
    /// Pricing groups: EASY (true) or conservative (false) pricing.
    pub easy: Option<Vec<bool>>,
    /// Run groups: "moga" (Ch. 4, default), "greedy" or "greedy-easy" (Ch. 7).
    pub method: Option<Vec<String>>,
    /// Experiment seeds (default: `[defaults] seed`); repeated points give intervals.
    pub seed: Option<Vec<u64>>,
}

/// A group of points.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Its name (a figure of the thesis, say).
    pub name: String,
    /// "run" (default) or "slots".
    #[serde(default)]
    pub kind: Option<String>,
    /// Sites in order.
    pub pool: Vec<PoolSite>,
    /// Overrides of the defaults.
    #[serde(default)]
    pub submissions: Option<usize>,
    /// Workflow override.
    #[serde(default)]
    pub workflow: Option<String>,
    /// Mean transfer override.
    #[serde(default)]
    pub mean_transfer: Option<i64>,
    /// The axes.
    #[serde(default)]
    pub sweep: Axes,
}

/// A provisioning experiment config.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProvisionConfig {
    /// The experiment's name.
    pub name: String,
    /// Shared settings.
    #[serde(default)]
    pub defaults: Defaults,
    /// The groups.
    #[serde(rename = "group")]
    pub groups: Vec<Group>,
}

/// One resolved point of a config.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolvedPoint {
    /// MOGA vs best effort.
    Run {
        /// The group.
        group: String,
        /// The point.
        point: ProvisionPoint,
        /// Requested mean processors per task.
        task_processors: u32,
    },
    /// Adaptive pricing on one site (Ch. 5).
    Price {
        /// The group.
        group: String,
        /// The point.
        point: PricingPoint,
    },
    /// Slot statistics of one site.
    Slots {
        /// The group.
        group: String,
        /// The site.
        site: SiteSpec,
        /// Exact estimates.
        exact: bool,
        /// Seed.
        seed: u64,
    },
}

impl ResolvedPoint {
    /// The canonical text its id is derived from. The default method is left
    /// out, so MOGA points keep the ids they had before methods existed.
    pub fn canonical(&self) -> String {
        format!("{self:?}").replace(", method: Moga", "").replace(", start_within: None", "")
    }

    /// Stable id: the first 63 bits of sha256(canonical text).
    pub fn id(&self) -> i64 {
        let digest = Sha256::digest(self.canonical().as_bytes());
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&digest[..8]);
        (u64::from_be_bytes(bytes) >> 1) as i64
    }
}

/// The line of the first `key =` assignment at or after `from` (for value errors).
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines().position(|l| l.trim_start().split('=').next().is_some_and(|k| k.trim() == key)).map(|i| i + 1)
}

impl ProvisionConfig {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> anyhow::Result<ProvisionConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        ProvisionConfig::parse(&text, &path.display().to_string())
    }

    /// Parses and checks config text; errors name `file:line:column`.
    pub fn parse(text: &str, file: &str) -> anyhow::Result<ProvisionConfig> {
        let config: ProvisionConfig = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            anyhow::anyhow!("{file}:{line}:{column}: {}", e.message())
        })?;
        config.points().map_err(|e| {
            let at = key_line(text, e.setting).map_or_else(|| file.to_string(), |l| format!("{file}:{l}"));
            anyhow::anyhow!("{at}: {e}")
        })?;
        Ok(config)
    }

    /// Every point, in group and axis order.
    pub fn points(&self) -> Result<Vec<ResolvedPoint>, InvalidSetting> {
        let d = &self.defaults;
        let moga = MogaConfig { population: d.population, generations: d.generations, sigma_share: d.sigma_share };
        moga.validate()?;
        if !(d.fork_window_days.is_finite() && d.fork_window_days > 0.0) {
            return Err(InvalidSetting::new("fork_window_days", d.fork_window_days, "must be positive"));
        }
        let mut out = Vec::new();
        for g in &self.groups {
            let seeds = g.sweep.seed.clone().unwrap_or_else(|| vec![d.seed]);
            if seeds.is_empty() {
                return Err(InvalidSetting::new("seed", &g.name, "needs at least one seed"));
            }
            for &seed in &seeds {
                self.group_points(g, seed, &moga, &mut out)?;
            }
        }
        Ok(out)
    }

    /// The points of group `g` for one seed.
    fn group_points(
        &self,
        g: &Group,
        seed: u64,
        moga: &MogaConfig,
        out: &mut Vec<ResolvedPoint>,
    ) -> Result<(), InvalidSetting> {
        let d = &self.defaults;
        {
            if g.pool.is_empty() {
                return Err(InvalidSetting::new("pool", &g.name, "a group needs at least one site"));
            }
            for site in &g.pool {
                if let Some(l) = site.target_load {
                    crate::setting::positive("target_load", l)?;
                }
            }
            let exacts = g.sweep.exact_estimates.clone().unwrap_or_else(|| vec![true]);
            let (slots, price) = match g.kind.as_deref() {
                None | Some("run") => (false, false),
                Some("slots") => (true, false),
                Some("price") => (false, true),
                Some(_) => {
                    return Err(InvalidSetting::new(
                        "kind",
                        g.kind.clone().unwrap_or_default(),
                        "must be run, slots or price",
                    ));
                }
            };
            let loads: Vec<Option<f64>> = match &g.sweep.target_load {
                Some(v) => v.iter().map(|&l| Some(l)).collect(),
                None => vec![None],
            };
            for &l in loads.iter().flatten() {
                crate::setting::positive("target_load", l)?;
            }
            if price {
                let alphas = g.sweep.alpha.clone().unwrap_or_else(|| vec![0.0, 0.25, 0.5, 0.75, 1.0]);
                let shares = g.sweep.share.clone().unwrap_or_else(|| vec![10.0]);
                let policies = g.sweep.easy.clone().unwrap_or_else(|| vec![false]);
                for site in &g.pool {
                    for &load in &loads {
                        for &exact in &exacts {
                            for &easy in &policies {
                                for &share in &shares {
                                    for &alpha in &alphas {
                                        let point = PricingPoint {
                                            site: site_spec(site, load),
                                            exact_estimates: exact,
                                            days: d.days,
                                            share,
                                            alpha,
                                            easy,
                                            seed,
                                            start_within: None,
                                        };
                                        point.validate()?;
                                        out.push(ResolvedPoint::Price { group: g.name.clone(), point });
                                    }
                                }
                            }
                        }
                    }
                }
                return Ok(());
            }
            if slots {
                for site in &g.pool {
                    for &exact in &exacts {
                        for &load in &loads {
                            out.push(ResolvedPoint::Slots {
                                group: g.name.clone(),
                                site: site_spec(site, load),
                                exact,
                                seed,
                            });
                        }
                    }
                }
                return Ok(());
            }
            let alphas = g.sweep.alpha.clone().unwrap_or_else(default_alphas);
            let methods: Vec<Method> = g
                .sweep
                .method
                .clone()
                .unwrap_or_else(|| vec!["moga".to_string()])
                .iter()
                .map(|m| m.parse())
                .collect::<Result<_, _>>()?;
            for &a in &alphas {
                crate::setting::probability("alpha", a)?;
            }
            let site_counts = g.sweep.sites.clone().unwrap_or_else(|| vec![1]);
            for &k in &site_counts {
                if k == 0 || k > g.pool.len() {
                    return Err(InvalidSetting::new("sites", k, "must be between 1 and the pool's length"));
                }
            }
            let workflow = g.workflow.clone().unwrap_or_else(|| d.workflow.clone());
            let tasks = g.sweep.workflow_tasks.clone().unwrap_or_else(|| vec![100]);
            let procs = g.sweep.task_processors.clone().unwrap_or_else(|| vec![22]);
            for &k in &site_counts {
                for &n in &tasks {
                    for &p in &procs {
                        for &load in &loads {
                            for (&exact, &method) in exacts.iter().flat_map(|e| methods.iter().map(move |m| (e, m))) {
                                let sites: Vec<SiteSpec> = g.pool[..k].iter().map(|s| site_spec(s, load)).collect();
                                let max_procs = sites.iter().filter_map(|s| s.capacity).min().unwrap_or(u32::MAX);
                                let spec = workflow_spec(&workflow, n, p, d, g.mean_transfer, max_procs)?;
                                let point = ProvisionPoint {
                                    sites,
                                    workflow: spec,
                                    alphas: alphas.clone(),
                                    submissions: g.submissions.unwrap_or(d.submissions),
                                    exact_estimates: exact,
                                    moga: moga.clone(),
                                    seed,
                                    enact: d.enact,
                                    fork_window: (d.fork_window_days * 86_400.0) as i64,
                                    charging: if d.charge_holes_by_use {
                                        HoleCharging::Used
                                    } else {
                                        HoleCharging::Whole
                                    },
                                    method,
                                };
                                point.validate()?;
                                out.push(ResolvedPoint::Run { group: g.name.clone(), point, task_processors: p });
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn site_spec(site: &PoolSite, load: Option<f64>) -> SiteSpec {
    SiteSpec { trace: workload(&site.trace), target_load: load.or(site.target_load), capacity: site.capacity }
}

/// "synthetic" is the embedded generator; anything else a trace path or name.
pub fn workload(trace: &str) -> WorkloadSource {
    if trace == "synthetic" {
        WorkloadSource::default()
    } else {
        WorkloadSource::Swf { path: PathBuf::from(trace), lenient: false }
    }
}

/// The workflow of a point.
pub fn workflow_spec(
    name: &str,
    tasks: usize,
    procs: u32,
    d: &Defaults,
    mean_transfer: Option<i64>,
    max_procs: u32,
) -> Result<WorkflowSpec, InvalidSetting> {
    Ok(match name {
        "synthetic" => WorkflowSpec::Synthetic(SyntheticWorkflow {
            tasks,
            levels: d.levels,
            mean_runtime: d.mean_runtime,
            mean_procs: procs,
            max_procs,
            mean_transfer: mean_transfer.unwrap_or(d.mean_transfer),
        }),
        "cybershake" => WorkflowSpec::CyberShake,
        path => WorkflowSpec::File(PathBuf::from(path)),
    })
}

/// What a sweep did.
#[derive(Debug, Clone, Default)]
pub struct SweepReport {
    /// Points in the config.
    pub points: usize,
    /// Already stored (skipped).
    pub skipped: usize,
    /// Run and stored now.
    pub ran: usize,
}

#[allow(clippy::large_enum_variant)]
enum Finished {
    Price(ProvisionPointRow, crate::provision::experiment::PricingOutcome, Option<f64>, f64),
    Run(
        ProvisionPointRow,
        Vec<(crate::provision::experiment::SiteSummary, Option<f64>)>,
        Vec<crate::provision::experiment::SubmissionOutcome>,
    ),
    Slots(ProvisionPointRow, Option<f64>, Box<crate::provision::experiment::SlotStatistics>),
}

/// Runs one resolved point (its forks on `threads` threads).
fn run_one(experiment: Option<&str>, p: &ResolvedPoint, threads: usize) -> anyhow::Result<Finished> {
    let started = std::time::Instant::now();
    let mut row = ProvisionPointRow {
        point_id: p.id(),
        kind: "run",
        experiment: experiment.map(str::to_string),
        workflow: None,
        workflow_tasks: None,
        task_processors: None,
        sites: 1,
        traces: String::new(),
        target_load: None,
        exact_estimates: true,
        seed: 0,
        submissions: None,
        config: p.canonical(),
        code_version: code_version(),
        wall_seconds: 0.0,
        method: None,
    };
    match p {
        ResolvedPoint::Run { point, .. } => {
            let outcome = run_point(point, threads)?;
            row.workflow = Some(point.workflow.name());
            row.workflow_tasks = Some(outcome.tasks);
            row.task_processors = Some(outcome.mean_procs);
            row.sites = point.sites.len();
            row.traces = outcome.sites.iter().map(|s| s.trace.as_str()).collect::<Vec<_>>().join(",");
            row.target_load = point.sites.first().and_then(|s| s.target_load);
            row.exact_estimates = point.exact_estimates;
            row.seed = point.seed;
            row.submissions = Some(point.submissions);
            row.method = Some(point.method.name());
            row.wall_seconds = started.elapsed().as_secs_f64();
            let sites = outcome.sites.into_iter().zip(point.sites.iter().map(|s| s.target_load)).collect();
            Ok(Finished::Run(row, sites, outcome.rows))
        }
        ResolvedPoint::Price { point, .. } => {
            let outcome = run_pricing(point)?;
            row.kind = "price";
            row.traces = outcome.site.trace.clone();
            row.target_load = point.site.target_load;
            row.exact_estimates = point.exact_estimates;
            row.seed = point.seed;
            row.wall_seconds = started.elapsed().as_secs_f64();
            Ok(Finished::Price(row, outcome, point.site.target_load, point.alpha))
        }
        ResolvedPoint::Slots { site, exact, seed, .. } => {
            let stats = slot_statistics(site, *exact, OBSERVE_EVERY, *seed)?;
            row.kind = "slots";
            row.traces = stats.site.trace.clone();
            row.target_load = site.target_load;
            row.exact_estimates = *exact;
            row.seed = *seed;
            row.wall_seconds = started.elapsed().as_secs_f64();
            Ok(Finished::Slots(row, site.target_load, Box::new(stats)))
        }
    }
}

fn store_one(store: &mut Store, finished: &Finished) -> anyhow::Result<()> {
    match finished {
        Finished::Run(row, sites, rows) => store.write_provision_run(row, sites, rows)?,
        Finished::Slots(row, load, stats) => store.write_slot_statistics(row, *load, stats)?,
        Finished::Price(row, outcome, load, alpha) => store.write_pricing(
            row,
            (&outcome.site, *load),
            outcome.be_wait,
            *alpha,
            &outcome.records,
            &outcome.harm,
        )?,
    }
    Ok(())
}

/// Runs (or resumes) the points on `jobs` threads, storing each as it finishes.
pub fn sweep(
    experiment: Option<&str>,
    points: &[ResolvedPoint],
    db: &Path,
    jobs: usize,
    mut progress: impl FnMut(&ResolvedPoint),
) -> anyhow::Result<SweepReport> {
    let mut store = Store::open(db)?;
    let mut todo = Vec::new();
    for p in points {
        if !store.has_provision_point(p.id())? {
            todo.push(p.clone());
        }
    }
    let mut report = SweepReport { points: points.len(), skipped: points.len() - todo.len(), ran: 0 };
    if todo.is_empty() {
        return Ok(report);
    }
    // One point alone gets every thread for its MOGA and forks; several share them out.
    let fork_threads = if todo.len() == 1 { jobs.max(1) } else { 1 };
    let jobs = jobs.clamp(1, todo.len());
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<Finished>)>();
    let todo_ref = &todo;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..jobs {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = todo_ref.get(i) else { break };
                    if tx.send((i, run_one(experiment, p, fork_threads))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut first_error = None;
        for (i, result) in rx {
            match result.and_then(|f| store_one(&mut store, &f)) {
                Ok(()) => {
                    report.ran += 1;
                    progress(&todo_ref[i]);
                }
                Err(e) => {
                    // Stop handing out points; the finished ones stay stored.
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    })?;
    Ok(report)
}

/// The fork window of a point built from the command line.
pub const CLI_FORK_WINDOW: i64 = FORK_WINDOW;
