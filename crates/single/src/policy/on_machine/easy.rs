//! EASY backfilling on a machine of unlike nodes, with node failures: the
//! baseline without SLA admission the planners of [`super`] are measured
//! against.
//!
//! Reference: Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995 (EASY);
//! Mu'alem & Feitelson, "Utilization, predictability, workloads, and user
//! runtime estimates in scheduling the IBM SP2 with backfilling", IEEE TPDS
//! 12(6), 2001, §2 (the head's reservation: shadow time and extra nodes);
//! `overbooking-dissertation-spec.md` §6.3 (outcome rules).
//!
//! Contract:
//! - No admission by deadline: every job is queued but one no node set can
//!   ever hold ([`Machine::check`]), rejected `too-wide` with its reason
//!   ([`Decision::unfit`]).
//! - The queue is in order of (occurrence, id); a job joins it at the later
//!   of its occurrence and release.
//! - Events at one instant: job ends, node repairs, node failures,
//!   submissions; then one scheduling pass. No clock, no randomness.
//! - A pass starts queued jobs in order while the first fits now for its
//!   estimate. The first that does not (the head) gets a reservation at its
//!   earliest start, on the nodes the [`NodeChoice`] prefers then; every
//!   later job that fits now beside it starts. So no backfilled job delays
//!   the head: EASY's shadow time and extra nodes, per node and resource
//!   through the [`MachinePlan`]. A head that no up nodes can hold waits
//!   without a reservation; the reservation lasts one pass. Within a pass,
//!   a job asking what an earlier one asked, for as long or longer, is not
//!   searched for once that one found no room (the pass only adds
//!   bookings): the same jobs start as if each were tried.
//! - A started job holds its nodes' share for its estimate, runs for its
//!   runtime, is killed at its estimate, and frees its share at its end.
//! - A failed node is down until its repair, which no pass foresees; nothing
//!   runs on it. Its running jobs are stopped, each run kept in
//!   [`Decision::stopped`], and requeued at their place; they restart from
//!   scratch.
//! - A job that ends by its deadline succeeds and earns its fee; one that
//!   ends after it fails (late) and pays its penalty, as does one still
//!   queued when no event is left (it can never start: no placement, no
//!   end). [`Decision::placement`] and [`Decision::end`] are its last run's.
//! - The horizon is [`NO_DEADLINE`]: nothing starts and no node event
//!   happens after it (a job eligible later never starts).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

use slasim_core::units::{JobId, Time};
use slasim_machine::{Machine, Request, Unfit};

use super::{Decision, MachineJob};
use crate::cluster::strategy::{Outcome, RejectReason};
use crate::plan::machine_plan::{MachinePlan, MostFree, Placement, TooManyCards};
use crate::plan::node_choice::NodeChoice;
use crate::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use crate::workload::job::{Job, NO_DEADLINE};

/// Nothing starts and no node event happens after it (module contract).
const HORIZON: Time = NO_DEADLINE;
/// The latest start a head's reservation is searched to: past every start
/// and slot end a run can have (starts ≤ [`HORIZON`], holds ≤ [`HORIZON`]).
const LATEST: Time = Time::MAX / 2;

/// How long a started job holds its share: its estimate, at least a second.
fn hold(job: &Job) -> Time {
    job.estimate.clamp(1, HORIZON)
}

/// How long a started job runs: its runtime, killed at its estimate.
fn run(job: &Job) -> Time {
    job.runtime.min(job.estimate).clamp(0, HORIZON)
}

/// One job's state.
#[derive(Debug, Default)]
struct State {
    /// Its current (or last) run's placement.
    placement: Option<Placement>,
    /// Its last run's end, once it ended.
    end: Option<Time>,
    /// Whether it runs now.
    running: bool,
    /// Its runs a failure stopped.
    stopped: Vec<(Placement, Time)>,
}

/// The running simulation: the plan, the queue and every job's state.
struct Easy<'a> {
    jobs: &'a [MachineJob],
    plan: MachinePlan,
    state: Vec<State>,
    /// Waiting jobs' indices, in order of (occurrence, id, index).
    queue: Vec<usize>,
    /// Run ends: (end, job index, its run's number), the earliest first.
    ends: BinaryHeap<Reverse<(Time, usize, usize)>>,
    /// Scratch: the jobs a failure stops.
    stopping: Vec<usize>,
    /// Scratch of a pass: per request, the shortest hold that found no room
    /// now ([`Easy::pass`]).
    no_room: HashMap<&'a Request, Time>,
}

