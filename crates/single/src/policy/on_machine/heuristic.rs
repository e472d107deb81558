//! Heuristic planning and heuristic overbooking on a machine of unlike
//! nodes: a job is accepted with a window that ends by its deadline, and its
//! nodes are chosen anew at every re-plan until it starts.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.1 ("Heuristic
//! planning": nodes selected at start, full estimate, the plan re-planned at
//! every job end; "the job is accepted only with its planned start and end
//! time"; "Heuristic overbooking": heuristic planning with overbooked
//! placements), §5.4 (best fit: a full window first, else the first
//! overbooked window that passes the test), §6.5 (re-planning rule, disabled
//! jobs re-placed at once, with a new test when overbooked), §6.3 (outcome
//! rules). The spec counts identical nodes; on unlike nodes the plan books
//! each waiting job on the nodes its [`NodeChoice`] prefers (a
//! [`MachinePlan`]), and a re-plan may give it others.
//!
//! Contract:
//! - Occurrence: a job no node set can ever hold is rejected `too-wide`
//!   with its reason; else it is booked at its earliest window of its whole
//!   estimate starting at or after its release that ends by its deadline.
//!   Else, under heuristic overbooking, it is booked with an *allotment*
//!   shorter than its estimate: at the first start, in time order, whose
//!   longest window before its deadline that enough nodes hold
//!   ([`MachinePlan::first_overbooked`]) passes the acceptance test on its
//!   heuristic PoS ([`super::overbooking`]); the allotment is that window.
//!   Else it is rejected `no-room`.
//! - Events of one instant in the order of §6.5: job ends, node repairs,
//!   node failures, job starts, then occurrences. A waiting job starts at its
//!   planned start on its booked nodes and holds them until start +
//!   allotment. It runs for its runtime: it succeeds if that ends within
//!   its allotment, or if its allotment is its whole estimate (killed at the
//!   estimate: a success, §6.3); an overbooked job still running at the end
//!   of its allotment is killed and fails (penalty).
//! - Re-plan, at a job's end before its allotment, at every node failure
//!   and at every repair: the waiting jobs, in order of planned start (then
//!   id), each taken out of the plan and put back, on any nodes, at its
//!   earliest window of its whole estimate that starts no later than before
//!   and ends by its deadline (an overbooked job so regains its estimate);
//!   else at its earliest window of its allotment that starts no later than
//!   before; else at its old booking. A job whose old booking is on a node
//!   that is down now is placed as at its occurrence, from now, or fails
//!   (penalty).
//! - Departure from §6.5: the spec's heuristic plans with every node, up or
//!   down (it counts nodes, and picks them at start). Here a down node is
//!   given to no job from its failure until its repair (which no plan
//!   foresees): nodes are chosen in the plan, so the plan must not choose a
//!   node that cannot run the job.
//! - Node failure: the jobs running on it are stopped (the run kept in
//!   [`Decision::stopped`]) and placed again at once as at their occurrence,
//!   from now (§6.5; an overbooked window passes a new test), in job order,
//!   before the re-plan; a job with no such window fails.
//! - Reservations ([`super::reservations`]) are booked at exactly their
//!   window, or rejected, never overbooked; a re-plan keeps their window and
//!   may give them other nodes.
//! - Every job that succeeds ends by its deadline.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use slasim_core::units::Time;
use slasim_machine::Machine;

use super::overbooking::MachineOverbooking;
use super::reservations::{Lifting, Reservations};
use super::{Decision, Event, MachineJob, Setting, admit, undecided};
use crate::cluster::strategy::{Outcome, RejectReason};
use crate::plan::machine_plan::{MachinePlan, Placement, TooManyCards};
use crate::plan::node_choice::NodeChoice;
use crate::workload::failures::FailureStream;

/// Where a job stands; a booking carries its allotment.
#[derive(Debug, Clone)]
enum State {
    /// Not accepted (or rejected).
    Out,
    /// Booked on `placement` until its start + allotment.
    Waiting(Placement, Time),
    /// Running on `placement` since its start, until its start + allotment.
    Running(Placement, Time),
    /// Ended, or failed.
    Done,
}

