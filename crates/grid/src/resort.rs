//! Alg. 5's reservation step: the variant tree sorted by a combined
//! start-time/cost value, and re-sorted after every refused reservation.
//!
//! Reference: `coreservation-thesis-spec.md` §4.7.4 (Fig. 11, eq. 2: costs
//! accumulate down the tree, leaves are valued `k · norm_cost + s ·
//! norm_start`, every node takes its best child's value, children are sorted
//! by it), §4.7.5 (Figs. 12–13: after a failure the partially reserved
//! variant is rolled back to the node `k*` on the new best path, and the
//! search continues from there), A17 (N = C + 2 · (r − 1) · C), A19
//! (tolerances, default 0).
//!
//! Contract:
//! - The tree is the pruned variant tree of [`VariantTree`], materialised
//!   once. Child order is (best value, position in the list order): the stable
//!   sort of eq. 2, and the "re-insert sorted" of §4.7.5 with ties kept in
//!   list order.
//! - Every step goes to the best remaining leaf (the first in that order):
//!   reserved nodes not on its path are rolled back deepest first, then the
//!   nodes of its path are reserved top down. A refused node is removed with
//!   its subtree and the values above it are updated.
//! - With a start tolerance or a cost tolerance, the reserved partial variant
//!   is kept (and continued below its deepest node) while its best leaf starts
//!   less than the tolerance later and costs less than the tolerance more than
//!   the best leaf.
//! - With k = 0 and s = 1 the order is the start order of Alg. 4, and so is
//!   every reservation and roll-back.

use crate::search::{Action, Answer, Search, SearchCounters};
use crate::tree::{TreeNode, VariantTree};

/// The weights and tolerances of one request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// s: weight of the start time (k = 1 − s weighs the cost).
    pub start_weight: f64,
    /// Startzeittoleranz, in grid steps of the request.
    pub start_tolerance: f64,
    /// Kostentoleranz, in cost units.
    pub cost_tolerance: f64,
}

#[derive(Debug, Clone)]
struct Node {
    tr: TreeNode,
    parent: usize,
    children: Vec<usize>,
    /// Position in the list order among its siblings (ties).
    rank: usize,
    /// Total cost of the path to here.
    cost: f64,
    /// Best value of a remaining leaf below (∞ when none).
    best: f64,
    /// The remaining leaf with that value (index), if any.
    best_leaf: Option<usize>,
    removed: bool,
}

/// The sorted tree and the re-sorting reservation step.
#[derive(Debug)]
pub struct Resorting {
    weights: Weights,
    nodes: Vec<Node>,
    built: bool,
    /// Reserved nodes, root child first.
    path: Vec<usize>,
    pending: Option<usize>,
    counters: SearchCounters,
}

const ROOT: usize = 0;

impl Resorting {
    /// A search for a request with these weights.
    pub fn new(weights: Weights) -> Resorting {
        Resorting {
            weights,
            nodes: Vec::new(),
            built: false,
            path: Vec::new(),
            pending: None,
            counters: SearchCounters::default(),
        }
    }

    fn build(&mut self, tree: &VariantTree) {
        self.built = true;
        let root_tr = TreeNode { cluster: u32::MAX, part: u32::MAX, start: 0, cost: 0.0 };
        self.nodes.push(Node {
            tr: root_tr,
            parent: ROOT,
            children: Vec::new(),
            rank: 0,
            cost: 0.0,
            best: f64::INFINITY,
            best_leaf: None,
            removed: false,
        });
        for (rank, child) in tree.children(None, 0).enumerate() {
            self.add(tree, ROOT, child, rank, 1u64 << child.cluster);
        }
        // Eq. 2 over every leaf: costs and starts normalised by their ranges.
        let leaves: Vec<usize> =
            (0..self.nodes.len()).filter(|&i| i != ROOT && self.nodes[i].children.is_empty()).collect();
        let range = |f: &dyn Fn(&Node) -> f64| {
            leaves
                .iter()
                .map(|&i| f(&self.nodes[i]))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
        };
        let (cost_lo, cost_hi) = range(&|n| n.cost);
        let (start_lo, start_hi) = range(&|n| f64::from(n.tr.start));
        let norm = |v: f64, lo: f64, hi: f64| if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
        let (s, k) = (self.weights.start_weight, 1.0 - self.weights.start_weight);
        for &leaf in &leaves {
            let n = &mut self.nodes[leaf];
            n.best = k * norm(n.cost, cost_lo, cost_hi) + s * norm(f64::from(n.tr.start), start_lo, start_hi);
            n.best_leaf = Some(leaf);
        }
        // Bottom-up: children were pushed after their parents.
        for i in (0..self.nodes.len()).rev() {
            if !self.nodes[i].children.is_empty() {
                self.refresh(i);
            }
        }
    }

