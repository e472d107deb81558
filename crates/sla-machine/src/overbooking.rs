//! Overbooking on the machine (`[sla_machine.overbooking]`): the settings
//! a strategy that overbooks reads, and what it is given at run time.
//!
//! Contract:
//! - *Settings*: `acceptance` (`pof`, default, or `risk`), `pof_max` (0.1),
//!   `security_factor` (the risk test's; default the strategy's: 2 for
//!   heuristic and 4 for comprehensive overbooking), and `pdf`, the runtime statistics as the single
//!   cluster's `[overbooking.pdf]` takes them, learned once and static
//!   (`update = "online"` and `half_life_days` are refused). A strategy that does not overbook
//!   reads none of them, and its point does not name them.
//! - *History*: the statistics are learned from the point's workload, the
//!   jobs of every battery but the point's own (`pdf.learn_from =
//!   "history"`, default), or from the battery itself (`"input"`: the
//!   oracle). The dissertation learns from the log's jobs before the
//!   simulated ones (spec §2.3); a battery here has the others of its
//!   workload as its history, so its first battery has one too. With one
//!   battery there is no history: a located error.
//! - *Reliability*: each node's availability and survival under the point's
//!   failure law (`failures`), 1 when nodes do not fail.

use std::sync::Arc;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use slasim_core::setting::{InvalidSetting, positive, probability};
use slasim_single::policy::on_machine::Overbooks;
use slasim_single::policy::on_machine::overbooking::MachineOverbooking;
use slasim_single::policy::overbooking::{Acceptance, AcceptanceKind};
use slasim_single::stats::aged::PdfUpdate;
use slasim_single::stats::pdf::{PdfConfig, RuntimeModel};
use slasim_single::stats::pos::Reliability;
use slasim_single::workload::failures::FailureSource;
use slasim_single::workload::job::Job;

/// `[sla_machine.overbooking]` (module contract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OverbookingSettings {
    /// The acceptance test of overbooked windows.
    pub acceptance: AcceptanceKind,
    /// PoF_max of the PoF test.
    pub pof_max: f64,
    /// The risk test's security factor (none: the strategy's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_factor: Option<f64>,
    /// The runtime statistics.
    pub pdf: PdfConfig,
}

impl Default for OverbookingSettings {
    fn default() -> Self {
        OverbookingSettings {
            acceptance: AcceptanceKind::Pof,
            pof_max: 0.1,
            security_factor: None,
            pdf: PdfConfig::default(),
        }
    }
}

impl OverbookingSettings {
    /// Checks every setting, each named by its key.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        probability("pof_max", self.pof_max).map_err(|e| e.renamed("sla_machine.overbooking.pof_max"))?;
        if let Some(sf) = self.security_factor {
            positive("security_factor", sf).map_err(|e| e.renamed("sla_machine.overbooking.security_factor"))?;
        }
        if self.pdf.update != PdfUpdate::Static {
            let why = "the statistics of a machine's planners are learned once: set \"static\" (the default)";
            return Err(InvalidSetting::new("sla_machine.overbooking.pdf.update", "online", why));
        }
        if let Some(days) = self.pdf.half_life_days {
            let why = "ages online observations, which the statistics of a machine's planners do not learn: unset it";
            return Err(InvalidSetting::new("sla_machine.overbooking.pdf.half_life_days", days, why));
        }
        self.pdf.validate().map_err(|e| {
            let key = match e.setting {
                "step_seconds" => "sla_machine.overbooking.pdf.step_seconds",
                "runtime_bounds" => "sla_machine.overbooking.pdf.runtime_bounds",
                "resource_bounds" => "sla_machine.overbooking.pdf.resource_bounds",
                _ => "sla_machine.overbooking.pdf",
            };
            e.renamed(key)
        })
    }

    /// What a strategy that `overbooks` reads, with statistics learned from `history`
    /// (module contract) and checked against the battery's `jobs`, and each
    /// node's reliability under `failures`.
    pub fn build(
        &self,
        overbooks: Overbooks,
        history: &[Job],
        jobs: &[Job],
        failures: &FailureSource,
    ) -> anyhow::Result<MachineOverbooking> {
        let model = RuntimeModel::learn(history, &self.pdf)
            .map_err(|e| e.renamed("sla_machine.overbooking.pdf"))
            .context("learning the runtime statistics of the point's other batteries")?;
        model.check_jobs(jobs).map_err(|e| e.renamed("sla_machine.overbooking.pdf"))?;
        let reliability = match failures.laws()? {
            Some((up, repair)) => Reliability::new(1.0 / up.mean(), 1.0 / repair.mean(), up),
            None => Reliability::never_failing(),
        };
        Ok(MachineOverbooking {
            acceptance: Acceptance::new(self.acceptance, self.pof_max, self.security_factor, overbooks.security_factor),
            model: Arc::new(model),
            reliability,
        })
    }
}
