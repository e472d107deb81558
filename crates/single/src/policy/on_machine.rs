//! Strategies on a machine of unlike nodes, registered by name
//! ([`MachineStrategies`]): conservative backfilling (here), which books each
//! job on specific nodes, in every resource, at its acceptance; heuristic
//! planning and heuristic overbooking ([`heuristic`]), which promise a
//! window and choose nodes until the start, the latter also in windows
//! shorter than the estimate that pass an acceptance test ([`overbooking`]);
//! comprehensive overbooking ([`comprehensive`]), which fixes nodes at
//! acceptance, starts jobs early and takes shorter windows on their
//! comprehensive PoS; and EASY backfilling ([`easy`]), the baseline without SLA admission. All
//! run under node failures; all but EASY take paper B's fixed reservations
//! ([`reservations`]).
//!
//! The contract below is conservative backfilling's.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.1 ("Comprehensive
//! planning": nodes fixed at acceptance, held for the full estimate) and §6.3
//! (outcome rules), on the machine model of `slasim_machine` and the
//! [`MachinePlan`].
//!
//! Contract:
//! - Jobs are taken in occurrence order (then id). A job no node set can
//!   ever hold ([`Machine::check`]) is rejected `too-wide`, its reason kept
//!   ([`Decision::unfit`]).
//! - Else it is booked at its earliest window of its whole estimate that
//!   starts at or after its release and ends by its deadline, on the nodes
//!   the [`NodeChoice`] prefers; without one it is rejected `no-room`.
//! - A booking holds its nodes' share for the full estimate, whatever the
//!   job's real runtime; the job runs from its start for its runtime, and is
//!   killed at its estimate (a success: it received its estimate, §6.3).
//! - Events of one instant in the order of §6.5: job ends, node repairs,
//!   node failures, job starts, then occurrences. The plan does not read
//!   node states: a booking may start on a node that is down.
//! - Failures (`FailureStream`, one node per machine node): a job whose
//!   start finds one of its nodes down, or one of whose nodes fails while it
//!   runs, is disabled (a run a failure stops is kept in
//!   [`Decision::stopped`]). When its nodes are all back it restarts from
//!   scratch, on its own nodes for its whole estimate (its booking moved
//!   there), if they hold it then and it still ends by its deadline, else
//!   it fails (penalty); it also fails once now + estimate passes its
//!   deadline. Disabled jobs are tried in job order. A failed job's booking
//!   leaves the plan. A job that ends its run succeeds and earns its fee.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

pub mod comprehensive;
pub mod easy;
pub mod heuristic;
pub mod overbooking;
pub mod reservations;

use slasim_core::experiment::registry::{Entries, Named};
use slasim_core::units::{JobId, Time};
use slasim_machine::{Machine, Unfit};

use self::overbooking::MachineOverbooking;
use self::reservations::{Lifting, Reservations};
use crate::cluster::strategy::{Outcome, RejectReason, ReservationHandling};
use crate::plan::machine_plan::{Cards, MachinePlan, Placement, TooManyCards};
use crate::plan::node_choice::NodeChoice;
use crate::workload::failures::{FailureStream, NodeEventKind};
pub use crate::workload::job::MachineJob;
use crate::workload::job::NO_DEADLINE;

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The job's id.
    pub job: JobId,
    /// Where and when it was booked, if accepted.
    pub placement: Option<Placement>,
    /// The end of its execution, if it ran.
    pub end: Option<Time>,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it was rejected.
    pub reason: Option<RejectReason>,
    /// For a `too-wide` rejection, what no node can hold.
    pub unfit: Option<Unfit>,
    /// The fee earned or the penalty paid (negative).
    pub money: f64,
    /// Its earlier runs a node failure stopped, each with its stop.
    pub stopped: Vec<(Placement, Time)>,
    /// The length of the booking its run ended in, when shorter than its
    /// estimate (an overbooked window); none when that booking was its whole
    /// estimate, or no run ended.
    pub allotment: Option<Time>,
    /// Times it was moved later for a reservation.
    pub moves: u32,
    /// Pinned by the starvation guard of moved jobs.
    pub pinned: bool,
}

