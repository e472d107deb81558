//! The machine plan: every node's bookings over time in every resource (CPUs,
//! memory, and each GPU card's thousandths), on a machine of unlike nodes.
//!
//! Reference: `overbooking-dissertation-spec.md` §1.3 ("one plan per
//! resource, each entry = (job-ID, start time, end time)"), widened from
//! whole nodes to a node's resources; GPU shares after Weng et al., "Beware
//! of Fragmentation", USENIX ATC 2023, §2.2 (a pod asks for a share of one
//! card, or for whole cards).
//!
//! Contract:
//! - A node holds [`Slot`]s: one job's CPUs (thousandths), MiB and cards
//!   ([`Cards`]) from a start to an end (exclusive), sorted by start then
//!   job. Slots on one node may overlap in time while, at every instant, the
//!   node's CPUs, memory and each card's thousandths cover their sum.
//! - [`MachinePlan::free`] is what a node has free over a window: in each
//!   resource, and for each card, the least free at any instant of the
//!   window. A request fits a node over the window when that covers it
//!   ([`MachinePlan::fit`]): CPUs and memory, and its whole cards each wholly
//!   free, or one card with its share free.
//! - [`MachinePlan::earliest`] finds the earliest start, from an origin and
//!   no later than a latest start, at which enough candidate nodes fit the
//!   request for its whole length, and which of them a [`NodeChoice`]
//!   prefers (the port the choices of [`crate::plan::node_choice`]
//!   implement). The earliest start is always the origin or the end of a slot
//!   (usage only falls at ends), so those are the only instants tried: for a
//!   request of one node, each node's own earliest fit among the origin and
//!   its own slots' ends, the earliest of them winning; for several nodes,
//!   every slot end from the earliest instant as many nodes could fit.
//! - [`MachinePlan::first_overbooked`] finds, for overbooking, the first
//!   start in time order (the origin or a slot's end) whose longest window
//!   that enough candidate nodes hold, up to an end, a caller's tests take
//!   (of the window, then of the nodes chosen for it);
//!   a node holds a request from a start until the first of its slots'
//!   starts at which it no longer fits (its use only rises there).
//! - A node marked down ([`MachinePlan::set_down`]) is given to no request
//!   until it is marked up: a plan does not foresee a repair.
//! - Nothing here knows of outcomes or SLAs; a strategy books, unbooks,
//!   marks nodes down and up, and forgets the past
//!   ([`MachinePlan::forget_before`]).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::Arc;

use slasim_core::units::{JobId, Time};
use slasim_machine::{Gpus, MILLI, Machine, Request};

/// The most GPU cards one node may have in a plan (cards are a bit set).
pub const MAX_CARDS: usize = 64;

/// The cards a slot holds on its node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cards {
    /// No GPU.
    None,
    /// Whole cards, a bit set over the node's cards.
    Whole(u64),
    /// A share of one card.
    Share {
        /// The card.
        card: u8,
        /// Its thousandths.
        milli: u16,
    },
}

impl Cards {
    /// Thousandths of card `c` it holds.
    #[inline]
    pub fn on(&self, c: usize) -> u16 {
        match *self {
            Cards::None => 0,
            Cards::Whole(mask) => {
                if mask & (1 << c) != 0 {
                    MILLI
                } else {
                    0
                }
            }
            Cards::Share { card, milli } => {
                if usize::from(card) == c {
                    milli
                } else {
                    0
                }
            }
        }
    }
}

/// One job's booking of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    /// First booked instant.
    pub start: Time,
    /// End (exclusive).
    pub end: Time,
    /// The job.
    pub job: JobId,
    /// Thousandths of a CPU.
    pub cpu_milli: u32,
    /// MiB.
    pub mem_mib: u64,
    /// Its cards.
    pub cards: Cards,
}

/// What a node has free over a window (module contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Free {
    /// Thousandths of a CPU.
    pub cpu_milli: u64,
    /// MiB.
    pub mem_mib: u64,
    /// Its cards (the first `n_cards`), each's free thousandths.
    pub cards: [u16; MAX_CARDS],
    /// Its number of cards.
    pub n_cards: u8,
}

impl Free {
    /// The free thousandths of its cards.
    #[inline]
    pub fn card_list(&self) -> &[u16] {
        &self.cards[..usize::from(self.n_cards)]
    }

