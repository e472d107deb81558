//! One battery of a GPU trace's pods on their machine, under an SLA planner
//! or under the Slurm twin, with the SLA terms applied to both.
//!
//! Contract:
//! - *Battery, logged arrivals* ([`slice`]). The pods, in submission order
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
//!   never rejects a job. Its schedule is then judged by the same terms: a
//!   job that ends by its deadline earns its fee, one that ends after it
//!   pays its penalty.
//! - *Measures* ([`Measures`]): accepted, rejected and late jobs, fees,
//!   penalties and gain; mean and 95th-percentile wait of the jobs that
//!   started; and the share of the machine's CPUs, memory and GPU
//!   thousandths the jobs held from the battery's first submission to its
//!   last (the window the load is offered in; a trace's longest pods run
//!   for months past it), as each strategy allocates them.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use rand::RngExt;
use slasim_core::rng;
use slasim_core::units::Time;
use slasim_data::trace::gpu::GpuJobs;
use slasim_machine::{MILLI, Machine};
use slasim_single::cluster::strategy::Outcome;
use slasim_single::plan::node_choice::NodeChoice;
use slasim_single::policy::on_machine::MachineStrategyInfo;
use slasim_single::workload::failures::FailureStream;
use slasim_single::workload::job::{MachineJob, NO_DEADLINE};
use slasim_slurm::bench::{Scenario, simulate};
use slasim_slurm::conf::SlurmConf;

/// Battery `battery` of `batteries` of `pods` at `load` (module contract).
pub fn slice(pods: &GpuJobs, batteries: usize, battery: usize, load: f64) -> GpuJobs {
    let mut order: Vec<usize> = (0..pods.jobs.len()).collect();
    order.sort_by_key(|&i| (pods.jobs[i].submit, pods.jobs[i].row));
    let n = order.len();
    let from = battery * n / batteries;
    let to = if battery + 1 == batteries { n } else { (battery + 1) * n / batteries };
    let first = order.get(from).map_or(0, |&i| pods.jobs[i].submit);
    let jobs = order[from..to]
        .iter()
        .map(|&i| {
            let mut j = pods.jobs[i];
            let submit = ((j.submit - first) as f64 / load).round() as i64;
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

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub struct JobResult {
    /// Its number in the battery, from 0.
    pub job: i64,
    /// Its pod's line in the trace.
    pub line: i64,
    /// Its submission in the battery.
    pub submit: Time,
    /// Its start, if it started.
    pub start: Option<Time>,
    /// Its end, if it ran.
    pub end: Option<Time>,
    /// Its first node's name, if it started.
    pub node: Option<String>,
    /// `success`, `late` (ended after its deadline), `failed` (node
    /// failures kept it from ending) or `rejected`.
    pub outcome: &'static str,
    /// Why it was rejected.
    pub reason: Option<String>,
    /// Its deadline, if it has one.
    pub deadline: Option<Time>,
    /// The fee earned (positive) or the penalty paid (negative).
    pub money: f64,
    /// Thousandths of a CPU, MiB and GPU thousandths it held on each node,
    /// and its nodes.
    pub held: (u64, u64, u64, u32),
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
}

fn deadline(d: Time) -> Option<Time> {
    (d < NO_DEADLINE).then_some(d)
}

/// The battery under `strategy` with `choice`, under `failures`.
pub fn planned(
    strategy: &MachineStrategyInfo,
    machine: &Arc<Machine>,
    slice: &GpuJobs,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
) -> anyhow::Result<Vec<JobResult>> {
    let decisions = (strategy.run)(Arc::clone(machine), jobs, choice, failures)?;
    Ok(decisions
        .iter()
        .zip(jobs)
        .zip(&slice.jobs)
        .map(|((d, j), pod)| {
            // The run that ended, else the last a failure stopped.
            let p = if d.end.is_some() { d.placement.as_ref() } else { d.stopped.last().map(|(p, _)| p) };
            let r = &j.request;
            let late = d.end.is_some_and(|end| end > j.job.deadline);
            JobResult {
                job: i64::from(j.job.id),
                line: pod.line as i64,
                submit: j.job.occurrence,
                start: p.map(|p| p.start),
                end: d.end.or(d.stopped.last().map(|&(_, stop)| stop)),
                node: p.and_then(|p| p.nodes.first()).map(|&(n, _)| machine.names[n as usize].clone()),
                outcome: match d.outcome {
                    Outcome::Success => "success",
                    Outcome::Failed if late => "late",
                    Outcome::Failed => "failed",
                    Outcome::Rejected => "rejected",
                },
                reason: d.reason.map(|r| match &d.unfit {
                    Some(unfit) => format!("{}: {unfit}", r.as_str()),
                    None => r.as_str().to_string(),
                }),
                deadline: deadline(j.job.deadline),
                money: d.money,
                held: (u64::from(r.cpu_milli), r.mem_mib, r.gpus.milli(), r.nodes),
            }
        })
        .collect())
}

/// The battery under the Slurm twin on `conf` (the machine's nodes).
pub fn under_slurm(
    path: &Path,
    slice: &GpuJobs,
    conf: &SlurmConf,
    jobs: &[MachineJob],
) -> anyhow::Result<Vec<JobResult>> {
    let workload = slasim_slurm::gpu::workload(path, slice);
    let scenario = Scenario::new(conf, conf.priority.clone(), conf.scheduler.clone(), &workload)
        .context("the Slurm twin refused a pod")?;
    let done = simulate(scenario).context("the Slurm twin's run")?;
    Ok(done
        .outcomes
        .iter()
        .zip(jobs)
        .zip(&workload.jobs)
        .zip(&slice.jobs)
        .enumerate()
        .map(|(k, (((o, j), s), pod))| {
            let started = o.start >= 0;
            let late = started && o.end > j.job.deadline;
            let node = done.nodes_of(k);
            JobResult {
                job: i64::from(j.job.id),
                line: pod.line as i64,
                submit: j.job.occurrence,
                start: started.then_some(o.start),
                end: (o.end >= 0).then_some(o.end),
                node: node.first().map(|&n| conf.nodes[n as usize].name.clone()),
                outcome: if !started || late { "late" } else { "success" },
                reason: None,
                deadline: deadline(j.job.deadline),
                money: if !started || late { -j.job.penalty } else { j.job.fee },
                held: (
                    u64::from(s.request.cpus) * 1000,
                    s.request.mem_mib,
                    u64::from(s.request.gpus) * u64::from(MILLI),
                    s.request.nodes.max(1),
                ),
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
            _ => {}
        }
        if r.money >= 0.0 {
            m.fees += r.money;
        } else {
            m.penalties -= r.money;
        }
        if r.outcome != "rejected" {
            m.accepted += 1;
        }
        if let (Some(start), Some(end)) = (r.start, r.end) {
            waits.push(start - r.submit);
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
        let rank = (0.95 * waits.len() as f64).ceil() as usize;
        m.wait_p95 = Some(waits[rank.clamp(1, waits.len()) - 1] as f64);
    }
    let total = machine.total();
    let span = window.max(1) as f64;
    let share = |held: f64, capacity: f64| if capacity > 0.0 { held / (capacity * span) } else { 0.0 };
    m.cpu_use = share(cpu, f64::from(total.cpus) * 1000.0);
    m.mem_use = if total.mem_mib == u64::MAX { 0.0 } else { share(mem, total.mem_mib as f64) };
    m.gpu_use = share(gpu, f64::from(total.gpus) * f64::from(MILLI));
    m
}
