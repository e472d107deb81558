//! Heuristic planning and heuristic overbooking: plan node counts only, pick
//! nodes at start, re-plan often.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.2 (heuristic PoS), §5.4
//! (best fit), §6.1 ("Heuristic planning", "Heuristic overbooking"), §6.5
//! (re-planning rule, capacity under crashes).
//!
//! Contract:
//! - The plan is an [`AvailabilityProfile`] of the cluster's full capacity (the
//!   spec's default: crashed nodes are not subtracted, "the heuristic fills the
//!   resources to the maximum"). A running job holds its count until its kill
//!   time; a waiting job holds it over its planned window [start, start + allotment).
//! - Candidates are the profile's maximal gaps with n free nodes between the
//!   job's release and deadline. A gap holding the whole estimate is a full
//!   booking (allotment x, no test); with overbooking, a shorter gap is an
//!   overbooked booking of its length l if its heuristic PoS passes the
//!   acceptance test. Best fit takes the earliest full booking, else the first
//!   passing overbooked gap; first fit the first acceptable gap in time order;
//!   highest-pos the highest PoS; last fit the latest acceptable gap.
//! - At every job end, node failure and repair the waiting jobs are re-planned
//!   in order of planned start (the starts this allows wait for the wake-up
//!   of that instant, after all its ends, repairs and failures): each is put
//!   back at its earliest window of its whole estimate if that is no later
//!   than before (an overbooked job may so regain its full runtime), else at
//!   its earliest window of its allotment; no job moves later. With `replan_shortens` (issue 17's ablation, off by
//!   default) an earlier, shorter window whose PoS passes the test is taken
//!   instead, even for a job booked at full length. With `pos_at =
//!   "likely-start"` (also the ablation's) an overbooked gap's PoS is read for
//!   the length from its likely start (the work ahead taking the history's
//!   mean runtime ratio) to its end; the booking is still the gap.
//! - A job starts at its planned start on the lowest-id idle, up nodes and is
//!   killed at start + allotment. If too few nodes are up it waits (blocked)
//!   for the next re-plan and fails once its deadline can no longer be met. A
//!   job stopped by a node failure is placed again at once (with a new test if
//!   overbooked), or fails.
//! - Reservations (`seed-000-001-spec.md`, paper B) are fixed windows
//!   [start, start + x): accepted only there, never re-planned. A reservation
//!   fits if running jobs, reservations and planned jobs leave n nodes over
//!   its window. Under *reject* that is the only way in. Under *move* the
//!   planned (not running) variable jobs overlapping the window are lifted;
//!   if the reservation then fits it is booked and the lifted jobs are put
//!   back, in order of their old start, at their earliest window (a job that
//!   still fits stays put). If one of them could no longer meet its deadline
//!   the plan is restored and the reservation rejected. The starvation guard
//!   pins a job moved later too often or too far; pinned jobs are never lifted.
//! - A checkpointed overbooked job (paper A) is booked again for the rest of
//!   its work, as a full booking before its deadline, or fails.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::cluster::strategy::{Booking, Cluster, Placement, RejectReason, ReservationHandling, Strategy};
use crate::plan::AvailabilityProfile;
use crate::policy::overbooking::{Overbooking, learn_from_end};
use crate::stats::pos::{self, Reliability};
use crate::workload::job::Job;
use crate::workload::reservations::ReservationOption;
use slasim_core::units::{JobId, NodeId, Time};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    #[default]
    None,
    /// Planned over `[start, start + allotment)`.
    Waiting { start: Time, allotment: Time },
    /// Holding its count until `kill_at`, a booking of `allotment`.
    Running { kill_at: Time, allotment: Time },
}

/// A candidate booking.
#[derive(Debug, Clone, Copy)]
struct Choice {
    start: Time,
    allotment: Time,
    pos: f64,
}

/// What the planner remembers of a job beyond its state.
#[derive(Debug, Clone, Copy, Default)]
struct Track {
    /// Planned start at acceptance.
    first_start: Time,
    /// Times moved later for a reservation.
    moves: u32,
    /// Pinned by the starvation guard.
    pinned: bool,
    /// Work booked for a resumed checkpoint (instead of the estimate).
    need: Option<Time>,
}

