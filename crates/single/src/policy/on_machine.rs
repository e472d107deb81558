//! SLA planning on a machine of unlike nodes: conservative backfilling that
//! books each job on specific nodes, in every resource, at its acceptance.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.1 ("Comprehensive
//! planning": nodes fixed at acceptance, held for the full estimate) and §6.3
//! (outcome rules), on the machine model of `slasim_machine` and the
//! [`MachinePlan`].
//!
//! Contract:
//! - Jobs are taken in occurrence order (then id). A job no node set can
//!   ever hold ([`Machine::check`]) is rejected `too-wide`, its reason kept
//!   ([`Decision::unfit`]).
//! - Else it is booked at its earliest window of its whole estimate that
//!   starts at or after its release and ends by its deadline, on the nodes
//!   the [`NodeChoice`] prefers; without one it is rejected `no-room`.
//! - A booking holds its nodes' share for the full estimate, whatever the
//!   job's real runtime; the job runs from its start for its runtime, and is
//!   killed at its estimate (a success: it received its estimate).
//! - No failures yet: every accepted job succeeds and earns its fee.

use std::sync::Arc;

use slasim_core::units::{JobId, Time};
use slasim_machine::{Machine, Unfit};

use crate::cluster::strategy::{Outcome, RejectReason};
use crate::plan::machine_plan::{MachinePlan, Placement, TooManyCards};
use crate::plan::node_choice::NodeChoice;
pub use crate::workload::job::MachineJob;
use crate::workload::job::NO_DEADLINE;

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The job's id.
    pub job: JobId,
    /// Where and when it was booked, if accepted.
    pub placement: Option<Placement>,
    /// The end of its execution, if it ran.
    pub end: Option<Time>,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it was rejected.
    pub reason: Option<RejectReason>,
    /// For a `too-wide` rejection, what no node can hold.
    pub unfit: Option<Unfit>,
    /// The fee earned or the penalty paid (negative).
    pub money: f64,
}

/// Plans `jobs` on `machine` by conservative backfilling with `choice`
/// (module contract); one decision per job, in the order given.
pub fn conservative_backfilling(
    machine: Arc<Machine>,
    jobs: &[MachineJob],
    choice: &dyn NodeChoice,
) -> Result<Vec<Decision>, TooManyCards> {
    let mut plan = MachinePlan::new(machine.clone())?;
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| (jobs[i].job.occurrence, jobs[i].job.id));
    let mut decisions: Vec<Option<Decision>> = vec![None; jobs.len()];
    for i in order {
        let MachineJob { job, request } = &jobs[i];
        let rejected = |reason, unfit| Decision {
            job: job.id,
            placement: None,
            end: None,
            outcome: Outcome::Rejected,
            reason: Some(reason),
            unfit,
            money: 0.0,
        };
        plan.forget_before(job.occurrence);
        if let Err(unfit) = machine.check(request) {
            decisions[i] = Some(rejected(RejectReason::TooWide, Some(unfit)));
            continue;
        }
        let latest = if job.deadline >= NO_DEADLINE { NO_DEADLINE } else { job.deadline - job.estimate };
        let placement =
            if latest < job.release { None } else { plan.earliest(request, job.release, job.estimate, latest, choice) };
        let Some(placement) = placement else {
            decisions[i] = Some(rejected(RejectReason::NoRoom, None));
            continue;
        };
        plan.book(job.id, request, &placement, placement.start + job.estimate);
        let end = placement.start + job.runtime.min(job.estimate);
        decisions[i] = Some(Decision {
            job: job.id,
            placement: Some(placement),
            end: Some(end),
            outcome: Outcome::Success,
            reason: None,
            unfit: None,
            money: job.fee,
        });
    }
    Ok(decisions.into_iter().flatten().collect())
}
