//! One provisioning experiment point: the sites' background load, the
//! submission instants, the MOGA at each, and the what-if forks that measure
//! the best-effort baseline and enact the chosen plans.
//!
//! Reference: `provisioning-dissertation-spec.md` §9 (what one run is:
//! build each resource from its trace and load scaling, choose submission
//! instants after a one-week warm-up and before the last week, snapshot the
//! state at each, provision, run best effort in the snapshot), §2.6 (slot
//! statistics), §3.8 (Ch. 4 setup), §10 (load scaling), §11 A17.
//!
//! Contract:
//! - The main run is one bench: a site per trace, fed by its background jobs,
//!   and a provisioner that asks every site for its slots and a snapshot at
//!   each instant. Nothing is reserved in it, so submissions are independent.
//! - A fork starts from the snapshots of one instant, with the background jobs
//!   still to come in the next `fork_window` seconds, and one executor: best
//!   effort, or the plan chosen for an α reserved and run. Forks of a point are
//!   independent and run on the threads the run's `--jobs` budget has free
//!   ([`Budget`]); their results are put back in submission order, so the
//!   outcome does not depend on the thread count. A pricing point's three
//!   runs (with the reservations, without them, with the buyers queueing)
//!   are independent too and share the budget the same way.
//! - Everything is seeded: the workflow, the load copy, the MOGA stream of
//!   each submission.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::provision::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use crate::provision::buyer::{BuyerActor, PricedRecord};
use crate::provision::executor::{Execution, ExecutorActor, Mode};
use crate::provision::load::{WEEK, offered_utilisation, scale_to};
use crate::provision::moga::{Genome, MogaConfig};
use crate::provision::plan::{HoleCharging, PlanEvaluator, SitePlan, TaskPlacement};
use crate::provision::pricing::Policy;
use crate::provision::provisioner::{MogaJob, ProvisionerActor, SubmissionRecord};
use crate::provision::site::{SlotSample, SlotScheduler};
use crate::provision::slots::Advertised;
use crate::provision::workflow::{SyntheticWorkflow, Workflow, cybershake};
use crate::rng::{Stream, stream};
use crate::setting::{InvalidSetting, probability};
use crate::threads::Budget;
use crate::units::{DAY, HOUR, Time};
use crate::workload::WorkloadSource;
use crate::workload::job::Job;
use crate::workload::prepare::{Estimates, PrepareConfig};

/// Which workflow is provisioned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum WorkflowSpec {
    /// The synthetic generator of §10.1.
    Synthetic(SyntheticWorkflow),
    /// CyberShake (Table 2).
    CyberShake,
    /// A workflow file.
    File(PathBuf),
}

impl WorkflowSpec {
    /// Builds the workflow (a synthetic one from the point's workflow stream).
    pub fn build(&self, seed: u64) -> anyhow::Result<Workflow> {
        Ok(match self {
            WorkflowSpec::Synthetic(g) => g.generate(&mut stream(seed, Stream::Workflows, 0))?,
            WorkflowSpec::CyberShake => cybershake(),
            WorkflowSpec::File(path) => Workflow::load(path)?,
        })
    }

    /// A short name for the store.
    pub fn name(&self) -> String {
        match self {
            WorkflowSpec::Synthetic(_) => "synthetic".to_string(),
            WorkflowSpec::CyberShake => "cybershake".to_string(),
            WorkflowSpec::File(p) => p.display().to_string(),
        }
    }
}

/// One site of a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSpec {
    /// Its background trace.
    pub trace: WorkloadSource,
    /// Raise its offered utilisation to this with a week-shifted copy (None:
    /// the trace as it is).
    pub utilisation: Option<f64>,
    /// Processors (None: the trace header's).
    pub capacity: Option<u32>,
}

/// The resolved settings of one provisioning point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvisionPoint {
    /// How the workflow is provisioned, or `slots` for the first site's slot
    /// statistics alone.
    pub method: Method,
    /// Greedy provisioning: the scheduler the sites price with.
    pub pricing_policy: Policy,
    /// Experiment seed.
    pub seed: u64,
    /// Background jobs request their actual runtimes (Ch. 3–4) or their logged estimates.
    pub estimates: Estimates,
    /// The sites, in order.
    pub sites: Vec<SiteSpec>,
    /// The workflow.
    pub workflow: WorkflowSpec,
    /// Trade-off factors picked from each archive.
    pub alphas: Vec<f64>,
    /// Submission instants.
    pub submissions: usize,
    /// MOGA settings.
    pub moga: MogaConfig,
    /// Enact each distinct chosen plan in a fork (and check its makespan).
    pub enact: bool,
    /// How far a fork simulates past its instant, seconds.
    pub fork_window: Time,
    /// How plans pay for holes (Table 1 by default).
    pub hole_charging: HoleCharging,
}

