//! The free-slot set of one resource and the Figure 2 slot-set scheduler over it.
//!
//! Contract: a [`SlotSet`] is the set E of free blocks ("slots") of one resource
//! (`provisioning-dissertation-spec.md` §1.1, §1.2). Every processor-second of the
//! resource from the set's creation time on is either covered by exactly one slot
//! or used by exactly one task/reservation placed with [`SlotSet::place`] or
//! [`SlotSet::occupy`], so `free_at(t) + used(t) == N` for every `t` from creation
//! (§13 item 2). Edge slots ("free until the end of the schedule") are extensible and
//! divisible and are stored with `end == Time::MAX` (§2.4, §11 A4); constrained holes
//! are neither. Placement is the conservative-backfilling algorithm of Figure 2
//! (§2.3) with the left-over and merge rule of §2.4 (§11 A3), the ready-time change
//! of §11 A6, and origin tracking of fragments for allocation cost (§11 A8).
//! Advertisement follows §2.5; re-inserting running jobs and fixed reservations
//! (§2.7) uses [`SlotSet::occupy`]. Validation: §13 items 1 and 2.
//!
//! Like the thesis's algorithm, placement can only stack slots vertically (A7), so
//! in rare cases it misses the true earliest start of a profile-based scheduler.

use std::cmp::Reverse;

use crate::slots::{Advertised, FIXED_COST, OfferedSlot, UNIT_COST};
use slasim_core::units::{HOUR, Time};

/// The minimum advertisement window: 48 hours past "now" (§2.5).
pub const ADVERTISEMENT_WINDOW: Time = 48 * HOUR;

/// The margin past the latest finish time that is still advertised: 5 minutes (§2.5).
pub const ADVERTISEMENT_MARGIN: Time = 5 * 60;

/// A free block of `procs` processors over `[start, end)` (§1.1, §1.2).
///
/// Extensible (edge) slots have `end == Time::MAX`; `origin` names the advertised
/// slot a fragment descends from (0 for a cluster's own set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FreeSlot {
    /// First free second.
    pub start: Time,
    /// First second no longer free; `Time::MAX` for edge slots.
    pub end: Time,
    /// Number of free processors.
    pub procs: u32,
    /// Whether a user may provision part of the slot (`b`).
    pub divisible: bool,
    /// Whether the slot may be used past its end (`e`).
    pub extensible: bool,
    /// The advertised slot this block descends from.
    pub origin: u32,
}

impl FreeSlot {
    /// An edge slot: `procs` processors free from `start` on, extensible and divisible.
    pub fn edge(start: Time, procs: u32, origin: u32) -> FreeSlot {
        FreeSlot { start, end: Time::MAX, procs, divisible: true, extensible: true, origin }
    }

    /// A constrained hole: `procs` processors free over `[start, end)`, neither divisible nor extensible.
    pub fn hole(start: Time, end: Time, procs: u32, origin: u32) -> FreeSlot {
        FreeSlot { start, end, procs, divisible: false, extensible: false, origin }
    }

    /// The free block `offer` stands for, tagged with `origin`; extensible offers
    /// become edge slots again (`end == Time::MAX`), since Table 1 bounds them only at the start.
    pub fn offered(offer: &OfferedSlot, origin: u32) -> FreeSlot {
        let end = if offer.extensible { Time::MAX } else { offer.end() };
        FreeSlot {
            start: offer.start,
            end,
            procs: offer.procs,
            divisible: offer.divisible,
            extensible: offer.extensible,
            origin,
        }
    }

    /// Whether the slot covers the whole of `[a, b)`: `start <= a` and `end >= b`.
    pub fn is_active_over(&self, a: Time, b: Time) -> bool {
        self.start <= a && self.end >= b
    }

    /// Whether the slot covers instant `t`.
    pub fn is_free_at(&self, t: Time) -> bool {
        self.start <= t && t < self.end
    }

    /// The set's sort key: (start, end) as §2.4 requires, then the remaining merge key
    /// so that the order is total and merge candidates are adjacent.
    pub fn key(&self) -> (Time, Time, u64) {
        // The flags and the origin in one word, in the same order: one
        // comparison where a left-over steps to its place.
        let rest = u64::from(self.extensible) << 33 | u64::from(self.divisible) << 32 | u64::from(self.origin);
        (self.start, self.end, rest)
    }
}

