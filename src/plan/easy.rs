//! EASY backfilling on an availability profile: the crate's one EASY rule
//! for planners that keep their commitments in an [`AvailabilityProfile`]
//! (the classic modes with advance reservations, and the pricing of slots,
//! which projects EASY forward).
//!
//! Reference: D. Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995;
//! A. Mu'alem and D. Feitelson, IEEE TPDS 12(6), 2001.
//!
//! Contract: a pass at instant `now` goes over the waiting jobs in queue
//! order.
//! - Heads start while they fit now for their whole length ([`fits_now`]).
//! - The first head that does not fit gets a reservation at its earliest
//!   window, the shadow ([`Shadow::reserve`]).
//! - Every later job starts now if it fits now for its whole length beside
//!   the shadow and the jobs started before it in the pass ([`fits_now`],
//!   with the shadow in the profile).
//! - The shadow is released at the end of the pass ([`Shadow::release`]).
//!
//! A start books `[now, now + length)` in the profile; a job's length is its
//! estimate, at least 1 s ([`length`]). Where the profile is overcommitted
//! nothing fits. Callers drive their own queue (a set, a vector) and their
//! starts; the rule is here, pure, with no allocation.

use crate::plan::profile::AvailabilityProfile;
use crate::units::Time;

/// The planning length of a job: its estimate, at least 1 s.
#[inline]
pub fn length(estimate: Time) -> Time {
    estimate.max(1)
}

/// True if `procs` fit now for `length` (a head that may start, or a later
/// job that may backfill beside the shadow).
#[inline]
pub fn fits_now(profile: &AvailabilityProfile, now: Time, procs: u32, length: Time) -> bool {
    profile.fits(now, now + length, procs)
}

/// The blocked head's reservation at its earliest window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shadow {
    start: Time,
    length: Time,
    procs: u32,
}

impl Shadow {
    /// Reserves the blocked head's earliest window of `length` from `now`;
    /// `None` (nothing reserved) if the profile has none.
    #[inline]
    pub fn reserve(profile: &mut AvailabilityProfile, now: Time, procs: u32, length: Time) -> Option<Shadow> {
        let start = profile.earliest_fit(now, length, procs, Time::MAX)?;
        profile.reserve(start, start + length, procs);
        Some(Shadow { start, length, procs })
    }

    /// When the head will start: the next instant where capacity may free up.
    #[inline]
    pub fn start(&self) -> Time {
        self.start
    }

    /// Takes the reservation out of the profile again (the end of the pass).
    #[inline]
    pub fn release(self, profile: &mut AvailabilityProfile) {
        profile.release(self.start, self.start + self.length, self.procs);
    }
}
