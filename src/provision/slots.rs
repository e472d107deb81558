//! Free-slot sets and the Figure 2 slot-set scheduler.
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
//! (§2.7) uses [`SlotSet::occupy`]. The cost of a sub-slot of an offered slot is
//! Table 1 (§1.3), [`sub_slot_cost`]. Validation: §13 items 1–3.
//!
//! Like the thesis's algorithm, placement can only stack slots vertically (A7), so
//! in rare cases it misses the true earliest start of a profile-based scheduler.

use std::cmp::Reverse;

use crate::units::{HOUR, Time};

/// The minimum advertisement window: 48 hours past "now" (§2.5).
pub const ADVERTISEMENT_WINDOW: Time = 48 * HOUR;

/// The margin past the latest finish time that is still advertised: 5 minutes (§2.5).
pub const ADVERTISEMENT_MARGIN: Time = 5 * 60;

/// The per-unit cost `c` of every advertised slot, per processor-second (§2.5).
pub const UNIT_COST: f64 = 1.0;

/// The fixed cost `f` of every advertised slot (§2.5).
pub const FIXED_COST: f64 = 0.0;

/// A free block of `procs` processors over `[start, end)` (§1.1, §1.2).
///
/// Extensible (edge) slots have `end == Time::MAX`; `origin` names the advertised
/// slot a fragment descends from (0 for a cluster's own set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
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

impl Slot {
    /// An edge slot: `procs` processors free from `start` on, extensible and divisible.
    pub fn edge(start: Time, procs: u32, origin: u32) -> Slot {
        Slot { start, end: Time::MAX, procs, divisible: true, extensible: true, origin }
    }

    /// A constrained hole: `procs` processors free over `[start, end)`, neither divisible nor extensible.
    pub fn hole(start: Time, end: Time, procs: u32, origin: u32) -> Slot {
        Slot { start, end, procs, divisible: false, extensible: false, origin }
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
    fn key(&self) -> (Time, Time, u64) {
        // The flags and the origin in one word, in the same order: one
        // comparison where a left-over steps to its place.
        let rest = u64::from(self.extensible) << 33 | u64::from(self.divisible) << 32 | u64::from(self.origin);
        (self.start, self.end, rest)
    }
}

/// A slot as offered to users: `<s, n, d, c, f, b, e>` (§1.2, eq 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OfferedSlot {
    /// Start time `s`.
    pub start: Time,
    /// Duration `d`, in seconds; for extensible slots the advertised part only.
    pub duration: Time,
    /// Number of processors `n`.
    pub procs: u32,
    /// Per-unit cost `c`, per processor-second.
    pub c: f64,
    /// Fixed cost `f`.
    pub f: f64,
    /// Divisible flag `b`.
    pub divisible: bool,
    /// Extensible flag `e`.
    pub extensible: bool,
}

/// An advertised slot (§2.5); the same record as an [`OfferedSlot`].
pub type Advertised = OfferedSlot;

impl OfferedSlot {
    /// The advertised end, `s + d`.
    pub fn end(&self) -> Time {
        self.start.saturating_add(self.duration)
    }

    /// The cost of provisioning the whole slot as offered: `n × d × c + f` (§1.1).
    pub fn total_cost(&self) -> f64 {
        f64::from(self.procs) * self.duration as f64 * self.c + self.f
    }

    /// The free block this offer stands for, tagged with `origin`; extensible offers
    /// become edge slots again (`end == Time::MAX`), since Table 1 bounds them only at the start.
    pub fn to_slot(&self, origin: u32) -> Slot {
        let end = if self.extensible { Time::MAX } else { self.end() };
        Slot {
            start: self.start,
            end,
            procs: self.procs,
            divisible: self.divisible,
            extensible: self.extensible,
            origin,
        }
    }
}

/// A requested part `<s_k, n_k, d_k>` of an offered slot (§1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubSlot {
    /// Start time `s_k`.
    pub start: Time,
    /// Number of processors `n_k`.
    pub procs: u32,
    /// Duration `d_k`, in seconds.
    pub duration: Time,
}