/// The end of the advertisement window at `now` (§2.5, §11 A4):
/// `max(now + 48 h, latest_finish + 5 min)`, where `latest_finish` is the maximum
/// finish time of any task in the current schedule (pass `now` if there is none).
pub fn advertisement_horizon(now: Time, latest_finish: Time) -> Time {
    now.saturating_add(ADVERTISEMENT_WINDOW).max(latest_finish.saturating_add(ADVERTISEMENT_MARGIN))
}

/// What [`SlotSet::place`] took from one slot: `(origin, procs, start, end)`.
pub type Taken = (u32, u32, Time, Time);

/// Too few free processors for [`SlotSet::occupy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot occupy {procs} processors over [{start}, {end}): slots active over it hold only {free}")]
pub struct Conflict {
    /// Start of the requested block.
    pub start: Time,
    /// End of the requested block.
    pub end: Time,
    /// Processors requested.
    pub procs: u32,
    /// Processors of the slots active over the whole block.
    pub free: u32,
}

/// The set E of free slots of one resource and the Figure 2 scheduler over it (§2.3, §2.4).
///
/// Slots are kept sorted by (start asc, end asc), edge slots after finite ones of the
/// same start, and slots with identical span, flags and origin are merged.
#[derive(Debug, Default)]
pub struct SlotSet {
    slots: Vec<FreeSlot>,
    /// Scratch: the slots Z a task is carved from, as (index, processors taken).
    take: Vec<(usize, u32)>,
    /// Scratch: candidate slot indices for `occupy`.
    picks: Vec<usize>,
    /// Scratch: the holes a carve leaves, each with the index of the slot it was cut from.
    holes: Vec<(usize, FreeSlot)>,
    /// Scratch: the tails a carve leaves (all start where the task ends).
    tails: Vec<FreeSlot>,
    /// Scratch: positions of the slots a carve emptied, ascending.
    gaps: Vec<usize>,
    /// Scratch: (end, processors) of the slots counted in `place`'s capacity test.
    ends: std::collections::BinaryHeap<Reverse<(Time, u32)>>,
    /// Finite left-overs shorter than this are parked as they are made
    /// ([`SlotSet::park_shorter_than`]); 0: none are.
    park_below: Time,
    /// Left-overs parked since the last [`SlotSet::take_parked`].
    parked: Vec<FreeSlot>,
}

/// A copy holds the slots and the parking threshold; `clone_from` reuses the
/// target's buffers (a multi-site plan evaluation copies a bin per site and task).
impl Clone for SlotSet {
    fn clone(&self) -> SlotSet {
        SlotSet {
            slots: self.slots.clone(),
            park_below: self.park_below,
            parked: self.parked.clone(),
            ..SlotSet::default()
        }
    }

    fn clone_from(&mut self, source: &SlotSet) {
        self.slots.clone_from(&source.slots);
        self.park_below = source.park_below;
        self.parked.clone_from(&source.parked);
    }
}

/// Two sets are equal when their slots are (scratch buffers do not count).
impl PartialEq for SlotSet {
    fn eq(&self, other: &SlotSet) -> bool {
        self.slots == other.slots
    }
}

impl SlotSet {
    /// An empty resource of `procs` processors at `now`: the single edge slot `<now, procs, ∞>`, origin 0.
    pub fn new(now: Time, procs: u32) -> SlotSet {
        SlotSet::from_slots(vec![FreeSlot::edge(now, procs, 0)])
    }

    /// A set made of the given slots (e.g. a provisioner's chosen advertised slots, with
    /// their origins). Extensible slots are normalised to `end == Time::MAX`; empty slots
    /// are dropped; identical ones are merged.
    pub fn from_slots(slots: Vec<FreeSlot>) -> SlotSet {
        let mut set = SlotSet { slots, ..SlotSet::default() };
        set.stretch_and_normalise();
        set
    }

