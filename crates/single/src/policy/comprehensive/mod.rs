//! The comprehensive approach: nodes fixed at acceptance, one plan per node.
//! Three strategies share this plan core, each a [`Rule`] in its own file:
//! comprehensive backfilling (`backfilling.rs`), comprehensive overbooking
//! (`overbooking.rs`) and paper A's shortened backfilling (`shortened.rs`).
//! A rule picks the booking and says whether finished jobs leave the plan and
//! whether bookings store end CDFs; the core does everything else.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1 (comprehensive PoS),
//! §5.1 (gap search), §5.4 (best fit), §5.5 (node choice), §6.1, §6.5;
//! `seed-000-001-spec.md`, paper A (d' = d/(1 + maxPoF), predecessor overbooking).
//!
//! Contract:
//! - The plan is a [`NodePlan`] plus its aggregate [`AvailabilityProfile`].
//!   Candidate starts are the search origin max(now, e) and the ends of
//!   reservations (where per-node availability can change); the profile
//!   filters them in O(log n + k) before any per-node work.
//! - A full booking is [s, s + x) on n nodes free throughout, s + x ≤ d,
//!   chosen by first fit (lowest ids) or best fit (tightest free-until).
//! - **Comprehensive backfilling** holds the nodes until s + x even when the
//!   job ends early. A job its nodes fail under restarts (from scratch) on its
//!   nodes once they are back if now + x ≤ min(d, next booking on its nodes).
//! - **Comprehensive overbooking**: finished jobs leave the plan, and a waiting
//!   job starts early as soon as its nodes are idle and nothing is booked on
//!   them before it (killed at min(start + x, E)), at the wake-up of the
//!   instant that freed them: after every end, repair and failure of it. Without a full booking, the
//!   overbooked candidates take the n nodes free longest at s (slot end E =
//!   min(n-th longest free-until, d)); their PoS = P_available ·
//!   P_executable · P_success, P_executable from the joint end CDF of the
//!   direct predecessors convolved with the job's PDF; the acceptance test
//!   decides. Every booked job stores its end CDF for its successors. A
//!   disabled job restarts on its nodes if now < E.
//! - **Shortened backfilling** (paper A): a promising job (its class's mean
//!   real/estimated ratio ≤ 1/(1 + maxPoF)) may be booked for d' = ⌈x/(1 +
//!   maxPoF)⌉ in a gap of at least d' (taking the whole gap), or earlier than
//!   the gap by a = min spare time o_k of the direct predecessors ending at the
//!   gap start when all of them are promising: anchor t_s − a, accepted if
//!   t_s − a + d' ≤ gap end. Finished jobs leave the plan and waiting jobs
//!   start early, as in comprehensive overbooking.
//! - **SLA-aware shifting** (`shifted.rs`, the policy `sla-aware`): with an
//!   in-plan shifting policy, the booking a rule picks may be replaced by a
//!   later full booking in a lower-carbon window, before the deadline and
//!   passing the acceptance test; such a booking is never started early
//!   (it waits for its window). Without a shifting policy nothing changes.
//! - **Fixed reservations** (`seed-000-001-spec.md`): booked at exactly their
//!   window on nodes free over it, or rejected (these strategies never move a
//!   booking, so paper B's *move* option is refused when they are built). They
//!   are never overbooked, shortened, started early or used as an anchor; an
//!   overbooked job in front of one is killed at its start (its slot ends
//!   there). A checkpointed overbooked job is booked again for the rest of its
//!   work as a full booking before its deadline, or fails.

use std::collections::BTreeSet;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::cluster::strategy::{Booking, Cluster, Placement, RejectReason, Strategy};
use crate::plan::{AvailabilityProfile, NodeBooking, NodeOrder, NodePlan};
use crate::policy::overbooking::{Overbooking, learn_from_end};
use crate::policy::shifting::Shift;
use crate::stats::pdf::stepped;
use crate::stats::pos::{self, EndCdf, Predecessor, Reliability};
use crate::workload::job::Job;
use slasim_core::units::{JobId, NodeId, Time};

pub mod admission;
pub mod backfilling;
pub mod overbooking;
mod shifted;
pub mod shortened;

