//! Many job-picking environments stepped in one call, from a slice of actions
//! into caller-owned buffers, split over threads.
//!
//! Contract:
//! - Environment `i` reads `actions[i]` and writes row `i` of every buffer:
//!   `obs[i·W·8..]`, `masks[i·W..]`, `rewards[i]`, `terminated[i]`,
//!   `truncated[i]` (always false).
//! - Autoreset follows Gymnasium 1.x's default, `AutoresetMode.NEXT_STEP`:
//!   the step on which an environment terminates returns its last
//!   observation, reward and `terminated = true`; on the *next* call its
//!   action is ignored, it is reset (a drawn start), and that call returns the
//!   first observation, reward 0 and `terminated = false`.
//! - All actions are checked before any environment moves: an invalid one is
//!   an error naming the environment, and nothing has changed.
//! - Environments are independent and each is stepped by exactly one thread,
//!   so the results do not depend on the number of threads.
//! - [`VectorPick::seed`] seeds environment `i` with `seed + i`, as
//!   Gymnasium's vector `reset(seed=…)` does.

use super::pick::{ActionError, PickJobs, SetupError, Step};

/// The caller's buffers for `N` environments of window `W`.
pub struct Buffers<'a> {
    /// `N × W × 8` observations.
    pub obs: &'a mut [f32],
    /// `N × W` masks.
    pub masks: &'a mut [u8],
    /// `N` rewards.
    pub rewards: &'a mut [f64],
    /// `N` terminated flags.
    pub terminated: &'a mut [bool],
    /// `N` truncated flags (never set: episodes end only by termination).
    pub truncated: &'a mut [bool],
}

/// A vector step that cannot be done.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VectorError {
    /// An environment refuses its action.
    #[error("environment {env}: {error}")]
    Action { env: usize, error: ActionError },
    /// An environment cannot reset.
    #[error("environment {env}: {error}")]
    Setup { env: usize, error: SetupError },
    /// A buffer of the wrong length.
    #[error("{what} has length {got}, expected {expected}")]
    Buffer { what: &'static str, got: usize, expected: usize },
}

/// `N` job-picking environments.
#[derive(Debug, Clone)]
pub struct VectorPick {
    envs: Vec<PickJobs>,
    needs_reset: Vec<bool>,
    threads: usize,
}

impl VectorPick {
    /// Wraps `envs` (all with the same window), stepped on up to `threads` threads.
    pub fn new(envs: Vec<PickJobs>, threads: usize) -> VectorPick {
        let n = envs.len();
        VectorPick { envs, needs_reset: vec![false; n], threads: threads.max(1) }
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// The environments.
    pub fn envs(&self) -> &[PickJobs] {
        &self.envs
    }

    /// Seeds environment `i` with `seed + i`.
    pub fn seed(&mut self, seed: u64) {
        for (i, env) in self.envs.iter_mut().enumerate() {
            env.seed(seed.wrapping_add(i as u64));
        }
    }

    fn check_buffers(&self, b: &Buffers<'_>) -> Result<(), VectorError> {
        let n = self.envs.len();
        let w = self.envs.first().map_or(0, |e| e.options().window);
        let want = [
            ("obs", b.obs.len(), n * w * super::pick::observation::FEATURES),
            ("masks", b.masks.len(), n * w),
            ("rewards", b.rewards.len(), n),
            ("terminated", b.terminated.len(), n),
            ("truncated", b.truncated.len(), n),
        ];
        for (what, got, expected) in want {
            if got != expected {
                return Err(VectorError::Buffer { what, got, expected });
            }
        }
        Ok(())
    }

    /// Resets every environment (drawn starts) and writes the first observations.
    pub fn reset(&mut self, b: Buffers<'_>) -> Result<(), VectorError> {
        self.check_buffers(&b)?;
        for (env, e) in self.envs.iter_mut().enumerate() {
            e.reset(None).map_err(|error| VectorError::Setup { env, error })?;
        }
        self.needs_reset.fill(false);
        let (ol, w) = self.shape();
        for (i, e) in self.envs.iter().enumerate() {
            e.write_observation(&mut b.obs[i * ol..(i + 1) * ol], &mut b.masks[i * w..(i + 1) * w]);
        }
        b.rewards.fill(0.0);
        b.terminated.fill(false);
        b.truncated.fill(false);
        Ok(())
    }

    fn shape(&self) -> (usize, usize) {
        self.envs.first().map_or((0, 0), |e| (e.observation_len(), e.options().window))
    }

    /// Steps every environment with its action (see the module's contract).
    pub fn step(&mut self, actions: &[i64], b: Buffers<'_>) -> Result<(), VectorError> {
        self.check_buffers(&b)?;
        if actions.len() != self.envs.len() {
            return Err(VectorError::Buffer { what: "actions", got: actions.len(), expected: self.envs.len() });
        }
        for (env, ((e, &a), &reset)) in self.envs.iter().zip(actions).zip(&self.needs_reset).enumerate() {
            if !reset {
                e.check(a).map_err(|error| VectorError::Action { env, error })?;
            }
        }
        let n = self.envs.len();
        if n == 0 {
            return Ok(());
        }
        let (ol, w) = self.shape();
        let per = n.div_ceil(self.threads.min(n));
        let chunks = self
            .envs
            .chunks_mut(per)
            .zip(self.needs_reset.chunks_mut(per))
            .zip(actions.chunks(per))
            .zip(b.obs.chunks_mut(per * ol))
            .zip(b.masks.chunks_mut(per * w))
            .zip(b.rewards.chunks_mut(per))
            .zip(b.terminated.chunks_mut(per))
            .zip(b.truncated.chunks_mut(per));
        let run = |(k, (((((((envs, resets), acts), obs), masks), rewards), terms), truncs)): (usize, Chunk<'_>)| {
            step_chunk(k * per, envs, resets, acts, obs, masks, rewards, terms, truncs, ol, w)
        };
        if per >= n {
            chunks.enumerate().try_for_each(run)
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = chunks.enumerate().map(|c| s.spawn(move || run(c))).collect();
                let mut result = Ok(());
                for h in handles {
                    // A panic here is a bug of ours: pass it on unchanged.
                    let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                    if result.is_ok() {
                        result = r;
                    }
                }
                result
            })
        }
    }
}

type Chunk<'a> = (
    (
        (((((&'a mut [PickJobs], &'a mut [bool]), &'a [i64]), &'a mut [f32]), &'a mut [u8]), &'a mut [f64]),
        &'a mut [bool],
    ),
    &'a mut [bool],
);

#[allow(clippy::too_many_arguments)]
fn step_chunk(
    base: usize,
    envs: &mut [PickJobs],
    resets: &mut [bool],
    actions: &[i64],
    obs: &mut [f32],
    masks: &mut [u8],
    rewards: &mut [f64],
    terminated: &mut [bool],
    truncated: &mut [bool],
    ol: usize,
    w: usize,
) -> Result<(), VectorError> {
    for (i, e) in envs.iter_mut().enumerate() {
        let step = if resets[i] {
            // The start is drawn in the log's range: this cannot fail.
            e.reset(None).map_err(|error| VectorError::Setup { env: base + i, error })?;
            resets[i] = false;
            Step { reward: 0.0, terminated: false }
        } else {
            e.step(actions[i]).map_err(|error| VectorError::Action { env: base + i, error })?
        };
        resets[i] = step.terminated;
        rewards[i] = step.reward;
        terminated[i] = step.terminated;
        truncated[i] = false;
        e.write_observation(&mut obs[i * ol..(i + 1) * ol], &mut masks[i * w..(i + 1) * w]);
    }
    Ok(())
}
