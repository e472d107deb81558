//! The per-node plan: every node's reservations, for the comprehensive approach.
//!
//! Reference: `overbooking-dissertation-spec.md` §1.3 ("one plan per resource,
//! each entry = (job-ID, start time, end time)"), §2.5 (direct predecessors),
//! §5.5 (node choice).
//!
//! Contract:
//! - Every node has a list of [`NodeBooking`]s (one reservation of one node)
//!   sorted by start, never overlapping.
//!   Nodes with the same list form one *class* (a set of node-id ranges), so
//!   the cost of a query over all nodes ([`NodePlan::choose`]) grows with the
//!   number of distinct node histories in the plan, not with the machine: an
//!   idle 100,000-node machine is one class.
//! - A booking adds (or removes) one slot on a set of nodes at once
//!   ([`NodePlan::reserve`], [`NodePlan::release`]); classes split where a
//!   booking covers part of one, and classes whose futures became equal merge
//!   when the past is forgotten ([`NodePlan::forget_before`]).
//! - Point queries on one node (is it free at t, until when, which slot ends
//!   last before t) are binary searches over its class's slots: O(log r). A
//!   class remembers where its last free-until search ended, and the next
//!   one, usually at a slightly later time, looks there first.
//! - The plan keeps the distinct slot end times, because the earliest start of
//!   a comprehensive placement is always the search origin or such an end.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};

use slasim_core::units::{JobId, NodeId, Time};

/// One reservation of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeBooking {
    /// First reserved instant.
    pub start: Time,
    /// End of the reservation (exclusive).
    pub end: Time,
    /// The job holding it.
    pub job: JobId,
}

/// Which nodes [`NodePlan::choose`] prefers among the candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeOrder {
    /// The lowest node ids (first fit).
    LowestIds,
    /// The smallest free-until first, ties by lower id (best fit).
    TightestFit,
    /// The largest free-until first, ties by lower id.
    LongestFree,
}

/// A set of node ids: sorted, disjoint, non-adjacent half-open ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct NodeRanges {
    ranges: Vec<(u32, u32)>,
}

impl NodeRanges {
    fn len(&self) -> u32 {
        self.ranges.iter().map(|(a, b)| b - a).sum()
    }

    /// Appends sorted ids (greater than every id held).
    fn push(&mut self, id: u32) {
        match self.ranges.last_mut() {
            Some((_, end)) if *end == id => *end += 1,
            _ => self.ranges.push((id, id + 1)),
        }
    }

    fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().flat_map(|&(a, b)| a..b)
    }

    /// Removes the ranges of `part` (a subset) from the set.
    fn remove(&mut self, part: &NodeRanges) {
        let mut out = Vec::with_capacity(self.ranges.len() + part.ranges.len());
        let mut cut = part.ranges.iter().peekable();
        for &(mut a, b) in &self.ranges {
            while let Some(&&(c, d)) = cut.peek() {
                if c >= b {
                    break;
                }
                if c > a {
                    out.push((a, c));
                }
                a = a.max(d);
                cut.next();
            }
            if a < b {
                out.push((a, b));
            }
        }
        self.ranges = out;
    }

    /// Adds the ranges of a disjoint set.
    fn union(&mut self, other: &NodeRanges) {
        let mut all: Vec<(u32, u32)> = self.ranges.iter().chain(&other.ranges).copied().collect();
        all.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(all.len());
        for (a, b) in all {
            match out.last_mut() {
                Some((_, end)) if *end >= a => *end = (*end).max(b),
                _ => out.push((a, b)),
            }
        }
        self.ranges = out;
    }
}

/// Nodes with one slot list.
#[derive(Debug, Clone, Default)]
struct Class {
    nodes: NodeRanges,
    slots: Vec<NodeBooking>,
    /// Where the last [`Class::free_until`] ended: a search checks it (and
    /// the next slot) first, as a choice asks about one time after another.
    /// Any value is correct, so edits of `slots` leave it as it is.
    hint: Cell<u32>,
}

