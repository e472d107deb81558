//! What becomes of a running job taken off its nodes before its end, by
//! preemption ([`super::preempt`]) or by the failure of one of its nodes
//! ([`crate::outage`]): requeued, or ended there.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_mgr.c`
//! (`kill_running_job_by_node_name`, `_job_requeue_op`,
//! `batch_requeue_fini`) and `src/slurmctld/preempt.c`
//! (`slurm_job_preempt`: a requeue refused is a kill).
//!
//! Contract:
//! - A job may be requeued unless the conf says `JobRequeue=0`
//!   ([`crate::conf::RequeueSettings`]). Every job of a workload is a batch
//!   job and takes the conf's default: `sbatch --requeue` and
//!   `--no-requeue` are not in sacct's dumps.
//! - Requeued (`batch_requeue_fini`): pending again, its submit time the
//!   requeue time (a second later if that is its submit time), eligible
//!   the conf's delay on (`begin_time`), its age counted from then; when
//!   it starts again it runs its whole run time.
//! - Not requeued: it ends at that instant.
//! - A node going down (a `DOWN` node event) kills every job running on it
//!   (`kill_running_job_by_node_name`; `sbatch --no-kill`, which keeps a job
//!   of several nodes on the others, is not in the dumps): requeued, or
//!   ended as `NODE_FAIL`. Its nodes are free at once; the node event's own
//!   pass request ([`crate::outage`]) is the scheduling that follows.
//! - Each run taken off its nodes is kept ([`Stopped`]), and each job counts
//!   the node failures that stopped it ([`super::Outcome`]).

use super::{Controller, ControllerMsg};
use crate::conf::RequeueSettings;
use crate::instant::SUBMIT;
use slasim_sim::kernel::{Outbox, Scheduled};
use slasim_sim::units::Time;

/// A run taken off its nodes before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// The job.
    pub job: u32,
    /// The run's start.
    pub start: Time,
    /// When it was taken off.
    pub end: Time,
    /// Where its nodes begin in the run's node list ([`super::Finished::nodes`]).
    pub node_at: u32,
}

/// Per job, its place in the queue order and its age as requeues change
/// them, with the conf's settings.
#[derive(Debug, Clone)]
pub(crate) struct Requeues {
    settings: RequeueSettings,
    /// Per job: its submit time in the queue order, and where its age is
    /// counted from. Empty in a run where no job can be taken off its nodes
    /// (no preemption, no node going down): each job's own submission.
    pub(crate) order: Vec<(Time, Time)>,
    /// The runs taken off their nodes, in time order.
    pub(crate) stopped: Vec<Stopped>,
}

impl Requeues {
    /// Jobs submitted at `submits`, under `settings`; tracked only if some
    /// job may be taken off its nodes in the run.
    pub(crate) fn new(settings: RequeueSettings, submits: impl Iterator<Item = Time>, tracked: bool) -> Requeues {
        let order = if tracked { submits.map(|t| (t, t)).collect() } else { Vec::new() };
        Requeues { settings, order, stopped: Vec::new() }
    }

    /// Whether a job may be requeued (`JobRequeue`).
    #[inline]
    pub(crate) fn allowed(&self) -> bool {
        self.settings.allowed
    }
}

impl Controller {
    /// Running job `r` leaves its nodes at `now`, requeued if `requeue`,
    /// else ended there (module contract); its run is kept as stopped.
    pub(super) fn take_off(&mut self, now: Time, r: u32, requeue: bool, outbox: &mut Outbox<ControllerMsg>) {
        let o = self.outcome[r as usize];
        self.requeues.stopped.push(Stopped { job: r, start: o.start, end: now, node_at: self.node_at[r as usize] });
        self.release(now, r, requeue);
        if !requeue {
            self.outcome[r as usize].end = now;
            self.done += 1;
            if let Some(d) = &mut self.relations {
                d.cancelled(r);
            }
            return;
        }
        if let Some(d) = &mut self.relations {
            d.requeued(r);
        }
        // `batch_requeue_fini`: pending again, submitted now (a second
        // later if that is its submit time), eligible the conf's delay on.
        let o = &mut self.outcome[r as usize];
        o.start = -1;
        o.end = -1;
        let q = &mut self.requeues;
        let eligible = now + q.settings.delay;
        let (submit, since) = &mut q.order[r as usize];
        *submit = if now == *submit { now + 1 } else { now };
        *since = eligible;
        outbox.push(Scheduled::me(eligible, SUBMIT, ControllerMsg::Eligible(r)));
    }

    /// `kill_running_job_by_node_name`: node `n` went down at `now`; every
    /// job running on it is requeued or ended (module contract).
    pub(super) fn kill_on_node(&mut self, now: Time, n: u32, outbox: &mut Outbox<ControllerMsg>) {
        let mut k = 0;
        while k < self.running.len() {
            let r = self.running[k];
            let first = self.node_at[r as usize] as usize;
            let on = self.nodes[first..first + self.jobs[r as usize].need.nodes as usize].contains(&n);
            if !on {
                k += 1;
                continue;
            }
            // `release` takes it out of `running` (a swap): look at `k` again.
            self.outcome[r as usize].node_failed += 1;
            self.counters.node_failed += 1;
            let requeue = self.requeues.allowed();
            self.take_off(now, r, requeue, outbox);
            if !requeue {
                self.outcome[r as usize].node_fail_ended = true;
            }
        }
    }
}
