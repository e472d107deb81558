//! The tables of a provisioning point: `provision_points` (pricing points
//! too), `provision_sites`, `provision_submissions`, `slot_samples` and
//! `advertised_slots`.
//!
//! Contract: a point's `provision_points` row and its `provision_submissions`
//! replace those of a point with the same id; one `provision_sites` row per
//! site; slot statistics as sampled. The report reads these tables with its
//! own SQL (no grouping by descriptors).

use crate::outcome::SiteSummary;
use crate::outcome::SubmissionOutcome;
use slasim_core::store::columns::{Conflict, Described, Rows, Table, column};
use slasim_core::units::Time;

/// The `provision_points` row of a point.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionPointRow {
    /// Stable id from the resolved settings.
    pub point_id: i64,
    /// 'run', 'slots' or 'price'.
    pub kind: &'static str,
    /// The config's name.
    pub experiment: Option<String>,
    /// Workflow name.
    pub workflow: Option<String>,
    /// Tasks.
    pub workflow_tasks: Option<usize>,
    /// Mean processors per task.
    pub task_processors: Option<f64>,
    /// Site count.
    pub sites: usize,
    /// Traces in site order.
    pub traces: String,
    /// Site 0's target load.
    pub target_load: Option<f64>,
    /// Exact estimates.
    pub exact_estimates: bool,
    /// Seed.
    pub seed: u64,
    /// Submissions.
    pub submissions: Option<usize>,
    /// Resolved settings.
    pub config: String,
    /// Code version.
    pub code_version: String,
    /// Wall-clock seconds (informational).
    pub wall_seconds: f64,
    /// Run points: 'moga', 'greedy' or 'greedy-easy'.
    pub method: Option<&'static str>,
    /// Pricing points: share (%), α and pricing policy.
    pub pricing: Option<(f64, f64, &'static str)>,
}

/// The row type of `provision_points`.
pub enum ProvisionPoints {}

impl Rows for ProvisionPoints {
    type Row<'a> = &'a ProvisionPointRow;
    type Summary = ();
}

/// One row per provisioning or pricing point.
pub static PROVISION_POINTS: Table<ProvisionPoints> = Table::with_conflict(
    "provision_points",
    Conflict::Replace,
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("kind", Text, |r| r.kind),
        column!("experiment", Text, |r| r.experiment.as_deref()),
        column!("workflow", Text, |r| r.workflow.as_deref()),
        column!("workflow_tasks", Int, |r| r.workflow_tasks.map(|n| n as i64)),
        column!("task_processors", Real, |r| r.task_processors),
        column!("sites", Int, |r| r.sites as i64),
        column!("traces", Text, |r| r.traces.as_str()),
        column!("target_load", Real, |r| r.target_load),
        column!("exact_estimates", Int, |r| r.exact_estimates),
        column!("seed", Int, |r| r.seed as i64),
        column!("submissions", Int, |r| r.submissions.map(|n| n as i64)),
        column!("config", Text, |r| r.config.as_str()),
        column!("code_version", Text, |r| r.code_version.as_str()),
        column!("wall_seconds", Real, |r| r.wall_seconds),
        column!("method", Text, |r| r.method; since 6, "NULL"),
        column!("share", Real, |r| r.pricing.map(|x| x.0); since 9, "NULL"),
        column!("alpha", Real, |r| r.pricing.map(|x| x.1); since 9, "NULL"),
        column!("pricing_policy", Text, |r| r.pricing.map(|x| x.2); since 9, "NULL"),
    ],
);

/// A site of a point.
#[derive(Debug, Clone, Copy)]
pub struct SiteRow<'a> {
    /// The point.
    pub point_id: i64,
    /// The site's index.
    pub site: usize,
    /// Its load figures.
    pub summary: &'a SiteSummary,
    /// Its target utilisation.
    pub target_load: Option<f64>,
    /// Pricing points: the queued jobs' mean wait, seconds.
    pub be_wait: Option<f64>,
}

/// The row type of `provision_sites`.
pub enum Sites {}

impl Rows for Sites {
    type Row<'a> = SiteRow<'a>;
    type Summary = ();
}