    /// Whether one node's share of `request` fits with exactly `cards`.
    #[inline]
    pub fn holds(&self, request: &Request, cards: &Cards) -> bool {
        self.cpu_milli >= u64::from(request.cpu_milli)
            && self.mem_mib >= request.mem_mib
            && self.card_list().iter().enumerate().all(|(c, &f)| f >= cards.on(c))
    }

    /// What is left after `request`'s share is placed with `cards`.
    #[inline]
    pub fn after(&self, request: &Request, cards: &Cards) -> Free {
        let mut left = *self;
        left.cpu_milli -= u64::from(request.cpu_milli);
        left.mem_mib -= request.mem_mib;
        for c in 0..usize::from(self.n_cards) {
            left.cards[c] -= cards.on(c);
        }
        left
    }
}

/// Where a request was placed: its start, and each node with its cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The start.
    pub start: Time,
    /// The nodes, in the order chosen, with the cards on each.
    pub nodes: Vec<(u32, Cards)>,
}

/// Which of the nodes that fit a request a plan gives it: the port the
/// registered choices implement ([`crate::plan::node_choice`]).
pub trait NodeChoice: Send {
    /// Whether the first nodes that fit are taken without scoring the rest
    /// (every node scores the same).
    fn takes_first(&self) -> bool {
        false
    }

    /// The score (lower preferred) and cards of placing one node's share of
    /// `request` on node `n` with `free`, if it fits there. It must give a
    /// placement exactly where [`MachinePlan::fit`] finds one: the search
    /// picks the earliest start by `fit` and asks the choice only there.
    fn place(&self, machine: &Machine, n: u32, free: &Free, request: &Request) -> Option<(f64, Cards)>;
}

/// The most any one up node has free at an instant, in each resource
/// separately ([`MachinePlan::most_free`]): a request above it in any
/// resource fits on no node then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MostFree {
    /// Thousandths of a CPU.
    pub cpu_milli: u64,
    /// MiB.
    pub mem_mib: u64,
    /// Wholly free cards on one node.
    pub whole_cards: u32,
    /// Free thousandths of one card.
    pub card_milli: u16,
}

impl MostFree {
    /// Whether one node's share of `request` may fit under it (a
    /// necessary condition only: the most of each resource may be on
    /// different nodes).
    #[inline]
    pub fn may_hold(&self, request: &Request) -> bool {
        u64::from(request.cpu_milli) <= self.cpu_milli
            && request.mem_mib <= self.mem_mib
            && match request.gpus {
                Gpus::Whole(g) => g <= self.whole_cards,
                Gpus::Share(m) => m <= self.card_milli,
            }
    }
}

/// Every node's slots (module contract).
#[derive(Debug, Clone)]
pub struct MachinePlan {
    machine: Arc<Machine>,
    /// Per node, sorted by (start, job).
    slots: Vec<Vec<Slot>>,
    /// The distinct slot ends, with how many slots end there.
    ends: BTreeMap<Time, u32>,
    /// Scratch: the fitting nodes of one instant, with their score and cards.
    fitting: Vec<(f64, u32, Cards)>,
    /// Each slot's end and node, the earliest first: what to forget.
    expiry: BinaryHeap<Reverse<(Time, u32)>>,
    /// Scratch: each node's earliest fit.
    firsts: Vec<(Time, u32)>,
    /// Scratch: one node's slot ends.
    node_ends: Vec<Time>,
    /// Scratch: the starts an overbooked window is looked for at.
    starts: Vec<Time>,
    /// The nodes marked down.
    down: Vec<bool>,
}

/// A machine a plan cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("node {node}: {gpus} GPUs; a plan holds at most {MAX_CARDS} cards per node")]
pub struct TooManyCards {
    /// The node's name.
    pub node: String,
    /// Its GPUs.
    pub gpus: u32,
}

impl MachinePlan {
    /// An empty plan of `machine`.
    pub fn new(machine: Arc<Machine>) -> Result<MachinePlan, TooManyCards> {
        if let Some(i) = machine.size.iter().position(|s| s.gpus as usize > MAX_CARDS) {
            return Err(TooManyCards { node: machine.names[i].clone(), gpus: machine.size[i].gpus });
        }
        let slots = vec![Vec::new(); machine.len()];
        let down = vec![false; machine.len()];
        Ok(MachinePlan {
            machine,
            slots,
            ends: BTreeMap::new(),
            fitting: Vec::new(),
            expiry: BinaryHeap::new(),
            firsts: Vec::new(),
            node_ends: Vec::new(),
            starts: Vec::new(),
            down,
        })
    }

