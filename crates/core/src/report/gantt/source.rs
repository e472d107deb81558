//! Source adapters: what a stored point of each kind draws, as a [`Source`].
//!
//! Contract: each kind whose stored points have Gantt charts adds a
//! [`GanttSource`] to a registry's [`GanttSources`];
//! [`crate::report::gantt::for_run`] asks them in the registry's order and
//! draws the first that claims the point. A source claims only its own
//! kind's points (`None` for any other), so the order does not decide
//! which source draws a point.

use std::path::Path;

use crate::experiment::registry::Entries;
use crate::report::gantt::layout::Source;

/// A kind whose stored points have Gantt charts.
pub trait GanttSource: Send + Sync + 'static {
    /// Its name (kebab-case; its kind's, as a rule).
    fn name(&self) -> &'static str;

    /// What stored point `point` of the store `db` draws; `None` when the
    /// store holds no such point of this kind.
    fn source(&self, db: &Path, point: i64) -> anyhow::Result<Option<Source>>;
}

crate::named_trait_objects!(GanttSource);

/// The Gantt sources of a registry.
pub enum GanttSources {}

impl Entries for GanttSources {
    type Entry = dyn GanttSource;
    const WHAT: &'static str = "Gantt source";
}

/// A trace's file name (the store keeps its path).
pub fn trace_name(trace: &str) -> &str {
    trace.rsplit(['/', '\\']).next().unwrap_or(trace)
}