/// How a point provisions its workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// From advertised slots with the MOGA (Ch. 4).
    #[default]
    Moga,
    /// Task by task with adaptive pricing (Ch. 7, Fig. 51).
    Greedy,
    /// No workflow: the advertised-slot statistics of one site (Ch. 3).
    Slots,
}

impl Method {
    /// Every method with a one-line description.
    pub const ALL: [(Method, &'static str); 3] = [
        (Method::Moga, "the MOGA over the sites' advertised slots, every α from its archive (Ch. 4)"),
        (Method::Greedy, "task by task, each at the start its α-weighted price and wait make best (Ch. 7)"),
        (Method::Slots, "no workflow: the slots one site advertises over its whole trace (Ch. 3)"),
    ];

    /// Its name in configs and the store.
    pub fn name(self) -> &'static str {
        match self {
            Method::Moga => "moga",
            Method::Greedy => "greedy",
            Method::Slots => "slots",
        }
    }
}

impl ProvisionPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.sites.is_empty() {
            return Err(InvalidSetting::new("provision.sites", 0, "must name at least one site"));
        }
        if self.method == Method::Slots && self.sites.len() != 1 {
            return Err(InvalidSetting::new(
                "provision.sites",
                self.sites.len(),
                "method `slots` records one site: give one site per point (a `sites` axis over one-site lists)",
            ));
        }
        for site in &self.sites {
            if let Some(u) = site.utilisation {
                crate::setting::positive("provision.sites.utilisation", u)?;
            }
            if site.capacity == Some(0) {
                return Err(InvalidSetting::new("provision.sites.capacity", 0, "must be at least 1"));
            }
        }
        if self.method == Method::Slots {
            return Ok(());
        }
        for &a in &self.alphas {
            probability("provision.alphas", a)?;
        }
        if self.submissions == 0 {
            return Err(InvalidSetting::new("provision.submissions", 0, "must be at least 1"));
        }
        if self.fork_window <= 0 {
            return Err(InvalidSetting::new("provision.fork_window_days", self.fork_window, "must be positive"));
        }
        self.moga.validate().map_err(|e| {
            let setting = match e.setting {
                "moga.population" => "provision.moga.population",
                "moga.sigma_share" => "provision.moga.sigma_share",
                other => other,
            };
            e.renamed(setting)
        })
    }

    /// The method and pricing policy as the store names them (`greedy-easy`
    /// for greedy provisioning priced with EASY).
    pub fn method_name(&self) -> &'static str {
        match (self.method, self.pricing_policy) {
            (Method::Greedy, Policy::Easy) => "greedy-easy",
            (m, _) => m.name(),
        }
    }
}

/// A site's background workload after preparation and load scaling.
#[derive(Debug, Clone)]
pub struct PreparedSite {
    /// Trace name.
    pub trace: String,
    /// Processors.
    pub capacity: u32,
    /// Jobs, ordered by occurrence, ids 0..n.
    pub jobs: Vec<Job>,
    /// Probability of the week-shifted copy's jobs (0: none).
    pub copy_probability: f64,
    /// Offered utilisation of `jobs`.
    pub offered: f64,
}

/// Loads a site's trace: every usable job at its own time; exact estimates if asked.
pub fn prepare_site(spec: &SiteSpec, estimates: Estimates, seed: u64) -> anyhow::Result<PreparedSite> {
    let trace = spec.trace.load()?;
    let mut prepare = PrepareConfig::default().for_classic_modes();
    prepare.filter.drop_wider_than_machine = true;
    prepare.capacity = spec.capacity;
    let (mut jobs, _, capacity) =
        prepare.usable_jobs(&trace).with_context(|| format!("preparing {}", spec.trace.name()))?;
    for job in &mut jobs {
        if estimates == Estimates::Exact {
            job.estimate = job.runtime.max(1);
        }
        job.runtime = job.runtime.clamp(0, job.estimate);
    }
    let (copy_probability, jobs) = match spec.utilisation {
        Some(target) => scale_to(&jobs, capacity, target, seed)?,
        None => (0.0, jobs),
    };
    let offered = offered_utilisation(&jobs, capacity).unwrap_or(0.0);
    Ok(PreparedSite { trace: spec.trace.name(), capacity, jobs, copy_probability, offered })
}

