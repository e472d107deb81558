//! What a provisioning or pricing run produced, as its kind hands it to the
//! store: the site's load figures, a provisioning run's measurements per
//! submission, a site's advertised-slot statistics, and the pricing run's
//! outcome with the harm reservations did to best-effort jobs.
//!
//! Contract: plain data, computed by the point kinds
//! ([`crate::kind::provision`], [`crate::kind::pricing`]) and written by
//! their tables ([`crate::tables`]); it imports neither, so the tables read
//! it without an arrow back up to the kinds.
//!
//! Reference: `provisioning-dissertation-spec.md` §4.2 (the externality f,
//! defined against the slot's absence).

use crate::buyer::PricedRecord;
use crate::site::SlotSample;
use crate::slots::Advertised;
use slasim_core::units::Time;

/// A site's load figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteSummary {
    /// Trace name.
    pub trace: String,
    /// Processors.
    pub capacity: u32,
    /// Background jobs.
    pub jobs: usize,
    /// Copy probability.
    pub copy_probability: f64,
    /// Offered utilisation.
    pub offered: f64,
    /// Utilisation the main run achieved.
    pub achieved: Option<f64>,
}

/// What a pricing run produced.
#[derive(Debug, Clone)]
pub struct PricingOutcome {
    /// The site's load figures.
    pub site: SiteSummary,
    /// One record per reservation request.
    pub records: Vec<PricedRecord>,
    /// Mean wait of the queued (best-effort) jobs, seconds.
    pub be_wait: Option<f64>,
    /// The provider's view: what the reservations did to the best-effort jobs.
    pub harm: Harm,
}

/// The externality charged against the delay best-effort jobs actually
/// suffered: the same run without the reservation requests is the
/// counterfactual (f is defined against the slot's absence, §4.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Harm {
    /// Σ f of the bought reservations, processor-seconds.
    pub charged: f64,
    /// Σ over best-effort jobs of processors × (wait with − wait without the
    /// reservations), processor-seconds; None if the two runs did not start the same jobs.
    pub suffered: Option<f64>,
    /// The same against the run where the would-be buyers queue as best effort
    /// instead: what reserving (rather than queueing) costs the others.
    pub suffered_vs_queueing: Option<f64>,
    /// Best-effort jobs.
    pub be_jobs: u64,
    /// Their mean wait without the reservations, seconds.
    pub be_wait_without: Option<f64>,
}

/// The measurements of one submission and one α.
#[derive(Debug, Clone, PartialEq)]
pub struct SubmissionOutcome {
    /// Submission index.
    pub submission: usize,
    /// Its instant.
    pub time: Time,
    /// The trade-off factor.
    pub alpha: f64,
    /// Provisioned makespan (SC − submission), seconds.
    pub makespan: Option<Time>,
    /// Provisioned allocation cost, processor-seconds.
    pub cost: Option<f64>,
    /// The plan enacted in a fork: its makespan.
    pub enacted_makespan: Option<Time>,
    /// Best-effort makespan, seconds (None: not finished within the fork window).
    pub be_makespan: Option<Time>,
    /// Best-effort allocation cost (eq. 16), processor-seconds.
    pub be_cost: f64,
    /// Pareto archive size.
    pub archive: usize,
    /// |Â|: advertised slots over all sites.
    pub slots: usize,
    /// The archive was empty and the all-edge plan was used.
    pub fallback: bool,
    /// Greedy: Σ externality f charged, processor-seconds.
    pub f: Option<f64>,
}

/// Advertised-slot statistics of one site over its whole trace (§2.6).
#[derive(Debug, Clone)]
pub struct SlotStatistics {
    /// The prepared site.
    pub site: SiteSummary,
    /// At every background arrival: advertised slots and tasks in the system.
    pub samples: Vec<SlotSample>,
    /// Every `observe_every` seconds: the advertised slots (time, slot).
    pub observed: Vec<(Time, Advertised)>,
    /// Schedule rebuilds (inaccurate estimates).
    pub rebuilds: u64,
}
