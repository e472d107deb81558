//! Comprehensive overbooking on a machine of unlike nodes: nodes and cards
//! fixed at acceptance, finished jobs leave the plan, waiting jobs start
//! early, and a window shorter than the estimate is accepted on its
//! comprehensive PoS.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1 (comprehensive PoS:
//! P_available · P_executable · P_success, P_executable from the joint end
//! CDF of the direct predecessors convolved with the job's PDF), §5.4 (best
//! fit: a full window first, else the first overbooked window that passes
//! the test), §6.1 ("Comprehensive overbooking"), §6.5 (its run-time rules),
//! §6.3 (outcome rules), on the machine model of `slasim_machine` and the
//! [`MachinePlan`]. The spec counts whole nodes; here a node's CPUs, memory
//! and each card's share are booked, as in the other strategies of
//! [`super`].
//!
//! Contract:
//! - Occurrence: a job no node set can ever hold is rejected `too-wide`
//!   with its reason; else it is booked at its earliest window of its whole
//!   estimate starting at or after its release that ends by its deadline,
//!   on the nodes its [`NodeChoice`] prefers. Else it is booked with an
//!   *overbooked* window: at the first start `s`, in time order, whose
//!   longest window `[s, E)` before its deadline that enough nodes hold
//!   ([`MachinePlan::first_overbooked`]), on the nodes the choice prefers,
//!   has a PoS that passes the acceptance test. Else it is rejected
//!   `no-room`. Its nodes and cards are kept to its end.
//! - PoS of a window `[s, E)` on nodes `R`: P_available(|R|) ·
//!   P_executable · P_success(|R|, min(x, E − s)), P_executable the
//!   probability that the job, started at the latest end of its direct
//!   predecessors (but not before max(now, release)), ends by `E`
//!   ([`pos::Comprehensive`], predecessors conditioned on not having ended
//!   by now, spec §2.5's default). Its *direct predecessors* are the jobs
//!   with a slot on a node of `R` that ends after max(now, release) and by
//!   `s`, except a slot that a later one of them on the same node starts at
//!   or after the end of and cannot run beside (the two exceed the node in a
//!   resource): that later one cannot start before it ends. On whole nodes
//!   this is the spec's last booking before `s` on each node. A running
//!   predecessor counts by its runtime PDF and kill time, a waiting one by
//!   the end CDF stored at its acceptance, a disabled one as ending at the
//!   end of its slot. Every booking stores its own end CDF, truncated at
//!   `E`, for its successors.
//! - Departure, where nodes are shared: a slot that began before `s` and
//!   runs on past it is no predecessor (it does not end by `s`), though it
//!   may keep the job from starting early: there the PoS counts on an early
//!   start that does not come. On whole nodes (the spec's model) no such
//!   slot exists.
//! - Events of one instant in the order of §6.5: job ends, node repairs,
//!   node failures, then early starts on the nodes they freed, job starts,
//!   give-ups and occurrences.
//! - A waiting job starts at its planned start `s` if its nodes are up,
//!   else it is disabled. It starts early, at an instant a job on one of its
//!   nodes ended or one of them was repaired (or at its release, if that is
//!   later and before `s`), if its nodes are up and hold its share, with its
//!   cards, from then to `s`: the waiting jobs of the freed nodes are tried
//!   in order of planned start, then id. A run started at `t` holds its
//!   nodes until its kill time `K = min(t + x, E)` and runs for its runtime:
//!   it succeeds (fee) if that ends by `K` or if `K = t + x` (killed at its
//!   estimate, §6.3); else it is killed at `K` and fails (penalty). A job
//!   that ends leaves the plan.
//! - Node failure: the jobs running on it are stopped (the run kept in
//!   [`Decision::stopped`]) and disabled, keeping their slots. When all its
//!   nodes are up, a disabled job restarts from scratch on its own nodes and
//!   cards if the instant is before `E` and they hold it until its new kill
//!   time `min(now + x, E)` (disabled jobs of a repaired node in job order);
//!   else, or once `E` comes, it fails. A failed job leaves the plan. The
//!   plan does not read node states: it may book on a node that is down.
//! - Reservations ([`super::reservations`]) are booked at exactly their
//!   window, or rejected; they never start early, and restart after a
//!   failure only with their whole window. A job booked in an
//!   overbooked window is not moved for one; a job moved for one keeps a
//!   window of its whole estimate and gets its end CDF anew.
//! - Every job that succeeds ends by its deadline (`E` is at most the
//!   deadline).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use slasim_core::units::Time;
use slasim_machine::{MILLI, Machine, Resources, Unfit};

