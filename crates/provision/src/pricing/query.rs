//! The query models of §4.3 (eq. 17–19: fixed, flexible and earliest start,
//! and a start deadline) and the user's choice among offers (eq. 20).
//!
//! Contract: a query prices every candidate start on one snapshot with one
//! [`Pricer`]; it never changes a site. c is per processor-second, f in
//! processor-seconds.

use crate::pricing::{Policy, Pricer, SlotRequest, Snapshot};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;

/// One answer of a query: a start, the per-unit charge c and the additive charge f.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offer {
    /// Start.
    pub start: Time,
    /// Per processor-second.
    pub c: f64,
    /// Additive charge, processor-seconds.
    pub f: f64,
}

/// The candidate starts of §4.3: now and every instant where availability
/// changes in the schedule of running jobs, reservations and the queue (a
/// job or slot starting or ending), at or after `from`.
pub fn candidates(snapshot: &Snapshot, base: &[Time], from: Time) -> Vec<Time> {
    let mut times = vec![snapshot.now];
    times.extend(snapshot.running.iter().map(|&(_, end)| end));
    times.extend(snapshot.reservations.iter().flat_map(|&(s, e, _)| [s, e]));
    for (&(_, estimate), &start) in snapshot.queue.iter().zip(base) {
        if start != Time::MAX {
            times.extend([start, start + estimate.max(1)]);
        }
    }
    times.retain(|&t| t >= from && t >= snapshot.now);
    times.sort_unstable();
    times.dedup();
    times
}

/// Eq. 18 (flexible start): every feasible candidate with its price.
pub fn query_flexible(snapshot: &Snapshot, policy: Policy, c: f64, procs: u32, duration: Time) -> Vec<Offer> {
    query_earliest(snapshot, policy, c, snapshot.now, procs, duration)
}

/// Eq. 19 (earliest start `from`): the feasible candidates at or after `from`,
/// with `from` itself among them when the slot fits there.
pub fn query_earliest(
    snapshot: &Snapshot,
    policy: Policy,
    c: f64,
    from: Time,
    procs: u32,
    duration: Time,
) -> Vec<Offer> {
    let mut pricer = Pricer::new(snapshot, policy);
    let mut times = candidates(snapshot, pricer.base(), from);
    if from >= snapshot.now && !times.contains(&from) {
        times.insert(0, from);
    }
    times
        .into_iter()
        .filter_map(|start| {
            let slot = SlotRequest { start, procs, duration };
            pricer.price(slot).map(|f| Offer { start, c, f })
        })
        .collect()
}

/// Eq. 19 with a start deadline (the latest start a user accepts, as the
/// start deadlines of Ch. 6): the offers of [`query_earliest`] that start by
/// `deadline`. A deadline before the earliest start is refused, naming it.
#[allow(clippy::too_many_arguments)]
pub fn query_window(
    snapshot: &Snapshot,
    policy: Policy,
    c: f64,
    from: Time,
    deadline: Time,
    procs: u32,
    duration: Time,
) -> Result<Vec<Offer>, InvalidSetting> {
    if deadline < from {
        return Err(InvalidSetting::new("deadline", deadline, "must not be before the earliest start"));
    }
    let mut offers = query_earliest(snapshot, policy, c, from, procs, duration);
    offers.retain(|o| o.start <= deadline);
    Ok(offers)
}

/// Eq. 17 (fixed start): the price of one slot, `None` if it is not available.
pub fn query_fixed(snapshot: &Snapshot, policy: Policy, c: f64, slot: SlotRequest) -> Option<Offer> {
    Pricer::new(snapshot, policy).price(slot).map(|f| Offer { start: slot.start, c, f })
}

/// Eq. 20: the offer minimising α·(f − f_min)/(f_max − f_min) + (1 − α)·(s −
/// s_min)/(s_max − s_min); a term is 0 when its range is empty (A21); ties go
/// to the earliest start. `None` for no offers.
pub fn choose(offers: &[Offer], alpha: f64) -> Result<Option<usize>, InvalidSetting> {
    slasim_core::setting::probability("alpha", alpha)?;
    let range = |v: &mut dyn Iterator<Item = f64>| {
        v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let (f_min, f_max) = range(&mut offers.iter().map(|o| o.f));
    let (s_min, s_max) = range(&mut offers.iter().map(|o| o.start as f64));
    let norm = |x: f64, lo: f64, hi: f64| if hi > lo { (x - lo) / (hi - lo) } else { 0.0 };
    let score = |o: &Offer| alpha * norm(o.f, f_min, f_max) + (1.0 - alpha) * norm(o.start as f64, s_min, s_max);
    Ok(offers
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)).then(a.start.cmp(&b.start)))
        .map(|(i, _)| i))
}
