//! One battery of a GPU trace's pods on their machine, under an SLA planner
//! or under the Slurm twin, with the SLA terms applied to both.
//!
//! Contract:
//! - *Battery, logged arrivals* ([`slice()`]). The pods, in submission order
//!   (then row), are cut into `batteries` consecutive slices of equal count
//!   (the last takes the rest); battery `b` is slice `b`, its times moved so
//!   its first pod is submitted at 0, and its submissions divided by `load`
//!   (a load of 2 submits twice as fast; run times are kept).
//! - *Battery, sampled arrivals* ([`sample`]). `jobs` pods drawn with
//!   replacement from the trace (stream `workload-jobs`), submitted by a
//!   Poisson process (stream `workload-arrivals`) at `load` times the
//!   trace's mean rate (its pods over its first-to-last submission span);
//!   both streams' instance is the battery, so every strategy of a seed
//!   and battery runs the same jobs. A job's line is its pod's.
//! - *Jobs.* Each pod is a job as it asks ([`slasim_single::workload::pods`]):
//!   its deadline, fee and penalty from the SLA terms rule.
//! - *Planner.* Conservative backfilling books each job on specific nodes
//!   and cards, or rejects it ([`slasim_single::policy::on_machine`]).
//! - *Slurm.* The twin runs the same pods on the same nodes as Slurm would
//!   be given them ([`slasim_slurm::gpu::workload`]): whole CPUs (rounded
//!   up), memory, and whole GPUs, so a share of a card takes a card (Slurm
//!   22.05 gives a job whole GPUs); the pods' GPU models are not read. It
//!   never rejects a job. Under node failures, it sees the planners' (the
//!   same stream): a failed node goes `DOWN` until its repair, and its jobs
//!   are killed and requeued, or ended under `JobRequeue=0`
//!   ([`twin_outages`]). Its schedule is then judged by the same terms: a
//!   job that ends by its deadline earns its fee, one that ends after it
//!   (or never starts) pays its penalty, and one a failure ended is
//!   `failed` and pays it too.
//! - *Measures* ([`Measures`]): accepted, rejected and late jobs, fees,
//!   penalties and gain (reservations among them); reservations submitted
//!   and accepted, and jobs moved for them; mean and 95th-percentile wait of
//!   the jobs that started (not reservations: theirs is the delay they asked
//!   for); and the share of the machine's CPUs, memory and GPU
//!   thousandths the jobs held from the battery's first submission to its
//!   last (the window the load is offered in; a trace's longest pods run
//!   for months past it), as each strategy allocates them; and over the
//!   same window the mean share of the GPUs fragmented for the battery's
//!   own jobs ([`crate::fragmentation`]).

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Context, anyhow};
use rand::RngExt;
use slasim_core::rng;
use slasim_core::units::Time;
use slasim_data::trace::gpu::GpuJobs;
use slasim_data::trace::sacct::jobs::{Origin, Relations, SlurmWorkload};
use slasim_machine::{MILLI, Machine};
use slasim_single::cluster::strategy::Outcome;
use slasim_single::plan::Placement;
use slasim_single::plan::node_choice::TaskClass;
use slasim_single::policy::on_machine::{MachineStrategyInfo, Setting};
use slasim_single::workload::failures::{FailureStream, NodeEventKind};
use slasim_single::workload::job::{MachineJob, NO_DEADLINE};
use slasim_slurm::accounting::Accounting;
use slasim_slurm::bench::{Scenario, simulate};
use slasim_slurm::conf::SlurmConf;
use slasim_slurm::outage::{Change, Outages};

use crate::fragmentation::{self, Held, JobRuns, Run};

/// The indices of battery `battery` of `batteries` of jobs submitted at
/// `keys` (submission, then row), in that order (module contract).
fn cut(keys: impl Iterator<Item = (Time, u64)>, batteries: usize, battery: usize) -> Vec<usize> {
    let keys: Vec<(Time, u64)> = keys.collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    let n = order.len();
    let from = battery * n / batteries;
    let to = if battery + 1 == batteries { n } else { (battery + 1) * n / batteries };
    order.truncate(to);
    order.drain(..from.min(to));
    order
}