/// Heuristic planning, with or without overbooking.
pub struct Heuristic {
    placement: Placement,
    reliability: Reliability,
    overbooking: Option<Arc<Overbooking>>,
    reservations: ReservationHandling,
    profile: AvailabilityProfile,
    queue: BTreeSet<(Time, JobId)>,
    states: Vec<State>,
    tracks: Vec<Track>,
    order: Vec<(Time, JobId)>,
    nodes: Vec<NodeId>,
    /// Jobs lifted for a reservation: (old start, job, allotment).
    lifted: Vec<(Time, JobId, Time)>,
    /// Their new starts.
    placed: Vec<Time>,
    /// The longest allotment a variable job may hold: windows overlapping
    /// [s, e) start after s − longest.
    longest: Time,
}

impl Heuristic {
    /// A strategy for `capacity` nodes; overbooking when `overbooking` is given.
    pub fn new(
        capacity: u32,
        placement: Placement,
        reliability: Reliability,
        overbooking: Option<Arc<Overbooking>>,
        reservations: ReservationHandling,
    ) -> Heuristic {
        Heuristic {
            placement,
            reliability,
            overbooking,
            reservations,
            profile: AvailabilityProfile::new(capacity),
            queue: BTreeSet::new(),
            states: Vec::new(),
            tracks: Vec::new(),
            order: Vec::new(),
            nodes: Vec::new(),
            lifted: Vec::new(),
            placed: Vec::new(),
            longest: 0,
        }
    }

    fn track(&mut self, job: JobId) -> &mut Track {
        let i = job as usize;
        if i >= self.tracks.len() {
            self.tracks.resize(i + 1, Track::default());
        }
        &mut self.tracks[i]
    }

    /// The work a job's booking must hold: its estimate, or the rest of a
    /// resumed checkpoint.
    fn need(&self, job: JobId, j: &Job) -> Time {
        self.tracks.get(job as usize).and_then(|t| t.need).unwrap_or(j.estimate)
    }

    /// Puts the lifted jobs back at their old windows.
    fn restore_lifted(&mut self, c: &dyn Cluster) {
        for &(start, job, a) in &self.lifted {
            self.profile.reserve(start, start + a, c.job(job).nodes);
        }
    }

    /// Makes room for a reservation over [s, e) × n by moving planned
    /// variable jobs (see the module contract); the reservation itself is not
    /// booked. On failure the plan is unchanged.
    fn make_room(&mut self, c: &mut dyn Cluster, s: Time, e: Time, n: u32) -> Result<(), RejectReason> {
        let now = c.now();
        self.lifted.clear();
        let mut pinned = false;
        for &(start, job) in self.queue.range((s.saturating_sub(self.longest), 0)..(e, 0)) {
            let State::Waiting { allotment, .. } = self.states[job as usize] else { continue };
            if start + allotment <= s || c.job(job).reservation {
                continue;
            }
            if self.tracks.get(job as usize).is_some_and(|t| t.pinned) {
                pinned = true;
                continue;
            }
            self.lifted.push((start, job, allotment));
        }
        for &(start, job, a) in &self.lifted {
            self.profile.release(start, start + a, c.job(job).nodes);
        }
        if self.profile.min_free(s, e) < n {
            self.restore_lifted(c);
            return Err(if pinned { RejectReason::PinnedJobs } else { RejectReason::Occupied });
        }
        if self.reservations.option == ReservationOption::Reject {
            self.restore_lifted(c);
            return Err(RejectReason::PlannedJobs);
        }
        self.profile.reserve(s, e, n);
        self.placed.clear();
        for k in 0..self.lifted.len() {
            let (_, job, a) = self.lifted[k];
            let j = *c.job(job);
            match self.profile.earliest_fit(now.max(j.release), a, j.nodes, j.deadline - a) {
                Some(t) => {
                    self.profile.reserve(t, t + a, j.nodes);
                    self.placed.push(t);
                }
                None => {
                    for (i, &t) in self.placed.iter().enumerate() {
                        let (_, placed_job, a) = self.lifted[i];
                        self.profile.release(t, t + a, c.job(placed_job).nodes);
                    }
                    self.profile.release(s, e, n);
                    self.restore_lifted(c);
                    return Err(RejectReason::MovedJobDeadline);
                }
            }
        }
        self.profile.release(s, e, n);
        let guard = self.reservations.guard;
        for k in 0..self.lifted.len() {
            let ((old, job, a), t) = (self.lifted[k], self.placed[k]);
            if t == old {
                continue;
            }
            self.queue.remove(&(old, job));
            self.queue.insert((t, job));
            *self.state(job) = State::Waiting { start: t, allotment: a };
            if t > old {
                c.moved(job);
                let estimate = c.job(job).estimate;
                let track = self.track(job);
                track.moves += 1;
                if !track.pinned && guard.pins(track.moves, t - track.first_start, estimate) {
                    track.pinned = true;
                    c.pin(job);
                }
            }
        }
        Ok(())
    }

