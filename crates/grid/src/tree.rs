//! The variant tree of a request, built lazily and pruned.
//!
//! Reference: `coreservation-thesis-spec.md` §4.2.2 (Listing 2, the pruning of
//! incomplete paths, the "engineer's algorithm"), §6.1 (C and C_i of the
//! efficiency), §4.6 (Alg. 4's start sort keeps the whole DFS in start order).
//!
//! Contract:
//! - The root's children are the TRs of part 0, in list order. The children of
//!   a node `(cluster, part p, start z)` are the TRs of part p + 1 at the same
//!   start on clusters not yet on the path, in list order. Only nodes on a
//!   complete root-to-leaf path (one TR per part) belong to the tree; the tree
//!   is never materialised: [`VariantTree::children`] yields the kept children
//!   of a node on demand.
//! - The list order is the order of the TRs given to [`VariantTree::new`]
//!   (shuffled by the caller; stable-sorted by start for Alg. 4).
//! - Paths are at most 64 clusters wide (a bit mask).

use crate::request::Tr;

/// A node of the tree: one TR on a partial path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeNode {
    /// Cluster of the TR.
    pub cluster: u32,
    /// Its part (= depth − 1).
    pub part: u32,
    /// Its start (grid index).
    pub start: u32,
    /// Its partial cost.
    pub cost: f64,
}

/// The TRs of one request, indexed for the variant tree.
#[derive(Debug, Clone)]
pub struct VariantTree {
    parts: usize,
    /// Part-0 TRs in list order (the root's children).
    roots: Vec<TreeNode>,
    /// For each (start, part): the offering clusters with costs, in list order.
    slots: Vec<Vec<(u32, f64)>>,
}

/// Sizes of the pruned tree (spec §6.1).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TreeCounts {
    /// `C_i` for i = 1..r: nodes at depth i; `by_depth[r − 1]` = C, the variants.
    pub by_depth: Vec<u64>,
    /// Earliest and latest start (grid index) of a variant, if any.
    pub starts: Option<(u32, u32)>,
}

impl TreeCounts {
    /// C: the number of co-reservation variants.
    pub fn variants(&self) -> u64 {
        self.by_depth.last().copied().unwrap_or(0)
    }

    /// The worst-case message count N of Alg. 1–4: C + 2 · Σ_{i<r} C_i.
    pub fn max_messages(&self) -> u64 {
        let inner: u64 = self.by_depth.iter().rev().skip(1).sum();
        self.variants() + 2 * inner
    }
}

fn bit(cluster: u32) -> u64 {
    1u64 << cluster
}

impl VariantTree {
    /// The tree of an `parts`-part request over `starts` grid times, from TRs in list order.
    pub fn new(parts: usize, starts: u32, trs: &[Tr]) -> VariantTree {
        let mut slots = vec![Vec::new(); starts as usize * parts];
        let mut roots = Vec::new();
        for t in trs {
            if t.part == 0 {
                roots.push(TreeNode { cluster: t.cluster, part: 0, start: t.start, cost: t.cost });
            } else if (t.part as usize) < parts && t.start < starts {
                slots[t.start as usize * parts + t.part as usize].push((t.cluster, t.cost));
            }
        }
        VariantTree { parts, roots, slots }
    }

    /// Number of parts (the depth of a leaf).
    pub fn parts(&self) -> usize {
        self.parts
    }

    fn slot(&self, start: u32, part: usize) -> &[(u32, f64)] {
        &self.slots[start as usize * self.parts + part]
    }

    /// True if a node of `part` at `start` with the clusters of `mask` on its
    /// path (its own included) lies on a complete path.
    fn completes(&self, start: u32, part: usize, mask: u64) -> bool {
        part + 1 >= self.parts
            || self
                .slot(start, part + 1)
                .iter()
                .any(|&(c, _)| mask & bit(c) == 0 && self.completes(start, part + 1, mask | bit(c)))
    }

    /// The kept children of the node at `parent` (`None`: the root) whose path
    /// holds the clusters of `mask`, from position `from` of its child list on:
    /// the first kept child and the position after it.
    pub fn child(&self, parent: Option<&TreeNode>, mask: u64, from: usize) -> Option<(TreeNode, usize)> {
        match parent {
            None => self
                .roots
                .iter()
                .enumerate()
                .skip(from)
                .find_map(|(i, n)| self.completes(n.start, 0, bit(n.cluster)).then_some((*n, i + 1))),
            Some(p) => {
                let part = p.part as usize + 1;
                if part >= self.parts {
                    return None;
                }
                self.slot(p.start, part).iter().enumerate().skip(from).find_map(|(i, &(cluster, cost))| {
                    (mask & bit(cluster) == 0 && self.completes(p.start, part, mask | bit(cluster)))
                        .then_some((TreeNode { cluster, part: part as u32, start: p.start, cost }, i + 1))
                })
            }
        }
    }

    /// Every kept child of a node, in order.
    pub fn children(&self, parent: Option<&TreeNode>, mask: u64) -> impl Iterator<Item = TreeNode> + '_ {
        let parent = parent.copied();
        let mut from = 0;
        std::iter::from_fn(move || {
            let (node, next) = self.child(parent.as_ref(), mask, from)?;
            from = next;
            Some(node)
        })
    }

    /// Counts the pruned tree's nodes per depth (C_i) and its start range.
    pub fn counts(&self) -> TreeCounts {
        let mut by_depth = vec![0u64; self.parts];
        let mut starts: Option<(u32, u32)> = None;
        for root in self.children(None, 0) {
            by_depth[0] += 1;
            self.count_below(&root, bit(root.cluster), &mut by_depth);
            starts = Some(starts.map_or((root.start, root.start), |(lo, hi)| (lo.min(root.start), hi.max(root.start))));
        }
        TreeCounts { by_depth, starts }
    }

    fn count_below(&self, node: &TreeNode, mask: u64, by_depth: &mut [u64]) {
        for child in self.children(Some(node), mask) {
            by_depth[child.part as usize] += 1;
            self.count_below(&child, mask | bit(child.cluster), by_depth);
        }
    }

    /// Calls `leaf` with the path (root child first) of every variant, in DFS order.
    pub fn for_each_variant(&self, mut leaf: impl FnMut(&[TreeNode])) {
        let mut path = Vec::with_capacity(self.parts);
        for root in self.children(None, 0) {
            path.push(root);
            self.visit(&mut path, bit(root.cluster), &mut leaf);
            path.pop();
        }
    }

    fn visit(&self, path: &mut Vec<TreeNode>, mask: u64, leaf: &mut impl FnMut(&[TreeNode])) {
        if path.len() == self.parts {
            leaf(path);
            return;
        }
        let Some(&last) = path.last() else { return };
        for child in self.children(Some(&last), mask) {
            path.push(child);
            self.visit(path, mask | bit(child.cluster), leaf);
            path.pop();
        }
    }
}

/// The clusters on a path, as a mask.
pub fn path_mask(path: &[TreeNode]) -> u64 {
    path.iter().fold(0, |m, n| m | bit(n.cluster))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Enumeration, StartGrid, all_trs, variant_count};

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
        let r = crate::workload::corequest::CoRequest {
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
}
