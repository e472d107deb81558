//! The availability profile: free capacity over time, with gap search.
//!
//! Reference: `overbooking-dissertation-spec.md` §5.1 (`getListOfTimeSlots`,
//! `getTimeWhereLessResAvailable`), §6.5 (heuristic planning counts nodes only);
//! Mu'alem & Feitelson, IEEE TPDS 2001, for the profile used by conservative and
//! EASY backfilling.
//!
//! Contract: the profile is a step function `free(t)` stored as a sorted vector
//! of steps; the first step starts at `Time::MIN`, the last extends to infinity.
//! Adjacent steps never hold the same value. Every query locates its start by
//! binary search and then walks only the steps it needs: O(log n + k) for n steps
//! and k steps visited. Reservations are rectangles `[start, end) × n`, and
//! `free(t)` never exceeds the capacity. Callers reserve where capacity is
//! free, except a pricing snapshot of an overcommitted site, which takes more
//! than is free: there `free(t)` falls below zero, and every query
//! ([`AvailabilityProfile::fits`], `min_free`, `free_at`, the searches) reads
//! it as too little.

use slasim_core::units::Time;

/// One step: `free` units from `time` until the next step's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Where the step starts.
    pub time: Time,
    /// Free units from `time` on.
    pub free: i64,
}

/// Free capacity as callers read it: an overcommitted step (below zero) has
/// nothing free. (The capacity is a `u32`, so the upper end never clamps.)
fn clamp_free(free: i64) -> u32 {
    u32::try_from(free.max(0)).unwrap_or(u32::MAX)
}

/// A maximal window with at least the asked-for free capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// First instant of the window.
    pub start: Time,
    /// End of the window (exclusive); `Time::MAX` when open-ended.
    pub end: Time,
}

impl Gap {
    /// Length of the window.
    pub fn len(&self) -> Time {
        self.end.saturating_sub(self.start)
    }

    /// True for an empty window.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// What a fit search found: the start, the index of the step covering it
/// and, when the search walked that far, the index of the step covering the
/// window's end.
#[derive(Debug, Clone, Copy)]
struct Fit {
    start: Time,
    at: usize,
    end_at: Option<usize>,
}

/// Free capacity over time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvailabilityProfile {
    capacity: i64,
    steps: Vec<Step>,
}

impl AvailabilityProfile {
    /// An empty profile: `capacity` free at all times.
    pub fn new(capacity: u32) -> AvailabilityProfile {
        let capacity = i64::from(capacity);
        AvailabilityProfile { capacity, steps: vec![Step { time: Time::MIN, free: capacity }] }
    }

    /// The steps in time order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The total capacity.
    pub fn capacity(&self) -> u32 {
        self.capacity as u32
    }

    /// Number of steps (for tests and diagnostics).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when nothing is reserved.
    pub fn is_empty(&self) -> bool {
        self.steps.len() == 1
    }

    /// Index of the step covering `t`. Most queries ask about the present,
    /// which lies in the first step once the past is forgotten, or in the
    /// second once something is reserved from the present on: those cases
    /// need no search.
    fn index_at(&self, t: Time) -> usize {
        if self.steps.get(1).is_none_or(|s| s.time > t) {
            return 0;
        }
        if self.steps.get(2).is_none_or(|s| s.time > t) {
            return 1;
        }
        self.steps.partition_point(|s| s.time <= t) - 1
    }

    /// Free capacity at `t`; 0 where the profile is overcommitted.
    pub fn free_at(&self, t: Time) -> u32 {
        clamp_free(self.steps[self.index_at(t)].free)
    }

