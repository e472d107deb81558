//! Job picking: the environment of RLScheduler (D. Zhang, D. Dai, Y. He,
//! F. S. Bao, B. Xie, "RLScheduler: an automated HPC batch job scheduler
//! using reinforcement learning", SC20; `HPCSimPickJobs.py` of
//! DIR-LAB/deep-batch-scheduler), stepped in Rust, with its MDP reproduced
//! exactly and options beyond it.
//!
//! Contract:
//! - *Episode.* [`PickJobs::reset`] picks a sequence of the log: `L` jobs
//!   (`JOB_SEQUENCE_SIZE`, 256) from a start index drawn uniformly in
//!   `[L, n − L − 1)` by the environment's own generator ([`crate::streams::EPISODE_STARTS`],
//!   reseeded by [`PickJobs::seed`]), or given explicitly; or the whole log
//!   ([`Episode::WholeLog`]). Job `start` waits at its submission time on an
//!   empty machine. When [`Options::baselines`] is on, the sequence is first
//!   scheduled by SJF and by F1 from that same state
//!   (`schedule_curr_sequence_reset`, [`dynamics::Dynamics::run_heuristic`]);
//!   their totals are [`PickJobs::baselines`].
//! - *Step.* The action is a row of the window. A visible job's row starts
//!   that job (`HPCEnv.schedule`): if it does not fit, events happen until it
//!   does (with backfilling, waiting jobs that fit and end before its
//!   estimated start are started first-come first-served); then events happen
//!   until a job waits. The skip row (with [`Options::skip`]) waits for the
//!   next event or 360 s (`skip_schedule`). Inside a step, events are taken
//!   one at a time: an arrival at or before the next release comes first;
//!   releases go in the order of a stable sort of the running list by end
//!   time ([`dynamics`]). Then the window is rebuilt ([`observation`]).
//! - *Reward.* 0, except on the last step: minus the sum of the started
//!   jobs' scores, divided as `post_process_score` does ([`reward`]).
//! - *End.* The episode terminates when the queue is empty and every job of
//!   the sequence has arrived (jobs may still run). It never truncates; the
//!   observation written at the end is all padding with an empty mask.
//! - *Invalid actions.* An action out of range, on an empty row, on the
//!   masked skip row, or after the end is an [`ActionError`] naming the
//!   action, the slot and the simulated time; the state is untouched and
//!   the environment stays usable (another action may be sent).
//! - *No allocation per step* once the buffers are warm: job features that
//!   do not change are precomputed in the [`jobs::JobTable`]; the caller owns
//!   the observation and mask buffers ([`PickJobs::write_observation`]).
//!
//! Departures from RLScheduler: its observation is `float64`, ours `f32` (the
//! same values, rounded once; its agent feeds them to a `float32` placeholder);
//! it returns no observation at the end; it accepts an action on an empty
//! row (a skip) where ours is an error; the start index comes from ChaCha8,
//! not NumPy's `RandomState` (give it explicitly to replay a sequence).
//! Node failures are not modelled.

pub mod dynamics;
pub mod jobs;
pub mod observation;
pub(crate) mod order;
pub mod reward;

use std::sync::Arc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::streams::EPISODE_STARTS;
use dynamics::{Dynamics, Heuristic};
use jobs::JobTable;
use observation::{FEATURES, RLSCHEDULER_WINDOW, Selection};
use reward::Score;
use slasim_core::rng;
use slasim_sim::units::Time;

/// RLScheduler's `JOB_SEQUENCE_SIZE`.
pub const RLSCHEDULER_SEQUENCE: usize = 256;

/// Which jobs an episode covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Episode {
    /// `len` consecutive jobs from a start drawn in `[len, n − len − 1)` (RLScheduler: 256).
    Sampled {
        /// Jobs in the sequence.
        len: usize,
    },
    /// Every job of the log, from the first.
    WholeLog,
}

/// The environment's options. [`Options::rlscheduler`] is `HPCEnv`'s MDP.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Rows of the window (`MAX_QUEUE_SIZE`; 128).
    pub window: usize,
    /// EASY-like backfilling while a picked job waits (`backfil`).
    pub backfill: bool,
    /// The skip action (`skip`).
    pub skip: bool,
    /// What a job's score measures (`job_score_type`).
    pub score: Score,
    /// Sampled sequences or the whole log.
    pub episode: Episode,
    /// Schedule each sequence with SJF and F1 at reset, as RLScheduler does.
    pub baselines: bool,
}