impl Class {
    fn new(nodes: NodeRanges, slots: Vec<NodeBooking>) -> Class {
        Class { nodes, slots, hint: Cell::new(0) }
    }

    /// The first slot ending after `t` (ends are sorted: slots do not overlap).
    fn first_ending_after(&self, t: Time) -> usize {
        let slots = &self.slots[..];
        let h = (self.hint.get() as usize).min(slots.len());
        let i = if h > 0 && slots[h - 1].end > t {
            slots[..h - 1].partition_point(|s| s.end <= t)
        } else if h == slots.len() || slots[h].end > t {
            h
        } else if h + 1 == slots.len() || slots[h + 1].end > t {
            h + 1
        } else {
            h + 2 + slots[h + 2..].partition_point(|s| s.end <= t)
        };
        self.hint.set(i as u32);
        i
    }

    fn free_until(&self, t: Time) -> Option<Time> {
        let i = self.first_ending_after(t);
        match self.slots.get(i) {
            Some(s) if s.start <= t => None,
            Some(s) => Some(s.start),
            None => Some(Time::MAX),
        }
    }

    fn insert(&mut self, slot: NodeBooking) {
        let i = self.slots.partition_point(|s| s.start < slot.start);
        debug_assert!(i == 0 || self.slots[i - 1].end <= slot.start, "{slot:?} overlaps {:?}", self.slots[i - 1]);
        debug_assert!(
            i == self.slots.len() || slot.end <= self.slots[i].start,
            "{slot:?} overlaps {:?}",
            self.slots[i]
        );
        self.slots.insert(i, slot);
    }

    fn remove(&mut self, start: Time, job: JobId) -> Option<NodeBooking> {
        let i = self.slots.partition_point(|s| s.start < start);
        self.slots.get(i).is_some_and(|s| s.start == start && s.job == job).then(|| self.slots.remove(i))
    }
}

/// Reservations of every node of a cluster.
#[derive(Debug, Clone, Default)]
pub struct NodePlan {
    node_count: u32,
    class_of: Vec<u32>,
    classes: Vec<Class>,
    /// Indices of empty classes, for reuse.
    spare: Vec<u32>,
    /// Booking end times, counted per booking.
    ends: BTreeMap<Time, u32>,
    // Scratch, reused so bookings and choices do not allocate in steady state.
    by_class: Vec<(u32, NodeId)>,
    candidates: Vec<(Time, u32)>,
    ranges: Vec<(u32, u32)>,
}

