//! Advertised-slot statistics of one site (`method = "slots"`).
//!
//! Reference: `provisioning-dissertation-spec.md` §2.6 (slot statistics).
//!
//! Contract: [`slot_statistics`] runs a site's trace alone and records its
//! advertised slots, observed by a provisioner that provisions nothing.

use anyhow::Context as _;

use crate::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use crate::kind::provision::background::{first_scheduler, prepare_site};
use crate::kind::provision::point::SiteSpec;
use crate::outcome::{SiteSummary, SlotStatistics};
use crate::provisioner::ProvisionerActor;
use slasim_core::setting::InvalidSetting;
use slasim_core::units::{HOUR, Time};
use slasim_single::workload::prepare::Estimates;

/// Runs a site's trace alone and records its advertised slots: the count at
/// every arrival, and every slot each `observe_every` seconds (through the
/// kernel, by an observer that provisions nothing).
pub fn slot_statistics(
    spec: &SiteSpec,
    estimates: Estimates,
    observe_every: Time,
    seed: u64,
) -> anyhow::Result<SlotStatistics> {
    if observe_every <= 0 {
        return Err(InvalidSetting::new("observe_every", observe_every, "must be positive").into());
    }
    let site = prepare_site(spec, estimates, seed)?;
    let first = site.jobs.first().map_or(0, |j| j.occurrence);
    let last = site.jobs.last().map_or(0, |j| j.occurrence);
    let instants: Vec<Time> = (0..).map(|k| first + k * observe_every).take_while(|&t| t <= last).collect();
    let observer = ProvisionerActor::new(1, instants, false, None);
    let scenario = ProvisionScenario {
        sites: vec![ProvisionSite { scheduler: first_scheduler(&site), jobs: site.jobs.clone(), sample: true }],
        provisioner: Some(observer),
        executor: None,
        buyer: None,
        horizon: Time::MAX,
    };
    let sim = simulate_provisioning(scenario)?;
    let result = sim.sites.into_iter().next().context("the site produced no result")?;
    let observed = sim.submissions.iter().flat_map(|r| r.slots.iter().flatten().map(move |s| (r.time, *s))).collect();
    let summary = SiteSummary {
        trace: site.trace.clone(),
        capacity: site.capacity,
        jobs: site.jobs.len(),
        copy_probability: site.copy_probability,
        offered: site.offered,
        achieved: result.scheduler.utilisation(),
    };
    Ok(SlotStatistics { site: summary, samples: result.samples, observed, rebuilds: result.scheduler.rebuilds() })
}

/// The default observation period of slot statistics: one hour.
pub const OBSERVE_EVERY: Time = HOUR;
