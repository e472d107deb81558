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
pub static PROVISION_POINTS: Table<ProvisionPoints> = Table::new(
    "provision_points",
    5,
    "One row per provisioning or pricing point: its kind, settings and resolved TOML.",
)
.key(&["point_id"])
.conflict(Conflict::Replace)
.columns(&[
    column!("point_id", Int, "stable: derived from the point's resolved settings", |r| r.point_id),
    column!("kind", Text, "'run' (MOGA vs best effort) or 'slots' (advertisement), or 'price' (pricing)", |r| r.kind),
    column!("experiment", Text null, "the config's name, if run from one (NULL: not)", |r| r.experiment.as_deref()),
    column!("workflow", Text null, "the workflow's name (NULL: a point without one)", |r| r.workflow.as_deref()),
    column!("workflow_tasks", Int null, "the workflow's tasks (NULL: no workflow)", |r| {
        r.workflow_tasks.map(|n| n as i64)
    }),
    column!("task_processors", Real null, "mean processors per task of the workflow (NULL: no workflow)", |r| {
        r.task_processors
    }),
    column!("sites", Int, "the sites", |r| r.sites as i64),
    column!("traces", Text, "the sites' traces, comma-separated, in site order", |r| r.traces.as_str()),
    column!("target_load", Real null, "site 0's target (per site in provision_sites); NULL: the trace's own", |r| {
        r.target_load
    }),
    column!("exact_estimates", Int, "1 if runtime estimates are exact", |r| r.exact_estimates),
    column!("seed", Int, "the seed", |r| r.seed as i64),
    column!("submissions", Int null, "workflow submissions (NULL: no workflow)", |r| r.submissions.map(|n| n as i64)),
    column!("config", Text, "the resolved settings", |r| r.config.as_str()),
    column!("code_version", Text, "the slasim version (and commit) that ran it", |r| r.code_version.as_str()),
    column!("wall_seconds", Real, "wall seconds it took (informational)", |r| r.wall_seconds),
    column!("method", Text null, "run points: 'moga' (NULL before v6), 'greedy', 'greedy-easy'", |r| r.method; since 6),
    column!("share", Real null, "pricing: % of the jobs that buy reservations (NULL: not pricing)", |r| {
        r.pricing.map(|x| x.0)
    }; since 9),
    column!("alpha", Real null, "pricing: the buyers' trade-off factor (NULL: not pricing)", |r| {
        r.pricing.map(|x| x.1)
    }; since 9),
    column!("pricing_policy", Text null, "pricing: 'conservative' or 'easy' (NULL: not pricing)", |r| {
        r.pricing.map(|x| x.2)
    }; since 9),
]);

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
    "Per-site metrics of a provisioning or pricing point (utilisation, best-effort wait).",
)
.key(&["point_id", "site"])
.without_rowid()
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
    column!("site", Int, "the site's index", |r| r.site as i64),
    column!("trace", Text, "the site's trace", |r| r.summary.trace.as_str()),
    column!("capacity", Int, "its processors", |r| r.summary.capacity),
    column!("jobs", Int, "its background jobs", |r| r.summary.jobs as i64),
    column!("target_load", Real null, "its target utilisation (NULL: the trace's own)", |r| r.target_load),
    column!("copy_probability", Real, "week-shifted copy's keep probability (bisection)", |r| {
        r.summary.copy_probability
    }),
    column!("offered", Real, "offered utilisation of the (scaled) trace", |r| r.summary.offered),
    column!("achieved", Real null,
        "busy / (capacity × (last end − first submit)) in the simulation (NULL: not simulated)", |r| {
        r.summary.achieved
    }),
    column!("be_wait", Real null, "pricing runs: mean wait of the queued jobs, seconds (NULL: other points)", |r| {
        r.be_wait
    }),
]);

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
pub static PROVISION_SUBMISSIONS: Table<Submissions> = Table::new(
    "provision_submissions",
    5,
    "Each workflow submission of a provisioning point, per α: the chosen plan's cost and makespan.",
)
.key(&["point_id", "submission", "alpha"])
.without_rowid()
.conflict(Conflict::Replace)
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
    column!("submission", Int, "the submission's index", |r| r.outcome.submission as i64),
    column!("submit_time", Int, "its instant, s", |r| r.outcome.time),
    column!("alpha", Real, "the trade-off factor α", |r| r.outcome.alpha),
    column!("makespan", Int null, "provisioned (MOGA plan, eq. 15), seconds (NULL: no plan)", |r| r.outcome.makespan),
    column!("cost", Real null, "provisioned allocation cost, processor-seconds (NULL: no plan)", |r| r.outcome.cost),
    column!("enacted_makespan", Int null, "the plan reserved and run in a fork: its makespan, s (NULL: not enacted)", |r| {
        r.outcome.enacted_makespan
    }),
    column!("be_makespan", Int null, "best effort (NULL: not done within the fork window), seconds", |r| {
        r.outcome.be_makespan
    }),
    column!("be_cost", Real, "best-effort allocation cost, eq. 16, processor-seconds", |r| r.outcome.be_cost),
    column!("makespan_ratio", Real null, "makespan / be_makespan (NULL: either is missing)", |r| match (
        r.outcome.makespan,
        r.outcome.be_makespan,
    ) {
        (Some(m), Some(b)) if b > 0 => Some(m as f64 / b as f64),
        _ => None,
    }),
    column!("cost_ratio", Real null, "cost / be_cost (NULL: no cost)", |r| r
        .outcome
        .cost
        .filter(|_| r.outcome.be_cost > 0.0)
        .map(|c| c / r.outcome.be_cost)),
    column!("archive_size", Int, "the Pareto archive's size", |r| r.outcome.archive as i64),
    column!("slots", Int, "|Â| over all sites: advertised slots", |r| r.outcome.slots as i64),
    column!("fallback", Int, "1 for an empty archive: the all-edge-slots plan", |r| r.outcome.fallback),
    column!("f", Real null, "greedy: Σ externality charged, processor-seconds (NULL: MOGA)", |r| r.outcome.f; since 6),
]);

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
pub static SLOT_SAMPLES: Table<SlotSamples> =
    Table::new("slot_samples", 5, "Slot statistics of a provisioning point: free slots sampled over time.").columns(&[
        column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
        column!("time", Int, "a background arrival (before it is booked), s", |r| r.time),
        column!("slots", Int, "advertised slots", |r| r.slots),
        column!("tasks", Int, "running + queued tasks", |r| r.tasks),
    ]);

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
pub static ADVERTISED_SLOTS: Table<AdvertisedSlots> =
    Table::new("advertised_slots", 5, "The slots a site advertised at each sample.").columns(&[
        column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
        column!("time", Int, "observation instant, s", |r| r.time),
        column!("start", Int, "seconds after the observation", |r| r.start),
        column!("duration", Int, "its duration, s (edge slots: up to the advertisement horizon)", |r| r.duration),
        column!("procs", Int, "its processors", |r| r.procs),
        column!("edge", Int, "1 if extensible and divisible", |r| r.edge),
    ]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 5] {
    [&PROVISION_POINTS, &PROVISION_SITES, &PROVISION_SUBMISSIONS, &SLOT_SAMPLES, &ADVERTISED_SLOTS]
}