/// What a strategy on the machine is given besides the machine and jobs.
#[derive(Clone, Copy)]
pub struct Setting<'a> {
    /// Which of the nodes that fit a job it is given.
    pub choice: &'a dyn NodeChoice,
    /// The nodes' failures and repairs.
    pub failures: &'a FailureStream,
    /// The acceptance of overbooked windows, for a strategy that overbooks.
    pub overbooking: Option<&'a MachineOverbooking>,
    /// How reservations are handled, for a strategy that takes them.
    pub reservations: ReservationHandling,
}

/// Why a strategy on the machine could not plan.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// A node has more cards than a plan holds.
    #[error(transparent)]
    TooManyCards(#[from] TooManyCards),
    /// A strategy that overbooks was given no acceptance settings.
    #[error("{0} overbooks: it needs runtime statistics and an acceptance test")]
    NoOverbooking(&'static str),
}

/// A planning strategy on the machine: plans `jobs` under a [`Setting`],
/// one decision per job in the order given.
pub type PlanOnMachine = fn(Arc<Machine>, &[MachineJob], &Setting<'_>) -> Result<Vec<Decision>, PlanError>;

/// What a strategy that overbooks brings to its acceptance test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overbooks {
    /// The risk test's security factor unless a config sets one (the single
    /// cluster's strategy of the same rule's).
    pub security_factor: f64,
}

/// A registered strategy on a machine of unlike nodes.
pub struct MachineStrategyInfo {
    /// Stable kebab-case name, the same as the single cluster's strategy of
    /// the same rule.
    pub name: &'static str,
    /// What it does, in one line.
    pub description: &'static str,
    /// Whether it overbooks (it then reads [`Setting::overbooking`]), and how.
    pub overbooks: Option<Overbooks>,
    /// Whether it takes paper B's fixed reservations ([`reservations`]).
    pub reserves: bool,
    /// It runs.
    pub run: PlanOnMachine,
}

impl Named for MachineStrategyInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The strategies a config can name on a machine of unlike nodes.
pub enum MachineStrategies {}

impl Entries for MachineStrategies {
    type Entry = MachineStrategyInfo;
    const WHAT: &'static str = "strategy on a machine";
    fn builtin() -> Vec<&'static MachineStrategyInfo> {
        static BUILTIN: [MachineStrategyInfo; 5] = [
            MachineStrategyInfo {
                name: "conservative-backfilling",
                description: "comprehensive (conservative) backfilling: nodes and cards fixed at acceptance, held for the full estimate",
                overbooks: None,
                reserves: true,
                run: |machine, jobs, s| Ok(conservative(machine, jobs, s.choice, s.failures, s.reservations)?),
            },
            MachineStrategyInfo {
                name: "heuristic-planning",
                description: "heuristic planning: a window promised at acceptance, nodes chosen anew at every re-plan until the start",
                overbooks: None,
                reserves: true,
                run: |machine, jobs, s| Ok(heuristic::run(machine, jobs, s, None)?),
            },
            MachineStrategyInfo {
                name: "comprehensive-overbooking",
                description: "comprehensive overbooking: nodes and cards fixed at acceptance, early starts, and windows shorter than the estimate whose comprehensive PoS passes the acceptance test",
                overbooks: Some(Overbooks { security_factor: 4.0 }),
                reserves: true,
                run: |machine, jobs, s| {
                    let ob = s.overbooking.ok_or(PlanError::NoOverbooking("comprehensive-overbooking"))?;
                    Ok(comprehensive::run(machine, jobs, s.choice, s.failures, ob, s.reservations)?)
                },
            },
            MachineStrategyInfo {
                name: "heuristic-overbooking",
                description: "heuristic overbooking: heuristic planning, and windows shorter than the estimate whose heuristic PoS passes the acceptance test",
                overbooks: Some(Overbooks { security_factor: 2.0 }),
                reserves: true,
                run: |machine, jobs, s| {
                    let ob = s.overbooking.ok_or(PlanError::NoOverbooking("heuristic-overbooking"))?;
                    Ok(heuristic::run(machine, jobs, s, Some(ob))?)
                },
            },
            MachineStrategyInfo {
                name: "easy",
                description: "EASY backfilling, the baseline without SLA admission: every job queued, the head reserved",
                overbooks: None,
                reserves: false,
                run: |machine, jobs, s| Ok(easy::easy_backfilling(machine, jobs, s.choice, s.failures)?),
            },
        ];
        BUILTIN.iter().collect()
    }
}

