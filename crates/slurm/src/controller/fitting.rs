//! The order in which a backfill pass's running jobs, taken away, let each
//! node hold a job of one shape: what the will-run test
//! ([`super::Controller::will_run`]) would find by walking them, without
//! the walk.
//!
//! Contract:
//! - Built from the pass's releases (the running jobs in the order of their
//!   expected ends, each with its nodes and what it holds on each) and the
//!   nodes' free resources, and valid until either changes: a start or a
//!   preemption in the pass makes it stale ([`Fitting::stale`]).
//! - For a partition and a job's share of one node, [`Fitting::order`]
//!   gives each node of the partition that can hold that share after some
//!   prefix of the releases, with the length of the shortest such prefix
//!   (0: free now), by that length (nodes of one length in the
//!   partition's order: no query depends on it). A node no prefix lets
//!   hold it is left out.
//! - [`Fitting::nth_marked`] and [`Fitting::marked_within`] answer for
//!   the nodes of a bitset as a scan of the order would, from the nodes of
//!   each prefix of 64 places kept as bitsets: a pass's reservations take
//!   the nodes freed first, so on a full machine the nodes left to a job
//!   are few and late in the order, and a scan would be long.
//! - Shapes are computed when first asked for after the order was made
//!   stale; a pass asks for a few (the synthetic workloads draw a dozen).

use slasim_machine::Resources;

use super::is_set;

/// A node's place in an [`Fitting::order`]: the releases it waits for,
/// then the node.
type Place = (u32, u32);

/// A shape [`Fitting::order`] made, for the queries of its order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shaped(usize);

/// The releases on each node, and the orders of the shapes asked for.
#[derive(Debug, Default)]
pub(super) struct Fitting {
    /// Whether it holds the current releases and free resources.
    fresh: bool,
    /// Per node `n`, its releases are `held[start[n]..start[n + 1]]`.
    start: Vec<u32>,
    /// Per node, in the order of the releases: the release's index and
    /// what it gives back on the node.
    held: Vec<(u32, Resources)>,
    /// The shapes asked for since it was made fresh (the first `used`),
    /// kept for their buffers.
    shapes: Vec<Shape>,
    used: usize,
    /// [`sort_by_waits`]'s buffers, kept across orders.
    counts: Vec<u32>,
    spare: Vec<Place>,
}

/// Places in a block of an order: its prefixes kept as bitsets end at a
/// multiple of it.
const BLOCK: usize = 64;

/// One shape's order.
#[derive(Debug, Default)]
struct Shape {
    part: usize,
    share: Resources,
    order: Vec<Place>,
    /// Words of a node bitset.
    words: usize,
    /// For each block `b` of `order` (the last may be short), the nodes of
    /// its places up to the block's end, as a bitset at `b * words`.
    prefixes: Vec<u64>,
}

impl Shape {
    /// The nodes of the places before block `b` ends.
    fn prefix(&self, b: usize) -> &[u64] {
        &self.prefixes[b * self.words..(b + 1) * self.words]
    }
}

impl Fitting {
    /// Releases or free resources changed: the orders are to be made again.
    pub(super) fn stale(&mut self) {
        self.fresh = false;
    }

