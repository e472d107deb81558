//! Queue re-planning: the start of every queued job of a [`Snapshot`] under
//! a pricing [`Policy`], with or without a slot reserved (§4.2, A7, A18, A19).
//!
//! Contract: pure functions of the snapshot. Running jobs hold their
//! processors to their planned ends and reservations their windows (the
//! occupied profile, all that admission reads, §4.1); the queue is re-planned
//! from scratch in arrival order, by conservative backfilling (every job at
//! its earliest start) or by EASY projected forward with estimates as run
//! times ([`slasim_single::plan::easy`], the crate's one EASY rule). A job wider than
//! the machine never starts (`Time::MAX`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::pricing::{Policy, SlotRequest, Snapshot};
use slasim_core::units::Time;
use slasim_single::plan::easy::{self, Shadow};
use slasim_single::plan::profile::AvailabilityProfile;

/// The occupied profile of running jobs and reservations (what admission looks at).
///
/// Everything in the snapshot is reserved even where it holds more than the
/// machine (a snapshot is taken as the site has it, not re-admitted): the
/// profile is then overcommitted there, and admission and both policies read
/// such a window as having nothing free.
pub(super) fn occupied(snapshot: &Snapshot) -> AvailabilityProfile {
    let mut profile = AvailabilityProfile::new(snapshot.capacity);
    for &(procs, end) in &snapshot.running {
        if end > snapshot.now {
            profile.reserve(snapshot.now, end, procs);
        }
    }
    for &(start, end, procs) in &snapshot.reservations {
        if end > snapshot.now {
            profile.reserve(start.max(snapshot.now), end, procs);
        }
    }
    profile
}

/// True if `slot` fits beside running jobs and reservations (§4.1).
pub fn admissible(snapshot: &Snapshot, slot: SlotRequest) -> bool {
    admissible_on(&occupied(snapshot), snapshot, slot)
}

/// [`admissible`], given the snapshot's occupied profile.
pub(super) fn admissible_on(occupied: &AvailabilityProfile, snapshot: &Snapshot, slot: SlotRequest) -> bool {
    slot.procs > 0
        && slot.duration > 0
        && slot.start >= snapshot.now
        && slot.procs <= snapshot.capacity
        && occupied.min_free(slot.start, slot.start + slot.duration) >= slot.procs
}

/// The start of every queued job under `policy`, with `extra` reserved too.
/// `None` if `extra` does not fit.
pub fn schedule(snapshot: &Snapshot, policy: Policy, extra: Option<SlotRequest>) -> Option<Vec<Time>> {
    let mut profile = occupied(snapshot);
    if let Some(s) = extra {
        if !admissible_on(&profile, snapshot, s) {
            return None;
        }
        profile.reserve(s.start, s.start + s.duration, s.procs);
    }
    Some(match policy {
        Policy::Conservative => conservative(&mut profile, snapshot),
        Policy::Easy => easy(&mut profile, snapshot),
    })
}

fn conservative(profile: &mut AvailabilityProfile, snapshot: &Snapshot) -> Vec<Time> {
    snapshot.queue.iter().map(|&job| place(profile, snapshot.now, job)).collect()
}

/// Conservative backfilling of one queued job (processors, estimate): its
/// earliest start, reserved. A job wider than the machine never starts
/// (`Time::MAX`): it delays nobody.
pub(super) fn place(profile: &mut AvailabilityProfile, now: Time, (procs, estimate): (u32, Time)) -> Time {
    profile.reserve_earliest(now, estimate.max(1), procs, Time::MAX).unwrap_or(Time::MAX)
}

/// EASY forward (A19): at each instant one pass of the crate's EASY rule
/// ([`slasim_single::plan::easy`]): the head starts if it fits; otherwise it gets the
/// earliest start that fits and later jobs start now only if they leave that
/// start alone. Instants are now and every end that follows.
fn easy(profile: &mut AvailabilityProfile, snapshot: &Snapshot) -> Vec<Time> {
    let mut starts = vec![Time::MAX; snapshot.queue.len()];
    easy_run(profile, snapshot, &mut Easy::new(snapshot), &mut starts, None);
    starts
}

