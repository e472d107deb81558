//! The backfill pass's node space against the per-node definition it
//! replaces: each node's reservations in order, a node free over a window
//! when its first reservation not ended at the window's start begins after
//! its end, and a node's release the end of the run of reservations (each
//! beginning where the one before ends) that holds it after the start.

use slasim_slurm::controller::node_space::NodeSpace;

/// Per node, its reservations `(begin, until)`, non-empty, in order, never overlapping.
fn per_node(nodes: usize, reservations: &[(i64, i64, Vec<u32>)]) -> Vec<Vec<(i64, i64)>> {
    let mut out = vec![Vec::new(); nodes];
    for (b, u, ns) in reservations {
        for &n in ns {
            let r: &mut Vec<(i64, i64)> = &mut out[n as usize];
            let at = r.partition_point(|&(x, _)| x < *b);
            r.insert(at, (*b, *u));
        }
    }
    out
}

/// Reservations on 3 nodes: node 0 over [10, 20) and [20, 30) (one run to
/// 30), node 1 over [15, 25), node 2 none. Over [0, 9] every node is free;
/// over [0, 10] node 0 is held (a reservation beginning at the window's end
/// counts); over [25, 40] node 0 only. The first release after 12 is 25
/// (node 1's end), after 25 it is 30 (node 0's run), after 12 of node 0
/// alone 30; none before a horizon of 25.
#[test]
fn windows_and_releases_by_hand() {
    let mut s = NodeSpace::new(3);
    s.reserve(10, 20, &[0]);
    s.reserve(15, 25, &[1]);
    s.reserve(20, 30, &[0]);
    s.reserve(40, 40, &[2]);
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
    assert_eq!(s.first_release(12, 100, &[0b111]), Some(25));
    assert_eq!(s.first_release(25, 100, &[0b111]), Some(30));
    assert_eq!(s.first_release(12, 100, &[0b001]), Some(30));
    assert_eq!(s.first_release(12, 25, &[0b111]), None);
    s.clear();
    assert_eq!(s.first_release(0, 100, &[0b111]), None);
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// Any reservations a pass can make (a node's never overlap), and any
    /// window: the same nodes free, and the same first release, as the
    /// per-node definition.
    #[test]
    fn the_node_space_is_the_per_node_definition(
        wanted in proptest::collection::vec((0i64..60, 1i64..30, proptest::collection::vec(0u32..70, 1..6)), 0..25),
        queries in proptest::collection::vec((0i64..90, 0i64..40, 1i64..100), 1..20),
    ) {
        let nodes = 70;
        // Keep a reservation only if none of its nodes has one overlapping it.
        let mut made: Vec<(i64, i64, Vec<u32>)> = Vec::new();
        for (b, len, mut ns) in wanted {
            ns.sort_unstable();
            ns.dedup();
            let u = b + len;
            let clash = made.iter().any(|(mb, mu, mns)| *mb < u && b < *mu && ns.iter().any(|n| mns.contains(n)));
            if !clash {
                made.push((b, u, ns));
            }
        }
        let mut space = NodeSpace::new(nodes);
        for (b, u, ns) in &made {
            space.reserve(*b, *u, ns);
        }
        let lists = per_node(nodes, &made);
        let mut out = vec![0u64; nodes.div_ceil(64)];
        for (from, len, horizon_after) in queries {
            let (to, horizon) = (from + len, from + horizon_after);
            space.busy_over(from, to, &mut out);
            let mut release: Option<i64> = None;
            for (n, r) in lists.iter().enumerate() {
                let k = r.partition_point(|&(_, e)| e <= from);
                let held = r.get(k).is_some_and(|&(b, _)| b <= to);
                let bit = out[n / 64] >> (n % 64) & 1 == 1;
                proptest::prop_assert_eq!(bit, held, "node {} over [{}, {}]: {:?}", n, from, to, r);
                if k < r.len() {
                    let mut end = r[k].1;
                    for &(b, e) in &r[k + 1..] {
                        if b > end {
                            break;
                        }
                        end = e;
                    }
                    if end < horizon && release.is_none_or(|l| end < l) {
                        release = Some(end);
                    }
                }
            }
            let all = vec![u64::MAX; nodes.div_ceil(64)];
            proptest::prop_assert_eq!(space.first_release(from, horizon, &all), release, "after {}", from);
        }
    }
}