/// `count` instants evenly spread over `[first + 1 week, last − 1 week]`
/// (the whole span if it is shorter than three weeks), mid-interval.
pub fn submission_instants(first: Time, last: Time, count: usize) -> Vec<Time> {
    let (lo, hi) = if last - first > 3 * WEEK { (first + WEEK, last - WEEK) } else { (first, last) };
    let step = (hi - lo) as f64 / count as f64;
    (0..count).map(|k| lo + (step * (k as f64 + 0.5)) as Time).collect()
}

/// The measurements of one submission and one α.
#[derive(Debug, Clone, PartialEq)]
pub struct SubmissionOutcome {
    /// Submission index.
    pub submission: usize,
    /// Its instant.
    pub time: Time,
    /// The trade-off factor.
    pub alpha: f64,
    /// Provisioned makespan (SC − submission), seconds.
    pub makespan: Option<Time>,
    /// Provisioned allocation cost, processor-seconds.
    pub cost: Option<f64>,
    /// The plan enacted in a fork: its makespan.
    pub enacted_makespan: Option<Time>,
    /// Best-effort makespan, seconds (None: not finished within the fork window).
    pub be_makespan: Option<Time>,
    /// Best-effort allocation cost (eq. 16), processor-seconds.
    pub be_cost: f64,
    /// Pareto archive size.
    pub archive: usize,
    /// |Â|: advertised slots over all sites.
    pub slots: usize,
    /// The archive was empty and the all-edge plan was used.
    pub fallback: bool,
    /// Greedy: Σ externality f charged, processor-seconds.
    pub f: Option<f64>,
}

/// What a point produced.
#[derive(Debug, Clone)]
pub struct PointOutcome {
    /// The prepared sites (without their jobs).
    pub sites: Vec<SiteSummary>,
    /// One row per submission and α.
    pub rows: Vec<SubmissionOutcome>,
    /// Workflow size.
    pub tasks: usize,
    /// Mean processors per task.
    pub mean_procs: f64,
}

/// A site's load figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteSummary {
    /// Trace name.
    pub trace: String,
    /// Processors.
    pub capacity: u32,
    /// Background jobs.
    pub jobs: usize,
    /// Copy probability.
    pub copy_probability: f64,
    /// Offered utilisation.
    pub offered: f64,
    /// Utilisation the main run achieved.
    pub achieved: Option<f64>,
}

/// A slot a provisioned plan reserved on one site.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReservedSlot {
    /// The site.
    pub site: u32,
    /// Start.
    pub start: Time,
    /// End: the advertised end; an extensible slot's end is at least the last
    /// end of a task that took processors from its pool.
    pub end: Time,
    /// Processors.
    pub procs: u32,
    /// The pool whose processors tasks take ([`PlacedTask::from`]): a
    /// site's divisible slots of one price share one; every other slot has its own.
    pub pool: u32,
}

/// Where a provisioned task ran and which pools it took processors from.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedTask {
    /// Its site, start and end.
    pub placement: TaskPlacement,
    /// Processors.
    pub procs: u32,
    /// (pool, processors) taken; empty for a task that holds nothing (no runtime).
    pub from: Vec<(u32, u32)>,
}

/// What one submission reserved for one α, and where its tasks ran in it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReservedRun {
    /// Submission index.
    pub submission: usize,
    /// Its instant.
    pub time: Time,
    /// The trade-off factor.
    pub alpha: f64,
    /// The reserved slots: the MOGA plan's selected advertised slots, or
    /// greedy provisioning's one slot per task.
    pub slots: Vec<ReservedSlot>,
    /// Every task, in task order.
    pub tasks: Vec<PlacedTask>,
}

/// Runs one point: main run, then the forks on the threads `budget` has free.
pub fn run_point(point: &ProvisionPoint, budget: &Arc<Budget>) -> anyhow::Result<PointOutcome> {
    run_point_with(point, budget, false).map(|(outcome, _)| outcome)
}

/// [`run_point`], plus what each submission reserved and ran for each α
/// (for drawing); the outcome is the same.
pub fn run_point_reserved(
    point: &ProvisionPoint,
    budget: &Arc<Budget>,
) -> anyhow::Result<(PointOutcome, Vec<ReservedRun>)> {
    run_point_with(point, budget, true)
}

