//! Per-job scores and the episode's reward, as RLScheduler's `HPCEnv.job_score`
//! and `HPCEnv.post_process_score` compute them (`HPCSimPickJobs.py`).
//!
//! Contract: a job is scored once, when it starts, at its start time `t`
//! (submission `s`, run time `r`, processors `n`):
//!
//! | [`Score`]            | `job_score_type` | per-job score                      |
//! |----------------------|------------------|------------------------------------|
//! | `BoundedSlowdown`    | 0                | `max(1, (t − s + r) / max(r, 10))` |
//! | `Wait`               | 1                | `t − s`                            |
//! | `Turnaround`         | 2                | `t − s + r`                        |
//! | `Utilisation`        | 3                | `−r · n`                           |
//! | `Slowdown`           | 4                | `(t − s + r) / r`                  |
//!
//! At the episode's end every score is divided — by the number of jobs in the
//! sequence, or for utilisation by `(now − first submission) · MaxProcs` —
//! and summed in the order the jobs started (Python's `dict` order); the
//! reward of the last step is minus that total, every other step's is 0.

use slasim_core::metrics::{bounded_slowdown, wait};
use slasim_sim::units::Time;

/// What a job's score measures (RLScheduler's `job_score_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Score {
    /// 0: bounded slowdown, with the 10 s bound.
    #[default]
    BoundedSlowdown,
    /// 1: wait.
    Wait,
    /// 2: turnaround.
    Turnaround,
    /// 3: (minus) processor-seconds, for utilisation.
    Utilisation,
    /// 4: slowdown.
    Slowdown,
}

impl Score {
    /// The score of RLScheduler's `job_score_type` code, if it is one.
    pub fn from_code(code: i64) -> Option<Score> {
        Some(match code {
            0 => Score::BoundedSlowdown,
            1 => Score::Wait,
            2 => Score::Turnaround,
            3 => Score::Utilisation,
            4 => Score::Slowdown,
            _ => return None,
        })
    }

    /// RLScheduler's `job_score_type` code.
    pub fn code(self) -> i64 {
        match self {
            Score::BoundedSlowdown => 0,
            Score::Wait => 1,
            Score::Turnaround => 2,
            Score::Utilisation => 3,
            Score::Slowdown => 4,
        }
    }

    /// A job's score (`job_score`).
    pub fn job(self, start: Time, submit: Time, run: Time, procs: i64) -> f64 {
        match self {
            // Feitelson's bounded slowdown is RLScheduler's job_score 0 exactly.
            Score::BoundedSlowdown => bounded_slowdown(wait(submit, start), run),
            Score::Wait => wait(submit, start) as f64,
            Score::Turnaround => (start - submit + run) as f64,
            Score::Utilisation => -((run * procs) as f64),
            Score::Slowdown => (start - submit + run) as f64 / run as f64,
        }
    }

    /// The total of `post_process_score` then `sum(…values())`: each score
    /// divided, then summed in start order.
    pub fn total(self, scores: &[f64], jobs_in_sequence: usize, now: Time, first_submit: Time, max_procs: i64) -> f64 {
        let divisor = match self {
            Score::Utilisation => ((now - first_submit) * max_procs) as f64,
            _ => jobs_in_sequence as f64,
        };
        scores.iter().fold(0.0, |sum, s| sum + s / divisor)
    }
}
