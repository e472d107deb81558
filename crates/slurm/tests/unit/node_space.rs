//! The backfill pass's node space: by hand, and against a plain list of
//! records written as `_add_reservation` and `_attempt_backfill`'s
//! `later_start` loop read (Slurm 22.05, backfill.c), and against each
//! node's reservations for the nodes held over a window.

use slasim_slurm::controller::node_space::NodeSpace;

/// Three reservations on 3 nodes (window [0, 100), resolution 5): node 0
/// over [10, 20) and [20, 30), node 1 over [15, 25), node 2 none. Over
/// [0, 9] every node is free; over [0, 10] node 0 is held (a reservation
/// beginning at the window's end counts); over [25, 40] node 0 only. A
/// test over [12, 16] of every node: the walk from the record [10, 15)
/// finds node 0 and 1 held at 15 and 20, node 1 freed at 25, the first
/// record end after which a node held on the way is free.
#[test]
fn windows_overlaps_and_later_start_by_hand() {
    let mut s = NodeSpace::new(3);
    s.clear(0, 100);
    s.reserve(10, 20, 5, &[0]);
    s.reserve(15, 25, 5, &[1]);
    s.reserve(20, 30, 5, &[0]);
    let mut out = [0u64];
    let mut busy = |from, to| {
        s.busy_over(from, to, &mut out);
        out[0]
    };
    assert_eq!(busy(0, 9), 0);
    assert_eq!(busy(0, 10), 0b001);
    assert_eq!(busy(12, 16), 0b011);
    assert_eq!(busy(25, 40), 0b001);
    assert_eq!(busy(30, 50), 0);
    assert!(s.overlaps(29, 31, &[0]));
    assert!(!s.overlaps(30, 40, &[0]));
    assert!(!s.overlaps(0, 10, &[0, 1, 2]));
    assert_eq!(s.later_start(12, 16, &[0b111]), Some(25));
    assert_eq!(s.later_start(25, 40, &[0b111]), Some(30));
    // Node 2 is never held: nothing frees it.
    assert_eq!(s.later_start(12, 16, &[0b100]), None);
    assert_eq!(s.end(), 100);
    s.clear(0, 100);
    assert_eq!(s.later_start(0, 10, &[0b111]), None);
}

/// Two neighbouring records alike are merged (one pair per reservation),
/// and the walk, which ends after the first record beginning past the
/// test, then sees one record further: n0 from 10 to 40 and n1 from 40 to
/// 60 leave [10, 40) and [40, 60) unlike; n1 over [10, 40) and n0 over
/// [40, 60) make them alike, merged into [10, 60), whose end frees both.
#[test]
fn alike_records_merge_and_the_walk_looks_past_them() {
    let mut s = NodeSpace::new(3);
    s.clear(0, 100);
    s.reserve(10, 40, 5, &[0]);
    s.reserve(40, 60, 5, &[1]);
    // Over [0, 5]: n0 is free again after [10, 40), the first record past
    // the test, which the walk still checks before it ends.
    assert_eq!(s.later_start(0, 5, &[0b001]), Some(40));
    // n1 is free again at 60, after [40, 60), past where the walk ends.
    assert_eq!(s.later_start(0, 5, &[0b010]), None);
    s.reserve(10, 40, 5, &[1]);
    s.reserve(40, 60, 5, &[0]);
    // One record [10, 60) holds both; the walk sees its end.
    assert_eq!(s.later_start(0, 5, &[0b001]), Some(60));
    assert_eq!(s.later_start(0, 5, &[0b010]), Some(60));
}

/// A reservation from the window's start splits the first record there,
/// leaving an empty one, as `_add_reservation` does; one that begins at
/// the window's end holds nothing; one shorter than the resolution lasts
/// one.
#[test]
fn edges_of_the_window() {
    let mut s = NodeSpace::new(1);
    s.clear(0, 100);
    s.reserve(-3, 20, 5, &[0]);
    s.reserve(100, 120, 5, &[0]);
    s.reserve(50, 51, 5, &[0]);
    let mut out = [0u64];
    s.busy_over(20, 49, &mut out);
    assert_eq!(out, [0]);
    s.busy_over(54, 54, &mut out);
    assert_eq!(out, [1]);
    s.busy_over(55, 99, &mut out);
    assert_eq!(out, [0]);
}

/// Slurm's records as a plain list: `(begin, end, nodes held)`, one
/// pass's map from `begin` to `end`.
struct Records(Vec<(i64, i64, u128)>);

impl Records {
    fn new(begin: i64, end: i64) -> Records {
        Records(vec![(begin, end, 0)])
    }

