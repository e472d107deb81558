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
struct Step {
    time: Time,
    free: i64,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_release_and_free() {
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 4);
        p.reserve(50, 150, 3);
        assert_eq!(p.free_at(-1), 10);
        assert_eq!(p.free_at(0), 6);
        assert_eq!(p.free_at(50), 3);
        assert_eq!(p.free_at(100), 7);
        assert_eq!(p.free_at(150), 10);
        assert_eq!(p.min_free(0, 200), 3);
        assert_eq!(p.min_free(100, 200), 7);
        p.release(0, 100, 4);
        p.release(50, 150, 3);
        assert!(p.is_empty());
    }

    /// A pricing snapshot may hold more than the capacity (6 of 4 over
    /// [0, 50)): every query reads that window as having nothing free, never
    /// as a huge unsigned number.
    #[test]
    fn an_overcommitted_window_has_nothing_free() {
        let mut p = AvailabilityProfile::new(4);
        p.reserve(0, 100, 3);
        p.reserve(0, 50, 3);
        assert!(p.overcommitted());
        assert_eq!(p.free_at(10), 0);
        assert_eq!(p.free_at(60), 1);
        assert_eq!(p.min_free(0, 100), 0);
        assert_eq!(p.min_free(40, 60), 0);
        assert_eq!(p.min_free(50, 100), 1);
        assert!(!p.fits(40, 60, 1) && p.fits(50, 60, 1));
        assert_eq!(p.earliest_fit(0, 10, 1, Time::MAX), Some(50));
    }

    #[test]
    fn pieces_of_a_window() {
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 4);
        p.reserve(50, 150, 3);
        let pieces = |a, b| p.pieces(a, b).collect::<Vec<_>>();
        assert_eq!(pieces(20, 120), [(20, 6), (50, 3), (100, 7)]);
        assert_eq!(pieces(50, 100), [(50, 3)]);
        assert_eq!(pieces(-10, 0), [(-10, 10)]);
        assert_eq!(pieces(140, 1000), [(140, 7), (150, 10)]);
        assert_eq!(pieces(60, 60), []);
    }

    #[test]
    fn adjacent_equal_steps_are_merged() {
        let mut p = AvailabilityProfile::new(4);
        p.reserve(0, 10, 1);
        p.reserve(10, 20, 1);
        assert_eq!(p.len(), 3); // MIN, 0, 20
        p.release(0, 20, 1);
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn earliest_fit_finds_backfill_holes() {
        // capacity 10; [0,100) 8 busy; [100,200) 2 busy; [200,300) 9 busy.
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 8);
        p.reserve(100, 200, 2);
        p.reserve(200, 300, 9);
        assert_eq!(p.earliest_fit(0, 50, 2, Time::MAX), Some(0));
        assert_eq!(p.earliest_fit(0, 50, 5, Time::MAX), Some(100));
        assert_eq!(p.earliest_fit(0, 150, 5, Time::MAX), Some(300));
        assert_eq!(p.earliest_fit(0, 100, 5, Time::MAX), Some(100));
        assert_eq!(p.earliest_fit(0, 150, 5, 299), None);
        assert_eq!(p.earliest_fit(120, 50, 8, Time::MAX), Some(120));
        assert_eq!(p.earliest_fit(0, 10, 11, Time::MAX), None);
    }

    #[test]
    fn gaps_are_maximal_windows() {
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 8);
        p.reserve(100, 200, 2);
        p.reserve(200, 300, 9);
        let g: Vec<Gap> = p.gaps(0, 1000, 5).collect();
        assert_eq!(g, vec![Gap { start: 100, end: 200 }, Gap { start: 300, end: Time::MAX }]);
        let g: Vec<Gap> = p.gaps(150, 250, 1).collect();
        assert_eq!(g, vec![Gap { start: 150, end: Time::MAX }]);
        let g: Vec<Gap> = p.gaps(0, 100, 5).collect();
        assert_eq!(g, vec![]);
        let g: Vec<Gap> = p.gaps(0, 101, 5).collect();
        assert_eq!(g, vec![Gap { start: 100, end: 200 }]);
    }

    #[test]
    fn forget_before_keeps_the_present() {
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 8);
        p.reserve(200, 300, 9);
        p.forget_before(150);
        assert_eq!(p.free_at(150), 10);
        assert_eq!(p.free_at(-5), 10);
        assert_eq!(p.free_at(250), 1);
        p.forget_before(250);
        assert_eq!(p.free_at(0), 1);
    }

    #[test]
    fn earliest_fit_except_sees_the_own_window_free() {
        // capacity 10; [0,100) 8 busy; a job holds [100,200) × 6; [200,300) 9 busy.
        let mut p = AvailabilityProfile::new(10);
        p.reserve(0, 100, 8);
        p.reserve(100, 200, 6);
        p.reserve(200, 300, 9);
        // Its own window is free to itself; to anyone else [100,200) has 4.
        assert_eq!(p.earliest_fit_except(0, 100, 6, 100, (100, 200)), Some(100));
        assert_eq!(p.earliest_fit(0, 100, 6, 100), None);
        // Nothing earlier: [0,100) has 2 free.
        assert_eq!(p.earliest_fit_except(0, 100, 6, 99, (100, 200)), None);
        // A window cut by the own one: [50,150) has 2 + (4 + 2) free for 2 units.
        assert_eq!(p.earliest_fit_except(50, 100, 2, 100, (100, 200)), Some(50));
        let mut q = p.clone();
        q.release(100, 200, 6);
        assert_eq!(p.earliest_fit_except(0, 100, 6, Time::MAX, (100, 200)), q.earliest_fit(0, 100, 6, Time::MAX));
    }

    /// The fit search by brute force: every candidate start (from and every
    /// step time up to `latest`), checked with `min_free` over its window.
    fn earliest_fit_by_brute_force(
        p: &AvailabilityProfile,
        from: Time,
        len: Time,
        n: u32,
        latest: Time,
    ) -> Option<Time> {
        let mut starts: Vec<Time> = p.steps.iter().map(|s| s.time).filter(|&t| t > from && t <= latest).collect();
        starts.insert(0, from);
        starts.into_iter().filter(|&t| t <= latest).find(|&t| n <= p.capacity() && p.min_free(t, t + len) >= n)
    }

    /// A capacity-8 profile holding each of `holds` (start, length, units)
    /// that fits when its turn comes.
    fn profile_holding(holds: &[(Time, Time, u32)]) -> AvailabilityProfile {
        let mut p = AvailabilityProfile::new(8);
        for &(start, len, n) in holds {
            if p.min_free(start, start + len) >= n {
                p.reserve(start, start + len, n);
            }
        }
        p
    }

    proptest::proptest! {
        #![proptest_config(crate::testing::cases(256))]

        /// The search (its branch-free fast path and the general loop) gives
        /// the brute-force answer, and reserving where it ends gives the
        /// profile of a search followed by a reservation, also for windows
        /// that fall in the middle of a step or end on an existing edge.
        #[test]
        fn earliest_fit_equals_brute_force(
            holds in proptest::collection::vec((0i64..80, 1i64..40, 1u32..8), 0..16),
            from in 0i64..100,
            len in 1i64..50,
            n in 1u32..10,
            latest in 0i64..150,
        ) {
            let p = profile_holding(&holds);
            let start = p.earliest_fit(from, len, n, latest);
            proptest::prop_assert_eq!(start, earliest_fit_by_brute_force(&p, from, len, n, latest));
            let mut expected = p.clone();
            if let Some(t) = start {
                expected.reserve(t, t + len, n);
            }
            let mut q = p.clone();
            proptest::prop_assert_eq!(q.reserve_earliest(from, len, n, latest), start);
            proptest::prop_assert_eq!(q, expected);
        }

        /// Reserving and releasing keep the step function equal to a
        /// per-instant count, with no two adjacent steps of equal value.
        #[test]
        fn steps_match_a_per_instant_count_and_stay_canonical(
            ops in proptest::collection::vec((0i64..60, 1i64..30, 1u32..5, proptest::bool::ANY), 0..30),
        ) {
            let mut p = AvailabilityProfile::new(8);
            let mut free = [8i64; 100];
            let mut held: Vec<(i64, i64, u32)> = Vec::new();
            for (start, len, n, release) in ops {
                if release && !held.is_empty() {
                    let (s, e, n) = held.remove(start as usize % held.len());
                    p.release(s, e, n);
                    free[s as usize..e as usize].iter_mut().for_each(|f| *f += i64::from(n));
                } else if p.min_free(start, start + len) >= n {
                    p.reserve(start, start + len, n);
                    free[start as usize..(start + len) as usize].iter_mut().for_each(|f| *f -= i64::from(n));
                    held.push((start, start + len, n));
                }
                proptest::prop_assert!(p.steps.windows(2).all(|w| w[0].free != w[1].free && w[0].time < w[1].time));
                for (t, f) in free.iter().enumerate() {
                    proptest::prop_assert_eq!(i64::from(p.free_at(t as i64)), *f);
                }
            }
        }

        /// Asking "as if released" answers what releasing first would.
        #[test]
        fn earliest_fit_except_equals_release_then_search(
            holds in proptest::collection::vec((0i64..50, 1i64..30, 1u32..5), 0..12),
            own in (0i64..60, 1i64..30, 1u32..5),
            from in 0i64..80,
            latest in 0i64..120,
        ) {
            let mut p = profile_holding(&holds);
            let (start, len, n) = own;
            proptest::prop_assume!(p.min_free(start, start + len) >= n);
            p.reserve(start, start + len, n);
            let asked = p.earliest_fit_except(from, len, n, latest, (start, start + len));
            p.release(start, start + len, n);
            proptest::prop_assert_eq!(asked, p.earliest_fit(from, len, n, latest));
        }
    }
}