    /// Makes this set the one [`SlotSet::from_slots`] makes of `slots`, keeping
    /// its buffers (a plan evaluation refills its bins for every genome).
    pub fn refill(&mut self, slots: impl IntoIterator<Item = FreeSlot>) {
        self.park_below = 0;
        self.parked.clear();
        self.slots.clear();
        self.slots.extend(slots);
        self.stretch_and_normalise();
    }

    /// Extensible slots end at `Time::MAX`; then [`SlotSet::normalise`].
    fn stretch_and_normalise(&mut self) {
        for s in &mut self.slots {
            if s.extensible {
                s.end = Time::MAX;
            }
        }
        self.normalise();
    }

    /// The slots, sorted by (start, end).
    pub fn slots(&self) -> &[FreeSlot] {
        &self.slots
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the set has no slot at all.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Free processors at instant `t`: the sum over slots with `start <= t < end`.
    pub fn free_at(&self, t: Time) -> u32 {
        self.slots.iter().filter(|s| s.is_free_at(t)).fold(0u32, |acc, s| acc.saturating_add(s.procs))
    }

    /// Places a task of `procs` processors × `duration` seconds that may not start before
    /// `ready`, by Figure 2 (§2.3) with effective slot start `max(slot.start, ready)` (§11 A6).
    ///
    /// Scenario 1: the first slot (in set order) with enough processors and enough time
    /// from its effective start (or extensible) takes the task. Scenario 2: a slot with
    /// enough time but too few processors is stacked vertically with other slots starting
    /// no later than its effective start and active over the task's whole interval —
    /// predecessors nearest-first, then later slots — until enough processors are found.
    /// Left-overs and merging follow §2.4. `used` is cleared, then receives one
    /// [`Taken`] entry per slot carved from, so a provisioner can charge cost (§11 A8).
    ///
    /// Returns the start time, or `None` (set unchanged) if no placement exists. A task
    /// with no processors or `duration <= 0` uses nothing and starts at `ready`.
    pub fn place(&mut self, procs: u32, duration: Time, ready: Time, used: &mut Vec<Taken>) -> Option<Time> {
        used.clear();
        if procs == 0 || duration <= 0 {
            return Some(ready);
        }
        let Some((st, stop)) = self.choose(procs, duration, ready) else {
            self.take.clear();
            return None;
        };
        used.extend(self.take.iter().map(|&(j, k)| (self.slots[j].origin, k, st, stop)));
        self.carve(st, stop);
        Some(st)
    }

    /// Figure 2's choice for [`SlotSet::place`]: fills `self.take` with what
    /// to carve and returns the task's interval, or `None`.
    fn choose(&mut self, procs: u32, duration: Time, ready: Time) -> Option<(Time, Time)> {
        let n = self.slots.len();
        let need = u64::from(procs);
        // Both scenarios at slot i succeed iff the slots active over [st, stop) hold
        // `procs` processors. The capacity over [st, stop) is kept incrementally: st
        // and stop only grow with i, so the slots started by st enter once, and a
        // slot whose end falls below stop never counts again (a min-heap of the
        // finite ends drops them). O(n log n) per placement.
        self.ends.clear();
        let mut capacity: u64 = 0;
        let mut counted = false;
        // Slots [0, ready_end) start by `ready`: their effective start is `ready`
        // for all, so they share one interval and one capacity, tested once.
        let (st, stop) = (ready, ready.saturating_add(duration));
        let mut ready_end =
            self.slots.iter().position(|s| s.start > ready || (s.end >= stop && s.end > st)).unwrap_or(n);
        // The slots before it end before every later stop: none is ever stacked.
        let live = ready_end;
        if ready_end < n && self.slots[ready_end].start <= ready {
            // The first slot with enough time from `ready`.
            let i = ready_end;
            let si = self.slots[i];
            if si.procs >= procs {
                self.take.clear();
                self.take.push((i, procs));
                return Some((st, stop));
            }
            // The slots before i end too early to count.
            capacity = 0;
            while ready_end < n && self.slots[ready_end].start <= ready {
                let s = self.slots[ready_end];
                if s.end >= stop {
                    capacity += u64::from(s.procs);
                }
                ready_end += 1;
            }
            if capacity >= need && self.stack(i, i, st, stop, procs) {
                return Some((st, stop));
            }
            self.heap_finite_ends(i..ready_end, stop);
            counted = true;
        }
        // Slots [0, prefix) start no later than the current effective start.
        let mut prefix = ready_end;
        // Once the test failed for a start time, every later slot of that start fails too.
        let mut failed_at: Option<Time> = None;
        for i in ready_end..n {
            let si = self.slots[i];
            let (st, stop) = (si.start, si.start.saturating_add(duration));
            // Neither scenario applies to a slot without enough time from its start.
            if si.end < stop || si.end <= st || failed_at == Some(st) {
                continue;
            }
            if si.procs >= procs {
                self.take.clear();
                self.take.push((i, procs));
                return Some((st, stop));
            }
            if !counted {
                // First test: a plain sum (it often succeeds; the heap is built only if not).
                while prefix < n && self.slots[prefix].start <= st {
                    prefix += 1;
                }
                capacity = self.slots[..prefix].iter().filter(|s| s.end >= stop).map(|s| u64::from(s.procs)).sum();
                counted = true;
                if capacity < need {
                    self.heap_finite_ends(0..prefix, stop);
                }
            }
            while prefix < n && self.slots[prefix].start <= st {
                let s = self.slots[prefix];
                if s.end >= stop && s.procs > 0 {
                    // An edge slot never ends before a stop: counted, not heaped.
                    if s.end != Time::MAX {
                        self.ends.push(Reverse((s.end, s.procs)));
                    }
                    capacity += u64::from(s.procs);
                }
                prefix += 1;
            }
            while let Some(&Reverse((end, p))) = self.ends.peek() {
                if end >= stop {
                    break;
                }
                self.ends.pop();
                capacity -= u64::from(p);
            }
            if capacity >= need && self.stack(i, live, st, stop, procs) {
                return Some((st, stop));
            }
            failed_at = Some(st);
        }
        None
    }

    /// Adds to the heap of ends the finite slots of `range` active until `stop`
    /// (an edge slot never ends before a stop: it is counted, not heaped).
    fn heap_finite_ends(&mut self, range: std::ops::Range<usize>, stop: Time) {
        for s in &self.slots[range] {
            if s.end >= stop && s.end != Time::MAX && s.procs > 0 {
                self.ends.push(Reverse((s.end, s.procs)));
            }
        }
    }

    /// Scenario 2 at slot i over `[st, stop)`: takes S_i whole, then
    /// predecessors from `i − 1` down to `lo` nearest first, then later slots
    /// started by `st`, each active over the interval, until `procs` are
    /// found. Returns whether they were.
    fn stack(&mut self, i: usize, lo: usize, st: Time, stop: Time, procs: u32) -> bool {
        let si = self.slots[i];
        self.take.clear();
        self.take.push((i, si.procs));
        let mut need = procs - si.procs;
        for j in (lo..i).rev().chain(i + 1..self.slots.len()) {
            let sj = self.slots[j];
            if sj.start > st {
                // Sorted by start: no later slot has started by `st` either.
                break;
            }
            if sj.end < stop || sj.procs == 0 {
                continue;
            }
            let k = sj.procs.min(need);
            self.take.push((j, k));
            need -= k;
            if need == 0 {
                return true;
            }
        }
        false
    }

    /// Takes exactly `procs` processors over `[start, start + duration)` out of the slots
    /// active over that interval — used to re-insert running jobs and fixed reservations
    /// when rebuilding the set (§2.7). Best fit: slots starting latest (then ending earliest)
    /// are used first, to keep long free spans whole. Left-overs and merging follow §2.4.
    ///
    /// Fails (set unchanged) if those slots hold fewer than `procs` processors. Occupying
    /// blocks in non-decreasing start order on a set of edge slots never fails while the
    /// processor count suffices at every instant. Nothing happens for `procs == 0` or
    /// `duration <= 0`.
    pub fn occupy(&mut self, start: Time, procs: u32, duration: Time) -> Result<(), Conflict> {
        if procs == 0 || duration <= 0 {
            return Ok(());
        }
        let stop = start.saturating_add(duration);
        let slots = &self.slots;
        self.picks.clear();
        self.picks.extend((0..slots.len()).filter(|&j| slots[j].procs > 0 && slots[j].is_active_over(start, stop)));
        let free = self.picks.iter().fold(0u32, |acc, &j| acc.saturating_add(slots[j].procs));
        if free < procs {
            return Err(Conflict { start, end: stop, procs, free });
        }
        self.picks.sort_unstable_by_key(|&j| (Reverse(slots[j].start), slots[j].end, j));
        self.take.clear();
        let mut need = procs;
        for &j in &self.picks {
            let k = slots[j].procs.min(need);
            self.take.push((j, k));
            need -= k;
            if need == 0 {
                break;
            }
        }
        self.carve(start, stop);
        Ok(())
    }

    /// Drops slots that ended by `now` and clips earlier starts to `now`, then re-sorts
    /// and re-merges (the past can no longer be provisioned).
    pub fn forget_before(&mut self, now: Time) {
        self.slots.retain(|s| s.end > now);
        for s in &mut self.slots {
            s.start = s.start.max(now);
        }
        self.normalise();
    }

    /// The advertisement at `now` up to `horizon` (§2.5): every slot not yet ended, its start
    /// clipped to `now`; edge slots are advertised up to `horizon` (see
    /// [`advertisement_horizon`]; duration 0 if they start at or after it), holes up to
    /// their end; `c = 1` per processor-second, `f = 0`; flags as in the slot.
    pub fn advertise(&self, now: Time, horizon: Time) -> Vec<Advertised> {
        self.slots
            .iter()
            .filter(|s| s.end > now && s.procs > 0)
            .map(|s| {
                let start = s.start.max(now);
                let end = if s.end == Time::MAX { horizon } else { s.end };
                OfferedSlot {
                    start,
                    duration: end.saturating_sub(start).max(0),
                    procs: s.procs,
                    c: UNIT_COST,
                    f: FIXED_COST,
                    divisible: s.divisible,
                    extensible: s.extensible,
                }
            })
            .collect()
    }

    /// Moves every slot shorter than `min` (finite ones only) to `parked`: no task
    /// of at least `min` seconds can use it, alone or stacked (a stacked slot must
    /// span the task), so placements of such tasks are unchanged and faster.
    /// From then on the left-overs of placements shorter than `min` are parked as
    /// they are made, and [`SlotSet::take_parked`] hands them over.
    pub fn park_shorter_than(&mut self, min: Time, parked: &mut Vec<FreeSlot>) {
        if min <= 1 {
            return;
        }
        self.park_below = min;
        parked.append(&mut self.parked);
        self.slots.retain(|s| {
            let short = s.end != Time::MAX && s.end - s.start < min;
            if short {
                parked.push(*s);
            }
            !short
        });
    }

    /// Appends the left-overs parked since the last call to `parked`.
    pub fn take_parked(&mut self, parked: &mut Vec<FreeSlot>) {
        parked.append(&mut self.parked);
    }

    /// Replaces the slots at positions `indices` of [`SlotSet::slots`] with `rest`
    /// (origins reset to 0): what a provisioned plan leaves of the slots it selected, so
    /// the reserved work leaves the set exactly as the plan's evaluation consumed it.
    /// Returns false (and changes nothing) if an index is out of range or repeated.
    pub fn replace(&mut self, indices: &[u32], rest: &[FreeSlot]) -> bool {
        let mut sorted: Vec<u32> = indices.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) || sorted.last().is_some_and(|&i| i as usize >= self.slots.len()) {
            return false;
        }
        for &i in sorted.iter().rev() {
            self.slots.remove(i as usize);
        }
        self.slots.extend(rest.iter().map(|s| FreeSlot { origin: 0, ..*s }));
        self.normalise();
        true
    }

