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

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::kind::provision::SiteSettings;
use anyhow::Context as _;
use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim_core::experiment::provenance::code_version;

use crate::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use crate::buyer::BuyerActor;
use crate::kind::provision::background::{first_scheduler, prepare_site};
use crate::kind::provision::point::SiteSpec;
use crate::outcome::{Harm, PricingOutcome, SiteSummary};
use crate::pricing::Policy;
use crate::site::SlotScheduler;
use crate::streams::RESERVATION_SHARE;
use crate::tables::GROUP;
use crate::tables::provision::ProvisionPointRow;
use crate::writer::pricing::PricingOutput;
use slasim_core::rng::stream;
use slasim_core::setting::{InvalidSetting, probability};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_core::units::{DAY, Time};
use slasim_single::workload::job::Job;
use slasim_single::workload::prepare::Estimates;

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
                return Err(slasim_core::setting::InvalidSetting::new(
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

/// One adaptive-pricing run (Ch. 5): a share of the jobs of a trace window buy
/// priced reservations, the rest queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PricingPoint {
    /// Seed (which jobs buy; the load copy).
    pub seed: u64,
    /// The buyers' trade-off factor α.
    pub alpha: f64,
    /// Percentage of the jobs that buy reservations (0–100).
    pub share: f64,
    /// The window: the first `days` days of the trace.
    pub days: f64,
    /// The scheduler the site prices with.
    pub pricing_policy: Policy,
    /// Jobs request their actual runtimes or their logged estimates.
    pub estimates: Estimates,
    /// Buyers accept only starts within this many seconds of their submission (None: any).
    pub start_within: Option<Time>,
    /// The site.
    pub site: SiteSpec,
}

impl PricingPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if !(0.0..=100.0).contains(&self.share) {
            return Err(InvalidSetting::new("pricing.share", self.share, "must be a percentage in [0, 100]"));
        }
        probability("pricing.alpha", self.alpha)?;
        slasim_core::setting::positive("pricing.days", self.days)?;
        if let Some(w) = self.start_within
            && w < 0
        {
            return Err(InvalidSetting::new(
                "pricing.start_within_hours",
                w as f64 / 3600.0,
                "must not be negative: a deadline before the earliest start",
            ));
        }
        if let Some(u) = self.site.utilisation {
            slasim_core::setting::positive("pricing.site.utilisation", u)?;
        }
        if self.site.capacity == Some(0) {
            return Err(InvalidSetting::new("pricing.site.capacity", 0, "must be at least 1"));
        }
        Ok(())
    }
}

/// Runs one pricing point.
pub fn run_pricing(point: &PricingPoint, budget: &Budget) -> anyhow::Result<PricingOutcome> {
    point.validate()?;
    let site = prepare_site(&point.site, point.estimates, point.seed)?;
    let first = site.jobs.first().map_or(0, |j| j.occurrence);
    let end = first + (point.days * DAY as f64) as Time;
    let mut rng = stream(point.seed, RESERVATION_SHARE, 0);
    let (mut buyers, mut queued) = (Vec::new(), Vec::new());
    for job in site.jobs.iter().filter(|j| j.occurrence < end) {
        let u: f64 = rand::RngExt::random(&mut rng);
        if u * 100.0 < point.share { buyers.push(*job) } else { queued.push(*job) }
    }
    for (i, j) in queued.iter_mut().enumerate() {
        j.id = i as u32;
    }
    let jobs = queued.len() + buyers.len();
    let run = |queued: Vec<Job>, buyer: Option<BuyerActor>| {
        let mut scheduler = first_scheduler(&site);
        scheduler.record_waits();
        let scenario = ProvisionScenario {
            sites: vec![ProvisionSite { scheduler, jobs: queued, sample: false }],
            provisioner: None,
            executor: None,
            buyer,
            horizon: Time::MAX,
        };
        simulate_provisioning(scenario)
    };
    let only_site =
        |sim: crate::bench::ProvisionSimulated| sim.sites.into_iter().next().context("the site produced no result");
    // The counterfactuals (the reservation requests absent, and queued best
    // effort instead) and the run itself are independent.
    let mut everyone: Vec<Job> = queued.clone();
    // Best-effort jobs keep their ids; the former buyers follow them.
    everyone.extend(buyers.iter().enumerate().map(|(k, j)| Job { id: (queued.len() + k) as u32, ..*j }));
    everyone.sort_by_key(|j| j.occurrence);
    let easy = point.pricing_policy == Policy::Easy;
    let runs = [(queued.clone(), None), (everyone, None), (queued.clone(), Some(buyers))];
    let mut done = budget
        .map(
            "pricing run",
            &runs,
            &mut (),
            || (),
            |_, (jobs, buyers)| {
                let buyer = buyers.clone().map(|b| BuyerActor::new(b, point.alpha, easy, point.start_within));
                run(jobs.clone(), buyer)
            },
        )?
        .into_iter();
    let mut next = || done.next().context("a pricing run produced no result");
    let absent = only_site(next()??)?;
    let queueing = only_site(next()??)?;
    let sim = next()??;
    let purchases = sim.purchases;
    let result = sim.sites.into_iter().next().context("the site produced no result")?;
    let be = queued.len() as u32;
    let area = |s: &SlotScheduler| -> Option<f64> {
        let w: Vec<&(u32, u32, Time)> = s.background_waits().iter().filter(|w| w.0 < be).collect();
        (w.len() == queued.len()).then(|| w.iter().map(|&&(_, p, wait)| f64::from(p) * wait as f64).sum())
    };
    let with = area(&result.scheduler);
    let harm = Harm {
        charged: purchases.iter().filter(|r| r.bought).map(|r| r.f).sum(),
        suffered: with.zip(area(&absent.scheduler)).map(|(a, b)| a - b),
        suffered_vs_queueing: with.zip(area(&queueing.scheduler)).map(|(a, b)| a - b),
        be_jobs: queued.len() as u64,
        be_wait_without: absent.scheduler.mean_background_wait(),
    };
    let summary = SiteSummary {
        trace: site.trace.clone(),
        capacity: site.capacity,
        jobs,
        copy_probability: site.copy_probability,
        offered: site.offered,
        achieved: result.scheduler.utilisation(),
    };
    Ok(PricingOutcome { site: summary, records: purchases, be_wait: result.scheduler.mean_background_wait(), harm })
}

