//! The order of one instant: the event classes of the cluster, Grid and
//! provisioning benches.
//!
//! Reference: the overbooking dissertation (Ch. 6, the simulation's events;
//! the order at equal times is left open there and fixed here); the
//! co-reservation thesis (a co-reservation request is processed
//! instantaneously at its submit time, after the jobs of that instant).
//!
//! Contract: events at one time are handled class by class, lower first:
//! negotiation messages, job ends, node repairs and the ends of nodes'
//! power transitions, node failures, wake-ups
//! (starts), submissions, co-reservation and purchase requests, meter
//! readings. **A job
//! starts only in the wake-up class or later**: a model that, handling an
//! end, a repair or a failure, wants a job to start now asks for a wake-up at
//! now. So every start at `t` sees every end, repair and failure at `t`: a
//! job never starts on a node whose failure is due at `t`, and a failure at
//! `t` never stops an execution begun at `t`. A job ending at `t` on a node
//! that fails at `t` has ended: the failure finds the node idle. The cluster
//! model refuses a start made while it handles an end, repair or failure
//! with [`slasim_core::sim::kernel::SimError::Contract`].

use crate::workload::job::Job;
use slasim_core::sim::client::Submission;
use slasim_core::sim::kernel::Class;
use slasim_core::units::Time;

/// A message between models in the middle of a negotiation (broker ↔
/// cluster, buyer ↔ site): before anything else due at its instant, so a
/// negotiation is atomic at the instant it was sent.
pub const NEGOTIATION: Class = Class(0);
/// A job completes or is killed: frees nodes first.
pub const JOB_END: Class = Class(1);
/// A node comes back (a repair, or the end of a switch on or off).
pub const NODE_REPAIR: Class = Class(2);
/// A node goes down.
pub const NODE_FAILURE: Class = Class(3);
/// Scheduler wake-ups: every start decision of the instant.
pub const JOB_START: Class = Class(4);
/// Job occurrence (submission).
pub const OCCURRENCE: Class = Class(5);
/// A co-reservation or purchase request: after the jobs submitted at the same instant.
pub const REQUEST: Class = Class(6);
/// A meter reading (a cluster's node states after a change): after
/// everything else at its instant, which it only observes.
pub const METER: Class = Class(7);

impl Submission for Job {
    const CLASS: Class = OCCURRENCE;
    fn submitted_at(&self) -> Time {
        self.occurrence
    }
}
