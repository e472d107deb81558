use slasim_grid::request::Tr;
use slasim_grid::search::*;
use slasim_grid::tree::VariantTree;

fn tr(cluster: u32, part: u32, start: u32) -> Tr {
    Tr { cluster, part, start, cost: 0.0 }
}

#[test]
fn first_variant_when_everything_succeeds() {
    // Two parts on clusters 0, 1 at one start: list order (0,p0), (1,p0), (1,p1), (0,p1).
    let tree = VariantTree::new(2, 1, &[tr(0, 0, 0), tr(1, 0, 0), tr(1, 1, 0), tr(0, 1, 0)]);
    let mut s = DepthFirst::new();
    let done = drive(&mut s, &tree, |_| true);
    let Action::Granted(path) = done else { panic!("{done:?}") };
    assert_eq!(path.iter().map(|n| n.cluster).collect::<Vec<_>>(), vec![0, 1]);
    // n = r for a request that needs only the first variant.
    assert_eq!(s.counters(), SearchCounters { attempts: 2, failures: 0, rollbacks: 0 });
}

#[test]
fn refusals_skip_subtrees_and_exhausted_nodes_roll_back() {
    // Clusters 0–2, two parts, one start. List order: roots 0, 1; part 1 on 1, 2, 0.
    // Cluster 2 refuses everything, cluster 1 refuses part 1.
    // Root 0 reserved (1) → child 1 refused (2) → child 2 refused (3) →
    // roll back 0 → root 1 reserved (4) → child 2 refused (5) → child 0 reserved (6): granted [1, 0].
    let tree = VariantTree::new(2, 1, &[tr(0, 0, 0), tr(1, 0, 0), tr(1, 1, 0), tr(2, 1, 0), tr(0, 1, 0)]);
    let mut s = DepthFirst::new();
    let mut log = Vec::new();
    let done = drive(&mut s, &tree, |n| {
        log.push((n.cluster, n.part));
        !(n.cluster == 2 || (n.cluster == 1 && n.part == 1))
    });
    assert_eq!(log, vec![(0, 0), (1, 1), (2, 1), (1, 0), (2, 1), (0, 1)]);
    let Action::Granted(path) = done else { panic!("{done:?}") };
    assert_eq!(path.iter().map(|n| n.cluster).collect::<Vec<_>>(), vec![1, 0]);
    let c = s.counters();
    assert_eq!((c.attempts, c.failures, c.rollbacks, c.messages()), (6, 3, 1, 7));
}

#[test]
fn a_refused_root_child_is_skipped_and_an_exhausted_root_rejects() {
    let tree = VariantTree::new(2, 1, &[tr(0, 0, 0), tr(1, 1, 0), tr(1, 0, 0), tr(0, 1, 0)]);
    let mut s = DepthFirst::new();
    assert_eq!(drive(&mut s, &tree, |_| false), Action::Rejected);
    // Both roots tried and refused; no child was reached, nothing rolled back.
    assert_eq!(s.counters(), SearchCounters { attempts: 2, failures: 2, rollbacks: 0 });
    // An empty tree rejects without a message.
    let mut s = DepthFirst::new();
    assert_eq!(drive(&mut s, &VariantTree::new(2, 1, &[]), |_| true), Action::Rejected);
    assert_eq!(s.counters().messages(), 0);
}