/// What happens at one instant, in the order of this enum (spec §6.5: job
/// end, node repair, node failure, job start, then occurrences); a job's
/// events carry its epoch, so a run a failure stopped never ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    End(u32, u32),
    Repair(u32),
    Fail(u32),
    Start(u32, u32),
    GiveUp(u32, u32),
    Occur(u32),
}

/// A job's booking while the plan runs.
#[derive(Debug, Clone)]
struct Booked {
    placement: Placement,
    /// The booking's end: start + estimate.
    end: Time,
    running: bool,
    disabled: bool,
    epoch: u32,
}

/// Conservative backfilling as it runs (module contract).
struct Run<'a> {
    jobs: &'a [MachineJob],
    choice: &'a dyn NodeChoice,
    plan: MachinePlan,
    events: BinaryHeap<Reverse<(Time, Event)>>,
    down: Vec<bool>,
    booked: Vec<Option<Booked>>,
    decisions: Vec<Decision>,
    disabled: Vec<u32>,
    reservations: Reservations,
}

/// Plans `jobs` on `machine` by conservative backfilling with `choice`,
/// under the node failures of `failures` (module contract); one decision per
/// job, in the order given. Reservations among `jobs` are rejected where
/// planned jobs are in their way.
pub fn conservative_backfilling(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
) -> Result<Vec<Decision>, TooManyCards> {
    conservative(machine, jobs, choice, failures, ReservationHandling::default())
}

/// Conservative backfilling, its reservations handled by `handling`.
fn conservative(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
    handling: ReservationHandling,
) -> Result<Vec<Decision>, TooManyCards> {
    let events = events_of(&machine, jobs, failures);
    let decisions = undecided(jobs);
    let mut run = Run {
        jobs,
        choice,
        plan: MachinePlan::new(machine.clone())?,
        events,
        down: vec![false; machine.len()],
        booked: vec![None; jobs.len()],
        decisions,
        disabled: Vec::new(),
        reservations: Reservations::new(handling, jobs.len()),
    };
    while let Some(Reverse((now, event))) = run.events.pop() {
        match event {
            Event::Occur(i) => run.occur(i, now),
            Event::Start(i, epoch) => run.start(i, epoch, now),
            Event::End(i, epoch) => run.end(i, epoch, now),
            Event::Fail(n) => run.node_failed(n, now),
            Event::Repair(n) => run.node_repaired(n, now),
            Event::GiveUp(i, epoch) => {
                if run.booked[i as usize].as_ref().is_some_and(|b| b.epoch == epoch && b.disabled) {
                    run.disabled.retain(|&r| r != i);
                    run.fail(i);
                }
            }
        }
    }
    // Jobs still disabled when nothing more happens never ran to their end.
    for i in std::mem::take(&mut run.disabled) {
        run.fail(i);
    }
    run.reservations.record(&mut run.decisions);
    Ok(run.decisions)
}

/// The occurrences of `jobs` and the node events of `failures` on
/// `machine`'s nodes.
fn events_of(machine: &Machine, jobs: &[MachineJob], failures: &FailureStream) -> BinaryHeap<Reverse<(Time, Event)>> {
    initial_events(machine, jobs, failures, [Event::Occur, Event::Fail, Event::Repair])
}

/// The occurrences of `jobs` and the node events of `failures` on
/// `machine`'s nodes, as a strategy's own events: `[occur, fail, repair]`.
fn initial_events<E: Ord>(
    machine: &Machine,
    jobs: &[MachineJob],
    failures: &FailureStream,
    [occur, fail, repair]: [fn(u32) -> E; 3],
) -> BinaryHeap<Reverse<(Time, E)>> {
    let mut events = BinaryHeap::with_capacity(jobs.len() * 2 + failures.events.len());
    for (i, j) in jobs.iter().enumerate() {
        events.push(Reverse((j.job.occurrence, occur(i as u32))));
    }
    for e in failures.events.iter().filter(|e| (e.node as usize) < machine.len()) {
        let event = match e.kind {
            NodeEventKind::Fail => fail(e.node),
            NodeEventKind::Repair => repair(e.node),
        };
        events.push(Reverse((e.time, event)));
    }
    events
}