    /// The machine planned.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// Node `n`'s slots, sorted by start.
    pub fn slots(&self, n: u32) -> &[Slot] {
        &self.slots[n as usize]
    }

    /// What node `n` has free over `[from, to)` (module contract).
    pub fn free(&self, n: u32, from: Time, to: Time) -> Free {
        let size = self.machine.size[n as usize];
        let n_cards = size.gpus as usize;
        let mut free = Free {
            cpu_milli: u64::from(size.cpus) * 1000,
            mem_mib: size.mem_mib,
            cards: [0; MAX_CARDS],
            n_cards: n_cards as u8,
        };
        for c in &mut free.cards[..n_cards] {
            *c = MILLI;
        }
        let slots = &self.slots[n as usize];
        // Usage only rises at a slot's start: its peak over the window is at
        // `from` or at a start inside it.
        let (mut cpu, mut mem, mut cards) = (0u64, 0u64, [0u16; MAX_CARDS]);
        let mut peak = |t: Time| {
            let (mut c, mut m, mut g) = (0u64, 0u64, [0u16; MAX_CARDS]);
            for s in slots.iter().take_while(|s| s.start <= t).filter(|s| s.end > t) {
                c += u64::from(s.cpu_milli);
                m = m.saturating_add(s.mem_mib);
                for (k, g) in g[..n_cards].iter_mut().enumerate() {
                    *g += s.cards.on(k);
                }
            }
            cpu = cpu.max(c);
            mem = mem.max(m);
            for (most, now) in cards[..n_cards].iter_mut().zip(&g[..n_cards]) {
                *most = (*most).max(*now);
            }
        };
        peak(from);
        for s in slots.iter().take_while(|s| s.start < to).filter(|s| s.start > from) {
            peak(s.start);
        }
        // The plan never holds more than a node has (module contract).
        free.cpu_milli = free.cpu_milli.saturating_sub(cpu);
        free.mem_mib = free.mem_mib.saturating_sub(mem);
        for (f, used) in free.cards[..n_cards].iter_mut().zip(&cards[..n_cards]) {
            *f = f.saturating_sub(*used);
        }
        free
    }

    /// The cards `request` would take on a node with `free`, if it fits
    /// (module contract): the lowest wholly free cards, or for a share the
    /// card with the least free that holds it (the lowest on a tie).
    #[inline]
    pub fn fit(free: &Free, request: &Request) -> Option<Cards> {
        if free.cpu_milli < u64::from(request.cpu_milli) || free.mem_mib < request.mem_mib {
            return None;
        }
        match request.gpus {
            Gpus::Whole(0) => Some(Cards::None),
            Gpus::Whole(g) => {
                let mut mask = 0u64;
                let mut taken = 0;
                for (c, &f) in free.card_list().iter().enumerate() {
                    if taken == g {
                        break;
                    }
                    if f == MILLI {
                        mask |= 1 << c;
                        taken += 1;
                    }
                }
                (taken == g).then_some(Cards::Whole(mask))
            }
            Gpus::Share(m) => free
                .card_list()
                .iter()
                .enumerate()
                .filter(|&(_, &f)| f >= m)
                .min_by_key(|&(c, &f)| (f, c))
                .map(|(c, _)| Cards::Share { card: c as u8, milli: m }),
        }
    }

    /// The earliest placement of `request` for `length` seconds starting in
    /// `[origin, latest]`, on the nodes `choice` prefers (module contract);
    /// `None` if there is none.
    pub fn earliest(
        &mut self,
        request: &Request,
        origin: Time,
        length: Time,
        latest: Time,
        choice: &dyn NodeChoice,
    ) -> Option<Placement> {
        if origin > latest {
            return None;
        }
        if let Some(found) = self.at(request, origin, length, choice) {
            return Some(found);
        }
        if origin == latest {
            // The only start allowed was tried.
            return None;
        }
        let wanted = request.nodes as usize;
        // Each node's own earliest fit: no start before the `wanted`-th
        // smallest of them can find enough nodes. (No node fits a request of
        // one node at the origin: the origin was tried.)
        let mut firsts = std::mem::take(&mut self.firsts);
        firsts.clear();
        let mut bound = latest;
        let machine = Arc::clone(&self.machine);
        for n in machine.candidates(request) {
            if !machine.holds(n, request) || self.down[n as usize] {
                continue;
            }
            if let Some(t) = self.node_earliest(n, request, origin, wanted > 1, length, bound) {
                firsts.push((t, n));
                if wanted == 1 {
                    bound = bound.min(t);
                }
            }
        }
        let found = if firsts.len() < wanted {
            None
        } else if wanted == 1 {
            // The nodes whose earliest fit is the earliest are the nodes that
            // fit then.
            let mut best: Option<(f64, u32, Cards)> = None;
            for &(t, n) in firsts.iter().filter(|&&(t, _)| t == bound) {
                let free = self.free(n, t, t + length);
                if let Some((score, cards)) = choice.place(&self.machine, n, &free, request)
                    && best.is_none_or(|(b, m, _)| score.total_cmp(&b).then(n.cmp(&m)).is_lt())
                {
                    best = Some((score, n, cards));
                }
            }
            best.map(|(_, n, cards)| Placement { start: bound, nodes: vec![(n, cards)] })
        } else {
            firsts.sort_unstable();
            let from = firsts[wanted - 1].0;
            let later = self.ends.range(from + 1..).map(|(&t, _)| t).take_while(|&t| t <= latest);
            let times: Vec<Time> = std::iter::once(from).chain(later).collect();
            times.into_iter().find_map(|t| self.at(request, t, length, choice))
        };
        self.firsts = firsts;
        found
    }

