//! Comprehensive backfilling over the plan core: a job gets a full booking
//! or is rejected; nodes stay reserved until the booking's end even when the
//! job ends early.
//!
//! Reference: `overbooking-dissertation-spec.md` §5.1, §5.4, §5.5, §6.1.

use crate::cluster::strategy::Cluster;
use crate::policy::comprehensive::{Choice, Comprehensive, Rule};
use crate::workload::job::Job;
use slasim_core::units::Time;

/// Comprehensive backfilling (the strategy `conservative-backfilling`, the
/// dissertation's name; not the classic mode `conservative`).
pub struct ComprehensiveBackfilling;

impl Rule for ComprehensiveBackfilling {
    const RELEASES_EARLY: bool = false;
    const STORES_END_CDF: bool = false;

    fn pick(
        _: &mut Comprehensive<Self>,
        _: &dyn Cluster,
        _: &Job,
        _: Time,
        full: Option<Choice>,
    ) -> (Option<Choice>, bool) {
        (full, false)
    }
}