use super::overbooking::MachineOverbooking;
use super::reservations::{Lifting, Reservations};
use super::{Decision, MachineJob, admit, initial_events, undecided};
use crate::cluster::strategy::{Outcome, RejectReason, ReservationHandling};
use crate::plan::machine_plan::{MachinePlan, Placement, Slot, TooManyCards};
use crate::plan::node_choice::NodeChoice;
use crate::stats::pos::{self, EndCdf, Predecessor};
use crate::workload::failures::FailureStream;

/// What happens at one instant, in the order of this enum (module
/// contract); a job's events carry its epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    End(u32, u32),
    Repair(u32),
    Fail(u32),
    /// Early starts on the nodes freed at this instant.
    Wake,
    /// Job `i` tried for an early start at its release.
    Released(u32),
    Start(u32, u32),
    GiveUp(u32, u32),
    Occur(u32),
}

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Out,
    Waiting,
    Running,
    Disabled,
    Done,
}

/// A job's booking: where it is, until when, and the end of its window.
#[derive(Debug, Clone)]
struct Booked {
    /// Its nodes and cards, from its planned (waiting) or actual start.
    placement: Placement,
    /// The end of its slot in the plan.
    slot_end: Time,
    /// `E`: the end of the window it was accepted in.
    window_end: Time,
}

/// A node choice a run holds: the strategy's, borrowed; an episode's, owned.
trait Holds {
    fn choice(&self) -> &dyn NodeChoice;
}

impl Holds for &dyn NodeChoice {
    fn choice(&self) -> &dyn NodeChoice {
        *self
    }
}

impl Holds for Box<dyn NodeChoice> {
    fn choice(&self) -> &dyn NodeChoice {
        self.as_ref()
    }
}

/// Comprehensive overbooking as it runs (module contract).
struct Run<'a, C = &'a dyn NodeChoice> {
    machine: Arc<Machine>,
    jobs: &'a [MachineJob],
    choice: C,
    ob: &'a MachineOverbooking,
    plan: MachinePlan,
    events: BinaryHeap<Reverse<(Time, Event)>>,
    down: Vec<bool>,
    state: Vec<State>,
    epoch: Vec<u32>,
    booked: Vec<Option<Booked>>,
    /// Each waiting job's end CDF (empty: it ends at its slot's end); a
    /// job's is given back to `spare` when it starts or fails.
    cdfs: Vec<EndCdf>,
    /// End CDFs no job holds, for reuse.
    spare: Vec<EndCdf>,
    decisions: Vec<Decision>,
    /// The nodes freed at this instant, for its wake-up.
    freed: Vec<u32>,
    /// Scratch: the waiting jobs of a wake-up, by planned start.
    waiting: Vec<(Time, u32)>,
    /// Disabled jobs, in the order they were disabled.
    disabled: Vec<u32>,
    pos: Pos,
    reservations: Reservations,
    /// Fees earned less penalties paid so far.
    money: f64,
}

/// The PoS computation's engine and buffers.
#[derive(Default)]
struct Pos {
    engine: pos::Comprehensive,
    own: Vec<f64>,
    preds: Vec<u32>,
    stepped: Vec<Vec<f64>>,
    /// The end CDF of the last window evaluated.
    cdf: EndCdf,
}

/// Plans `jobs` on `machine` by comprehensive overbooking with `choice` and
/// the acceptance of `ob`, under the node failures of `failures` (module
/// contract); one decision per job, in the order given.
pub fn comprehensive_overbooking(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
    ob: &MachineOverbooking,
) -> Result<Vec<Decision>, TooManyCards> {
    run(machine, jobs, choice, failures, ob, ReservationHandling::default())
}

/// Comprehensive overbooking, its reservations handled by `handling`.
pub(super) fn run(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
    failures: &FailureStream,
    ob: &MachineOverbooking,
    handling: ReservationHandling,
) -> Result<Vec<Decision>, TooManyCards> {
    let mut run = Run::new(machine, jobs, choice, failures, ob, handling)?;
    while let Some((i, now)) = run.next_occurrence() {
        run.occur(i, now);
    }
    Ok(run.finish())
}

