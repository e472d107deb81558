//! A job's life in the controller: its submission, its start on the nodes
//! a scheduler found, its end.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_mgr.c` (`_part_access_check`,
//! `job_time_limit`), `src/slurmctld/job_scheduler.c` (`job_limits_check`),
//! `src/slurmctld/acct_policy.c` (`acct_policy_validate`,
//! `acct_policy_job_fini`), `src/slurmctld/controller.c`
//! (`last_sched_time`).
//!
//! Contract:
//! - A job above its partition's `MaxTime` is never queued: held for ever
//!   (`job_limits_check`), or rejected under `EnforcePartLimits`
//!   (`_part_access_check`); both are counted.
//! - A submitted job is first tried by the background loop's pass for
//!   submissions, `batch_sched_delay` after that loop's previous pass.
//! - A job runs for its run time, cut at its time limit (and at its advance
//!   reservation's end, `job_time_limit`); its run time counts from its
//!   start, or from the grid point nearest it for a job script that sleeps
//!   to the grid ([`super::Settings::run_end`]).
//! - A job's end frees its nodes at once, and a main pass follows at that
//!   instant (its epilog complete calls `schedule()`). A run of whole
//!   seconds from its start ends at the start's place in the second: after
//!   the backfill pass of that second when it started in a backfill pass, or
//!   in a main pass after such an end ([`crate::instant::END_AFTER_BACKFILL`]).

use super::{BATCH_SCHED_DELAY, Controller, ControllerMsg, Outcome, Pass};
use crate::instant::{END_AFTER_BACKFILL, JOB_END, MAIN};
use crate::priority::decay_per_second;
use slasim_sim::kernel::{Outbox, Scheduled};
use slasim_sim::units::Time;

impl Controller {
    pub(super) fn submit(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        // `job_limits_check` (job_scheduler.c) holds a job over its
        // partition's limits for ever; with `EnforcePartLimits`,
        // `_part_access_check` (job_mgr.c) refuses it at submission.
        if self.jobs[j as usize].over_part_limit {
            if self.settings.enforce_part_limits {
                self.counters.partition_rejected += 1;
            } else {
                self.counters.partition_time_limit += 1;
            }
            self.counters.limited[crate::accounting::Reason::PartitionTimeLimit as usize] += 1;
            self.over_part.push(j);
            return;
        }
        // `acct_policy_validate`: a job over a submission limit is refused.
        if let Some(l) = &mut self.limits
            && l.submit(j).is_some()
        {
            return;
        }
        // A job not independent waits outside the queue ([`crate::dependency`]).
        if self.relations.as_mut().is_none_or(|d| d.submitted(j, now)) {
            self.enqueue(now, j);
        }
        self.dependents_cancelled();
        self.touch(now, outbox);
        self.arm(now, outbox);
        // A batch job is first tried by the background loop's pass.
        self.queue_job_scheduler(now, outbox);
    }

    /// `queue_job_scheduler`: the background loop's pass, at least
    /// `batch_sched_delay` after that loop's previous pass (job ends'
    /// passes do not count: controller.c, `last_sched_time`).
    pub(super) fn queue_job_scheduler(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        if self.batch_due.is_none() {
            let at = now.max(self.last_background + BATCH_SCHED_DELAY);
            self.batch_due = Some(at);
            outbox.push(Scheduled::me(at, MAIN, ControllerMsg::Main(Pass::Batch)));
        }
    }

    pub(super) fn start(&mut self, now: Time, j: u32, backfilled: bool, outbox: &mut Outbox<ControllerMsg>) {
        let job = &self.jobs[j as usize];
        self.machine.take(&self.found, &job.need);
        self.node_at[j as usize] = self.nodes.len() as u32;
        self.nodes.extend_from_slice(&self.found);
        self.job_parts[j as usize] = self.found.iter().fold(0, |m, &n| m | self.node_parts[n as usize]);
        let mut end = self.settings.run_end.end(now, job.run).min(now + job.limit);
        // `job_time_limit`: a job in a reservation ends with it (and
        // `ResvOverRun`).
        if let (Some(r), Some(a)) = (job.resv, &self.advance) {
            end = end.min(a.ends_jobs_at(r).max(now + 1));
        }
        self.outcome[j as usize] = Outcome {
            start: now,
            end,
            priority: self.prio[j as usize],
            backfilled,
            first_node: self.found.first().copied().unwrap_or(0),
            preempted: self.outcome[j as usize].preempted,
            node_failed: self.outcome[j as usize].node_failed,
            partition: job.partition,
            ..Outcome::default()
        };
        self.running.push(j);
        self.changes += 1;
        if let Some(l) = &mut self.limits {
            l.begin(j);
        }
        if let Some(d) = &mut self.relations {
            d.started(j);
        }
        self.touch(now, outbox);
        // A run of whole seconds ends at its start's place in the second
        // ([`crate::instant`]); a run to a grid point ends at the grid's.
        let after_backfill = matches!(self.settings.run_end, super::RunEnd::AfterStart)
            && (backfilled || self.ended_after_backfill == now);
        self.ends_after_backfill[j as usize] = after_backfill;
        let class = if after_backfill { END_AFTER_BACKFILL } else { JOB_END };
        outbox.push(Scheduled::me(end, class, ControllerMsg::End(j)));
    }

    pub(super) fn end(&mut self, now: Time, j: u32, outbox: &mut Outbox<ControllerMsg>) {
        // The end of a run taken off its nodes is void (a requeued job's
        // end is -1 until it starts again; [`super::requeue`]).
        let o = &self.outcome[j as usize];
        if o.end != now || o.preempt_cancelled || o.node_fail_ended {
            return;
        }
        if self.ends_after_backfill[j as usize] {
            self.ended_after_backfill = now;
        }
        self.release(now, j, false);
        self.done += 1;
        if let Some(d) = &mut self.relations {
            d.ended(j);
        }
        self.touch(now, outbox);
        self.main_at(now, outbox);
    }

    /// Job `j` leaves its nodes at `now` (`requeued`: it stays submitted).
    pub(super) fn release(&mut self, now: Time, j: u32, requeued: bool) {
        self.changes += 1;
        if self.settings.charge_at_end {
            // `priority_p_job_end`: its run since the last tick, as a tick charges it.
            let d = decay_per_second(self.settings.priority.decay_half_life);
            let job = &self.jobs[j as usize];
            self.fairshare.charge_run(job.assoc, job.billing, self.outcome[j as usize].start, self.last_tick, now, d);
        }
        let job = &self.jobs[j as usize];
        let first = self.node_at[j as usize] as usize;
        let nodes = &self.nodes[first..first + job.need.nodes as usize];
        self.machine.give(nodes, &job.need);
        if let Some(i) = self.running.iter().position(|&r| r == j) {
            self.running.swap_remove(i);
        }
        if let Some(l) = &mut self.limits {
            if requeued {
                l.requeue(j);
            } else {
                l.fini(j);
            }
        }
    }
}