/// A pricing config file: `[pricing]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
// The top-level keys are checked by the config reader before a kind reads
// its own (`Experiment::kind_of`): the common ones are not repeated here.
struct PricingFile {
    #[serde(default)]
    pricing: Option<PricingSettings>,
}

/// The pricing kind.
pub struct PricingKind;

/// The pricing kind.
pub static PRICING: PricingKind = PricingKind;

/// Its short axis names.
const AXES: &[Axis] = &[
    axis("alpha", "alpha", "the buyers' trade-off factor α"),
    axis("share", "share", "percentage of the jobs that buy reservations"),
    axis("days", "days", "the first DAYS days of the trace"),
    axis("pricing_policy", "pricing_policy", "the scheduler the site prices with"),
    axis("estimates", "estimates", "exact or logged"),
    axis("site", "site", "the site, e.g. [{ trace = \"CTC-SP2-1996-3.1-cln.swf.gz\", capacity = 430 }]"),
    axis("utilisation", "site.utilisation", "the site's target utilisation (0.88 = 88 %)"),
];

/// The pricing kind, as data.
static INFO: KindInfo = KindInfo {
    name: "pricing",
    described: "a pricing experiment ([pricing])",
    setting_of: "pricing",
    section: Some("pricing"),
    sections: &["pricing"],
    settings_in_section: true,
    axes: AXES,
    tables: &GROUP,
};

impl PointKind for PricingKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: PricingFile = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        let settings = config.pricing.unwrap_or_default();
        let base = PricingSettings { seed: file.seed_of("pricing", settings.seed), ..settings };
        Base::of(file, base, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let settings: PricingSettings = value.try_into().map_err(|e| sweep.unreadable(e))?;
        Ok(Point::new(settings.resolve().map_err(|e| sweep.invalid(e))?))
    }
}

// The pricing kind's points, stored as provisioning points.
impl AnyPoint for PricingPoint {
    fn kind(&self) -> &'static dyn PointKind {
        &PRICING
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical(self)
    }

    fn label(&self) -> String {
        format!("pricing at α = {}", self.alpha)
    }

    // Their traces are prepared per point (load scaling depends on the
    // point's seed); the default `load` only finds them.
    fn missing(&self) -> Vec<anyhow::Error> {
        self.site.trace.check().err().into_iter().collect()
    }

    fn run(
        &self,
        _inputs: &Inputs,
        budget: &Arc<Budget>,
        experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        Ok(Box::new(run(self, budget, experiment)?))
    }

    slasim_core::point_boilerplate!();
}

impl PointOutput for PricingOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        crate::writer::pricing::write_pricing(store, self)
    }
}