impl<'a, C: Holds> Run<'a, C> {
    /// A run of `jobs` on `machine` with `choice` and `ob`, under the node
    /// failures of `failures`, its reservations handled by `handling`.
    fn new(
        machine: Arc<Machine>,
        jobs: &'a [MachineJob],
        choice: C,
        failures: &FailureStream,
        ob: &'a MachineOverbooking,
        handling: ReservationHandling,
    ) -> Result<Run<'a, C>, TooManyCards> {
        Ok(Run {
            plan: MachinePlan::new(machine.clone())?,
            events: initial_events(&machine, jobs, failures, [Event::Occur, Event::Fail, Event::Repair]),
            down: vec![false; machine.len()],
            state: vec![State::Out; jobs.len()],
            epoch: vec![0; jobs.len()],
            booked: vec![None; jobs.len()],
            cdfs: vec![EndCdf::default(); jobs.len()],
            spare: Vec::new(),
            decisions: undecided(jobs),
            freed: Vec::new(),
            waiting: Vec::new(),
            disabled: Vec::new(),
            pos: Pos::default(),
            reservations: Reservations::new(handling, jobs.len()),
            money: 0.0,
            machine,
            jobs,
            choice,
            ob,
        })
    }

    /// Handles the events up to the next occurrence, which it returns with
    /// its instant; none once no event is left.
    fn next_occurrence(&mut self) -> Option<(u32, Time)> {
        while let Some(Reverse((now, event))) = self.events.pop() {
            match event {
                Event::Occur(i) => return Some((i, now)),
                Event::Start(i, epoch) => self.start(i, epoch, now),
                Event::End(i, epoch) => self.end(i, epoch, now),
                Event::Fail(n) => self.node_failed(n, now),
                Event::Repair(n) => self.node_repaired(n, now),
                Event::Wake => self.wake(now),
                Event::Released(i) => self.try_early(i, now),
                Event::GiveUp(i, epoch) => {
                    if self.epoch[i as usize] == epoch && self.state[i as usize] == State::Disabled {
                        self.fail(i);
                    }
                }
            }
        }
        None
    }

    /// The decisions, once no event is left.
    fn finish(&mut self) -> Vec<Decision> {
        // Jobs still disabled when nothing more happens never ran to their end.
        for i in std::mem::take(&mut self.disabled) {
            if self.state[i as usize] == State::Disabled {
                self.fail(i);
            }
        }
        self.reservations.record(&mut self.decisions);
        std::mem::take(&mut self.decisions)
    }

    fn occur(&mut self, i: u32, now: Time) {
        let jobs = self.jobs;
        let admitted = if jobs[i as usize].job.reservation {
            self.admit_reservation(jobs, i, now)
        } else {
            admit(&mut self.plan, &jobs[i as usize], now, self.choice.choice())
        };
        let found = match admitted {
            Ok(placement) => {
                let end = placement.start + self.jobs[i as usize].job.estimate;
                // A full window's PoS is not tested: its end CDF is stored.
                self.pos_of(i, &placement, end, now);
                Ok((placement, end))
            }
            Err((RejectReason::NoRoom, _)) if !jobs[i as usize].job.reservation => {
                self.overbooked(i, now).ok_or((RejectReason::NoRoom, None))
            }
            Err(why) => Err(why),
        };
        match found {
            Ok((placement, end)) => self.accept(i, placement, end),
            Err((reason, unfit)) => self.reject(i, reason, unfit),
        }
    }

    /// Books job `i` waiting on `placement` until `end`, with the end CDF
    /// left in `self.pos`.
    fn accept(&mut self, i: u32, placement: Placement, end: Time) {
        let request = &self.jobs[i as usize].request;
        self.plan.book(i, request, &placement, end);
        let spare = self.spare.pop().unwrap_or_default();
        self.cdfs[i as usize] = std::mem::replace(&mut self.pos.cdf, spare);
        self.state[i as usize] = State::Waiting;
        let epoch = self.epoch[i as usize];
        self.events.push(Reverse((placement.start, Event::Start(i, epoch))));
        self.booked[i as usize] = Some(Booked { placement, slot_end: end, window_end: end });
    }

    /// Job `i` is rejected for `reason`.
    fn reject(&mut self, i: u32, reason: RejectReason, unfit: Option<Unfit>) {
        let d = &mut self.decisions[i as usize];
        d.reason = Some(reason);
        d.unfit = unfit;
    }

    /// Job `i`'s bookings at its occurrence `now` an agent may pick
    /// ([`Episode`]'s contract), at most `slots`, into `out`; if there is
    /// none, why.
    fn offers(
        &mut self,
        i: u32,
        now: Time,
        slots: usize,
        out: &mut Vec<Offer>,
    ) -> Option<(RejectReason, Option<Unfit>)> {
        out.clear();
        let jobs = self.jobs;
        let MachineJob { job, request } = &jobs[i as usize];
        let full = match admit(&mut self.plan, &jobs[i as usize], now, self.choice.choice()) {
            Ok(p) => Some(p),
            Err((RejectReason::NoRoom, _)) => None,
            Err(why) => return Some(why),
        };
        let before = full.as_ref().map_or(Time::MAX, |p| p.start);
        // The whole window is always offered: the shorter ones get the other slots.
        let room = slots.saturating_sub(usize::from(full.is_some()));
        let t0 = now.max(job.release);
        if job.deadline > t0 && room > 0 {
            let Run { plan, pos, booked, state, cdfs, choice, ob, .. } = &mut *self;
            let (ob, choice): (&MachineOverbooking, &dyn NodeChoice) = (*ob, choice.choice());
            let known = |plan: &MachinePlan, pos: &mut Pos, p: &Placement, end: Time| {
                pos.evaluate(plan, (jobs, &booked[..], &state[..], &cdfs[..], ob), i, p, end, now, None)
            };
            let offer = |plan: &MachinePlan, p: &Placement, l: Time| {
                // Only windows that start before the whole one are worth a shorter booking.
                if p.start >= before || l >= job.estimate {
                    return true;
                }
                let end = p.start + l;
                let chance = known(plan, pos, p, end).unwrap_or(0.0);
                out.push(Offer { placement: p.clone(), end, pos: chance, overbooked: true });
                out.len() >= room
            };
            plan.first_overbooked(request, (t0, job.deadline), 1, job.estimate, choice, |_, _| true, offer);
        }
        if let Some(placement) = full {
            let end = placement.start + job.estimate;
            let Run { plan, pos, booked, state, cdfs, ob, .. } = self;
            let p = pos.evaluate(plan, (jobs, booked, state, cdfs, ob), i, &placement, end, now, None).unwrap_or(0.0);
            out.push(Offer { placement, end, pos: p, overbooked: false });
        }
        if out.is_empty() { Some((RejectReason::NoRoom, None)) } else { None }
    }

    /// The shares of the machine's CPUs, memory and GPU thousandths free at
    /// `now` on its nodes that are up.
    fn free(&self, now: Time) -> [f64; 3] {
        let (mut cpu, mut mem, mut gpu) = (0u64, 0u64, 0u64);
        for n in (0..self.machine.len() as u32).filter(|&n| !self.down[n as usize]) {
            let free = self.plan.free(n, now, now + 1);
            cpu += free.cpu_milli;
            mem = mem.saturating_add(free.mem_mib);
            gpu += free.card_list().iter().map(|&c| u64::from(c)).sum::<u64>();
        }
        let total = self.machine.total();
        let share = |free: u64, total: f64| if total > 0.0 { free as f64 / total } else { 0.0 };
        let mem_total = if total.mem_mib == u64::MAX { 0.0 } else { total.mem_mib as f64 };
        [
            share(cpu, f64::from(total.cpus) * 1000.0),
            share(mem, mem_total),
            share(gpu, f64::from(total.gpus) * f64::from(MILLI)),
        ]
    }

    /// Job `i`'s first overbooked window from `now` whose PoS passes the
    /// test, with the end of its window; its end CDF left in `self.pos`.
    fn overbooked(&mut self, i: u32, now: Time) -> Option<(Placement, Time)> {
        let jobs = self.jobs;
        let MachineJob { job, request } = &jobs[i as usize];
        let (ob, n) = (self.ob, request.nodes);
        let t0 = now.max(job.release);
        if job.deadline <= t0 {
            return None;
        }
        // However its predecessors end, the job starts at t0 at the
        // earliest: its PoS is at most this bound (the test is monotone).
        let worth = |s: Time, l: Time| {
            let reach = (s + l - t0).min(job.estimate);
            let executable = ob.model.pdf(job).cdf((100 * reach / job.estimate.max(1)) as usize);
            let bound = ob.reliability.available(n) * executable * ob.reliability.success(n, l.min(job.estimate));
            ob.acceptance.accepts(bound, job.fee, job.penalty)
        };
        let Run { plan, pos, booked, state, cdfs, choice, .. } = self;
        let test = |pos: f64| ob.acceptance.accepts(pos, job.fee, job.penalty);
        let confirm = |plan: &MachinePlan, p: &Placement, l: Time| {
            pos.evaluate(plan, (jobs, booked, state, cdfs, ob), i, p, p.start + l, now, Some(&test)).is_some()
        };
        let window = (t0, job.deadline);
        let (placement, l) =
            plan.first_overbooked(request, window, 1, job.estimate, choice.choice(), worth, confirm)?;
        let end = placement.start + l;
        Some((placement, end))
    }

    /// Job `i`'s end CDF on `p` until `end`, left in `self.pos`.
    fn pos_of(&mut self, i: u32, p: &Placement, end: Time, now: Time) {
        let Run { plan, pos, booked, state, cdfs, jobs, ob, .. } = self;
        pos.evaluate(plan, (jobs, booked, state, cdfs, ob), i, p, end, now, None);
    }

    fn start(&mut self, i: u32, epoch: u32, now: Time) {
        if self.epoch[i as usize] != epoch || self.state[i as usize] != State::Waiting {
            return;
        }
        let Some(b) = &self.booked[i as usize] else { return };
        if b.placement.nodes.iter().all(|&(n, _)| !self.down[n as usize]) {
            self.run_from(i, now);
        } else {
            self.disable(i, now);
        }
    }

    /// Job `i` runs from `now` on its nodes and cards until its kill time;
    /// its slot moves there.
    fn run_from(&mut self, i: u32, now: Time) {
        let MachineJob { job, request } = &self.jobs[i as usize];
        let Some(b) = self.booked[i as usize].as_mut() else { return };
        let kill = (now + job.estimate).min(b.window_end);
        self.plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
        b.placement.start = now;
        b.slot_end = kill;
        self.plan.book(i, request, &b.placement, kill);
        self.state[i as usize] = State::Running;
        self.drop_cdf(i);
        self.epoch[i as usize] += 1;
        let epoch = self.epoch[i as usize];
        self.events.push(Reverse((now + job.runtime.min(kill - now), Event::End(i, epoch))));
    }

    fn end(&mut self, i: u32, epoch: u32, now: Time) {
        if self.epoch[i as usize] != epoch || self.state[i as usize] != State::Running {
            return;
        }
        let Some(b) = self.booked[i as usize].take() else { return };
        let job = &self.jobs[i as usize].job;
        let allotment = b.slot_end - b.placement.start;
        // Killed at the end of a window shorter than its estimate (§6.3).
        let killed = job.runtime > allotment && allotment < job.estimate;
        self.plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
        self.free_nodes(&b.placement, now);
        self.state[i as usize] = State::Done;
        let d = &mut self.decisions[i as usize];
        d.end = Some(now);
        (d.outcome, d.money) = if killed { (Outcome::Failed, -job.penalty) } else { (Outcome::Success, job.fee) };
        self.money += d.money;
        d.allotment = (allotment < job.estimate).then_some(allotment);
        d.placement = Some(b.placement);
    }

    /// The nodes of `placement` freed at `now`: their waiting jobs are
    /// tried at this instant's wake-up.
    fn free_nodes(&mut self, placement: &Placement, now: Time) {
        if self.freed.is_empty() {
            self.events.push(Reverse((now, Event::Wake)));
        }
        self.freed.extend(placement.nodes.iter().map(|&(n, _)| n));
    }

    /// Early starts of the waiting jobs on the nodes freed now, in order of
    /// planned start, then id.
    fn wake(&mut self, now: Time) {
        let mut freed = std::mem::take(&mut self.freed);
        freed.sort_unstable();
        freed.dedup();
        let mut waiting = std::mem::take(&mut self.waiting);
        waiting.clear();
        for &n in &freed {
            waiting.extend(
                self.plan
                    .slots(n)
                    .iter()
                    .filter(|s| s.start > now && self.state[s.job as usize] == State::Waiting)
                    .map(|s| (s.start, s.job)),
            );
        }
        waiting.sort_unstable();
        waiting.dedup();
        for &(_, i) in &waiting {
            self.try_early(i, now);
        }
        freed.clear();
        self.freed = freed;
        self.waiting = waiting;
    }

    /// Starts waiting job `i` now if its nodes are up and hold its share
    /// from now to its planned start; before its release, it is tried again
    /// then.
    fn try_early(&mut self, i: u32, now: Time) {
        if self.state[i as usize] != State::Waiting {
            return;
        }
        let Some(b) = &self.booked[i as usize] else { return };
        let MachineJob { job, request } = &self.jobs[i as usize];
        let s = b.placement.start;
        if s <= now || job.reservation {
            return;
        }
        if now < job.release {
            if job.release < s {
                self.events.push(Reverse((job.release, Event::Released(i))));
            }
            return;
        }
        let clear = b
            .placement
            .nodes
            .iter()
            .all(|&(n, cards)| !self.down[n as usize] && self.plan.free(n, now, s).holds(request, &cards));
        if clear {
            self.run_from(i, now);
        }
    }

    /// Node `n` fails: the jobs running on it stop and are disabled.
    fn node_failed(&mut self, n: u32, now: Time) {
        self.down[n as usize] = true;
        let state = &self.state;
        let mut hit: Vec<u32> =
            self.plan.slots(n).iter().map(|s| s.job).filter(|&i| state[i as usize] == State::Running).collect();
        hit.sort_unstable();
        hit.dedup();
        for i in hit {
            if let Some(b) = &self.booked[i as usize] {
                self.decisions[i as usize].stopped.push((b.placement.clone(), now));
            }
            self.epoch[i as usize] += 1;
            self.disable(i, now);
        }
    }

    /// Job `i`'s nodes are down: it waits for them while its window lasts,
    /// or fails now.
    fn disable(&mut self, i: u32, now: Time) {
        let Some(b) = &self.booked[i as usize] else { return };
        let window_end = b.window_end;
        if now >= window_end {
            self.fail(i);
            return;
        }
        self.state[i as usize] = State::Disabled;
        self.drop_cdf(i);
        self.disabled.push(i);
        let epoch = self.epoch[i as usize];
        self.events.push(Reverse((window_end, Event::GiveUp(i, epoch))));
    }

    /// Node `n` is back: its disabled jobs whose nodes are all up, in job
    /// order, restart or fail; then its waiting jobs may start early.
    fn node_repaired(&mut self, n: u32, now: Time) {
        self.down[n as usize] = false;
        let (booked, down, state) = (&self.booked, &self.down, &self.state);
        let mut back: Vec<u32> = self
            .disabled
            .iter()
            .copied()
            .filter(|&i| {
                state[i as usize] == State::Disabled
                    && booked[i as usize].as_ref().is_some_and(|b| {
                        b.placement.nodes.iter().any(|&(m, _)| m == n)
                            && b.placement.nodes.iter().all(|&(m, _)| !down[m as usize])
                    })
            })
            .collect();
        back.sort_unstable();
        back.dedup();
        self.disabled.retain(|i| !back.contains(i));
        for i in back {
            if !self.restart(i, now) {
                self.fail(i);
            }
        }
        if self.freed.is_empty() {
            self.events.push(Reverse((now, Event::Wake)));
        }
        self.freed.push(n);
    }

    /// Restarts disabled job `i` now on its own nodes and cards, if its
    /// window lasts and they hold it until its new kill time.
    fn restart(&mut self, i: u32, now: Time) -> bool {
        let MachineJob { job, request } = &self.jobs[i as usize];
        let Some(b) = &self.booked[i as usize] else { return false };
        // A reservation is never shortened: it keeps its window or fails.
        if now >= b.window_end || now < job.release || job.reservation && now + job.estimate > b.window_end {
            return false;
        }
        let kill = (now + job.estimate).min(b.window_end);
        // Its own slot is taken out while its nodes are looked at.
        let plan = &mut self.plan;
        plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
        let holds = b.placement.nodes.iter().all(|&(n, cards)| plan.free(n, now, kill).holds(request, &cards));
        plan.book(i, request, &b.placement, b.slot_end);
        if holds {
            self.run_from(i, now);
        }
        holds
    }

    /// Job `i` no longer waits: a successor reads its runtime PDF (running)
    /// or its slot's end (disabled), not its end CDF.
    fn drop_cdf(&mut self, i: u32) {
        let cdf = std::mem::take(&mut self.cdfs[i as usize]);
        if cdf.values.capacity() > 0 {
            self.spare.push(cdf);
        }
    }

    /// Job `i` failed: it pays its penalty, and its booking leaves the plan.
    fn fail(&mut self, i: u32) {
        self.drop_cdf(i);
        self.state[i as usize] = State::Done;
        self.epoch[i as usize] += 1;
        let d = &mut self.decisions[i as usize];
        if let Some(b) = self.booked[i as usize].take() {
            self.plan.unbook(i, b.placement.nodes.iter().map(|&(n, _)| n));
            d.placement = Some(b.placement);
        }
        d.outcome = Outcome::Failed;
        d.money = -self.jobs[i as usize].job.penalty;
        self.money += d.money;
    }
}