pub use admission::{Admission, Admitted, AgentAdmitted, Answer, Candidate};
pub use backfilling::ComprehensiveBackfilling;
pub use overbooking::ComprehensiveOverbooking;
pub use shortened::{ShortenedBackfilling, shortened};

/// What one strategy over the comprehensive plan core decides; each is its
/// own type in its own file (a new strategy is a new file).
pub trait Rule: Send + 'static {
    /// Finished jobs leave the plan and waiting jobs may start early.
    const RELEASES_EARLY: bool;
    /// Every booking stores its end CDF for its successors (and full
    /// bookings get the comprehensive PoS).
    const STORES_END_CDF: bool;
    /// The booking for non-reservation job `j` searched from `from`, given
    /// its full booking `full` (nodes in `full_nodes`). Returns the pick and
    /// whether its nodes are already in `chosen` (else the core takes them
    /// from `best_nodes` or `full_nodes`).
    fn pick(
        core: &mut Comprehensive<Self>,
        c: &dyn Cluster,
        j: &Job,
        from: Time,
        full: Option<Choice>,
    ) -> (Option<Choice>, bool)
    where
        Self: Sized;
    /// Paper A's o_j: how much earlier a successor may be anchored on `j`.
    fn spare(_overbooking: Option<&Overbooking>, _j: &Job) -> Time {
        0
    }
}

/// A job's booking: its slot (the same on every node), nodes, and state.
#[derive(Debug, Clone, Copy)]
struct Booked {
    /// Slot start in the plan (moves to the actual start when running).
    start: Time,
    /// Slot end: the kill time limit E.
    end: Time,
    first: u32,
    count: u32,
    /// Paper A's o_j: how much earlier a successor may be anchored.
    spare: Time,
    /// Its stored end CDF (index into the pool), while waiting.
    cdf: Option<u32>,
    /// Actual start while running.
    running: Option<Time>,
    /// Booked later by SLA-aware shifting: it waits for its start (never
    /// started early).
    pinned: bool,
}

/// A candidate booking.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    /// Slot start.
    start: Time,
    /// Slot end (kill limit).
    end: Time,
    /// Planned (earliest) start reported in the SLA.
    planned: Time,
    pos: f64,
    overbooked: bool,
}

/// The comprehensive plan core, run by rule `R`.
pub struct Comprehensive<R: Rule> {
    rule: PhantomData<R>,
    placement: Placement,
    reliability: Reliability,
    overbooking: Option<Arc<Overbooking>>,
    plan: NodePlan,
    profile: AvailabilityProfile,
    booked: Vec<Option<Booked>>,
    arena: Vec<NodeId>,
    pending: BTreeSet<(Time, JobId)>,
    disabled: BTreeSet<JobId>,
    /// Jobs whose nodes freed early but that are not released yet: (release, job).
    awaiting_release: BTreeSet<(Time, JobId)>,
    /// Nodes freed by an end (`false`) or a repair (`true`) at this instant,
    /// in that order: their successors start at the wake-up, after every
    /// end, repair and failure of the instant (kernel contract).
    freed: Vec<(NodeId, bool)>,
    // Scratch buffers: reused, so placing a job does not allocate.
    chosen: Vec<NodeId>,
    /// Nodes of the best overbooked candidate so far.
    best_nodes: Vec<NodeId>,
    /// Nodes of the full booking found first.
    full_nodes: Vec<NodeId>,
    /// End CDF of the best overbooked candidate so far.
    best_cdf: EndCdf,
    due: Vec<(Time, JobId)>,
    jobs: Vec<JobId>,
    preds: Vec<JobId>,
    own: Vec<f64>,
    /// The job whose stepped PDF `own` holds, within the current choice.
    own_of: Option<JobId>,
    pred_pdfs: Vec<Vec<f64>>,
    pos: pos::Comprehensive,
    cdfs: Vec<EndCdf>,
    free_cdfs: Vec<u32>,
    cdf_scratch: EndCdf,
    submissions: u32,
    /// Who picks the booking, for [`AgentAdmitted`].
    admission: Option<Box<dyn Admission>>,
    /// The candidates offered (reused).
    candidates: Vec<Candidate>,
    /// The rule rejected the job by choice, not for want of room.
    declined: bool,
    /// The job whose choice waits for the simulation's caller, with its
    /// full booking (for [`AgentAdmitted`]).
    deferred: Option<(JobId, Option<Choice>)>,
    /// SLA-aware shifting (`shifted.rs`), if the point asks for it.
    shift: Option<Arc<Shift>>,
    /// Nodes of the best shifted booking so far.
    shift_nodes: Vec<NodeId>,
    /// The choice being booked was shifted later.
    shifted_now: bool,
    /// PoS evaluations are of a shifted booking (pinned at its start).
    pinning: bool,
}

