//! Paper B's fixed reservations on a machine of unlike nodes, for the
//! strategies on it that admit jobs.
//!
//! Reference: `seed-000-001-spec.md`, paper B, "Model" (reservations are
//! accepted at exactly their requested start or rejected, never moved; the
//! *reject* and *variable jobs move* options; the starvation guard the paper
//! asks for), on the [`MachinePlan`]. The paper counts identical nodes; here
//! a reservation asks what its job asks of each node, and the planned jobs in
//! its way are those with a slot overlapping its window on any node.
//!
//! Contract:
//! - A reservation (a job with `reservation`; its window runs from its
//!   release for its estimate) is booked at exactly that window on the nodes the node
//!   choice prefers there ([`super::admit`] with its latest start its
//!   release), or rejected. It is never overbooked and never started early;
//!   a strategy that re-plans may give it other nodes for the same window.
//! - When the window does not fit ([`Reservations::room`]): the waiting
//!   (planned, not running) variable jobs with a slot overlapping it, on any
//!   node, are lifted from the plan. If it still does not fit it is rejected
//!   `occupied`, or `pinned-jobs` when a pinned job was left in its way.
//!   Under *reject* it is then rejected `planned-jobs`.
//! - Under *move* it is booked, and the lifted jobs are put back in order of
//!   planned start, then id: at their booking if it still holds, else at
//!   the earliest window of their booked length on the nodes the choice
//!   prefers, from now and their release, ending by their deadline. If one
//!   has none, the plan is restored and the reservation rejected
//!   `moved-job-deadline`.
//! - A job put back later than before is *moved* ([`Decision::moves`]). The
//!   starvation guard pins a job moved `max_moves` times, or whose start
//!   slipped by more than `max_delay_factor` × its estimate since its planned
//!   start when it was first moved; a pinned job is never lifted again
//!   (under `max_moves = 0`, never lifted at all).
//! - A strategy says which of its jobs may be lifted ([`Lifting`]); under
//!   comprehensive overbooking a job booked in an overbooked window may not,
//!   since its PoS was tested against the predecessors of that window.

use slasim_core::units::Time;
use slasim_machine::Unfit;

use super::{Decision, MachineJob, admit};
use crate::cluster::strategy::{RejectReason, ReservationHandling};
use crate::plan::machine_plan::{MachinePlan, Placement};
use crate::plan::node_choice::NodeChoice;
use crate::workload::reservations::ReservationOption;

/// A strategy's waiting jobs, as making room for a reservation sees them.
pub(super) trait Lifting {
    /// Its plan, and its node choice.
    fn plan(&mut self) -> (&mut MachinePlan, &dyn NodeChoice);
    /// Job `i`'s booking and its length, if `i` is a waiting variable job
    /// that may be lifted at `now`.
    fn liftable(&self, i: u32, now: Time) -> Option<(Placement, Time)>;
    /// Job `i` waits again on `placement` for `length` (already booked in
    /// the plan), instead of its old booking.
    fn put_back(&mut self, i: u32, placement: Placement, length: Time, now: Time);
    /// Its reservations' handling and the moved jobs' tracks.
    fn reservations(&mut self) -> &mut Reservations;

    /// Reservation `i` of `jobs` at its occurrence `now`: its booking at its
    /// window, not booked yet, or why it is rejected; planned jobs in its way
    /// are moved under *move* (module contract).
    fn admit_reservation(
        &mut self,
        jobs: &[MachineJob],
        i: u32,
        now: Time,
    ) -> Result<Placement, (RejectReason, Option<Unfit>)>
    where
        Self: Sized,
    {
        let mut reservations = std::mem::take(self.reservations());
        let found = reservations.admit(self, jobs, i, now);
        *self.reservations() = reservations;
        found
    }
}

/// What the guard knows of a job moved for reservations.
#[derive(Debug, Clone, Copy, Default)]
struct Track {
    moves: u32,
    /// Its planned start when it was first moved.
    first_start: Time,
    pinned: bool,
}

/// A job lifted for a reservation: its old booking and length.
struct Lifted {
    job: u32,
    old: Placement,
    length: Time,
}

/// Reservations' handling and the moved jobs' tracks (module contract).
#[derive(Default)]
pub(super) struct Reservations {
    handling: ReservationHandling,
    tracks: Vec<Track>,
    lifted: Vec<Lifted>,
    placed: Vec<Placement>,
    /// Scratch: the jobs with a slot in a reservation's window.
    seen: Vec<u32>,
    /// Jobs of the run: the tracks' length once a reservation meets planned jobs.
    jobs: usize,
}

impl Reservations {
    /// Reservations handled by `handling` among `jobs` jobs.
    pub(super) fn new(handling: ReservationHandling, jobs: usize) -> Reservations {
        Reservations { handling, jobs, ..Reservations::default() }
    }