/// Heuristic planning or overbooking as it runs (module contract).
struct Run<'a> {
    jobs: &'a [MachineJob],
    choice: &'a dyn NodeChoice,
    /// Overbooking's acceptance (none: heuristic planning).
    overbooking: Option<&'a MachineOverbooking>,
    plan: MachinePlan,
    events: BinaryHeap<Reverse<(Time, Event)>>,
    state: Vec<State>,
    epoch: Vec<u32>,
    decisions: Vec<Decision>,
    /// Scratch: the waiting jobs of a re-plan.
    order: Vec<(Time, u32)>,
    reservations: Reservations,
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
    let setting = Setting { choice, failures, overbooking: None, reservations: Default::default() };
    run(machine, jobs, &setting, None)
}

/// Plans `jobs` on `machine` by heuristic overbooking with `choice` and the
/// acceptance of `overbooking`, under the node failures of `failures`
/// (module contract); one decision per job, in the order given.
pub fn heuristic_overbooking(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
    overbooking: &MachineOverbooking,
) -> Result<Vec<Decision>, TooManyCards> {
    let setting = Setting { choice, failures, overbooking: None, reservations: Default::default() };
    run(machine, jobs, &setting, Some(overbooking))
}

/// Heuristic planning under `setting`, or heuristic overbooking with the
/// acceptance of `overbooking` (module contract).
pub(super) fn run<'a>(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    setting: &Setting<'a>,
    overbooking: Option<&'a MachineOverbooking>,
) -> Result<Vec<Decision>, TooManyCards> {
    let mut run = Run {
        plan: MachinePlan::new(machine.clone())?,
        events: super::events_of(&machine, jobs, setting.failures),
        state: vec![State::Out; jobs.len()],
        epoch: vec![0; jobs.len()],
        decisions: undecided(jobs),
        order: Vec::new(),
        reservations: Reservations::new(setting.reservations, jobs.len()),
        jobs,
        choice: setting.choice,
        overbooking,
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
    run.reservations.record(&mut run.decisions);
    Ok(run.decisions)
}

impl Run<'_> {
    /// The latest start of job `i` that ends by its deadline.
    fn latest(&self, i: u32) -> Time {
        self.jobs[i as usize].job.latest_start()
    }

    /// Job `i`'s earliest window of `length` from `from`, starting by `latest`.
    fn earliest(&mut self, i: u32, from: Time, length: Time, latest: Time) -> Option<Placement> {
        let request = &self.jobs[i as usize].request;
        if latest < from {
            return None;
        }
        self.plan.earliest(request, from, length, latest, self.choice)
    }

    /// Job `i`'s first overbooked window from `from` that passes the test,
    /// with its allotment; none without overbooking.
    fn overbooked(&mut self, i: u32, from: Time) -> Option<(Placement, Time)> {
        let ob = self.overbooking?;
        let MachineJob { job, request } = &self.jobs[i as usize];
        if job.reservation {
            return None;
        }
        let shortest = ob.shortest(job, request.nodes)?;
        let from = from.max(job.release);
        if job.deadline <= from {
            return None;
        }
        let accept = |_, l: Time| l >= job.estimate || ob.passes(job, request.nodes, l);
        let window = (from, job.deadline);
        self.plan.first_overbooked(request, window, shortest, job.estimate, self.choice, accept, |_, _, _| true)
    }

    /// Job `i` placed as at its occurrence, from `from`: its earliest full
    /// window before its deadline, else its first overbooked window.
    fn place(&mut self, i: u32, from: Time) -> Option<(Placement, Time)> {
        let job = &self.jobs[i as usize].job;
        let (estimate, from) = (job.estimate, from.max(job.release));
        match self.earliest(i, from, estimate, self.latest(i)) {
            Some(placement) => Some((placement, estimate)),
            None => self.overbooked(i, from),
        }
    }

    /// Books job `i` waiting on `placement` for `allotment`, starting then.
    fn wait_on(&mut self, i: u32, placement: Placement, allotment: Time) {
        let request = &self.jobs[i as usize].request;
        self.plan.book(i, request, &placement, placement.start + allotment);
        self.waits_on(i, placement, allotment);
    }

    /// Job `i` waits on `placement` (booked) for `allotment`, starting then.
    fn waits_on(&mut self, i: u32, placement: Placement, allotment: Time) {
        self.epoch[i as usize] += 1;
        self.events.push(Reverse((placement.start, Event::Start(i, self.epoch[i as usize]))));
        self.state[i as usize] = State::Waiting(placement, allotment);
    }

    fn occur(&mut self, i: u32, now: Time) {
        let jobs = self.jobs;
        if jobs[i as usize].job.reservation {
            match self.admit_reservation(jobs, i, now) {
                Ok(placement) => self.wait_on(i, placement, jobs[i as usize].job.estimate),
                Err((reason, unfit)) => {
                    let d = &mut self.decisions[i as usize];
                    d.reason = Some(reason);
                    d.unfit = unfit;
                }
            }
            return;
        }
        let found = match admit(&mut self.plan, &self.jobs[i as usize], now, self.choice) {
            Ok(placement) => Ok((placement, self.jobs[i as usize].job.estimate)),
            Err((RejectReason::NoRoom, _)) if self.overbooking.is_some() => {
                self.overbooked(i, now).ok_or((RejectReason::NoRoom, None))
            }
            Err(why) => Err(why),
        };
        match found {
            Ok((placement, allotment)) => self.wait_on(i, placement, allotment),
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
        let State::Waiting(placement, allotment) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
            return;
        };
        let job = &self.jobs[i as usize].job;
        self.events.push(Reverse((now + job.runtime.min(allotment), Event::End(i, epoch))));
        self.state[i as usize] = State::Running(placement, allotment);
    }

    fn end(&mut self, i: u32, epoch: u32, now: Time) {
        if self.epoch[i as usize] != epoch {
            return;
        }
        let State::Running(placement, allotment) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
            return;
        };
        let MachineJob { job, .. } = &self.jobs[i as usize];
        let early = now < placement.start + allotment;
        // Killed at the end of an allotment shorter than its estimate (§6.3).
        let killed = job.runtime > allotment && allotment < job.estimate;
        self.plan.unbook(i, placement.nodes.iter().map(|&(n, _)| n));
        let d = &mut self.decisions[i as usize];
        d.end = Some(now);
        (d.outcome, d.money) = if killed { (Outcome::Failed, -job.penalty) } else { (Outcome::Success, job.fee) };
        d.allotment = (allotment < job.estimate).then_some(allotment);
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
            .filter(|&i| matches!(state[i as usize], State::Running(..)))
            .collect();
        stopped.sort_unstable();
        stopped.dedup();
        for i in stopped {
            let State::Running(placement, _) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
                continue;
            };
            self.epoch[i as usize] += 1;
            self.plan.unbook(i, placement.nodes.iter().map(|&(m, _)| m));
            self.decisions[i as usize].stopped.push((placement, now));
            match self.place(i, now) {
                Some((placement, allotment)) => self.wait_on(i, placement, allotment),
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
            if let State::Waiting(p, _) = state {
                order.push((p.start, i as u32));
            }
        }
        order.sort_unstable();
        for &(old_start, i) in &order {
            let State::Waiting(old, allotment) = std::mem::replace(&mut self.state[i as usize], State::Done) else {
                continue;
            };
            let MachineJob { job, request } = &self.jobs[i as usize];
            let (estimate, from) = (job.estimate, job.release.max(now));
            self.plan.unbook(i, old.nodes.iter().map(|&(n, _)| n));
            let found = if old.nodes.iter().any(|&(n, _)| self.plan.is_down(n)) {
                match self.place(i, now) {
                    Some(found) => found,
                    None => {
                        self.fail(i);
                        continue;
                    }
                }
            } else {
                let full = self.earliest(i, from, estimate, old_start.min(self.latest(i))).map(|p| (p, estimate));
                let kept = || (old.clone(), allotment);
                match full {
                    Some(found) => found,
                    None if allotment < estimate => {
                        self.earliest(i, from, allotment, old_start).map(|p| (p, allotment)).unwrap_or_else(kept)
                    }
                    // Its old booking still holds: the jobs re-placed before
                    // it were put back around it.
                    None => kept(),
                }
            };
            if found.0 == old && found.1 == allotment {
                self.plan.book(i, request, &old, old.start + allotment);
                self.state[i as usize] = State::Waiting(old, allotment);
            } else {
                self.wait_on(i, found.0, found.1);
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

impl Lifting for Run<'_> {
    fn plan(&mut self) -> (&mut MachinePlan, &dyn NodeChoice) {
        (&mut self.plan, self.choice)
    }

    fn reservations(&mut self) -> &mut Reservations {
        &mut self.reservations
    }

    fn liftable(&self, i: u32, _now: Time) -> Option<(Placement, Time)> {
        match &self.state[i as usize] {
            State::Waiting(p, allotment) => Some((p.clone(), *allotment)),
            _ => None,
        }
    }

    fn put_back(&mut self, i: u32, placement: Placement, length: Time, _now: Time) {
        self.waits_on(i, placement, length);
    }
}
