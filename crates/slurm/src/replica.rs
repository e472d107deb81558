//! Replicas of a replay: the workload with its run times and submissions
//! perturbed as the workload itself says they vary, so that a what-if can
//! tell a real difference between two settings from the luck of one replay.
//!
//! Method: a bootstrap of the workload's own variation (Efron and
//! Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 6: resampling
//! a sample, here the run times of each group of like jobs), paired across settings by common random numbers (Law,
//! *Simulation Modeling and Analysis*, 5th ed., §11.2; the paired-t
//! interval the report gives is §10.2.1, [`crate::what_if`]).
//!
//! Contract:
//! - [`Noise::of`] learns from the workload (after its runs are aligned to
//!   a grid, when they are):
//!   - groups of like jobs: the jobs the workload cannot tell apart by what
//!     they asked (user, partition, time limit, CPUs, memory, nodes and
//!     GPUs), at least two, and their run times;
//!   - submission gaps: the times between consecutive submissions, in time
//!     order.
//! - [`Noise::perturb`] makes replica `r` of seed `seed` from the stream
//!   [`REPLICA_PERTURBATION`], instance `r`. Per job, in workload order,
//!   two draws, whether or not the perturbation is on (so a replica's draws
//!   do not depend on which are):
//!   - run time: a job with like jobs takes the run time of one of its
//!     group (itself included), drawn uniformly, so each group's run times
//!     keep their distribution (and their time limit);
//!   - submission: moved by `(u − ½) · g`, `g` a gap drawn uniformly and `u`
//!     uniform in [0, 1), rounded, never before time 0; its eligible time
//!     moves with it. The tasks of an array move as their array's first
//!     task in the workload does.
//! - A job without a like job keeps its run time;
//!   without gaps (one submission time) submissions do.
//! - Replica `r` of two points of one workload and seed is perturbed
//!   alike, whatever their other settings: replicas are paired.

use std::collections::{BTreeMap, HashMap};

use rand::RngExt;
use serde::{Deserialize, Serialize};

use slasim_core::experiment::locate::{ConfigError, ConfigFile};
use slasim_core::rng::{Stream, stream};
use slasim_core::setting::InvalidSetting;
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

/// The stream a replica's perturbation is drawn from, one instance per replica.
pub const REPLICA_PERTURBATION: Stream = Stream::new("replica-perturbation", 23);

/// How many replicas a config asks for by default.
pub const DEFAULT_REPLICAS: u32 = 30;

/// `[slurm.replicas]`: every point of the config's sweeps run as `count`
/// perturbed replicas (the sweep axis `replica`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Replicas {
    /// How many replicas of each point a sweep makes. Not part of a point:
    /// replica `r` is the same whatever the count, so a larger count adds
    /// replicas and keeps those already stored.
    #[serde(skip_serializing)]
    pub count: u32,
    /// Perturb run times.
    pub run_time: bool,
    /// Perturb submissions.
    pub submit: bool,
}

impl Default for Replicas {
    fn default() -> Self {
        Replicas { count: DEFAULT_REPLICAS, run_time: true, submit: true }
    }
}

impl Replicas {
    /// The count, checked: at least 1, and something perturbed (a located
    /// error at the key otherwise).
    pub fn checked(&self, file: &ConfigFile<'_>) -> Result<usize, ConfigError> {
        let start = file.loc.section("slurm.replicas");
        let key = |k: &str| file.loc.key_offset(start..file.loc.text.len(), k);
        if self.count == 0 {
            let e = InvalidSetting::new(
                "slurm.replicas.count",
                0,
                "must be at least 1 (each replica is a perturbed replay)",
            );
            return Err(file.loc.at(key("count"), e));
        }
        if !self.run_time && !self.submit {
            return Err(file.loc.at(
                key("run_time"),
                "slurm.replicas: run_time and submit are both false: every replica would be the replay itself",
            ));
        }
        Ok(self.count as usize)
    }
}

/// What makes jobs alike: user, partition, time limit, CPUs, memory, nodes, GPUs.
type Alike = (u32, u32, Option<Time>, u32, u64, u32, u32);

/// What a workload says about its own variation.
#[derive(Debug, Clone, Default)]
pub struct Noise {
    /// Per group of at least two like jobs, their run times.
    groups: Vec<Vec<Time>>,
    /// Per job of the workload, its group (none: no job is like it).
    group_of: Vec<Option<u32>>,
    /// Gaps between consecutive submissions, s.
    gaps: Vec<Time>,
}

impl Noise {
    /// The variation `workload` shows.
    pub fn of(workload: &SlurmWorkload) -> Noise {
        // In key order (a BTreeMap's), so the groups' order is fixed.
        let mut alike: BTreeMap<Alike, Vec<usize>> = BTreeMap::new();
        for (j, job) in workload.jobs.iter().enumerate() {
            let r = &job.request;
            alike
                .entry((job.user, job.partition, job.time_limit, r.cpus, r.mem_mib, r.nodes, r.gpus))
                .or_default()
                .push(j);
        }
        let mut groups = Vec::new();
        let mut group_of = vec![None; workload.jobs.len()];
        for jobs in alike.values().filter(|jobs| jobs.len() >= 2) {
            for &j in jobs {
                group_of[j] = Some(groups.len() as u32);
            }
            groups.push(jobs.iter().map(|&j| workload.jobs[j].run_time).collect());
        }
        let mut submits: Vec<Time> = workload.jobs.iter().map(|j| j.submitted).collect();
        submits.sort_unstable();
        let gaps = submits.windows(2).map(|w| w[1] - w[0]).filter(|&g| g > 0).collect();
        Noise { groups, group_of, gaps }
    }

    /// Replica `replica` of `workload` (the one the noise was learned
    /// from) under seed `seed`, perturbed as `replicas` says.
    pub fn perturb(&self, workload: &mut SlurmWorkload, replicas: &Replicas, seed: u64, replica: u32) {
        let mut rng = stream(seed, REPLICA_PERTURBATION, u64::from(replica));
        let mut arrays: HashMap<u64, Time> = HashMap::new();
        for (j, job) in workload.jobs.iter_mut().enumerate() {
            let (e, g, u): (f64, f64, f64) = (rng.random(), rng.random(), rng.random());
            if replicas.run_time
                && let Some(group) = self.group_of.get(j).copied().flatten()
            {
                let runs = &self.groups[group as usize];
                job.run_time = runs[pick(e, runs.len())];
            }
            if replicas.submit && !self.gaps.is_empty() {
                let own = ((u - 0.5) * self.gaps[pick(g, self.gaps.len())] as f64).round() as Time;
                let shift = match job.relations.array {
                    Some(a) => *arrays.entry(a.job).or_insert(own),
                    None => own,
                };
                let shift = shift.max(-job.submitted);
                job.submitted += shift;
                job.submit += shift;
            }
        }
    }

    /// The jobs with a like job, and the gaps learned (for tests and messages).
    pub fn sizes(&self) -> (usize, usize) {
        (self.groups.iter().map(Vec::len).sum(), self.gaps.len())
    }
}

/// The index a uniform draw `x` in [0, 1) picks among `n`.
fn pick(x: f64, n: usize) -> usize {
    ((x * n as f64) as usize).min(n - 1)
}
