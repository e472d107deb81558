//! The transport seam of the `batsim` strategy: where its events go and its
//! decisions come from.
//!
//! Contract:
//! - The strategy (`super::Batsim`) owns every check and every effect: job
//!   states, batching an instant's events into one exchange, checking each
//!   decision, applying it through the cluster interface, the "would never be
//!   called again" check, and the errors that name the decision, job and
//!   simulated time. A [`Scheduler`] only carries events to a scheduler and
//!   its answers back as [`Decision`]s; it checks nothing a decision says.
//! - [`Scheduler::start`] is called once, before the first exchange, with the
//!   workload every later event refers to. [`Scheduler::exchange`] sends the
//!   events of one instant (never empty) and appends the scheduler's
//!   decisions, in its order, to `decisions` (given empty). When the answer is
//!   partly unreadable it returns an error after appending the decisions read
//!   before the fault: the strategy applies those first, so the first fault
//!   in the scheduler's order is the one reported. [`Scheduler::stop`] is
//!   called once, when the run ends or fails; nothing is exchanged after it.
//! - The strategy makes one dynamic call per exchange (not per event or
//!   decision): a transport is free to batch.

use crate::policy::batsim::event::{Event, Workload};
use crate::policy::batsim::protocol::Decision;
use slasim_core::units::Time;

/// A scheduler the `batsim` strategy exchanges events and decisions with.
pub trait Scheduler: Send {
    /// What the errors call it ("external scheduler", "Python scheduler").
    fn party(&self) -> &str {
        "external scheduler"
    }

    /// Connects, before the first exchange.
    fn start(&mut self, workload: &Workload) -> Result<(), String>;

    /// Sends the events of instant `now` and appends the answer's decisions.
    fn exchange(
        &mut self,
        workload: &Workload,
        now: Time,
        events: &[Event],
        decisions: &mut Vec<Decision>,
    ) -> Result<(), String>;

    /// Disconnects: `finished` after SIMULATION_ENDS (a started process gets
    /// time to exit by itself), else on a failure.
    fn stop(&mut self, finished: bool);

    /// Exchanges so far.
    fn exchanges(&self) -> u64;
}