/// A sub-slot that breaks a restriction of Table 1 (§1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SubSlotError {
    /// The sub-slot has no processors or no duration.
    #[error("empty sub-slot: n_k = {procs}, d_k = {duration} (both must be positive)")]
    Empty {
        /// Requested processors.
        procs: u32,
        /// Requested duration.
        duration: Time,
    },
    /// Non-divisible slot: `n_k = n_i` is required.
    #[error("non-divisible slot: n_k = {requested} must equal n_i = {offered}")]
    ProcsMustEqual {
        /// `n_i`.
        offered: u32,
        /// `n_k`.
        requested: u32,
    },
    /// Divisible slot: `n_k <= n_i` is required.
    #[error("divisible slot: n_k = {requested} must not exceed n_i = {offered}")]
    TooManyProcs {
        /// `n_i`.
        offered: u32,
        /// `n_k`.
        requested: u32,
    },
    /// Non-divisible slot: `s_k = s_i` is required.
    #[error("non-divisible slot: s_k = {requested} must equal s_i = {offered}")]
    StartMustEqual {
        /// `s_i`.
        offered: Time,
        /// `s_k`.
        requested: Time,
    },
    /// Divisible slot: `s_i <= s_k` is required.
    #[error("divisible slot: s_k = {requested} must not precede s_i = {offered}")]
    StartsTooEarly {
        /// `s_i`.
        offered: Time,
        /// `s_k`.
        requested: Time,
    },
    /// Non-divisible, non-extensible slot: `d_k = d_i` is required.
    #[error("non-divisible, non-extensible slot: d_k = {requested} must equal d_i = {offered}")]
    DurationMustEqual {
        /// `d_i`.
        offered: Time,
        /// `d_k`.
        requested: Time,
    },
    /// Non-divisible, extensible slot: `d_k >= d_i` is required.
    #[error("non-divisible, extensible slot: d_k = {requested} must be at least d_i = {offered}")]
    DurationTooShort {
        /// `d_i`.
        offered: Time,
        /// `d_k`.
        requested: Time,
    },
    /// Divisible, non-extensible slot: `s_k + d_k <= s_i + d_i` is required.
    #[error("divisible, non-extensible slot: s_k + d_k = {requested} must not exceed s_i + d_i = {offered}")]
    EndsTooLate {
        /// `s_i + d_i`.
        offered: Time,
        /// `s_k + d_k`.
        requested: Time,
    },
}