    /// `_add_reservation`, read line by line.
    fn add(&mut self, start: i64, end_reserve: i64, res: i64, nodes: u128) {
        let start = start.max(self.0[0].0);
        let end_reserve = end_reserve.max(start + res);
        let mut one_before = 0;
        let mut j = 0;
        let mut placed = false;
        loop {
            if self.0[j].1 > start {
                let (b, e, h) = self.0[j];
                self.0[j] = (b, start, h);
                self.0.insert(j + 1, (start, e, h));
                placed = true;
                break;
            }
            if self.0[j].1 == start {
                placed = true;
                break;
            }
            one_before = j;
            j += 1;
            if j == self.0.len() {
                break;
            }
        }
        let mut one_after = None;
        if placed {
            while j + 1 < self.0.len() {
                j += 1;
                if end_reserve < self.0[j].1 {
                    let (b, e, h) = self.0[j];
                    self.0[j] = (b, end_reserve, h);
                    self.0.insert(j + 1, (end_reserve, e, h));
                }
                self.0[j].2 |= nodes;
                if end_reserve == self.0[j].1 {
                    if j + 1 < self.0.len() {
                        one_after = Some(j + 1);
                    }
                    break;
                }
            }
        }
        let mut i = one_before;
        while Some(i) != one_after && i + 1 < self.0.len() {
            if self.0[i].2 != self.0[i + 1].2 {
                i += 1;
                continue;
            }
            self.0[i].1 = self.0[i + 1].1;
            self.0.remove(i + 1);
            break;
        }
    }

    /// The `later_start` loop of `_attempt_backfill`, with `avail` the
    /// nodes free over the records walked and `tmp` the mask.
    fn later_start(&self, start_res: i64, end_time: i64, mask: u128) -> Option<i64> {
        let (mut avail, tmp) = (mask, mask);
        let mut later = None;
        for (j, &(b, e, h)) in self.0.iter().enumerate() {
            if e > start_res && later.is_none() && j + 1 < self.0.len() {
                let next = tmp & !self.0[j + 1].2;
                let current = avail & !h;
                if next & !current != 0 {
                    later = Some(e);
                }
            }
            if e <= start_res {
            } else if b <= end_time {
                avail &= !h;
            } else {
                break;
            }
        }
        later
    }
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// Any reservations a pass can make (a node's never overlap), and any
    /// test: the same `later_start` as the plain list, the nodes held over
    /// a window as each node's reservations say (also over windows that
    /// move later, as a job's tests do), and the same overlaps.
    #[test]
    fn the_node_space_is_slurms_record_list(
        wanted in proptest::collection::vec((0i64..60, 1i64..30, proptest::collection::vec(0u32..70, 1..6)), 0..25),
        queries in proptest::collection::vec((0i64..90, 0i64..40, proptest::collection::vec(0u32..70, 1..8)), 1..20),
    ) {
        let (nodes, res, window) = (70, 5, 80);
        // Times as a pass rounds them; a reservation kept only if none of
        // its nodes has one overlapping it.
        let mut made: Vec<(i64, i64, Vec<u32>)> = Vec::new();
        for (b, len, mut ns) in wanted {
            ns.sort_unstable();
            ns.dedup();
            let (b, u) = (b / res * res, (b + len) / res * res);
            let u = u.max(b + res);
            let clash = made.iter().any(|(mb, mu, mns)| *mb < u && b < *mu && ns.iter().any(|n| mns.contains(n)));
            if !clash {
                made.push((b, u, ns));
            }
        }
        let mut space = NodeSpace::new(nodes);
        space.clear(0, window);
        let mut list = Records::new(0, window);
        let bits = |ns: &[u32]| ns.iter().fold(0u128, |m, &n| m | 1 << n);
        for (b, u, ns) in &made {
            space.reserve(*b, *u, res, ns);
            list.add(*b, *u, res, bits(ns));
        }
        let mut out = vec![0u64; nodes.div_ceil(64)];
        // Held over [from, to]: a reservation of the node ends after `from`
        // and begins at or before `to` (clipped to the window).
        let held = |n: usize, from: i64, to: i64| {
            made.iter().any(|(b, u, ns)| ns.contains(&(n as u32)) && (*u).min(window) > from && *b <= to)
        };
        // A job's tests in a pass: windows that only move later, over which
        // `busy_over` keeps what it has ORed.
        let mut later: Vec<(i64, i64)> = queries.iter().map(|(from, len, _)| (*from, *len)).collect();
        later.sort_unstable();
        let mut to = i64::MIN;
        for (from, len) in later {
            to = to.max(from + len);
            space.busy_over(from, to, &mut out);
            for n in 0..nodes {
                let bit = out[n / 64] >> (n % 64) & 1 == 1;
                proptest::prop_assert_eq!(bit, held(n, from, to), "node {} over [{}, {}], moving later", n, from, to);
            }
        }
        for (from, len, mask_nodes) in queries {
            let to = from + len;
            space.busy_over(from, to, &mut out);
            for n in 0..nodes {
                let bit = out[n / 64] >> (n % 64) & 1 == 1;
                proptest::prop_assert_eq!(bit, held(n, from, to), "node {} over [{}, {}]", n, from, to);
            }
            let mask = bits(&mask_nodes);
            let words = [mask as u64, (mask >> 64) as u64];
            proptest::prop_assert_eq!(
                space.later_start(from, to, &words),
                list.later_start(from, to, mask),
                "later_start over [{}, {}] of {:?}",
                from,
                to,
                mask_nodes
            );
            // Overlaps of a non-empty interval: of an empty one (a job shorter
            // than the resolution), `_test_resv_overlap` answers by where the
            // records begin, which the reservations alone do not tell.
            if to > from {
                let overlaps = made
                    .iter()
                    .any(|(b, u, ns)| *b < to && from < (*u).min(window) && ns.iter().any(|n| mask_nodes.contains(n)));
                proptest::prop_assert_eq!(space.overlaps(from, to, &mask_nodes), overlaps);
            }
        }
    }
}
