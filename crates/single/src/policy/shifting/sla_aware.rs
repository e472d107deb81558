//! `sla-aware`: a planning strategy books a job later, in a window of lower
//! carbon (or price), when its deadline and the acceptance test still hold.
//!
//! Reference: issue 62's "SLA-aware shifting in the planning strategies",
//! on the comprehensive plan core (`overbooking-dissertation-spec.md` §5.1
//! gap search, §6.1 booking and acceptance). The objective is the
//! lowest-carbon start within a horizon of Wiesner et al. ("Let's Wait
//! Awhile", Middleware 2021, §4) and CATS's best start window; the
//! difference is where it applies: inside a plan that holds every accepted
//! job's deadline.
//!
//! Contract (applied by `Comprehensive<R>` in
//! `crate::policy::comprehensive::shifted`, [`Applies::InPlan`]):
//! - At booking, the strategy first finds the booking it makes today: the
//!   earliest start its rule accepts, `e`. Reservations, restarts and the
//!   rest of a checkpointed job are never shifted.
//! - The window is `[e, min(e + horizon, d − x)]` for a job of estimate `x`
//!   and deadline `d` ([`window`]); a job without a deadline
//!   (`NO_DEADLINE`) is shifted within the horizon only. So a shifted
//!   booking always ends by its deadline: `s + x ≤ d`.
//! - Candidates in `(e, last]` ([`next_candidate`]): the availability
//!   profile's change points `t` and the steered signal's step boundaries
//!   `b` (multiples of its smallest sample spacing, e.g. hours), each as a
//!   start (`t`, `b`) and as an end (`t − x`, `b − x`): the mean of a held
//!   signal over a window of fixed length is lowest where one of its ends
//!   meets a boundary. The scan allocates nothing and is bounded by the
//!   window.
//! - A candidate is feasible exactly as the rule checks a full booking: `n`
//!   nodes free throughout `[s, s + x)` (the profile, then the per-node
//!   plan, the placement choosing the nodes). Under a rule whose full
//!   bookings get the comprehensive PoS (comprehensive overbooking), that
//!   PoS at `s` must also pass the point's acceptance test. Shifted
//!   bookings are full bookings: a later overbooked slot is never taken.
//! - Score: the forecast mean of the steered signal over `[s, s + x)` as
//!   seen at `now` ([`Outlook::mean`](super::Outlook::mean)); the earliest
//!   booking's score is over `[e, e + x)`. The lowest-scoring feasible
//!   candidate is booked if it is lower than the earliest booking's by more
//!   than [`MARGIN`] of its magnitude ([`worth_shifting`]); ties and
//!   near-ties keep the earlier start (no shifting for noise).
//! - Only the start changes: the booking is a full booking like the
//!   earliest one, reported with its planned start `s`. It is never
//!   started early on nodes freed before `s` (comprehensive overbooking and
//!   shortened backfilling start other waiting jobs early): it runs in the
//!   window it was booked for. A point without `[shifting]` (or with
//!   `none`) books exactly as before.
//! - Strategies apply it only if their registration says so
//!   (`StrategyInfo::shifts_in_plan`: conservative-backfilling,
//!   comprehensive-overbooking, shortened-backfilling); any other strategy
//!   is refused at config time. The heuristic strategies re-plan and move
//!   bookings; the classic `conservative` mode compresses its plan at every
//!   early end (it would pull a shifted job back) and has no deadlines: the
//!   queue policies fit it.
//!
//! Departure: the rule judges each job alone, at its arrival, on what the
//! plan holds then; jobs booked later may take the earlier windows it left,
//! so the set of accepted jobs may differ from the unshifted run's (more or
//! fewer rejections).

use crate::policy::shifting::{Applies, Outlook, ShiftingPolicyInfo};
use slasim_core::units::Time;

/// The registration.
pub const SLA_AWARE: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "sla-aware",
    description: "planning strategies book a job later, in a lower-carbon (or cheaper) window, while its deadline \
                  and acceptance test hold",
    reads_threshold: false,
    applies: Applies::InPlan,
};

/// A later start is taken only if its forecast mean is lower than the
/// earliest start's by more than this share of the earliest's magnitude
/// (1 %).
pub const MARGIN: f64 = 0.01;

/// The latest start that may be booked for a job of estimate `x` and
/// deadline `deadline` whose earliest booking starts at `earliest`:
/// `min(earliest + horizon, deadline − x)`.
pub fn window(earliest: Time, x: Time, deadline: Time, horizon: Time) -> Time {
    earliest.saturating_add(horizon).min(deadline.saturating_sub(x))
}

/// True if a later booking scoring `candidate` is worth taking over the
/// earliest booking scoring `earliest` (lower by more than [`MARGIN`]).
pub fn worth_shifting(earliest: f64, candidate: f64) -> bool {
    candidate < earliest - MARGIN * earliest.abs()
}

/// The first time after `t` at which the held signal of `outlook` may
/// change: its next step boundary in virtual time (steps are its smallest
/// sample spacing, counted from its first sample).
pub fn next_boundary(outlook: &Outlook, t: Time) -> Time {
    let signal = &outlook.signal;
    let step = signal.signal().step().max(1);
    let offset = (signal.signal_instant(t) - signal.signal().start()).rem_euclid(step);
    let virtual_left = ((step - offset) as f64 / signal.scale()).ceil() as Time;
    t.saturating_add(virtual_left.max(1))
}

/// The first candidate start after `t` for a job of estimate `x`: the least
/// of the next profile change point (`times`, sorted) and the next signal
/// boundary, each taken as a start or as an end.
pub fn next_candidate(outlook: &Outlook, times: impl Fn(Time) -> Option<Time>, t: Time, x: Time) -> Time {
    let as_start = times(t).unwrap_or(Time::MAX).min(next_boundary(outlook, t));
    let end = t.saturating_add(x);
    let as_end = times(end).unwrap_or(Time::MAX).min(next_boundary(outlook, end)).saturating_sub(x);
    as_start.min(as_end)
}
