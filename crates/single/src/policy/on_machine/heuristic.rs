//! Heuristic planning on a machine of unlike nodes: a job is accepted with
//! a window that ends by its deadline, and its nodes are chosen anew at
//! every re-plan until it starts.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.1 ("Heuristic
//! planning": nodes selected at start, full estimate, the plan re-planned at
//! every job end; "the job is accepted only with its planned start and end
//! time"), §6.5 (re-planning rule, disabled jobs re-placed at once), §6.3
//! (outcome rules). The spec counts identical nodes; on unlike nodes the
//! plan books each waiting job on the nodes its [`NodeChoice`] prefers
//! (a [`MachinePlan`]), and a re-plan may give it others.
//!
//! Contract:
//! - Occurrence: a job no node set can ever hold is rejected `too-wide`
//!   with its reason; else it is booked at its earliest window of its whole
//!   estimate starting at or after its release that ends by its deadline,
//!   or rejected `no-room`.
//! - Events of one instant in the order of §6.5: job ends, node repairs,
//!   node failures, job starts, then occurrences. A waiting job starts at its
//!   planned start on its booked nodes, holds them until start + estimate,
//!   runs for its runtime and is killed at its estimate (a success, §6.3).
//! - Re-plan, at a job's end before its estimate, at every node failure and
//!   at every repair: the waiting jobs, in order of planned start (then id),
//!   each taken out of the plan and put back at its earliest window, on any
//!   nodes, that starts no later than before; else at its old booking; a job
//!   whose old booking is on a node that is down now takes its earliest
//!   window before its deadline however late, or fails (penalty).
//! - Departure from §6.5: the spec's heuristic plans with every node, up or
//!   down (it counts nodes, and picks them at start). Here a down node is
//!   given to no job from its failure until its repair (which no plan
//!   foresees): nodes are chosen in the plan, so the plan must not choose a
//!   node that cannot run the job.
//! - Node failure: the jobs running on it are stopped (the run kept in
//!   [`Decision::stopped`]) and re-placed at once for their whole estimate
//!   before their deadline (§6.5, heuristic planning), in job order, before
//!   the re-plan; a job with no such window fails.
//! - Every job that succeeds ends by its deadline.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use slasim_core::units::Time;
use slasim_machine::Machine;

use super::{Decision, Event, MachineJob, admit, undecided};
use crate::cluster::strategy::Outcome;
use crate::plan::machine_plan::{MachinePlan, Placement, TooManyCards};
use crate::plan::node_choice::NodeChoice;
use crate::workload::failures::FailureStream;

/// Where a job stands.
#[derive(Debug, Clone)]
enum State {
    /// Not accepted (or rejected).
    Out,
    /// Booked on `placement` until its start + estimate.
    Waiting(Placement),
    /// Running on `placement` since its start.
    Running(Placement),
    /// Ended, or failed.
    Done,
}

/// Heuristic planning as it runs (module contract).
struct Run<'a> {
    machine: Arc<Machine>,
    jobs: &'a [MachineJob],
    choice: &'a dyn NodeChoice,
    plan: MachinePlan,
    events: BinaryHeap<Reverse<(Time, Event)>>,
    state: Vec<State>,
    epoch: Vec<u32>,
    decisions: Vec<Decision>,
    /// Scratch: the waiting jobs of a re-plan.
    order: Vec<(Time, u32)>,
}

/// Plans `jobs` on `machine` by heuristic planning with `choice`, under the
/// node failures of `failures` (module contract); one decision per job, in
/// the order given.
pub fn heuristic_planning(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
) -> Result<Vec<Decision>, TooManyCards> {
    let mut run = Run {
        plan: MachinePlan::new(machine.clone())?,
        events: super::events_of(&machine, jobs, failures),
        state: vec![State::Out; jobs.len()],
        epoch: vec![0; jobs.len()],
        decisions: undecided(jobs),
        order: Vec::new(),
        machine,
        jobs,
        choice,
    };
    while let Some(Reverse((now, event))) = run.events.pop() {
        match event {
            Event::Occur(i) => run.occur(i, now),
            Event::Start(i, epoch) => run.start(i, epoch, now),
            Event::End(i, epoch) => run.end(i, epoch, now),
            Event::Fail(n) => run.node_failed(n, now),
            Event::Repair(n) => run.node_repaired(n, now),
            Event::GiveUp(..) => {}
        }
    }
    Ok(run.decisions)
}