impl<'a> Easy<'a> {
    /// Puts job `i` in the queue at its place.
    fn enqueue(&mut self, i: usize) {
        let jobs = self.jobs;
        let key = |k: usize| (jobs[k].job.occurrence, jobs[k].job.id, k);
        let at = self.queue.partition_point(|&k| key(k) < key(i));
        self.queue.insert(at, i);
    }

    /// Frees job `i`'s share on its run's nodes.
    fn unbook(&mut self, i: usize) {
        if let Some(p) = &self.state[i].placement {
            self.plan.unbook(i as JobId, p.nodes.iter().map(|&(n, _)| n));
        }
    }

    /// The run ends at `now` of every job whose run ends then.
    fn end_runs(&mut self, now: Time) -> bool {
        let mut ended = false;
        while let Some(&Reverse((t, i, attempt))) = self.ends.peek()
            && t == now
        {
            self.ends.pop();
            let s = &self.state[i];
            // A stopped run's end is stale.
            if !s.running || s.stopped.len() != attempt {
                continue;
            }
            self.unbook(i);
            let s = &mut self.state[i];
            s.running = false;
            s.end = Some(now);
            ended = true;
        }
        ended
    }

    /// Node `n` fails at `now`: its running jobs are stopped and requeued.
    fn fail(&mut self, n: u32, now: Time) {
        let mut stopping = std::mem::take(&mut self.stopping);
        stopping.clear();
        let state = &self.state;
        stopping.extend(
            self.plan.slots(n).iter().map(|s| s.job as usize).filter(|&i| state.get(i).is_some_and(|s| s.running)),
        );
        stopping.sort_unstable();
        stopping.dedup();
        for &i in &stopping {
            self.unbook(i);
            let s = &mut self.state[i];
            s.running = false;
            if let Some(p) = s.placement.take() {
                s.stopped.push((p, now));
            }
            self.enqueue(i);
        }
        self.stopping = stopping;
        self.plan.set_down(n, true);
    }

    /// Starts job `i` at `now` if it fits then for its estimate.
    fn start(&mut self, i: usize, now: Time, choice: &dyn NodeChoice) -> bool {
        let jobs = self.jobs;
        let MachineJob { job, request } = &jobs[i];
        let hold = hold(job);
        let Some(placement) = self.plan.earliest(request, now, hold, now, choice) else {
            return false;
        };
        let run = run(job);
        let s = &mut self.state[i];
        if run == 0 {
            // Ends as it starts, holding nothing.
            s.end = Some(now);
        } else {
            self.plan.book(i as JobId, request, &placement, now + hold);
            self.ends.push(Reverse((now + run, i, s.stopped.len())));
            s.running = true;
        }
        s.placement = Some(placement);
        true
    }

    /// The scheduling pass at `now` (module contract). With `only`, the
    /// jobs that joined the queue now are the only ones tried: nothing
    /// freed anything since the last pass and the head is the same, so every
    /// other job still cannot start (the head's reservation is the same).
    fn pass(&mut self, now: Time, choice: &dyn NodeChoice, only: Option<&[usize]>) {
        self.plan.forget_before(now);
        let mut started = 0;
        while only.is_none()
            && let Some(&i) = self.queue.get(started)
            && self.start(i, now, choice)
        {
            started += 1;
        }
        self.queue.drain(..started);
        let Some(&head) = self.queue.first() else {
            return;
        };
        let jobs = self.jobs;
        let MachineJob { job, request } = &jobs[head];
        let head_hold = hold(job);
        let reservation = self.plan.earliest(request, now, head_hold, LATEST, choice);
        if let Some(r) = &reservation {
            self.plan.book(head as JobId, request, r, r.start + head_hold);
        }
        // What the fullest-free node has now: a job above it in any resource
        // cannot start, and is not searched for.
        let mut most: Option<MostFree> = None;
        // Per request, the shortest hold that found no room now. A pass only
        // adds bookings, so the same request for as long or longer finds none
        // either, and is not searched for.
        let mut no_room = std::mem::take(&mut self.no_room);
        no_room.clear();
        let mut kept = 1;
        for k in 1..self.queue.len() {
            let i = self.queue[k];
            let MachineJob { job, request } = &jobs[i];
            let tried = only.is_none_or(|fresh| fresh.contains(&i))
                && no_room.get(request).is_none_or(|&h| hold(job) < h)
                && most.get_or_insert_with(|| self.plan.most_free(now)).may_hold(request);
            if !tried || !self.start(i, now, choice) {
                if tried {
                    let h = no_room.entry(request).or_insert(Time::MAX);
                    *h = (*h).min(hold(job));
                }
                self.queue[kept] = i;
                kept += 1;
            }
        }
        self.no_room = no_room;
        self.queue.truncate(kept);
        if let Some(r) = reservation {
            self.plan.unbook(head as JobId, r.nodes.iter().map(|&(n, _)| n));
        }
    }
}