    /// Carves `[st, stop)` × `k_j` out of every slot `S_j` listed in `self.take` and adds
    /// the left-overs of §2.4: (a) `[S_j.start, st)` as a hole, (b) `[stop, S_j.end)` with
    /// `S_j`'s flags, (c) the untouched `S_j.n − k_j` over `S_j`'s span (kept in place).
    fn carve(&mut self, st: Time, stop: Time) {
        let (mut holes, mut tails) = (std::mem::take(&mut self.holes), std::mem::take(&mut self.tails));
        // The set was sorted with unique keys and shrinking keeps keys: dropping
        // the emptied slots and adding each left-over where its key belongs
        // (summed into a slot of the same key) gives what a full sort and merge
        // would. A carve empties and leaves a few slots in a set of many, so the
        // emptied ones stay as gaps a left-over can take (shifting only what lies
        // between), and the rest are shifted in or out. A hole's key lies just
        // before its slot's, so it is found by stepping from there; every tail
        // starts at `stop`, found by one search.
        self.take.sort_unstable_by_key(|&(j, _)| j);
        for &(j, k) in &self.take {
            let sj = self.slots[j];
            self.slots[j].procs -= k;
            if sj.start < st {
                holes.push((j, FreeSlot::hole(sj.start, st, k, sj.origin)));
            }
            if stop < sj.end {
                tails.push(FreeSlot { start: stop, procs: k, ..sj });
            }
        }
        let slots = &self.slots;
        self.gaps.clear();
        self.gaps.extend(self.take.iter().map(|&(j, _)| j).filter(|&j| slots[j].procs == 0));
        self.take.clear();
        for (near, s) in holes.drain(..) {
            if let Some(at) = self.admit(s, near) {
                self.put(at, s);
            }
        }
        // Where the tails go, give or take the slots a put shifts (admit steps from it).
        let from = self.slots.partition_point(|x| x.start < stop);
        for s in tails.drain(..) {
            if let Some(at) = self.admit(s, from) {
                self.put(at, s);
            }
        }
        for &g in self.gaps.iter().rev() {
            if self.slots[g].procs == 0 {
                self.slots.remove(g);
            }
        }
        self.holes = holes;
        self.tails = tails;
    }

