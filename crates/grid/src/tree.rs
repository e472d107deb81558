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
