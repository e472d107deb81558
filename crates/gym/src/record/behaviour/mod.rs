//! Behaviour policies: the rules whose choices an offline dataset records.
//!
//! Contract: a [`Behaviour`] picks a row of the job-picking environment's
//! window from what the environment shows (its visible jobs, in row order)
//! and from the [`Plan`] it made when the episode began
//! ([`Behaviour::begin`]: the Slurm twin's schedule of the sequence; nothing
//! for the others). It never picks the skip row and reads no clock and no
//! generator, so the same episode gives the same choices. Ties go to the
//! lowest row. A behaviour may ask for the environment's backfilling
//! ([`Behaviour::backfill`]): EASY is first-come first-served with it.
//! Behaviours are registered by name in [`BEHAVIOURS`]; one file per
//! behaviour.

pub mod easy;
pub mod f1;
pub mod fcfs;
pub mod sjf;
pub mod slurm;

use std::cmp::Ordering;

use slasim_core::experiment::registry::{self, Entries, UnknownName};

use crate::pick::PickJobs;
use crate::pick::jobs::JobTable;

/// A rule that picks the next job to start.
pub trait Behaviour: Send + Sync + 'static {
    /// Its name (`slasim gym record --policy NAME`, the dataset's `policy` column).
    fn name(&self) -> &'static str;

    /// One line for `--help` and the docs.
    fn description(&self) -> &'static str;

    /// The environment's backfilling it needs: `Some(true)` for EASY;
    /// `None` keeps the option the caller chose.
    fn backfill(&self) -> Option<bool> {
        None
    }

    /// What it decides once per episode, when the environment has just been
    /// reset (by default nothing).
    fn begin(&self, _env: &PickJobs) -> anyhow::Result<Plan> {
        Ok(Plan::default())
    }

    /// The row of the window it starts, among `env.visible()` (non-empty).
    fn choose(&self, env: &PickJobs, plan: &Plan) -> usize;
}

/// What a behaviour decided when its episode began.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Per job of the sequence (table position minus the sequence's first):
    /// its rank, lowest first. Empty when the behaviour ranks as it goes.
    pub rank: Vec<i64>,
}

slasim_core::named_trait_objects!(Behaviour);

/// The built-in behaviours, in the order the docs list them.
static BUILTIN: [&dyn Behaviour; 5] = [&fcfs::Fcfs, &sjf::Sjf, &f1::F1, &easy::Easy, &slurm::Slurm];

/// The behaviours, by name.
pub enum Behaviours {}

impl Entries for Behaviours {
    type Entry = dyn Behaviour;
    const WHAT: &'static str = "behaviour policy";
    fn builtin() -> Vec<&'static dyn Behaviour> {
        BUILTIN.to_vec()
    }
}

/// The behaviour registered as `name` (in the registry being read with).
pub fn behaviour(name: &str) -> Result<&'static dyn Behaviour, UnknownName> {
    registry::find::<Behaviours>(name)
}

/// The row of the visible job that `cmp` orders first; the lowest row on ties.
pub(crate) fn first_by(env: &PickJobs, mut cmp: impl FnMut(&JobTable, u32, u32) -> Ordering) -> usize {
    let jobs = env.jobs();
    let visible = env.visible();
    let mut best = 0;
    for (row, &job) in visible.iter().enumerate().skip(1) {
        if cmp(jobs, job, visible[best]) == Ordering::Less {
            best = row;
        }
    }
    best
}
