//! Paper B's synthetic advance reservations, built from a battery's jobs.
//!
//! Reference: `seed-000-001-spec.md`, paper B, "Workload": pick variable jobs
//! at random, a percentage of all of them (at 100 % every job is copied once);
//! copy submission time, nodes, estimated and actual runtime; requested start
//! = submission + U\[0,1\] · estimate · start factor. Each configuration is
//! repeated with different random reservations (the point's seed).
//!
//! Contract: [`ReservationConfig::generate`] is a pure function of the jobs,
//! the settings, the seed and the battery index (its own random stream). The
//! reservations get the ids after the battery's jobs, `release` = requested
//! start, `deadline` = start + estimate, and the copied job's fee and penalty.
//! How a cluster treats a reservation that collides with planned jobs
//! ([`ReservationOption`]) and the starvation guard of moved jobs are settings
//! here too, read by the strategies.

use std::fmt;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::streams::RESERVATIONS;
use crate::workload::job::Job;
use slasim_core::rng::stream;
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;

/// Paper B's two options for a reservation that collides with planned jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ReservationOption {
    /// Accept only if the nodes are free of running jobs, reservations and
    /// planned variable jobs.
    #[default]
    Reject,
    /// Also accept when only planned (not running) variable jobs collide;
    /// they are re-planned later.
    Move,
}

impl ReservationOption {
    /// Its name in configs and the store.
    pub fn name(self) -> &'static str {
        match self {
            ReservationOption::Reject => "reject",
            ReservationOption::Move => "move",
        }
    }
}

impl fmt::Display for ReservationOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reservations and their handling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReservationConfig {
    /// Reservations as a percentage of the battery's jobs (0–100).
    pub percent: f64,
    /// Start delay = U\[0,1\] · estimate · start_factor.
    pub start_factor: f64,
    /// What a collision with planned variable jobs does.
    pub option: ReservationOption,
    /// Starvation guard: a job moved this many times is pinned (0 = never moved).
    pub max_moves: Option<u32>,
    /// Starvation guard: a job whose planned start slipped by more than this
    /// many times its estimate is pinned.
    pub max_delay_factor: Option<f64>,
}

impl Default for ReservationConfig {
    fn default() -> Self {
        ReservationConfig {
            percent: 0.0,
            start_factor: 1.0,
            option: ReservationOption::Reject,
            max_moves: Some(5),
            max_delay_factor: None,
        }
    }
}

/// The starvation guard of moved jobs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MoveGuard {
    /// Pin after this many moves.
    pub max_moves: Option<u32>,
    /// Pin once the planned start slipped by more than this factor × estimate.
    pub max_delay_factor: Option<f64>,
}

impl MoveGuard {
    /// Is a job moved `moves` times, now `delay` later than first planned, pinned?
    pub fn pins(&self, moves: u32, delay: Time, estimate: Time) -> bool {
        self.max_moves.is_some_and(|k| moves >= k)
            || self.max_delay_factor.is_some_and(|f| delay as f64 > f * estimate as f64)
    }
}

impl ReservationConfig {
    /// Checks the settings' domains.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if !(0.0..=100.0).contains(&self.percent) {
            return Err(InvalidSetting::new("reservations.percent", self.percent, "must be between 0 and 100"));
        }
        if !(self.start_factor.is_finite() && self.start_factor >= 0.0) {
            return Err(InvalidSetting::new("reservations.start_factor", self.start_factor, "must be 0 or more"));
        }
        if let Some(f) = self.max_delay_factor
            && !(f.is_finite() && f >= 0.0)
        {
            return Err(InvalidSetting::new("reservations.max_delay_factor", f, "must be 0 or more"));
        }
        Ok(())
    }

    /// True for the default settings (no reservations).
    pub fn is_default(&self) -> bool {
        *self == ReservationConfig::default()
    }

    /// True when the run has reservations.
    pub fn active(&self) -> bool {
        self.percent > 0.0
    }

    /// The starvation guard.
    pub fn guard(&self) -> MoveGuard {
        MoveGuard { max_moves: self.max_moves, max_delay_factor: self.max_delay_factor }
    }

    /// The reservations for `jobs` (a battery, ids 0..n), seeded by `seed`
    /// and `battery`; ids n, n + 1, …, in order of submission.
    pub fn generate(&self, jobs: &[Job], seed: u64, battery: usize) -> Vec<Job> {
        self.copies(jobs, seed, battery).into_iter().map(|(_, r)| r).collect()
    }

    /// As [`ReservationConfig::generate`], each reservation with the index
    /// in `jobs` of the job it copies.
    pub fn copies(&self, jobs: &[Job], seed: u64, battery: usize) -> Vec<(usize, Job)> {
        let n = jobs.len();
        let count = ((self.percent / 100.0 * n as f64).round() as usize).min(n);
        if count == 0 {
            return Vec::new();
        }
        let mut rng = stream(seed, RESERVATIONS, battery as u64);
        // A partial Fisher–Yates shuffle picks `count` distinct jobs.
        let mut picks: Vec<usize> = (0..n).collect();
        for k in 0..count {
            let other = rng.random_range(k..n);
            picks.swap(k, other);
        }
        let mut out: Vec<(usize, Job)> = picks[..count]
            .iter()
            .map(|&i| {
                let j = jobs[i];
                let u: f64 = rng.random();
                let start = j.occurrence + (u * j.estimate as f64 * self.start_factor).floor() as Time;
                (i, Job { release: start, deadline: start + j.estimate, reservation: true, ..j })
            })
            .collect();
        out.sort_by_key(|(_, r)| (r.occurrence, r.swf_id));
        for (k, (_, r)) in out.iter_mut().enumerate() {
            r.id = (n + k) as u32;
        }
        out
    }
}
