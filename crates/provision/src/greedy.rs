//! Greedy workflow provisioning with adaptive pricing (Fig. 51).
//!
//! Reference: `provisioning-dissertation-spec.md` §6.1 (why not the MOGA:
//! priced slots are not independent), §6.2 (Fig. 51: tasks in HEFT order; for
//! each, an earliest-start query (eq. 19) to every site from its ready time
//! there; the α-normalised cost / finish-time objective over all offers; the
//! chosen slot is reserved before the next task is asked about), §13 item 11.
//!
//! Contract: a pure function of the sites' [`Snapshot`]s: each chosen slot is
//! added to its site's reservations, so later tasks are priced against it.
//! Ties go to the earlier finish, then the lower site index. α = 1 takes the
//! cheapest offer (f = 0 exists at every site: after the end of its schedule),
//! so the allocation cost equals the best-effort cost Σ n·d·c.

use crate::pricing::{Offer, Policy, Snapshot, query_earliest};
use crate::workflow::{Task, Workflow};
use slasim_core::setting::{InvalidSetting, probability};
use slasim_core::units::Time;

/// Where a task was provisioned and what it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reserved {
    /// The task.
    pub task: u32,
    /// The site.
    pub site: u32,
    /// Start of its slot.
    pub start: Time,
    /// End (start + runtime).
    pub end: Time,
    /// The additive charge f, processor-seconds.
    pub f: f64,
    /// Its slot's total price n·d·c + f.
    pub cost: f64,
}

/// A greedy provisioning: every task's slot, the makespan and the allocation cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Greedy {
    /// In task order.
    pub tasks: Vec<Reserved>,
    /// Last end − submission.
    pub makespan: Time,
    /// Σ slot prices, processor-seconds.
    pub cost: f64,
}

/// One site's offer for one task, as Fig. 51 weighs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiteOffer {
    /// The site.
    pub site: u32,
    /// Slot start.
    pub start: Time,
    /// The additive charge f, processor-seconds.
    pub f: f64,
    /// n·d·c + f.
    pub cost: f64,
}

impl SiteOffer {
    /// `offer` of `site` for a task of `procs` × `runtime`.
    pub fn new(site: u32, offer: Offer, procs: u32, runtime: Time) -> SiteOffer {
        let cost = f64::from(procs) * runtime as f64 * offer.c + offer.f;
        SiteOffer { site, start: offer.start, f: offer.f, cost }
    }
}

/// A task's earliest start on `site`: its parents' ends, plus their transfers
/// from other sites, and at least `floor`. `placed(p)` = (site, end) of parent `p`.
pub fn ready_time(task: &Task, site: u32, floor: Time, placed: impl Fn(u32) -> Option<(u32, Time)>) -> Time {
    task.parents
        .iter()
        .filter_map(|&(p, transfer)| placed(p).map(|(s, end)| end + if s == site { 0 } else { transfer }))
        .fold(floor, Time::max)
}

/// Fig. 51's choice over one task's offers from every site: the minimum of
/// α·(cost − min)/(max − min) + (1 − α)·(finish − min)/(max − min); a term
/// with an empty range is 0; ties go to the earlier finish, then the lower site.
pub fn pick(offers: &[SiteOffer], runtime: Time, alpha: f64) -> Option<usize> {
    let range = |v: &mut dyn Iterator<Item = f64>| {
        v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let (c_lo, c_hi) = range(&mut offers.iter().map(|o| o.cost));
    let (m_lo, m_hi) = range(&mut offers.iter().map(|o| (o.start + runtime) as f64));
    let norm = |x: f64, lo: f64, hi: f64| if hi > lo { (x - lo) / (hi - lo) } else { 0.0 };
    let score =
        |o: &SiteOffer| alpha * norm(o.cost, c_lo, c_hi) + (1.0 - alpha) * norm((o.start + runtime) as f64, m_lo, m_hi);
    offers
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)).then(a.start.cmp(&b.start)).then(a.site.cmp(&b.site)))
        .map(|(i, _)| i)
}

/// Provisions `workflow` submitted at `submit` on `sites` (their states at
/// `submit`) with trade-off `alpha` and unit price `c`. `None` if some task fits
/// no site.
pub fn provision_greedy(
    workflow: &Workflow,
    submit: Time,
    sites: &[Snapshot],
    policy: Policy,
    c: f64,
    alpha: f64,
) -> Result<Option<Greedy>, InvalidSetting> {
    probability("alpha", alpha)?;
    let mut sites: Vec<Snapshot> = sites.to_vec();
    let n = workflow.tasks().len();
    let mut placed: Vec<Option<Reserved>> = vec![None; n];
    for t in workflow.heft_order() {
        let task = &workflow.tasks()[t as usize];
        // Every site's offers, with their cost.
        let mut offers: Vec<SiteOffer> = Vec::new();
        for (r, site) in sites.iter().enumerate() {
            let ready =
                ready_time(task, r as u32, submit.max(site.now), |p| placed[p as usize].map(|x| (x.site, x.end)));
            for o in query_earliest(site, policy, c, ready, task.procs, task.runtime.max(1)) {
                offers.push(SiteOffer::new(r as u32, o, task.procs, task.runtime));
            }
        }
        let Some(best) = pick(&offers, task.runtime, alpha) else {
            return Ok(None);
        };
        let SiteOffer { site, start, f, cost } = offers[best];
        let end = start + task.runtime;
        if task.runtime > 0 {
            sites[site as usize].reservations.push((start, end, task.procs));
        }
        placed[t as usize] = Some(Reserved { task: t, site, start, end, f, cost });
    }
    let tasks: Vec<Reserved> = placed.into_iter().flatten().collect();
    let makespan = tasks.iter().map(|x| x.end).max().unwrap_or(submit) - submit;
    let cost = tasks.iter().map(|x| x.cost).sum();
    Ok(Some(Greedy { tasks, makespan, cost }))
}