    /// A reservation: booked at exactly its requested window, or rejected.
    fn submit_reservation(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        let (s, n) = (j.release, j.nodes);
        let e = s + j.estimate;
        let verdict = if s < j.occurrence {
            Err(RejectReason::StartBeforeSubmission)
        } else if n > self.profile.capacity() {
            Err(RejectReason::TooWide)
        } else if self.profile.min_free(s, e) >= n {
            Ok(())
        } else {
            self.make_room(c, s, e, n)
        };
        match verdict {
            Ok(()) => {
                self.profile.reserve(s, e, n);
                *self.state(job) = State::Waiting { start: s, allotment: j.estimate };
                self.queue.insert((s, job));
                let pos = self.pos(&j, j.estimate);
                c.accept(job, Booking { start: s, end: e, overbooked: false, pof: Some(1.0 - pos) });
                self.start_due(c);
            }
            Err(reason) => c.reject(job, reason),
        }
    }

    /// Books the rest of a checkpointed job as a full booking, or fails it.
    fn resume(&mut self, c: &mut dyn Cluster, job: JobId, rest: Time) {
        let j = *c.job(job);
        match self.profile.earliest_fit(c.now().max(j.release), rest, j.nodes, j.deadline - rest) {
            Some(t) => {
                self.longest = self.longest.max(rest);
                self.profile.reserve(t, t + rest, j.nodes);
                *self.state(job) = State::Waiting { start: t, allotment: rest };
                self.queue.insert((t, job));
                self.track(job).need = Some(rest);
            }
            None => c.fail(job),
        }
    }

    fn state(&mut self, job: JobId) -> &mut State {
        let i = job as usize;
        if i >= self.states.len() {
            self.states.resize(i + 1, State::None);
        }
        &mut self.states[i]
    }

    /// PoS of a booking of `allotment` for `job`.
    fn pos(&self, j: &Job, allotment: Time) -> f64 {
        match &self.overbooking {
            Some(ob) if allotment < j.estimate => {
                pos::heuristic(&self.reliability, ob.model.pdf(j), j.estimate, allotment, j.nodes).value()
            }
            _ => self.reliability.available(j.nodes) * self.reliability.success(j.nodes, j.estimate),
        }
    }

    /// The PoS of an overbooked booking of `allotment` (0 < allotment) for
    /// `j`, if there is overbooking and the acceptance test passes it.
    fn passes(&self, c: &dyn Cluster, j: &Job, allotment: Time) -> Option<f64> {
        let ob = self.overbooking.as_ref().filter(|_| allotment > 0)?;
        let pos = self.pos(j, allotment);
        ob.acceptance.accepts(c.calibrated_pos(pos), j.fee, j.penalty).then_some(pos)
    }