impl Run<'_> {
    /// The latest start of job `i` that ends by its deadline.
    fn latest(&self, i: u32) -> Time {
        self.jobs[i as usize].job.latest_start()
    }

    /// Job `i`'s earliest window from `from`, starting by `latest`.
    fn earliest(&mut self, i: u32, from: Time, latest: Time) -> Option<Placement> {
        let MachineJob { job, request } = &self.jobs[i as usize];
        if latest < from {
            return None;
        }
        self.plan.earliest(request, from, job.estimate, latest, self.choice)
    }

    /// Books job `i` waiting on `placement`, starting then.
    fn wait_on(&mut self, i: u32, placement: Placement) {
        let MachineJob { job, request } = &self.jobs[i as usize];
        self.plan.book(i, request, &placement, placement.start + job.estimate);
        self.epoch[i as usize] += 1;
        self.events.push(Reverse((placement.start, Event::Start(i, self.epoch[i as usize]))));
        self.state[i as usize] = State::Waiting(placement);
    }

    fn occur(&mut self, i: u32, now: Time) {
        match admit(&mut self.plan, &self.machine, &self.jobs[i as usize], now, self.choice) {
            Ok(placement) => self.wait_on(i, placement),
            Err((reason, unfit)) => {
                let d = &mut self.decisions[i as usize];
                d.reason = Some(reason);
                d.unfit = unfit;
            }
        }
    }

    fn start(&mut self, i: u32, epoch: u32, now: Time) {
        if self.epoch[i as usize] != epoch {
            return;
        }
        let State::Waiting(placement) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
            return;
        };
        let job = &self.jobs[i as usize].job;
        self.events.push(Reverse((now + job.runtime.min(job.estimate), Event::End(i, epoch))));
        self.state[i as usize] = State::Running(placement);
    }

    fn end(&mut self, i: u32, epoch: u32, now: Time) {
        if self.epoch[i as usize] != epoch {
            return;
        }
        let State::Running(placement) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
            return;
        };
        let MachineJob { job, .. } = &self.jobs[i as usize];
        let early = now < placement.start + job.estimate;
        self.plan.unbook(i, placement.nodes.iter().map(|&(n, _)| n));
        let d = &mut self.decisions[i as usize];
        d.end = Some(now);
        d.outcome = Outcome::Success;
        d.money = job.fee;
        d.placement = Some(placement);
        if early {
            self.replan(now);
        }
    }

    fn node_failed(&mut self, n: u32, now: Time) {
        self.plan.set_down(n, true);
        // Its running jobs, from its slots (booked under their index).
        let state = &self.state;
        let mut stopped: Vec<u32> = self
            .plan
            .slots(n)
            .iter()
            .map(|s| s.job)
            .filter(|&i| matches!(state[i as usize], State::Running(_)))
            .collect();
        stopped.sort_unstable();
        stopped.dedup();
        for i in stopped {
            let State::Running(placement) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
                continue;
            };
            self.epoch[i as usize] += 1;
            self.plan.unbook(i, placement.nodes.iter().map(|&(m, _)| m));
            self.decisions[i as usize].stopped.push((placement, now));
            match self.earliest(i, now, self.latest(i)) {
                Some(placement) => self.wait_on(i, placement),
                None => self.fail(i),
            }
        }
        self.replan(now);
    }

    fn node_repaired(&mut self, n: u32, now: Time) {
        self.plan.set_down(n, false);
        self.replan(now);
    }

    /// Re-plans the waiting jobs (module contract).
    fn replan(&mut self, now: Time) {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        for (i, state) in self.state.iter().enumerate() {
            if let State::Waiting(p) = state {
                order.push((p.start, i as u32));
            }
        }
        order.sort_unstable();
        for &(old_start, i) in &order {
            let State::Waiting(old) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
                continue;
            };
            let MachineJob { job, request } = &self.jobs[i as usize];
            self.plan.unbook(i, old.nodes.iter().map(|&(n, _)| n));
            let from = job.release.max(now);
            let on_down = old.nodes.iter().any(|&(n, _)| self.plan.is_down(n));
            let latest = if on_down { self.latest(i) } else { old_start };
            match self.earliest(i, from, latest) {
                Some(placement) if placement == old => {
                    self.plan.book(i, request, &old, old.start + job.estimate);
                    self.state[i as usize] = State::Waiting(old);
                }
                Some(placement) => self.wait_on(i, placement),
                // Its old booking still holds: the jobs re-placed before it
                // were put back around it.
                None if !on_down => {
                    self.plan.book(i, request, &old, old.start + job.estimate);
                    self.state[i as usize] = State::Waiting(old);
                }
                None => self.fail(i),
            }
        }
        self.order = order;
    }

    /// Job `i` failed: it pays its penalty.
    fn fail(&mut self, i: u32) {
        self.state[i as usize] = State::Done;
        self.epoch[i as usize] += 1;
        let d = &mut self.decisions[i as usize];
        d.outcome = Outcome::Failed;
        d.money = -self.jobs[i as usize].job.penalty;
        d.placement = d.stopped.last().map(|(p, _)| p.clone());
    }
}
