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

/// A job's bounded slowdown: max(1, (wait + run) / max(run, τ)), τ = 10 s.
pub fn bounded_slowdown(wait: Time, run: Time) -> f64 {
    ((wait + run) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound: short jobs count as τ long; no job scores below 1.
    #[test]
    fn bounds_short_jobs_and_never_goes_below_one() {
        assert_eq!(bounded_slowdown(0, 100), 1.0);
        assert_eq!(bounded_slowdown(100, 100), 2.0);
        // A 1 s job that waited 9 s: 10 / 10, not 10 / 1.
        assert_eq!(bounded_slowdown(9, 1), 1.0);
        assert_eq!(bounded_slowdown(0, 0), 1.0);
        assert_eq!(bounded_slowdown(30, 5), 3.5);
        assert_eq!(wait(100, 250), 150);
    }

    /// The same bits as the three formulas it replaced (summary: integer
    /// response; Slurm: f64 sum; gym: RLScheduler's).
    #[test]
    fn matches_the_formulas_it_replaced() {
        for (submit, start, end) in [(0, 0, 1), (3, 17, 29), (100, 1_000_003, 1_000_007), (7, 7, 86_400 * 365)] {
            let (w, run) = (start - submit, end - start);
            let summary = ((end - submit) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0);
            let ran = run as f64;
            let slurm = ((w as f64 + ran) / ran.max(BOUNDED_SLOWDOWN_TAU as f64)).max(1.0);
            let gym = ((start - submit + run) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0);
            let shared = bounded_slowdown(wait(submit, start), run);
            for old in [summary, slurm, gym] {
                assert_eq!(shared.to_bits(), old.to_bits(), "{submit} {start} {end}");
            }
        }
    }
}
