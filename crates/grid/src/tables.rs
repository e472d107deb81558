//! The tables of a Grid run: `grid_points`, `coreservations`,
//! `subreservations` and `cluster_runs`, the Grid's store group (its run and
//! jobs go to the single-cluster tables, `runs` and `job_outcomes`). Schema
//! 4 made them ([`STEPS`], verbatim); their descriptors are their definition.
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
use slasim_core::store::tables::groups::Step;
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
    "One row per Grid run: broker algorithm, clusters, request workload and the broker's summary metrics.",
)
.key(&["run_id"])
.columns(&[
    column!("run_id", Int, "the run (its row in `runs`)", |r| r.run.run_id; references "runs(run_id)"),
    column!("algorithm", Text, "the broker's algorithm", |r| r.grid.algorithm.as_str(); uses [axis(GRID, 3)]),
    column!("clusters", Int, "the cluster candidates", |r| r.grid.clusters; uses [axis(GRID, 1)]),
    column!("request_workload", Text, "the request workload's name", |r| r.grid.request_workload.as_str()
        ; uses [axis(GRID, 2)]),
    column!("minsize", Int, "the start-time increment bound, seconds", |r| r.grid.minsize; uses [axis(GRID, 4)]),
    column!("starts", Int, "start times per request at most: max_zeitfenster", |r| r.grid.starts
        ; uses [axis(GRID, 5)]),
    column!("local_scheduler", Text, "the clusters' local scheduler", |r| r.grid.local_scheduler.as_str()
        ; uses [axis(GRID, 6)]),
    column!("start_weight", Real, "s of Alg. 5 (k = 1 - s)", |r| r.grid.start_weight; uses [axis(GRID, 7)]),
    column!("trace", Text, "the trace, as the user named it", |r| r.run.trace.as_str(); uses [axis(GRID, 0)]),
    column!("seed", Int, "the seed", |r| r.run.seed as i64; uses [detail(GRID, 0)]),
    column!("t_stop", Int, "submit stop, seconds", |r| r.grid.t_stop),
    column!("requests", Int, "requests submitted", |r| r.grid.summary.requests; uses [detail(GRID, 1)]),
    column!("granted", Int, "of those, granted", |r| r.grid.summary.granted; uses [metric(GRID, 19)]),
    column!("failure_rate", Real, "share of requests not granted", |r| r.grid.summary.failure_rate
        ; uses [metric(GRID, 0)]),
    column!("messages_mean", Real, "mean messages per request: reservations + roll-backs + status queries", |r| {
        r.grid.summary.messages_mean
    }; uses [metric(GRID, 1)]),
    column!("reservation_messages_mean", Real,
        "mean messages per request: reservations + roll-backs (n of the efficiency)", |r| {
        r.grid.summary.reservation_messages_mean
    }; uses [metric(GRID, 2)]),
    column!("messages_max", Int, "most messages one request needed", |r| r.grid.summary.messages_max
        ; uses [metric(GRID, 3)]),
    column!("efficiency_mean", Real null, "mean efficiency over requests with variants (NULL: none had any)", |r| {
        r.grid.summary.efficiency_mean
    }; uses [metric(GRID, 4)]),
    column!("unfairness_mean", Real null, "mean unfairness over granted requests (NULL: none granted)", |r| {
        r.grid.summary.unfairness_mean
    }; uses [metric(GRID, 5)]),
    column!("rel_start_mean", Real null, "mean relative start difference over granted requests (NULL: none granted)", |r| {
        r.grid.summary.rel_start_mean
    }; uses [metric(GRID, 6)]),
    column!("rel_start_grid_mean", Real null,
        "mean relative start difference against the start grid, §6.8 (NULL: none granted)", |r| {
        r.grid.summary.rel_start_grid_mean
    }; uses [metric(GRID, 7)]),
    column!("cost_mean", Real null, "mean cost, from the clusters' cost tables, granted requests (NULL: none granted)", |r| {
        r.grid.summary.cost_mean
    }; uses [metric(GRID, 8)]),
    column!("rel_cost_mean", Real null, "mean relative cost difference over granted requests (NULL: none granted)", |r| {
        r.grid.summary.rel_cost_mean
    }; uses [metric(GRID, 9)]),
    column!("day_share", Real null, "share of granted requests wholly in 08-18 h (NULL: none granted)", |r| {
        r.grid.summary.day_share
    }; uses [metric(GRID, 10)]),
    column!("night_share", Real null, "share of granted requests wholly in 18-08 h (NULL: none granted)", |r| {
        r.grid.summary.night_share
    }; uses [metric(GRID, 11)]),
    column!("off_peak_share", Real null, "share of reserved CPU-hours at night or at the weekend (NULL: none reserved)", |r| {
        r.grid.summary.off_peak_share
    }; uses [metric(GRID, 12)]),
    column!("first_weekend_rel_start_mean", Real null,
        "mean relative start difference of the granted requests overlapping §6.9's first weekend (NULL: none)", |r| {
        r.grid.summary.first_weekend_rel_start_mean
    }; uses [metric(GRID, 13)]),
    column!("first_weekend_rel_cost_mean", Real null,
        "mean relative cost difference of the granted requests overlapping §6.9's first weekend (NULL: none)", |r| {
        r.grid.summary.first_weekend_rel_cost_mean
    }; uses [metric(GRID, 14)]),
    column!("utilisation_mean", Real, "mean utilisation (jobs and sub-reservations) over the clusters", |r| {
        r.grid.summary.utilisation_mean
    }; uses [metric(GRID, 15)]),
    column!("wait_max", Real, "longest job wait, seconds, over every cluster", |r| r.grid.summary.wait_max
        ; uses [metric(GRID, 16)]),
    column!("wait_top10", Real, "mean of the 10 longest waits over every cluster, seconds", |r| {
        r.grid.summary.wait_top10
    }; uses [metric(GRID, 17)]),
    column!("expansion_factor", Real, "mean of the clusters' means", |r| r.grid.summary.expansion_factor
        ; uses [metric(GRID, 18)]),
    column!("wall_seconds", Real, "wall seconds the simulation took", |r| r.run.wall_seconds; uses [metric(GRID, 20)]),
]);

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
    "Each co-reservation request of a Grid run: its shape, whether and when it was granted, and its cost.",
)
.key(&["run_id", "request"])
.without_rowid()
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("request", Int, "the request's id in the run", |r| r.request.record.request.id),
    column!("algorithm", Text, "the broker's algorithm", |r| r.algorithm),
    column!("clusters", Int, "the cluster candidates", |r| r.clusters),
    column!("template", Int, "SWF job number of its template job", |r| r.request.record.request.template),
    column!("submit", Int, "its submission time, s", |r| r.request.record.request.submit),
    column!("earliest_start", Int, "the earliest start it allows, s", |r| r.request.record.request.earliest_start),
    column!("deadline", Int, "the latest end it allows, s", |r| r.request.record.request.deadline),
    column!("duration", Int, "how long its parts run, s", |r| r.request.record.request.duration),
    column!("parts", Int, "its parts, one per cluster", |r| r.request.record.request.parts.len() as u32),
    column!("cpus", Text, "CPUs of the parts, largest first, comma-separated", |r| {
        r.request.record.request.sorted_parts().iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    }),
    column!("start_weight", Real, "s of Alg. 5", |r| r.request.record.request.start_weight),
    column!("outcome", Text, "`granted` or `rejected`", |r| if r.request.record.granted() {
        "granted"
    } else {
        "rejected"
    }; check "outcome IN ('granted', 'rejected')"),
    column!("start", Int null, "the start it was granted, s (NULL: rejected)", |r| r.request.record.start),
    column!("attempts", Int, "reservation attempts", |r| r.request.record.counters.attempts),
    column!("failures", Int, "attempts that failed", |r| r.request.record.counters.failures),
    column!("rollbacks", Int, "roll-back messages", |r| r.request.record.counters.rollbacks),
    column!("status_messages", Int, "status queries", |r| r.request.record.status_messages),
    column!("messages", Int, "attempts + rollbacks + status_messages", |r| r.request.record.messages()),
    column!("variants", Int, "C of the pruned tree", |r| r.request.record.tree.variants() as i64),
    column!("max_messages", Int, "N, the messages trying every variant would take", |r| {
        r.request.record.max_messages as i64
    }),
    column!("efficiency", Real null, "1 - (attempts + rollbacks) / N (NULL: the tree had no variants)", |r| {
        r.request.metrics.efficiency
    }),
    column!("unfairness", Real null, "its unfairness (NULL: rejected)", |r| r.request.metrics.unfairness),
    column!("rel_start", Real null, "(start − earliest variant start) / (latest − earliest) (NULL: rejected)", |r| {
        r.request.metrics.rel_start
    }),
    column!("rel_start_grid", Real null, "(start − f_start) / (last grid start − f_start), §6.8 (NULL: rejected)", |r| {
        r.request.metrics.rel_start_grid
    }),
    column!("cost", Real null, "the reserved variant's cost, from the clusters' cost tables (NULL: rejected)", |r| {
        r.request.metrics.cost
    }),
    column!("rel_cost", Real null, "(cost − cheapest) / (dearest − cheapest), Alg. 5 (NULL: rejected)", |r| {
        r.request.metrics.rel_cost
    }),
    column!("first_weekend", Int, "1 if it overlaps §6.9's first weekend", |r| r.request.metrics.first_weekend),
]);

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
pub static SUBRESERVATIONS: Table<Subreservations> =
    Table::new("subreservations", 4, "The per-cluster parts of each granted co-reservation.")
        .key(&["run_id", "request", "part"])
        .without_rowid()
        .columns(&[
            column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
            column!("request", Int, "the request's id in the run", |r| r.request),
            column!("part", Int, "the part: 0 = the largest", |r| r.part),
            column!("cluster", Int, "the cluster it is reserved on", |r| r.cluster),
            column!("cpus", Int, "its CPUs", |r| r.cpus),
            column!("start", Int, "its start, s", |r| r.start),
            column!("end", Int, "its end, s", |r| r.end),
        ]);

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
pub static CLUSTER_RUNS: Table<ClusterRuns> = Table::new("cluster_runs", 4, "Per-cluster metrics of a Grid run.")
    .key(&["run_id", "cluster"])
    .without_rowid()
    .columns(&[
        column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
        column!("cluster", Int, "the cluster's index", |r| r.cluster.cluster; uses [axis(GRID_CLUSTERS, 0)]),
        column!("window", Int, "the log window it ran", |r| r.cluster.window; uses [detail(GRID_CLUSTERS, 0)]),
        column!("window_offset", Int, "the window's start in the log's seconds", |r| r.cluster.window_offset
            ; uses [detail(GRID_CLUSTERS, 1)]),
        column!("raw_jobs", Int, "usable jobs in the window before merging", |r| r.cluster.raw_jobs),
        column!("jobs", Int, "jobs it ran", |r| r.cluster.metrics.jobs as u32; uses [metric(GRID_CLUSTERS, 0)]),
        column!("wc_acc", Real, "its wall-clock accuracy", |r| r.cluster.wc_acc; uses [metric(GRID_CLUSTERS, 1)]),
        column!("utilisation", Real, "jobs + sub-reservations inside [0, t_stop]", |r| {
            r.cluster.metrics.utilisation()
        }; uses [metric(GRID_CLUSTERS, 2)]),
        column!("job_utilisation", Real, "jobs' CPU-seconds inside [0, t_stop] over CPUs × t_stop", |r| {
            r.cluster.metrics.job_utilisation
        }; uses [metric(GRID_CLUSTERS, 3)]),
        column!("reservation_utilisation", Real,
            "sub-reservations' CPU-seconds inside [0, t_stop] over CPUs × t_stop", |r| {
            r.cluster.metrics.reservation_utilisation
        }; uses [metric(GRID_CLUSTERS, 4)]),
        column!("expansion_factor", Real, "mean (wait + run) / limit", |r| r.cluster.metrics.expansion_factor
            ; uses [metric(GRID_CLUSTERS, 5)]),
        column!("wait_max", Real, "longest wait, s", |r| r.cluster.metrics.wait_max; uses [metric(GRID_CLUSTERS, 6)]),
        column!("wait_top10", Real, "mean of the 10 longest waits, s", |r| r.cluster.metrics.wait_top10
            ; uses [metric(GRID_CLUSTERS, 7)]),
        column!("backlog_time", Real, "time-weighted mean over [0, t_stop], seconds, of the backlog time", |r| {
            r.cluster.metrics.backlog_time
        }; uses [metric(GRID_CLUSTERS, 8)]),
        column!("filtering_degree", Real null,
            "mean filtered / unfiltered TRs over the requests it could host (NULL: algorithm 1)", |r| {
            r.cluster.metrics.filtering_degree
        }; uses [metric(GRID_CLUSTERS, 9)]),
        column!("infeasibility_rate", Real null, "requests with filtering degree 1 over all requests (NULL: algorithm 1)", |r| {
            r.cluster.metrics.infeasibility_rate
        }; uses [metric(GRID_CLUSTERS, 10)]),
        column!("subreservations", Int, "sub-reservations it holds", |r| r.cluster.metrics.subreservations as u32
            ; uses [metric(GRID_CLUSTERS, 11)]),
        column!("first_weekend_subreservations", Int, "of those, starting in §6.9's first weekend", |r| {
            r.cluster.metrics.first_weekend_subreservations as u32
        }; uses [metric(GRID_CLUSTERS, 12)]),
    ]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 4] {
    [&GRID_POINTS, &CORESERVATIONS, &SUBRESERVATIONS, &CLUSTER_RUNS]
}