/// Per-site figures of a point.
pub static PROVISION_SITES: Table<Sites> = Table::new(
    "provision_sites",
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("site", Int, |r| r.site as i64),
        column!("trace", Text, |r| r.summary.trace.as_str()),
        column!("capacity", Int, |r| r.summary.capacity),
        column!("jobs", Int, |r| r.summary.jobs as i64),
        column!("target_load", Real, |r| r.target_load),
        column!("copy_probability", Real, |r| r.summary.copy_probability),
        column!("offered", Real, |r| r.summary.offered),
        column!("achieved", Real, |r| r.summary.achieved),
        column!("be_wait", Real, |r| r.be_wait),
    ],
);

/// A submission of a provisioning point, at one α.
#[derive(Debug, Clone, Copy)]
pub struct SubmissionRow<'a> {
    /// The point.
    pub point_id: i64,
    /// What it measured.
    pub outcome: &'a SubmissionOutcome,
}

/// The row type of `provision_submissions`.
pub enum Submissions {}

impl Rows for Submissions {
    type Row<'a> = SubmissionRow<'a>;
    type Summary = ();
}

/// Each workflow submission of a provisioning point, per α.
pub static PROVISION_SUBMISSIONS: Table<Submissions> = Table::with_conflict(
    "provision_submissions",
    Conflict::Replace,
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("submission", Int, |r| r.outcome.submission as i64),
        column!("submit_time", Int, |r| r.outcome.time),
        column!("alpha", Real, |r| r.outcome.alpha),
        column!("makespan", Int, |r| r.outcome.makespan),
        column!("cost", Real, |r| r.outcome.cost),
        column!("enacted_makespan", Int, |r| r.outcome.enacted_makespan),
        column!("be_makespan", Int, |r| r.outcome.be_makespan),
        column!("be_cost", Real, |r| r.outcome.be_cost),
        column!("makespan_ratio", Real, |r| match (r.outcome.makespan, r.outcome.be_makespan) {
            (Some(m), Some(b)) if b > 0 => Some(m as f64 / b as f64),
            _ => None,
        }),
        column!("cost_ratio", Real, |r| r
            .outcome
            .cost
            .filter(|_| r.outcome.be_cost > 0.0)
            .map(|c| c / r.outcome.be_cost)),
        column!("archive_size", Int, |r| r.outcome.archive as i64),
        column!("slots", Int, |r| r.outcome.slots as i64),
        column!("fallback", Int, |r| r.outcome.fallback),
        column!("f", Real, |r| r.outcome.f; since 6, "NULL"),
    ],
);

/// A sample of a site's advertised slots.
#[derive(Debug, Clone, Copy)]
pub struct SlotSampleRow {
    /// The point.
    pub point_id: i64,
    /// A background arrival (before it is booked).
    pub time: Time,
    /// Advertised slots.
    pub slots: u32,
    /// Running and queued tasks.
    pub tasks: u32,
}

/// The row type of `slot_samples`.
pub enum SlotSamples {}

impl Rows for SlotSamples {
    type Row<'a> = SlotSampleRow;
    type Summary = ();
}

/// Slot counts at every background arrival.
pub static SLOT_SAMPLES: Table<SlotSamples> = Table::new(
    "slot_samples",
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("time", Int, |r| r.time),
        column!("slots", Int, |r| r.slots),
        column!("tasks", Int, |r| r.tasks),
    ],
);

/// A slot a site advertised at an observation.
#[derive(Debug, Clone, Copy)]
pub struct AdvertisedRow {
    /// The point.
    pub point_id: i64,
    /// The observation instant.
    pub time: Time,
    /// Seconds after the observation.
    pub start: Time,
    /// Its duration.
    pub duration: Time,
    /// Processors.
    pub procs: u32,
    /// Extensible and divisible.
    pub edge: bool,
}

/// The row type of `advertised_slots`.
pub enum AdvertisedSlots {}

impl Rows for AdvertisedSlots {
    type Row<'a> = AdvertisedRow;
    type Summary = ();
}

/// The slots a site advertised at each observation.
pub static ADVERTISED_SLOTS: Table<AdvertisedSlots> = Table::new(
    "advertised_slots",
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("time", Int, |r| r.time),
        column!("start", Int, |r| r.start),
        column!("duration", Int, |r| r.duration),
        column!("procs", Int, |r| r.procs),
        column!("edge", Int, |r| r.edge),
    ],
);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 5] {
    [&PROVISION_POINTS, &PROVISION_SITES, &PROVISION_SUBMISSIONS, &SLOT_SAMPLES, &ADVERTISED_SLOTS]
}
