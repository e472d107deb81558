//! The controller as a kernel model: each message to the work it starts,
//! the periodic events armed and re-armed, and what a finished run hands
//! back.
//!
//! Sources: Slurm 22.05, `src/slurmctld/controller.c`
//! (`_slurmctld_background`, `last_sched_time`) and
//! `src/plugins/sched/backfill/backfill.c` (`backfill_agent`,
//! `_more_work`).
//!
//! Contract:
//! - Each periodic event (the priority tick every `PriorityCalcPeriod`,
//!   the full main pass every `sched_interval`) is armed on its own phase,
//!   the next multiple of its period from slurmctld's start, and re-armed
//!   when it fires unless the machine is idle (no job queued or running).
//! - A change (a submission, a start or end, a main pass that left a job
//!   waiting, new priorities of pending jobs) asks for a backfill pass
//!   `bf_interval` after the previous one, at once if that is past; the
//!   pass runs if something changed since the second the previous pass
//!   ended, that second included, or if that pass gave a pending job a
//!   start estimate.
//! - A job end's main pass is asked for once per instant, and once more for
//!   the ends after that instant's backfill pass ([`crate::instant`]).
//! - Node events ([`crate::outage`]) are made as the kernel reaches them,
//!   each instant's together (a node going down kills its jobs then); the
//!   run's first is seeded by the bench.

use super::{Controller, ControllerMsg, Counters, Outcome, Pass};
use crate::instant::{Arrival, BACKFILL, MAIN, NODE, TICK};
use crate::outage::Change;
use slasim_sim::kernel::{Model, Outbox, Scheduled};
use slasim_sim::model::{Batched, Buffers, Finish};
use slasim_sim::port::Receive;
use slasim_sim::units::Time;

impl Controller {
    /// Arms the periodic events not armed (after an idle spell), each on
    /// its own phase: the next multiple of its period.
    pub(super) fn arm(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        let origin = self.settings.started;
        let next = |period: Time| origin + ((now - origin).div_euclid(period) + 1) * period;
        if self.next_tick.is_none() {
            let t = next(self.settings.priority.calc_period.max(1));
            self.next_tick = Some(t);
            outbox.push(Scheduled::me(t, TICK, ControllerMsg::Tick));
        }
        if self.next_main.is_none() {
            let t = next(self.settings.scheduler.sched_interval.max(1));
            self.next_main = Some(t);
            outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main(Pass::Full)));
        }
    }

    /// Something changed: the backfill scheduler runs `bf_interval` after its
    /// previous pass, or now if that is past (Slurm's agent checks every
    /// second for work once its interval is over).
    pub(super) fn touch(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        self.changed_at = now;
        self.arm_backfill(now, outbox);
    }

    /// Asks for a backfill pass `bf_interval` after the previous one (now
    /// if that is past), unless one is asked for already.
    fn arm_backfill(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        if self.settings.scheduler.backfill && self.next_backfill.is_none() {
            let at = now.max(self.last_backfill + self.settings.scheduler.bf_interval.max(1));
            self.next_backfill = Some(at);
            outbox.push(Scheduled::me(at, BACKFILL, ControllerMsg::Backfill));
        }
    }

    /// Makes the node changes due at `now`, and asks for the next.
    fn change_nodes(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) {
        while let Some(c) = self.change(self.next_change).filter(|c| c.at <= now) {
            self.states.apply(c);
            self.next_change += 1;
            if c.down {
                self.kill_on_node(now, c.node, outbox);
            }
        }
        if let Some(c) = self.change(self.next_change) {
            outbox.push(Scheduled::me(c.at, NODE, ControllerMsg::Nodes));
        }
    }

    /// Node change `i` of the run, if any.
    fn change(&self, i: usize) -> Option<Change> {
        self.outages.as_deref()?.changes.get(i).copied()
    }

    /// Re-arms a periodic event that just fired, unless the machine is idle.
    fn rearm(&self, now: Time, period: Time, due: &mut Option<Time>) -> Option<Time> {
        *due = if self.idle() { None } else { Some(now + period.max(1)) };
        *due
    }

    /// No job queued or running.
    fn idle(&self) -> bool {
        self.queue.is_empty() && self.running.is_empty()
    }

    /// Asks for a job end's main pass at `at`, once per instant.
    pub(super) fn main_at(&mut self, at: Time, outbox: &mut Outbox<ControllerMsg>) {
        if self.main_due != at {
            self.main_due = at;
            outbox.push(Scheduled::me(at, MAIN, ControllerMsg::Main(Pass::JobEnd)));
        }
    }
}

impl Model for Controller {
    type Msg = ControllerMsg;