fn run_point_with(
    point: &ProvisionPoint,
    budget: &Arc<Budget>,
    reserved: bool,
) -> anyhow::Result<(PointOutcome, Vec<ReservedRun>)> {
    point.validate()?;
    let workflow = point.workflow.build(point.seed)?;
    let prepared: Vec<PreparedSite> = point
        .sites
        .iter()
        .enumerate()
        .map(|(i, s)| prepare_site(s, point.estimates, point.seed.wrapping_add(i as u64)))
        .collect::<anyhow::Result<_>>()?;
    let widths: Vec<u32> = prepared.iter().map(|s| s.capacity).collect();
    workflow.check_fits(&widths, &point.workflow.name())?;
    let first = prepared.iter().filter_map(|s| s.jobs.first().map(|j| j.occurrence)).max().unwrap_or(0);
    let last = prepared.iter().filter_map(|s| s.jobs.last().map(|j| j.occurrence)).min().unwrap_or(0);
    let instants = submission_instants(first, last, point.submissions);
    let moga = MogaJob {
        workflow: workflow.clone(),
        config: point.moga.clone(),
        alphas: point.alphas.clone(),
        seed: point.seed,
        charging: point.hole_charging,
        budget: Arc::clone(budget),
    };
    let moga = (point.method == Method::Moga).then_some(moga);
    let provisioner = ProvisionerActor::new(prepared.len(), instants, true, moga);
    let scenario = ProvisionScenario {
        sites: prepared
            .iter()
            .map(|s| ProvisionSite { scheduler: first_scheduler(s), jobs: s.jobs.clone(), sample: false })
            .collect(),
        provisioner: Some(provisioner),
        executor: None,
        buyer: None,
        horizon: last + 1,
    };
    let main = simulate_provisioning(scenario)?;
    let sites = prepared
        .iter()
        .zip(&main.sites)
        .map(|(p, r)| SiteSummary {
            trace: p.trace.clone(),
            capacity: p.capacity,
            jobs: p.jobs.len(),
            copy_probability: p.copy_probability,
            offered: p.offered,
            achieved: r.scheduler.utilisation(),
        })
        .collect();
    let forks: Vec<Fork> = main.submissions.iter().flat_map(|r| forks_of(r, point)).collect();
    let results = run_forks(&forks, &main.submissions, &prepared, &workflow, point, budget, reserved)?;
    let be_cost = workflow.best_effort_cost() as f64;
    let rows = match point.method {
        Method::Moga => outcomes(&main.submissions, &forks, &results, be_cost),
        Method::Greedy => greedy_outcomes(&main.submissions, &forks, &results, &point.alphas, be_cost),
        Method::Slots => Vec::new(),
    };
    let mean_procs = workflow.tasks().iter().map(|t| f64::from(t.procs)).sum::<f64>() / workflow.tasks().len() as f64;
    let runs = match (reserved, point.method) {
        (false, _) | (_, Method::Slots) => Vec::new(),
        (true, Method::Moga) => moga_reserved(&main.submissions, &workflow, point)?,
        (true, Method::Greedy) => greedy_reserved(&main.submissions, &forks, &results, &workflow, &point.alphas),
    };
    Ok((PointOutcome { sites, rows, tasks: workflow.tasks().len(), mean_procs }, runs))
}

/// Every chosen MOGA plan: its selected slots, and its placements evaluated
/// again with what each task took from them.
fn moga_reserved(
    records: &[SubmissionRecord],
    workflow: &Workflow,
    point: &ProvisionPoint,
) -> anyhow::Result<Vec<ReservedRun>> {
    let mut runs = Vec::new();
    for record in records {
        let Some(p) = &record.provisioning else { continue };
        let mut evaluator = PlanEvaluator::new(workflow, record.time, &record.slots).with_charging(point.hole_charging);
        // Position of each site's first slot in Â.
        let offsets: Vec<usize> = record
            .slots
            .iter()
            .scan(0, |at, list| {
                let first = *at;
                *at += list.len();
                Some(first)
            })
            .collect();
        for c in &p.choices {
            let mut genome = Genome::zeros(evaluator.bits());
            let mut slots = Vec::new();
            for (site, plan) in c.sites.iter().enumerate() {
                for &k in &plan.selected {
                    let i = offsets.get(site).copied().unwrap_or(0) + k as usize;
                    let (Some(a), Some(pool)) = (record.slots[site].get(k as usize), evaluator.origin(i)) else {
                        anyhow::bail!(
                            "submission {}: the plan selects slot {k} of site {site}, which it was not offered",
                            record.index
                        );
                    };
                    genome.set(i, true);
                    let slot = ReservedSlot { site: site as u32, start: a.start, end: a.end(), procs: a.procs, pool };
                    slots.push((slot, a.extensible));
                }
            }
            let Some((placements, _, taken)) = evaluator.placements_taken(&genome) else {
                anyhow::bail!(
                    "submission {}, α = {}: its chosen plan no longer places every task",
                    record.index,
                    c.alpha
                );
            };
            if placements != c.placements {
                anyhow::bail!(
                    "submission {}, α = {}: its chosen plan places the tasks differently when evaluated again",
                    record.index,
                    c.alpha
                );
            }
            let tasks: Vec<PlacedTask> = placements
                .into_iter()
                .zip(taken)
                .map(|(placement, from)| PlacedTask {
                    placement,
                    procs: workflow.tasks()[placement.task as usize].procs,
                    from,
                })
                .collect();
            // An extensible slot lasts as long as the tasks in its pool.
            for (slot, _) in slots.iter_mut().filter(|s| s.1) {
                for t in tasks.iter().filter(|t| t.from.iter().any(|f| f.0 == slot.pool)) {
                    slot.end = slot.end.max(t.placement.end);
                }
            }
            let slots = slots.into_iter().map(|s| s.0).collect();
            runs.push(ReservedRun { submission: record.index, time: record.time, alpha: c.alpha, slots, tasks });
        }
    }
    Ok(runs)
}

