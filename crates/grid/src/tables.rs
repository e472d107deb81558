//! The tables of a Grid run: `grid_points`, `coreservations`,
//! `subreservations` and `cluster_runs`, the Grid's store group (its run and
//! jobs go to the single-cluster tables, `runs` and `job_outcomes`). The
//! engine's migrations made them (schema 4), so the group has no script.
//!
//! Contract: one `grid_points` row per run with the broker's settings and
//! summary; one `coreservations` row per request, one `subreservations` row
//! per part of a granted request, one `cluster_runs` row per cluster. The
//! report groups `grid_points` by its [`GRID`] axes (after the
//! run's sweep) and `cluster_runs` by those and its [`GRID_CLUSTERS`]
//! axes.

use crate::broker::CoReservationRecord;
use crate::metrics::{ClusterMetrics, GridSummary, RequestMetrics};
use crate::workload::corequest::RequestId;
use slasim_core::store::columns::{Described, Rows, Section, Table, axis, column, detail, metric};
use slasim_core::store::tables::groups::{PointTables, all, new};
use slasim_single::tables::run::RunRow;

/// A request and its metrics, for `coreservations` and `subreservations`.
#[derive(Debug, Clone)]
pub struct RequestRow {
    /// What the broker recorded.
    pub record: CoReservationRecord,
    /// Its metrics.
    pub metrics: RequestMetrics,
}

/// One cluster of a Grid run, for `cluster_runs`.
#[derive(Debug, Clone)]
pub struct ClusterRow {
    /// Its index.
    pub cluster: u32,
    /// The log window it ran.
    pub window: u32,
    /// The window's start in the log's seconds.
    pub window_offset: i64,
    /// Usable jobs in the window before merging.
    pub raw_jobs: u32,
    /// Its wall-clock accuracy.
    pub wc_acc: f64,
    /// Its metrics.
    pub metrics: ClusterMetrics,
}

/// What a Grid run adds to the store.
#[derive(Debug, Clone)]
pub struct GridOutput {
    /// Algorithm name.
    pub algorithm: String,
    /// Cluster candidates.
    pub clusters: u32,
    /// Request workload name.
    pub request_workload: String,
    /// Start-time increment bound, s.
    pub minsize: i64,
    /// Start times per request at most.
    pub starts: u32,
    /// The clusters' local scheduler.
    pub local_scheduler: String,
    /// s of Alg. 5.
    pub start_weight: f64,
    /// Submit stop, s.
    pub t_stop: i64,
    /// Aggregates.
    pub summary: GridSummary,
    /// Every request.
    pub requests: Vec<RequestRow>,
    /// Every cluster.
    pub clusters_rows: Vec<ClusterRow>,
    /// The cluster of each job record of the run, in order.
    pub job_clusters: Vec<u32>,
}

/// The report section of the Grid's summary per run setting.
pub const GRID: Section = Section("grid");

/// The report section of the Grid's per-cluster table.
pub const GRID_CLUSTERS: Section = Section("grid-clusters");

/// A Grid run.
#[derive(Debug, Clone, Copy)]
pub struct GridPointRow<'a> {
    /// The run.
    pub run: &'a RunRow,
    /// What the Grid produced.
    pub grid: &'a GridOutput,
}

/// The row type of `grid_points`.
pub enum GridPoints {}

impl Rows for GridPoints {
    type Row<'a> = GridPointRow<'a>;
    type Summary = ();
}