/// Schedules `jobs` on `machine` by EASY backfilling with `choice`, under
/// the node `failures` (module contract); one decision per job, in the
/// order given.
pub fn easy_backfilling(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
) -> Result<Vec<Decision>, TooManyCards> {
    let plan = MachinePlan::new(machine.clone())?;
    let unfit: Vec<Option<Unfit>> = jobs.iter().map(|j| machine.check(&j.request).err()).collect();
    // Submissions: (the instant a job joins the queue, its index).
    let mut arrivals: Vec<(Time, usize)> = (0..jobs.len())
        .filter(|&i| unfit[i].is_none())
        .map(|i| (jobs[i].job.occurrence.max(jobs[i].job.release), i))
        .filter(|&(t, _)| t <= HORIZON)
        .collect();
    arrivals.sort_unstable();
    let mut events: Vec<NodeEvent> =
        failures.events.iter().filter(|e| (e.node as usize) < machine.len() && e.time <= HORIZON).copied().collect();
    events.sort_unstable();
    let mut down = vec![false; machine.len()];
    let mut easy = Easy {
        jobs,
        plan,
        state: (0..jobs.len()).map(|_| State::default()).collect(),
        queue: Vec::new(),
        ends: BinaryHeap::new(),
        stopping: Vec::new(),
        no_room: HashMap::new(),
    };
    let (mut next_arrival, mut next_event) = (0, 0);
    let mut fresh: Vec<usize> = Vec::new();
    loop {
        let now = [
            easy.ends.peek().map(|Reverse((t, _, _))| *t),
            events.get(next_event).map(|e| e.time),
            arrivals.get(next_arrival).map(|a| a.0),
        ]
        .into_iter()
        .flatten()
        .min();
        let Some(now) = now else {
            break;
        };
        let mut changed = easy.end_runs(now);
        // Repairs before failures (the events' order).
        while let Some(e) = events.get(next_event)
            && e.time == now
        {
            next_event += 1;
            let n = e.node;
            let is_down = &mut down[n as usize];
            match e.kind {
                NodeEventKind::Repair if *is_down => {
                    *is_down = false;
                    easy.plan.set_down(n, false);
                    changed = true;
                }
                NodeEventKind::Fail if !*is_down => {
                    *is_down = true;
                    easy.fail(n, now);
                    changed = true;
                }
                _ => {}
            }
        }
        let head = easy.queue.first().copied();
        fresh.clear();
        while let Some(&(t, i)) = arrivals.get(next_arrival)
            && t == now
        {
            next_arrival += 1;
            easy.enqueue(i);
            fresh.push(i);
        }
        if now <= HORIZON {
            let same = !changed && head.is_some() && easy.queue.first().copied() == head;
            easy.pass(now, choice, same.then_some(&fresh[..]));
        }
    }
    let decisions = jobs
        .iter()
        .zip(easy.state)
        .zip(unfit)
        .map(|((MachineJob { job, .. }, s), unfit)| {
            let (outcome, reason, money) = match (&unfit, s.end) {
                (Some(_), _) => (Outcome::Rejected, Some(RejectReason::TooWide), 0.0),
                (None, Some(end)) if job.deadline >= NO_DEADLINE || end <= job.deadline => {
                    (Outcome::Success, None, job.fee)
                }
                (None, _) => (Outcome::Failed, None, -job.penalty),
            };
            let ran = s.end.is_some();
            Decision {
                job: job.id,
                placement: if ran { s.placement } else { None },
                end: s.end,
                outcome,
                reason,
                unfit,
                money,
                stopped: s.stopped,
                allotment: None,
                moves: 0,
                pinned: false,
            }
        })
        .collect();
    Ok(decisions)
}
