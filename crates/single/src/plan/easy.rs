//! EASY backfilling: the crate's one EASY rule, in its two forms.
//!
//! Reference: D. Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995;
//! A. Mu'alem and D. Feitelson, IEEE TPDS 12(6), 2001.
//!
//! Contract: a pass at instant `now` goes over the waiting jobs in queue
//! order (whatever order the caller keeps: arrival, or a priority rule's).
//! - Heads start while they fit now for their whole length ([`fits_now`]).
//! - The first head that does not fit gets a reservation, the shadow.
//! - Every later job starts now if it fits now and does not delay the head.
//!
//! The rule comes in two forms:
//! - **By counting nodes** ([`CountedShadow`]), as Lifka and Mu'alem &
//!   Feitelson define it: the shadow time is the earliest expected end of a
//!   running job at which enough nodes are free for the head, and the extra
//!   nodes are those free then beyond the head's need (every running job
//!   expected to end by the shadow time counts, whatever the order of jobs
//!   ending at the same instant; an overdue job is expected to end now). A
//!   later job starts now if it fits the idle nodes and either ends by the
//!   shadow time (by its length) or uses no more than the extra nodes.
//! - **On an availability profile** ([`Shadow`]), for planners that keep
//!   their commitments in an [`AvailabilityProfile`] (the classic modes with
//!   advance reservations, and the pricing of slots, which projects EASY
//!   forward): the head's reservation is its earliest window
//!   ([`Shadow::reserve`]); a later job starts now if it fits now for its
//!   whole length beside the shadow and the jobs started before it in the
//!   pass ([`fits_now`]); the shadow is released at the end of the pass
//!   ([`Shadow::release`]). Where the profile is overcommitted nothing fits.
//!
//! A start books `[now, now + length)`; a job's length is its estimate, at
//! least 1 s ([`length`]). Callers drive their own queue (a set, a vector)
//! and their starts; the rule is here, pure, with no allocation.

use crate::plan::profile::AvailabilityProfile;
use slasim_core::units::Time;

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

/// The blocked head's reservation by counting nodes: its shadow time and the
/// extra nodes, and the idle nodes a pass has not handed out yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedShadow {
    shadow: Time,
    extra: u32,
    free: u32,
}

impl CountedShadow {
    /// The shadow of a head needing `need` nodes, with `free` nodes idle now
    /// and the running jobs' `(expected end, nodes)` in order of expected end.
    #[inline]
    pub fn new(now: Time, free: u32, need: u32, running: impl IntoIterator<Item = (Time, u32)>) -> CountedShadow {
        let (mut available, mut shadow) = (free, now);
        for (end, nodes) in running {
            let end = end.max(now);
            if available >= need && end > shadow {
                break;
            }
            available += nodes;
            shadow = end;
        }
        CountedShadow { shadow, extra: available.saturating_sub(need), free }
    }

    /// When the head will start.
    #[inline]
    pub fn start(&self) -> Time {
        self.shadow
    }

    /// Idle nodes not handed out in this pass.
    #[inline]
    pub fn free(&self) -> u32 {
        self.free
    }

    /// True if a later job of `nodes` for `length` may start now without
    /// delaying the head; it is then counted (its nodes taken from the idle
    /// ones, and from the extra ones unless it ends by the shadow time).
    #[inline]
    pub fn admit(&mut self, now: Time, nodes: u32, length: Time) -> bool {
        if nodes > self.free {
            return false;
        }
        if now + length <= self.shadow {
            self.free -= nodes;
            true
        } else if nodes <= self.extra {
            self.extra -= nodes;
            self.free -= nodes;
            true
        } else {
            false
        }
    }
}
