//! A job's wait and bounded slowdown: the one definition the single-cluster
//! summary, the Slurm point's aggregates and the gym's reward all use.
//!
//! Reference: Feitelson, Rudolph, Schwiegelshohn, Sevcik and Wong, "Theory
//! and practice in parallel job scheduling" (JSSPP 1997): bounded slowdown
//! = max(1, (wait + run) / max(run, τ)), with τ = 10 s
//! ([`BOUNDED_SLOWDOWN_TAU`]). RLScheduler's `job_score` (type 0,
//! `HPCSimPickJobs.py`) is the same formula with the same τ, so the gym's
//! reward reproduces its MDP with this function.
//!
//! Contract: times are integer seconds; the response `wait + run` and the
//! bound `max(run, τ)` are summed and bounded as integers, then divided in
//! `f64`. Every caller's figures are bit-identical to the formulas this
//! replaced (an `f64` sum of integers is exact below 2^53 s).

use crate::units::Time;

/// τ of the bounded slowdown, s.
pub const BOUNDED_SLOWDOWN_TAU: Time = 10;

/// A job's wait: its start minus its submission (or release), s.
pub fn wait(submit: Time, start: Time) -> Time {
    start - submit
}

/// The `q`-quantile of `sorted` (ascending) by nearest rank: the value at
/// rank ⌈q·n⌉, at least the first (none of an empty sample).
pub fn nearest_rank(sorted: &[Time], q: f64) -> Option<Time> {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len().max(1)) - 1).copied()
}

/// A job's bounded slowdown: max(1, (wait + run) / max(run, τ)), τ = 10 s.
pub fn bounded_slowdown(wait: Time, run: Time) -> f64 {
    ((wait + run) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0)
}
