use proptest::prelude::*;
use slasim_core::units::{JobId, NodeId, Time};
use slasim_single::plan::node_plan::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
struct PerNode {
    nodes: Vec<Vec<NodeBooking>>,
    ends: BTreeMap<Time, u32>,
}

impl PerNode {
    fn new(n: u32) -> PerNode {
        PerNode { nodes: vec![Vec::new(); n as usize], ends: BTreeMap::new() }
    }

    fn reserve(&mut self, nodes: &[NodeId], slot: NodeBooking) {
        for &n in nodes {
            let list = &mut self.nodes[n as usize];
            let i = list.partition_point(|s| s.start < slot.start);
            list.insert(i, slot);
            *self.ends.entry(slot.end).or_default() += 1;
        }
    }

    fn release(&mut self, nodes: &[NodeId], start: Time, job: JobId) {
        for &n in nodes {
            let list = &mut self.nodes[n as usize];
            if let Some(i) = list.iter().position(|s| s.start == start && s.job == job) {
                let s = list.remove(i);
                let c = self.ends.get_mut(&s.end).unwrap();
                *c -= 1;
                if *c == 0 {
                    self.ends.remove(&s.end);
                }
            }
        }
    }

    fn free_until(&self, node: NodeId, t: Time) -> Option<Time> {
        let list = &self.nodes[node as usize];
        let i = list.partition_point(|s| s.end <= t);
        match list.get(i) {
            Some(s) if s.start <= t => None,
            Some(s) => Some(s.start),
            None => Some(Time::MAX),
        }
    }

    /// The dissertation's node choice, node by node (what the comprehensive plan core did).
    fn choose(&self, t: Time, min_until: Time, n: u32, order: NodeOrder) -> Option<(Vec<NodeId>, Time)> {
        let mut c: Vec<(Time, NodeId)> = (0..self.nodes.len() as u32)
            .filter_map(|node| self.free_until(node, t).filter(|&u| u >= min_until).map(|u| (u, node)))
            .collect();
        let n = n as usize;
        if c.len() < n || n == 0 {
            return None;
        }
        match order {
            NodeOrder::LowestIds => {}
            NodeOrder::TightestFit => c.sort_unstable(),
            NodeOrder::LongestFree => c.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))),
        }
        let last = c[n - 1].0;
        let mut chosen: Vec<NodeId> = c[..n].iter().map(|&(_, node)| node).collect();
        chosen.sort_unstable();
        Some((chosen, if order == NodeOrder::LowestIds { 0 } else { last }))
    }

    fn forget_before(&mut self, t: Time) {
        for list in &mut self.nodes {
            let done = list.partition_point(|s| s.end <= t);
            for s in list.drain(..done) {
                let c = self.ends.get_mut(&s.end).unwrap();
                *c -= 1;
                if *c == 0 {
                    self.ends.remove(&s.end);
                }
            }
        }
    }
}

#[test]
fn free_until_predecessor_and_ends() {
    let mut p = NodePlan::new(2);
    p.reserve(&[0], NodeBooking { start: 10, end: 20, job: 1 });
    p.reserve(&[0], NodeBooking { start: 30, end: 40, job: 2 });
    p.reserve(&[1], NodeBooking { start: 0, end: 20, job: 3 });
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
    p.release(&[1], 0, 3);
    assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![20, 40]);
    p.forget_before(15);
    assert_eq!(p.slots(0).len(), 2);
    p.forget_before(20);
    assert_eq!(p.slots(0).len(), 1);
    assert_eq!(p.ends_from(0).collect::<Vec<_>>(), vec![40]);
}

#[test]
fn an_idle_machine_is_one_class_and_bookings_split_then_merge() {
    let mut p = NodePlan::new(100_000);
    assert_eq!(p.class_count(), 1);
    let job: Vec<NodeId> = (10..1010).collect();
    p.reserve(&job, NodeBooking { start: 0, end: 50, job: 7 });
    assert_eq!(p.class_count(), 2);
    let mut out = Vec::new();
    // 2,000 nodes free over [10, 100): the 10 below the job, then from 1010 up.
    assert_eq!(p.choose(10, 100, 2000, NodeOrder::LowestIds, &mut out), Some(0));
    assert_eq!(out[..10], (0..10).collect::<Vec<_>>()[..]);
    assert_eq!(out[10], 1010);
    // Once the slot is in the past, the nodes are alike again.
    p.forget_before(50);
    assert_eq!(p.class_count(), 1);
}

#[derive(Debug, Clone)]
enum Op {
    Reserve(Vec<NodeId>, Time, Time),
    Release(usize),
    Forget(Time),
}

fn ops() -> impl Strategy<Value = (u32, Vec<Op>)> {
    (1u32..40).prop_flat_map(|n| {
        let op = prop_oneof![
            4 => (prop::collection::btree_set(0..n, 1..=n as usize), 0i64..200, 1i64..60)
                .prop_map(|(nodes, s, d)| Op::Reserve(nodes.into_iter().collect(), s, s + d)),
            2 => (0usize..100).prop_map(Op::Release),
            1 => (0i64..200).prop_map(Op::Forget),
        ];
        (Just(n), prop::collection::vec(op, 1..60))
    })
}

proptest! {
    #![proptest_config(crate::testing::cases(256))]

    #[test]
    fn classes_answer_exactly_as_per_node_lists((n, ops) in ops(), t in 0i64..260, want in 1u32..40, min in 0i64..80) {
        let (mut plan, mut reference) = (NodePlan::new(n), PerNode::new(n));
        let mut booked: Vec<(Vec<NodeId>, Time, JobId)> = Vec::new();
        let mut horizon = 0;
        for (job, op) in ops.into_iter().enumerate() {
            match op {
                Op::Reserve(nodes, s, e) => {
                    // Only where every node is free over [s, e) and after the forgotten past.
                    if s >= horizon && nodes.iter().all(|&x| reference.free_until(x, s).is_some_and(|u| u >= e)) {
                        let slot = NodeBooking { start: s, end: e, job: job as JobId };
                        plan.reserve(&nodes, slot);
                        reference.reserve(&nodes, slot);
                        booked.push((nodes, s, job as JobId));
                    }
                }
                Op::Release(k) if !booked.is_empty() => {
                    let (nodes, s, job) = booked.remove(k % booked.len());
                    plan.release(&nodes, s, job);
                    reference.release(&nodes, s, job);
                }
                Op::Release(_) => {}
                Op::Forget(at) => {
                    horizon = horizon.max(at);
                    plan.forget_before(horizon);
                    reference.forget_before(horizon);
                    booked.retain(|b| reference.nodes[b.0[0] as usize].iter().any(|s| s.job == b.2));
                }
            }
        }
        for node in 0..n {
            prop_assert_eq!(plan.slots(node), &reference.nodes[node as usize][..]);
            prop_assert_eq!(plan.free_until(node, t), reference.free_until(node, t));
        }
        let from = t.max(horizon);
        prop_assert_eq!(plan.ends_from(from).collect::<Vec<_>>(), reference.ends.range(from..).map(|(e, _)| *e).collect::<Vec<_>>());
        for order in [NodeOrder::LowestIds, NodeOrder::TightestFit, NodeOrder::LongestFree] {
            let mut out = Vec::new();
            let got = plan.choose(t, t + min, want.min(n), order, &mut out).map(|u| (out.clone(), u));
            prop_assert_eq!(got, reference.choose(t, t + min, want.min(n), order), "{:?}", order);
        }
    }
}
