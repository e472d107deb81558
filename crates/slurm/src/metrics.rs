//! What a Slurm point's run gives the store and the command line, worked
//! out on the worker that ran it: its aggregates (`slurm_points`), its
//! groups (`slurm_groups`: per partition, account, user and QOS) and its
//! reasons (`slurm_reasons`). The writer only binds them, with each job's
//! row (`slurm_jobs`) bound from the run's outcomes as it goes.
//!
//! Contract:
//! - Only jobs that started count in the aggregates and groups: a job's
//!   wait is from its submit time to its start (the 95th percentile by
//!   nearest rank), its usage its CPUs and GPUs
//!   (as its partition's `DefMemPerCPU`/`MaxMemPerCPU` leave its request)
//!   times its run; the makespan is from the first submission to the last
//!   end of those jobs; utilisation is busy seconds over the machine's CPUs
//!   (GPUs) times the makespan.
//! - A job of several partitions that started counts in the partition it
//!   started in ([`crate::multipart`]); otherwise in its own.
//! - Groups are in (grouping, name) order; reasons in `Reason::ALL` then
//!   `Wait::ALL` order, only those some job last waited for or some test
//!   failed on.
//! - Nothing is rebuilt: the machine is the inputs' ([`SlurmInputs`]).

use std::collections::BTreeMap;

use crate::accounting::Reason;
use crate::bench::SlurmInputs;
use crate::controller::{Counters, Outcome};
use crate::dependency::Wait;
use crate::machine::{Machine, Need};
use crate::tables::Aggregates;
use slasim_core::metrics;
use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload, Tres};
use slasim_sim::units::Time;

/// What one Slurm run produced.
#[derive(Debug, Clone)]
pub struct SlurmRun {
    /// Per job, in workload order.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: Counters,
    /// Per job: the reason it last waited for, or was rejected for (empty
    /// when no job had one).
    pub reasons: Vec<Option<Reason>>,
    /// Per job: the dependency or array reason it last waited for (empty
    /// when no job had one).
    pub waits: Vec<Option<Wait>>,
}

/// A run's results, ready for the store.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmResults {
    /// The aggregates.
    pub aggregates: Aggregates,
    /// Per partition, account, user and QOS, in (grouping, name) order.
    pub groups: Vec<GroupResult>,
    /// Per reason jobs waited for (only those that occurred).
    pub reasons: Vec<ReasonResult>,
}

/// The jobs of a partition, account, user or QOS that started.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupResult {
    /// `partition`, `account`, `user` or `qos`.
    pub grouping: &'static str,
    /// Its name.
    pub name: String,
    /// Jobs that started.
    pub jobs: i64,
    /// Their mean wait, s.
    pub mean_wait: f64,
    /// Their largest wait, s.
    pub max_wait: i64,
    /// Their 95th-percentile wait (nearest rank), s.
    pub p95_wait: i64,
    /// CPU-seconds they used.
    pub cpu_seconds: f64,
    /// GPU-seconds they used.
    pub gpu_seconds: f64,
}

/// A reason jobs waited for, or were rejected for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReasonResult {
    /// Slurm's name of it.
    pub reason: &'static str,
    /// Jobs whose last reason it was.
    pub jobs: i64,
    /// The scheduler tests it failed (and the submissions it refused).
    pub tests: i64,
}

/// Waits and usage of a group of jobs, as they add up.
#[derive(Debug, Default, Clone)]
struct Group {
    jobs: i64,
    wait_sum: f64,
    waits: Vec<i64>,
    cpu_seconds: f64,
    gpu_seconds: f64,
}

impl SlurmResults {
    /// The results of `run` on `inputs`.
    pub fn of(inputs: &SlurmInputs, run: &SlurmRun) -> SlurmResults {
        SlurmResults { aggregates: aggregates(inputs, run), groups: groups(inputs, run), reasons: reasons(run) }
    }
}

