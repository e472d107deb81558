//! Admission by an outside agent over the comprehensive plan core: at each
//! arrival the core lists the candidate bookings with their PoS, and an
//! [`Admission`] (a learning agent, say) picks one or rejects the job.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1 (comprehensive PoS),
//! §5.4 (placements), §6.1 (the PoF-threshold acceptance this replaces).
//!
//! Contract:
//! - Candidates, in this order: the overbooked candidates of comprehensive
//!   overbooking (`overbooking.rs`) from the search origin, in start order,
//!   that start before the earliest full booking — each on the nodes free
//!   longest at its start, its slot ending at min(n-th longest free-until,
//!   deadline), shorter than the estimate — then the full booking, if one
//!   fits before the deadline. At most [`Admission::slots`] in all; when they
//!   are more, the full booking keeps its place and the latest overbooked
//!   ones are left out. No acceptance test filters them: the agent sees the
//!   PoS of every one.
//! - A candidate's PoS is the comprehensive PoS of comprehensive
//!   overbooking (P_available · P_executable · P_success; a full booking's
//!   P_executable from its predecessors' end CDFs too), uncalibrated.
//! - The booking picked is made exactly as comprehensive overbooking makes
//!   it (same nodes, end CDF, start, kill limit); a rejected job is stored
//!   with reason `scheduler`. Everything after acceptance (early starts,
//!   kills, failures, restarts) is comprehensive overbooking's.
//! - Picking, in start order, the first overbooked candidate that passes the
//!   point's acceptance test, else the full booking, else rejecting, is
//!   comprehensive overbooking with first-fit placement, decision for
//!   decision (while the candidates fit in the slots).
//! - An admission that answers [`Answer::Later`] is reached, between two
//!   steps of the simulation, as the type it was built with
//!   ([`Admitted::admission`]): its caller takes the arrival from it and
//!   hands it the answer by plain calls.

use std::any::Any;

use crate::cluster::power::PowerState;
use crate::cluster::strategy::{Cluster, Strategy};
use crate::plan::profile::AvailabilityProfile;
use crate::policy::comprehensive::{Choice, Comprehensive, Rule};
use crate::workload::job::Job;
use slasim_core::sim::kernel::SimError;
use slasim_core::units::Time;
use slasim_core::units::{JobId, NodeId};

/// A booking the agent may pick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Slot start (the planned start).
    pub start: Time,
    /// Slot end: the kill limit.
    pub end: Time,
    /// Predicted probability of success.
    pub pos: f64,
    /// Shorter than the estimate.
    pub overbooked: bool,
}

/// An answer to an arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The index of a candidate (one out of range rejects), or `None` to reject.
    Now(Option<usize>),
    /// The simulation's caller decides: the cluster suspends (the kernel
    /// returns to the caller) and [`Admission::answer`] is asked when it
    /// resumes, at the same instant.
    Later,
}

/// Who decides each arrival. Called at the arrival's simulated time;
/// `cluster` tells the outcomes of earlier jobs.
pub trait Admission: AsAny + Send {
    /// Most candidates offered at once (at least 1).
    fn slots(&self) -> usize;
    /// Picks among `candidates` for `job`, now or later.
    fn admit(&mut self, cluster: &dyn Cluster, job: &Job, candidates: &[Candidate]) -> Answer;
    /// The answer to the arrival put off with [`Answer::Later`], once the
    /// simulation resumes (`None` rejects).
    fn answer(&mut self) -> Option<usize> {
        None
    }
}

/// A type seen as [`Any`], so that an [`Admission`] is found again as the
/// type it was built with ([`Admitted::admission`]); every `'static` type is one.
pub trait AsAny: Any {
    /// Itself, as `Any`.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Comprehensive overbooking's candidates, chosen by an [`Admission`].
pub struct AgentAdmitted;

impl Rule for AgentAdmitted {
    const RELEASES_EARLY: bool = true;
    const STORES_END_CDF: bool = true;

