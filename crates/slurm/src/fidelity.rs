//! Per-job fidelity of one schedule against another of the same jobs (the
//! twin against Slurm, or Slurm against itself): how close each job's start
//! is, whether the start order agrees, and whether the waits are alike.
//!
//! Sources: M. G. Kendall, "The treatment of ties in ranking problems",
//! Biometrika 33(3), 1945 (τ-b), computed by the `kendalls` crate (Knight's
//! O(n log n) method, W. R. Knight, JASA 61(314), 1966); the two-sample
//! Kolmogorov–Smirnov statistic D = sup_t |F₁(t) − F₂(t)| of the empirical
//! distributions (N. Smirnov, 1939; F. J. Massey, JASA 46(253), 1951).
//!
//! Contract:
//! - A job is its submission and start in the reference schedule and in
//!   the other (two runs of Slurm may log a job's submission apart); its
//!   wait is start − submission in each.
//! - `within_5` and `within_60`: the jobs whose starts differ by at most 5
//!   and 60 seconds (the two shares the guide publishes).
//! - `tau_b`: Kendall's τ-b between the two schedules' starts (ties in
//!   either counted as τ-b counts them); `None` with fewer than two jobs, or
//!   when every start is tied in one of them (τ-b is then undefined).
//! - `ks_wait`: D between the two wait distributions, in [0, 1]; 0 for no
//!   jobs.

use slasim_sim::units::Time;

/// Seconds within which two starts count as the same, the closer bound.
pub const NEAR: Time = 5;
/// The wider bound.
pub const WITHIN_MINUTE: Time = 60;

/// One job's submission and start in each schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Starts {
    /// Its submission in the reference schedule.
    pub submit: Time,
    /// Its start there.
    pub reference: Time,
    /// Its submission in the other.
    pub other_submit: Time,
    /// Its start there.
    pub other: Time,
}

/// The per-job fidelity measures (module contract).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fidelity {
    /// Jobs compared.
    pub jobs: usize,
    /// Jobs whose starts differ by at most [`NEAR`] seconds.
    pub within_5: usize,
    /// Jobs whose starts differ by at most [`WITHIN_MINUTE`] seconds.
    pub within_60: usize,
    /// Kendall's τ-b of the start orders.
    pub tau_b: Option<f64>,
    /// Kolmogorov–Smirnov distance between the wait distributions.
    pub ks_wait: f64,
}

/// The measures of `jobs` (module contract).
pub fn fidelity(jobs: &[Starts]) -> Fidelity {
    let near = |bound: Time| jobs.iter().filter(|j| (j.other - j.reference).abs() <= bound).count();
    let reference: Vec<Time> = jobs.iter().map(|j| j.reference).collect();
    let other: Vec<Time> = jobs.iter().map(|j| j.other).collect();
    let tau_b = if jobs.len() < 2 {
        None
    } else {
        // An error (every start tied in one schedule) or a NaN is "undefined".
        kendalls::tau_b(&reference, &other).ok().map(|(tau, _)| tau).filter(|tau| tau.is_finite())
    };
    let mut waits_reference: Vec<Time> = jobs.iter().map(|j| j.reference - j.submit).collect();
    let mut waits_other: Vec<Time> = jobs.iter().map(|j| j.other - j.other_submit).collect();
    Fidelity {
        jobs: jobs.len(),
        within_5: near(NEAR),
        within_60: near(WITHIN_MINUTE),
        tau_b,
        ks_wait: ks_distance(&mut waits_reference, &mut waits_other),
    }
}

/// The two-sample Kolmogorov–Smirnov statistic of `a` and `b` (sorted in
/// place): the largest gap between their empirical distribution functions,
/// taken after every distinct value; 0 when either is empty.
pub fn ks_distance(a: &mut [Time], b: &mut [Time]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    a.sort_unstable();
    b.sort_unstable();
    let (n, m) = (a.len() as f64, b.len() as f64);
    let (mut i, mut j, mut most) = (0usize, 0usize, 0f64);
    while i < a.len() && j < b.len() {
        let t = a[i].min(b[j]);
        while i < a.len() && a[i] == t {
            i += 1;
        }
        while j < b.len() && b[j] == t {
            j += 1;
        }
        most = most.max((i as f64 / n - j as f64 / m).abs());
    }
    // Past the end of one sample the gap only closes.
    most
}
