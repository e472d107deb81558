//! A backfill pass's reservations as `_attempt_backfill` keeps them in its
//! `node_space`: instants in order, each with the nodes reserved from it to
//! the next, so that the nodes free over a window are found a word of
//! nodes at a time, whatever the number of nodes a pass has reserved.
//!
//! Source: Slurm 22.05, `src/plugins/sched/backfill/backfill.c`
//! (`node_space_map_t`, `_add_reservation`, and `later_start` in
//! `_attempt_backfill`).
//!
//! Contract:
//! - A reservation holds its nodes over `[begin, until)`; an empty one
//!   (`begin >= until`) holds nothing.
//! - [`NodeSpace::busy_over`]: the nodes a reservation holds at some
//!   instant of `[from, to]`, both ends included (a reservation that begins
//!   at `to` counts).
//! - [`NodeSpace::first_release`]: the first instant after `from`, and
//!   before `horizon`, at which a node of the mask stops being held (a run
//!   of reservations, each beginning where the one before ends, holds its
//!   node to the run's end).
//! - Nothing is allocated once the pass's instants have been seen: the
//!   vectors keep their capacity across passes.

use slasim_sim::units::Time;

/// The reservations of a backfill pass, as instants and the nodes held from each.
#[derive(Debug, Clone)]
pub struct NodeSpace {
    /// The instants, in order.
    at: Vec<Time>,
    /// Per instant, `words` words: the nodes held from it to the next
    /// instant (none from the last).
    held: Vec<u64>,
    /// Words of a node bitset.
    words: usize,
}

impl NodeSpace {
    /// An empty space for `nodes` nodes.
    pub fn new(nodes: usize) -> NodeSpace {
        NodeSpace { at: Vec::new(), held: Vec::new(), words: nodes.div_ceil(64) }
    }

    /// No reservation.
    pub fn clear(&mut self) {
        self.at.clear();
        self.held.clear();
    }

    /// The index of instant `t`, added if new: from it, the nodes held
    /// from the instant before (none before the first).
    fn split(&mut self, t: Time) -> usize {
        let i = self.at.partition_point(|&a| a < t);
        if self.at.get(i) == Some(&t) {
            return i;
        }
        let w = self.words;
        self.at.insert(i, t);
        self.held.splice(i * w..i * w, std::iter::repeat_n(0, w));
        if i > 0 {
            self.held.copy_within((i - 1) * w..i * w, i * w);
        }
        i
    }

    /// Holds `nodes` over `[begin, until)`.
    pub fn reserve(&mut self, begin: Time, until: Time, nodes: &[u32]) {
        if begin >= until {
            return;
        }
        let first = self.split(begin);
        let last = self.split(until);
        let w = self.words;
        for i in first..last {
            let held = &mut self.held[i * w..(i + 1) * w];
            for &n in nodes {
                held[n as usize / 64] |= 1 << (n % 64);
            }
        }
    }

    /// Into `out`, the nodes held at some instant of `[from, to]`.
    pub fn busy_over(&self, from: Time, to: Time, out: &mut [u64]) {
        out.fill(0);
        let w = self.words;
        // The instant holding `from`: the last one at or before it.
        let mut i = self.at.partition_point(|&a| a <= from).saturating_sub(1);
        while i < self.at.len() && self.at[i] <= to {
            for (o, &h) in out.iter_mut().zip(&self.held[i * w..(i + 1) * w]) {
                *o |= h;
            }
            i += 1;
        }
    }

    /// The first instant after `from` and before `horizon` at which a node
    /// of `mask` held just before it is no longer held.
    pub fn first_release(&self, from: Time, horizon: Time, mask: &[u64]) -> Option<Time> {
        let w = self.words;
        let start = self.at.partition_point(|&a| a <= from).max(1);
        for i in start..self.at.len() {
            if self.at[i] >= horizon {
                return None;
            }
            let (before, now) = (&self.held[(i - 1) * w..i * w], &self.held[i * w..(i + 1) * w]);
            if before.iter().zip(now).zip(mask).any(|((b, n), m)| b & !n & m != 0) {
                return Some(self.at[i]);
            }
        }
        None
    }
}