impl Options {
    /// RLScheduler's `HPCEnv(backfil, skip, job_score_type)`.
    pub fn rlscheduler(backfill: bool, skip: bool, score: Score) -> Options {
        Options {
            window: RLSCHEDULER_WINDOW,
            backfill,
            skip,
            score,
            episode: Episode::Sampled { len: RLSCHEDULER_SEQUENCE },
            baselines: true,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::rlscheduler(false, false, Score::BoundedSlowdown)
    }
}

/// The totals of the baselines of the current sequence (RLScheduler's `scheduled_scores`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Baselines {
    /// SJF's total score.
    pub sjf: f64,
    /// F1's total score.
    pub f1: f64,
}

/// What one step returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// 0, or minus the episode's total score on its last step.
    pub reward: f64,
    /// The episode is over.
    pub terminated: bool,
}

/// An action the environment refuses; the state is left as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// Not a row of the window.
    #[error("invalid action {action} at time {now}: out of range (the window has rows 0..{window})")]
    OutOfRange { action: i64, window: usize, now: Time },
    /// A row with no job.
    #[error("invalid action {action} at time {now}: slot {action} is empty ({visible} job(s) visible{skip})")]
    EmptySlot { action: i64, visible: usize, skip: &'static str, now: Time },
    /// The skip row while it is masked.
    #[error(
        "invalid action {action} at time {now}: the skip row is masked (nothing runs and no job is left to arrive; pick one of the {visible} waiting job(s))"
    )]
    SkipMasked { action: i64, visible: usize, now: Time },
    /// After the episode's end or before the first reset.
    #[error("invalid action {action} at time {now}: the episode is over (call reset)")]
    EpisodeOver { action: i64, now: Time },
}

/// An environment that cannot be built or reset as asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// The window has no row.
    #[error("window must be at least 1 row")]
    EmptyWindow,
    /// The log is too short for sampled sequences.
    #[error("{name}: {jobs} job(s) is too few for sequences of {len} (need more than {needed})")]
    TooShort { name: String, jobs: usize, len: usize, needed: usize },
    /// An explicit start outside the log.
    #[error("start index {start} is out of range: a sequence of {len} job(s) starts in 0..={max}")]
    BadStart { start: usize, len: usize, max: usize },
}

/// The job-picking environment.
#[derive(Debug, Clone)]
pub struct PickJobs {
    jobs: Arc<JobTable>,
    options: Options,
    state: Dynamics,
    visible: Vec<u32>,
    selection: Selection,
    pivot: bool,
    over: bool,
    rng: ChaCha8Rng,
    baselines: Option<Baselines>,
    total: Option<f64>,
}

impl PickJobs {
    /// An environment over `jobs`, seeded with 0 until [`PickJobs::seed`].
    pub fn new(jobs: Arc<JobTable>, options: Options) -> Result<PickJobs, SetupError> {
        if options.window == 0 {
            return Err(SetupError::EmptyWindow);
        }
        if let Episode::Sampled { len } = options.episode {
            let needed = 2 * len + 1;
            if jobs.len() <= needed || len == 0 {
                return Err(SetupError::TooShort { name: jobs.name.clone(), jobs: jobs.len(), len, needed });
            }
        }
        Ok(PickJobs {
            jobs,
            options,
            state: Dynamics::default(),
            visible: Vec::with_capacity(options.window),
            selection: Selection::default(),
            pivot: false,
            over: true,
            rng: rng::stream(0, EPISODE_STARTS, 0),
            baselines: None,
            total: None,
        })
    }