    /// Puts `s` just before the slot at `at`, into the nearest gap (an
    /// emptied slot) if there is one, so only the slots between move.
    fn put(&mut self, at: usize, s: FreeSlot) {
        // A left-over summed into a gap's key filled it.
        let slots = &self.slots;
        self.gaps.retain(|&g| slots[g].procs == 0);
        let below = self.gaps.iter().rposition(|&g| g < at);
        let above = self.gaps.iter().position(|&g| g >= at);
        let nearest = match (below, above) {
            (Some(b), Some(a)) if at - self.gaps[b] <= self.gaps[a] - at => Some(b),
            (Some(b), None) => Some(b),
            (_, a) => a,
        };
        match nearest {
            Some(i) if self.gaps[i] < at => {
                let g = self.gaps.remove(i);
                self.slots.copy_within(g + 1..at, g);
                self.slots[at - 1] = s;
            }
            Some(i) => {
                let g = self.gaps.remove(i);
                self.slots.copy_within(at..g, at + 1);
                self.slots[at] = s;
            }
            None => {
                self.slots.insert(at, s);
                for g in &mut self.gaps {
                    if *g >= at {
                        *g += 1;
                    }
                }
            }
        }
    }

    /// Where left-over `s` goes, searched by stepping from `near`: `None` if
    /// it is empty, parked, or summed into the slot of its key.
    fn admit(&mut self, s: FreeSlot, near: usize) -> Option<usize> {
        if s.procs == 0 || s.start >= s.end {
            return None;
        }
        // A set that parks short slots holds none: a short left-over has
        // no slot of its key to join, and would be parked next.
        if s.end != Time::MAX && s.end - s.start < self.park_below {
            self.parked.push(s);
            return None;
        }
        let key = s.key();
        let mut at = near.min(self.slots.len());
        while at > 0 && self.slots[at - 1].key() >= key {
            at -= 1;
        }
        while at < self.slots.len() && self.slots[at].key() < key {
            at += 1;
        }
        match self.slots.get_mut(at) {
            Some(same) if same.key() == key => {
                same.procs = same.procs.saturating_add(s.procs);
                None
            }
            _ => Some(at),
        }
    }

    /// Drops empty slots, sorts by (start, end, flags, origin) and merges identical blocks.
    fn normalise(&mut self) {
        self.slots.retain(|s| s.procs > 0 && s.start < s.end);
        self.slots.sort_unstable_by_key(FreeSlot::key);
        self.slots.dedup_by(|later, kept| {
            let same = later.key() == kept.key();
            if same {
                kept.procs = kept.procs.saturating_add(later.procs);
            }
            same
        });
    }
}
