//! `carbon-time`: GAIA's Carbon-Time policy. A job starts at the start, on
//! the hour from its submission, that saves the most forecast carbon (or
//! price) against starting at once, per second of waiting plus running.
//!
//! Reference: Hanafy, Liang, Ali, Bashir, Irwin, Shenoy, "Going Green for
//! Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions",
//! ASPLOS 2024, the policy "Carbon Savings per Waiting Time (Carbon-Time)";
//! as its artifact (github.com/umassos/GAIA,
//! `src/scheduling/carbon_waiting_policy.py`, `average_carbon_slot_waiting`
//! over `oracle_carbon_slot_waiting`, run as `--carbon-policy cst_average`)
//! defines it.
//!
//! Contract ([`choose`]):
//! - The candidate starts are `earliest + k·1 h` up to the window's latest
//!   start, as in `lowest-window`. Each costs `C(s)`, the forecast
//!   `∫ signal` over `[s, s + estimate)` seen at submission.
//! - It picks the start with the greatest `(C(earliest) − C(s)) / (s −
//!   earliest + estimate)`, the earliest on ties (GAIA takes Python's `max`,
//!   the first greatest). Starting at once scores 0, so a job waits only
//!   for a saving.
//! - Departures: GAIA plans with the mean length of the job's queue; here
//!   each job's own estimate. Its score multiplies `C` by the job's cores,
//!   which changes no choice. The latest start is also capped at `deadline −
//!   estimate` (the hold's window).

use crate::policy::Strategy;
use crate::policy::shifting::hold::{Hold, Rule, Window};
use crate::policy::shifting::{Applies, Outlook, Shift, ShiftingPolicyInfo};
use slasim_core::units::{HOUR, Time};

use std::sync::Arc;

/// The start it picks for a job with window `w`, from `outlook`.
pub fn choose(outlook: &Outlook, w: &Window) -> Time {
    let cost = |s: Time| outlook.integral(w.now, s, s + w.estimate);
    let at_once = cost(w.earliest);
    // The least negative saving rate is the greatest rate.
    w.least_on_grid(HOUR, |s| {
        if s == w.earliest {
            return 0.0;
        }
        let span = (s - w.earliest + w.estimate).max(1) as f64;
        -(at_once - cost(s)) / span
    })
}

fn wrap(inner: Box<dyn Strategy>, shift: Arc<Shift>) -> Box<dyn Strategy> {
    Hold::boxed(inner, shift, Rule::Plan(choose))
}

/// Its registration.
pub const CARBON_TIME: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "carbon-time",
    description: "GAIA's Carbon-Time: the hourly start saving the most forecast signal per second of wait and run",
    reads_threshold: false,
    applies: Applies::Wrapper(wrap),
};