/// Every greedy fork's bought slots (one per task, as long as its runtime, at least a second).
fn greedy_reserved(
    records: &[SubmissionRecord],
    forks: &[Fork],
    results: &[Option<Execution>],
    workflow: &Workflow,
    alphas: &[f64],
) -> Vec<ReservedRun> {
    let mut runs = Vec::new();
    for (fork, result) in forks.iter().zip(results) {
        let (ForkKind::Greedy { alpha }, Some(e)) = (fork.kind, result) else { continue };
        let Some(record) = records.get(fork.submission) else { continue };
        let mut slots = Vec::with_capacity(e.placements.len());
        let mut tasks = Vec::with_capacity(e.placements.len());
        for (k, placement) in e.placements.iter().enumerate() {
            let task = &workflow.tasks()[placement.task as usize];
            let pool = k as u32;
            slots.push(ReservedSlot {
                site: placement.site,
                start: placement.start,
                end: placement.start + task.runtime.max(1),
                procs: task.procs,
                pool,
            });
            tasks.push(PlacedTask { placement: *placement, procs: task.procs, from: vec![(pool, task.procs)] });
        }
        runs.push(ReservedRun {
            submission: fork.submission,
            time: record.time,
            alpha: alphas.get(alpha).copied().unwrap_or(f64::NAN),
            slots,
            tasks,
        });
    }
    runs
}

fn first_scheduler(site: &PreparedSite) -> SlotScheduler {
    SlotScheduler::new(site.capacity, site.jobs.first().map_or(0, |j| j.occurrence))
}

