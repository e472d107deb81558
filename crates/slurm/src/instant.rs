//! The order of one instant in the Slurm bench, and what its client submits.
//!
//! Contract: events at one time are handled class by class, lower first:
//! node events, job ends, submissions, the main scheduler, the backfill
//! scheduler, the ends of jobs started in a backfill pass (or in a main pass
//! after such an end), the priority tick. So every start at `t` sees every node taken out or given back and
//! every end and submission at `t`; the backfill scheduler sees what the
//! main scheduler started at `t`; and priorities recomputed at `t` are seen
//! from the next pass on. Slurm runs these in threads of its own; this
//! order is the one a quiet controller shows. The backfill agent and the
//! decay thread both wake on whole seconds from their starts, and slurmctld
//! 22.05 starts the agent first (0.26 to 0.27 s before the decay thread in
//! every run of the test cluster, `tests/slurm/cluster.sh`), so in a second
//! where both fall the pass comes first. A run of whole seconds ends at its
//! start's place in the second, as the test cluster's jobs (which sleep
//! whole seconds) do: one started in a backfill pass, or in a main pass that
//! such an end started, ends just after the backfill pass of its end's
//! second. Departure: each of Slurm's passes also takes time
//! before the agent sleeps again (about 7 ms under the test cluster's
//! load), so its phase drifts later, by about a second in ten minutes
//! there; the bench keeps it on its start's phase.

use slasim_sim::client::Submission;
use slasim_sim::kernel::Class;
use slasim_sim::units::Time;

/// Nodes go out of scheduling or come back ([`crate::outage`]).
pub const NODE: Class = Class(0);
/// A job ends: its nodes are free at once.
pub const JOB_END: Class = Class(1);
/// A job is submitted.
pub const SUBMIT: Class = Class(2);
/// The main scheduler.
pub const MAIN: Class = Class(3);
/// The backfill scheduler.
pub const BACKFILL: Class = Class(4);
/// A job ends that started in a backfill pass, or in a main pass after
/// such an end: at the backfill pass's place in the second, just after it.
pub const END_AFTER_BACKFILL: Class = Class(5);
/// The priority calculation (decay thread).
pub const TICK: Class = Class(6);

/// A job's submission: its index in the run and its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    /// Index of the job in the run.
    pub job: u32,
    /// Submit time.
    pub at: Time,
    /// It may start from `at` on. Else it is submitted to begin later:
    /// slurmctld knows it (a change its backfill agent sees), nothing more.
    pub eligible: bool,
}

impl Submission for Arrival {
    const CLASS: Class = SUBMIT;
    fn submitted_at(&self) -> Time {
        self.at
    }
}
