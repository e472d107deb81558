use slasim_grid::request::Tr;
use slasim_grid::resort::*;
use slasim_grid::search::{Action, Search, SearchCounters};
use slasim_grid::search::{DepthFirst, drive};
use slasim_grid::tree::VariantTree;

fn tr(cluster: u32, part: u32, start: u32, cost: f64) -> Tr {
    Tr { cluster, part, start, cost }
}

fn weights(s: f64) -> Weights {
    Weights { start_weight: s, start_tolerance: 0.0, cost_tolerance: 0.0 }
}

/// Fig. 13: three variants costing 100, 150 and 170, two parts. At start 0
/// part 0 on cluster 0 (cost 50) has the children part 1 on cluster 1 (50:
/// total 100) and on cluster 2 (120: 170); at start 1 part 0 on cluster 3
/// (100) has the child part 1 on cluster 4 (50: 150). Cost-minimising
/// (k = 1): normalised values 0 (100), 0.714 (150), 1 (170). Cluster 1
/// refuses everything.
/// - Re-sorting: c0 reserved (1); c1 refused (2); c0's best is now 1, worse
///   than c3's 0.714: roll back c0 (roll-back 1); c3 reserved (3); c4
///   reserved (4). Cost 150; attempts 4, failures 1, roll-backs 1, n = 5.
/// - Depth-first search over the same order: c0 (1), c1 refused (2), c2
///   reserved (3). Cost 170, n = 3.
fn fig_13_trs() -> Vec<Tr> {
    vec![tr(0, 0, 0, 50.0), tr(3, 0, 1, 100.0), tr(1, 1, 0, 50.0), tr(2, 1, 0, 120.0), tr(4, 1, 1, 50.0)]
}

fn fig_13() -> VariantTree {
    VariantTree::new(2, 2, &fig_13_trs())
}

#[test]
fn a_refusal_rolls_back_to_the_new_best_variant() {
    let tree = fig_13();
    let mut resort = Resorting::new(weights(0.0));
    let mut log = Vec::new();
    let done = drive(&mut resort, &tree, |n| {
        log.push(n.cluster);
        n.cluster != 1
    });
    let Action::Granted(path) = done else { panic!("{done:?}") };
    assert_eq!(path.iter().map(|n| n.cluster).collect::<Vec<_>>(), vec![3, 4]);
    assert_eq!(path.iter().map(|n| n.cost).sum::<f64>(), 150.0);
    assert_eq!(log, vec![0, 1, 3, 4]);
    assert_eq!(resort.counters(), SearchCounters { attempts: 4, failures: 1, rollbacks: 1 });
    // Depth-first search over the same cost order takes the 170 variant.
    let mut order = fig_13_trs();
    order.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let sorted = VariantTree::new(2, 2, &order);
    let mut dfs = DepthFirst::new();
    let Action::Granted(path) = drive(&mut dfs, &sorted, |n| n.cluster != 1) else { panic!() };
    assert_eq!(path.iter().map(|n| n.cost).sum::<f64>(), 170.0);
    assert_eq!(dfs.counters().messages(), 3);
}

#[test]
fn a_tolerance_keeps_the_partial_variant() {
    // With a cost tolerance of 30 the 170 variant (20 dearer than 150, and
    // earlier) is taken without a roll-back.
    let tree = fig_13();
    let mut resort = Resorting::new(Weights { cost_tolerance: 30.0, ..weights(0.0) });
    let Action::Granted(path) = drive(&mut resort, &tree, |n| n.cluster != 1) else { panic!() };
    assert_eq!(path.iter().map(|n| n.cost).sum::<f64>(), 170.0);
    assert_eq!(resort.counters().rollbacks, 0);
}

#[test]
fn pure_start_weight_follows_the_start_order() {
    // Starts 2, 0, 1 for part 0 on clusters 0, 1, 2; part 1 everywhere.
    let mut trs = Vec::new();
    for start in 0..3 {
        for cluster in 0..3 {
            trs.push(tr(cluster, 1, start, f64::from(cluster)));
        }
    }
    trs.extend([tr(0, 0, 2, 0.0), tr(1, 0, 0, 9.0), tr(2, 0, 1, 0.0)]);
    let tree = VariantTree::new(2, 3, &trs);
    let mut resort = Resorting::new(weights(1.0));
    let mut log = Vec::new();
    drive(&mut resort, &tree, |n| {
        log.push((n.cluster, n.part, n.start));
        !(n.part == 1 && n.start == 0)
    });
    // Start 0 first (cluster 1), its part 1 refused on clusters 0 and 2 → roll back;
    // then start 1 (cluster 2) and its first child (cluster 0).
    assert_eq!(log, vec![(1, 0, 0), (0, 1, 0), (2, 1, 0), (2, 0, 1), (0, 1, 1)]);
    assert_eq!(resort.counters(), SearchCounters { attempts: 5, failures: 2, rollbacks: 1 });
}