/// A planner's answer to `job` at its occurrence `now`: its earliest window
/// of its whole estimate from its release that ends by its deadline, on the
/// nodes `choice` prefers (not booked), or why it is rejected: `too-wide`
/// with what no node of the plan's machine can hold, or `no-room`. The plan
/// forgets what ended.
fn admit(
    plan: &mut MachinePlan,
    job: &MachineJob,
    now: Time,
    choice: &dyn NodeChoice,
) -> Result<Placement, (RejectReason, Option<Unfit>)> {
    let MachineJob { job, request } = job;
    plan.forget_before(now);
    plan.machine().check(request).map_err(|unfit| (RejectReason::TooWide, Some(unfit)))?;
    let latest = job.latest_start();
    let from = job.release.max(now);
    let found = if latest < from { None } else { plan.earliest(request, from, job.estimate, latest, choice) };
    found.ok_or((RejectReason::NoRoom, None))
}

/// A decision per job, none made yet: rejected, for no reason so far.
fn undecided(jobs: &[MachineJob]) -> Vec<Decision> {
    jobs.iter()
        .map(|j| Decision {
            job: j.job.id,
            placement: None,
            end: None,
            outcome: Outcome::Rejected,
            reason: None,
            unfit: None,
            money: 0.0,
            stopped: Vec::new(),
            allotment: None,
            moves: 0,
            pinned: false,
        })
        .collect()
}

