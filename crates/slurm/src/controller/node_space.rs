//! A backfill pass's reservations as `_attempt_backfill` keeps them in its
//! `node_space`: records in time order, each with the nodes reserved over
//! it, so that the nodes free over a window are found a word of nodes at a
//! time, whatever the number of nodes a pass has reserved.
//!
//! Source: Slurm 22.05, `src/plugins/sched/backfill/backfill.c`
//! (`node_space_map_t`, `_add_reservation`, `_test_resv_overlap`, and
//! `later_start` in `_attempt_backfill`).
//!
//! Contract:
//! - A pass starts with one record, from its start to the end of its
//!   window (both rounded down to `bf_resolution` by the caller).
//! - [`NodeSpace::reserve`] is `_add_reservation`: a reservation begins no
//!   earlier than the first record and lasts at least one resolution; the
//!   record holding its start is split there (a record that begins there
//!   too leaves an empty one before it), so is the one holding its end,
//!   and every record between holds its nodes. Then the first two
//!   neighbouring records with the same nodes held, from the record before
//!   the reservation's first to the record after its last, are merged into
//!   one (at most one merge per reservation).
//! - [`NodeSpace::busy_over`]: the nodes held in some record that ends
//!   after `from` and begins at or before `to` (a reservation that begins
//!   at `to` counts).
//! - [`NodeSpace::overlaps`] is `_test_resv_overlap`: whether a record that
//!   ends after `begin` and begins before `until` holds one of the nodes.
//! - [`NodeSpace::later_start`] is `later_start` for a test over
//!   `[from, to]`: records are walked in order from the first that ends
//!   after `from`; the first with a next record that frees a node of the
//!   mask not free over every record walked so far, itself included, gives
//!   its end. The walk ends after the first record that begins after `to`.
//!   Which records the merges left decides how far it looks: it matters.
//! - Nothing is allocated once the pass's records have been seen: the
//!   vectors keep their capacity across passes.
//! - [`NodeSpace::busy_over`] keeps what it has ORed while its windows only
//!   move later and no reservation is added (a job's tests in a pass): each
//!   record then enters a running OR once and a suffix OR at most once,
//!   instead of once per test.

use slasim_sim::units::Time;

/// The reservations of a backfill pass, as records and the nodes held over each.
#[derive(Debug, Clone)]
pub struct NodeSpace {
    /// Where each record begins, in order (each ends where the next begins).
    at: Vec<Time>,
    /// Per record, `words` words: the nodes held over it.
    held: Vec<u64>,
    /// Where the last record ends: the end of the pass's window.
    end: Time,
    /// Words of a node bitset.
    words: usize,
    /// [`NodeSpace::busy_over`]'s records in reach, as it last ORed them.
    reach: Reach,
}

/// The records `[lo, hi)` of the last [`NodeSpace::busy_over`], as two ORs:
/// per record `i` of `[lo, mid)`, the OR of `[i, mid)` (in `suffix`, from
/// record `base`), and the OR of `[mid, hi)` (`back`). A window that moves
/// later adds records to `back`; once its start passes `mid`, the suffixes
/// are made again over the window (`mid = hi`, `back` empty).
#[derive(Debug, Clone, Default)]
struct Reach {
    /// Whether it is of the current records.
    fresh: bool,
    lo: usize,
    mid: usize,
    hi: usize,
    base: usize,
    suffix: Vec<u64>,
    back: Vec<u64>,
}

impl NodeSpace {
    /// An empty space for `nodes` nodes.
    pub fn new(nodes: usize) -> NodeSpace {
        let words = nodes.div_ceil(64);
        NodeSpace { at: Vec::new(), held: Vec::new(), end: 0, words, reach: Reach::default() }
    }

    /// No reservation: one record, from `begin` to `end`.
    pub fn clear(&mut self, begin: Time, end: Time) {
        self.reach.fresh = false;
        self.at.clear();
        self.held.clear();
        self.at.push(begin);
        self.held.resize(self.words, 0);
        self.end = end;
    }

    /// Where the last record ends: the end of the pass's window.
    pub fn end(&self) -> Time {
        self.end
    }

    /// The first record that ends after `t` (the number of records when none
    /// does): records end in order, so a search finds it.
    fn first_ending_after(&self, t: Time) -> usize {
        let Some(ends) = self.at.get(1..) else {
            return 0;
        };
        let k = ends.partition_point(|&a| a <= t);
        if k == ends.len() && self.end <= t { self.at.len() } else { k }
    }

    /// Where record `i` ends.
    fn end_of(&self, i: usize) -> Time {
        self.at.get(i + 1).copied().unwrap_or(self.end)
    }

    /// The nodes held over record `i`.
    fn held_over(&self, i: usize) -> &[u64] {
        &self.held[i * self.words..(i + 1) * self.words]
    }

    /// A record begins at `begin` after record `i`, holding what `i` holds.
    fn split_after(&mut self, i: usize, begin: Time) {
        let w = self.words;
        self.at.insert(i + 1, begin);
        self.held.splice((i + 1) * w..(i + 1) * w, std::iter::repeat_n(0, w));
        self.held.copy_within(i * w..(i + 1) * w, (i + 1) * w);
    }

