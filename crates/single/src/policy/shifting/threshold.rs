//! `threshold`: a job runs once the observed signal is at or under a
//! threshold, or once it has waited its horizon.
//!
//! Reference: the carbon-threshold policy GAIA evaluates as "Ecovisor"
//! (Hanafy, Liang, Ali, Bashir, Irwin, Shenoy, "Going Green for Less Green:
//! Optimizing the Cost of Reducing Cloud Carbon Emissions", ASPLOS 2024; its
//! artifact github.com/umassos/GAIA, `src/scheduling/suspend_scheduling_policy.py`,
//! `compute_schedule_threshold`, run as `--scheduling-policy
//! suspend-resume-threshold`), after Souza, Bashir, Murillo, Hanafy, Liang,
//! Irwin, Shenoy, "Ecovisor: A Virtual Energy System for Carbon-Efficient
//! Applications", ASPLOS 2023: at each step the job runs if the intensity is
//! under the threshold or its waiting time is used up, and waits otherwise.
//!
//! Contract:
//! - At submission, then at each change of the signal (each sample, e.g.
//!   hourly), the job is released if the observed value (not a forecast)
//!   is at or under `shifting.threshold`; at its latest start (`earliest +
//!   horizon`, capped at `deadline − estimate`) it is released whatever the
//!   signal.
//! - Departures: GAIA's threshold is the 30th percentile of the next 24
//!   hours and a job under it may be suspended when the intensity rises
//!   again; here the threshold is a set value (`shifting.threshold`, the
//!   signal's unit) and a started job is never interrupted. GAIA runs
//!   strictly under its threshold; here at or under, so a threshold equal
//!   to a sample releases at it.

use crate::policy::Strategy;
use crate::policy::shifting::hold::{Hold, Rule};
use crate::policy::shifting::{Applies, Shift, ShiftingPolicyInfo};
use slasim_core::units::Time;

use std::sync::Arc;

/// True when `shift`'s observed signal at `now` is at or under its threshold
/// (false without one: the config check asks for it).
pub fn ready(shift: &Shift, now: Time) -> bool {
    shift.config.threshold.is_some_and(|t| shift.outlook.now(now) <= t)
}

fn wrap(inner: Box<dyn Strategy>, shift: Arc<Shift>) -> Box<dyn Strategy> {
    Hold::boxed(inner, shift, Rule::Watch(ready))
}

/// Its registration.
pub const THRESHOLD: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "threshold",
    description: "run once the observed signal is at or under shifting.threshold, or after the horizon",
    reads_threshold: true,
    applies: Applies::Wrapper(wrap),
};