    fn pick(
        core: &mut Comprehensive<Self>,
        c: &dyn Cluster,
        j: &Job,
        from: Time,
        full: Option<Choice>,
    ) -> (Option<Choice>, bool) {
        let Some(mut admission) = core.admission.take() else {
            // Nobody to ask: a defect of whoever built the strategy.
            core.declined = true;
            return (None, false);
        };
        let slots = admission.slots().max(1);
        let overbooked_slots = if full.is_some() { slots - 1 } else { slots };
        let mut candidates = std::mem::take(&mut core.candidates);
        candidates.clear();
        let limit = full.map_or(j.deadline, |f| f.start);
        let mut s = from;
        while s < limit && candidates.len() < overbooked_slots {
            if let Some(end) = core.overbooked_slot(j, s, |_, _| true) {
                let pos = core.comprehensive_pos(c, j, s, end, false);
                candidates.push(Candidate { start: s, end, pos, overbooked: true });
            }
            match core.plan.ends_from(s + 1).next() {
                Some(next) => s = next,
                None => break,
            }
        }
        if let Some(f) = full {
            core.chosen.clear();
            core.chosen.extend_from_slice(&core.full_nodes);
            let pos = core.comprehensive_pos(c, j, f.start, f.end, false);
            candidates.push(Candidate { start: f.start, end: f.end, pos, overbooked: false });
        }
        let answer = admission.admit(c, j, &candidates);
        core.admission = Some(admission);
        core.candidates = candidates;
        match answer {
            Answer::Now(picked) => Self::book_picked(core, c, j, full, picked),
            Answer::Later => {
                core.deferred = Some((j.id, full));
                (None, false)
            }
        }
    }
}

impl AgentAdmitted {
    /// The booking of candidate `picked` (rejected: `None` or out of range).
    fn book_picked(
        core: &mut Comprehensive<Self>,
        c: &dyn Cluster,
        j: &Job,
        full: Option<Choice>,
        picked: Option<usize>,
    ) -> (Option<Choice>, bool) {
        let picked = picked.and_then(|i| core.candidates.get(i).copied());
        let choice = match picked {
            None => {
                core.declined = true;
                None
            }
            Some(k) if !k.overbooked => full,
            Some(k) => {
                // Its nodes and end CDF again, where the core books from.
                let _ = core.overbooked_slot(j, k.start, |_, _| true);
                let pos = core.pos_of(c, j, k.start, k.end, true, false).unwrap_or(k.pos);
                core.best_nodes.clear();
                core.best_nodes.extend_from_slice(&core.chosen);
                std::mem::swap(&mut core.best_cdf, &mut core.cdf_scratch);
                Some(Choice { start: k.start, end: k.end, planned: k.start, pos, overbooked: true })
            }
        };
        (choice, false)
    }
}

/// Comprehensive overbooking whose bookings an [`Admission`] picks: the
/// strategy that may suspend for the simulation's caller and resume with
/// its answer. A type of its own, so that the planning rules that never
/// defer carry no resuming code.
pub struct Admitted(Comprehensive<AgentAdmitted>);

impl Admitted {
    /// `core`, its bookings picked by `admission`.
    pub fn new(core: Comprehensive<AgentAdmitted>, admission: Box<dyn Admission>) -> Admitted {
        Admitted(core.admitted_by(admission))
    }

    /// The admission that picks its bookings, if it is an `A`: its caller
    /// reaches it there between two steps of the simulation.
    pub fn admission<A: Admission>(&mut self) -> Option<&mut A> {
        self.0.admission.as_deref_mut().and_then(|a| a.as_any_mut().downcast_mut())
    }
}

impl Strategy for Admitted {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.0.submit(c, job);
    }

    fn resume(&mut self, c: &mut dyn Cluster) {
        let core = &mut self.0;
        let Some((job, full)) = core.deferred.take() else {
            c.defect("comprehensive planning was resumed with no decision pending");
            return;
        };
        let j = *c.job(job);
        let picked = core.admission.as_mut().and_then(|a| a.answer());
        let choice = AgentAdmitted::book_picked(core, c, &j, full, picked);
        let choice = core.take_nodes(choice);
        core.book_choice(c, job, &j, choice);
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        self.0.wake(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.0.job_ended(c, job);
    }

    fn node_failed(&mut self, c: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        self.0.node_failed(c, node, victim);
    }

    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        self.0.node_repaired(c, node);
    }

    fn begin(&mut self, jobs: &[Job]) -> Result<(), SimError> {
        self.0.begin(jobs)
    }

    fn error(&self) -> Option<SimError> {
        self.0.error()
    }

    fn power_changed(&mut self, c: &mut dyn Cluster, node: NodeId, state: PowerState) {
        self.0.power_changed(c, node, state);
    }

    fn planned_profile(&self) -> Option<&AvailabilityProfile> {
        self.0.planned_profile()
    }
}