    /// `_add_reservation`: `nodes` held from `start` to `until`, at least
    /// `resolution` long.
    pub fn reserve(&mut self, start: Time, until: Time, resolution: Time, nodes: &[u32]) {
        self.reach.fresh = false;
        let Some(&first) = self.at.first() else {
            return;
        };
        let start = start.max(first);
        let until = until.max(start + resolution);
        // The record holding `start` is split there; `j` ends at `start`.
        let mut one_before = 0;
        let mut j = 0;
        loop {
            let e = self.end_of(j);
            if e > start {
                self.split_after(j, start);
                break;
            }
            if e == start {
                break;
            }
            one_before = j;
            if j + 1 == self.at.len() {
                // Nothing ends after `start`: it begins past the window.
                return;
            }
            j += 1;
        }
        let mut one_after = None;
        let mut k = j;
        while k + 1 < self.at.len() {
            k += 1;
            if until < self.end_of(k) {
                self.split_after(k, until);
            }
            let w = self.words;
            let held = &mut self.held[k * w..(k + 1) * w];
            for &n in nodes {
                held[n as usize / 64] |= 1 << (n % 64);
            }
            if until == self.end_of(k) {
                if k + 1 < self.at.len() {
                    one_after = Some(k + 1);
                }
                break;
            }
        }
        // Why: Slurm merges the first neighbours alike around the new
        // reservation (one pair), and `later_start` walks records.
        let mut i = one_before;
        while Some(i) != one_after && i + 1 < self.at.len() {
            if self.held_over(i) != self.held_over(i + 1) {
                i += 1;
                continue;
            }
            let w = self.words;
            self.at.remove(i + 1);
            self.held.drain((i + 1) * w..(i + 2) * w);
            break;
        }
    }

    /// Into `out`, the nodes held in a record that ends after `from` and
    /// begins at or before `to`.
    pub fn busy_over(&mut self, from: Time, to: Time, out: &mut [u64]) {
        let w = self.words;
        // The records that end after `from` and begin at or before `to`.
        let lo = self.first_ending_after(from);
        let hi = lo.max(self.at.partition_point(|&a| a <= to));
        let r = &mut self.reach;
        if !r.fresh || lo < r.lo || hi < r.hi {
            r.fresh = true;
            (r.lo, r.mid, r.hi, r.base) = (lo, lo, lo, lo);
            r.back.clear();
            r.back.resize(w, 0);
        }
        if lo <= r.mid {
            for i in r.hi..hi {
                for (b, &h) in r.back.iter_mut().zip(&self.held[i * w..(i + 1) * w]) {
                    *b |= h;
                }
            }
        } else {
            (r.base, r.mid) = (lo, hi);
            r.suffix.clear();
            r.suffix.resize((hi - lo) * w, 0);
            for i in (lo..hi).rev() {
                let k = (i - lo) * w;
                if i + 1 < hi {
                    r.suffix.copy_within(k + w..k + 2 * w, k);
                }
                for (s, &h) in r.suffix[k..k + w].iter_mut().zip(&self.held[i * w..(i + 1) * w]) {
                    *s |= h;
                }
            }
            r.back.fill(0);
        }
        (r.lo, r.hi) = (lo, hi);
        out.copy_from_slice(&r.back);
        if lo < r.mid {
            let k = (lo - r.base) * w;
            for (o, &s) in out.iter_mut().zip(&r.suffix[k..k + w]) {
                *o |= s;
            }
        }
    }

    /// `_test_resv_overlap`: whether a record that ends after `begin` and
    /// begins before `until` holds one of `nodes`.
    pub fn overlaps(&self, begin: Time, until: Time, nodes: &[u32]) -> bool {
        (self.first_ending_after(begin)..self.at.len())
            .take_while(|&i| self.at[i] < until)
            .any(|i| nodes.iter().any(|&n| self.held_over(i)[n as usize / 64] & (1 << (n % 64)) != 0))
    }

    /// `later_start` in `_attempt_backfill`, for a job tested over
    /// `[from, to]` on the nodes of `mask`: the end of the first record
    /// (ending after `from`, with a next one) whose next record frees a
    /// node of `mask` not free over every record walked from `from` to it.
    /// The walk ends after the first record beginning after `to`.
    ///
    /// Why: a node held in a record walked and free in the next is first
    /// freed at the end of the last record holding it, so the first such
    /// record is the first that holds a node of `mask` its next does not:
    /// no running set of free nodes is kept.
    pub fn later_start(&self, from: Time, to: Time, mask: &[u64]) -> Option<Time> {
        let w = self.words;
        for k in self.first_ending_after(from)..self.at.len() {
            if k + 1 < self.at.len() {
                let (held, next) = (&self.held[k * w..(k + 1) * w], &self.held[(k + 1) * w..(k + 2) * w]);
                if mask.iter().zip(held).zip(next).any(|((m, h), n)| m & h & !n != 0) {
                    return Some(self.end_of(k));
                }
            }
            if self.at[k] > to {
                return None;
            }
        }
        None
    }
}