    /// The first overbooked window of `request` (module contract): in time
    /// order of its start `t` in `[origin, end)`, at the origin or a slot's
    /// end, the longest window `[t, t + l)`, `l ≤ end − t`, that `wanted`
    /// candidate nodes hold, taken when `l ≥ shortest`, `accept(t, l)` and
    /// `confirm` of its placement on the nodes `choice` prefers among those
    /// that hold it; that placement, with `l`. Windows of `whole` or more are
    /// cut to `whole`. (`accept` screens a window before its nodes are
    /// chosen; `confirm` tests the nodes chosen.)
    #[allow(clippy::too_many_arguments)]
    pub fn first_overbooked(
        &mut self,
        request: &Request,
        window: (Time, Time),
        shortest: Time,
        whole: Time,
        choice: &dyn NodeChoice,
        mut accept: impl FnMut(Time, Time) -> bool,
        mut confirm: impl FnMut(&MachinePlan, &Placement, Time) -> bool,
    ) -> Option<(Placement, Time)> {
        let (origin, end) = window;
        let shortest = shortest.max(1);
        if end - origin < shortest {
            return None;
        }
        let wanted = request.nodes as usize;
        let machine = Arc::clone(&self.machine);
        let mut times = std::mem::take(&mut self.starts);
        times.clear();
        times.push(origin);
        times.extend(self.ends.range(origin + 1..end - shortest + 1).map(|(&t, _)| t));
        let mut longest = std::mem::take(&mut self.node_ends);
        let mut found = None;
        for &t in &times {
            // The nodes that hold the shortest window worth testing; of
            // them, how long each holds the request.
            longest.clear();
            for n in machine.candidates(request) {
                if !machine.holds(n, request) || self.down[n as usize] {
                    continue;
                }
                if Self::fit(&self.free(n, t, t + shortest), request).is_some() {
                    longest.push(self.node_longest(n, request, t, end.min(t + whole)));
                }
            }
            if longest.len() < wanted {
                continue;
            }
            longest.sort_unstable_by(|a, b| b.cmp(a));
            let l = longest[wanted - 1];
            if !accept(t, l) {
                continue;
            }
            match self.at(request, t, l, choice) {
                Some(p) if !confirm(self, &p, l) => continue,
                p => {
                    found = p.map(|p| (p, l));
                    break;
                }
            }
        }
        self.node_ends = longest;
        self.starts = times;
        found
    }

    /// How long from `t`, up to `limit`, node `n` holds one node's share of
    /// `request` (it holds it at `t`): until the first of its slots' starts
    /// at which it no longer does (its use only rises there).
    fn node_longest(&self, n: u32, request: &Request, t: Time, limit: Time) -> Time {
        self.slots[n as usize]
            .iter()
            .map(|s| s.start)
            .filter(|&s| s > t && s < limit)
            .find(|&s| Self::fit(&self.free(n, t, s + 1), request).is_none())
            .unwrap_or(limit)
            - t
    }

