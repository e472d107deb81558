//! The priority calculation's tick (the decay thread): usage decayed and
//! charged, fair-share ranked, pending priorities recomputed. The
//! arithmetic is [`crate::priority`]'s; this is when it runs and on which
//! jobs.
//!
//! Sources: Slurm 22.05, `src/plugins/priority/multifactor/priority_multifactor.c`
//! (`_decay_thread`, `_apply_new_usage`, `priority_p_job_end`) and
//! `src/slurmctld/acct_policy.c` (`GrpTRESRunMins`).
//!
//! Contract:
//! - Every `PriorityCalcPeriod` (on slurmctld's phase, [`super::model`]
//!   arms it), usage decays by `d^Δt` since the previous tick, each job
//!   running now is charged for its run since that tick
//!   ([`crate::priority::FairTree::charge_run`]), the limits' run-seconds
//!   (`GrpTRESRunMins`) are brought up to date, the fair-share tree is
//!   ranked, and every pending record gets its priority at `now`; the queue
//!   is sorted again.
//! - What a job ran after the last tick before its end is charged at its
//!   end only under `AccountingStorageEnforce=limits` ([`super::job_mgr`]);
//!   otherwise never (seen in RawUsage on a real slurmctld).

use super::Controller;
use crate::priority::decay_per_second;
use slasim_sim::units::Time;

impl Controller {
    /// The decay thread: usage decayed and charged, fair-share ranked,
    /// pending priorities recomputed.
    pub(super) fn tick(&mut self, now: Time) {
        let d = decay_per_second(self.settings.priority.decay_half_life);
        let elapsed = now - self.last_tick;
        if elapsed > 0 {
            self.fairshare.decay(d.powf(elapsed as f64));
        }
        // `_decay_thread` charges the jobs running now for the time since
        // the previous tick. What a job ran after the last tick before its
        // end is charged at its end only under `AccountingStorageEnforce=limits`
        // (`release`); otherwise never (seen in RawUsage on a real slurmctld).
        for &j in &self.running {
            let job = &self.jobs[j as usize];
            self.fairshare.charge_run(job.assoc, job.billing, self.outcome[j as usize].start, self.last_tick, now, d);
        }
        // `GrpTRESRunMins`: the same pass takes the time run from the
        // limits' run-seconds.
        let (running, outcome) = (&self.running, &self.outcome);
        if let Some(l) = &mut self.limits {
            l.tick(self.last_tick, now, running.iter().map(|&j| (j, outcome[j as usize].start)));
        }
        self.last_tick = now;
        self.fairshare.rank();
        for &r in &self.queue {
            let (job, j) = (self.view(r), self.owner(r));
            self.prio[r as usize] =
                self.priority.priority(job.fixed, self.since(j), now, self.fairshare.factor(job.assoc));
        }
        self.sort_queue();
    }
}
