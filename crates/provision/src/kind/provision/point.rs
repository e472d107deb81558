//! A resolved provisioning point: its sites, workflow and method.
//!
//! Contract: a [`ProvisionPoint`] holds what its method reads and nothing
//! else ([`MethodSettings`]), checked by [`ProvisionPoint::validate`]. Its
//! canonical text still writes every setting of every method, those its
//! method does not read at their defaults, byte for byte as earlier versions
//! did: a point's id is that text's hash, stored in every store.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::moga::MogaConfig;
use crate::plan::HoleCharging;
use crate::pricing::Policy;
use crate::streams::WORKFLOWS;
use crate::workflow::{SyntheticWorkflow, Workflow, cybershake};
use slasim_core::rng::stream;
use slasim_core::setting::{InvalidSetting, probability};
use slasim_core::units::{DAY, Time};
use slasim_single::workload::WorkloadSource;
use slasim_single::workload::prepare::Estimates;

/// Which workflow is provisioned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum WorkflowSpec {
    /// The synthetic generator of §10.1.
    Synthetic(SyntheticWorkflow),
    /// CyberShake (Table 2).
    CyberShake,
    /// A workflow file.
    File(PathBuf),
}

impl WorkflowSpec {
    /// Builds the workflow (a synthetic one from the point's workflow stream).
    pub fn build(&self, seed: u64) -> anyhow::Result<Workflow> {
        Ok(match self {
            WorkflowSpec::Synthetic(g) => g.generate(&mut stream(seed, WORKFLOWS, 0))?,
            WorkflowSpec::CyberShake => cybershake(),
            WorkflowSpec::File(path) => Workflow::load(path)?,
        })
    }

    /// A short name for the store.
    pub fn name(&self) -> String {
        match self {
            WorkflowSpec::Synthetic(_) => "synthetic".to_string(),
            WorkflowSpec::CyberShake => "cybershake".to_string(),
            WorkflowSpec::File(p) => p.display().to_string(),
        }
    }
}

/// One site of a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSpec {
    /// Its background trace.
    pub trace: WorkloadSource,
    /// Raise its offered utilisation to this with a week-shifted copy (None:
    /// the trace as it is).
    pub utilisation: Option<f64>,
    /// Processors (None: the trace header's).
    pub capacity: Option<u32>,
}

/// The resolved settings of one provisioning point: what its method reads,
/// and nothing else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "Canonical", from = "Canonical")]
pub struct ProvisionPoint {
    /// Experiment seed.
    pub seed: u64,
    /// Background jobs request their actual runtimes (Ch. 3–4) or their logged estimates.
    pub estimates: Estimates,
    /// The sites, in order.
    pub sites: Vec<SiteSpec>,
    /// How the workflow is provisioned, with what that method reads.
    pub method: MethodSettings,
}

/// A provisioning method and the settings it reads.
#[derive(Debug, Clone, PartialEq)]
pub enum MethodSettings {
    /// From advertised slots with the MOGA (Ch. 4).
    Moga {
        /// The workflow and its submissions.
        workflow: WorkflowSettings,
        /// MOGA settings.
        moga: MogaConfig,
        /// Enact each distinct chosen plan in a fork (and check its makespan).
        enact: bool,
        /// How plans pay for holes (Table 1 by default).
        hole_charging: HoleCharging,
    },
    /// Task by task with adaptive pricing (Ch. 7, Fig. 51).
    Greedy {
        /// The workflow and its submissions.
        workflow: WorkflowSettings,
        /// The scheduler the sites price with.
        pricing_policy: Policy,
    },
    /// No workflow: the first site's slot statistics alone (Ch. 3).
    Slots,
}

/// What both workflow methods read.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkflowSettings {
    /// The workflow.
    pub workflow: WorkflowSpec,
    /// Trade-off factors picked for each submission.
    pub alphas: Vec<f64>,
    /// Submission instants.
    pub submissions: usize,
    /// How far a fork simulates past its instant, seconds.
    pub fork_window: Time,
}

impl MethodSettings {
    /// Its name.
    pub fn method(&self) -> Method {
        match self {
            MethodSettings::Moga { .. } => Method::Moga,
            MethodSettings::Greedy { .. } => Method::Greedy,
            MethodSettings::Slots => Method::Slots,
        }
    }

    /// The workflow it provisions (none for slot statistics).
    pub fn workflow(&self) -> Option<&WorkflowSettings> {
        match self {
            MethodSettings::Moga { workflow, .. } | MethodSettings::Greedy { workflow, .. } => Some(workflow),
            MethodSettings::Slots => None,
        }
    }
}

/// The default fork window: 30 days.
pub const FORK_WINDOW: Time = 30 * DAY;

/// The defaults of the settings a method may not read: what a point's
/// canonical text says for them (as every earlier version's did, so the
/// ids stay), and the defaults of `[provision]`.
pub const DEFAULT_PRICING_POLICY: Policy = Policy::Conservative;
/// See [`DEFAULT_PRICING_POLICY`].
pub const DEFAULT_SUBMISSIONS: usize = 50;
/// See [`DEFAULT_PRICING_POLICY`].
pub const DEFAULT_ENACT: bool = true;
/// See [`DEFAULT_PRICING_POLICY`].
pub const DEFAULT_HOLE_CHARGING: HoleCharging = HoleCharging::Whole;

