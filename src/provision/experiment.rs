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
//!   independent and run on up to `threads` threads; their results are put
//!   back in submission order, so the outcome does not depend on the thread
//!   count.
//! - Everything is seeded: the workflow, the load copy, the MOGA stream of
//!   each submission.

use std::path::PathBuf;

use anyhow::Context as _;

use crate::provision::buyer::{BuyerActor, PricedRecord};
use crate::provision::executor::{ExecutorActor, Mode};
use crate::provision::load::{WEEK, offered_utilisation, scale_to};
use crate::provision::moga::MogaConfig;
use crate::provision::plan::{HoleCharging, SitePlan, TaskPlacement};
use crate::provision::provisioner::{MogaJob, ProvisionerActor, SubmissionRecord};
use crate::provision::site::{SlotSample, SlotScheduler};
use crate::provision::slots::Advertised;
use crate::provision::workflow::{SyntheticWorkflow, Workflow, cybershake};
use crate::rng::{Stream, stream};
use crate::setting::{InvalidSetting, probability};
use crate::sim::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use crate::units::{DAY, HOUR, Time};
use crate::workload::WorkloadSource;
use crate::workload::job::Job;
use crate::workload::prepare::PrepareConfig;

/// Which workflow is provisioned.
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
pub struct SiteSpec {
    /// Its background trace.
    pub trace: WorkloadSource,
    /// Raise its offered utilisation to this (None: the trace as it is).
    pub target_load: Option<f64>,
    /// Processors (None: the trace header's).
    pub capacity: Option<u32>,
}

/// Every setting of one point.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionPoint {
    /// The sites, in order.
    pub sites: Vec<SiteSpec>,
    /// The workflow.
    pub workflow: WorkflowSpec,
    /// Trade-off factors picked from each archive.
    pub alphas: Vec<f64>,
    /// Submission instants.
    pub submissions: usize,
    /// Background jobs request their actual runtimes (Ch. 3–4) instead of the logged estimates.
    pub exact_estimates: bool,
    /// MOGA settings.
    pub moga: MogaConfig,
    /// Experiment seed.
    pub seed: u64,
    /// Enact each distinct chosen plan in a fork (and check its makespan).
    pub enact: bool,
    /// How far a fork simulates past its instant.
    pub fork_window: Time,
    /// How plans pay for holes (Table 1 by default).
    pub charging: HoleCharging,
}