/// `t` of a battery whose first submission is `first`, at `load`.
fn rebased(t: Time, first: Time, load: f64) -> Time {
    ((t - first) as f64 / load).round() as Time
}

/// Battery `battery` of `batteries` of `pods` at `load` (module contract).
pub fn slice(pods: &GpuJobs, batteries: usize, battery: usize, load: f64) -> GpuJobs {
    let order = cut(pods.jobs.iter().map(|j| (j.submit, j.row)), batteries, battery);
    let first = order.first().map_or(0, |&i| pods.jobs[i].submit);
    let jobs = order
        .iter()
        .map(|&i| {
            let mut j = pods.jobs[i];
            let submit = rebased(j.submit, first, load);
            let (wait, run) = (j.start - j.submit, j.end - j.start);
            j.submit = submit;
            j.start = submit + wait;
            j.end = j.start + run;
            j
        })
        .collect();
    GpuJobs { jobs, ..pods.clone() }
}

/// [`sample`]'s battery `battery` of `jobs` pods of `pods` at `load`, from
/// `seed` (module contract); `None` when the trace has no span to take a
/// rate from (all pods submitted at one instant).
pub fn sample(pods: &GpuJobs, jobs: usize, load: f64, seed: u64, battery: u64) -> Option<GpuJobs> {
    let first = pods.jobs.iter().map(|j| j.submit).min()?;
    let last = pods.jobs.iter().map(|j| j.submit).max()?;
    if last <= first {
        return None;
    }
    let gap = (last - first) as f64 / pods.jobs.len() as f64 / load;
    let mut pick = rng::stream(seed, rng::WORKLOAD_JOBS, battery);
    let mut arrive = rng::stream(seed, rng::WORKLOAD_ARRIVALS, battery);
    let mut at = 0.0f64;
    let drawn = (0..jobs)
        .map(|k| {
            let mut j = pods.jobs[pick.random_range(0..pods.jobs.len())];
            if k > 0 {
                at += -gap * (1.0 - arrive.random::<f64>()).ln();
            }
            let (wait, run) = (j.start - j.submit, j.end - j.start);
            j.row = k as u64 + 1;
            j.submit = at.round() as i64;
            j.start = j.submit + wait;
            j.end = j.start + run;
            j
        })
        .collect();
    Some(GpuJobs { jobs: drawn, ..pods.clone() })
}

/// Battery `battery` of `batteries` of a sacct dump's `workload` at `load`
/// (module contract).
pub fn slice_workload(workload: &SlurmWorkload, batteries: usize, battery: usize, load: f64) -> SlurmWorkload {
    let order = cut(workload.jobs.iter().map(|j| (j.submit, j.id)), batteries, battery);
    let first = order.first().map_or(0, |&i| workload.jobs[i].submit);
    // The slice's jobs and the names they index; not the dump's other jobs.
    let sliced = SlurmWorkload {
        jobs: order.iter().map(|&i| workload.jobs[i].clone()).collect(),
        users: workload.users.clone(),
        accounts: workload.accounts.clone(),
        partitions: workload.partitions.clone(),
        qos: workload.qos.clone(),
        names: workload.names.clone(),
        epoch: workload.epoch,
        clock_origin: workload.clock_origin,
    };
    alone(sliced, first, load)
}