/// EASY forward between two instants: the instant, the queued jobs not yet
/// started (arrival order) and the instants to come (ends and head starts;
/// some repeat or lie in the past, and are skipped).
#[derive(Debug, Clone, Default)]
pub(super) struct Easy {
    pub(super) t: Time,
    pub(super) waiting: Vec<usize>,
    pub(super) events: BinaryHeap<Reverse<Time>>,
}

impl Easy {
    pub(super) fn new(snapshot: &Snapshot) -> Easy {
        let mut events = BinaryHeap::new();
        for &(_, end) in &snapshot.running {
            events.push(Reverse(end));
        }
        for &(start, end, _) in &snapshot.reservations {
            events.push(Reverse(start));
            events.push(Reverse(end));
        }
        let waiting = (0..snapshot.queue.len()).filter(|&i| snapshot.queue[i].0 <= snapshot.capacity).collect();
        Easy { t: snapshot.now, waiting, events }
    }
}

/// What the schedule without a slot keeps to re-plan from: the state before
/// every [`CHECKPOINT`]th instant with its profile, and for each queued job
/// the first instant whose decisions read its window (it starts then, or is
/// the head given the earliest start).
#[derive(Debug, Clone, Default)]
pub(super) struct EasyLog {
    pub(super) checkpoints: Vec<(Easy, AvailabilityProfile)>,
    pub(super) first_read: Vec<usize>,
}

/// Runs EASY forward from `state` until no job waits, writing starts; with a
/// `log`, records it.
pub(super) fn easy_run(
    profile: &mut AvailabilityProfile,
    snapshot: &Snapshot,
    state: &mut Easy,
    starts: &mut [Time],
    mut log: Option<&mut EasyLog>,
) {
    let Easy { t, waiting, events } = state;
    let mut instant = 0;
    while !waiting.is_empty() {
        // Every window tested from here on starts at t or later.
        profile.forget_before(*t);
        if let Some(log) = log.as_deref_mut() {
            if instant % CHECKPOINT == 0 {
                log.checkpoints
                    .push((Easy { t: *t, waiting: waiting.clone(), events: events.clone() }, profile.clone()));
            }
        }
        let mut read = |job: usize| {
            if let Some(log) = log.as_deref_mut() {
                log.first_read[job] = log.first_read[job].min(instant);
            }
        };
        // Start the head while it fits now.
        let mut started = 0;
        for &head in waiting.iter() {
            let (procs, estimate) = snapshot.queue[head];
            let estimate = easy::length(estimate);
            if easy::fits_now(profile, *t, procs, estimate) {
                profile.reserve(*t, *t + estimate, procs);
                starts[head] = *t;
                events.push(Reverse(*t + estimate));
                read(head);
                started += 1;
            } else {
                break;
            }
        }
        waiting.drain(..started);
        let Some(&head) = waiting.first() else { break };
        let (procs, estimate) = snapshot.queue[head];
        let Some(shadow) = Shadow::reserve(profile, *t, procs, easy::length(estimate)) else { break };
        read(head);
        // Backfill beside the head's reservation.
        let mut kept = 1;
        for i in 1..waiting.len() {
            let job = waiting[i];
            let (p, e) = snapshot.queue[job];
            let e = easy::length(e);
            if easy::fits_now(profile, *t, p, e) {
                profile.reserve(*t, *t + e, p);
                starts[job] = *t;
                events.push(Reverse(*t + e));
                read(job);
            } else {
                waiting[kept] = job;
                kept += 1;
            }
        }
        waiting.truncate(kept);
        let shadow_start = shadow.start();
        shadow.release(profile);
        // Next instant where capacity may free up (the shadow is one: the head fits there).
        events.push(Reverse(shadow_start));
        let mut next = None;
        while let Some(Reverse(e)) = events.pop() {
            if e > *t {
                next = Some(e);
                break;
            }
        }
        match next {
            Some(e) => *t = e,
            None => break,
        }
        instant += 1;
    }
}

/// Jobs (conservative) or instants (EASY) between two kept states of the
/// schedule without the slot.
pub(super) const CHECKPOINT: usize = 8;
