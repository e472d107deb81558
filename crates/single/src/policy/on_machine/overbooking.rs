//! The acceptance of an overbooked window on a machine of unlike nodes: the
//! heuristic probability of success and the acceptance test.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.2 (heuristic PoS:
//! P_available(n) · CDF_j(⌊100·min(x, l)/x⌋) · P_success(min(x, l), n)),
//! §4 (the PoF and risk tests, applied only to windows shorter than the
//! estimate), §2.1–2.3 (the job's percent PDF, learned from history).
//!
//! Contract:
//! - The PoS of a window of `l` seconds for a job of estimate `x` on `n`
//!   nodes is [`pos::heuristic`]'s: the nodes' availability and survival are
//!   each node's under the machine's failure law (the same law on every
//!   node, so the product over the job's nodes), or 1 on a machine whose
//!   nodes never fail.
//! - [`MachineOverbooking::shortest`] is a lower bound on the allotments the
//!   test can pass: below it, even a survival of 1 leaves the PoS under the
//!   test's threshold. Searches skip shorter windows; nothing else reads it.

use std::sync::Arc;

use slasim_core::units::Time;

use crate::policy::overbooking::Acceptance;
use crate::stats::pdf::RuntimeModel;
use crate::stats::pos::{self, Reliability};
use crate::workload::job::Job;

/// What a strategy that overbooks on the machine reads (module contract).
#[derive(Debug, Clone)]
pub struct MachineOverbooking {
    /// The acceptance test of overbooked windows.
    pub acceptance: Acceptance,
    /// The runtime statistics, learned from history.
    pub model: Arc<RuntimeModel>,
    /// Each node's availability and survival.
    pub reliability: Reliability,
}

impl MachineOverbooking {
    /// The PoS of `job`, asking `nodes` nodes, in a window of `allotment`.
    pub fn pos(&self, job: &Job, nodes: u32, allotment: Time) -> f64 {
        pos::heuristic(&self.reliability, self.model.pdf(job), job.estimate, allotment, nodes).value()
    }

    /// Whether a window of `allotment` (shorter than the estimate) passes
    /// the acceptance test.
    pub fn passes(&self, job: &Job, nodes: u32, allotment: Time) -> bool {
        allotment > 0 && self.acceptance.accepts(self.pos(job, nodes, allotment), job.fee, job.penalty)
    }

    /// The shortest allotment the test may pass (module contract); `None`
    /// when no window shorter than the estimate can pass.
    pub fn shortest(&self, job: &Job, nodes: u32) -> Option<Time> {
        let pdf = self.model.pdf(job);
        let available = self.reliability.available(nodes);
        let x = job.estimate;
        // Allotments of percent q are those with ⌊100·l/x⌋ = q.
        (0..100usize)
            .find(|&q| self.acceptance.accepts(available * pdf.cdf(q), job.fee, job.penalty))
            .map(|q| ((q as Time * x + 99) / 100).max(1))
            .filter(|&l| l < x)
    }
}