impl<R: Rule> Comprehensive<R> {
    /// A strategy for `capacity` nodes. Overbooking and shortened backfilling
    /// need `overbooking`.
    pub fn new(
        capacity: u32,
        placement: Placement,
        reliability: Reliability,
        overbooking: Option<Arc<Overbooking>>,
    ) -> Comprehensive<R> {
        Comprehensive {
            rule: PhantomData,
            placement,
            reliability,
            overbooking,
            plan: NodePlan::new(capacity),
            profile: AvailabilityProfile::new(capacity),
            booked: Vec::new(),
            arena: Vec::new(),
            pending: BTreeSet::new(),
            disabled: BTreeSet::new(),
            awaiting_release: BTreeSet::new(),
            freed: Vec::new(),
            chosen: Vec::new(),
            best_nodes: Vec::new(),
            full_nodes: Vec::new(),
            best_cdf: EndCdf::default(),
            due: Vec::new(),
            jobs: Vec::new(),
            preds: Vec::new(),
            own: Vec::new(),
            own_of: None,
            pred_pdfs: Vec::new(),
            pos: pos::Comprehensive::new(),
            cdfs: Vec::new(),
            free_cdfs: Vec::new(),
            cdf_scratch: EndCdf::default(),
            submissions: 0,
            admission: None,
            candidates: Vec::new(),
            declined: false,
            deferred: None,
            shift: None,
            shift_nodes: Vec::new(),
            shifted_now: false,
            pinning: false,
        }
    }

    /// The core booking each job later when `shift` (an in-plan policy,
    /// `sla-aware`) finds a lower-carbon window its deadline and acceptance
    /// test allow; unchanged without one.
    pub fn shifted_by(mut self, shift: Option<Arc<Shift>>) -> Comprehensive<R> {
        self.shift = shift.filter(|s| s.in_plan());
        self
    }

    /// The core with `admission` picking every booking (for [`AgentAdmitted`]).
    pub fn admitted_by(mut self, admission: Box<dyn Admission>) -> Comprehensive<R> {
        self.admission = Some(admission);
        self
    }

    fn booking(&self, job: JobId) -> Option<Booked> {
        self.booked.get(job as usize).copied().flatten()
    }

    fn nodes_of(&self, b: Booked) -> &[NodeId] {
        &self.arena[b.first as usize..(b.first + b.count) as usize]
    }

    /// The per-node plan, to book nodes by hand (a test, a tool).
    pub fn plan_mut(&mut self) -> &mut NodePlan {
        &mut self.plan
    }

    /// The nodes the last successful node choice took.
    pub fn chosen(&self) -> &[NodeId] {
        &self.chosen
    }

    /// Picks `n` nodes free over `[s, s + x)` into `chosen`: the lowest ids
    /// under first fit, else the tightest fit (ties by the lower node id);
    /// false if too few are free.
    pub fn choose_full(&mut self, s: Time, x: Time, n: u32) -> bool {
        let order = if self.placement == Placement::FirstFit { NodeOrder::LowestIds } else { NodeOrder::TightestFit };
        self.plan.choose(s, s + x, n, order, &mut self.chosen).is_some()
    }

    /// Picks the `n` nodes free longest at `s` into `chosen` (ties by the
    /// lower node id); returns the n-th longest free-until, or `None` if
    /// fewer than n are free at `s`.
    fn choose_longest(&mut self, s: Time, n: u32) -> Option<Time> {
        self.plan.choose(s, s, n, NodeOrder::LongestFree, &mut self.chosen)
    }

