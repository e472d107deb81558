//! Advance reservations of CPUs in a local scheduler: the scheduler side of a
//! Grid cluster's local reservation service.
//!
//! Contract: a [`ReservationService`] keeps a reservation table (running jobs
//! held to start + estimate, accepted [`Block`]s) that a status query reads
//! without changing it, and reserves or cancels blocks through the cluster
//! it plans for. A [`ReservingStrategy`] is a strategy that is also one: what
//! a Grid cluster's local scheduler must be. The cluster knows nothing of
//! it; the Grid attaches the service from outside (`crate::grid::lrs`).
//!
//! Reference: `coreservation-thesis-spec.md` §4.1, A5, A16, A31.

use crate::cluster::strategy::{Cluster, Strategy};
use slasim_core::units::Time;

/// An accepted advance reservation of CPUs: a Grid sub-reservation, a block
/// in the local plan that no job may overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// First reserved instant.
    pub start: Time,
    /// End (exclusive).
    pub end: Time,
    /// CPUs held.
    pub cpus: u32,
    /// Cancelled (rolled back) after it was accepted.
    pub cancelled: bool,
}

/// A job in a local scheduler's backlog: what a backlog time is computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BacklogJob {
    /// Start time if running, `None` if waiting.
    pub started: Option<Time>,
    /// Its estimate (wall-clock limit).
    pub estimate: Time,
    /// CPUs.
    pub cpus: u32,
}

/// A local scheduler that takes advance reservations of CPU counts: the
/// scheduler side of a Grid cluster's local reservation service
/// (`coreservation-thesis-spec.md` §4.1, A5, A16, A31).
pub trait ReservationService {
    /// Minimum free CPUs over `[start, end)` in the reservation table: running
    /// jobs held to start + estimate and accepted reservations; queued jobs
    /// are not in it (spec A5).
    fn table_free(&self, start: Time, end: Time) -> u32;
    /// Accepted reservations, by id.
    fn blocks(&self) -> &[Block];
    /// The running and waiting jobs.
    fn backlog(&self, cluster: &dyn Cluster, out: &mut Vec<BacklogJob>);
    /// The earliest planned end (start + estimate) of a running job after `now`.
    fn next_job_end(&self, now: Time) -> Option<Time>;
    /// Reserves `cpus` over `[start, end)` if the table has room; its id.
    fn reserve(&mut self, cluster: &mut dyn Cluster, cpus: u32, start: Time, end: Time) -> Option<u32>;
    /// Cancels an accepted reservation.
    fn cancel(&mut self, cluster: &mut dyn Cluster, id: u32);
    /// Time integrals over `[0, t_stop]` of the backlog's Σ estimate × CPUs
    /// and of the unfinished reservations' Σ duration × CPUs (CPU-s × s), up
    /// to the cluster's last event.
    fn backlog_integrals(&self) -> (f64, f64);
}

/// A strategy that takes advance reservations of CPUs: a Grid cluster's
/// local scheduler.
pub trait ReservingStrategy: Strategy + ReservationService {}

impl<T: Strategy + ReservationService> ReservingStrategy for T {}