/// A provisioning point as its canonical text writes it: every setting of
/// every method, those the method does not read at their defaults (slot
/// statistics: the CyberShake workflow and no α).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Canonical {
    method: Method,
    pricing_policy: Policy,
    seed: u64,
    estimates: Estimates,
    sites: Vec<SiteSpec>,
    workflow: WorkflowSpec,
    alphas: Vec<f64>,
    submissions: usize,
    moga: MogaConfig,
    enact: bool,
    fork_window: Time,
    hole_charging: HoleCharging,
}

impl From<ProvisionPoint> for Canonical {
    fn from(p: ProvisionPoint) -> Canonical {
        let unread = WorkflowSettings {
            workflow: WorkflowSpec::CyberShake,
            alphas: Vec::new(),
            submissions: DEFAULT_SUBMISSIONS,
            fork_window: FORK_WINDOW,
        };
        let method = p.method.method();
        let (workflow, pricing_policy, moga, enact, hole_charging) = match p.method {
            MethodSettings::Moga { workflow, moga, enact, hole_charging } => {
                (workflow, DEFAULT_PRICING_POLICY, moga, enact, hole_charging)
            }
            MethodSettings::Greedy { workflow, pricing_policy } => {
                (workflow, pricing_policy, MogaConfig::default(), DEFAULT_ENACT, DEFAULT_HOLE_CHARGING)
            }
            MethodSettings::Slots => {
                (unread, DEFAULT_PRICING_POLICY, MogaConfig::default(), DEFAULT_ENACT, DEFAULT_HOLE_CHARGING)
            }
        };
        Canonical {
            method,
            pricing_policy,
            seed: p.seed,
            estimates: p.estimates,
            sites: p.sites,
            workflow: workflow.workflow,
            alphas: workflow.alphas,
            submissions: workflow.submissions,
            moga,
            enact,
            fork_window: workflow.fork_window,
            hole_charging,
        }
    }
}

impl From<Canonical> for ProvisionPoint {
    fn from(c: Canonical) -> ProvisionPoint {
        let workflow = WorkflowSettings {
            workflow: c.workflow,
            alphas: c.alphas,
            submissions: c.submissions,
            fork_window: c.fork_window,
        };
        let method = match c.method {
            Method::Moga => {
                MethodSettings::Moga { workflow, moga: c.moga, enact: c.enact, hole_charging: c.hole_charging }
            }
            Method::Greedy => MethodSettings::Greedy { workflow, pricing_policy: c.pricing_policy },
            Method::Slots => MethodSettings::Slots,
        };
        ProvisionPoint { seed: c.seed, estimates: c.estimates, sites: c.sites, method }
    }
}

/// How a point provisions its workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// From advertised slots with the MOGA (Ch. 4).
    #[default]
    Moga,
    /// Task by task with adaptive pricing (Ch. 7, Fig. 51).
    Greedy,
    /// No workflow: the advertised-slot statistics of one site (Ch. 3).
    Slots,
}

impl Method {
    /// Every method with a one-line description.
    pub const ALL: [(Method, &'static str); 3] = [
        (Method::Moga, "the MOGA over the sites' advertised slots, every α from its archive (Ch. 4)"),
        (Method::Greedy, "task by task, each at the start its α-weighted price and wait make best (Ch. 7)"),
        (Method::Slots, "no workflow: the slots one site advertises over its whole trace (Ch. 3)"),
    ];

    /// Its name in configs and the store.
    pub fn name(self) -> &'static str {
        match self {
            Method::Moga => "moga",
            Method::Greedy => "greedy",
            Method::Slots => "slots",
        }
    }
}

impl ProvisionPoint {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.sites.is_empty() {
            return Err(InvalidSetting::new("provision.sites", 0, "must name at least one site"));
        }
        if matches!(self.method, MethodSettings::Slots) && self.sites.len() != 1 {
            return Err(InvalidSetting::new(
                "provision.sites",
                self.sites.len(),
                "method `slots` records one site: give one site per point (a `sites` axis over one-site lists)",
            ));
        }
        for site in &self.sites {
            if let Some(u) = site.utilisation {
                slasim_core::setting::positive("provision.sites.utilisation", u)?;
            }
            if site.capacity == Some(0) {
                return Err(InvalidSetting::new("provision.sites.capacity", 0, "must be at least 1"));
            }
        }
        let Some(workflow) = self.method.workflow() else { return Ok(()) };
        for &a in &workflow.alphas {
            probability("provision.alphas", a)?;
        }
        if workflow.submissions == 0 {
            return Err(InvalidSetting::new("provision.submissions", 0, "must be at least 1"));
        }
        if workflow.fork_window <= 0 {
            return Err(InvalidSetting::new("provision.fork_window_days", workflow.fork_window, "must be positive"));
        }
        let MethodSettings::Moga { moga, .. } = &self.method else { return Ok(()) };
        moga.validate().map_err(|e| {
            let setting = match e.setting {
                "moga.population" => "provision.moga.population",
                "moga.sigma_share" => "provision.moga.sigma_share",
                other => other,
            };
            e.renamed(setting)
        })
    }

    /// The method and pricing policy as the store names them (`greedy-easy`
    /// for greedy provisioning priced with EASY).
    pub fn method_name(&self) -> &'static str {
        match &self.method {
            MethodSettings::Greedy { pricing_policy: Policy::Easy, .. } => "greedy-easy",
            m => m.method().name(),
        }
    }
}