    /// The overbooked slot of `j` at `s`, its nodes (the `n` free longest at
    /// `s`) in `chosen`: its end min(n-th longest free-until, deadline), when
    /// the gap at `s` is shorter than the estimate and `worth` passes the
    /// gap's end (checked before any per-node work).
    fn overbooked_slot(&mut self, j: &Job, s: Time, worth: impl FnOnce(&Self, Time) -> bool) -> Option<Time> {
        let gap_end = self.profile.gaps(s, s + 1, j.nodes).next().map(|g| g.end).filter(|&g| g > s)?;
        let upper = gap_end.min(j.deadline);
        if upper - s >= j.estimate || !worth(self, upper) {
            return None;
        }
        let until = self.choose_longest(s, j.nodes)?;
        let end = until.min(j.deadline);
        (end > s && end - s < j.estimate).then_some(end)
    }

    /// The earliest full booking from `from`; nodes in `chosen`.
    fn find_full(&mut self, from: Time, x: Time, n: u32, latest: Time) -> Option<Time> {
        let mut t = from;
        loop {
            let s = self.profile.earliest_fit(t, x, n, latest)?;
            if self.choose_full(s, x, n) {
                return Some(s);
            }
            // Per-node feasibility changes only where a reservation ends.
            t = self.plan.ends_from(s + 1).next()?;
        }
    }

    /// PoS of a full booking when no convolution is needed: failures only.
    fn failure_only_pos(&self, j: &Job) -> f64 {
        self.reliability.available(j.nodes) * self.reliability.success(j.nodes, j.estimate)
    }

    /// The comprehensive PoS of booking `j` on `chosen` over [s, end); if
    /// `store` the job's end CDF is left in `cdf_scratch`.
    fn comprehensive_pos(&mut self, c: &dyn Cluster, j: &Job, s: Time, end: Time, store: bool) -> f64 {
        self.pos_of(c, j, s, end, store, false).unwrap_or(0.0)
    }

    /// [`Self::comprehensive_pos`] with the end CDF in `cdf_scratch`, or
    /// `None` when the acceptance test provably rejects it: the convolution
    /// is skipped for such gaps (their PoS was never used).
    fn acceptable_pos(&mut self, c: &dyn Cluster, j: &Job, s: Time, end: Time) -> Option<f64> {
        self.pos_of(c, j, s, end, true, true)
    }

