//! The per-node plan: every node's reservations, for the comprehensive approach.
//!
//! Reference: `overbooking-dissertation-spec.md` §1.3 ("one plan per resource,
//! each entry = (job-ID, start time, end time)"), §2.5 (direct predecessors),
//! §5.5 (node choice).
//!
//! Contract: each node holds a vector of [`Slot`]s sorted by start, never
//! overlapping. Point queries (is a node free at t, until when, which slot ends
//! last before t) are binary searches: O(log r) for r slots on the node. The
//! plan also keeps the multiset of slot end times, because the earliest start
//! of a comprehensive placement is always the search origin or such an end.

use std::collections::BTreeMap;

use crate::units::{JobId, NodeId, Time};

/// One reservation of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// First reserved instant.
    pub start: Time,
    /// End of the reservation (exclusive).
    pub end: Time,
    /// The job holding it.
    pub job: JobId,
}

/// Reservations of every node of a cluster.
#[derive(Debug, Clone, Default)]
pub struct NodePlan {
    nodes: Vec<Vec<Slot>>,
    ends: BTreeMap<Time, u32>,
}

impl NodePlan {
    /// A plan for `nodes` empty nodes.
    pub fn new(nodes: u32) -> NodePlan {
        NodePlan { nodes: vec![Vec::new(); nodes as usize], ends: BTreeMap::new() }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// The slots of one node, sorted by start.
    pub fn slots(&self, node: NodeId) -> &[Slot] {
        &self.nodes[node as usize]
    }

    /// Adds a slot on `node`. The caller guarantees it overlaps no other slot.
    pub fn reserve(&mut self, node: NodeId, slot: Slot) {
        let list = &mut self.nodes[node as usize];
        let i = list.partition_point(|s| s.start < slot.start);
        debug_assert!(i == 0 || list[i - 1].end <= slot.start, "node {node}: {slot:?} overlaps {:?}", list[i - 1]);
        debug_assert!(i == list.len() || slot.end <= list[i].start, "node {node}: {slot:?} overlaps {:?}", list[i]);
        list.insert(i, slot);
        *self.ends.entry(slot.end).or_default() += 1;
    }

    /// Removes `job`'s slot starting at `start` from `node`; returns it.
    pub fn release(&mut self, node: NodeId, start: Time, job: JobId) -> Option<Slot> {
        let list = &mut self.nodes[node as usize];
        let i = list.partition_point(|s| s.start < start);
        if list.get(i).is_some_and(|s| s.start == start && s.job == job) {
            let slot = list.remove(i);
            self.forget_end(slot.end);
            Some(slot)
        } else {
            None
        }
    }

    /// Shortens or lengthens `job`'s slot on `node` to end at `end`.
    pub fn set_end(&mut self, node: NodeId, start: Time, job: JobId, end: Time) {
        let list = &mut self.nodes[node as usize];
        let i = list.partition_point(|s| s.start < start);
        if let Some(slot) = list.get_mut(i).filter(|s| s.start == start && s.job == job) {
            let old = slot.end;
            slot.end = end;
            debug_assert!(list.get(i + 1).is_none_or(|next| end <= next.start), "node {node}: end {end} overlaps");
            self.forget_end(old);
            *self.ends.entry(end).or_default() += 1;
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
        let list = &self.nodes[node as usize];
        let i = list.partition_point(|s| s.end <= t);
        match list.get(i) {
            Some(s) if s.start <= t => None,
            Some(s) => Some(s.start),
            None => Some(Time::MAX),
        }
    }

    /// True if `node` has no slot overlapping `[start, end)`.
    pub fn is_free(&self, node: NodeId, start: Time, end: Time) -> bool {
        self.free_until(node, start).is_some_and(|until| until >= end)
    }

    /// The slot of `node` that ends last at or before `t` (the direct predecessor
    /// of a job starting at `t`).
    pub fn predecessor(&self, node: NodeId, t: Time) -> Option<Slot> {
        let list = &self.nodes[node as usize];
        let i = list.partition_point(|s| s.end <= t);
        i.checked_sub(1).map(|k| list[k])
    }

    /// The start of the first slot of `node` beginning at or after `t`.
    pub fn next_start(&self, node: NodeId, t: Time) -> Option<Time> {
        let list = &self.nodes[node as usize];
        let i = list.partition_point(|s| s.start < t);
        list.get(i).map(|s| s.start)
    }

    /// The first slot of `node` that starts at or after `t`.
    pub fn next_slot(&self, node: NodeId, t: Time) -> Option<Slot> {
        let list = &self.nodes[node as usize];
        let i = list.partition_point(|s| s.start < t);
        list.get(i).copied()
    }

    /// The slots of `node` ending exactly at `t`.
    pub fn ending_at(&self, node: NodeId, t: Time) -> Option<Slot> {
        self.predecessor(node, t).filter(|s| s.end == t)
    }

    /// Distinct slot end times at or after `t`, ascending.
    pub fn ends_from(&self, t: Time) -> impl Iterator<Item = Time> + '_ {
        self.ends.range(t..).map(|(&end, _)| end)
    }

    /// Drops slots that ended at or before `t`.
    pub fn forget_before(&mut self, t: Time) {
        for list in &mut self.nodes {
            let done = list.partition_point(|s| s.end <= t);
            for slot in list.drain(..done) {
                if let Some(count) = self.ends.get_mut(&slot.end) {
                    *count -= 1;
                    if *count == 0 {
                        self.ends.remove(&slot.end);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_until_predecessor_and_ends() {
        let mut p = NodePlan::new(2);
        p.reserve(0, Slot { start: 10, end: 20, job: 1 });
        p.reserve(0, Slot { start: 30, end: 40, job: 2 });
        p.reserve(1, Slot { start: 0, end: 20, job: 3 });
        assert_eq!(p.free_until(0, 0), Some(10));
        assert_eq!(p.free_until(0, 10), None);
        assert_eq!(p.free_until(0, 20), Some(30));
        assert_eq!(p.free_until(0, 45), Some(Time::MAX));
        assert!(p.is_free(0, 20, 30));
        assert!(!p.is_free(0, 20, 31));
        assert_eq!(p.predecessor(0, 30).map(|s| s.job), Some(1));
        assert_eq!(p.predecessor(0, 5), None);
        assert_eq!(p.next_start(0, 11), Some(30));
        assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![20, 40]);
        assert_eq!(p.release(1, 0, 3).map(|s| s.end), Some(20));
        assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![20, 40]);
        p.set_end(0, 10, 1, 15);
        assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![15, 40]);
        p.forget_before(15);
        assert_eq!(p.slots(0).len(), 1);
        assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![40]);
    }
}