/// One row per Grid run.
pub static GRID_POINTS: Table<GridPoints> = Table::new(
    "grid_points",
    4,
    &[
        column!("run_id", Int, |r| r.run.run_id),
        column!("algorithm", Text, |r| r.grid.algorithm.as_str(); uses [axis(GRID, 3)]),
        column!("clusters", Int, |r| r.grid.clusters; uses [axis(GRID, 1)]),
        column!("request_workload", Text, |r| r.grid.request_workload.as_str(); uses [axis(GRID, 2)]),
        column!("minsize", Int, |r| r.grid.minsize; uses [axis(GRID, 4)]),
        column!("starts", Int, |r| r.grid.starts; uses [axis(GRID, 5)]),
        column!("local_scheduler", Text, |r| r.grid.local_scheduler.as_str(); uses [axis(GRID, 6)]),
        column!("start_weight", Real, |r| r.grid.start_weight; uses [axis(GRID, 7)]),
        column!("trace", Text, |r| r.run.trace.as_str(); uses [axis(GRID, 0)]),
        column!("seed", Int, |r| r.run.seed as i64; uses [detail(GRID, 0)]),
        column!("t_stop", Int, |r| r.grid.t_stop),
        column!("requests", Int, |r| r.grid.summary.requests; uses [detail(GRID, 1)]),
        column!("granted", Int, |r| r.grid.summary.granted; uses [metric(GRID, 19)]),
        column!("failure_rate", Real, |r| r.grid.summary.failure_rate; uses [metric(GRID, 0)]),
        column!("messages_mean", Real, |r| r.grid.summary.messages_mean; uses [metric(GRID, 1)]),
        column!("reservation_messages_mean", Real, |r| r.grid.summary.reservation_messages_mean
            ; uses [metric(GRID, 2)]),
        column!("messages_max", Int, |r| r.grid.summary.messages_max; uses [metric(GRID, 3)]),
        column!("efficiency_mean", Real, |r| r.grid.summary.efficiency_mean; uses [metric(GRID, 4)]),
        column!("unfairness_mean", Real, |r| r.grid.summary.unfairness_mean; uses [metric(GRID, 5)]),
        column!("rel_start_mean", Real, |r| r.grid.summary.rel_start_mean; uses [metric(GRID, 6)]),
        column!("rel_start_grid_mean", Real, |r| r.grid.summary.rel_start_grid_mean; uses [metric(GRID, 7)]),
        column!("cost_mean", Real, |r| r.grid.summary.cost_mean; uses [metric(GRID, 8)]),
        column!("rel_cost_mean", Real, |r| r.grid.summary.rel_cost_mean; uses [metric(GRID, 9)]),
        column!("day_share", Real, |r| r.grid.summary.day_share; uses [metric(GRID, 10)]),
        column!("night_share", Real, |r| r.grid.summary.night_share; uses [metric(GRID, 11)]),
        column!("off_peak_share", Real, |r| r.grid.summary.off_peak_share; uses [metric(GRID, 12)]),
        column!("first_weekend_rel_start_mean", Real, |r| r.grid.summary.first_weekend_rel_start_mean
            ; uses [metric(GRID, 13)]),
        column!("first_weekend_rel_cost_mean", Real, |r| r.grid.summary.first_weekend_rel_cost_mean
            ; uses [metric(GRID, 14)]),
        column!("utilisation_mean", Real, |r| r.grid.summary.utilisation_mean; uses [metric(GRID, 15)]),
        column!("wait_max", Real, |r| r.grid.summary.wait_max; uses [metric(GRID, 16)]),
        column!("wait_top10", Real, |r| r.grid.summary.wait_top10; uses [metric(GRID, 17)]),
        column!("expansion_factor", Real, |r| r.grid.summary.expansion_factor; uses [metric(GRID, 18)]),
        column!("wall_seconds", Real, |r| r.run.wall_seconds; uses [metric(GRID, 20)]),
    ],
);

/// A co-reservation request of a Grid run.
#[derive(Debug, Clone, Copy)]
pub struct RequestRowOf<'a> {
    /// The run.
    pub run_id: i64,
    /// The broker's algorithm.
    pub algorithm: &'a str,
    /// Cluster candidates.
    pub clusters: u32,
    /// The request and its metrics.
    pub request: &'a RequestRow,
}

/// The row type of `coreservations`.
pub enum Requests {}

impl Rows for Requests {
    type Row<'a> = RequestRowOf<'a>;
    type Summary = ();
}

/// Each co-reservation request.
pub static CORESERVATIONS: Table<Requests> = Table::new(
    "coreservations",
    4,
    &[
        column!("run_id", Int, |r| r.run_id),
        column!("request", Int, |r| r.request.record.request.id),
        column!("algorithm", Text, |r| r.algorithm),
        column!("clusters", Int, |r| r.clusters),
        column!("template", Int, |r| r.request.record.request.template),
        column!("submit", Int, |r| r.request.record.request.submit),
        column!("earliest_start", Int, |r| r.request.record.request.earliest_start),
        column!("deadline", Int, |r| r.request.record.request.deadline),
        column!("duration", Int, |r| r.request.record.request.duration),
        column!("parts", Int, |r| r.request.record.request.parts.len() as u32),
        column!("cpus", Text, |r| {
            r.request.record.request.sorted_parts().iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        }),
        column!("start_weight", Real, |r| r.request.record.request.start_weight),
        column!("outcome", Text, |r| if r.request.record.granted() { "granted" } else { "rejected" }),
        column!("start", Int, |r| r.request.record.start),
        column!("attempts", Int, |r| r.request.record.counters.attempts),
        column!("failures", Int, |r| r.request.record.counters.failures),
        column!("rollbacks", Int, |r| r.request.record.counters.rollbacks),
        column!("status_messages", Int, |r| r.request.record.status_messages),
        column!("messages", Int, |r| r.request.record.messages()),
        column!("variants", Int, |r| r.request.record.tree.variants() as i64),
        column!("max_messages", Int, |r| r.request.record.max_messages as i64),
        column!("efficiency", Real, |r| r.request.metrics.efficiency),
        column!("unfairness", Real, |r| r.request.metrics.unfairness),
        column!("rel_start", Real, |r| r.request.metrics.rel_start),
        column!("rel_start_grid", Real, |r| r.request.metrics.rel_start_grid),
        column!("cost", Real, |r| r.request.metrics.cost),
        column!("rel_cost", Real, |r| r.request.metrics.rel_cost),
        column!("first_weekend", Int, |r| r.request.metrics.first_weekend),
    ],
);