    /// The PoS of booking `j` on `chosen` over [s, end). Predecessors are
    /// keyed by job id: their start-CDF factors are kept from the start of
    /// the choice ([`Self::choose`]) to its booking.
    fn pos_of(&mut self, c: &dyn Cluster, j: &Job, s: Time, end: Time, store: bool, screen: bool) -> Option<f64> {
        let Some(ob) = self.overbooking.clone() else { return Some(self.failure_only_pos(j)) };
        let now = c.now();
        // A shifted booking starts exactly at s (never early): so it is
        // evaluated, and so its end CDF is stored for its successors.
        let t0 = if self.pinning { s } else { now.max(j.release) };
        // Direct predecessors on the chosen nodes that may still end after t0,
        // each counted once (spec §11.29).
        self.preds.clear();
        for &node in &self.chosen {
            if let Some(slot) = self.plan.predecessor(node, s)
                && slot.end > t0
            {
                self.preds.push(slot.job);
            }
        }
        self.preds.sort_unstable();
        self.preds.dedup();
        // Stepped PDFs of running predecessors.
        while self.pred_pdfs.len() < self.preds.len() {
            self.pred_pdfs.push(Vec::new());
        }
        let step = ob.model.step();
        let rounding = ob.model.config().step_rounding;
        if self.own_of != Some(j.id) {
            ob.model.stepped(j, &mut self.own);
            self.own_of = Some(j.id);
        }
        let place =
            pos::Placement { now, t0, latest_start: s, limit: end, own: &self.own, step, condition: ob.condition };
        // A predecessor's factor kept since this choice began needs no PDF.
        for (k, &p) in self.preds.iter().enumerate() {
            if self.booking(p).is_some_and(|b| b.running.is_some()) && !self.pos.keeps(p, &place) {
                let pj = c.job(p);
                stepped(ob.model.pdf(pj), pj.estimate, step, rounding, &mut self.pred_pdfs[k]);
            }
        }
        let (booked, cdfs, pred_pdfs) = (&self.booked, &self.cdfs, &self.pred_pdfs);
        let empty: &EndCdf = &EndCdf { origin: 0, step, values: Vec::new() };
        let predecessors = self.preds.iter().enumerate().map(move |(k, &p)| {
            let b = booked[p as usize].expect("a predecessor is booked");
            let pred = match (b.running, b.cdf) {
                (Some(start), _) => Predecessor::Running { start, kill: b.end, stepped: &pred_pdfs[k] },
                (None, Some(i)) => Predecessor::Planned { cdf: &cdfs[i as usize], kill: b.end },
                // Disabled or without a model: assume it ends at its kill time.
                (None, None) => Predecessor::Planned { cdf: empty, kill: b.end },
            };
            (p, pred)
        });
        let out = if store { Some(&mut self.cdf_scratch) } else { None };
        let n = j.nodes;
        let available = self.reliability.available(n);
        let success = self.reliability.success(n, j.estimate.min(end - s));
        let executable = if screen {
            // The PoS is monotone in P_executable and so is the test (a
            // calibration map is monotone too).
            let worth =
                |bound: f64| ob.acceptance.accepts(c.calibrated_pos(available * bound * success), j.fee, j.penalty);
            self.pos.p_executable_keyed(place, predecessors, Some(worth), out)?
        } else {
            self.pos.p_executable_keyed(place, predecessors, None::<fn(f64) -> bool>, out).unwrap_or(0.0)
        };
        Some(available * executable * success)
    }

    /// An upper bound of the overbooked PoS in a slot ending at `end`: the job
    /// cannot start before t0, whatever its predecessors do.
    fn pos_upper_bound(&self, j: &Job, t0: Time, s: Time, end: Time) -> f64 {
        let Some(ob) = &self.overbooking else { return 0.0 };
        let reach = (end - t0).clamp(0, j.estimate);
        let executable = ob.model.pdf(j).cdf((100 * reach / j.estimate.max(1)) as usize);
        let n = j.nodes;
        self.reliability.available(n) * executable * self.reliability.success(n, j.estimate.min(end - s))
    }

    /// The booking the placement policy picks for `j`; its nodes are left in `chosen`.
    fn choose(&mut self, c: &dyn Cluster, j: &Job) -> Option<Choice> {
        // Predecessors' factors and the job's stepped PDF are kept from here
        // until the booking (the plan and the models do not change in between).
        self.pos.forget_predecessors();
        self.own_of = None;
        let from = c.now().max(j.release);
        if j.nodes > self.plan.node_count() || from > j.deadline {
            return None;
        }
        let full = self.find_full(from, j.estimate, j.nodes, j.deadline - j.estimate).map(|s| {
            self.full_nodes.clear();
            self.full_nodes.extend_from_slice(&self.chosen);
            Choice { start: s, end: s + j.estimate, planned: s, pos: 0.0, overbooked: false }
        });
        let picked = if j.reservation {
            // A fixed reservation is never overbooked or shortened (paper A).
            (full, false)
        } else {
            R::pick(self, c, j, from, full)
        };
        let picked = self.take_nodes(picked);
        match picked {
            // SLA-aware shifting: a reservation keeps its window.
            Some(earliest) if self.shift.is_some() && !j.reservation => Some(self.shifted(c, j, earliest)),
            picked => picked,
        }
    }

    /// A rule's pick with its nodes in `chosen` (see [`Rule::pick`]).
    fn take_nodes(&mut self, (pick, in_chosen): (Option<Choice>, bool)) -> Option<Choice> {
        if in_chosen {
            return pick;
        }
        let pick = pick?;
        let nodes = if pick.overbooked { &self.best_nodes } else { &self.full_nodes };
        self.chosen.clear();
        self.chosen.extend_from_slice(nodes);
        Some(pick)
    }