/// The Grid's tables as schema 4 made them, verbatim (a store from before
/// schema 4 gets them by this step; a new store from the descriptors).
pub static STEPS: [Step; 1] = [Step {
    version: 4,
    sql: r#"
CREATE TABLE grid_points (
    run_id              INTEGER PRIMARY KEY REFERENCES runs(run_id),
    algorithm           TEXT    NOT NULL,
    clusters            INTEGER NOT NULL,
    request_workload    TEXT    NOT NULL,
    minsize             INTEGER NOT NULL,  -- seconds
    starts              INTEGER NOT NULL,  -- max_zeitfenster
    local_scheduler     TEXT    NOT NULL,
    start_weight        REAL    NOT NULL,  -- s of Alg. 5 (k = 1 - s)
    trace               TEXT    NOT NULL,
    seed                INTEGER NOT NULL,
    t_stop              INTEGER NOT NULL,  -- submit stop, seconds
    requests            INTEGER NOT NULL,
    granted             INTEGER NOT NULL,
    failure_rate        REAL    NOT NULL,
    messages_mean       REAL    NOT NULL,  -- reservations + roll-backs + status queries
    reservation_messages_mean REAL  NOT NULL,  -- reservations + roll-backs (n of the efficiency)
    messages_max        INTEGER NOT NULL,
    efficiency_mean     REAL,
    unfairness_mean     REAL,
    rel_start_mean      REAL,
    rel_start_grid_mean REAL,
    cost_mean           REAL,              -- from the clusters' cost tables, granted requests
    rel_cost_mean       REAL,
    day_share           REAL,              -- granted requests wholly in 08-18 h
    night_share         REAL,              -- wholly in 18-08 h
    off_peak_share      REAL,              -- reserved CPU-hours at night or at the weekend
    first_weekend_rel_start_mean REAL,     -- granted requests overlapping §6.9's first weekend
    first_weekend_rel_cost_mean  REAL,
    utilisation_mean    REAL    NOT NULL,
    wait_max            REAL    NOT NULL,  -- seconds, over every cluster
    wait_top10          REAL    NOT NULL,  -- seconds
    expansion_factor    REAL    NOT NULL,  -- mean of the clusters' means
    wall_seconds        REAL    NOT NULL
);
CREATE TABLE coreservations (
    run_id          INTEGER NOT NULL REFERENCES runs(run_id),
    request         INTEGER NOT NULL,
    algorithm       TEXT    NOT NULL,
    clusters        INTEGER NOT NULL,
    template        INTEGER NOT NULL,  -- SWF job number of its template job
    submit          INTEGER NOT NULL,
    earliest_start  INTEGER NOT NULL,
    deadline        INTEGER NOT NULL,
    duration        INTEGER NOT NULL,
    parts           INTEGER NOT NULL,
    cpus            TEXT    NOT NULL,  -- CPUs of the parts, largest first, comma-separated
    start_weight    REAL    NOT NULL,
    outcome         TEXT    NOT NULL CHECK (outcome IN ('granted', 'rejected')),
    start           INTEGER,
    attempts        INTEGER NOT NULL,
    failures        INTEGER NOT NULL,
    rollbacks       INTEGER NOT NULL,
    status_messages INTEGER NOT NULL,
    messages        INTEGER NOT NULL,  -- attempts + rollbacks + status_messages
    variants        INTEGER NOT NULL,  -- C of the pruned tree
    max_messages    INTEGER NOT NULL,  -- N
    efficiency      REAL,              -- 1 - (attempts + rollbacks) / N
    unfairness      REAL,
    rel_start       REAL,
    rel_start_grid  REAL,
    cost            REAL,              -- from the clusters' cost tables
    rel_cost        REAL,
    first_weekend   INTEGER NOT NULL,  -- overlaps §6.9's first weekend
    PRIMARY KEY (run_id, request)
) WITHOUT ROWID;
CREATE TABLE subreservations (
    run_id   INTEGER NOT NULL REFERENCES runs(run_id),
    request  INTEGER NOT NULL,
    part     INTEGER NOT NULL,         -- 0 = the largest
    cluster  INTEGER NOT NULL,
    cpus     INTEGER NOT NULL,
    start    INTEGER NOT NULL,
    end      INTEGER NOT NULL,
    PRIMARY KEY (run_id, request, part)
) WITHOUT ROWID;
CREATE TABLE cluster_runs (
    run_id                  INTEGER NOT NULL REFERENCES runs(run_id),
    cluster                 INTEGER NOT NULL,
    window                  INTEGER NOT NULL,  -- the log window it ran
    window_offset           INTEGER NOT NULL,  -- the window's start in the log's seconds
    raw_jobs                INTEGER NOT NULL,  -- usable jobs in the window before merging
    jobs                    INTEGER NOT NULL,
    wc_acc                  REAL    NOT NULL,
    utilisation             REAL    NOT NULL,  -- jobs + sub-reservations inside [0, t_stop]
    job_utilisation         REAL    NOT NULL,
    reservation_utilisation REAL    NOT NULL,
    expansion_factor        REAL    NOT NULL,
    wait_max                REAL    NOT NULL,
    wait_top10              REAL    NOT NULL,
    backlog_time            REAL    NOT NULL,  -- time-weighted mean over [0, t_stop], seconds
    filtering_degree        REAL,
    infeasibility_rate      REAL,
    subreservations         INTEGER NOT NULL,
    first_weekend_subreservations INTEGER NOT NULL,  -- starting in §6.9's first weekend
    PRIMARY KEY (run_id, cluster)
) WITHOUT ROWID;
"#,
}];

/// The Grid's points: a row in `grid_points` (beside their run in the
/// single-cluster tables) and the requests and clusters of each.
pub static GROUP: PointTables = PointTables {
    key_table: "grid_points",
    key: "run_id",
    metrics: "grid_points",
    tables: &[new("grid_points"), all("coreservations"), all("subreservations"), all("cluster_runs")],
    described: || tables().to_vec(),
    steps: &STEPS,
    views: &[],
    ids_since: Some((9, "Grid")),
    jobs: None,
    provenance: None,
};