impl Run<'_> {
    fn occur(&mut self, i: u32, now: Time) {
        let jobs = self.jobs;
        let MachineJob { job, request } = &jobs[i as usize];
        let found = if job.reservation {
            self.admit_reservation(jobs, i, now)
        } else {
            admit(&mut self.plan, &jobs[i as usize], now, self.choice)
        };
        match found {
            Err((reason, unfit)) => {
                let d = &mut self.decisions[i as usize];
                d.reason = Some(reason);
                d.unfit = unfit;
            }
            Ok(placement) => {
                let end = placement.start + job.estimate;
                self.plan.book(i, request, &placement, end);
                self.events.push(Reverse((placement.start, Event::Start(i, 0))));
                self.booked[i as usize] = Some(Booked { placement, end, running: false, disabled: false, epoch: 0 });
            }
        }
    }

    fn start(&mut self, i: u32, epoch: u32, now: Time) {
        let Some(b) = self.booked[i as usize].as_mut().filter(|b| b.epoch == epoch && !b.disabled && !b.running) else {
            return;
        };
        if b.placement.nodes.iter().all(|&(n, _)| !self.down[n as usize]) {
            b.running = true;
            let job = &self.jobs[i as usize].job;
            self.events.push(Reverse((now + job.runtime.min(job.estimate), Event::End(i, epoch))));
        } else {
            self.disable(i, now);
        }
    }

    fn end(&mut self, i: u32, epoch: u32, now: Time) {
        let Some(b) = self.booked[i as usize].as_mut().filter(|b| b.epoch == epoch && b.running) else {
            return;
        };
        b.running = false;
        let d = &mut self.decisions[i as usize];
        d.placement = Some(b.placement.clone());
        d.end = Some(now);
        d.outcome = Outcome::Success;
        d.money = self.jobs[i as usize].job.fee;
    }

    /// Node `n` fails: the jobs running on it stop and are disabled.
    fn node_failed(&mut self, n: u32, now: Time) {
        self.down[n as usize] = true;
        // Its running jobs: those of its slots that run (a slot is booked
        // under its job's index).
        let booked = &self.booked;
        let mut hit: Vec<u32> = self
            .plan
            .slots(n)
            .iter()
            .map(|s| s.job)
            .filter(|&i| booked[i as usize].as_ref().is_some_and(|b| b.running))
            .collect();
        hit.sort_unstable();
        hit.dedup();
        for i in hit {
            if let Some(b) = self.booked[i as usize].as_mut() {
                b.running = false;
                b.epoch += 1;
                self.decisions[i as usize].stopped.push((b.placement.clone(), now));
            }
            self.disable(i, now);
        }
    }

    /// Node `n` is back: its disabled jobs whose nodes are all up, in job
    /// order, each restart or fail (spec §6.5).
    fn node_repaired(&mut self, n: u32, now: Time) {
        self.down[n as usize] = false;
        let mut back: Vec<u32> = self
            .disabled
            .iter()
            .copied()
            .filter(|&i| {
                self.booked[i as usize].as_ref().is_some_and(|b| {
                    b.placement.nodes.iter().any(|&(m, _)| m == n)
                        && b.placement.nodes.iter().all(|&(m, _)| !self.down[m as usize])
                })
            })
            .collect();
        back.sort_unstable();
        self.disabled.retain(|i| !back.contains(i));
        for i in back {
            if !self.restart(i, now) {
                self.fail(i);
            }
        }
    }

    /// Job `i`'s nodes are down: it waits for them while it can still meet
    /// its deadline (spec §6.5), or fails now.
    fn disable(&mut self, i: u32, now: Time) {
        let job = &self.jobs[i as usize].job;
        let last = job.latest_start();
        if now > last {
            self.fail(i);
            return;
        }
        let Some(b) = self.booked[i as usize].as_mut() else { return };
        b.disabled = true;
        self.disabled.push(i);
        if job.deadline < NO_DEADLINE {
            self.events.push(Reverse((last + 1, Event::GiveUp(i, b.epoch))));
        }
    }

    /// Restarts disabled job `i` at `now` on its own nodes for its whole
    /// estimate, if they hold it until then and it still meets its deadline.
    fn restart(&mut self, i: u32, now: Time) -> bool {
        let MachineJob { job, request } = &self.jobs[i as usize];
        let Some(b) = self.booked[i as usize].as_mut() else { return false };
        if now + job.estimate > job.deadline {
            return false;
        }
        let plan = &mut self.plan;
        plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
        let cards: Option<Vec<(u32, Cards)>> = b
            .placement
            .nodes
            .iter()
            .map(|&(n, _)| MachinePlan::fit(&plan.free(n, now, now + job.estimate), request).map(|c| (n, c)))
            .collect();
        let Some(cards) = cards else {
            plan.book(i, request, &b.placement, b.end);
            return false;
        };
        b.placement = Placement { start: now, nodes: cards };
        b.end = now + job.estimate;
        b.epoch += 1;
        b.disabled = false;
        b.running = true;
        plan.book(i, request, &b.placement, b.end);
        self.events.push(Reverse((now + job.runtime.min(job.estimate), Event::End(i, b.epoch))));
        true
    }

    /// Job `i` failed: it pays its penalty, and its booking leaves the plan.
    fn fail(&mut self, i: u32) {
        let d = &mut self.decisions[i as usize];
        if let Some(b) = self.booked[i as usize].as_mut() {
            self.plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
            b.disabled = false;
            b.running = false;
            b.epoch += 1;
            d.placement = Some(b.placement.clone());
        }
        d.outcome = Outcome::Failed;
        d.money = -self.jobs[i as usize].job.penalty;
    }
}

impl Lifting for Run<'_> {
    fn plan(&mut self) -> (&mut MachinePlan, &dyn NodeChoice) {
        (&mut self.plan, self.choice)
    }

    fn reservations(&mut self) -> &mut Reservations {
        &mut self.reservations
    }

    fn liftable(&self, i: u32, now: Time) -> Option<(Placement, Time)> {
        let b = self.booked[i as usize].as_ref().filter(|b| !b.running && !b.disabled && b.placement.start > now)?;
        Some((b.placement.clone(), b.end - b.placement.start))
    }

    fn put_back(&mut self, i: u32, placement: Placement, length: Time, _now: Time) {
        let Some(b) = self.booked[i as usize].as_mut() else { return };
        b.epoch += 1;
        b.end = placement.start + length;
        self.events.push(Reverse((placement.start, Event::Start(i, b.epoch))));
        b.placement = placement;
    }
}