    fn handle(&mut self, now: Time, msg: ControllerMsg, mut outbox: Outbox<ControllerMsg>) -> Outbox<ControllerMsg> {
        match msg {
            ControllerMsg::Submit(j) => self.submit(now, j, &mut outbox),
            ControllerMsg::Submitted(_) => self.touch(now, &mut outbox),
            ControllerMsg::End(j) => self.end(now, j, &mut outbox),
            ControllerMsg::Tick => {
                self.tick(now);
                // New priorities of pending jobs are a change for the
                // backfill scheduler (`last_job_update`); with none pending,
                // nothing changed.
                if !self.queue.is_empty() {
                    self.touch(now, &mut outbox);
                }
                let mut due = self.next_tick;
                if let Some(t) = self.rearm(now, self.settings.priority.calc_period, &mut due) {
                    outbox.push(Scheduled::me(t, TICK, ControllerMsg::Tick));
                }
                self.next_tick = due;
            }
            ControllerMsg::Main(Pass::JobEnd) => {
                // No longer due: a preemption in it asks for another.
                self.main_due = Time::MIN;
                self.main(now, false, &mut outbox);
            }
            ControllerMsg::Main(Pass::Batch) => {
                // A full pass since it was asked for took its submissions.
                if self.batch_due == Some(now) {
                    self.batch_due = None;
                    self.last_background = now;
                    self.main(now, false, &mut outbox);
                }
            }
            ControllerMsg::Main(Pass::Full) => {
                // The full pass clears `job_sched_cnt`: no batch pass is due.
                self.batch_due = None;
                self.last_background = now;
                self.main(now, true, &mut outbox);
                let mut due = self.next_main;
                if let Some(t) = self.rearm(now, self.settings.scheduler.sched_interval, &mut due) {
                    outbox.push(Scheduled::me(t, MAIN, ControllerMsg::Main(Pass::Full)));
                }
                self.next_main = due;
            }
            // A requeued job's `begin_time` passes: the next pass finds it
            // (no change for the backfill scheduler, no batch pass).
            ControllerMsg::Eligible(j) => {
                self.enqueue(now, j);
                self.arm(now, &mut outbox);
            }
            // `update_node`: the nodes' new states, a change for the backfill
            // agent (`last_node_update`), and `queue_job_scheduler`.
            ControllerMsg::Nodes => {
                self.change_nodes(now, &mut outbox);
                self.touch(now, &mut outbox);
                self.queue_job_scheduler(now, &mut outbox);
                if !self.idle() {
                    self.arm(now, &mut outbox);
                }
            }
            ControllerMsg::Backfill => {
                self.next_backfill = None;
                // `_more_work`: a change since the second the previous pass
                // ended, that second included.
                if self.changed_at < self.last_backfill && !self.estimated {
                    self.counters.backfill_skipped += 1;
                } else {
                    self.last_backfill = now;
                    self.estimated = self.backfill(now, &mut outbox);
                    // A change in this second, before or in the pass, is
                    // work for the next one.
                    if self.changed_at >= now || self.estimated {
                        self.arm_backfill(now, &mut outbox);
                    }
                }
            }
        }
        outbox
    }
}

impl Receive<Arrival> for Controller {
    fn receive(item: Arrival) -> ControllerMsg {
        if item.eligible { ControllerMsg::Submit(item.job) } else { ControllerMsg::Submitted(item.job) }
    }
}

impl Batched for Controller {
    fn buffers(&mut self) -> &mut Buffers<ControllerMsg> {
        &mut self.buffers
    }
}

/// What a finished controller hands back.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Per job.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: Counters,
    /// Every started job's nodes, one after the other.
    pub nodes: Vec<u32>,
    /// Per job: the reason it last waited for, or was rejected for (empty
    /// when no job had one).
    pub reasons: Vec<Option<crate::accounting::Reason>>,
    /// Per job: where its nodes begin in `nodes`.
    pub node_at: Vec<u32>,
    /// Per job, with dependencies or throttles: the reason it last waited
    /// outside the queue for (empty without).
    pub waits: Vec<Option<crate::dependency::Wait>>,
    /// The runs taken off their nodes before their end, in time order
    /// ([`super::requeue`]).
    pub stopped: Vec<super::requeue::Stopped>,
}

impl Finish for Controller {
    type Final = Finished;

    fn finish(&mut self) -> Self::Final {
        let mut reasons = self.limits.as_mut().map(|l| std::mem::take(&mut l.reasons)).unwrap_or_default();
        if let Some(l) = &self.limits {
            let part = crate::accounting::Reason::PartitionTimeLimit as usize;
            let held = self.counters.limited[part];
            self.counters.limited = l.hits;
            self.counters.limited[part] += held;
        }
        if !self.over_part.is_empty() {
            reasons.resize(self.outcome.len(), None);
            for &j in &self.over_part {
                reasons[j as usize] = Some(crate::accounting::Reason::PartitionTimeLimit);
            }
        }
        if let Some(d) = &self.relations {
            self.counters.waited = d.hits;
        }
        Finished {
            outcomes: std::mem::take(&mut self.outcome),
            counters: self.counters,
            nodes: std::mem::take(&mut self.nodes),
            node_at: std::mem::take(&mut self.node_at),
            reasons,
            waits: self.relations.as_mut().map(|d| std::mem::take(&mut d.reasons)).unwrap_or_default(),
            stopped: std::mem::take(&mut self.requeues.stopped),
        }
    }
}