impl<C: Holds> Lifting for Run<'_, C> {
    fn plan(&mut self) -> (&mut MachinePlan, &dyn NodeChoice) {
        (&mut self.plan, self.choice.choice())
    }

    fn reservations(&mut self) -> &mut Reservations {
        &mut self.reservations
    }

    fn liftable(&self, i: u32, _now: Time) -> Option<(Placement, Time)> {
        let b = self.booked[i as usize].as_ref().filter(|_| self.state[i as usize] == State::Waiting)?;
        let length = b.slot_end - b.placement.start;
        // An overbooked window's PoS holds only where it was tested.
        (length >= self.jobs[i as usize].job.estimate).then(|| (b.placement.clone(), length))
    }

    fn put_back(&mut self, i: u32, placement: Placement, length: Time, now: Time) {
        let end = placement.start + length;
        self.pos_of(i, &placement, end, now);
        let spare = std::mem::take(&mut self.pos.cdf);
        let old = std::mem::replace(&mut self.cdfs[i as usize], spare);
        self.pos.cdf = old;
        self.epoch[i as usize] += 1;
        let epoch = self.epoch[i as usize];
        self.events.push(Reverse((placement.start, Event::Start(i, epoch))));
        self.booked[i as usize] = Some(Booked { placement, slot_end: end, window_end: end });
    }
}

