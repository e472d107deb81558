//! A resolved provisioning point: its sites, workflow and method.
//!
//! Contract: a [`ProvisionPoint`] is what a provisioning run reads, checked
//! by [`ProvisionPoint::validate`]; its canonical text is its id.
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::provision::moga::MogaConfig;
use crate::provision::plan::HoleCharging;
use crate::provision::pricing::Policy;
use crate::provision::workflow::{SyntheticWorkflow, Workflow, cybershake};
use crate::rng::{Stream, stream};
use crate::setting::{InvalidSetting, probability};
use crate::units::Time;
use crate::workload::WorkloadSource;
use crate::workload::prepare::Estimates;

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
            WorkflowSpec::Synthetic(g) => g.generate(&mut stream(seed, Stream::Workflows, 0))?,
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

/// The resolved settings of one provisioning point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvisionPoint {
    /// How the workflow is provisioned, or `slots` for the first site's slot
    /// statistics alone.
    pub method: Method,
    /// Greedy provisioning: the scheduler the sites price with.
    pub pricing_policy: Policy,
    /// Experiment seed.
    pub seed: u64,
    /// Background jobs request their actual runtimes (Ch. 3–4) or their logged estimates.
    pub estimates: Estimates,
    /// The sites, in order.
    pub sites: Vec<SiteSpec>,
    /// The workflow.
    pub workflow: WorkflowSpec,
    /// Trade-off factors picked from each archive.
    pub alphas: Vec<f64>,
    /// Submission instants.
    pub submissions: usize,
    /// MOGA settings.
    pub moga: MogaConfig,
    /// Enact each distinct chosen plan in a fork (and check its makespan).
    pub enact: bool,
    /// How far a fork simulates past its instant, seconds.
    pub fork_window: Time,
    /// How plans pay for holes (Table 1 by default).
    pub hole_charging: HoleCharging,
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
        if self.method == Method::Slots && self.sites.len() != 1 {
            return Err(InvalidSetting::new(
                "provision.sites",
                self.sites.len(),
                "method `slots` records one site: give one site per point (a `sites` axis over one-site lists)",
            ));
        }
        for site in &self.sites {
            if let Some(u) = site.utilisation {
                crate::setting::positive("provision.sites.utilisation", u)?;
            }
            if site.capacity == Some(0) {
                return Err(InvalidSetting::new("provision.sites.capacity", 0, "must be at least 1"));
            }
        }
        if self.method == Method::Slots {
            return Ok(());
        }
        for &a in &self.alphas {
            probability("provision.alphas", a)?;
        }
        if self.submissions == 0 {
            return Err(InvalidSetting::new("provision.submissions", 0, "must be at least 1"));
        }
        if self.fork_window <= 0 {
            return Err(InvalidSetting::new("provision.fork_window_days", self.fork_window, "must be positive"));
        }
        self.moga.validate().map_err(|e| {
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
        match (self.method, self.pricing_policy) {
            (Method::Greedy, Policy::Easy) => "greedy-easy",
            (m, _) => m.name(),
        }
    }
}