/// `workload` rebased to `first` at `load`, each job alone: no dependency,
/// array, advance reservation or logged run (module contract).
pub fn alone(mut workload: SlurmWorkload, first: Time, load: f64) -> SlurmWorkload {
    for j in &mut workload.jobs {
        let submit = rebased(j.submit, first, load);
        j.submitted = rebased(j.submitted, first, load).clamp(0, submit);
        j.submit = submit;
        j.relations = Relations::default();
        j.reservation = None;
        j.logged = None;
    }
    workload.epoch = None;
    workload.clock_origin = None;
    workload
}

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub struct JobResult {
    /// Its number in the battery, from 0.
    pub job: i64,
    /// Its line in the trace (none: a synthetic job).
    pub line: Option<i64>,
    /// Its submission in the battery.
    pub submit: Time,
    /// Its start, if it started.
    pub start: Option<Time>,
    /// Its end, if it ran.
    pub end: Option<Time>,
    /// Its first node's name, if it started.
    pub node: Option<String>,
    /// `success`, `late` (ended after its deadline), `failed` (node
    /// failures kept it from ending), `killed` (an overbooked job still
    /// running at the end of its allotment) or `rejected`.
    pub outcome: &'static str,
    /// Its overbooked window's length, when its run ended in one.
    pub allotment: Option<Time>,
    /// Why it was rejected.
    pub reason: Option<String>,
    /// Its deadline, if it has one.
    pub deadline: Option<Time>,
    /// The fee earned (positive) or the penalty paid (negative).
    pub money: f64,
    /// Thousandths of a CPU, MiB and GPU thousandths it held on each node,
    /// and its nodes.
    pub held: (u64, u64, u64, u32),
    /// The class of what it asked, for the battery's GPU fragmentation.
    pub class: TaskClass,
    /// Its runs, stopped ones first.
    pub runs: Vec<Run>,
    /// Its runs stopped before their end: by a node failure, or under the
    /// twin also by preemption.
    pub stopped: u32,
    /// A fixed reservation (paper B), a copy of the job on its line.
    pub reservation: bool,
    /// Times it was moved later for a reservation.
    pub moves: u32,
    /// Pinned by the starvation guard of moved jobs.
    pub pinned: bool,
}

/// A battery's measures (module contract).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Measures {
    /// Jobs.
    pub jobs: i64,
    /// Jobs accepted (the twin rejects none).
    pub accepted: i64,
    /// Jobs rejected.
    pub rejected: i64,
    /// Jobs that ended after their deadline.
    pub late: i64,
    /// Accepted jobs node failures kept from ending.
    pub failed: i64,
    /// Jobs whose run ended in an overbooked window.
    pub overbooked: i64,
    /// Overbooked jobs killed at the end of their allotment.
    pub killed: i64,
    /// Fees earned.
    pub fees: f64,
    /// Penalties paid.
    pub penalties: f64,
    /// Fees minus penalties.
    pub gain: f64,
    /// Mean wait of the jobs that started, seconds.
    pub wait_mean: Option<f64>,
    /// 95th-percentile wait (nearest rank), seconds.
    pub wait_p95: Option<f64>,
    /// Share of the machine's CPUs held over the span.
    pub cpu_use: f64,
    /// Share of its memory.
    pub mem_use: f64,
    /// Share of its GPU thousandths.
    pub gpu_use: f64,
    /// Mean share of its GPU thousandths fragmented for the battery's jobs
    /// ([`crate::fragmentation`]; none without GPUs).
    pub gpu_frag: Option<f64>,
    /// Reservations among the jobs.
    pub reservations: i64,
    /// Of those, accepted.
    pub reservations_accepted: i64,
    /// Jobs moved later for a reservation at least once.
    pub moved: i64,
}

fn deadline(d: Time) -> Option<Time> {
    (d < NO_DEADLINE).then_some(d)
}

/// The battery of `jobs` (from `lines` of their trace) under `strategy`
/// with `choice`, under `failures`.
pub fn planned(
    strategy: &MachineStrategyInfo,
    machine: &Arc<Machine>,
    jobs: &[MachineJob],
    lines: &[Option<i64>],
    setting: &Setting<'_>,
) -> anyhow::Result<Vec<JobResult>> {
    let decisions = (strategy.run)(Arc::clone(machine), jobs, setting)?;
    Ok(decisions
        .iter()
        .zip(jobs)
        .zip(lines)
        .map(|((d, j), &line)| {
            // The run that ended, else the last a failure stopped.
            let p = if d.end.is_some() { d.placement.as_ref() } else { d.stopped.last().map(|(p, _)| p) };
            let r = &j.request;
            let late = d.end.is_some_and(|end| end > j.job.deadline);
            let run = |p: &Placement, end: Time| Run {
                start: p.start,
                end,
                on: p.nodes.iter().map(|&(n, cards)| (n, Held::Cards(cards))).collect(),
            };
            let mut runs: Vec<Run> = d.stopped.iter().map(|(p, stop)| run(p, *stop)).collect();
            if let (Some(p), Some(end)) = (&d.placement, d.end) {
                runs.push(run(p, end));
            }
            JobResult {
                job: i64::from(j.job.id),
                line,
                submit: j.job.occurrence,
                start: p.map(|p| p.start),
                end: d.end.or(d.stopped.last().map(|&(_, stop)| stop)),
                node: p.and_then(|p| p.nodes.first()).map(|&(n, _)| machine.names[n as usize].clone()),
                outcome: match d.outcome {
                    Outcome::Success => "success",
                    Outcome::Failed if late => "late",
                    // A run that ended and failed: killed at the end of its allotment.
                    Outcome::Failed if d.end.is_some() => "killed",
                    Outcome::Failed => "failed",
                    Outcome::Rejected => "rejected",
                },
                allotment: d.allotment,
                reason: d.reason.map(|r| match &d.unfit {
                    Some(unfit) => format!("{}: {unfit}", r.as_str()),
                    None => r.as_str().to_string(),
                }),
                deadline: deadline(j.job.deadline),
                money: d.money,
                held: (u64::from(r.cpu_milli), r.mem_mib, r.gpus.milli(), r.nodes),
                class: TaskClass::of(r),
                runs,
                stopped: d.stopped.len() as u32,
                reservation: j.job.reservation,
                moves: d.moves,
                pinned: d.pinned,
            }
        })
        .collect())
}