/// One part of a granted co-reservation.
#[derive(Debug, Clone, Copy)]
pub struct SubreservationRow {
    /// The run.
    pub run_id: i64,
    /// The request's id.
    pub request: RequestId,
    /// The part (0 = the largest).
    pub part: u32,
    /// Its cluster.
    pub cluster: u32,
    /// Its CPUs.
    pub cpus: u32,
    /// Its start.
    pub start: i64,
    /// Its end.
    pub end: i64,
}

/// The row type of `subreservations`.
pub enum Subreservations {}

impl Rows for Subreservations {
    type Row<'a> = SubreservationRow;
    type Summary = ();
}

/// The per-cluster parts of granted co-reservations.
pub static SUBRESERVATIONS: Table<Subreservations> = Table::new(
    "subreservations",
    4,
    &[
        column!("run_id", Int, |r| r.run_id),
        column!("request", Int, |r| r.request),
        column!("part", Int, |r| r.part),
        column!("cluster", Int, |r| r.cluster),
        column!("cpus", Int, |r| r.cpus),
        column!("start", Int, |r| r.start),
        column!("end", Int, |r| r.end),
    ],
);

/// One cluster of a Grid run.
#[derive(Debug, Clone, Copy)]
pub struct ClusterRunRow<'a> {
    /// The run.
    pub run_id: i64,
    /// The cluster and its metrics.
    pub cluster: &'a ClusterRow,
}

/// The row type of `cluster_runs`.
pub enum ClusterRuns {}

impl Rows for ClusterRuns {
    type Row<'a> = ClusterRunRow<'a>;
    type Summary = ();
}

/// Per-cluster metrics of a Grid run.
pub static CLUSTER_RUNS: Table<ClusterRuns> = Table::new(
    "cluster_runs",
    4,
    &[
        column!("run_id", Int, |r| r.run_id),
        column!("cluster", Int, |r| r.cluster.cluster; uses [axis(GRID_CLUSTERS, 0)]),
        column!("window", Int, |r| r.cluster.window; uses [detail(GRID_CLUSTERS, 0)]),
        column!("window_offset", Int, |r| r.cluster.window_offset; uses [detail(GRID_CLUSTERS, 1)]),
        column!("raw_jobs", Int, |r| r.cluster.raw_jobs),
        column!("jobs", Int, |r| r.cluster.metrics.jobs as u32; uses [metric(GRID_CLUSTERS, 0)]),
        column!("wc_acc", Real, |r| r.cluster.wc_acc; uses [metric(GRID_CLUSTERS, 1)]),
        column!("utilisation", Real, |r| r.cluster.metrics.utilisation(); uses [metric(GRID_CLUSTERS, 2)]),
        column!("job_utilisation", Real, |r| r.cluster.metrics.job_utilisation; uses [metric(GRID_CLUSTERS, 3)]),
        column!("reservation_utilisation", Real, |r| r.cluster.metrics.reservation_utilisation
            ; uses [metric(GRID_CLUSTERS, 4)]),
        column!("expansion_factor", Real, |r| r.cluster.metrics.expansion_factor; uses [metric(GRID_CLUSTERS, 5)]),
        column!("wait_max", Real, |r| r.cluster.metrics.wait_max; uses [metric(GRID_CLUSTERS, 6)]),
        column!("wait_top10", Real, |r| r.cluster.metrics.wait_top10; uses [metric(GRID_CLUSTERS, 7)]),
        column!("backlog_time", Real, |r| r.cluster.metrics.backlog_time; uses [metric(GRID_CLUSTERS, 8)]),
        column!("filtering_degree", Real, |r| r.cluster.metrics.filtering_degree; uses [metric(GRID_CLUSTERS, 9)]),
        column!("infeasibility_rate", Real, |r| r.cluster.metrics.infeasibility_rate; uses [metric(GRID_CLUSTERS, 10)]),
        column!("subreservations", Int, |r| r.cluster.metrics.subreservations as u32; uses [metric(GRID_CLUSTERS, 11)]),
        column!("first_weekend_subreservations", Int, |r| r.cluster.metrics.first_weekend_subreservations as u32
            ; uses [metric(GRID_CLUSTERS, 12)]),
    ],
);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 4] {
    [&GRID_POINTS, &CORESERVATIONS, &SUBRESERVATIONS, &CLUSTER_RUNS]
}

/// The Grid's points: a row in `grid_points` (beside their run in the
/// single-cluster tables) and the requests and clusters of each.
pub static GROUP: PointTables = PointTables {
    key_table: "grid_points",
    key: "run_id",
    tables: &[new("grid_points"), all("coreservations"), all("subreservations"), all("cluster_runs")],
    schema: "",
    described: || tables().to_vec(),
    docs: &[
        (
            "grid_points",
            "One row per Grid run: broker algorithm, clusters, request workload and the broker's summary metrics.",
        ),
        (
            "coreservations",
            "Each co-reservation request of a Grid run: its shape, whether and when it was granted, and its cost.",
        ),
        ("subreservations", "The per-cluster parts of each granted co-reservation."),
        ("cluster_runs", "Per-cluster metrics of a Grid run."),
    ],
    jobs: None,
    provenance: None,
};