    fn take_cdf_slot(&mut self) -> u32 {
        match self.free_cdfs.pop() {
            Some(i) => i,
            None => {
                self.cdfs.push(EndCdf::default());
                (self.cdfs.len() - 1) as u32
            }
        }
    }

    fn drop_cdf(&mut self, job: JobId) {
        if let Some(b) = self.booked.get_mut(job as usize).and_then(|b| b.as_mut())
            && let Some(i) = b.cdf.take()
        {
            self.free_cdfs.push(i);
        }
    }

    /// Reserves `chosen` over [start, end) for `job`.
    fn book(&mut self, job: JobId, start: Time, end: Time, spare: Time) {
        let first = self.arena.len() as u32;
        self.plan.reserve(&self.chosen, NodeBooking { start, end, job });
        self.arena.extend_from_slice(&self.chosen);
        self.profile.reserve(start, end, self.chosen.len() as u32);
        let i = job as usize;
        if i >= self.booked.len() {
            self.booked.resize(i + 1, None);
        }
        let count = self.chosen.len() as u32;
        self.booked[i] = Some(Booked { start, end, first, count, spare, cdf: None, running: None, pinned: false });
    }

    /// Removes `job`'s slot from the plan (keeps its node list).
    fn unreserve(&mut self, job: JobId) {
        let Some(b) = self.booking(job) else { return };
        let nodes = &self.arena[b.first as usize..(b.first + b.count) as usize];
        self.plan.release(nodes, b.start, job);
        self.profile.release(b.start, b.end, b.count);
    }

    /// Moves `job`'s slot to [start, end) on the same nodes.
    fn move_slot(&mut self, job: JobId, start: Time, end: Time) {
        let Some(b) = self.booking(job) else { return };
        self.unreserve(job);
        let nodes = &self.arena[b.first as usize..(b.first + b.count) as usize];
        self.plan.reserve(nodes, NodeBooking { start, end, job });
        self.profile.reserve(start, end, b.count);
        if let Some(Some(b)) = self.booked.get_mut(job as usize) {
            b.start = start;
            b.end = end;
        }
    }

    fn forget(&mut self, job: JobId) {
        self.drop_cdf(job);
        self.unreserve(job);
        if let Some(b) = self.booked.get_mut(job as usize) {
            *b = None;
        }
    }

    /// Starts `job` now on its nodes, killed at min(now + x, slot end).
    fn start_now(&mut self, c: &mut dyn Cluster, job: JobId) -> bool {
        let Some(b) = self.booking(job) else { return false };
        let now = c.now();
        let kill = (now + c.job(job).estimate).min(b.end);
        if !c.nodes_ready(self.nodes_of(b)) || kill <= now {
            return false;
        }
        if b.start != now || b.end != kill {
            self.move_slot(job, now, kill);
        }
        let b = self.booking(job).expect("still booked");
        let nodes = &self.arena[b.first as usize..(b.first + b.count) as usize];
        let started = c.start(job, nodes, kill);
        if started {
            self.drop_cdf(job);
            if let Some(Some(b)) = self.booked.get_mut(job as usize) {
                b.running = Some(now);
            }
        }
        started
    }

    /// The latest time a disabled job may (re)start.
    fn restart_deadline(&self, c: &dyn Cluster, job: JobId, b: Booked) -> Time {
        let j = c.job(job);
        if R::RELEASES_EARLY {
            // Comprehensive overbooking: restart while its slot lasts (spec §6.5).
            return b.end - 1;
        }
        let next = self.nodes_of(b).iter().filter_map(|&node| self.plan.next_start(node, b.start + 1)).min();
        next.unwrap_or(Time::MAX).min(j.deadline) - j.estimate
    }

    fn disable(&mut self, c: &mut dyn Cluster, job: JobId) {
        let Some(b) = self.booking(job) else { return };
        if let Some(Some(b)) = self.booked.get_mut(job as usize) {
            b.running = None;
        }
        let deadline = self.restart_deadline(c, job, b);
        if c.now() > deadline {
            self.forget(job);
            c.fail(job);
        } else {
            self.disabled.insert(job);
            c.wake_at(deadline + 1);
        }
    }

