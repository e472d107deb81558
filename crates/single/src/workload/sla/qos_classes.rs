//! `qos-classes`: a job's terms follow its QoS class, the name the trace's
//! `Queue:` header lines give its queue (the GPU-era readers name queues 1 LS,
//! 2 BE, 3 Burstable, 4 Guaranteed; [`slasim_data::trace::gpu::QOS_QUEUES`]).
//!
//! The rule (documented on the "GPU-era traces" page): a class that is
//! promised more pays more and is owed more when the promise breaks.
//! Latency-sensitive jobs (Alibaba's LS) get the tightest deadline and the
//! highest fee and penalty; Kubernetes' Guaranteed class, whose requests are
//! reserved, comes next; Burstable takes the settings' own terms, as the
//! `uniform` rule does; best-effort jobs (BE) have no deadline, pay half and
//! are owed nothing. A job without a class is treated as Burstable: a
//! classic log's queues (CTC-SP2's LoadLeveler classes, SDSC's `express`,
//! `normal`, …) are no QoS class, so its jobs get the `uniform` terms.
//!
//! Sources for the classes: Weng et al., "Beware of Fragmentation", USENIX
//! ATC 2023, §2 (Alibaba's LS and BE pods); Kubernetes, "Configure Quality of
//! Service for Pods" (Guaranteed, Burstable, BestEffort).

use super::{SlaInput, SlaTerms, SlaTermsRule, deadline};
use crate::workload::job::node_hours;

/// One class's terms, relative to n·x node-hours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassTerms {
    /// The class name as the trace writes it.
    pub class: &'static str,
    /// d = o + factor·x; `None`: the settings' `deadline_factor`.
    pub deadline_factor: Option<f64>,
    /// fee = this · n·x.
    pub fee_per_node_hour: f64,
    /// penalty = this · fee; `None`: the settings' `penalty_ratio`.
    pub penalty_ratio: Option<f64>,
}

/// The classes, in the GPU-era readers' queue order 1..=4.
pub const CLASS_TERMS: [ClassTerms; 4] = [
    ClassTerms { class: "LS", deadline_factor: Some(1.25), fee_per_node_hour: 2.0, penalty_ratio: Some(2.0) },
    ClassTerms { class: "BE", deadline_factor: Some(f64::INFINITY), fee_per_node_hour: 0.5, penalty_ratio: Some(0.0) },
    ClassTerms { class: "Burstable", deadline_factor: None, fee_per_node_hour: 1.0, penalty_ratio: None },
    ClassTerms { class: "Guaranteed", deadline_factor: Some(1.5), fee_per_node_hour: 1.5, penalty_ratio: Some(1.0) },
];

fn terms(j: &SlaInput) -> SlaTerms {
    let class = j.qos_class.and_then(|name| CLASS_TERMS.iter().find(|c| c.class == name)).unwrap_or(&CLASS_TERMS[2]);
    let fee = class.fee_per_node_hour * node_hours(j.nodes, j.estimate);
    SlaTerms {
        deadline: deadline(j.occurrence, j.estimate, class.deadline_factor.unwrap_or(j.deadline_factor)),
        fee,
        penalty: class.penalty_ratio.unwrap_or(j.penalty_ratio) * fee,
    }
}

/// Its registration.
pub const QOS_CLASSES: SlaTermsRule = SlaTermsRule {
    name: "qos-classes",
    description: "terms by QoS class (LS, BE, Burstable, Guaranteed, as the trace's header names its queues): tighter deadlines, higher fees and penalties for the classes promised more; a job without a class as under uniform",
    terms,
};