impl NodePlan {
    /// A plan for `nodes` empty nodes.
    pub fn new(nodes: u32) -> NodePlan {
        let all = if nodes > 0 { NodeRanges { ranges: vec![(0, nodes)] } } else { NodeRanges::default() };
        NodePlan {
            node_count: nodes,
            class_of: vec![0; nodes as usize],
            classes: vec![Class::new(all, Vec::new())],
            ..NodePlan::default()
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> u32 {
        self.node_count
    }

    /// Number of distinct node histories (for tests and diagnostics).
    pub fn class_count(&self) -> usize {
        self.classes.iter().filter(|c| !c.nodes.ranges.is_empty()).count()
    }

    fn class(&self, node: NodeId) -> &Class {
        &self.classes[self.class_of[node as usize] as usize]
    }

    /// The slots of one node, sorted by start.
    pub fn slots(&self, node: NodeId) -> &[NodeBooking] {
        &self.class(node).slots
    }

    /// A new class holding `nodes` (moved out of their classes by the caller).
    fn new_class(&mut self, nodes: NodeRanges, slots: Vec<NodeBooking>) -> u32 {
        let index = match self.spare.pop() {
            Some(i) => {
                self.classes[i as usize] = Class::new(nodes, slots);
                i
            }
            None => {
                self.classes.push(Class::new(nodes, slots));
                self.classes.len() as u32 - 1
            }
        };
        for node in self.classes[index as usize].nodes.ids() {
            self.class_of[node as usize] = index;
        }
        index
    }

    /// Applies `change` to the slots of `nodes` (sorted): whole classes in
    /// place, parts of classes after splitting them off.
    fn apply(&mut self, nodes: &[NodeId], mut change: impl FnMut(&mut Class)) {
        let mut by_class = std::mem::take(&mut self.by_class);
        by_class.clear();
        by_class.extend(nodes.iter().map(|&n| (self.class_of[n as usize], n)));
        by_class.sort_unstable();
        let mut k = 0;
        while k < by_class.len() {
            let class = by_class[k].0;
            let mut part = NodeRanges::default();
            while k < by_class.len() && by_class[k].0 == class {
                part.push(by_class[k].1);
                k += 1;
            }
            let c = &mut self.classes[class as usize];
            if part.len() == c.nodes.len() {
                change(c);
                continue;
            }
            // Split: the part gets its own class (moving the smaller side).
            c.nodes.remove(&part);
            let mut slots = c.slots.clone();
            if part.len() <= c.nodes.len() {
                let mut moved = Class::new(NodeRanges::default(), std::mem::take(&mut slots));
                change(&mut moved);
                self.new_class(part, moved.slots);
            } else {
                let rest = std::mem::replace(&mut c.nodes, part);
                change(c);
                self.new_class(rest, slots);
            }
        }
        self.by_class = by_class;
    }

    /// Adds `slot` on every node of `nodes` (sorted). The caller guarantees
    /// it overlaps no other slot there.
    pub fn reserve(&mut self, nodes: &[NodeId], slot: NodeBooking) {
        if nodes.is_empty() {
            return;
        }
        self.apply(nodes, |c| c.insert(slot));
        *self.ends.entry(slot.end).or_default() += 1;
    }

    /// Removes `job`'s slot starting at `start` from every node of `nodes` (sorted).
    pub fn release(&mut self, nodes: &[NodeId], start: Time, job: JobId) {
        let mut end = None;
        self.apply(nodes, |c| {
            if let Some(s) = c.remove(start, job) {
                end = Some(s.end);
            }
        });
        if let Some(end) = end {
            self.forget_end(end);
        }
    }

    fn forget_end(&mut self, end: Time) {
        if let Some(count) = self.ends.get_mut(&end) {
            *count -= 1;
            if *count == 0 {
                self.ends.remove(&end);
            }
        }
    }

    /// `None` if `node` is reserved at `t`; else until when it stays free
    /// (`Time::MAX` if forever).
    pub fn free_until(&self, node: NodeId, t: Time) -> Option<Time> {
        self.class(node).free_until(t)
    }

    /// True if `node` has no slot overlapping `[start, end)`.
    pub fn is_free(&self, node: NodeId, start: Time, end: Time) -> bool {
        self.free_until(node, start).is_some_and(|until| until >= end)
    }

    /// The slot of `node` that ends last at or before `t` (the direct predecessor
    /// of a job starting at `t`).
    pub fn predecessor(&self, node: NodeId, t: Time) -> Option<NodeBooking> {
        let class = self.class(node);
        class.first_ending_after(t).checked_sub(1).map(|k| class.slots[k])
    }

    /// The start of the first slot of `node` beginning at or after `t`.
    pub fn next_start(&self, node: NodeId, t: Time) -> Option<Time> {
        self.next_slot(node, t).map(|s| s.start)
    }

    /// The first slot of `node` that starts at or after `t`.
    pub fn next_slot(&self, node: NodeId, t: Time) -> Option<NodeBooking> {
        let list = self.slots(node);
        let i = list.partition_point(|s| s.start < t);
        list.get(i).copied()
    }

    /// The slots of `node` ending exactly at `t`.
    pub fn ending_at(&self, node: NodeId, t: Time) -> Option<NodeBooking> {
        self.predecessor(node, t).filter(|s| s.end == t)
    }

    /// Distinct slot end times at or after `t`, ascending.
    pub fn ends_from(&self, t: Time) -> impl Iterator<Item = Time> + '_ {
        self.ends.range(t..).map(|(&end, _)| end)
    }

    /// Chooses `n` nodes free at `t` until at least `min_until`, in `order`,
    /// into `out` (sorted ascending). Returns the free-until of the n-th node
    /// in that order, or `None` (and `out` empty) if fewer than `n` qualify.
    pub fn choose(
        &mut self,
        t: Time,
        min_until: Time,
        n: u32,
        order: NodeOrder,
        out: &mut Vec<NodeId>,
    ) -> Option<Time> {
        out.clear();
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let mut total = 0u64;
        for (i, c) in self.classes.iter().enumerate() {
            if c.nodes.ranges.is_empty() {
                continue;
            }
            if let Some(until) = c.free_until(t).filter(|&u| u >= min_until) {
                candidates.push((until, i as u32));
                total += u64::from(c.nodes.len());
            }
        }
        let chosen = if total < u64::from(n) || n == 0 {
            None
        } else {
            match order {
                NodeOrder::LowestIds => {
                    self.take_lowest(&candidates, n, out);
                    Some(0)
                }
                NodeOrder::TightestFit | NodeOrder::LongestFree => {
                    if order == NodeOrder::TightestFit {
                        candidates.sort_unstable();
                    } else {
                        candidates.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                    }
                    // Whole groups of one free-until, the last one by lowest ids.
                    let mut taken = 0u32;
                    let mut last = 0;
                    let mut k = 0;
                    while taken < n {
                        let until = candidates[k].0;
                        let group_end =
                            candidates[k..].iter().position(|c| c.0 != until).map_or(candidates.len(), |p| k + p);
                        let before = out.len();
                        self.take_lowest(&candidates[k..group_end], n - taken, out);
                        taken += (out.len() - before) as u32;
                        last = until;
                        k = group_end;
                    }
                    out.sort_unstable();
                    Some(last)
                }
            }
        };
        self.candidates = candidates;
        chosen
    }

    /// Appends the `n` lowest node ids of the candidate classes (or all of them) to `out`.
    fn take_lowest(&mut self, candidates: &[(Time, u32)], n: u32, out: &mut Vec<NodeId>) {
        let mut ranges = std::mem::take(&mut self.ranges);
        ranges.clear();
        for &(_, c) in candidates {
            ranges.extend_from_slice(&self.classes[c as usize].nodes.ranges);
        }
        ranges.sort_unstable();
        let mut left = n;
        for &(a, b) in &ranges {
            let take = (b - a).min(left);
            out.extend(a..a + take);
            left -= take;
            if left == 0 {
                break;
            }
        }
        self.ranges = ranges;
    }

    /// Drops slots that ended at or before `t`, and merges nodes whose
    /// futures became equal.
    pub fn forget_before(&mut self, t: Time) {
        for c in &mut self.classes {
            let done = c.slots.partition_point(|s| s.end <= t);
            c.slots.drain(..done);
        }
        self.ends = self.ends.split_off(&(t + 1));
        let mut first: HashMap<Vec<NodeBooking>, u32> = HashMap::new();
        for i in 0..self.classes.len() as u32 {
            if self.classes[i as usize].nodes.ranges.is_empty() {
                continue;
            }
            match first.get(&self.classes[i as usize].slots) {
                None => {
                    first.insert(self.classes[i as usize].slots.clone(), i);
                }
                Some(&keep) => {
                    // Relabel the smaller side.
                    let (keep, gone) =
                        if self.classes[keep as usize].nodes.len() >= self.classes[i as usize].nodes.len() {
                            (keep, i)
                        } else {
                            first.insert(self.classes[i as usize].slots.clone(), i);
                            (i, keep)
                        };
                    let moved = std::mem::take(&mut self.classes[gone as usize]);
                    for node in moved.nodes.ids() {
                        self.class_of[node as usize] = keep;
                    }
                    self.classes[keep as usize].nodes.union(&moved.nodes);
                    self.spare.push(gone);
                }
            }
        }
    }
}