/// A what-if run from a submission's snapshots.
#[derive(Debug, Clone)]
struct Fork {
    submission: usize,
    kind: ForkKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum ForkKind {
    /// The workflow runs best effort.
    BestEffort,
    /// The MOGA plan of choice i, enacted.
    Plan(usize),
    /// Greedy provisioning with the point's α number i.
    Greedy { alpha: usize },
}

impl Fork {
    fn choice(&self) -> Option<usize> {
        match self.kind {
            ForkKind::Plan(i) => Some(i),
            _ => None,
        }
    }
}

/// The best-effort fork, then one per distinct chosen MOGA plan or one per α for greedy.
fn forks_of(record: &SubmissionRecord, point: &ProvisionPoint) -> Vec<Fork> {
    let submission = record.index;
    let mut forks = vec![Fork { submission, kind: ForkKind::BestEffort }];
    match point.method {
        Method::Greedy => {
            forks.extend((0..point.alphas.len()).map(|alpha| Fork { submission, kind: ForkKind::Greedy { alpha } }));
        }
        Method::Slots => {}
        Method::Moga => {
            if let (true, Some(p)) = (point.enact, &record.provisioning) {
                let mut seen: Vec<usize> = Vec::new();
                for (i, c) in p.choices.iter().enumerate() {
                    if !seen.contains(&c.member) {
                        seen.push(c.member);
                        forks.push(Fork { submission, kind: ForkKind::Plan(i) });
                    }
                }
            }
        }
    }
    forks
}

fn run_forks(
    forks: &[Fork],
    records: &[SubmissionRecord],
    sites: &[PreparedSite],
    workflow: &Workflow,
    point: &ProvisionPoint,
    budget: &Budget,
    placements: bool,
) -> anyhow::Result<Vec<Option<Execution>>> {
    let easy = point.pricing_policy == Policy::Easy;
    let run = |fork: &Fork| -> anyhow::Result<Option<Execution>> {
        let record = &records[fork.submission];
        let mode = match fork.kind {
            ForkKind::BestEffort => Mode::BestEffort,
            ForkKind::Plan(i) => {
                let (placements, sites) = plan_of(record, i);
                Mode::Reserved { placements, sites }
            }
            ForkKind::Greedy { alpha } => Mode::Greedy { alpha: point.alphas.get(alpha).copied().unwrap_or(0.0), easy },
        };
        let t = record.time;
        let window = point.fork_window;
        let scenario = ProvisionScenario {
            sites: sites
                .iter()
                .zip(&record.snapshots)
                .map(|(s, snap)| ProvisionSite {
                    scheduler: snap.clone(),
                    // The snapshot already holds every job submitted up to t.
                    jobs: s.jobs.iter().filter(|j| j.occurrence > t && j.occurrence <= t + window).copied().collect(),
                    sample: false,
                })
                .collect(),
            provisioner: None,
            executor: Some({
                let executor = ExecutorActor::new(workflow.clone(), mode, t, sites.len());
                if placements { executor.with_placements() } else { executor }
            }),
            buyer: None,
            horizon: t + window,
        };
        Ok(simulate_provisioning(scenario)?.execution)
    };
    budget.map("what-if fork", forks, &mut (), || (), |_, fork| run(fork))?.into_iter().collect()
}

fn plan_of(record: &SubmissionRecord, choice: usize) -> (Vec<TaskPlacement>, Vec<SitePlan>) {
    record
        .provisioning
        .as_ref()
        .and_then(|p| p.choices.get(choice))
        .map(|c| (c.placements.clone(), c.sites.clone()))
        .unwrap_or_default()
}

fn makespan(e: &Option<Execution>) -> Option<Time> {
    e.as_ref().and_then(|e| e.makespan)
}

/// The best-effort fork's makespan of each submission.
fn be_makespan(forks: &[Fork], results: &[Option<Execution>], submission: usize) -> Option<Time> {
    forks
        .iter()
        .zip(results)
        .find(|(f, _)| f.submission == submission && f.kind == ForkKind::BestEffort)
        .and_then(|(_, r)| makespan(r))
}

/// Greedy rows: one per submission and α, from its fork.
fn greedy_outcomes(
    records: &[SubmissionRecord],
    forks: &[Fork],
    results: &[Option<Execution>],
    alphas: &[f64],
    be_cost: f64,
) -> Vec<SubmissionOutcome> {
    let mut rows = Vec::new();
    for record in records {
        let be = be_makespan(forks, results, record.index);
        for (fork, result) in forks.iter().zip(results).filter(|(f, _)| f.submission == record.index) {
            let ForkKind::Greedy { alpha, .. } = fork.kind else { continue };
            let e = result.as_ref();
            rows.push(SubmissionOutcome {
                submission: record.index,
                time: record.time,
                alpha: alphas.get(alpha).copied().unwrap_or(f64::NAN),
                makespan: e.and_then(|e| e.planned),
                cost: e.and_then(|e| e.cost).map(|c| c.0),
                enacted_makespan: e.and_then(|e| e.makespan),
                be_makespan: be,
                be_cost,
                archive: 0,
                slots: 0,
                fallback: false,
                f: e.and_then(|e| e.cost).map(|c| c.1),
            });
        }
    }
    rows
}

fn outcomes(
    records: &[SubmissionRecord],
    forks: &[Fork],
    results: &[Option<Execution>],
    be_cost: f64,
) -> Vec<SubmissionOutcome> {
    let mut rows = Vec::new();
    for record in records {
        let mine: Vec<(&Fork, &Option<Execution>)> =
            forks.iter().zip(results).filter(|(f, _)| f.submission == record.index).collect();
        let be_makespan = be_makespan(forks, results, record.index);
        let Some(p) = &record.provisioning else {
            continue;
        };
        for c in &p.choices {
            let enacted = mine
                .iter()
                .find(|(f, _)| f.choice().is_some_and(|i| p.choices[i].member == c.member))
                .and_then(|(_, r)| makespan(r));
            rows.push(SubmissionOutcome {
                submission: record.index,
                time: record.time,
                alpha: c.alpha,
                makespan: Some(c.objectives.makespan as Time),
                cost: Some(c.objectives.cost),
                enacted_makespan: enacted,
                be_makespan,
                be_cost,
                archive: p.archive.len(),
                slots: p.slots,
                fallback: p.fallback,
                f: None,
            });
        }
        if p.choices.is_empty() {
            rows.push(SubmissionOutcome {
                submission: record.index,
                time: record.time,
                alpha: f64::NAN,
                makespan: None,
                cost: None,
                enacted_makespan: None,
                be_makespan,
                be_cost,
                archive: p.archive.len(),
                slots: p.slots,
                fallback: p.fallback,
                f: None,
            });
        }
    }
    rows
}

/// Advertised-slot statistics of one site over its whole trace (§2.6).
#[derive(Debug, Clone)]
pub struct SlotStatistics {
    /// The prepared site.
    pub site: SiteSummary,
    /// At every background arrival: advertised slots and tasks in the system.
    pub samples: Vec<SlotSample>,
    /// Every `observe_every` seconds: the advertised slots (time, slot).
    pub observed: Vec<(Time, Advertised)>,
    /// Schedule rebuilds (inaccurate estimates).
    pub rebuilds: u64,
}

/// Runs a site's trace alone and records its advertised slots: the count at
/// every arrival, and every slot each `observe_every` seconds (through the
/// kernel, by an observer that provisions nothing).
pub fn slot_statistics(
    spec: &SiteSpec,
    estimates: Estimates,
    observe_every: Time,
    seed: u64,
) -> anyhow::Result<SlotStatistics> {
    if observe_every <= 0 {
        return Err(InvalidSetting::new("observe_every", observe_every, "must be positive").into());
    }
    let site = prepare_site(spec, estimates, seed)?;
    let first = site.jobs.first().map_or(0, |j| j.occurrence);
    let last = site.jobs.last().map_or(0, |j| j.occurrence);
    let instants: Vec<Time> = (0..).map(|k| first + k * observe_every).take_while(|&t| t <= last).collect();
    let observer = ProvisionerActor::new(1, instants, false, None);
    let scenario = ProvisionScenario {
        sites: vec![ProvisionSite { scheduler: first_scheduler(&site), jobs: site.jobs.clone(), sample: true }],
        provisioner: Some(observer),
        executor: None,
        buyer: None,
        horizon: Time::MAX,
    };
    let sim = simulate_provisioning(scenario)?;
    let result = sim.sites.into_iter().next().context("the site produced no result")?;
    let observed = sim.submissions.iter().flat_map(|r| r.slots.iter().flatten().map(move |s| (r.time, *s))).collect();
    let summary = SiteSummary {
        trace: site.trace.clone(),
        capacity: site.capacity,
        jobs: site.jobs.len(),
        copy_probability: site.copy_probability,
        offered: site.offered,
        achieved: result.scheduler.utilisation(),
    };
    Ok(SlotStatistics { site: summary, samples: result.samples, observed, rebuilds: result.scheduler.rebuilds() })
}

/// The default fork window: 30 days.
pub const FORK_WINDOW: Time = 30 * DAY;

/// The default observation period of slot statistics: one hour.
pub const OBSERVE_EVERY: Time = HOUR;

/// One adaptive-pricing run (Ch. 5): a share of the jobs of a trace window buy
/// priced reservations, the rest queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PricingPoint {
    /// Seed (which jobs buy; the load copy).
    pub seed: u64,
    /// The buyers' trade-off factor α.
    pub alpha: f64,
    /// Percentage of the jobs that buy reservations (0–100).
    pub share: f64,
    /// The window: the first `days` days of the trace.
    pub days: f64,
    /// The scheduler the site prices with.
    pub pricing_policy: Policy,
    /// Jobs request their actual runtimes or their logged estimates.
    pub estimates: Estimates,
    /// Buyers accept only starts within this many seconds of their submission (None: any).
    pub start_within: Option<Time>,
    /// The site.
    pub site: SiteSpec,
}