    fn start_due(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.due.clear();
        self.due.extend(self.pending.range(..=(now, JobId::MAX)).copied());
        for k in 0..self.due.len() {
            let (start, job) = self.due[k];
            self.pending.remove(&(start, job));
            if self.booking(job).is_none_or(|b| b.running.is_some()) || self.disabled.contains(&job) {
                continue;
            }
            if !self.start_now(c, job) {
                self.disable(c, job);
            }
        }
        // Disabled jobs whose restart window has closed fail now.
        self.jobs.clear();
        for &job in &self.disabled {
            if self.booking(job).is_some_and(|b| now > self.restart_deadline(&*c, job, b)) {
                self.jobs.push(job);
            }
        }
        for k in 0..self.jobs.len() {
            let job = self.jobs[k];
            self.disabled.remove(&job);
            self.forget(job);
            c.fail(job);
        }
    }

    /// Restarts disabled jobs on `node` whose nodes are all back.
    fn try_restart(&mut self, c: &mut dyn Cluster, node: NodeId) {
        let now = c.now();
        self.jobs.clear();
        for &job in &self.disabled {
            if self.booking(job).is_some_and(|b| self.nodes_of(b).contains(&node)) {
                self.jobs.push(job);
            }
        }
        for k in 0..self.jobs.len() {
            let job = self.jobs[k];
            let Some(b) = self.booking(job) else { continue };
            if !c.nodes_ready(self.nodes_of(b)) {
                continue;
            }
            self.disabled.remove(&job);
            if now > self.restart_deadline(&*c, job, b) {
                self.forget(job);
                c.fail(job);
                continue;
            }
            if !R::RELEASES_EARLY {
                // Backfilling restarts with its whole estimate: move the slot.
                let x = c.job(job).estimate;
                self.move_slot(job, now, now + x);
            }
            if !self.start_now(c, job) {
                self.disable(c, job);
            }
        }
    }

    /// Restarts and early starts on the nodes freed at this instant, in the
    /// order they were freed: disabled jobs on a repaired node restart; the
    /// waiting job booked next on a freed node starts early (overbooking and
    /// shortened backfilling) if its nodes are idle and nothing is booked
    /// before it.
    fn start_on_freed(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        for k in 0..self.freed.len() {
            let (node, repaired) = self.freed[k];
            if repaired {
                self.try_restart(c, node);
            }
            if R::RELEASES_EARLY
                && let Some(slot) = self.plan.next_slot(node, now)
            {
                self.try_early(c, slot.job);
            }
        }
        self.freed.clear();
    }

    /// Starts waiting `job` now if nothing is booked before it on its idle
    /// nodes; if only its release is missing, retries at its release.
    fn try_early(&mut self, c: &mut dyn Cluster, job: JobId) {
        let now = c.now();
        let Some(b) = self.booking(job) else { return };
        if b.running.is_some() || b.pinned || b.start <= now || self.disabled.contains(&job) {
            return;
        }
        let clear = self.nodes_of(b).iter().all(|&n| self.plan.free_until(n, now) == Some(b.start));
        if !clear {
            return;
        }
        let release = c.job(job).release;
        if now < release {
            if release < b.start && self.awaiting_release.insert((release, job)) {
                c.wake_at(release);
            }
            return;
        }
        if c.nodes_ready(self.nodes_of(b)) {
            let old = b.start;
            if self.start_now(c, job) {
                self.pending.remove(&(old, job));
            }
        }
    }
}