    /// The length whose PoS decides an overbooked gap `[start, end)` (the
    /// gap's own length unless the ablation's `pos_at` says otherwise).
    fn evaluated_length(&self, now: Time, start: Time, end: Time) -> Time {
        match &self.overbooking {
            Some(ob) => ob.pos_at.evaluated_length(now, start, end, ob.mean_ratio),
            None => end - start,
        }
    }

    /// The booking the placement policy picks for `j` from `from`, if any.
    fn choose(&self, c: &dyn Cluster, j: &Job, from: Time) -> Option<Choice> {
        if j.nodes > self.profile.capacity() || from > j.deadline {
            return None;
        }
        let full = |start| Choice { start, allotment: j.estimate, pos: self.pos(j, j.estimate) };
        let earliest_full = self.profile.earliest_fit(from, j.estimate, j.nodes, j.deadline - j.estimate).map(full);
        if self.overbooking.is_none() && matches!(self.placement, Placement::BestFit | Placement::FirstFit) {
            return earliest_full;
        }
        if self.placement == Placement::BestFit && earliest_full.is_some() {
            return earliest_full;
        }
        let mut best: Option<Choice> = None;
        for gap in self.profile.gaps(from, j.deadline, j.nodes) {
            let end = gap.end.min(j.deadline);
            let l = end - gap.start;
            let choice = if l >= j.estimate {
                full(gap.start)
            } else if let Some(pos) = self.passes(c, j, self.evaluated_length(c.now(), gap.start, end).min(j.estimate))
            {
                Choice { start: gap.start, allotment: l, pos }
            } else {
                continue;
            };
            match self.placement {
                Placement::BestFit | Placement::FirstFit => return Some(choice),
                Placement::LastFit => best = Some(choice),
                Placement::HighestPos => {
                    if best.is_none_or(|b| choice.pos > b.pos) {
                        best = Some(choice);
                    }
                }
            }
        }
        best
    }

    /// Books `job` at its chosen window from `from`; false if there is none.
    fn place(&mut self, c: &mut dyn Cluster, job: JobId, from: Time) -> Option<Choice> {
        let j = *c.job(job);
        let choice = self.choose(c, &j, from)?;
        self.profile.reserve(choice.start, choice.start + choice.allotment, j.nodes);
        *self.state(job) = State::Waiting { start: choice.start, allotment: choice.allotment };
        self.queue.insert((choice.start, job));
        Some(choice)
    }

    /// Re-plans every waiting job in order of planned start.
    fn replan(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.order.clear();
        self.order.extend(self.queue.iter().copied());
        for k in 0..self.order.len() {
            let (old, job) = self.order[k];
            let State::Waiting { start, allotment } = *self.state(job) else { continue };
            debug_assert_eq!(start, old);
            let j = *c.job(job);
            if j.reservation {
                // Fixed: never re-planned.
                continue;
            }
            let need = self.need(job, &j);
            self.profile.release(start, start + allotment, j.nodes);
            let from = now.max(j.release);
            // Its old window is still free unless it lies in the past (blocked).
            let latest = if start >= now { start } else { j.deadline - allotment };
            let upgrade = (allotment < need)
                .then(|| self.profile.earliest_fit(from, need, j.nodes, latest.min(j.deadline - need)))
                .flatten()
                .map(|s| (s, need));
            let kept = || self.profile.earliest_fit(from, allotment, j.nodes, latest).map(|s| (s, allotment));
            // The ablation's alternative: an earlier, shorter window that passes the test.
            let shortened_earlier = |at: Option<(Time, Time)>| -> Option<(Time, Time)> {
                self.overbooking.as_ref().filter(|ob| ob.replan_shortens)?;
                let until = at.map_or(latest.saturating_add(1), |(s, _)| s);
                self.profile.gaps(from, until, j.nodes).find_map(|gap| {
                    let l = (gap.end.min(j.deadline) - gap.start).min(need);
                    self.passes(c, &j, l).map(|_| (gap.start, l))
                })
            };
            // An overbooked job takes all the room at its new start, up to its
            // estimate: "even overbooked jobs can get their full runtime if
            // previous jobs finish earlier" (spec §3.3.2.1).
            let widen = |(s, a): (Time, Time)| {
                if a >= need {
                    return (s, a);
                }
                let room = self.profile.gaps(s, s + 1, j.nodes).next().map_or(a, |g| g.end.min(j.deadline) - s);
                (s, room.clamp(a, need))
            };
            let chosen = upgrade.or_else(kept);
            match shortened_earlier(chosen).or(chosen).map(widen) {
                Some((s, a)) => {
                    self.profile.reserve(s, s + a, j.nodes);
                    *self.state(job) = State::Waiting { start: s, allotment: a };
                    if s != start {
                        self.queue.remove(&(start, job));
                        self.queue.insert((s, job));
                    }
                }
                None => {
                    self.queue.remove(&(start, job));
                    *self.state(job) = State::None;
                    c.fail(job);
                }
            }
        }
    }