impl PricingPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if !(0.0..=100.0).contains(&self.share) {
            return Err(InvalidSetting::new("pricing.share", self.share, "must be a percentage in [0, 100]"));
        }
        probability("pricing.alpha", self.alpha)?;
        crate::setting::positive("pricing.days", self.days)?;
        if let Some(w) = self.start_within
            && w < 0
        {
            return Err(InvalidSetting::new(
                "pricing.start_within_hours",
                w as f64 / 3600.0,
                "must not be negative: a deadline before the earliest start",
            ));
        }
        if let Some(u) = self.site.utilisation {
            crate::setting::positive("pricing.site.utilisation", u)?;
        }
        if self.site.capacity == Some(0) {
            return Err(InvalidSetting::new("pricing.site.capacity", 0, "must be at least 1"));
        }
        Ok(())
    }
}

/// What a pricing run produced.
#[derive(Debug, Clone)]
pub struct PricingOutcome {
    /// The site's load figures.
    pub site: SiteSummary,
    /// One record per reservation request.
    pub records: Vec<PricedRecord>,
    /// Mean wait of the queued (best-effort) jobs, seconds.
    pub be_wait: Option<f64>,
    /// The provider's view: what the reservations did to the best-effort jobs.
    pub harm: Harm,
}

/// The externality charged against the delay best-effort jobs actually
/// suffered: the same run without the reservation requests is the
/// counterfactual (f is defined against the slot's absence, §4.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Harm {
    /// Σ f of the bought reservations, processor-seconds.
    pub charged: f64,
    /// Σ over best-effort jobs of processors × (wait with − wait without the
    /// reservations), processor-seconds; None if the two runs did not start the same jobs.
    pub suffered: Option<f64>,
    /// The same against the run where the would-be buyers queue as best effort
    /// instead: what reserving (rather than queueing) costs the others.
    pub suffered_vs_queueing: Option<f64>,
    /// Best-effort jobs.
    pub be_jobs: u64,
    /// Their mean wait without the reservations, seconds.
    pub be_wait_without: Option<f64>,
}

