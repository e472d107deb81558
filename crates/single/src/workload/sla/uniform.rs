//! `uniform`: every job has the same terms, the dissertation's rule
//! (`overbooking-dissertation-spec.md` §7.4): d = o + deadline_factor·x,
//! fee = n·x node-hours, penalty = penalty_ratio · fee.

use super::{SlaInput, SlaTerms, SlaTermsRule, deadline};
use crate::workload::job::node_hours;

fn terms(j: &SlaInput) -> SlaTerms {
    let fee = node_hours(j.nodes, j.estimate);
    SlaTerms { deadline: deadline(j.occurrence, j.estimate, j.deadline_factor), fee, penalty: j.penalty_ratio * fee }
}

/// Its registration.
pub const UNIFORM: SlaTermsRule = SlaTermsRule {
    name: "uniform",
    description: "every job: d = o + deadline_factor·x, fee = n·x node-hours, penalty = penalty_ratio·fee",
    terms,
};