    /// Starts every job planned for now; asks for the next wake-up.
    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.order.clear();
        self.order.extend(self.queue.range(..=(now, JobId::MAX)).copied());
        for k in 0..self.order.len() {
            let (start, job) = self.order[k];
            let j = *c.job(job);
            let State::Waiting { allotment, .. } = *self.state(job) else { continue };
            if start == now && c.idle_nodes(j.nodes, &mut self.nodes) && c.start(job, &self.nodes, now + allotment) {
                self.queue.remove(&(start, job));
                *self.state(job) = State::Running { kill_at: now + allotment, allotment };
            } else if now > j.deadline - allotment {
                // Blocked past its latest start: it can no longer meet its deadline.
                self.profile.release(start, start + allotment, j.nodes);
                self.queue.remove(&(start, job));
                *self.state(job) = State::None;
                c.fail(job);
            } else {
                // Blocked by crashed nodes: re-checked at the next re-plan, and
                // failed once its latest start has passed.
                c.wake_at(j.deadline - allotment + 1);
            }
        }
        if let Some(&(next, _)) = self.queue.range((now + 1, 0)..).next() {
            c.wake_at(next);
        }
    }

    /// Releases a running job's remaining hold.
    fn release_running(&mut self, c: &dyn Cluster, job: JobId) {
        if let State::Running { kill_at, .. } = *self.state(job) {
            let now = c.now();
            if kill_at > now {
                self.profile.release(now, kill_at, c.job(job).nodes);
            }
            *self.state(job) = State::None;
        }
    }
}

impl Strategy for Heuristic {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let j = *c.job(job);
        if j.reservation {
            self.submit_reservation(c, job);
            return;
        }
        let from = c.now().max(j.release);
        self.longest = self.longest.max(j.estimate);
        match self.place(c, job, from) {
            Some(choice) => {
                self.track(job).first_start = choice.start;
                let booking = Booking {
                    start: choice.start,
                    end: choice.start + choice.allotment,
                    overbooked: choice.allotment < j.estimate,
                    pof: Some(1.0 - choice.pos),
                };
                c.accept(job, booking);
                self.start_due(c);
            }
            None => c.reject(job, RejectReason::NoRoom),
        }
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        self.profile.forget_before(c.now());
        self.start_due(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        if let State::Running { kill_at, allotment } = *self.state(job) {
            // Ended before its kill time: it ran its whole runtime.
            let booked = if c.now() < kill_at { c.job(job).runtime } else { allotment };
            learn_from_end(&mut self.overbooking, c.job(job), booked, c.now());
        }
        self.release_running(c, job);
        if let Some(rest) = c.resumable(job) {
            self.resume(c, job, rest);
        }
        self.replan(c);
        // Starts wait for the wake-up: every end, repair and failure of this
        // instant comes first (kernel contract).
        c.wake_at(c.now());
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        if let Some(job) = victim {
            self.release_running(c, job);
            let from = c.now().max(c.job(job).release);
            if self.place(c, job, from).is_none() {
                c.fail(job);
            }
        }
        self.replan(c);
        c.wake_at(c.now());
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, _node: NodeId) {
        self.replan(c);
        c.wake_at(c.now());
    }
}