/// What the PoS reads of a run besides the plan.
type Known<'a, 'b> = (&'b [MachineJob], &'b [Option<Booked>], &'b [State], &'b [EndCdf], &'a MachineOverbooking);

impl Pos {
    /// The PoS of job `i` on `p` until `end` at `now` (module contract),
    /// its end CDF, truncated at `end`, left in `self.cdf`; with a `test`,
    /// only if the PoS passes it (else `None`, and `self.cdf` is not meant
    /// to be read).
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &mut self,
        plan: &MachinePlan,
        known: Known<'_, '_>,
        i: u32,
        p: &Placement,
        end: Time,
        now: Time,
        test: Option<&dyn Fn(f64) -> bool>,
    ) -> Option<f64> {
        let (jobs, booked, state, cdfs, ob) = known;
        let job = &jobs[i as usize].job;
        let n = jobs[i as usize].request.nodes;
        let s = p.start;
        let t0 = now.max(job.release);
        self.preds.clear();
        for &(node, _) in &p.nodes {
            let size = plan.machine().size[node as usize];
            let ending = || plan.slots(node).iter().filter(|x| x.end > t0 && x.end <= s);
            // A booking that a later one on the node cannot start before is
            // no direct predecessor: that one ends after it.
            let direct = |x: &&Slot| !ending().any(|y| y.start >= x.end && !fit_together(x, y, &size));
            self.preds.extend(ending().filter(direct).map(|x| x.job));
        }
        self.preds.sort_unstable();
        self.preds.dedup();
        while self.stepped.len() < self.preds.len() {
            self.stepped.push(Vec::new());
        }
        for (k, &q) in self.preds.iter().enumerate() {
            if state[q as usize] == State::Running {
                ob.model.stepped(&jobs[q as usize].job, &mut self.stepped[k]);
            }
        }
        ob.model.stepped(job, &mut self.own);
        let place = pos::Placement {
            now,
            t0,
            latest_start: s,
            limit: end,
            own: &self.own,
            step: ob.model.step(),
            condition: true,
        };
        let stepped = &self.stepped;
        let predecessors = self.preds.iter().enumerate().map(|(k, &q)| {
            let b = booked[q as usize].as_ref();
            let kill = b.map_or(s, |b| b.slot_end);
            match (state[q as usize], b) {
                (State::Running, Some(b)) => {
                    Predecessor::Running { start: b.placement.start, kill, stepped: &stepped[k] }
                }
                // Disabled, it is taken to end at its slot's end (an empty CDF).
                (State::Waiting, _) => Predecessor::Planned { cdf: &cdfs[q as usize], kill },
                _ => Predecessor::Planned { cdf: &EMPTY, kill },
            }
        });
        let (available, success) = (ob.reliability.available(n), ob.reliability.success(n, job.estimate.min(end - s)));
        let executable = match test {
            // The PoS is monotone in P_executable, and so is the test: an
            // upper bound that fails spares the convolution.
            Some(test) => {
                let worth = |bound: f64| test(available * bound * success);
                self.engine.p_executable_if(place, predecessors, worth, Some(&mut self.cdf))?
            }
            None => self.engine.p_executable(place, predecessors, Some(&mut self.cdf)),
        };
        let pos = available * executable * success;
        test.is_none_or(|test| test(pos)).then_some(pos)
    }
}

