//! The slot set worked by hand (Figure 1, §13 item 1) and checked against
//! Figure 2 as written and the conservation of processors (§13 item 2).

use proptest::prelude::*;
use slasim_core::units::{HOUR, Time};
use slasim_provision::slots::OfferedSlot;
use slasim_provision::slots::set::*;

const H: Time = HOUR;

/// Shorthand for the expected sets: `(start h, procs, Some(end h))` for holes, `None` for edge slots.
fn set_of(spec: &[(Time, u32, Option<Time>)]) -> Vec<FreeSlot> {
    spec.iter()
        .map(|&(s, n, e)| match e {
            Some(e) => FreeSlot::hole(s * H, e * H, n, 0),
            None => FreeSlot::edge(s * H, n, 0),
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
    assert_eq!(set.slots(), set_of(&[(0, 1, Some(3)), (0, 1, Some(5)), (2, 1, Some(3)), (4, 1, None), (6, 4, None)]));

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
    let mut set = SlotSet::from_slots(vec![FreeSlot::hole(0, 2 * H, 2, 1), FreeSlot::hole(0, H, 1, 2)]);
    assert_eq!(set.place(2, 3 * H, 0, &mut used), None);
    assert!(used.is_empty());
    assert_eq!(set.place(4, H, 0, &mut used), None);
    assert_eq!(set.len(), 2);
    // 3p × 1h stacks both origins at 0: the shorter <0,1p,[0,1h)> (origin 2) sorts first
    // and is S_i; the later-listed <0,2p,[0,2h)> (origin 1) has started by 0 (A6) and adds 2.
    assert_eq!(set.place(3, H, 0, &mut used), Some(0));
    assert_eq!(used, vec![(2, 1, 0, H), (1, 2, 0, H)]);
    // Left: origin 1 keeps <1h,2p,[1h,2h)> as a hole.
    assert_eq!(set.slots(), &[FreeSlot::hole(H, 2 * H, 2, 1)]);
    // More processors than the resource has never fit.
    assert_eq!(SlotSet::new(0, 4).place(5, H, 0, &mut used), None);
}

#[test]
fn from_slots_normalises_and_keeps_origins_apart() {
    let edge_cut = OfferedSlot { start: 0, duration: 10, procs: 2, c: 1.0, f: 0.0, divisible: true, extensible: true };
    let set = SlotSet::from_slots(vec![
        FreeSlot::offered(&edge_cut, 3),
        FreeSlot::edge(0, 1, 3),
        FreeSlot::edge(0, 4, 7),
        FreeSlot::hole(5, 5, 2, 1),
        FreeSlot::hole(0, 5, 0, 1),
    ]);
    assert_eq!(set.slots(), &[FreeSlot::edge(0, 3, 3), FreeSlot::edge(0, 4, 7)]);
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
    assert_eq!(FreeSlot::offered(&set.advertise(0, 48 * H)[4], 4), FreeSlot::edge(6 * H, 3, 4));
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
fn reference_place(slots: &[FreeSlot], procs: u32, duration: Time, ready: Time) -> Option<(Time, SlotSet, Vec<Taken>)> {
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
            after.push(FreeSlot::hole(sj.start, st, k, sj.origin));
            after.push(FreeSlot { start: stop, procs: k, ..sj });
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
        let slots: Vec<FreeSlot> = blocks.iter()
            .map(|&(s, d, p, divisible, origin)| match d {
                Some(d) => FreeSlot { divisible, ..FreeSlot::hole(s, s + d, p, origin) },
                None => FreeSlot::edge(s, p, origin),
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
        let mut slots: Vec<FreeSlot> = holes.iter().enumerate()
            .map(|(i, &(s, d, p))| FreeSlot::hole(s, s + d, p, i as u32 + 1))
            .collect();
        slots.push(FreeSlot::edge(0, n, 0));
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