/// Runs one pricing point.
pub fn run_pricing(point: &PricingPoint, budget: &Budget) -> anyhow::Result<PricingOutcome> {
    point.validate()?;
    let site = prepare_site(&point.site, point.estimates, point.seed)?;
    let first = site.jobs.first().map_or(0, |j| j.occurrence);
    let end = first + (point.days * DAY as f64) as Time;
    let mut rng = stream(point.seed, Stream::ReservationShare, 0);
    let (mut buyers, mut queued) = (Vec::new(), Vec::new());
    for job in site.jobs.iter().filter(|j| j.occurrence < end) {
        let u: f64 = rand::RngExt::random(&mut rng);
        if u * 100.0 < point.share { buyers.push(*job) } else { queued.push(*job) }
    }
    for (i, j) in queued.iter_mut().enumerate() {
        j.id = i as u32;
    }
    let jobs = queued.len() + buyers.len();
    let run = |queued: Vec<Job>, buyer: Option<BuyerActor>| {
        let mut scheduler = first_scheduler(&site);
        scheduler.record_waits();
        let scenario = ProvisionScenario {
            sites: vec![ProvisionSite { scheduler, jobs: queued, sample: false }],
            provisioner: None,
            executor: None,
            buyer,
            horizon: Time::MAX,
        };
        simulate_provisioning(scenario)
    };
    let only_site = |sim: crate::provision::bench::ProvisionSimulated| {
        sim.sites.into_iter().next().context("the site produced no result")
    };
    // The counterfactuals (the reservation requests absent, and queued best
    // effort instead) and the run itself are independent.
    let mut everyone: Vec<Job> = queued.clone();
    // Best-effort jobs keep their ids; the former buyers follow them.
    everyone.extend(buyers.iter().enumerate().map(|(k, j)| Job { id: (queued.len() + k) as u32, ..*j }));
    everyone.sort_by_key(|j| j.occurrence);
    let easy = point.pricing_policy == Policy::Easy;
    let runs = [(queued.clone(), None), (everyone, None), (queued.clone(), Some(buyers))];
    let mut done = budget
        .map(
            "pricing run",
            &runs,
            &mut (),
            || (),
            |_, (jobs, buyers)| {
                let buyer = buyers.clone().map(|b| BuyerActor::new(b, point.alpha, easy, point.start_within));
                run(jobs.clone(), buyer)
            },
        )?
        .into_iter();
    let mut next = || done.next().context("a pricing run produced no result");
    let absent = only_site(next()??)?;
    let queueing = only_site(next()??)?;
    let sim = next()??;
    let purchases = sim.purchases;
    let result = sim.sites.into_iter().next().context("the site produced no result")?;
    let be = queued.len() as u32;
    let area = |s: &SlotScheduler| -> Option<f64> {
        let w: Vec<&(u32, u32, Time)> = s.background_waits().iter().filter(|w| w.0 < be).collect();
        (w.len() == queued.len()).then(|| w.iter().map(|&&(_, p, wait)| f64::from(p) * wait as f64).sum())
    };
    let with = area(&result.scheduler);
    let harm = Harm {
        charged: purchases.iter().filter(|r| r.bought).map(|r| r.f).sum(),
        suffered: with.zip(area(&absent.scheduler)).map(|(a, b)| a - b),
        suffered_vs_queueing: with.zip(area(&queueing.scheduler)).map(|(a, b)| a - b),
        be_jobs: queued.len() as u64,
        be_wait_without: absent.scheduler.mean_background_wait(),
    };
    let summary = SiteSummary {
        trace: site.trace.clone(),
        capacity: site.capacity,
        jobs,
        copy_probability: site.copy_probability,
        offered: site.offered,
        achieved: result.scheduler.utilisation(),
    };
    Ok(PricingOutcome { site: summary, records: purchases, be_wait: result.scheduler.mean_background_wait(), harm })
}
