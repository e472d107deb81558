//! What the agent sees: RLScheduler's `HPCEnv.build_observation`
//! (`HPCSimPickJobs.py`), a window of `W` rows (`MAX_QUEUE_SIZE`, 128) of 8
//! features, and the action mask its PPO agent computes from it
//! (`ppo-pick-jobs.py`).
//!
//! Contract:
//! - *Which jobs are visible.* The queue is first sorted stably by submission.
//!   If at most `W` jobs wait, all are visible in that order. Otherwise
//!   RLScheduler sorts the queue by F1, F2, SJF and smallest-first in turn and
//!   interleaves the first `W` of the SJF order with the first `W` of the
//!   smallest-first order (`sjf[0], small[0], sjf[1], small[1], …`), skipping
//!   jobs already taken, until `W` are taken; its third, "random", list reads
//!   the SJF list again, so it never adds a job. Because the sorts are stable,
//!   each list's ties fall back on the previous sort's order: here each list is
//!   one selection by the concatenated key (SJF, F2, F1, submission, queue
//!   order), and the queue is left in the order those sorts leave it as far as
//!   any later step can tell (submission, then processors, then requested time).
//! - *Row of a visible job* (`f32`, each computed in `f64` as Python does):
//!   `[min(wait / 43200, 1−1e−5), min(requested time / max run time, 1−1e−5),
//!   min(processors / MaxProcs, 1−1e−5), memory, user, group, executable,
//!   can-start-now]` where memory/user/group/executable are `min(x / max x,
//!   1−1e−5)`, or 1 when the log has −1, and can-start-now is `1−1e−5` when the
//!   job fits the free nodes now, else `1e−5`.
//! - *Other rows:* with the skip action on, the row after the last visible job
//!   (if any is left) is the skip row `[1,1,1,1,1,1,1,p]` with `p` = 1 once the
//!   sequence has nothing running and nothing to arrive (`pivot_job`), else 0;
//!   every other row is padding `[0,1,1,1,1,1,1,0]`.
//! - *Mask:* 1 for a visible job's row; 1 for the skip row while `p` = 0 (the
//!   PPO agent masks an all-ones row); 0 elsewhere.

use super::dynamics::Dynamics;
use super::jobs::{ALMOST_ONE, JobTable, MAX_WAIT_TIME};

/// Features per row (`JOB_FEATURES`).
pub const FEATURES: usize = 8;
/// RLScheduler's window (`MAX_QUEUE_SIZE`).
pub const RLSCHEDULER_WINDOW: usize = 128;

const PADDING: [f32; FEATURES] = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];

/// Reused buffers of the visible-job selection (no allocation per step once warm).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    by_sjf: Vec<u32>,
    by_smallest: Vec<u32>,
    taken: Vec<bool>,
}

/// Chooses the visible jobs into `visible` (at most `window`), leaving the
/// queue in an order equivalent to RLScheduler's for every later step.
pub fn select_visible(
    state: &mut Dynamics,
    jobs: &JobTable,
    window: usize,
    visible: &mut Vec<u32>,
    sel: &mut Selection,
) {
    visible.clear();
    state.queue.sort_by_key(|&q| jobs.submit[q as usize]);
    let n = state.queue.len();
    if n <= window {
        visible.extend_from_slice(&state.queue);
        return;
    }
    let queue = &state.queue;
    // Each list is one selection by the job's static rank (see `JobTable::sjf_rank`).
    first_by(&mut sel.by_sjf, n, window, |&p| jobs.sjf_rank[queue[p as usize] as usize]);
    first_by(&mut sel.by_smallest, n, window, |&p| jobs.smallest_rank[queue[p as usize] as usize]);
    sel.taken.clear();
    sel.taken.resize(n, false);
    let mut i = 0;
    while visible.len() < window && i < window {
        for &pos in [sel.by_sjf[i], sel.by_smallest[i]].iter() {
            if !sel.taken[pos as usize] && visible.len() < window {
                sel.taken[pos as usize] = true;
                visible.push(queue[pos as usize]);
            }
        }
        i += 1;
    }
    // What the smallest-first sort leaves, as the next submission sort sees it.
    state.queue.sort_by_key(|&j| jobs.settled_rank[j as usize]);
}

/// The first `k` of the queue positions `0..n` by `rank` (distinct), sorted, into `out`.
fn first_by(out: &mut Vec<u32>, n: usize, k: usize, rank: impl Fn(&u32) -> u32) {
    out.clear();
    out.extend(0..n as u32);
    if k < n {
        out.select_nth_unstable_by_key(k, &rank);
        out.truncate(k);
    }
    out.sort_unstable_by_key(&rank);
}

/// Writes the window's rows into `obs` (`window × 8`) and the mask into `mask` (`window`).
pub fn write(
    state: &Dynamics,
    jobs: &JobTable,
    visible: &[u32],
    skip: bool,
    pivot: bool,
    obs: &mut [f32],
    mask: &mut [u8],
) {
    let window = mask.len();
    debug_assert_eq!(obs.len(), window * FEATURES);
    let almost_one = ALMOST_ONE as f32;
    let tiny = 1e-5f64 as f32;
    for (row, (&job, m)) in obs.chunks_exact_mut(FEATURES).zip(visible.iter().zip(mask.iter_mut())) {
        let j = job as usize;
        let wait = (state.now - jobs.submit[j]) as f64 / MAX_WAIT_TIME;
        row[0] = wait.min(ALMOST_ONE) as f32;
        row[1..7].copy_from_slice(&jobs.features[j]);
        row[7] = if state.fits(jobs, job) { almost_one } else { tiny };
        *m = 1;
    }
    let mut rest = visible.len();
    if skip && rest < window {
        let row = &mut obs[rest * FEATURES..(rest + 1) * FEATURES];
        row[..7].fill(1.0);
        row[7] = if pivot { 1.0 } else { 0.0 };
        mask[rest] = u8::from(!pivot);
        rest += 1;
    }
    for row in obs[rest * FEATURES..].chunks_exact_mut(FEATURES) {
        row.copy_from_slice(&PADDING);
    }
    mask[rest..].fill(0);
}
