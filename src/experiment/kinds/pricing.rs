//! The pricing point: a share of a trace's jobs buy priced reservations, the
//! rest queue.
//!
//! Reference: the provisioning dissertation, Ch. 5 (adaptive pricing: eq.
//! 17–20, Figs. 23–31).
//!
//! Contract: [`PricingSettings`] is what a config's `[pricing]` table and the
//! command line say; [`PricingSettings::resolve`] is the one place their
//! defaults and checks live. [`run`] runs a point's three simulations (with
//! the reservations, without them, with the buyers queueing instead) on the
//! threads the run's budget has free and returns its rows for the store.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::experiment::id::{PointId, Unserialisable, canonical_toml};
use crate::experiment::kinds::provision::SiteSettings;
use crate::experiment::provenance::code_version;
use crate::provision::experiment::{PricingPoint, run_pricing};
use crate::provision::pricing::Policy;
use crate::store::{PricingOutput, ProvisionPointRow};
use crate::threads::Budget;
use crate::workload::prepare::Estimates;

/// A pricing experiment's settings (`[pricing]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PricingSettings {
    /// Seed (which jobs buy; the load copy).
    pub seed: u64,
    /// The buyers' trade-off factor α between price (0) and wait (1).
    pub alpha: f64,
    /// Percentage of the jobs that buy reservations (0–100).
    pub share: f64,
    /// The first DAYS days of the trace.
    pub days: f64,
    /// The scheduler the site prices with.
    pub pricing_policy: Policy,
    /// Jobs request their actual run times or their logged estimates.
    pub estimates: Estimates,
    /// Buyers accept only starts within this many hours of their submission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_within_hours: Option<f64>,
    /// The site.
    pub site: SiteSettings,
}

impl Default for PricingSettings {
    fn default() -> Self {
        PricingSettings {
            seed: 1,
            alpha: 0.0,
            share: 10.0,
            days: 30.0,
            pricing_policy: Policy::Conservative,
            estimates: Estimates::Exact,
            start_within_hours: None,
            site: SiteSettings { trace: "synthetic".into(), capacity: None, utilisation: None },
        }
    }
}

impl PricingSettings {
    /// The point these settings describe.
    pub fn resolve(&self) -> anyhow::Result<PricingPoint> {
        let start_within = match self.start_within_hours {
            Some(h) if h.is_finite() => Some((h * 3600.0).round() as i64),
            Some(h) => {
                return Err(crate::setting::InvalidSetting::new(
                    "pricing.start_within_hours",
                    h,
                    "must be a finite number of hours",
                )
                .into());
            }
            None => None,
        };
        let point = PricingPoint {
            seed: self.seed,
            alpha: self.alpha,
            share: self.share,
            days: self.days,
            pricing_policy: self.pricing_policy,
            estimates: self.estimates,
            start_within,
            site: self.site.spec(None),
        };
        point.validate()?;
        Ok(point)
    }
}

/// The canonical TOML text of a pricing point.
pub fn canonical(point: &PricingPoint) -> Result<String, Unserialisable> {
    canonical_toml(point)
}

/// A pricing point's stable id.
pub fn id(point: &PricingPoint) -> Result<PointId, Unserialisable> {
    canonical(point).map(|text| PointId::of(&text))
}

/// Runs one point; `experiment` names the config it came from.
pub fn run(point: &PricingPoint, budget: &Budget, experiment: Option<&str>) -> anyhow::Result<PricingOutput> {
    let started = Instant::now();
    let outcome = run_pricing(point, budget)?;
    let row = ProvisionPointRow {
        point_id: id(point)?.run_id,
        kind: "price",
        experiment: experiment.map(str::to_string),
        workflow: None,
        workflow_tasks: None,
        task_processors: None,
        sites: 1,
        traces: outcome.site.trace.clone(),
        target_load: point.site.utilisation,
        exact_estimates: point.estimates == Estimates::Exact,
        seed: point.seed,
        submissions: None,
        config: canonical(point)?,
        code_version: code_version(),
        wall_seconds: started.elapsed().as_secs_f64(),
        method: None,
        pricing: Some((point.share, point.alpha, point.pricing_policy.name())),
    };
    Ok(PricingOutput { row, load: point.site.utilisation, alpha: point.alpha, outcome })
}