    /// Orders partition `part`'s nodes (`nodes`) for a job's `share` of one
    /// node, given the free resources `free` and the releases
    /// `releases` (each with its nodes and what it holds on each, in order),
    /// if it is stale or the shape is new.
    pub(super) fn order<'a, I>(
        &mut self,
        part: usize,
        share: Resources,
        nodes: &[u32],
        free: &[Resources],
        releases: impl Fn() -> I,
    ) -> Shaped
    where
        I: Iterator<Item = (&'a [u32], Resources)>,
    {
        if !self.fresh {
            self.index(free.len(), &releases);
            self.used = 0;
            self.fresh = true;
        }
        let k = match self.shapes[..self.used].iter().position(|s| s.part == part && s.share == share) {
            Some(k) => k,
            None => {
                if self.used == self.shapes.len() {
                    self.shapes.push(Shape::default());
                }
                let k = self.used;
                self.used += 1;
                let (start, held) = (&self.start, &self.held);
                let (counts, spare) = (&mut self.counts, &mut self.spare);
                let shape = &mut self.shapes[k];
                shape.part = part;
                shape.share = share;
                shape.order.clear();
                for &n in nodes {
                    let mut f = free[n as usize];
                    if f.covers(&share) {
                        shape.order.push((0, n));
                        continue;
                    }
                    let on = &held[start[n as usize] as usize..start[n as usize + 1] as usize];
                    if let Some(&(g, _)) = on.iter().find(|(_, r)| {
                        f.add(r);
                        f.covers(&share)
                    }) {
                        shape.order.push((g + 1, n));
                    }
                }
                // Why: a counting sort by the releases waited for takes
                // time linear in the nodes and releases. The order of
                // places that wait alike is the partition's; no query
                // depends on it.
                sort_by_waits(&mut shape.order, spare, counts);
                shape.words = free.len().div_ceil(64);
                shape.prefixes.clear();
                for (b, block) in shape.order.chunks(BLOCK).enumerate() {
                    let w = shape.words;
                    if b == 0 {
                        shape.prefixes.resize(w, 0);
                    } else {
                        shape.prefixes.extend_from_within((b - 1) * w..b * w);
                    }
                    let nodes = &mut shape.prefixes[b * w..];
                    for &(_, n) in block {
                        nodes[n as usize / 64] |= 1 << (n % 64);
                    }
                }
                k
            }
        };
        Shaped(k)
    }

    /// The releases the `k`-th node (from 1) of a shape's order that is set
    /// in `marked` waits for, if there are `k` such nodes.
    pub(super) fn nth_marked(&self, shape: Shaped, marked: &[u64], k: u32) -> Option<u32> {
        let shape = &self.shapes[shape.0];
        let k = k.max(1);
        let within = |b: usize| -> u32 { shape.prefix(b).iter().zip(marked).map(|(p, m)| (p & m).count_ones()).sum() };
        // The first block whose prefix holds `k` marked nodes.
        let blocks = shape.order.len().div_ceil(BLOCK);
        let (mut lo, mut hi) = (0, blocks);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if within(mid) >= k { hi = mid } else { lo = mid + 1 }
        }
        if lo == blocks {
            return None;
        }
        let mut seen = if lo == 0 { 0 } else { within(lo - 1) };
        let block = &shape.order[lo * BLOCK..shape.order.len().min((lo + 1) * BLOCK)];
        block
            .iter()
            .find(|&&(_, n)| {
                is_set(marked, n) && {
                    seen += 1;
                    seen == k
                }
            })
            .map(|&(w, _)| w)
    }

    /// Calls `each` with every node set in `marked` that a shape's order
    /// has with at most `until` releases waited for, in no set order.
    pub(super) fn marked_within(&self, shape: Shaped, marked: &[u64], until: u32, mut each: impl FnMut(u32)) {
        let shape = &self.shapes[shape.0];
        let within = shape.order.partition_point(|&(w, _)| w <= until);
        let whole = within / BLOCK;
        if whole > 0 {
            for (i, (p, m)) in shape.prefix(whole - 1).iter().zip(marked).enumerate() {
                let mut rest = p & m;
                while rest != 0 {
                    each((i * 64) as u32 + rest.trailing_zeros());
                    rest &= rest - 1;
                }
            }
        }
        for &(_, n) in &shape.order[whole * BLOCK..within] {
            if is_set(marked, n) {
                each(n);
            }
        }
    }

    /// Node `n`'s free resources `free` after the releases before index
    /// `until`.
    pub(super) fn after(&self, n: u32, mut free: Resources, until: u32) -> Resources {
        let on = &self.held[self.start[n as usize] as usize..self.start[n as usize + 1] as usize];
        for (_, r) in on.iter().take_while(|(g, _)| *g < until) {
            free.add(r);
        }
        free
    }

    /// Files each release under its nodes, in order.
    fn index<'a, I>(&mut self, nodes: usize, releases: &impl Fn() -> I)
    where
        I: Iterator<Item = (&'a [u32], Resources)>,
    {
        self.start.clear();
        self.start.resize(nodes + 2, 0);
        for (on, _) in releases() {
            for &n in on {
                self.start[n as usize + 2] += 1;
            }
        }
        for n in 2..self.start.len() {
            self.start[n] += self.start[n - 1];
        }
        // `start[n + 1]` is now where node `n`'s releases go; filling moves
        // it to their end, which is node `n + 1`'s start.
        self.held.clear();
        self.held.resize(self.start[nodes + 1] as usize, (0, Resources::default()));
        for (g, (on, r)) in releases().enumerate() {
            for &n in on {
                let at = &mut self.start[n as usize + 1];
                self.held[*at as usize] = (g as u32, r);
                *at += 1;
            }
        }
        self.start.pop();
    }
}

/// Sorts `order` by the releases each place waits for, keeping the order
/// of places that wait alike: a counting sort, with the buffers `spare`
/// and `counts`.
fn sort_by_waits(order: &mut Vec<Place>, spare: &mut Vec<Place>, counts: &mut Vec<u32>) {
    let most = order.iter().map(|&(w, _)| w).max().unwrap_or(0) as usize;
    counts.clear();
    counts.resize(most + 2, 0);
    for &(w, _) in order.iter() {
        counts[w as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    spare.clear();
    spare.resize(order.len(), (0, 0));
    for &place in order.iter() {
        let at = &mut counts[place.0 as usize];
        spare[*at as usize] = place;
        *at += 1;
    }
    std::mem::swap(order, spare);
}
