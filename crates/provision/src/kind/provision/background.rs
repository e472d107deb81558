//! A site's background load, prepared for a provisioning or pricing run.
//!
//! Reference: `provisioning-dissertation-spec.md` §9 (build each resource
//! from its trace and load scaling; submission instants after a one-week
//! warm-up and before the last week), §10 (load scaling).
//!
//! Contract: [`prepare_site`] loads a site's trace (every usable job at its
//! own time, exact estimates if asked) and scales its load with a seeded
//! week-shifted copy; [`submission_instants`] spreads a point's instants.

use anyhow::Context as _;

use crate::kind::provision::point::SiteSpec;
use crate::load::{WEEK, offered_utilisation, scale_to};
use crate::site::SlotScheduler;
use slasim_core::units::Time;
use slasim_single::workload::job::Job;
use slasim_single::workload::prepare::{Estimates, PrepareConfig};

/// A site's background workload after preparation and load scaling.
#[derive(Debug, Clone)]
pub struct PreparedSite {
    /// Trace name.
    pub trace: String,
    /// Processors.
    pub capacity: u32,
    /// Jobs, ordered by occurrence, ids 0..n.
    pub jobs: Vec<Job>,
    /// Probability of the week-shifted copy's jobs (0: none).
    pub copy_probability: f64,
    /// Offered utilisation of `jobs`.
    pub offered: f64,
}

/// Loads a site's trace: every usable job at its own time; exact estimates if asked.
pub fn prepare_site(spec: &SiteSpec, estimates: Estimates, seed: u64) -> anyhow::Result<PreparedSite> {
    let trace = spec.trace.load()?;
    let mut prepare = PrepareConfig::default().for_classic_modes();
    prepare.filter.drop_wider_than_machine = true;
    prepare.capacity = spec.capacity;
    let (mut jobs, _, capacity) =
        prepare.usable_jobs(&trace).with_context(|| format!("preparing {}", spec.trace.name()))?;
    for job in &mut jobs {
        if estimates == Estimates::Exact {
            job.estimate = job.runtime.max(1);
        }
        job.runtime = job.runtime.clamp(0, job.estimate);
    }
    let (copy_probability, jobs) = match spec.utilisation {
        Some(target) => scale_to(&jobs, capacity, target, seed)?,
        None => (0.0, jobs),
    };
    let offered = offered_utilisation(&jobs, capacity).unwrap_or(0.0);
    Ok(PreparedSite { trace: spec.trace.name(), capacity, jobs, copy_probability, offered })
}

/// `count` instants evenly spread over `[first + 1 week, last − 1 week]`
/// (the whole span if it is shorter than three weeks), mid-interval.
pub fn submission_instants(first: Time, last: Time, count: usize) -> Vec<Time> {
    let (lo, hi) = if last - first > 3 * WEEK { (first + WEEK, last - WEEK) } else { (first, last) };
    let step = (hi - lo) as f64 / count as f64;
    (0..count).map(|k| lo + (step * (k as f64 + 0.5)) as Time).collect()
}

/// A site's slot scheduler, starting at its first job.
pub fn first_scheduler(site: &PreparedSite) -> SlotScheduler {
    SlotScheduler::new(site.capacity, site.jobs.first().map_or(0, |j| j.occurrence))
}