    /// Reservation `i`'s booking at its window, not booked yet, or why it is
    /// rejected; planned jobs in its way are moved under *move*.
    fn admit<L: Lifting>(
        &mut self,
        run: &mut L,
        jobs: &[MachineJob],
        i: u32,
        now: Time,
    ) -> Result<Placement, (RejectReason, Option<Unfit>)> {
        let job = &jobs[i as usize].job;
        if job.release < job.occurrence {
            return Err((RejectReason::StartBeforeSubmission, None));
        }
        let (plan, choice) = run.plan();
        match admit(plan, &jobs[i as usize], now, choice) {
            Err((RejectReason::NoRoom, _)) => self.room(run, jobs, i, now).map_err(|r| (r, None)),
            found => found,
        }
    }

    /// Makes room for reservation `i` by lifting the waiting jobs in its
    /// way (module contract): its placement, not booked, or why not. On
    /// failure the plan is as before.
    fn room<L: Lifting>(
        &mut self,
        run: &mut L,
        jobs: &[MachineJob],
        i: u32,
        now: Time,
    ) -> Result<Placement, RejectReason> {
        let MachineJob { job, request } = &jobs[i as usize];
        let (s, e) = (job.release, job.release + job.estimate);
        // A run without reservations in anyone's way keeps no tracks.
        if self.tracks.is_empty() {
            self.tracks = vec![Track::default(); self.jobs];
        }
        self.lifted.clear();
        let mut pinned = false;
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        let (plan, _) = run.plan();
        for n in 0..plan.machine().len() as u32 {
            seen.extend(plan.slots(n).iter().filter(|slot| slot.start < e && slot.end > s).map(|slot| slot.job));
        }
        seen.sort_unstable();
        seen.dedup();
        for &j in &seen {
            if j == i || jobs[j as usize].job.reservation {
                continue;
            }
            let Some((old, length)) = run.liftable(j, now) else { continue };
            let track = self.tracks[j as usize];
            // Under `max_moves = 0` a job is pinned before any move.
            if track.pinned || self.handling.guard.pins(track.moves, 0, jobs[j as usize].job.estimate) {
                pinned = true;
                continue;
            }
            self.lifted.push(Lifted { job: j, old, length });
        }
        self.seen = seen;
        self.lifted.sort_by_key(|l| (l.old.start, l.job));
        let (plan, choice) = run.plan();
        for l in &self.lifted {
            plan.unbook(l.job, l.old.nodes.iter().map(|&(n, _)| n));
        }
        let Some(placement) = plan.earliest(request, s, job.estimate, s, choice) else {
            self.restore(plan, jobs);
            return Err(if pinned { RejectReason::PinnedJobs } else { RejectReason::Occupied });
        };
        if self.handling.option == ReservationOption::Reject {
            self.restore(plan, jobs);
            return Err(RejectReason::PlannedJobs);
        }
        plan.book(i, request, &placement, e);
        self.placed.clear();
        for k in 0..self.lifted.len() {
            let Lifted { job: j, ref old, length } = self.lifted[k];
            let MachineJob { job, request } = &jobs[j as usize];
            let holds =
                old.nodes.iter().all(|&(n, cards)| plan.free(n, old.start, old.start + length).holds(request, &cards));
            let from = now.max(job.release);
            let found = if holds {
                Some(old.clone())
            } else if job.deadline < from + length {
                None
            } else {
                plan.earliest(request, from, length, job.deadline - length, choice)
            };
            let Some(p) = found else {
                for (l, p) in self.lifted.iter().zip(&self.placed) {
                    plan.unbook(l.job, p.nodes.iter().map(|&(n, _)| n));
                }
                plan.unbook(i, placement.nodes.iter().map(|&(n, _)| n));
                self.restore(plan, jobs);
                return Err(RejectReason::MovedJobDeadline);
            };
            plan.book(j, request, &p, p.start + length);
            self.placed.push(p);
        }
        plan.unbook(i, placement.nodes.iter().map(|&(n, _)| n));
        let guard = self.handling.guard;
        let (lifted, placed) = (std::mem::take(&mut self.lifted), std::mem::take(&mut self.placed));
        for (l, p) in lifted.iter().zip(placed) {
            if p == l.old {
                continue;
            }
            if p.start > l.old.start {
                let estimate = jobs[l.job as usize].job.estimate;
                let track = &mut self.tracks[l.job as usize];
                if track.moves == 0 {
                    track.first_start = l.old.start;
                }
                track.moves += 1;
                track.pinned = guard.pins(track.moves, p.start - track.first_start, estimate);
            }
            run.put_back(l.job, p, l.length, now);
        }
        self.lifted = lifted;
        Ok(placement)
    }

    /// Books every lifted job at its old booking again.
    fn restore(&self, plan: &mut MachinePlan, jobs: &[MachineJob]) {
        for l in &self.lifted {
            plan.book(l.job, &jobs[l.job as usize].request, &l.old, l.old.start + l.length);
        }
    }

    /// Each job's moves and pin, into its decision.
    pub(super) fn record(&self, decisions: &mut [Decision]) {
        for (d, t) in decisions.iter_mut().zip(&self.tracks) {
            d.moves = t.moves;
            d.pinned = t.pinned;
        }
    }
}