impl ProvisionPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.sites.is_empty() {
            return Err(InvalidSetting::new("sites", 0, "must be at least 1"));
        }
        for &a in &self.alphas {
            probability("alpha", a)?;
        }
        if self.submissions == 0 {
            return Err(InvalidSetting::new("submissions", 0, "must be at least 1"));
        }
        if self.fork_window <= 0 {
            return Err(InvalidSetting::new("fork_window", self.fork_window, "must be positive"));
        }
        self.moga.validate()
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
pub fn prepare_site(spec: &SiteSpec, exact: bool, seed: u64) -> anyhow::Result<PreparedSite> {
    let trace = spec.trace.load()?;
    let mut prepare = PrepareConfig::default().for_classic_modes();
    prepare.filter.drop_wider_than_machine = true;
    prepare.capacity = spec.capacity;
    let (mut jobs, _, capacity) =
        prepare.usable_jobs(&trace).with_context(|| format!("preparing {}", spec.trace.name()))?;
    for job in &mut jobs {
        if exact {
            job.estimate = job.runtime.max(1);
        }
        job.runtime = job.runtime.clamp(0, job.estimate);
    }
    let (copy_probability, jobs) = match spec.target_load {
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

/// Runs one point: main run, then the forks on up to `threads` threads.
pub fn run_point(point: &ProvisionPoint, threads: usize) -> anyhow::Result<PointOutcome> {
    point.validate()?;
    let workflow = point.workflow.build(point.seed)?;
    let prepared: Vec<PreparedSite> = point
        .sites
        .iter()
        .enumerate()
        .map(|(i, s)| prepare_site(s, point.exact_estimates, point.seed.wrapping_add(i as u64)))
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
        charging: point.charging,
        threads,
    };
    let provisioner = ProvisionerActor::new(0, prepared.len(), instants, true, Some(moga));
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
    let forks: Vec<Fork> = main.submissions.iter().flat_map(|r| forks_of(r, point.enact)).collect();
    let results = run_forks(&forks, &main.submissions, &prepared, &workflow, point.fork_window, threads)?;
    let rows = outcomes(&main.submissions, &forks, &results, workflow.best_effort_cost() as f64);
    let mean_procs = workflow.tasks().iter().map(|t| f64::from(t.procs)).sum::<f64>() / workflow.tasks().len() as f64;
    Ok(PointOutcome { sites, rows, tasks: workflow.tasks().len(), mean_procs })
}

fn first_scheduler(site: &PreparedSite) -> SlotScheduler {
    SlotScheduler::new(site.capacity, site.jobs.first().map_or(0, |j| j.occurrence))
}

/// A what-if run from a submission's snapshots.
#[derive(Debug, Clone)]
struct Fork {
    submission: usize,
    /// None: best effort; Some(i): the plan of choice i, enacted.
    choice: Option<usize>,
}

/// The best-effort fork and one per distinct chosen plan.
fn forks_of(record: &SubmissionRecord, enact: bool) -> Vec<Fork> {
    let mut forks = vec![Fork { submission: record.index, choice: None }];
    if let (true, Some(p)) = (enact, &record.provisioning) {
        let mut seen: Vec<usize> = Vec::new();
        for (i, c) in p.choices.iter().enumerate() {
            if !seen.contains(&c.member) {
                seen.push(c.member);
                forks.push(Fork { submission: record.index, choice: Some(i) });
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
    window: Time,
    threads: usize,
) -> anyhow::Result<Vec<Option<Time>>> {
    let run = |fork: &Fork| -> anyhow::Result<Option<Time>> {
        let record = &records[fork.submission];
        let mode = match fork.choice {
            None => Mode::BestEffort,
            Some(i) => {
                let (placements, sites) = plan_of(record, i);
                Mode::Reserved { placements, sites }
            }
        };
        let t = record.time;
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
            executor: Some(ExecutorActor::new(0, workflow.clone(), mode, t, sites.len())),
            buyer: None,
            horizon: t + window,
        };
        Ok(simulate_provisioning(scenario)?.execution.and_then(|e| e.makespan))
    };
    let threads = threads.clamp(1, forks.len().max(1));
    let chunk = forks.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            forks.chunks(chunk).map(|part| scope.spawn(move || part.iter().map(run).collect::<Vec<_>>())).collect();
        let mut out = Vec::with_capacity(forks.len());
        for h in handles {
            let part = h.join().map_err(|_| anyhow::anyhow!("a fork thread panicked"))?;
            for r in part {
                out.push(r?);
            }
        }
        Ok(out)
    })
}

fn plan_of(record: &SubmissionRecord, choice: usize) -> (Vec<TaskPlacement>, Vec<SitePlan>) {
    record
        .provisioning
        .as_ref()
        .and_then(|p| p.choices.get(choice))
        .map(|c| (c.placements.clone(), c.sites.clone()))
        .unwrap_or_default()
}

fn outcomes(
    records: &[SubmissionRecord],
    forks: &[Fork],
    results: &[Option<Time>],
    be_cost: f64,
) -> Vec<SubmissionOutcome> {
    let mut rows = Vec::new();
    for record in records {
        let mine: Vec<(&Fork, &Option<Time>)> =
            forks.iter().zip(results).filter(|(f, _)| f.submission == record.index).collect();
        let be_makespan = mine.iter().find(|(f, _)| f.choice.is_none()).and_then(|(_, r)| **r);
        let Some(p) = &record.provisioning else {
            continue;
        };
        for c in &p.choices {
            let enacted = mine
                .iter()
                .find(|(f, _)| f.choice.is_some_and(|i| p.choices[i].member == c.member))
                .and_then(|(_, r)| **r);
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
pub fn slot_statistics(spec: &SiteSpec, exact: bool, observe_every: Time, seed: u64) -> anyhow::Result<SlotStatistics> {
    if observe_every <= 0 {
        return Err(InvalidSetting::new("observe_every", observe_every, "must be positive").into());
    }
    let site = prepare_site(spec, exact, seed)?;
    let first = site.jobs.first().map_or(0, |j| j.occurrence);
    let last = site.jobs.last().map_or(0, |j| j.occurrence);
    let instants: Vec<Time> = (0..).map(|k| first + k * observe_every).take_while(|&t| t <= last).collect();
    let observer = ProvisionerActor::new(0, 1, instants, false, None);
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
#[derive(Debug, Clone, PartialEq)]
pub struct PricingPoint {
    /// The site.
    pub site: SiteSpec,
    /// Jobs request their actual runtimes.
    pub exact_estimates: bool,
    /// The window: the first `days` days of the trace.
    pub days: f64,
    /// Percentage of the jobs that buy reservations (0–100).
    pub share: f64,
    /// The buyers' trade-off factor.
    pub alpha: f64,
    /// Price with EASY instead of conservative backfilling.
    pub easy: bool,
    /// Seed (which jobs buy; the load copy).
    pub seed: u64,
}

impl PricingPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if !(0.0..=100.0).contains(&self.share) {
            return Err(InvalidSetting::new("share", self.share, "must be a percentage in [0, 100]"));
        }
        probability("alpha", self.alpha)?;
        crate::setting::positive("days", self.days)?;
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
}

/// Runs one pricing point.
pub fn run_pricing(point: &PricingPoint) -> anyhow::Result<PricingOutcome> {
    point.validate()?;
    let site = prepare_site(&point.site, point.exact_estimates, point.seed)?;
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
    let scenario = ProvisionScenario {
        sites: vec![ProvisionSite { scheduler: first_scheduler(&site), jobs: queued, sample: false }],
        provisioner: None,
        executor: None,
        buyer: Some(BuyerActor::new(0, buyers, point.alpha, point.easy)),
        horizon: Time::MAX,
    };
    let sim = simulate_provisioning(scenario)?;
    let result = sim.sites.into_iter().next().context("the site produced no result")?;
    let summary = SiteSummary {
        trace: site.trace.clone(),
        capacity: site.capacity,
        jobs,
        copy_probability: site.copy_probability,
        offered: site.offered,
        achieved: result.scheduler.utilisation(),
    };
    Ok(PricingOutcome { site: summary, records: sim.purchases, be_wait: result.scheduler.mean_background_wait() })
}