/// The cost of provisioning `sub` out of `offered`, by Table 1 (§1.3):
///
/// | b | e | restrictions | cost |
/// |---|---|---|---|
/// | false | false | n_k = n_i, s_k = s_i, d_k = d_i | n_i × d_i × c + f |
/// | false | true | n_k = n_i, s_k = s_i, d_k ≥ d_i | n_i × d_k × c + f |
/// | true | false | n_k ≤ n_i, s_i ≤ s_k, s_k + d_k ≤ s_i + d_i | n_k × d_k × c + f |
/// | true | true | n_k ≤ n_i, s_i ≤ s_k | n_k × d_k × c + f |
///
/// Additionally an empty sub-slot (`n_k = 0` or `d_k <= 0`) is rejected.
pub fn sub_slot_cost(offered: &OfferedSlot, sub: SubSlot) -> Result<f64, SubSlotError> {
    if sub.procs == 0 || sub.duration <= 0 {
        return Err(SubSlotError::Empty { procs: sub.procs, duration: sub.duration });
    }
    let (n_i, s_i, d_i) = (offered.procs, offered.start, offered.duration);
    let (n_k, s_k, d_k) = (sub.procs, sub.start, sub.duration);
    let cost = |n: u32, d: Time| f64::from(n) * d as f64 * offered.c + offered.f;
    if offered.divisible {
        if n_k > n_i {
            return Err(SubSlotError::TooManyProcs { offered: n_i, requested: n_k });
        }
        if s_k < s_i {
            return Err(SubSlotError::StartsTooEarly { offered: s_i, requested: s_k });
        }
        let (end_i, end_k) = (offered.end(), s_k.saturating_add(d_k));
        if !offered.extensible && end_k > end_i {
            return Err(SubSlotError::EndsTooLate { offered: end_i, requested: end_k });
        }
        Ok(cost(n_k, d_k))
    } else {
        if n_k != n_i {
            return Err(SubSlotError::ProcsMustEqual { offered: n_i, requested: n_k });
        }
        if s_k != s_i {
            return Err(SubSlotError::StartMustEqual { offered: s_i, requested: s_k });
        }
        if offered.extensible {
            if d_k < d_i {
                return Err(SubSlotError::DurationTooShort { offered: d_i, requested: d_k });
            }
            Ok(cost(n_i, d_k))
        } else {
            if d_k != d_i {
                return Err(SubSlotError::DurationMustEqual { offered: d_i, requested: d_k });
            }
            Ok(cost(n_i, d_i))
        }
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
    slots: Vec<Slot>,
    /// Scratch: the slots Z a task is carved from, as (index, processors taken).
    take: Vec<(usize, u32)>,
    /// Scratch: candidate slot indices for `occupy`.
    picks: Vec<usize>,
    /// Scratch: the holes a carve leaves, each with the index of the slot it was cut from.
    holes: Vec<(usize, Slot)>,
    /// Scratch: the tails a carve leaves (all start where the task ends).
    tails: Vec<Slot>,
    /// Scratch: positions of the slots a carve emptied, ascending.
    gaps: Vec<usize>,
    /// Scratch: (end, processors) of the slots counted in `place`'s capacity test.
    ends: std::collections::BinaryHeap<Reverse<(Time, u32)>>,
    /// Finite left-overs shorter than this are parked as they are made
    /// ([`SlotSet::park_shorter_than`]); 0: none are.
    park_below: Time,
    /// Left-overs parked since the last [`SlotSet::take_parked`].
    parked: Vec<Slot>,
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
        SlotSet::from_slots(vec![Slot::edge(now, procs, 0)])
    }

    /// A set made of the given slots (e.g. a provisioner's chosen advertised slots, with
    /// their origins). Extensible slots are normalised to `end == Time::MAX`; empty slots
    /// are dropped; identical ones are merged.
    pub fn from_slots(slots: Vec<Slot>) -> SlotSet {
        let mut set = SlotSet { slots, ..SlotSet::default() };
        set.stretch_and_normalise();
        set
    }

    /// Makes this set the one [`SlotSet::from_slots`] makes of `slots`, keeping
    /// its buffers (a plan evaluation refills its bins for every genome).
    pub fn refill(&mut self, slots: impl IntoIterator<Item = Slot>) {
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
    pub fn slots(&self) -> &[Slot] {
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
    pub fn park_shorter_than(&mut self, min: Time, parked: &mut Vec<Slot>) {
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
    pub fn take_parked(&mut self, parked: &mut Vec<Slot>) {
        parked.append(&mut self.parked);
    }

    /// Replaces the slots at positions `indices` of [`SlotSet::slots`] with `rest`
    /// (origins reset to 0): what a provisioned plan leaves of the slots it selected, so
    /// the reserved work leaves the set exactly as the plan's evaluation consumed it.
    /// Returns false (and changes nothing) if an index is out of range or repeated.
    pub fn replace(&mut self, indices: &[u32], rest: &[Slot]) -> bool {
        let mut sorted: Vec<u32> = indices.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) || sorted.last().is_some_and(|&i| i as usize >= self.slots.len()) {
            return false;
        }
        for &i in sorted.iter().rev() {
            self.slots.remove(i as usize);
        }
        self.slots.extend(rest.iter().map(|s| Slot { origin: 0, ..*s }));
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
                holes.push((j, Slot::hole(sj.start, st, k, sj.origin)));
            }
            if stop < sj.end {
                tails.push(Slot { start: stop, procs: k, ..sj });
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
    fn put(&mut self, at: usize, s: Slot) {
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
    fn admit(&mut self, s: Slot, near: usize) -> Option<usize> {
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
        self.slots.sort_unstable_by_key(Slot::key);
        self.slots.dedup_by(|later, kept| {
            let same = later.key() == kept.key();
            if same {
                kept.procs = kept.procs.saturating_add(later.procs);
            }
            same
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const H: Time = HOUR;

    /// Shorthand for the expected sets: `(start h, procs, Some(end h))` for holes, `None` for edge slots.
    fn set_of(spec: &[(Time, u32, Option<Time>)]) -> Vec<Slot> {
        spec.iter()
            .map(|&(s, n, e)| match e {
                Some(e) => Slot::hole(s * H, e * H, n, 0),
                None => Slot::edge(s * H, n, 0),
            })
            .collect()
    }

    /// Figure 1 (§2.2, §2.4, §13 item 1).
    #[test]
    fn figure_1_worked_example() {
        let mut set = SlotSet::new(0, 5);
        let mut used = Vec::new();

        // A (2p × 3h): scenario 1 on <0,5p,∞> at 0; (b) <3,2p,∞>, (c) <0,3p,∞>.
        assert_eq!(set.place(2, 3 * H, 0, &mut used), Some(0));
        assert_eq!(set.slots(), set_of(&[(0, 3, None), (3, 2, None)]));
        assert_eq!(used, vec![(0, 2, 0, 3 * H)]);

        // B (4p × 1h): <0,3p,∞> alone is 1 short and nothing else has started at 0;
        // <3,2p,∞> + predecessor <0,3p,∞> (2 of 3) at 3. Left-overs: from <3,2p,∞> (b) <4,2p,∞>;
        // from <0,3p,∞> (a) hole <0,2p,[0,3)>, (b) <4,2p,∞>, (c) <0,1p,∞>; merge <4,4p,∞>.
        assert_eq!(set.place(4, H, 0, &mut used), Some(3 * H));
        assert_eq!(set.slots(), set_of(&[(0, 2, Some(3)), (0, 1, None), (4, 4, None)]));
        assert_eq!(used, vec![(0, 2, 3 * H, 4 * H), (0, 2, 3 * H, 4 * H)]);

        // C (1p × 2h): scenario 1 on the hole <0,2p,[0,3)> (3h ≥ 2h) at 0:
        // (b) <2,1p,[2,3)>, (c) <0,1p,[0,3)>.
        assert_eq!(set.place(1, 2 * H, 0, &mut used), Some(0));
        assert_eq!(set.slots(), set_of(&[(0, 1, Some(3)), (0, 1, None), (2, 1, Some(3)), (4, 4, None)]));

        // D (3p × 2h): at 0 only 1 + 1 processors stack; <2,1p,[2,3)> is too short;
        // scenario 1 on <4,4p,∞> at 4: (b) <6,3p,∞>, (c) <4,1p,∞>.
        assert_eq!(set.place(3, 2 * H, 0, &mut used), Some(4 * H));
        // Figure 1's S3, S1, S2, S4, S5.
        let fig1 = set_of(&[(0, 1, Some(3)), (0, 1, None), (2, 1, Some(3)), (4, 1, None), (6, 3, None)]);
        assert_eq!(set.slots(), fig1);

        // A 2p × 2h task backfills at 0 into S3 (hole, taken first) + S1 (edge).
        assert_eq!(set.place(2, 2 * H, 0, &mut used), Some(0));
        assert_eq!(used, vec![(0, 1, 0, 2 * H), (0, 1, 0, 2 * H)]);
        // S3 leaves <2,1p,[2,3)> (merges with S2); S1 leaves <2,1p,∞>.
        assert_eq!(set.slots(), set_of(&[(2, 2, Some(3)), (2, 1, None), (4, 1, None), (6, 3, None)]));
    }

    fn offer(divisible: bool, extensible: bool) -> OfferedSlot {
        // 4 processors from 10 s for 100 s, c = 2 per processor-second, f = 5.
        OfferedSlot { start: 10, duration: 100, procs: 4, c: 2.0, f: 5.0, divisible, extensible }
    }

    fn sub(start: Time, procs: u32, duration: Time) -> SubSlot {
        SubSlot { start, procs, duration }
    }

    /// Table 1, row b = false, e = false (§1.3).
    #[test]
    fn table_1_rigid_hole() {
        let o = offer(false, false);
        // n_i d_i c + f = 4 × 100 × 2 + 5.
        assert_eq!(sub_slot_cost(&o, sub(10, 4, 100)), Ok(805.0));
        assert_eq!(o.total_cost(), 805.0);
        assert_eq!(sub_slot_cost(&o, sub(10, 3, 100)), Err(SubSlotError::ProcsMustEqual { offered: 4, requested: 3 }));
        assert_eq!(
            sub_slot_cost(&o, sub(20, 4, 100)),
            Err(SubSlotError::StartMustEqual { offered: 10, requested: 20 })
        );
        assert_eq!(
            sub_slot_cost(&o, sub(10, 4, 50)),
            Err(SubSlotError::DurationMustEqual { offered: 100, requested: 50 })
        );
        assert_eq!(
            sub_slot_cost(&o, sub(10, 4, 150)),
            Err(SubSlotError::DurationMustEqual { offered: 100, requested: 150 })
        );
    }

    /// Table 1, row b = false, e = true.
    #[test]
    fn table_1_non_divisible_extensible() {
        let o = offer(false, true);
        // n_i d_k c + f = 4 × 150 × 2 + 5.
        assert_eq!(sub_slot_cost(&o, sub(10, 4, 150)), Ok(1205.0));
        assert_eq!(sub_slot_cost(&o, sub(10, 4, 100)), Ok(805.0));
        assert_eq!(
            sub_slot_cost(&o, sub(10, 4, 99)),
            Err(SubSlotError::DurationTooShort { offered: 100, requested: 99 })
        );
        assert_eq!(sub_slot_cost(&o, sub(10, 2, 150)), Err(SubSlotError::ProcsMustEqual { offered: 4, requested: 2 }));
        assert_eq!(
            sub_slot_cost(&o, sub(11, 4, 150)),
            Err(SubSlotError::StartMustEqual { offered: 10, requested: 11 })
        );
    }

    /// Table 1, row b = true, e = false.
    #[test]
    fn table_1_divisible_bounded() {
        let o = offer(true, false);
        // n_k d_k c + f = 3 × 40 × 2 + 5; [50, 90) lies inside [10, 110).
        assert_eq!(sub_slot_cost(&o, sub(50, 3, 40)), Ok(245.0));
        // Exactly up to the end: [60, 110).
        assert_eq!(sub_slot_cost(&o, sub(60, 1, 50)), Ok(105.0));
        assert_eq!(sub_slot_cost(&o, sub(60, 1, 51)), Err(SubSlotError::EndsTooLate { offered: 110, requested: 111 }));
        assert_eq!(sub_slot_cost(&o, sub(9, 1, 10)), Err(SubSlotError::StartsTooEarly { offered: 10, requested: 9 }));
        assert_eq!(sub_slot_cost(&o, sub(10, 5, 10)), Err(SubSlotError::TooManyProcs { offered: 4, requested: 5 }));
    }

    /// Table 1, row b = true, e = true (edge slots).
    #[test]
    fn table_1_edge_slot() {
        let o = offer(true, true);
        // Past the advertised end is fine: 2 × 1000 × 2 + 5.
        assert_eq!(sub_slot_cost(&o, sub(500, 2, 1000)), Ok(4005.0));
        assert_eq!(sub_slot_cost(&o, sub(5, 2, 10)), Err(SubSlotError::StartsTooEarly { offered: 10, requested: 5 }));
        assert_eq!(sub_slot_cost(&o, sub(10, 5, 10)), Err(SubSlotError::TooManyProcs { offered: 4, requested: 5 }));
        assert_eq!(sub_slot_cost(&o, sub(10, 0, 10)), Err(SubSlotError::Empty { procs: 0, duration: 10 }));
        assert_eq!(sub_slot_cost(&o, sub(10, 1, 0)), Err(SubSlotError::Empty { procs: 1, duration: 0 }));
        assert_eq!(
            SubSlotError::EndsTooLate { offered: 110, requested: 111 }.to_string(),
            "divisible, non-extensible slot: s_k + d_k = 111 must not exceed s_i + d_i = 110"
        );
    }

    fn figure_1_final() -> SlotSet {
        SlotSet::from_slots(set_of(&[(0, 1, Some(3)), (0, 1, None), (2, 1, Some(3)), (4, 1, None), (6, 3, None)]))
    }

    /// Ready times (§11 A6) on the Figure 1 set.
    #[test]
    fn ready_time_delays_start() {
        let mut used = Vec::new();
        // 1p × 1h ready at 5h: both holes end at 3h; S1 <0,1p,∞> is effective at 5h.
        // Left-overs: (a) hole <0,1p,[0,5)>, (b) <6,1p,∞> merging into <6,4p,∞>.
        let mut set = figure_1_final();
        assert_eq!(set.place(1, H, 5 * H, &mut used), Some(5 * H));
        assert_eq!(
            set.slots(),
            set_of(&[(0, 1, Some(3)), (0, 1, Some(5)), (2, 1, Some(3)), (4, 1, None), (6, 4, None)])
        );

        // 3p × 1h ready at 5h: over [5h, 6h) only S1 and S4 are free (2p), so the task
        // waits for S5 at 6h.
        let mut set = figure_1_final();
        let start = set.place(3, H, 5 * H, &mut used);
        assert_eq!(start, Some(6 * H));
        assert_eq!(used, vec![(0, 3, 6 * H, 7 * H)]);

        // 2p × 1h ready at 5h: S1 + S4 (start 4 ≤ 5, a later slot in the list) stack at 5h.
        let mut set = figure_1_final();
        assert_eq!(set.place(2, H, 5 * H, &mut used), Some(5 * H));
        assert_eq!(used, vec![(0, 1, 5 * H, 6 * H), (0, 1, 5 * H, 6 * H)]);
    }

    #[test]
    fn occupy_takes_exact_block_and_reports_conflicts() {
        // Running job 3p until 2h at now = 0, then a reservation of 4p over [3h, 5h) on 5 processors.
        let mut set = SlotSet::new(0, 5);
        assert_eq!(set.occupy(0, 3, 2 * H), Ok(()));
        assert_eq!(set.slots(), set_of(&[(0, 2, None), (2, 3, None)]));
        // Best fit takes <2,3p,∞> whole ((a) hole <2,3p,[2,3)>), then 1 of <0,2p,∞>
        // ((a) hole <0,1p,[0,3)>, (c) <0,1p,∞>); both (b) parts merge into <5,4p,∞>.
        assert_eq!(set.occupy(3 * H, 4, 2 * H), Ok(()));
        assert_eq!(set.slots(), set_of(&[(0, 1, Some(3)), (0, 1, None), (2, 3, Some(3)), (5, 4, None)]));
        // Over [4h, 6h) only <0,1p,∞> is active: 2 processors conflict, set unchanged.
        let before = set.slots().to_vec();
        let err = set.occupy(4 * H, 2, 2 * H);
        assert_eq!(err, Err(Conflict { start: 4 * H, end: 6 * H, procs: 2, free: 1 }));
        assert_eq!(set.slots(), before);
        // Nothing is free over [0, 1h) beyond 2 processors either.
        assert_eq!(set.occupy(0, 3, H).map_err(|c| c.free), Err(2));
    }

    #[test]
    fn place_fails_without_room() {
        let mut used = vec![(9, 9, 9, 9)];
        // Only holes: 2p × 2h and 1p × 1h.
        let mut set = SlotSet::from_slots(vec![Slot::hole(0, 2 * H, 2, 1), Slot::hole(0, H, 1, 2)]);
        assert_eq!(set.place(2, 3 * H, 0, &mut used), None);
        assert!(used.is_empty());
        assert_eq!(set.place(4, H, 0, &mut used), None);
        assert_eq!(set.len(), 2);
        // 3p × 1h stacks both origins at 0: the shorter <0,1p,[0,1h)> (origin 2) sorts first
        // and is S_i; the later-listed <0,2p,[0,2h)> (origin 1) has started by 0 (A6) and adds 2.
        assert_eq!(set.place(3, H, 0, &mut used), Some(0));
        assert_eq!(used, vec![(2, 1, 0, H), (1, 2, 0, H)]);
        // Left: origin 1 keeps <1h,2p,[1h,2h)> as a hole.
        assert_eq!(set.slots(), &[Slot::hole(H, 2 * H, 2, 1)]);
        // More processors than the resource has never fit.
        assert_eq!(SlotSet::new(0, 4).place(5, H, 0, &mut used), None);
    }

    #[test]
    fn from_slots_normalises_and_keeps_origins_apart() {
        let edge_cut =
            OfferedSlot { start: 0, duration: 10, procs: 2, c: 1.0, f: 0.0, divisible: true, extensible: true };
        let set = SlotSet::from_slots(vec![
            edge_cut.to_slot(3),
            Slot::edge(0, 1, 3),
            Slot::edge(0, 4, 7),
            Slot::hole(5, 5, 2, 1),
            Slot::hole(0, 5, 0, 1),
        ]);
        assert_eq!(set.slots(), &[Slot::edge(0, 3, 3), Slot::edge(0, 4, 7)]);
        assert_eq!(set.free_at(1_000_000), 7);
        assert!(!set.is_empty());
    }

    #[test]
    fn forget_before_clips_and_merges() {
        let mut set = figure_1_final();
        set.forget_before(2 * H);
        // S3 clipped to [2,3) merges with S2; S1 clipped to start at 2.
        assert_eq!(set.slots(), set_of(&[(2, 2, Some(3)), (2, 1, None), (4, 1, None), (6, 3, None)]));
        set.forget_before(3 * H);
        assert_eq!(set.slots(), set_of(&[(3, 1, None), (4, 1, None), (6, 3, None)]));
        assert_eq!((set.free_at(3 * H), set.free_at(5 * H), set.free_at(6 * H)), (1, 2, 5));
    }

    #[test]
    fn advertisement_of_figure_1() {
        // Max finish 6h: horizon = max(0 + 48h, 6h + 5min) = 48h.
        assert_eq!(advertisement_horizon(0, 6 * H), 48 * H);
        assert_eq!(advertisement_horizon(0, 48 * H), 48 * H + 300);
        let set = figure_1_final();
        let ad = set.advertise(0, 48 * H);
        let got: Vec<_> = ad.iter().map(|a| (a.start, a.procs, a.duration, a.divisible, a.extensible)).collect();
        assert_eq!(
            got,
            vec![
                (0, 1, 3 * H, false, false),
                (0, 1, 48 * H, true, true),
                (2 * H, 1, H, false, false),
                (4 * H, 1, 44 * H, true, true),
                (6 * H, 3, 42 * H, true, true),
            ]
        );
        assert!(ad.iter().all(|a| a.c == 1.0 && a.f == 0.0));
        // At 2.5h: S3 and S2 are clipped to [2.5h, 3h); edge slots end at the new horizon.
        let now = 2 * H + H / 2;
        let ad = set.advertise(now, advertisement_horizon(now, 6 * H));
        assert_eq!(
            ad.iter().map(|a| (a.start, a.duration)).collect::<Vec<_>>()[..3],
            [(now, H / 2), (now, 48 * H), (now, H / 2)]
        );
        // At 3h both holes are gone.
        assert_eq!(set.advertise(3 * H, 51 * H).len(), 3);
        // An advertised edge slot turns back into an unbounded slot.
        assert_eq!(set.advertise(0, 48 * H)[4].to_slot(4), Slot::edge(6 * H, 3, 4));
    }

    /// Processors used at `t` by tasks `(start, procs, duration)`.
    fn used_at(tasks: &[(Time, u32, Time)], t: Time) -> u32 {
        tasks.iter().filter(|&&(s, _, d)| s <= t && t < s + d).map(|&(_, n, _)| n).sum()
    }

    /// §13 item 2: `free_at(t) + used(t) == N` at every breakpoint and on a grid from `from` on.
    fn check_conservation(set: &SlotSet, tasks: &[(Time, u32, Time)], n: u32, from: Time) -> Result<(), TestCaseError> {
        let mut points: Vec<Time> = (0..200).map(|k| from + 3 * k).collect();
        for s in set.slots() {
            points.push(s.start);
            if s.end != Time::MAX {
                points.push(s.end);
            }
        }
        for &(s, _, d) in tasks {
            points.extend([s, s + d]);
        }
        for t in points.into_iter().filter(|&t| t >= from) {
            prop_assert_eq!(set.free_at(t) + used_at(tasks, t), n, "t = {}", t);
        }
        prop_assert!(set.slots().iter().all(|s| s.start >= from && s.procs > 0 && s.start < s.end));
        prop_assert!(set.slots().windows(2).all(|w| w[0].key() < w[1].key()), "sorted and merged");
        Ok(())
    }

    /// Figure 2 and §2.4 as written, for comparison: every slot tried in
    /// order, the capacity summed afresh, the left-overs sorted and merged
    /// with the whole set. Returns the start, the set after, and what was taken.
    fn reference_place(slots: &[Slot], procs: u32, duration: Time, ready: Time) -> Option<(Time, SlotSet, Vec<Taken>)> {
        for (i, si) in slots.iter().enumerate() {
            let st = si.start.max(ready);
            let stop = st.saturating_add(duration);
            if si.end < stop || si.end <= st {
                continue;
            }
            let mut take = vec![(i, si.procs.min(procs))];
            let mut need = procs - take[0].1;
            for j in (0..i).rev().chain(i + 1..slots.len()) {
                let sj = slots[j];
                if need == 0 || sj.start > st {
                    break;
                }
                if sj.end >= stop && sj.procs > 0 {
                    let k = sj.procs.min(need);
                    take.push((j, k));
                    need -= k;
                }
            }
            if need > 0 {
                continue;
            }
            let mut after = slots.to_vec();
            let mut used = Vec::new();
            for &(j, k) in &take {
                let sj = slots[j];
                after[j].procs -= k;
                after.push(Slot::hole(sj.start, st, k, sj.origin));
                after.push(Slot { start: stop, procs: k, ..sj });
                used.push((sj.origin, k, st, stop));
            }
            return Some((st, SlotSet::from_slots(after), used));
        }
        None
    }

    proptest! {
        #![proptest_config(crate::testing::cases(256))]

        /// Every task fits, never before its ready time or the set's creation, the used list
        /// matches the task, and capacity is conserved (§13 item 2).
        #[test]
        fn place_conserves_processors(
            n in 1u32..=16,
            now in 0i64..50,
            running in proptest::collection::vec((1u32..=16, 1i64..40), 0..3),
            tasks in proptest::collection::vec((1u32..=16, 1i64..40, 0i64..150), 1..30),
        ) {
            let mut set = SlotSet::new(now, n);
            let mut placed = Vec::new();
            let mut busy = 0;
            for (p, d) in running {
                let p = 1 + (p - 1) % n;
                if busy + p <= n {
                    prop_assert_eq!(set.occupy(now, p, d), Ok(()));
                    placed.push((now, p, d));
                    busy += p;
                }
            }
            let mut used = Vec::new();
            for (p, d, ready) in tasks {
                let p = 1 + (p - 1) % n;
                let st = set.place(p, d, ready, &mut used);
                prop_assert!(st.is_some());
                let st = st.unwrap_or_default();
                prop_assert!(st >= ready && st >= now);
                prop_assert_eq!(used.iter().map(|u| u.1).sum::<u32>(), p);
                prop_assert!(used.iter().all(|&(o, k, s, e)| o == 0 && k > 0 && s == st && e == st + d));
                placed.push((st, p, d));
                check_conservation(&set, &placed, n, now)?;
            }
            // Tasks never overlap beyond N processors (the maximum is reached at some start).
            for &(s, _, _) in &placed {
                prop_assert!(used_at(&placed, s) <= n);
            }
            // The edge slots still hold all N processors past the last finish.
            let last = placed.iter().map(|&(s, _, d)| s + d).max().unwrap_or(now);
            prop_assert_eq!(set.free_at(last), n);
        }

        /// Placement picks what Figure 2 as written picks (scenario 1 first
        /// fit, else the first slot whose stack of predecessors and later
        /// slots holds the task), takes it in the same order, and leaves the
        /// same set, on sets of edge slots and holes of several origins and flags.
        #[test]
        fn place_matches_figure_2_as_written(
            blocks in proptest::collection::vec((0i64..80, proptest::option::of(1i64..60), 1u32..=8, any::<bool>(), 0u32..3), 1..14),
            tasks in proptest::collection::vec((1u32..=20, 1i64..40, 0i64..120), 1..25),
        ) {
            let slots: Vec<Slot> = blocks.iter()
                .map(|&(s, d, p, divisible, origin)| match d {
                    Some(d) => Slot { divisible, ..Slot::hole(s, s + d, p, origin) },
                    None => Slot::edge(s, p, origin),
                })
                .collect();
            let mut set = SlotSet::from_slots(slots);
            let mut used = Vec::new();
            for (p, d, ready) in tasks {
                let expected = reference_place(set.slots(), p, d, ready);
                let got = set.place(p, d, ready, &mut used);
                match expected {
                    Some((st, after, taken)) => {
                        prop_assert_eq!(got, Some(st));
                        prop_assert_eq!(&used, &taken);
                        prop_assert_eq!(&set, &after);
                    }
                    None => prop_assert_eq!(got, None),
                }
            }
        }

        /// A set that parks slots shorter than every task places each task where
        /// a set that parks nothing does, takes the same slots, and holds with
        /// what it parked the same free slots.
        #[test]
        fn parking_changes_no_placement(
            n in 1u32..=16,
            holes in proptest::collection::vec((0i64..60, 1i64..30, 1u32..=8), 0..6),
            min in 2i64..12,
            tasks in proptest::collection::vec((1u32..=16, 0i64..30, 0i64..150), 1..30),
        ) {
            let mut slots: Vec<Slot> = holes.iter().enumerate()
                .map(|(i, &(s, d, p))| Slot::hole(s, s + d, p, i as u32 + 1))
                .collect();
            slots.push(Slot::edge(0, n, 0));
            let mut plain = SlotSet::from_slots(slots.clone());
            let mut parking = SlotSet::from_slots(slots);
            let mut parked = Vec::new();
            parking.park_shorter_than(min, &mut parked);
            let (mut used_plain, mut used_parking) = (Vec::new(), Vec::new());
            for (p, d, ready) in tasks {
                let (p, d) = (1 + (p - 1) % n, min + d);
                let a = plain.place(p, d, ready, &mut used_plain);
                let b = parking.place(p, d, ready, &mut used_parking);
                parking.take_parked(&mut parked);
                prop_assert_eq!(a, b);
                prop_assert_eq!(&used_plain, &used_parking);
                let mut both = parking.slots().to_vec();
                both.extend(&parked);
                prop_assert_eq!(SlotSet::from_slots(both), plain.clone());
            }
        }

        /// Forgetting the past keeps the invariant from the cut on, and placement continues.
        #[test]
        fn forget_before_keeps_invariant(
            n in 1u32..=16,
            tasks in proptest::collection::vec((1u32..=16, 1i64..40, 0i64..100), 1..20),
            cut in 0i64..120,
            more in proptest::collection::vec((1u32..=16, 1i64..40, 0i64..200), 0..10),
        ) {
            let mut set = SlotSet::new(0, n);
            let mut placed = Vec::new();
            let mut used = Vec::new();
            for (p, d, ready) in tasks {
                let p = 1 + (p - 1) % n;
                let st = set.place(p, d, ready, &mut used);
                prop_assert!(st.is_some());
                placed.push((st.unwrap_or_default(), p, d));
            }
            set.forget_before(cut);
            check_conservation(&set, &placed, n, cut)?;
            for (p, d, ready) in more {
                let p = 1 + (p - 1) % n;
                let st = set.place(p, d, ready.max(cut), &mut used);
                prop_assert!(st.is_some_and(|s| s >= cut));
                placed.push((st.unwrap_or_default(), p, d));
                check_conservation(&set, &placed, n, cut)?;
            }
        }

        /// Occupying count-feasible blocks in start order never conflicts (§2.7 rebuild order),
        /// and placed tasks plus blocks never exceed N processors.
        #[test]
        fn occupy_in_start_order_succeeds(
            n in 1u32..=16,
            blocks in proptest::collection::vec((0i64..100, 1u32..=16, 1i64..40), 1..30),
        ) {
            // Keep the blocks that fit the processor-count profile.
            let mut kept: Vec<(Time, u32, Time)> = Vec::new();
            for (s, p, d) in blocks {
                let p = 1 + (p - 1) % n;
                let peak = (s..s + d).map(|t| used_at(&kept, t)).max().unwrap_or(0);
                if peak + p <= n {
                    kept.push((s, p, d));
                }
            }
            kept.sort_by_key(|b| b.0);
            let mut set = SlotSet::new(0, n);
            for &(s, p, d) in &kept {
                prop_assert_eq!(set.occupy(s, p, d), Ok(()));
            }
            check_conservation(&set, &kept, n, 0)?;
        }
    }
}