impl<R: Rule> Comprehensive<R> {
    /// Books `job` as `choice` (from [`Self::choose`]) and accepts it, or
    /// rejects it for want of a choice.
    fn book_choice(&mut self, c: &mut dyn Cluster, job: JobId, j: &Job, choice: Option<Choice>) {
        let Some(mut choice) = choice else {
            let reason = if std::mem::take(&mut self.declined) {
                RejectReason::Scheduler
            } else if j.reservation {
                RejectReason::Occupied
            } else {
                RejectReason::NoRoom
            };
            c.reject(job, reason);
            return;
        };
        // Full bookings' PoS (and every overbooking booking's end CDF).
        let store_cdf = R::STORES_END_CDF;
        if store_cdf && choice.overbooked {
            // Evaluated on these nodes and this slot when it was chosen.
            std::mem::swap(&mut self.cdf_scratch, &mut self.best_cdf);
        } else if store_cdf {
            self.pinning = self.shifted_now;
            choice.pos = self.comprehensive_pos(c, j, choice.start, choice.end, true);
            self.pinning = false;
        } else if !choice.overbooked {
            choice.pos = self.failure_only_pos(j);
        } else {
            choice.pos *= self.failure_only_pos(j);
        }
        // Nothing may be anchored early on a reservation.
        let spare = if j.reservation { 0 } else { R::spare(self.overbooking.as_deref(), j) };
        self.book(job, choice.start, choice.end, spare);
        if std::mem::take(&mut self.shifted_now)
            && let Some(Some(b)) = self.booked.get_mut(job as usize)
        {
            b.pinned = true;
        }
        if store_cdf {
            let slot = self.take_cdf_slot();
            std::mem::swap(&mut self.cdfs[slot as usize], &mut self.cdf_scratch);
            if let Some(Some(b)) = self.booked.get_mut(job as usize) {
                b.cdf = Some(slot);
            }
        }
        let booking = Booking {
            start: choice.planned,
            end: choice.end,
            overbooked: choice.overbooked,
            pof: Some((1.0 - choice.pos).clamp(0.0, 1.0)),
        };
        c.accept(job, booking);
        self.pending.insert((choice.start, job));
        if choice.start <= c.now() {
            self.start_due(c);
        } else {
            c.wake_at(choice.start);
        }
    }

    /// Books the rest of a checkpointed job as a full booking before its
    /// deadline (paper A's restart in a later gap), or fails it.
    fn book_rest(&mut self, c: &mut dyn Cluster, job: JobId, rest: Time) {
        let j = *c.job(job);
        let now = c.now();
        let from = now.max(j.release);
        let found =
            if j.deadline - rest >= from { self.find_full(from, rest, j.nodes, j.deadline - rest) } else { None };
        let Some(start) = found else {
            c.fail(job);
            return;
        };
        self.book(job, start, start + rest, 0);
        self.pending.insert((start, job));
        // Started from a wake-up even when due now: wake-ups come after every
        // job ending at this instant, so no booking starts on nodes a job
        // ending now still holds.
        c.wake_at(start);
    }
}

impl<R: Rule> Strategy for Comprehensive<R> {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.submissions += 1;
        if self.submissions % 256 == 0 {
            let horizon = c.now();
            self.plan.forget_before(horizon);
            self.profile.forget_before(horizon);
        }
        let j = *c.job(job);
        if j.reservation && j.release < j.occurrence {
            c.reject(job, RejectReason::StartBeforeSubmission);
            return;
        }
        if j.nodes > self.plan.node_count() {
            c.reject(job, RejectReason::TooWide);
            return;
        }
        let choice = self.choose(c, &j);
        if self.deferred.is_some() {
            // The rule asked the caller: the rest waits for `resume`.
            c.suspend();
            return;
        }
        self.book_choice(c, job, &j, choice);
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        self.start_on_freed(c);
        while let Some(&(release, job)) = self.awaiting_release.first().filter(|(r, _)| *r <= now) {
            self.awaiting_release.remove(&(release, job));
            self.try_early(c, job);
        }
        self.start_due(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        if let Some(b) = self.booking(job) {
            learn_from_end(&mut self.overbooking, c.job(job), b.end - b.start, c.now());
        }
        if !R::RELEASES_EARLY {
            // Nodes stay reserved until the end of the booking.
            return;
        }
        let Some(b) = self.booking(job) else { return };
        self.forget(job);
        if let Some(rest) = c.resumable(job) {
            self.book_rest(c, job, rest);
        }
        let nodes = &self.arena[b.first as usize..(b.first + b.count) as usize];
        self.freed.extend(nodes.iter().map(|&node| (node, false)));
        c.wake_at(c.now());
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, _node: NodeId, victim: Option<JobId>) {
        if let Some(job) = victim {
            self.disable(c, job);
        }
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        self.freed.push((node, true));
        c.wake_at(c.now());
    }
}