/// Whether slots `x` and `y` fit together on a node of `size`, in every
/// resource.
fn fit_together(x: &Slot, y: &Slot, size: &Resources) -> bool {
    u64::from(x.cpu_milli) + u64::from(y.cpu_milli) <= u64::from(size.cpus) * 1000
        && x.mem_mib.saturating_add(y.mem_mib) <= size.mem_mib
        && (0..size.gpus as usize).all(|c| x.cards.on(c) + y.cards.on(c) <= MILLI)
}

/// The end CDF of a predecessor taken to end at its slot's end.
static EMPTY: EndCdf = EndCdf { origin: 0, step: 1, values: Vec::new() };

/// A booking an agent may pick for an arriving job.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// Its nodes and cards, from its planned start.
    pub placement: Placement,
    /// The end of its window: its kill time if it starts as planned.
    pub end: Time,
    /// Its comprehensive PoS.
    pub pos: f64,
    /// Its window is shorter than the job's estimate.
    pub overbooked: bool,
}

/// What an episode owns: its jobs and acceptance.
struct Owned {
    jobs: Vec<MachineJob>,
    ob: MachineOverbooking,
}

type RunOf<'a> = Run<'a, Box<dyn NodeChoice>>;

self_cell::self_cell!(
    /// A run that borrows what its episode owns.
    struct Cell {
        owner: Owned,
        #[covariant]
        dependent: RunOf,
    }
);

