//! `lowest-window`: GAIA's Lowest-Window policy, which is also Wait
//! Awhile's non-interrupting strategy. A job starts at the start, on the
//! hour from its submission, whose window of the job's estimated length
//! has the lowest forecast carbon (or price).
//!
//! Reference: Hanafy, Liang, Ali, Bashir, Irwin, Shenoy, "Going Green for
//! Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions",
//! ASPLOS 2024, the policy "Lowest Carbon Window (Lowest-Window)"; as its
//! artifact (github.com/umassos/GAIA, `src/scheduling/carbon_waiting_policy.py`,
//! `best_waiting_time` over `oracle_carbon_slot`, run as `--carbon-policy
//! waiting`) defines it. Wiesner, Behnke, Scheinert, Gontarska, Thamsen,
//! "Let's Wait Awhile: How Temporal Workload Shifting Can Reduce Carbon
//! Emissions in the Cloud", Middleware 2021, define the same choice for jobs
//! that cannot be interrupted.
//!
//! Contract ([`choose`]):
//! - The candidate starts are `earliest + k·1 h` for `k = 0, 1, …` up to the
//!   window's latest start (GAIA steps one hour of its hourly traces from
//!   the submission, its waiting time included).
//! - Each costs the forecast `∫ signal` over `[start, start + estimate)`,
//!   as seen at submission; the least wins, the earliest on ties (GAIA takes
//!   Python's `min`, the first least).
//! - Departures: GAIA plans with the mean length of the job's queue (short
//!   or long jobs, split at 2 h); here each job's own estimate, the length a
//!   user asks for. GAIA's waiting time per queue is the `horizon` here, and
//!   the latest start is also capped at `deadline − estimate` (the hold's
//!   window).

use crate::policy::Strategy;
use crate::policy::shifting::hold::{Hold, Rule, Window};
use crate::policy::shifting::{Applies, Outlook, Shift, ShiftingPolicyInfo};
use slasim_core::units::{HOUR, Time};

use std::sync::Arc;

/// The start it picks for a job with window `w`, from `outlook`.
pub fn choose(outlook: &Outlook, w: &Window) -> Time {
    w.least_on_grid(HOUR, |s| outlook.integral(w.now, s, s + w.estimate))
}

fn wrap(inner: Box<dyn Strategy>, shift: Arc<Shift>) -> Box<dyn Strategy> {
    Hold::boxed(inner, shift, Rule::Plan(choose))
}

/// Its registration.
pub const LOWEST_WINDOW: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "lowest-window",
    description: "GAIA's Lowest-Window: the hourly start whose estimated run has the least forecast signal",
    reads_threshold: false,
    applies: Applies::Wrapper(wrap),
};
