//! A synthetic Slurm workload for a machine of CPU and GPU partitions.
//!
//! Contract: [`generate`] draws, from the seed alone, `days` of Poisson
//! arrivals per partition at the rate that offers the partition `load` of
//! its CPUs (or its GPUs, for a GPU partition), with users spread over
//! accounts. Jobs ask for whole nodes when they take several; a one-node
//! job asks for a power of two of CPUs (a GPU job: 1, 2 or all GPUs of a
//! node, with CPUs and memory in proportion). Time limits are drawn from the
//! usual sbatch values up to the partition's `MaxTime`; the run time is a
//! fraction of the limit (users overestimate: the fraction is `u^1.5`).
//! The same settings and seed give the same jobs.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use slasim_core::rng::{LOAD_COPY, WORKLOAD_ARRIVALS, WORKLOAD_JOBS, stream};
use slasim_data::trace::sacct::jobs::{Origin, SlurmJob, SlurmWorkload, Tres};
use slasim_sim::units::{DAY, Time};

/// What a partition offers the generator.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionShape {
    /// Its name.
    pub name: String,
    /// Its nodes.
    pub nodes: u32,
    /// CPUs of its smallest node.
    pub cpus_per_node: u32,
    /// MiB of its smallest node.
    pub mem_per_node: u64,
    /// GPUs of its smallest node (0: a CPU partition).
    pub gpus_per_node: u32,
    /// `MaxTime` in seconds, if limited.
    pub max_time: Option<Time>,
}

/// The generator's settings (`[slurm.synthetic]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlurmSynthetic {
    /// Days of submissions.
    pub days: f64,
    /// Offered load per partition (1.0 = its capacity).
    pub load: f64,
    /// Users.
    pub users: u32,
    /// Accounts (users are dealt to them in turn).
    pub accounts: u32,
}

impl Default for SlurmSynthetic {
    fn default() -> Self {
        SlurmSynthetic { days: 30.0, load: 0.9, users: 60, accounts: 8 }
    }
}

/// sbatch time limits users pick, in minutes.
const LIMITS: [Time; 8] = [30, 60, 120, 240, 480, 720, 1440, 2880];

/// The workload `settings` describe on `partitions`, from `seed`.
pub fn generate(settings: &SlurmSynthetic, partitions: &[PartitionShape], seed: u64) -> SlurmWorkload {
    let mut w = SlurmWorkload::default();
    let users = settings.users.max(1);
    let accounts = settings.accounts.clamp(1, users);
    for a in 0..accounts {
        w.accounts.push(format!("account{:02}", a + 1));
    }
    for u in 0..users {
        w.users.push(format!("user{:03}", u + 1));
    }
    w.qos.push("normal".into());
    let horizon = (settings.days.max(0.0) * DAY as f64) as Time;
    let mut jobs = Vec::new();
    for (pi, part) in partitions.iter().enumerate() {
        w.partitions.push(part.name.clone());
        if part.nodes == 0 || part.cpus_per_node == 0 {
            continue;
        }
        let mut rng = stream(seed, WORKLOAD_JOBS, pi as u64);
        let mut arrivals = stream(seed, WORKLOAD_ARRIVALS, pi as u64);
        let max_limit = part.max_time.map_or(Time::MAX, |m| m / 60);
        let limits: Vec<Time> = LIMITS.iter().copied().filter(|&l| l <= max_limit).collect();
        let limits = if limits.is_empty() { vec![max_limit.max(1)] } else { limits };
        // Draw one job's shape: (tres, limit, run time).
        let draw = |rng: &mut rand_chacha::ChaCha8Rng| -> (Tres, Time, Time) {
            let limit = limits[rng.random_range(0..limits.len())] * 60;
            let run = ((limit as f64) * rng.random::<f64>().powf(1.5)).ceil().max(60.0) as Time;
            let tres = if part.gpus_per_node > 0 {
                let gpus = match rng.random_range(0..10) {
                    0..=4 => 1,
                    5..=7 => 2.min(part.gpus_per_node),
                    _ => part.gpus_per_node,
                };
                let nodes = if rng.random_range(0..10) == 0 { 2.min(part.nodes) } else { 1 };
                let share = |total: u64| total * u64::from(gpus) / u64::from(part.gpus_per_node);
                Tres {
                    cpus: (share(u64::from(part.cpus_per_node)) as u32).max(1) * nodes,
                    mem_mib: share(part.mem_per_node) * u64::from(nodes),
                    nodes,
                    gpus: gpus * nodes,
                }
            } else {
                let wide = rng.random_range(0..100);
                let nodes = match wide {
                    0..=69 => 1,
                    70..=84 => 2,
                    85..=93 => 4,
                    94..=97 => 8,
                    _ => 16,
                }
                .min(part.nodes);
                let cpus = if nodes > 1 {
                    part.cpus_per_node * nodes
                } else {
                    let exp = rng.random_range(0..=part.cpus_per_node.max(1).ilog2());
                    1 << exp
                };
                let per_cpu = part.mem_per_node / u64::from(part.cpus_per_node);
                Tres { cpus, mem_mib: per_cpu * u64::from(cpus), nodes, gpus: 0 }
            };
            (tres, limit, run)
        };
        // The rate that offers `load` of the partition: mean demand per job, by sampling.
        let mut probe = stream(seed, LOAD_COPY, pi as u64);
        let samples = 2_000;
        let (mut demand, mut gpu_demand) = (0.0, 0.0);
        for _ in 0..samples {
            let (t, _, run) = draw(&mut probe);
            demand += f64::from(t.cpus) * run as f64;
            gpu_demand += f64::from(t.gpus) * run as f64;
        }
        let capacity = if part.gpus_per_node > 0 {
            gpu_demand /= samples as f64;
            f64::from(part.nodes * part.gpus_per_node) / gpu_demand.max(1.0)
        } else {
            demand /= samples as f64;
            f64::from(part.nodes * part.cpus_per_node) / demand.max(1.0)
        };
        let rate = settings.load.max(0.0) * capacity; // jobs per second
        if rate <= 0.0 {
            continue;
        }
        let mut t = 0.0;
        loop {
            let u: f64 = arrivals.random();
            t += -(1.0 - u).ln() / rate;
            if t >= horizon as f64 {
                break;
            }
            let (request, limit, run) = draw(&mut rng);
            let user = rng.random_range(0..users);
            jobs.push(SlurmJob {
                id: 0,
                user,
                account: user % accounts,
                partition: pi as u32,
                partitions: Vec::new(),
                qos: 0,
                submit: t as Time,
                submitted: t as Time,
                time_limit: Some(limit),
                run_time: run.min(limit),
                request,
                logged: None,
                origin: Origin::Synthetic { index: 0 },
                constraints: None,
                reservation: None,
                relations: Default::default(),
            });
        }
    }
    jobs.sort_by_key(|j| (j.submit, j.partition));
    for (i, j) in jobs.iter_mut().enumerate() {
        j.id = i as u64 + 1;
        j.origin = Origin::Synthetic { index: i as u64 + 1 };
    }
    w.jobs = jobs;
    w
}