    /// Reseeds the start-index generator (gymnasium's `reset(seed=…)`).
    pub fn seed(&mut self, seed: u64) {
        self.rng = rng::stream(seed, EPISODE_STARTS, 0);
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The job table.
    pub fn jobs(&self) -> &Arc<JobTable> {
        &self.jobs
    }

    /// Jobs per episode.
    pub fn sequence_len(&self) -> usize {
        match self.options.episode {
            Episode::Sampled { len } => len,
            Episode::WholeLog => self.jobs.len(),
        }
    }

    /// Length of an observation (`window × 8`).
    pub fn observation_len(&self) -> usize {
        self.options.window * FEATURES
    }

    /// Starts an episode at `start` (a job position), or at a drawn one.
    pub fn reset(&mut self, start: Option<usize>) -> Result<(), SetupError> {
        let len = self.sequence_len();
        let n = self.jobs.len();
        let first = match (start, self.options.episode) {
            (Some(s), _) if s + len > n => return Err(SetupError::BadStart { start: s, len, max: n - len }),
            (Some(s), _) => s,
            (None, Episode::WholeLog) => 0,
            (None, Episode::Sampled { len }) => self.rng.random_range(len..n - len - 1),
        };
        let last = first + len;
        let jobs = &*self.jobs;
        self.baselines = if self.options.baselines {
            let (backfill, score) = (self.options.backfill, self.options.score);
            let sjf = self.state.run_heuristic(jobs, first, last, Heuristic::Sjf, backfill, score);
            let f1 = self.state.run_heuristic(jobs, first, last, Heuristic::F1, backfill, score);
            Some(Baselines { sjf, f1 })
        } else {
            None
        };
        self.state.restart(jobs, first, last);
        self.pivot = false;
        self.over = false;
        self.total = None;
        observation::select_visible(&mut self.state, jobs, self.options.window, &mut self.visible, &mut self.selection);
        Ok(())
    }

    /// Checks `action` against the current window without acting.
    pub fn check(&self, action: i64) -> Result<(), ActionError> {
        let now = self.state.now;
        if self.over {
            return Err(ActionError::EpisodeOver { action, now });
        }
        let window = self.options.window;
        if action < 0 || action as u64 >= window as u64 {
            return Err(ActionError::OutOfRange { action, window, now });
        }
        let row = action as usize;
        let visible = self.visible.len();
        if row < visible {
            return Ok(());
        }
        if self.options.skip && row == visible {
            return if self.pivot { Err(ActionError::SkipMasked { action, visible, now }) } else { Ok(()) };
        }
        let skip = if self.options.skip { ", then the skip row" } else { "" };
        Err(ActionError::EmptySlot { action, visible, skip, now })
    }

    /// One step: starts the job of row `action`, or skips.
    pub fn step(&mut self, action: i64) -> Result<Step, ActionError> {
        self.check(action)?;
        let row = action as usize;
        let jobs = &*self.jobs;
        let done = if row < self.visible.len() {
            self.state.schedule(jobs, self.visible[row], self.options.backfill, self.options.score)
        } else {
            self.state.skip(jobs, &mut self.pivot);
            false
        };
        if done {
            self.over = true;
            self.visible.clear();
            let total = self.options.score.total(
                &self.state.scores,
                self.state.last - self.state.first,
                self.state.now,
                jobs.submit[self.state.first],
                jobs.max_procs,
            );
            self.total = Some(total);
            return Ok(Step { reward: -total, terminated: true });
        }
        observation::select_visible(&mut self.state, jobs, self.options.window, &mut self.visible, &mut self.selection);
        Ok(Step { reward: 0.0, terminated: false })
    }

    /// Writes the observation (`window × 8` values) and the mask (`window`).
    ///
    /// # Panics
    /// If the buffers do not have those lengths (a caller's programming error).
    pub fn write_observation(&self, obs: &mut [f32], mask: &mut [u8]) {
        assert_eq!(obs.len(), self.observation_len(), "observation buffer length");
        assert_eq!(mask.len(), self.options.window, "mask buffer length");
        observation::write(
            &self.state,
            &self.jobs,
            &self.visible,
            self.options.skip && !self.over,
            self.pivot,
            obs,
            mask,
        );
    }

    /// Simulated time.
    pub fn now(&self) -> Time {
        self.state.now
    }

    /// The visible jobs, by table position, in row order.
    pub fn visible(&self) -> &[u32] {
        &self.visible
    }

    /// The sequence's first job (table position).
    pub fn start_index(&self) -> usize {
        self.state.first
    }

    /// The baselines' totals of the current sequence, when computed.
    pub fn baselines(&self) -> Option<Baselines> {
        self.baselines
    }

    /// The episode's total score, once it is over.
    pub fn total(&self) -> Option<f64> {
        self.total
    }

    /// Whether the episode is over (or not yet started).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The state (for tests and invariant checks).
    pub fn state(&self) -> &Dynamics {
        &self.state
    }
}
