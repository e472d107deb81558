use slasim_grid::request::Tr;
use slasim_grid::request::{Enumeration, StartGrid, all_trs, variant_count};
use slasim_grid::tree::*;

fn tr(cluster: u32, part: u32, start: u32) -> Tr {
    Tr { cluster, part, start, cost: 0.0 }
}

#[test]
fn full_trees_have_eq_1_variants() {
    for (z, c, r) in [(1u32, 4u32, 2usize), (3, 4, 2), (2, 5, 3), (1, 4, 4), (20, 7, 2), (20, 7, 3)] {
        let grid = StartGrid { first: 0, increment: 300, count: z };
        let parts: Vec<u32> = (0..r as u32).map(|i| 100 - i).collect();
        let trs = all_trs(&grid, &vec![1160; c as usize], &parts);
        let tree = VariantTree::new(r, z, &trs);
        let counts = tree.counts();
        assert_eq!(counts.variants(), variant_count(u64::from(z), u64::from(c), r as u64), "z {z} c {c} r {r}");
        // Depth i holds z · c!/(c − i)! nodes.
        for i in 1..=r {
            assert_eq!(counts.by_depth[i - 1], variant_count(u64::from(z), u64::from(c), i as u64));
        }
        let mut leaves = 0;
        tree.for_each_variant(|_| leaves += 1);
        assert_eq!(leaves, counts.variants());
    }
}

#[test]
fn incomplete_paths_are_pruned() {
    // Two parts, clusters 0–2, start 0: part 0 on clusters 0 and 1, part 1
    // only on cluster 0. Root child (0, part 0) has no child (cluster 0 is
    // on its path) and is pruned; (1, part 0) keeps child (0, part 1).
    // Start 1: part 0 on cluster 2 but no part-1 TR at start 1 → pruned.
    let trs = [tr(0, 0, 0), tr(1, 0, 0), tr(0, 1, 0), tr(2, 0, 1)];
    let tree = VariantTree::new(2, 2, &trs);
    let roots: Vec<_> = tree.children(None, 0).map(|n| (n.cluster, n.start)).collect();
    assert_eq!(roots, vec![(1, 0)]);
    let counts = tree.counts();
    assert_eq!(counts.by_depth, vec![1, 1]);
    assert_eq!(counts.starts, Some((0, 0)));
    // N = C + 2 · C_1 = 1 + 2.
    assert_eq!(counts.max_messages(), 3);
    // An empty tree: no variant, no message.
    let empty = VariantTree::new(2, 2, &[tr(0, 0, 0)]);
    assert_eq!(empty.counts().variants(), 0);
    assert_eq!(empty.counts().starts, None);
}

#[test]
fn children_follow_list_order_and_skip_path_clusters() {
    // Three clusters, list order puts cluster 2 first for part 1.
    let trs = [tr(1, 0, 0), tr(0, 0, 0), tr(2, 1, 0), tr(1, 1, 0), tr(0, 1, 0)];
    let tree = VariantTree::new(2, 1, &trs);
    let roots: Vec<u32> = tree.children(None, 0).map(|n| n.cluster).collect();
    assert_eq!(roots, vec![1, 0]);
    let first = tree.children(None, 0).next().unwrap();
    let kids: Vec<u32> = tree.children(Some(&first), 1 << first.cluster).map(|n| n.cluster).collect();
    assert_eq!(kids, vec![2, 0]);
}

#[test]
fn the_start_grid_feeds_the_tree() {
    let r = slasim_grid::workload::corequest::CoRequest {
        id: 0,
        submit: 0,
        earliest_start: 0,
        deadline: 100_000,
        duration: 3600,
        parts: vec![10, 20],
        start_weight: 0.0,
        template: -1,
    };
    let grid = StartGrid::new(&r, 1, 200, Enumeration::AtMostW);
    let tree = VariantTree::new(2, grid.count, &all_trs(&grid, &[1160; 7], &r.sorted_parts()));
    assert_eq!(tree.counts().variants(), 8400);
}
