//! A running point's progress in simulated time, shown beside the sweep's
//! bar, so that one long point (a year of a centre's accounting) shows life.
//!
//! Contract:
//! - While a worker runs a point, its reports go to the sweep's bar
//!   ([`reporting`], set by the executor); a kind calls [`report`] now and
//!   then (the Slurm twin once per simulated day) with one short line.
//!   Outside a point, or with the bar hidden, a report does nothing.
//! - Reports only go out: nothing of the simulation reads them, so stored
//!   outcomes do not depend on whether anyone watches.

use indicatif::ProgressBar;

scoped_tls::scoped_thread_local! {
    static BAR: ProgressBar
}

/// Runs `f` with this thread's reports going to `bar`.
pub(crate) fn reporting<T>(bar: &ProgressBar, f: impl FnOnce() -> T) -> T {
    BAR.set(bar, f)
}

/// Says where the running point is (one line, e.g. "simulated day 12 of 30").
pub fn report(line: impl FnOnce() -> String) {
    if BAR.is_set() {
        BAR.with(|bar| {
            if !bar.is_hidden() {
                bar.set_message(line());
            }
        });
    }
}