    fn add(&mut self, tree: &VariantTree, parent: usize, tr: TreeNode, rank: usize, mask: u64) {
        let index = self.nodes.len();
        let cost = self.nodes[parent].cost + tr.cost;
        self.nodes.push(Node {
            tr,
            parent,
            children: Vec::new(),
            rank,
            cost,
            best: f64::INFINITY,
            best_leaf: None,
            removed: false,
        });
        self.nodes[parent].children.push(index);
        for (rank, child) in tree.children(Some(&tr), mask).enumerate() {
            self.add(tree, index, child, rank, mask | (1u64 << child.cluster));
        }
    }

    /// The first remaining child of `i` in (best, rank) order.
    fn first_child(&self, i: usize) -> Option<usize> {
        self.nodes[i]
            .children
            .iter()
            .copied()
            .filter(|&c| !self.nodes[c].removed && self.nodes[c].best.is_finite())
            .min_by(|&a, &b| {
                let (a, b) = (&self.nodes[a], &self.nodes[b]);
                a.best.total_cmp(&b.best).then(a.rank.cmp(&b.rank))
            })
    }

    /// Recomputes a node's best from its children.
    fn refresh(&mut self, i: usize) {
        match self.first_child(i) {
            Some(c) => {
                self.nodes[i].best = self.nodes[c].best;
                self.nodes[i].best_leaf = self.nodes[c].best_leaf;
            }
            None => {
                self.nodes[i].best = f64::INFINITY;
                self.nodes[i].best_leaf = None;
            }
        }
    }

    /// Removes a refused node's subtree and updates the values above it.
    fn remove(&mut self, i: usize) {
        self.nodes[i].removed = true;
        let mut up = self.nodes[i].parent;
        loop {
            self.refresh(up);
            if up == ROOT {
                break;
            }
            up = self.nodes[up].parent;
        }
    }

    /// The path from the root's child to `leaf`.
    fn path_to(&self, leaf: usize) -> Vec<usize> {
        let mut path = vec![leaf];
        let mut at = leaf;
        while self.nodes[at].parent != ROOT {
            at = self.nodes[at].parent;
            path.push(at);
        }
        path.reverse();
        path
    }

    /// Keep the reserved partial variant (a tolerance allows it)?
    fn keep_partial(&self, target: usize) -> bool {
        let w = self.weights;
        if w.start_tolerance <= 0.0 && w.cost_tolerance <= 0.0 {
            return false;
        }
        let Some(&deepest) = self.path.last() else { return false };
        let Some(own) = self.nodes[deepest].best_leaf else { return false };
        let (own, best) = (&self.nodes[own], &self.nodes[target]);
        f64::from(own.tr.start) < f64::from(best.tr.start) + w.start_tolerance
            && own.cost < best.cost + w.cost_tolerance
    }
}

impl Search for Resorting {
    fn next(&mut self, tree: &VariantTree, answer: Option<Answer>) -> Action {
        if !self.built {
            self.build(tree);
        }
        match answer {
            Some(Answer::Reserved) => {
                if let Some(node) = self.pending.take() {
                    self.path.push(node);
                    if self.path.len() == tree.parts() {
                        return Action::Granted(self.path.iter().map(|&i| self.nodes[i].tr).collect());
                    }
                }
            }
            Some(Answer::Refused) => {
                if let Some(node) = self.pending.take() {
                    self.counters.failures += 1;
                    self.remove(node);
                }
            }
            Some(Answer::Cancelled) | None => {}
        }
        let target = match self.path.last() {
            Some(&deepest) if self.keep_partial(self.nodes[ROOT].best_leaf.unwrap_or(deepest)) => {
                self.nodes[deepest].best_leaf
            }
            _ => self.nodes[ROOT].best_leaf,
        };
        let Some(target) = target else {
            // Nothing left: roll back what is reserved, then give up.
            return match self.path.pop() {
                Some(node) => {
                    self.counters.rollbacks += 1;
                    Action::Cancel(self.nodes[node].tr)
                }
                None => Action::Rejected,
            };
        };
        let route = self.path_to(target);
        let common = self.path.iter().zip(&route).take_while(|(a, b)| a == b).count();
        if self.path.len() > common {
            // Roll back to the node on the new best path, deepest first.
            let node = self.path.pop().unwrap_or(ROOT);
            self.counters.rollbacks += 1;
            return Action::Cancel(self.nodes[node].tr);
        }
        let next = route[common];
        self.pending = Some(next);
        self.counters.attempts += 1;
        Action::Reserve(self.nodes[next].tr)
    }

    fn counters(&self) -> SearchCounters {
        self.counters
    }
}
