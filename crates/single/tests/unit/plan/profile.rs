use slasim_core::units::Time;
use slasim_single::plan::profile::*;

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
fn earliest_fit_by_brute_force(p: &AvailabilityProfile, from: Time, len: Time, n: u32, latest: Time) -> Option<Time> {
    let mut starts: Vec<Time> = p.steps().iter().map(|s| s.time).filter(|&t| t > from && t <= latest).collect();
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
            proptest::prop_assert!(p.steps().windows(2).all(|w| w[0].free != w[1].free && w[0].time < w[1].time));
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
