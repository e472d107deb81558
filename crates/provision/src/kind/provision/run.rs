//! Running a provisioning point: the sites' background load, the
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
//!   outcome does not depend on the thread count.
//! - Everything is seeded: the workflow, the load copy, the MOGA stream of
//!   each submission.

use std::sync::Arc;

use crate::kind::provision::background::{PreparedSite, first_scheduler, prepare_site, submission_instants};
use anyhow::Context as _;

use crate::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use crate::executor::{Execution, ExecutorActor, Mode};
use crate::kind::provision::point::{MethodSettings, ProvisionPoint};
use crate::moga::Genome;
use crate::outcome::{SiteSummary, SubmissionOutcome};
use crate::plan::HoleCharging;
use crate::plan::{PlanEvaluator, SitePlan, TaskPlacement};
use crate::pricing::Policy;
use crate::provisioner::{MogaJob, ProvisionerActor, SubmissionRecord};
use crate::workflow::Workflow;
use slasim_core::threads::Budget;
use slasim_core::units::Time;

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
    let settings = point.method.workflow().context("method `slots` provisions no workflow")?;
    let workflow = settings.workflow.build(point.seed)?;
    let prepared: Vec<PreparedSite> = point
        .sites
        .iter()
        .enumerate()
        .map(|(i, s)| prepare_site(s, point.estimates, point.seed.wrapping_add(i as u64)))
        .collect::<anyhow::Result<_>>()?;
    let widths: Vec<u32> = prepared.iter().map(|s| s.capacity).collect();
    workflow.check_fits(&widths, &settings.workflow.name())?;
    let first = prepared.iter().filter_map(|s| s.jobs.first().map(|j| j.occurrence)).max().unwrap_or(0);
    let last = prepared.iter().filter_map(|s| s.jobs.last().map(|j| j.occurrence)).min().unwrap_or(0);
    let instants = submission_instants(first, last, settings.submissions);
    let moga = match &point.method {
        MethodSettings::Moga { moga, hole_charging, .. } => Some(MogaJob {
            workflow: workflow.clone(),
            config: moga.clone(),
            alphas: settings.alphas.clone(),
            seed: point.seed,
            charging: *hole_charging,
            budget: Arc::clone(budget),
        }),
        _ => None,
    };
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
    let forks: Vec<Fork> = main.submissions.iter().flat_map(|r| forks_of(r, &point.method)).collect();
    let results = run_forks(&forks, &main.submissions, &prepared, &workflow, &point.method, budget, reserved)?;
    let be_cost = workflow.best_effort_cost() as f64;
    let rows = match point.method {
        MethodSettings::Moga { .. } => outcomes(&main.submissions, &forks, &results, be_cost),
        MethodSettings::Greedy { .. } => {
            greedy_outcomes(&main.submissions, &forks, &results, &settings.alphas, be_cost)
        }
        MethodSettings::Slots => Vec::new(),
    };
    let mean_procs = workflow.tasks().iter().map(|t| f64::from(t.procs)).sum::<f64>() / workflow.tasks().len() as f64;
    let runs = match (reserved, &point.method) {
        (false, _) | (_, MethodSettings::Slots) => Vec::new(),
        (true, MethodSettings::Moga { hole_charging, .. }) => {
            moga_reserved(&main.submissions, &workflow, *hole_charging)?
        }
        (true, MethodSettings::Greedy { .. }) => {
            greedy_reserved(&main.submissions, &forks, &results, &workflow, &settings.alphas)
        }
    };
    Ok((PointOutcome { sites, rows, tasks: workflow.tasks().len(), mean_procs }, runs))
}

/// Every chosen MOGA plan: its selected slots, and its placements evaluated
/// again with what each task took from them.
fn moga_reserved(
    records: &[SubmissionRecord],
    workflow: &Workflow,
    hole_charging: HoleCharging,
) -> anyhow::Result<Vec<ReservedRun>> {
    let mut runs = Vec::new();
    for record in records {
        let Some(p) = &record.provisioning else { continue };
        let mut evaluator = PlanEvaluator::new(workflow, record.time, &record.slots).with_charging(hole_charging);
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
fn forks_of(record: &SubmissionRecord, method: &MethodSettings) -> Vec<Fork> {
    let submission = record.index;
    let mut forks = vec![Fork { submission, kind: ForkKind::BestEffort }];
    match method {
        MethodSettings::Greedy { workflow, .. } => {
            forks.extend((0..workflow.alphas.len()).map(|alpha| Fork { submission, kind: ForkKind::Greedy { alpha } }));
        }
        MethodSettings::Slots => {}
        MethodSettings::Moga { enact, .. } => {
            if let (true, Some(p)) = (*enact, &record.provisioning) {
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
    method: &MethodSettings,
    budget: &Budget,
    placements: bool,
) -> anyhow::Result<Vec<Option<Execution>>> {
    let settings = method.workflow().context("method `slots` forks no run")?;
    let easy = matches!(method, MethodSettings::Greedy { pricing_policy: Policy::Easy, .. });
    let run = |fork: &Fork| -> anyhow::Result<Option<Execution>> {
        let record = &records[fork.submission];
        let mode = match fork.kind {
            ForkKind::BestEffort => Mode::BestEffort,
            ForkKind::Plan(i) => {
                let (placements, sites) = plan_of(record, i);
                Mode::Reserved { placements, sites }
            }
            ForkKind::Greedy { alpha } => {
                Mode::Greedy { alpha: settings.alphas.get(alpha).copied().unwrap_or(0.0), easy }
            }
        };
        let t = record.time;
        let window = settings.fork_window;
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
