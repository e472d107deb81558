//! SLA terms: how a prepared job's deadline, fee and penalty follow from
//! its record (preparation step 6, [`super::prepare`]).
//!
//! Contract:
//! - A rule is registered by name in [`SLA_TERMS`], one file each; a config
//!   names it as `sla_terms` in the preparation settings (default
//!   `uniform`, left out of the canonical text so existing ids stay).
//! - A rule sees the job's occurrence, estimate, node count and QoS class
//!   (the name the trace's header gives its queue, when that name is a QoS
//!   class: a classic log's queues are none), and the settings'
//!   `deadline_factor` and `penalty_ratio`. It gives the
//!   deadline ([`NO_DEADLINE`] for none), the fee and the penalty.

use slasim_core::experiment::registry::{Entries, Named};
use slasim_core::units::Time;

use crate::workload::job::Job;
pub use crate::workload::job::NO_DEADLINE;

mod qos_classes;
mod uniform;

pub use qos_classes::{CLASS_TERMS, ClassTerms};

/// What a rule reads of a job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlaInput {
    /// o: the occurrence (submit) time after scaling.
    pub occurrence: Time,
    /// x: the estimate.
    pub estimate: Time,
    /// n: nodes (in the preparation's unit).
    pub nodes: u32,
    /// Its QoS class: the name the trace's `Queue:` header lines give its
    /// queue, when that name is one of [`slasim_data::trace::gpu::QOS_QUEUES`];
    /// `None` for every job of a classic log.
    pub qos_class: Option<&'static str>,
    /// `deadline_factor` of the settings.
    pub deadline_factor: f64,
    /// `penalty_ratio` of the settings.
    pub penalty_ratio: f64,
}

/// A job's SLA terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlaTerms {
    /// d: the latest allowed end.
    pub deadline: Time,
    /// The fee paid when the deadline is met.
    pub fee: f64,
    /// The penalty paid when it is missed.
    pub penalty: f64,
}

/// A registered rule.
pub struct SlaTermsRule {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// One line for `slasim list sla-terms`.
    pub description: &'static str,
    /// The terms of one job.
    pub terms: fn(&SlaInput) -> SlaTerms,
}

impl SlaTermsRule {
    /// Gives `job` the terms of this rule, seeing it as `nodes` of QoS class
    /// `qos_class`, with the settings' `deadline_factor` and
    /// `penalty_ratio`.
    pub fn set_terms(
        &self,
        job: &mut Job,
        nodes: u32,
        qos_class: Option<&'static str>,
        deadline_factor: f64,
        penalty_ratio: f64,
    ) {
        let terms = (self.terms)(&SlaInput {
            occurrence: job.occurrence,
            estimate: job.estimate,
            nodes,
            qos_class,
            deadline_factor,
            penalty_ratio,
        });
        job.deadline = terms.deadline;
        job.fee = terms.fee;
        job.penalty = terms.penalty;
    }
}

impl Named for SlaTermsRule {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The SLA terms rules a config can name, built-in ones first.
pub enum SlaTermsRules {}

impl Entries for SlaTermsRules {
    type Entry = SlaTermsRule;
    const WHAT: &'static str = "SLA terms rule";
    fn builtin() -> Vec<&'static SlaTermsRule> {
        static BUILTIN: [SlaTermsRule; 2] = [uniform::UNIFORM, qos_classes::QOS_CLASSES];
        BUILTIN.iter().collect()
    }
}

/// The default rule's name.
pub const DEFAULT: &str = uniform::UNIFORM.name;

/// d = o + factor · x, or none for an infinite factor.
fn deadline(occurrence: Time, estimate: Time, factor: f64) -> Time {
    if factor.is_infinite() { NO_DEADLINE } else { occurrence + (factor * estimate as f64).round() as Time }
}