    /// Whether `n` units are free throughout `[start, end)`: the test
    /// [`AvailabilityProfile::earliest_fit`] applies to each start it tries,
    /// also where the profile is overcommitted (free below zero).
    pub fn fits(&self, start: Time, end: Time, n: u32) -> bool {
        let mut i = self.index_at(start);
        let n = i64::from(n);
        if self.steps[i].free < n {
            return false;
        }
        i += 1;
        while i < self.steps.len() && self.steps[i].time < end {
            if self.steps[i].free < n {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Minimum free capacity over `[start, end)`; 0 where the profile is
    /// overcommitted, so that `min_free(..) >= n` agrees with
    /// [`AvailabilityProfile::fits`] for every `n > 0`.
    pub fn min_free(&self, start: Time, end: Time) -> u32 {
        let mut i = self.index_at(start);
        let mut min = self.steps[i].free;
        i += 1;
        while i < self.steps.len() && self.steps[i].time < end {
            min = min.min(self.steps[i].free);
            i += 1;
        }
        clamp_free(min)
    }

    /// The pieces of `free(t)` over `[start, end)`: each piece's first
    /// instant (the first clipped to `start`) and its free capacity, which
    /// holds until the next piece's instant (the last until `end`).
    pub fn pieces(&self, start: Time, end: Time) -> impl Iterator<Item = (Time, i64)> + '_ {
        let i = if start < end { self.index_at(start) } else { self.steps.len() };
        self.steps[i..].iter().take_while(move |s| s.time < end).map(move |s| (s.time.max(start), s.free))
    }

    /// Adds `delta` to the free capacity over `[start, end)`.
    fn add(&mut self, start: Time, end: Time, delta: i64) {
        if end <= start || delta == 0 {
            return;
        }
        let (i, j) = (self.index_at(start), self.index_at(end));
        self.add_from(i, j, start, end, delta);
    }

    /// [`add`](Self::add), given `i` and `j`, the indices of the steps
    /// covering `start` and `end` (a search that found the window knows
    /// them): one walk over the window's steps and one shift of the tail for
    /// its new edges.
    fn add_from(&mut self, i: usize, j: usize, start: Time, end: Time, delta: i64) {
        debug_assert!(self.steps[i].time <= start && self.steps.get(i + 1).is_none_or(|s| s.time > start));
        debug_assert!(self.steps[j].time <= end && self.steps.get(j + 1).is_none_or(|s| s.time > end));
        let steps = &mut self.steps;
        let (cut_start, cut_end) = (steps[i].time != start, steps[j].time != end);
        let len = steps.len();
        let (before, at_end) = (steps[i].free, steps[j].free);
        match (cut_start, cut_end) {
            (false, false) => {}
            (true, false) => steps.insert(i + 1, Step { time: start, free: before }),
            (false, true) => steps.insert(j + 1, Step { time: end, free: at_end }),
            (true, true) => {
                steps.push(Step { time: end, free: at_end });
                steps.push(Step { time: end, free: at_end });
                steps.copy_within(j + 1..len, j + 3);
                steps[j + 2] = Step { time: end, free: at_end };
                steps.copy_within(i + 1..j + 1, i + 2);
                steps[i + 1] = Step { time: start, free: before };
            }
        }
        // The window's steps: from the one at `start` to the one before `end`.
        let first = i + usize::from(cut_start);
        let after = j + usize::from(cut_start) + usize::from(cut_end);
        for step in &mut steps[first..after] {
            step.free += delta;
            debug_assert!(
                step.free <= self.capacity,
                "profile free {} above {} at {}",
                step.free,
                self.capacity,
                step.time
            );
        }
        // Only the window's two edges can now equal their neighbour: the
        // steps inside it moved together, so they still differ pairwise.
        if steps[after].free == steps[after - 1].free {
            steps.remove(after);
        }
        if first > 0 && steps[first].free == steps[first - 1].free {
            steps.remove(first);
        }
    }

    /// Takes `n` units over `[start, end)`.
    pub fn reserve(&mut self, start: Time, end: Time, n: u32) {
        self.add(start, end, -i64::from(n));
    }

    /// Gives back `n` units over `[start, end)`.
    pub fn release(&mut self, start: Time, end: Time, n: u32) {
        self.add(start, end, i64::from(n));
    }

    /// The earliest `t` in `[from, latest_start]` with at least `n` free over
    /// `[t, t + duration)`. Such a `t` is `from` or a time where capacity rises.
    pub fn earliest_fit(&self, from: Time, duration: Time, n: u32, latest_start: Time) -> Option<Time> {
        self.earliest_fit_in(from, duration, n, latest_start, None).map(|fit| fit.start)
    }

    /// [`earliest_fit`](Self::earliest_fit), and `n` units reserved over the
    /// window found: the reservation starts where the search ended, without
    /// searching the steps again.
    pub fn reserve_earliest(&mut self, from: Time, duration: Time, n: u32, latest_start: Time) -> Option<Time> {
        let Fit { start, at, end_at } = self.earliest_fit_in(from, duration, n, latest_start, None)?;
        let end = start.saturating_add(duration);
        let end_at = end_at.unwrap_or_else(|| self.index_at(end));
        self.add_from(at, end_at, start, end, -i64::from(n));
        Some(start)
    }

    /// [`earliest_fit`](Self::earliest_fit) as if `own` (a window `[start,
    /// end)` holding `n`, reserved earlier) were released first, without
    /// changing the profile: a job that asks where it could move finds the
    /// same answer as after releasing its window, and pays for the release
    /// and re-reservation only if it moves.
    pub fn earliest_fit_except(
        &self,
        from: Time,
        duration: Time,
        n: u32,
        latest_start: Time,
        own: (Time, Time),
    ) -> Option<Time> {
        self.earliest_fit_in(from, duration, n, latest_start, Some((own.0, own.1, i64::from(n)))).map(|fit| fit.start)
    }

    /// The fit search over the steps from `from`, with `bonus` (a window and
    /// units) added to the free capacity: the [`Fit`] found. The start
    /// depends only on the step function, not on where steps are cut.
    fn earliest_fit_in(
        &self,
        from: Time,
        duration: Time,
        n: u32,
        latest_start: Time,
        bonus: Option<(Time, Time, i64)>,
    ) -> Option<Fit> {
        let n = i64::from(n);
        if n > self.capacity || from > latest_start {
            return None;
        }
        let mut k = self.index_at(from);
        let mut at = from;
        let mut candidate = from;
        let mut candidate_step = k;
        // Fast path over the whole steps before the bonus window (or before
        // the last step), which have one free value each, in runs: a run of
        // blocked steps moves the candidate to its end, a run of free ones
        // either holds the window or ends in a blocked step. Each inner loop
        // branches the same way until its run ends. The loop below takes
        // over where this one stops, in the same state.
        let bonus_start = bonus.map_or(Time::MAX, |(s, _, _)| s);
        let steps = &self.steps[..];
        let whole = |k: usize| k + 1 < steps.len() && steps[k + 1].time <= bonus_start;
        let k0 = k;
        while whole(k) {
            if steps[k].free < n {
                k += 1;
                while whole(k) && steps[k].free < n {
                    k += 1;
                }
                candidate = steps[k].time;
                candidate_step = k;
                if candidate > latest_start {
                    return None;
                }
                continue;
            }
            let target = candidate.saturating_add(duration);
            while whole(k) && steps[k].free >= n {
                if steps[k + 1].time >= target {
                    // The window ends in step k, or exactly where k + 1 starts.
                    let end_at = k + usize::from(steps[k + 1].time == target);
                    return Some(Fit { start: candidate, at: candidate_step, end_at: Some(end_at) });
                }
                k += 1;
            }
        }
        if k != k0 {
            at = steps[k].time;
        }
        loop {
            let step_end = self.steps.get(k + 1).map_or(Time::MAX, |s| s.time);
            // The piece [at, next) of step k with one free value.
            let (next, free) = match bonus {
                Some((s, e, extra)) if at < e && step_end > s => {
                    if at < s {
                        (s, self.steps[k].free)
                    } else if extra >= n && candidate.saturating_add(duration) <= e {
                        // Inside the bonus window every piece holds n (the
                        // bonus alone does): a window ending in it fits. A
                        // job asking where it could move has its own window
                        // here, so its search never walks that window.
                        return Some(Fit { start: candidate, at: candidate_step, end_at: None });
                    } else {
                        (step_end.min(e), self.steps[k].free + extra)
                    }
                }
                _ => (step_end, self.steps[k].free),
            };
            if free < n {
                // The window cannot contain this piece: restart after it.
                if next == Time::MAX {
                    return None;
                }
                candidate = next;
                candidate_step = if next == step_end { k + 1 } else { k };
                if candidate > latest_start {
                    return None;
                }
            } else {
                let target = candidate.saturating_add(duration);
                if next >= target {
                    // The window ends in the piece [at, next) of step k, or
                    // exactly where step k + 1 starts.
                    let next_step = next == target && next == step_end && k + 1 < self.steps.len();
                    return Some(Fit {
                        start: candidate,
                        at: candidate_step,
                        end_at: Some(k + usize::from(next_step)),
                    });
                }
            }
            at = next;
            if next == step_end {
                k += 1;
            }
        }
    }

    /// Maximal windows with at least `n` free that start before `until`,
    /// clipped to start no earlier than `from`, in time order.
    pub fn gaps(&self, from: Time, until: Time, n: u32) -> impl Iterator<Item = Gap> + '_ {
        let n = i64::from(n);
        let mut k = self.index_at(from);
        let mut open: Option<Time> = None;
        std::iter::from_fn(move || {
            while k < self.steps.len() {
                let step = self.steps[k];
                let start = step.time.max(from);
                if start >= until && open.is_none() {
                    return None;
                }
                k += 1;
                if step.free >= n {
                    if open.is_none() {
                        open = Some(start);
                    }
                    if k == self.steps.len() {
                        return open.take().map(|s| Gap { start: s, end: Time::MAX });
                    }
                } else if let Some(s) = open.take() {
                    return Some(Gap { start: s, end: start });
                }
            }
            None
        })
    }

    /// True if more than the capacity is reserved somewhere (free below
    /// zero), which callers that reserve only where capacity is free never do.
    pub fn overcommitted(&self) -> bool {
        self.steps.iter().any(|s| s.free < 0)
    }

    /// Forgets everything before `t` (the past cannot be planned).
    pub fn forget_before(&mut self, t: Time) {
        let i = self.index_at(t);
        if i > 0 {
            self.steps.drain(..i);
            self.steps[0].time = Time::MIN;
        }
    }
}