/// The aggregates of `run` on `inputs`.
pub fn aggregates(inputs: &SlurmInputs, run: &SlurmRun) -> Aggregates {
    let machine = &inputs.admission.machine;
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
        let need = Need::of(&request_of(machine, &inputs.workload, job, o), machine.consumable).total();
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
        p95_wait: metrics::nearest_rank(&sorted, 0.95),
        mean_bounded_slowdown: (n > 0).then(|| bsld / n as f64),
        makespan,
        cpu_utilisation: per(cpu, u64::from(total.cpus)),
        gpu_utilisation: per(gpu, u64::from(total.gpus)),
        backfilled,
    }
}

/// Per partition, account, user and QOS, in name order: the jobs that
/// started, their waits and usage.
fn groups(inputs: &SlurmInputs, run: &SlurmRun) -> Vec<GroupResult> {
    let (machine, w) = (&inputs.admission.machine, &inputs.workload);
    let mut groups: BTreeMap<(&'static str, &str), Group> = BTreeMap::new();
    for (job, o) in w.jobs.iter().zip(&run.outcomes) {
        if o.start < 0 {
            continue;
        }
        let wait = metrics::wait(job.submit, o.start);
        let ran = (o.end - o.start) as f64;
        let need = Need::of(&request_of(machine, w, job, o), machine.consumable).total();
        for key in [
            ("partition", ran_in(machine, w, job, o)),
            ("account", name(&w.accounts, job.account)),
            ("user", name(&w.users, job.user)),
            ("qos", name(&w.qos, job.qos)),
        ] {
            let g = groups.entry(key).or_default();
            g.jobs += 1;
            g.wait_sum += wait as f64;
            g.waits.push(wait);
            g.cpu_seconds += f64::from(need.cpus) * ran;
            g.gpu_seconds += f64::from(need.gpus) * ran;
        }
    }
    groups
        .into_iter()
        .map(|((grouping, name), mut g)| {
            g.waits.sort_unstable();
            GroupResult {
                grouping,
                name: name.to_string(),
                jobs: g.jobs,
                mean_wait: g.wait_sum / g.jobs.max(1) as f64,
                max_wait: g.waits.last().copied().unwrap_or(0),
                p95_wait: metrics::nearest_rank(&g.waits, 0.95).unwrap_or(0),
                cpu_seconds: g.cpu_seconds,
                gpu_seconds: g.gpu_seconds,
            }
        })
        .collect()
}

/// Per reason: the jobs whose last reason it was, and the tests it failed.
fn reasons(run: &SlurmRun) -> Vec<ReasonResult> {
    let mut last = [0i64; Reason::ALL.len()];
    for r in run.reasons.iter().flatten() {
        last[*r as usize] += 1;
    }
    let mut waited = [0i64; Wait::ALL.len()];
    for w in run.waits.iter().flatten() {
        waited[*w as usize] += 1;
    }
    let limits = Reason::ALL.iter().map(|&r| (r.name(), last[r as usize], run.counters.limited[r as usize] as i64));
    let waits = Wait::ALL.iter().map(|&w| (w.name(), waited[w as usize], run.counters.waited[w as usize] as i64));
    limits
        .chain(waits)
        .filter(|&(_, jobs, tests)| jobs > 0 || tests > 0)
        .map(|(reason, jobs, tests)| ReasonResult { reason, jobs, tests })
        .collect()
}

/// The name of index `i` in `names` ("" if none).
pub fn name(names: &[String], i: u32) -> &str {
    names.get(i as usize).map_or("", String::as_str)
}

/// `job`'s request as its partition's `DefMemPerCPU`/`MaxMemPerCPU` leave it.
fn request_of(machine: &Machine, w: &SlurmWorkload, job: &SlurmJob, o: &Outcome) -> Tres {
    let name = ran_in(machine, w, job, o);
    machine.partition(name).map_or(job.request, |p| machine.request_of(p, job))
}

/// The partition `job` ran in: its own, or for a job of several
/// partitions that started, the one it started in ([`crate::multipart`]).
pub fn ran_in<'a>(machine: &'a Machine, w: &'a SlurmWorkload, job: &SlurmJob, o: &Outcome) -> &'a str {
    match machine.partitions.get(o.partition as usize) {
        Some(p) if job.partitions.len() > 1 && o.start >= 0 => &p.name,
        _ => w.partitions.get(job.partition as usize).map_or("", String::as_str),
    }
}