/// Comprehensive overbooking stepped from arrival to arrival, an agent
/// deciding each (the SLA admission environment on the machine).
///
/// Contract: [`Episode::next_arrival`] handles every event before the next
/// arrival of a job that is not a reservation (reservations are handled by
/// the module's rules on the way), as the strategy does, and stops there.
/// [`Episode::offers`] lists the job's bookings, at most `slots`, each with
/// its comprehensive PoS: the windows shorter than its estimate that start
/// before its earliest whole window, in time order
/// ([`MachinePlan::first_overbooked`]'s, each on the nodes the node choice
/// prefers there), then that whole window (as the strategy books it),
/// always kept. [`Episode::decide`] books the one picked, or
/// rejects the job. Picking the whole window if there is one, else the first
/// shorter window whose PoS passes the acceptance test, is the strategy
/// itself (when the slots reach that window): the same decisions, to the
/// bit.
pub struct Episode {
    cell: Cell,
    /// The arrival waiting for a decision.
    waiting: Option<(u32, Time)>,
}

impl Episode {
    /// An episode of `jobs` on `machine` with `choice` and `ob`, under the
    /// node failures of `failures` and reservations handled by `handling`.
    pub fn new(
        machine: Arc<Machine>,
        jobs: Vec<MachineJob>,
        choice: Box<dyn NodeChoice>,
        failures: &FailureStream,
        ob: MachineOverbooking,
        handling: ReservationHandling,
    ) -> Result<Episode, TooManyCards> {
        let owned = Owned { jobs, ob };
        let cell = Cell::try_new(owned, |o| -> Result<RunOf<'_>, TooManyCards> {
            Run::new(machine, &o.jobs, choice, failures, &o.ob, handling)
        })?;
        Ok(Episode { cell, waiting: None })
    }

    /// Runs to the next arrival: its job's index and instant; none once
    /// every job has its outcome.
    pub fn next_arrival(&mut self) -> Option<(u32, Time)> {
        let next = self.cell.with_dependent_mut(|o, run| {
            while let Some((i, now)) = run.next_occurrence() {
                if !o.jobs[i as usize].job.reservation {
                    return Some((i, now));
                }
                run.occur(i, now);
            }
            None
        });
        self.waiting = next;
        next
    }

    /// The waiting arrival's bookings, at most `slots`, into `out`; if it
    /// has none, why it is rejected.
    pub fn offers(&mut self, slots: usize, out: &mut Vec<Offer>) -> Option<(RejectReason, Option<Unfit>)> {
        let Some((i, now)) = self.waiting else {
            out.clear();
            return None;
        };
        self.cell.with_dependent_mut(|_, run| run.offers(i, now, slots, out))
    }

    /// Books the waiting arrival on `offer`, or rejects it for `reason`.
    pub fn decide(&mut self, offer: Result<&Offer, (RejectReason, Option<Unfit>)>) {
        let Some((i, now)) = self.waiting.take() else { return };
        self.cell.with_dependent_mut(|_, run| match offer {
            Ok(o) => {
                run.pos_of(i, &o.placement, o.end, now);
                run.accept(i, o.placement.clone(), o.end);
            }
            Err((reason, unfit)) => run.reject(i, reason, unfit),
        });
    }

    /// The jobs.
    pub fn jobs(&self) -> &[MachineJob] {
        &self.cell.borrow_owner().jobs
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.cell.borrow_dependent().machine
    }

    /// Fees earned less penalties paid so far.
    pub fn money(&self) -> f64 {
        self.cell.borrow_dependent().money
    }

    /// The shares of the machine's CPUs, memory and GPU thousandths free at
    /// `now` on its nodes that are up.
    pub fn free(&self, now: Time) -> [f64; 3] {
        self.cell.borrow_dependent().free(now)
    }

    /// Every job's decision, once [`Episode::next_arrival`] found no more.
    pub fn finish(&mut self) -> Vec<Decision> {
        self.cell.with_dependent_mut(|_, run| run.finish())
    }
}