    /// Node `n`'s earliest start in `[origin, limit]` (without the origin
    /// unless `with_origin`) at which it fits one node's share of `request`
    /// for `length`: the origin or one of its own slots' ends (its use only
    /// falls there).
    fn node_earliest(
        &mut self,
        n: u32,
        request: &Request,
        origin: Time,
        with_origin: bool,
        length: Time,
        limit: Time,
    ) -> Option<Time> {
        if with_origin && Self::fit(&self.free(n, origin, origin + length), request).is_some() {
            return Some(origin);
        }
        let mut ends = std::mem::take(&mut self.node_ends);
        ends.clear();
        ends.extend(self.slots[n as usize].iter().map(|s| s.end).filter(|&e| e > origin && e <= limit));
        ends.sort_unstable();
        ends.dedup();
        let found = ends.iter().copied().find(|&t| Self::fit(&self.free(n, t, t + length), request).is_some());
        self.node_ends = ends;
        found
    }

    /// The placement at `t` on the nodes `choice` prefers among those that
    /// fit then, if enough do.
    fn at(&mut self, request: &Request, t: Time, length: Time, choice: &dyn NodeChoice) -> Option<Placement> {
        let mut fitting = std::mem::take(&mut self.fitting);
        fitting.clear();
        let first = choice.takes_first();
        let wanted = request.nodes as usize;
        for n in self.machine.candidates(request) {
            if !self.machine.holds(n, request) || self.down[n as usize] {
                continue;
            }
            let free = self.free(n, t, t + length);
            if let Some((score, cards)) = choice.place(&self.machine, n, &free, request) {
                fitting.push((score, n, cards));
                if first && fitting.len() == wanted {
                    break;
                }
            }
        }
        let found = (fitting.len() >= wanted).then(|| {
            fitting.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            Placement { start: t, nodes: fitting[..wanted].iter().map(|&(_, n, cards)| (n, cards)).collect() }
        });
        self.fitting = fitting;
        found
    }

    /// Books `placement` for `job` until `end`, with `request`'s share on
    /// each node.
    pub fn book(&mut self, job: JobId, request: &Request, placement: &Placement, end: Time) {
        for &(n, cards) in &placement.nodes {
            let slot = Slot {
                start: placement.start,
                end,
                job,
                cpu_milli: request.cpu_milli,
                mem_mib: request.mem_mib,
                cards,
            };
            let slots = &mut self.slots[n as usize];
            let at = slots.partition_point(|s| (s.start, s.job) < (slot.start, slot.job));
            slots.insert(at, slot);
            *self.ends.entry(end).or_insert(0) += 1;
            self.expiry.push(Reverse((end, n)));
        }
    }

    /// The most any one up node has free at `t` (over `[t, t + 1)`), in
    /// each resource separately.
    pub fn most_free(&self, t: Time) -> MostFree {
        let mut most = MostFree::default();
        for n in 0..self.slots.len() as u32 {
            if self.down[n as usize] {
                continue;
            }
            let free = self.free(n, t, t + 1);
            most.cpu_milli = most.cpu_milli.max(free.cpu_milli);
            most.mem_mib = most.mem_mib.max(free.mem_mib);
            let cards = free.card_list();
            most.whole_cards = most.whole_cards.max(cards.iter().filter(|&&c| c == MILLI).count() as u32);
            most.card_milli = most.card_milli.max(cards.iter().copied().max().unwrap_or(0));
        }
        most
    }

    /// Marks node `n` down (or back up): no search gives a down node,
    /// whatever its slots, until it is marked up again.
    pub fn set_down(&mut self, n: u32, down: bool) {
        if let Some(d) = self.down.get_mut(n as usize) {
            *d = down;
        }
    }

    /// Whether node `n` is marked down.
    pub fn is_down(&self, n: u32) -> bool {
        self.down.get(n as usize).copied().unwrap_or(false)
    }

    /// Removes `job`'s slots on `nodes`; its other bookings stay.
    pub fn unbook(&mut self, job: JobId, nodes: impl IntoIterator<Item = u32>) {
        for n in nodes {
            let slots = &mut self.slots[n as usize];
            let ends = &mut self.ends;
            slots.retain(|s| {
                if s.job != job {
                    return true;
                }
                if let Some(count) = ends.get_mut(&s.end) {
                    *count -= 1;
                    if *count == 0 {
                        ends.remove(&s.end);
                    }
                }
                false
            });
        }
    }

    /// Forgets every slot that ended by `t`.
    pub fn forget_before(&mut self, t: Time) {
        if self.ends.first_key_value().is_none_or(|(&e, _)| e > t) {
            return;
        }
        while let Some(&Reverse((end, n))) = self.expiry.peek()
            && end <= t
        {
            self.expiry.pop();
            self.slots[n as usize].retain(|s| s.end > t);
        }
        self.ends = self.ends.split_off(&(t + 1));
    }
}
