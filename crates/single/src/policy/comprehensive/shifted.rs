//! SLA-aware shifting inside the comprehensive plan: the shifting policy
//! `sla-aware` (`crate::policy::shifting::sla_aware`, whose module doc is
//! the contract) applied by every rule of the plan core.
//!
//! Reference: issue 62, "SLA-aware shifting in the planning strategies";
//! `overbooking-dissertation-spec.md` §5.1 (gap search) and §6.1 (booking
//! and acceptance) for the feasibility test a later booking passes.
//!
//! Contract:
//! - Called with the booking the rule picked (the earliest it accepts), its
//!   nodes in `chosen`; returns the booking to make, its nodes in `chosen`.
//! - A later booking is a full booking `[s, s + x)` on nodes free
//!   throughout, chosen by the point's placement as the rule's own full
//!   bookings are; under a rule whose full bookings get the comprehensive
//!   PoS ([`Rule::STORES_END_CDF`]), that PoS must pass the acceptance test.
//!   Its PoS and the end CDF stored for its successors take it to start
//!   exactly at `s` (it is pinned there), not as early as its nodes free.
//! - A shifted booking is pinned: never started early on nodes freed before
//!   its start (comprehensive overbooking and shortened backfilling start
//!   waiting jobs early), so it runs in the window it was booked for.
//! - Without a shift the core never calls it: the booking path is unchanged.

use crate::cluster::strategy::Cluster;
use crate::policy::comprehensive::{Choice, Comprehensive, Rule};
use crate::policy::shifting::sla_aware;
use crate::workload::job::Job;
use slasim_core::units::Time;

impl<R: Rule> Comprehensive<R> {
    /// The booking `sla-aware` makes instead of `earliest` (nodes of both in
    /// `chosen`, before and after).
    pub(super) fn shifted(&mut self, c: &dyn Cluster, j: &Job, earliest: Choice) -> Choice {
        let Some(shift) = self.shift.clone() else { return earliest };
        let (x, n, e, now) = (j.estimate, j.nodes, earliest.start, c.now());
        let last = sla_aware::window(e, x, j.deadline, shift.config.horizon);
        if last <= e {
            return earliest;
        }
        let outlook = &shift.outlook;
        let base = outlook.mean(now, e, e + x);
        // The earliest booking's nodes, kept while candidates use `chosen`.
        self.shift_nodes.clear();
        self.shift_nodes.extend_from_slice(&self.chosen);
        let mut best: Option<(f64, Time)> = None;
        let mut s = e;
        loop {
            s = sla_aware::next_candidate(outlook, |t| self.next_change(t), s, x);
            if s > last {
                break;
            }
            let mean = outlook.mean(now, s, s + x);
            if !sla_aware::worth_shifting(base, mean) || best.is_some_and(|(b, _)| mean >= b) {
                continue;
            }
            if !self.profile.fits(s, s + x, n) || !self.choose_full(s, x, n) || !self.shift_accepted(c, j, s) {
                continue;
            }
            best = Some((mean, s));
            self.shift_nodes.clear();
            self.shift_nodes.extend_from_slice(&self.chosen);
        }
        self.chosen.clear();
        self.chosen.extend_from_slice(&self.shift_nodes);
        match best {
            Some((_, s)) => {
                self.shifted_now = true;
                Choice { start: s, end: s + x, planned: s, pos: 0.0, overbooked: false }
            }
            None => earliest,
        }
    }

    /// The first time after `t` where the plan's free nodes may change: a
    /// step of the profile or the end of a reservation.
    fn next_change(&self, t: Time) -> Option<Time> {
        let steps = self.profile.steps();
        let step = steps.get(steps.partition_point(|p| p.time <= t)).map(|p| p.time);
        let end = self.plan.ends_from(t.saturating_add(1)).next();
        match (step, end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The acceptance test still holds for a full booking at `s` on `chosen`
    /// (rules whose full bookings get the comprehensive PoS).
    fn shift_accepted(&mut self, c: &dyn Cluster, j: &Job, s: Time) -> bool {
        if !R::STORES_END_CDF {
            return true;
        }
        let Some(ob) = self.overbooking.clone() else { return true };
        self.pinning = true;
        let pos = self.comprehensive_pos(c, j, s, s + j.estimate, false);
        self.pinning = false;
        ob.acceptance.accepts(c.calibrated_pos(pos), j.fee, j.penalty)
    }
}