/// The lines of `workload`'s jobs in their dump (none for synthetic jobs).
pub fn lines(workload: &SlurmWorkload) -> Vec<Option<i64>> {
    workload
        .jobs
        .iter()
        .map(|j| match j.origin {
            Origin::Dump { line, .. } => Some(line as i64),
            Origin::Synthetic { .. } => None,
        })
        .collect()
}

/// The node failures `failures` draws for the planners' `machine`, as the
/// twin's node events on `conf`: each failure takes its node down (its
/// running jobs killed), each repair gives it back.
pub fn twin_outages(failures: &FailureStream, machine: &Machine, conf: &SlurmConf) -> anyhow::Result<Option<Outages>> {
    if failures.events.is_empty() {
        return Ok(None);
    }
    let index: HashMap<&str, u32> = conf.nodes.iter().enumerate().map(|(i, n)| (n.name.as_str(), i as u32)).collect();
    let changes = failures
        .events
        .iter()
        .map(|e| {
            let name = &machine.names[e.node as usize];
            let node = *index
                .get(name.as_str())
                .ok_or_else(|| anyhow!("node `{name}` of the machine is not one of the twin's slurm.conf"))?;
            let down = e.kind == NodeEventKind::Fail;
            Ok(Change { at: e.time, node, out: down, down, brief: false })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Some(Outages::of_changes(changes, failures.failures(), false)))
}

/// The battery `workload` (the twin's form of `jobs`) under the Slurm twin
/// on `conf`, with its preemption, under the node failures `failures`
/// drawn on the planners' `machine` (whose nodes are the conf's).
pub fn under_slurm(
    conf: &SlurmConf,
    workload: &SlurmWorkload,
    jobs: &[MachineJob],
    failures: &FailureStream,
    machine: &Machine,
) -> anyhow::Result<Vec<JobResult>> {
    let scenario = Scenario::new(conf, conf.priority.clone(), conf.scheduler.clone(), workload)
        .context("the Slurm twin refused a job")?
        .with_preemption(conf, &Accounting::default(), workload)
        .context("the Slurm twin's preemption")?
        .with_outages(twin_outages(failures, machine, conf)?);
    let done = simulate(scenario).context("the Slurm twin's run")?;
    // A run of job `j` as Slurm gives it: whole cards on each of its nodes.
    let whole = |j: usize, start: Time, end: Time, nodes: &[u32]| Run {
        start,
        end,
        on: nodes.iter().map(|&n| (n, Held::Whole(jobs[j].request.gpus.cards()))).collect(),
    };
    // Each job's runs that were taken off their nodes, in time order.
    let mut stopped: Vec<Vec<Run>> = vec![Vec::new(); jobs.len()];
    for s in &done.stopped {
        stopped[s.job as usize].push(whole(s.job as usize, s.start, s.end, done.nodes_of_stopped(s)));
    }
    Ok(done
        .outcomes
        .iter()
        .zip(jobs)
        .zip(lines(workload))
        .zip(stopped)
        .enumerate()
        .map(|(k, (((o, j), line), mut runs))| {
            let started = o.start >= 0;
            let late = started && o.end > j.job.deadline;
            let node = done.nodes_of(k);
            // What Slurm gives: whole CPUs and whole cards.
            let r = &j.request;
            let stopped = runs.len() as u32;
            if started && o.end >= 0 && !o.node_fail_ended {
                runs.push(whole(k, o.start, o.end, node));
            }
            // Ended by a node failure (`JobRequeue=0`): failed; never started or
            // ended after its deadline: late.
            let outcome = if o.node_fail_ended {
                "failed"
            } else if !started || late {
                "late"
            } else {
                "success"
            };
            JobResult {
                job: i64::from(j.job.id),
                line,
                submit: j.job.occurrence,
                start: started.then_some(o.start),
                end: (o.end >= 0).then_some(o.end),
                node: node.first().map(|&n| conf.nodes[n as usize].name.clone()),
                outcome,
                allotment: None,
                reason: None,
                deadline: deadline(j.job.deadline),
                money: if outcome == "success" { j.job.fee } else { -j.job.penalty },
                held: (
                    u64::from(r.cpu_milli.div_ceil(1000)) * 1000,
                    r.mem_mib,
                    u64::from(r.gpus.cards()) * u64::from(MILLI),
                    r.nodes,
                ),
                class: TaskClass::of(r),
                runs,
                stopped,
                reservation: false,
                moves: 0,
                pinned: false,
            }
        })
        .collect())
}

/// The measures of `results` on `machine` (module contract).
pub fn measure(machine: &Machine, results: &[JobResult]) -> Measures {
    let mut m = Measures { jobs: results.len() as i64, ..Measures::default() };
    let mut waits: Vec<Time> = Vec::with_capacity(results.len());
    let (mut cpu, mut mem, mut gpu) = (0f64, 0f64, 0f64);
    let window = results.iter().map(|r| r.submit).max().unwrap_or(0);
    for r in results {
        match r.outcome {
            "rejected" => m.rejected += 1,
            "late" => m.late += 1,
            "failed" => m.failed += 1,
            "killed" => m.killed += 1,
            _ => {}
        }
        if r.allotment.is_some() {
            m.overbooked += 1;
        }
        if r.money >= 0.0 {
            m.fees += r.money;
        } else {
            m.penalties -= r.money;
        }
        if r.outcome != "rejected" {
            m.accepted += 1;
        }
        if r.reservation {
            m.reservations += 1;
            m.reservations_accepted += i64::from(r.outcome != "rejected");
        }
        m.moved += i64::from(r.moves > 0);
        if let (Some(start), Some(end)) = (r.start, r.end) {
            // A reservation's wait is the delay it asked for.
            if !r.reservation {
                waits.push(start - r.submit);
            }
            let held = (end.min(window) - start.min(window)) as f64 * f64::from(r.held.3);
            cpu += r.held.0 as f64 * held;
            mem += r.held.1 as f64 * held;
            gpu += r.held.2 as f64 * held;
        }
    }
    m.gain = m.fees - m.penalties;
    if !waits.is_empty() {
        m.wait_mean = Some(waits.iter().sum::<Time>() as f64 / waits.len() as f64);
        waits.sort_unstable();
        m.wait_p95 = slasim_core::metrics::nearest_rank(&waits, 0.95).map(|w| w as f64);
    }
    let total = machine.total();
    let span = window.max(1) as f64;
    let share = |held: f64, capacity: f64| if capacity > 0.0 { held / (capacity * span) } else { 0.0 };
    m.cpu_use = share(cpu, f64::from(total.cpus) * 1000.0);
    m.mem_use = if total.mem_mib == u64::MAX { 0.0 } else { share(mem, total.mem_mib as f64) };
    m.gpu_use = share(gpu, f64::from(total.gpus) * f64::from(MILLI));
    let runs: Vec<JobRuns<'_>> =
        results.iter().map(|r| JobRuns { class: r.class, cpu_milli: r.held.0, runs: &r.runs }).collect();
    m.gpu_frag = fragmentation::mean_share(machine, &runs, window);
    m
}
