//! Replicas of a replay: the workload with its run times and submissions
//! perturbed as the workload itself says they vary, so that a what-if can
//! tell a real difference between two settings from the luck of one replay.
//!
//! Method: a bootstrap of the workload's own variation (Efron and
//! Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 9: resampling
//! residuals), paired across settings by common random numbers (Law,
//! *Simulation Modeling and Analysis*, 5th ed., §11.2; the paired-t
//! interval the report gives is §10.2.1, [`crate::what_if`]).
//!
//! Contract:
//! - [`Noise::of`] learns from the workload (after its runs are aligned to
//!   a grid, when they are):
//!   - run-time residuals: among the jobs the workload cannot tell apart by
//!     what they asked (user, partition, time limit, CPUs, memory, nodes and
//!     GPUs), in each group of at least two jobs that ran a second or more,
//!     each one's log run time minus the group's mean log run time;
//!   - submission gaps: the times between consecutive submissions, in time
//!     order.
//! - [`Noise::perturb`] makes replica `r` of seed `seed` from the stream
//!   [`REPLICA_PERTURBATION`], instance `r`. Per job, in workload order,
//!   two draws, whether or not the perturbation is on (so a replica's draws
//!   do not depend on which are):
//!   - run time: times `exp(e)`, `e` a residual drawn uniformly, rounded,
//!     at least 1 s, at most the job's own time limit when it has one (a
//!     run of 0 s stays 0 s);
//!   - submission: moved by `(u − ½) · g`, `g` a gap drawn uniformly and `u`
//!     uniform in [0, 1), rounded, never before time 0; its eligible time
//!     moves with it. The tasks of an array move as their array's first
//!     task in the workload does.
//! - Without residuals (no two jobs alike) run times stay as logged;
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
    /// Log run-time residuals within groups of like jobs.
    residuals: Vec<f64>,
    /// Gaps between consecutive submissions, s.
    gaps: Vec<Time>,
}

impl Noise {
    /// The variation `workload` shows.
    pub fn of(workload: &SlurmWorkload) -> Noise {
        // In key order (a BTreeMap's), so the residuals' order is fixed.
        let mut groups: BTreeMap<Alike, Vec<f64>> = BTreeMap::new();
        for job in workload.jobs.iter().filter(|j| j.run_time >= 1) {
            let r = &job.request;
            let key = (job.user, job.partition, job.time_limit, r.cpus, r.mem_mib, r.nodes, r.gpus);
            groups.entry(key).or_default().push((job.run_time as f64).ln());
        }
        let mut residuals = Vec::new();
        for logs in groups.values().filter(|logs| logs.len() >= 2) {
            let mean = logs.iter().sum::<f64>() / logs.len() as f64;
            residuals.extend(logs.iter().map(|l| l - mean));
        }
        let mut submits: Vec<Time> = workload.jobs.iter().map(|j| j.submitted).collect();
        submits.sort_unstable();
        let gaps = submits.windows(2).map(|w| w[1] - w[0]).filter(|&g| g > 0).collect();
        Noise { residuals, gaps }
    }

    /// Replica `replica` of `workload` under seed `seed`, perturbed as
    /// `replicas` says.
    pub fn perturb(&self, workload: &mut SlurmWorkload, replicas: &Replicas, seed: u64, replica: u32) {
        let mut rng = stream(seed, REPLICA_PERTURBATION, u64::from(replica));
        let mut arrays: HashMap<u64, Time> = HashMap::new();
        for job in &mut workload.jobs {
            let (e, g, u): (f64, f64, f64) = (rng.random(), rng.random(), rng.random());
            if replicas.run_time && !self.residuals.is_empty() && job.run_time > 0 {
                let residual = self.residuals[pick(e, self.residuals.len())];
                let run = ((job.run_time as f64) * residual.exp()).round().max(1.0) as Time;
                job.run_time = job.time_limit.map_or(run, |limit| run.min(limit.max(1)));
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

    /// The residuals and gaps learned (for tests and messages).
    pub fn sizes(&self) -> (usize, usize) {
        (self.residuals.len(), self.gaps.len())
    }
}

/// The index a uniform draw `x` in [0, 1) picks among `n`.
fn pick(x: f64, n: usize) -> usize {
    ((x * n as f64) as usize).min(n - 1)
}
