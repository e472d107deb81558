//! `cats`: the Climate-Aware Task Scheduler's choice. A job starts at the
//! start, one forecast step apart from its submission, whose window of the
//! job's estimated length has the lowest mean forecast carbon (or price).
//!
//! Reference: Bartholomew, Colling, Dasgupta, Greenberg, Lannelongue,
//! Lestang, Martinez-Ortiz, Sauzé, Walker, Ward, "CATS: The Climate Aware
//! Task Scheduler", Journal of Open Source Software 10(111), 8251, 2025;
//! as its source (github.com/GreenScheduler/cats, version 1.1.0,
//! `cats/forecast.py`, `WindowedForecast`, and `cats/cli.py`, `main`:
//! `min(WindowedForecast(...))`) defines it.
//!
//! Contract ([`choose`]):
//! - The candidate starts are `earliest + k·step` for `k = 0, 1, …` up to
//!   the window's latest start, `step` the signal's sample spacing (CATS
//!   steps its candidates by the forecast's data step from the moment it
//!   is asked, not from the samples' instants, and allows `k` up to
//!   `window / step`).
//! - Each costs the forecast mean over `[start, start + estimate)`, as seen
//!   at submission; the least wins, the earliest on ties (CATS orders
//!   windows by mean, then by start).
//! - CATS's window (`--window`, 2820 minutes by default, bounded by its
//!   48-hour forecast) is the `horizon` here, its `--end-window` the cap at
//!   `deadline − estimate` (the hold's window). CATS refuses a job longer
//!   than its window; here such a job is not held.
//! - Departure: CATS joins the forecast's points by straight lines (the
//!   trapezoidal rule); here the forecast follows the signal's own
//!   interpolation (held, or linear where the file says so).

use crate::policy::Strategy;
use crate::policy::shifting::hold::{Hold, Rule, Window};
use crate::policy::shifting::{Applies, Outlook, Shift, ShiftingPolicyInfo};
use slasim_core::units::Time;

use std::sync::Arc;

/// The start it picks for a job with window `w`, from `outlook`.
pub fn choose(outlook: &Outlook, w: &Window) -> Time {
    if w.estimate > w.horizon {
        return w.earliest;
    }
    w.least_on_grid(outlook.step(), |s| outlook.mean(w.now, s, s + w.estimate))
}

fn wrap(inner: Box<dyn Strategy>, shift: Arc<Shift>) -> Box<dyn Strategy> {
    Hold::boxed(inner, shift, Rule::Plan(choose))
}

/// Its registration.
pub const CATS: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "cats",
    description: "CATS: the start, a forecast step apart, whose estimated run has the least mean forecast signal",
    reads_threshold: false,
    applies: Applies::Wrapper(wrap),
};
