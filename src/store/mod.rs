//! The SQLite store of every run, job and node event.
//!
//! Contract:
//! - The schema is versioned with `PRAGMA user_version`; [`MIGRATIONS`] holds
//!   one script per version step. Opening for writing applies the missing steps
//!   in one transaction; a database from a *newer* slasim is refused before
//!   anything is written.
//! - WAL journal: readers (`slasim query`, reports) never block the writer.
//! - One writer ([`Store::write_run`]) commits each run in one transaction —
//!   its `runs` row, all its `jobs` rows and its `node_events` (and for a Grid
//!   run its `grid_points`, `coreservations`, `subreservations` and
//!   `cluster_runs` rows) — with cached prepared statements, so a crash never
//!   leaves half a run behind. A battery's jobs (`battery_jobs`, shared by
//!   every run of it) are inputs: [`Store::write_battery`] may commit them
//!   earlier, in a transaction of their own.
//! - [`query`] opens the file read-only and refuses any statement that writes.
//! - `jobs.fee` is what the provider earned from the job (0 unless it
//!   succeeded), `jobs.penalty` what it paid (0 unless it failed):
//!   `sum(fee) - sum(penalty)` is the gain.

use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, params};

use crate::grid::broker::CoReservationRecord;
use crate::grid::metrics::{ClusterMetrics, GridSummary, RequestMetrics};
use crate::sim::record::{JobRecord, NodeEventRecord, Outcome, RunSummary};
use crate::workload::failures::NodeEventKind;
use crate::workload::job::Job;

mod provision;
pub use provision::ProvisionPointRow;

/// Schema scripts; applying `MIGRATIONS[i]` takes a database from version i to i + 1.
///
/// A battery's job attributes are the same in every run of it, so they are
/// stored once (`battery_jobs`) and each run stores only its outcomes
/// (`job_outcomes`); the `jobs` view joins them back into one row per job per
/// run with every attribute and outcome.
pub const MIGRATIONS: [&str; 8] = [
    r#"
CREATE TABLE runs (
    run_id        INTEGER PRIMARY KEY,  -- stable: derived from the run's resolved settings
    strategy      TEXT    NOT NULL,
    battery       INTEGER NOT NULL,
    battery_key   INTEGER NOT NULL,     -- the battery's jobs in battery_jobs
    trace         TEXT    NOT NULL,
    seed          INTEGER NOT NULL,
    capacity      INTEGER NOT NULL,
    config        TEXT    NOT NULL,     -- the resolved settings, TOML
    config_hash   TEXT    NOT NULL,     -- sha256 of `config`
    code_version  TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,     -- wall clock (UTC), informational only
    finished_at   TEXT    NOT NULL,
    wall_seconds  REAL    NOT NULL
);
CREATE TABLE battery_jobs (
    battery_key   INTEGER NOT NULL,
    job           INTEGER NOT NULL,     -- index within the battery
    swf_id        INTEGER NOT NULL,
    occurrence    INTEGER NOT NULL,
    release       INTEGER NOT NULL,
    deadline      INTEGER NOT NULL,
    estimate      INTEGER NOT NULL,
    runtime       INTEGER NOT NULL,
    nodes         INTEGER NOT NULL,
    user          INTEGER NOT NULL,
    application   INTEGER NOT NULL,
    queue         INTEGER NOT NULL,
    PRIMARY KEY (battery_key, job)
) WITHOUT ROWID;
CREATE TABLE job_outcomes (
    run_id        INTEGER NOT NULL REFERENCES runs(run_id),
    job           INTEGER NOT NULL,
    accepted      INTEGER NOT NULL,
    planned_start INTEGER,
    planned_end   INTEGER,
    actual_start  INTEGER,
    actual_end    INTEGER,
    overbooked    INTEGER NOT NULL,
    pof           REAL,
    outcome       INTEGER NOT NULL,     -- 1 success, 2 failed, 3 rejected (the jobs view shows the names)
    fee           REAL    NOT NULL,     -- earned: the job's fee if it succeeded, else 0
    penalty       REAL    NOT NULL,     -- paid: the job's penalty if it failed, else 0
    restarts      INTEGER NOT NULL,
    executed      INTEGER NOT NULL      -- seconds of execution, all attempts
);
-- job_outcomes has no index: rows are appended in commit order (an index on
-- the hashed run ids would double the cost of every insert); reports scan it.
CREATE VIEW jobs AS
SELECT o.run_id, r.strategy, r.battery, o.job, b.swf_id, b.occurrence, b.release, b.deadline, b.estimate,
       b.runtime, b.nodes, b.user, b.application, b.queue, o.accepted, o.planned_start, o.planned_end,
       o.actual_start, o.actual_end, o.overbooked, o.pof,
       CASE o.outcome WHEN 1 THEN 'success' WHEN 2 THEN 'failed' ELSE 'rejected' END AS outcome,
       o.fee, o.penalty, o.restarts, o.executed
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job;
CREATE TABLE node_events (
    run_id  INTEGER NOT NULL REFERENCES runs(run_id),
    seq     INTEGER NOT NULL,
    time    INTEGER NOT NULL,
    node    INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('fail', 'repair')),
    job     INTEGER                     -- the running job a failure interrupted
);
CREATE INDEX node_events_by_run ON node_events(run_id);
CREATE TABLE points (
    run_id            INTEGER PRIMARY KEY REFERENCES runs(run_id),
    strategy          TEXT    NOT NULL,
    trace             TEXT    NOT NULL,
    battery           INTEGER NOT NULL,
    seed              INTEGER NOT NULL,
    placement         TEXT    NOT NULL,
    acceptance        TEXT    NOT NULL,
    pof_max           REAL    NOT NULL,
    security_factor   REAL,               -- the risk test's, resolved; NULL under the PoF test
    penalty_ratio     REAL    NOT NULL,
    pdf_source        TEXT    NOT NULL,
    failures          TEXT    NOT NULL,
    capacity          INTEGER NOT NULL,
    jobs              INTEGER NOT NULL,
    accepted          INTEGER NOT NULL,
    successful        INTEGER NOT NULL,
    failed            INTEGER NOT NULL,
    rejected          INTEGER NOT NULL,
    fees              REAL    NOT NULL,
    penalties         REAL    NOT NULL,
    gain              REAL    NOT NULL,
    utilisation       REAL    NOT NULL,
    overbooked        INTEGER NOT NULL,
    overbooked_failed INTEGER NOT NULL,
    overbooked_pof    REAL    NOT NULL,   -- Σ predicted PoF of the overbooked jobs
    wall_seconds      REAL    NOT NULL
);
CREATE TABLE experiments (
    hash          TEXT PRIMARY KEY,       -- sha256 of the config text
    name          TEXT NOT NULL,
    file          TEXT NOT NULL,
    config        TEXT NOT NULL,
    code_version  TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE TABLE experiment_points (
    experiment  TEXT    NOT NULL REFERENCES experiments(hash),
    run_id      INTEGER NOT NULL,
    sweep       TEXT    NOT NULL,
    PRIMARY KEY (experiment, run_id)
) WITHOUT ROWID;
"#,
    r#"
-- v2: paper B's reservations, moved and pinned jobs, checkpoints.
ALTER TABLE job_outcomes ADD COLUMN moves       INTEGER NOT NULL DEFAULT 0;  -- times moved later for a reservation
ALTER TABLE job_outcomes ADD COLUMN pinned      INTEGER NOT NULL DEFAULT 0;  -- pinned by the starvation guard
ALTER TABLE job_outcomes ADD COLUMN checkpoints INTEGER NOT NULL DEFAULT 0;  -- checkpoints written at kills
DROP VIEW jobs;
CREATE VIEW jobs AS
SELECT o.run_id, r.strategy, r.battery, o.job, b.swf_id, b.occurrence, b.release, b.deadline, b.estimate,
       b.runtime, b.nodes, b.user, b.application, b.queue, o.accepted, o.planned_start, o.planned_end,
       o.actual_start, o.actual_end, o.overbooked, o.pof,
       CASE o.outcome WHEN 1 THEN 'success' WHEN 2 THEN 'failed' ELSE 'rejected' END AS outcome,
       o.fee, o.penalty, o.restarts, o.executed, o.moves, o.pinned, o.checkpoints
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job;
CREATE TABLE reservations (
    run_id          INTEGER NOT NULL REFERENCES runs(run_id),
    reservation     INTEGER NOT NULL,   -- its id in the run (after the battery's jobs)
    swf_id          INTEGER NOT NULL,   -- the SWF job it copies
    submit          INTEGER NOT NULL,
    requested_start INTEGER NOT NULL,
    nodes           INTEGER NOT NULL,
    estimate        INTEGER NOT NULL,
    runtime         INTEGER NOT NULL,
    accepted        INTEGER NOT NULL,
    reason          TEXT,               -- why it was rejected
    actual_start    INTEGER,
    actual_end      INTEGER,
    outcome         TEXT    NOT NULL CHECK (outcome IN ('success', 'failed', 'rejected')),
    fee             REAL    NOT NULL,   -- earned
    penalty         REAL    NOT NULL    -- paid
);
ALTER TABLE points ADD COLUMN reservation_percent        REAL    NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN start_factor               REAL    NOT NULL DEFAULT 1;
ALTER TABLE points ADD COLUMN reservation_option         TEXT    NOT NULL DEFAULT 'reject';
ALTER TABLE points ADD COLUMN checkpointing              INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN reservations               INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN reservations_accepted      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN reservation_rejection_rate REAL    NOT NULL DEFAULT 0;  -- %
ALTER TABLE points ADD COLUMN sldwa                      REAL    NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN moved_jobs                 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN move_delay_mean            REAL    NOT NULL DEFAULT 0;  -- seconds
ALTER TABLE points ADD COLUMN move_delay_max             REAL    NOT NULL DEFAULT 0;  -- seconds
ALTER TABLE points ADD COLUMN pinned_jobs                INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN checkpoints                INTEGER NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN resumed_successful         INTEGER NOT NULL DEFAULT 0;
"#,
    r#"
-- v3: the classic queueing modes' setting and metrics.
ALTER TABLE points ADD COLUMN kill_at_estimate      INTEGER NOT NULL DEFAULT 1;
ALTER TABLE points ADD COLUMN dropped               INTEGER NOT NULL DEFAULT 0;  -- wider than the machine
ALTER TABLE points ADD COLUMN wait_mean             REAL    NOT NULL DEFAULT 0;  -- seconds
ALTER TABLE points ADD COLUMN wait_max              REAL    NOT NULL DEFAULT 0;  -- seconds
ALTER TABLE points ADD COLUMN response_mean         REAL    NOT NULL DEFAULT 0;  -- seconds
ALTER TABLE points ADD COLUMN slowdown_mean         REAL    NOT NULL DEFAULT 0;
ALTER TABLE points ADD COLUMN bounded_slowdown_mean REAL    NOT NULL DEFAULT 0;  -- tau = 10 s
ALTER TABLE points ADD COLUMN makespan              REAL    NOT NULL DEFAULT 0;  -- seconds
"#,
    r#"
-- v4: the Grid: jobs of several clusters, co-reservation requests, sub-reservations, per-cluster metrics.
ALTER TABLE job_outcomes ADD COLUMN cluster INTEGER NOT NULL DEFAULT 0;  -- 0 for single-cluster runs
DROP VIEW jobs;
CREATE VIEW jobs AS
SELECT o.run_id, r.strategy, r.battery, o.job, b.swf_id, b.occurrence, b.release, b.deadline, b.estimate,
       b.runtime, b.nodes, b.user, b.application, b.queue, o.accepted, o.planned_start, o.planned_end,
       o.actual_start, o.actual_end, o.overbooked, o.pof,
       CASE o.outcome WHEN 1 THEN 'success' WHEN 2 THEN 'failed' ELSE 'rejected' END AS outcome,
       o.fee, o.penalty, o.restarts, o.executed, o.moves, o.pinned, o.checkpoints, o.cluster
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job;
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
    // v5: provisioning (slot advertisement, MOGA workflow provisioning).
    r#"
CREATE TABLE provision_points (
    point_id        INTEGER PRIMARY KEY,  -- stable: derived from the point's resolved settings
    kind            TEXT    NOT NULL,     -- 'run' (MOGA vs best effort) or 'slots' (advertisement)
    experiment      TEXT,                 -- the config's name, if run from one
    workflow        TEXT,
    workflow_tasks  INTEGER,
    task_processors REAL,                 -- mean processors per task of the workflow
    sites           INTEGER NOT NULL,
    traces          TEXT    NOT NULL,     -- comma-separated, in site order
    target_load     REAL,                 -- site 0's target (per site in provision_sites)
    exact_estimates INTEGER NOT NULL,
    seed            INTEGER NOT NULL,
    submissions     INTEGER,
    config          TEXT    NOT NULL,     -- the resolved settings
    code_version    TEXT    NOT NULL,
    wall_seconds    REAL    NOT NULL
);
CREATE TABLE provision_sites (
    point_id         INTEGER NOT NULL REFERENCES provision_points(point_id),
    site             INTEGER NOT NULL,
    trace            TEXT    NOT NULL,
    capacity         INTEGER NOT NULL,
    jobs             INTEGER NOT NULL,
    target_load      REAL,
    copy_probability REAL    NOT NULL,   -- week-shifted copy's keep probability (bisection)
    offered          REAL    NOT NULL,   -- offered utilisation of the (scaled) trace
    achieved         REAL,               -- busy / (capacity × (last end − first submit)) in the simulation
    be_wait          REAL,               -- pricing runs: mean wait of the queued jobs, seconds
    PRIMARY KEY (point_id, site)
) WITHOUT ROWID;
CREATE TABLE provision_submissions (
    point_id         INTEGER NOT NULL REFERENCES provision_points(point_id),
    submission       INTEGER NOT NULL,
    submit_time      INTEGER NOT NULL,
    alpha            REAL    NOT NULL,
    makespan         INTEGER,            -- provisioned (MOGA plan, eq. 15), seconds
    cost             REAL,               -- provisioned allocation cost, processor-seconds
    enacted_makespan INTEGER,            -- the plan reserved and run in a fork
    be_makespan      INTEGER,            -- best effort (NULL: not done within the fork window)
    be_cost          REAL    NOT NULL,   -- eq. 16, processor-seconds
    makespan_ratio   REAL,               -- makespan / be_makespan
    cost_ratio       REAL,               -- cost / be_cost
    archive_size     INTEGER NOT NULL,
    slots            INTEGER NOT NULL,   -- |Â| over all sites
    fallback         INTEGER NOT NULL,   -- empty archive: the all-edge-slots plan
    PRIMARY KEY (point_id, submission, alpha)
) WITHOUT ROWID;
CREATE TABLE priced_reservations (
    point_id    INTEGER NOT NULL REFERENCES provision_points(point_id),
    request     INTEGER NOT NULL,
    submit      INTEGER NOT NULL,
    procs       INTEGER NOT NULL,
    duration    INTEGER NOT NULL,   -- requested (the job's estimate)
    alpha       REAL    NOT NULL,
    offers      INTEGER NOT NULL,   -- candidate starts offered (eq. 18)
    start       INTEGER,            -- chosen by eq. 20
    wait        INTEGER,            -- start − submit
    base_price  REAL    NOT NULL,   -- n·d·c, processor-seconds
    f           REAL    NOT NULL,   -- externality charged, processor-seconds
    bought      INTEGER NOT NULL,
    ended       INTEGER,
    PRIMARY KEY (point_id, request)
) WITHOUT ROWID;
CREATE TABLE slot_samples (
    point_id  INTEGER NOT NULL REFERENCES provision_points(point_id),
    time      INTEGER NOT NULL,          -- a background arrival (before it is booked)
    slots     INTEGER NOT NULL,          -- advertised slots
    tasks     INTEGER NOT NULL           -- running + queued
);
CREATE TABLE advertised_slots (
    point_id   INTEGER NOT NULL REFERENCES provision_points(point_id),
    time       INTEGER NOT NULL,         -- observation instant
    start      INTEGER NOT NULL,         -- seconds after the observation
    duration   INTEGER NOT NULL,         -- edge slots: up to the advertisement horizon
    procs      INTEGER NOT NULL,
    edge       INTEGER NOT NULL          -- extensible and divisible
);
"#,
    // v6: greedy provisioning with adaptive pricing (Ch. 7) and the provider's view of pricing.
    r#"
ALTER TABLE provision_points ADD COLUMN method TEXT;     -- run points: 'moga' (NULL before v6), 'greedy', 'greedy-easy'
ALTER TABLE provision_submissions ADD COLUMN f REAL;     -- greedy: Σ externality charged, processor-seconds
CREATE TABLE pricing_harm (
    point_id        INTEGER PRIMARY KEY REFERENCES provision_points(point_id),
    charged         REAL    NOT NULL,  -- Σ f of the bought reservations, processor-seconds
    suffered        REAL,              -- Σ over best-effort jobs of procs × (wait with − wait without the reservations)
    suffered_vs_queueing REAL,         -- the same against the run where the buyers queue as best effort instead
    be_jobs         INTEGER NOT NULL,
    be_wait_without REAL               -- mean best-effort wait in the run without reservations, seconds
);
"#,
    // v7: online PoF calibration (issue 17).
    r#"
ALTER TABLE job_outcomes ADD COLUMN pof_calibrated REAL;  -- the calibrated PoF the acceptance test read
ALTER TABLE points ADD COLUMN calibration TEXT NOT NULL DEFAULT 'none';  -- 'none' or 'isotonic'
ALTER TABLE points ADD COLUMN overbooked_pof_calibrated REAL;  -- Σ calibrated PoF of the overbooked jobs (calibrated runs)
DROP VIEW jobs;
CREATE VIEW jobs AS
SELECT o.run_id, r.strategy, r.battery, o.job, b.swf_id, b.occurrence, b.release, b.deadline, b.estimate,
       b.runtime, b.nodes, b.user, b.application, b.queue, o.accepted, o.planned_start, o.planned_end,
       o.actual_start, o.actual_end, o.overbooked, o.pof,
       CASE o.outcome WHEN 1 THEN 'success' WHEN 2 THEN 'failed' ELSE 'rejected' END AS outcome,
       o.fee, o.penalty, o.restarts, o.executed, o.moves, o.pinned, o.checkpoints, o.cluster, o.pof_calibrated
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job;
"#,
    // v8: the bought slot priced under both policies on the same state (issue 16's EASY vs CB question).
    r#"
ALTER TABLE priced_reservations ADD COLUMN queued INTEGER;             -- queued best-effort jobs when it was sold
ALTER TABLE priced_reservations ADD COLUMN queued_procs INTEGER;       -- their processors, summed
ALTER TABLE priced_reservations ADD COLUMN f_conservative REAL;        -- its f under conservative backfilling
ALTER TABLE priced_reservations ADD COLUMN f_easy REAL;                -- its f under EASY (A19)
ALTER TABLE priced_reservations ADD COLUMN advanced_conservative REAL; -- Σ advance × procs it caused (f ignores it)
ALTER TABLE priced_reservations ADD COLUMN advanced_easy REAL;
"#,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Store errors; each names the database file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("{path}: {source}", path = .path.display())]
    Sqlite { path: PathBuf, source: rusqlite::Error },
    /// The file was written by a newer slasim.
    #[error(
        "{path}: schema version {found} is newer than this slasim understands ({SCHEMA_VERSION}); \
         use a newer slasim or another --db file (nothing was changed)", path = .path.display()
    )]
    NewerSchema { path: PathBuf, found: i64 },
    /// The file does not exist (read-only opening).
    #[error("{path}: no such database", path = .path.display())]
    Missing { path: PathBuf },
    /// `query` was given a statement that writes.
    #[error("only read-only statements are allowed (SELECT, WITH …, read-only PRAGMA); refused: {sql}")]
    WriteRefused { sql: String },
    /// The SQL could not be prepared or run.
    #[error("{path}: SQL error: {message}", path = .path.display())]
    Sql { path: PathBuf, message: String },
}

/// One run ready to be stored.
#[derive(Debug, Clone)]
pub struct RunRow {
    /// Stable id (from the resolved settings).
    pub run_id: i64,
    /// Strategy name.
    pub strategy: String,
    /// Battery index.
    pub battery: i64,
    /// Identity of the battery's jobs (workload, preparation, battery).
    pub battery_key: i64,
    /// Trace name.
    pub trace: String,
    /// Seed.
    pub seed: u64,
    /// Cluster size.
    pub capacity: u32,
    /// Resolved settings, TOML.
    pub config: String,
    /// sha256 of `config`, hex.
    pub config_hash: String,
    /// slasim version (and git commit when known).
    pub code_version: String,
    /// Wall-clock start, RFC 3339 UTC.
    pub started_at: String,
    /// Wall-clock end, RFC 3339 UTC.
    pub finished_at: String,
    /// Wall seconds the simulation took.
    pub wall_seconds: f64,
}

/// An experiment as stored in `experiments`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentRow {
    /// sha256 of the config text.
    pub hash: String,
    /// Its name.
    pub name: String,
    /// The config file.
    pub file: String,
    /// The config text.
    pub config: String,
    /// slasim version and commit.
    pub code_version: String,
    /// Wall-clock time of the first registration, RFC 3339.
    pub created_at: String,
}

/// An experiment's identity in a store: (hash, name, file).
pub type ExperimentId = (String, String, String);

/// The sweep-axis values of a point, as stored in `points`.
#[derive(Debug, Clone, PartialEq)]
pub struct PointAxes {
    /// Placement name.
    pub placement: String,
    /// `pof` or `risk`.
    pub acceptance: String,
    /// PoF_max.
    pub pof_max: f64,
    /// Resolved security factor under the risk test.
    pub security_factor: Option<f64>,
    /// Penalty ratio.
    pub penalty_ratio: f64,
    /// PDF source name.
    pub pdf_source: String,
    /// Failure model name.
    pub failures: String,
    /// Reservations in % of the jobs.
    pub reservation_percent: f64,
    /// Start factor of the reservations.
    pub start_factor: f64,
    /// `reject` or `move`.
    pub reservation_option: String,
    /// Checkpoint/restart on.
    pub checkpointing: bool,
    /// Classic modes: jobs are killed at their estimate.
    pub kill_at_estimate: bool,
    /// PoF calibration: `none` or `isotonic`.
    pub calibration: String,
}

/// A run with its outcomes.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// The `runs` row.
    pub run: RunRow,
    /// One record per job.
    pub jobs: Vec<JobRecord>,
    /// Node failures and repairs.
    pub node_events: Vec<NodeEventRecord>,
    /// The point's axes and aggregates, for `points`.
    pub point: Option<(PointAxes, RunSummary)>,
    /// A Grid run's requests, sub-reservations and clusters.
    pub grid: Option<GridOutput>,
}

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

/// A database open for writing.
pub struct Store {
    path: PathBuf,
    conn: Connection,
    /// Battery keys whose jobs are known to be stored.
    batteries: std::collections::HashSet<i64>,
    /// Full-batch INSERTs, built once.
    battery_sql: String,
    outcome_sql: String,
}

fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Sqlite { path: path.to_path_buf(), source }
}

/// Reads `PRAGMA user_version`.
fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

impl Store {
    /// Opens (or creates) a store, migrating an older schema.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let err = sqlite(&path);
        let mut conn = Connection::open(&path).map_err(&err)?;
        conn.busy_timeout(std::time::Duration::from_secs(30)).map_err(&err)?;
        let found = user_version(&conn).map_err(&err)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { path: path.clone(), found });
        }
        if found == 0 {
            // A new file: 16 KB pages take fewer writes per commit (set
            // before the WAL exists; ignored for an existing database).
            conn.pragma_update(None, "page_size", 16_384).map_err(&err)?;
        }
        conn.pragma_update(None, "journal_mode", "WAL").map_err(&err)?;
        // Commits stay atomic and survive a killed process; only a power
        // loss may roll back the last commits (WAL with synchronous=NORMAL).
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(&err)?;
        if found < SCHEMA_VERSION {
            let tx = conn.transaction().map_err(&err)?;
            for script in &MIGRATIONS[found as usize..] {
                tx.execute_batch(script).map_err(&err)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&err)?;
            tx.commit().map_err(&err)?;
        }
        drop(err);
        Ok(Store {
            path,
            conn,
            batteries: std::collections::HashSet::new(),
            battery_sql: insert_sql("battery_jobs", BATTERY_COLUMNS, BATCH),
            outcome_sql: insert_sql("job_outcomes", OUTCOME_COLUMNS, BATCH),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True if a run with this id is already stored.
    pub fn has_run(&self, run_id: i64) -> Result<bool, StoreError> {
        self.conn
            .query_row("SELECT EXISTS (SELECT 1 FROM runs WHERE run_id = ?1)", [run_id], |r| r.get(0))
            .map_err(sqlite(&self.path))
    }

    /// A stored run's summary, from its `points` row.
    pub fn summary(&self, run_id: i64) -> Result<RunSummary, StoreError> {
        self.conn
            .query_row(
                "SELECT jobs, accepted, successful, failed, rejected, fees, penalties, gain, utilisation, \
                 overbooked, overbooked_failed, overbooked_pof, reservations, reservations_accepted, \
                 reservation_rejection_rate, sldwa, moved_jobs, move_delay_mean, move_delay_max, pinned_jobs, \
                 checkpoints, resumed_successful, dropped, wait_mean, wait_max, response_mean, slowdown_mean, \
                 bounded_slowdown_mean, makespan, overbooked_pof_calibrated FROM points WHERE run_id = ?1",
                [run_id],
                |r| {
                    Ok(RunSummary {
                        jobs: r.get(0)?,
                        accepted: r.get(1)?,
                        successful: r.get(2)?,
                        failed: r.get(3)?,
                        rejected: r.get(4)?,
                        fees: r.get(5)?,
                        penalties: r.get(6)?,
                        gain: r.get(7)?,
                        utilisation: r.get(8)?,
                        overbooked: r.get(9)?,
                        overbooked_failed: r.get(10)?,
                        overbooked_pof_sum: r.get(11)?,
                        reservations: r.get(12)?,
                        reservations_accepted: r.get(13)?,
                        reservation_rejection_rate: r.get(14)?,
                        sldwa: r.get(15)?,
                        moved_jobs: r.get(16)?,
                        move_delay_mean: r.get(17)?,
                        move_delay_max: r.get(18)?,
                        pinned_jobs: r.get(19)?,
                        checkpoints: r.get(20)?,
                        resumed_successful: r.get(21)?,
                        dropped: r.get(22)?,
                        wait_mean: r.get(23)?,
                        wait_max: r.get(24)?,
                        response_mean: r.get(25)?,
                        slowdown_mean: r.get(26)?,
                        bounded_slowdown_mean: r.get(27)?,
                        makespan: r.get(28)?,
                        overbooked_pof_calibrated_sum: r.get(29)?,
                    })
                },
            )
            .map_err(sqlite(&self.path))
    }

    /// Stores one run — its `runs` row, its jobs (their battery's attributes
    /// the first time), node events and `points` row — in one transaction.
    pub fn write_run(&mut self, out: &RunOutput) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let r = &out.run;
        let tx = self.conn.transaction().map_err(&err)?;
        tx.execute(
            "INSERT INTO runs (run_id, strategy, battery, battery_key, trace, seed, capacity, config, config_hash, \
             code_version, started_at, finished_at, wall_seconds) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                r.run_id,
                r.strategy,
                r.battery,
                r.battery_key,
                r.trace,
                r.seed as i64,
                r.capacity,
                r.config,
                r.config_hash,
                r.code_version,
                r.started_at,
                r.finished_at,
                r.wall_seconds
            ],
        )
        .map_err(&err)?;
        let new_battery = !self.batteries.contains(&r.battery_key)
            && !tx
                .query_row("SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?1)", [r.battery_key], |x| {
                    x.get::<_, bool>(0)
                })
                .map_err(&err)?;
        // The battery's jobs come first (ids 0..n); reservations follow.
        let variable = out.jobs.iter().take_while(|j| !j.job.reservation).count();
        let (jobs, reservations) = out.jobs.split_at(variable);
        if new_battery {
            write_battery_jobs(&tx, &self.battery_sql, r.battery_key, jobs, |r| &r.job).map_err(&err)?;
        }
        let clusters = out.grid.as_ref().map(|g| g.job_clusters.as_slice());
        write_outcomes(&tx, &self.outcome_sql, r.run_id, jobs, clusters).map_err(&err)?;
        if let Some(g) = &out.grid {
            write_grid(&tx, r, g).map_err(&err)?;
        }
        write_reservations(&tx, r.run_id, reservations).map_err(&err)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO node_events (run_id, seq, time, node, kind, job) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(&err)?;
            for (seq, e) in out.node_events.iter().enumerate() {
                let kind = match e.kind {
                    NodeEventKind::Fail => "fail",
                    NodeEventKind::Repair => "repair",
                };
                insert.execute(params![r.run_id, seq as i64, e.time, e.node, kind, e.job]).map_err(&err)?;
            }
        }
        if let Some((axes, sum)) = &out.point {
            tx.execute(
                "INSERT INTO points VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, \
                 ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, \
                 ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47, ?48, ?49, ?50)",
                params![
                    r.run_id,
                    r.strategy,
                    r.trace,
                    r.battery,
                    r.seed as i64,
                    axes.placement,
                    axes.acceptance,
                    axes.pof_max,
                    axes.security_factor,
                    axes.penalty_ratio,
                    axes.pdf_source,
                    axes.failures,
                    r.capacity,
                    sum.jobs,
                    sum.accepted,
                    sum.successful,
                    sum.failed,
                    sum.rejected,
                    sum.fees,
                    sum.penalties,
                    sum.gain,
                    sum.utilisation,
                    sum.overbooked,
                    sum.overbooked_failed,
                    sum.overbooked_pof_sum,
                    r.wall_seconds,
                    axes.reservation_percent,
                    axes.start_factor,
                    axes.reservation_option,
                    axes.checkpointing,
                    sum.reservations,
                    sum.reservations_accepted,
                    sum.reservation_rejection_rate,
                    sum.sldwa,
                    sum.moved_jobs,
                    sum.move_delay_mean,
                    sum.move_delay_max,
                    sum.pinned_jobs,
                    sum.checkpoints,
                    sum.resumed_successful,
                    axes.kill_at_estimate,
                    sum.dropped,
                    sum.wait_mean,
                    sum.wait_max,
                    sum.response_mean,
                    sum.slowdown_mean,
                    sum.bounded_slowdown_mean,
                    sum.makespan,
                    axes.calibration,
                    sum.overbooked_pof_calibrated_sum
                ],
            )
            .map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        self.batteries.insert(r.battery_key);
        Ok(())
    }

    /// Stores a battery's jobs (ids 0..n, no reservations) in a transaction
    /// of their own unless they are stored already; true if written now.
    /// The writer calls it while the battery is simulated: the rows are the
    /// ones [`Store::write_run`] would write, and being the run's inputs, not
    /// its results, they may commit before it (a crash leaves at most a
    /// battery no run refers to yet, which the resumed run then reuses).
    pub fn write_battery(&mut self, battery_key: i64, jobs: &[Job]) -> Result<bool, StoreError> {
        if self.batteries.contains(&battery_key) {
            return Ok(false);
        }
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        let stored = tx
            .query_row("SELECT EXISTS (SELECT 1 FROM battery_jobs WHERE battery_key = ?1)", [battery_key], |x| {
                x.get::<_, bool>(0)
            })
            .map_err(&err)?;
        if !stored {
            write_battery_jobs(&tx, &self.battery_sql, battery_key, jobs, |j| j).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        self.batteries.insert(battery_key);
        Ok(!stored)
    }

    /// Records an experiment and the points it consists of (idempotent).
    pub fn register_experiment(
        &mut self,
        e: &ExperimentRow,
        points: impl IntoIterator<Item = (i64, String)>,
    ) -> Result<(), StoreError> {
        let err = sqlite(&self.path);
        let tx = self.conn.transaction().map_err(&err)?;
        tx.execute(
            "INSERT OR IGNORE INTO experiments (hash, name, file, config, code_version, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![e.hash, e.name, e.file, e.config, e.code_version, e.created_at],
        )
        .map_err(&err)?;
        let hash = &e.hash;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO experiment_points (experiment, run_id, sweep) VALUES (?1, ?2, ?3)",
                )
                .map_err(&err)?;
            for (run_id, sweep) in points {
                insert.execute(params![hash, run_id, sweep]).map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }

    /// Run ids already stored, of those given.
    pub fn stored_runs(&self) -> Result<std::collections::HashSet<i64>, StoreError> {
        let mut stmt = self.conn.prepare("SELECT run_id FROM runs").map_err(sqlite(&self.path))?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(sqlite(&self.path))?;
        rows.collect::<Result<_, _>>().map_err(sqlite(&self.path))
    }
}

/// Rows per multi-row INSERT: one statement per batch instead of per row.
const BATCH: usize = 50;
const OUTCOME_COLUMNS: usize = 19;
const BATTERY_COLUMNS: usize = 12;

fn insert_sql(table: &str, columns: usize, rows: usize) -> String {
    let row = |r: usize| {
        format!("({})", (1..=columns).map(|c| format!("?{}", r * columns + c)).collect::<Vec<_>>().join(","))
    };
    format!("INSERT INTO {table} VALUES {}", (0..rows).map(row).collect::<Vec<_>>().join(","))
}

/// Binds and inserts `items` in batches; `bind` binds one item from a 1-based parameter index.
fn insert_batched<T>(
    tx: &rusqlite::Transaction<'_>,
    table: &str,
    columns: usize,
    full_sql: &str,
    items: &[T],
    mut bind: impl FnMut(&mut rusqlite::CachedStatement<'_>, usize, &T) -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    for chunk in items.chunks(BATCH) {
        // Full batches reuse one SQL text (building and hashing it per chunk
        // cost as much as the inserts); only a short tail builds its own.
        let mut stmt = if chunk.len() == BATCH {
            tx.prepare_cached(full_sql)?
        } else {
            tx.prepare_cached(&insert_sql(table, columns, chunk.len()))?
        };
        for (r, item) in chunk.iter().enumerate() {
            bind(&mut stmt, r * columns + 1, item)?;
        }
        stmt.raw_execute()?;
    }
    Ok(())
}

fn write_battery_jobs<T>(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    key: i64,
    jobs: &[T],
    job: impl Fn(&T) -> &Job,
) -> rusqlite::Result<()> {
    insert_batched(tx, "battery_jobs", BATTERY_COLUMNS, sql, jobs, |s, i, r| {
        let j = job(r);
        s.raw_bind_parameter(i, key)?;
        s.raw_bind_parameter(i + 1, j.id)?;
        s.raw_bind_parameter(i + 2, j.swf_id)?;
        s.raw_bind_parameter(i + 3, j.occurrence)?;
        s.raw_bind_parameter(i + 4, j.release)?;
        s.raw_bind_parameter(i + 5, j.deadline)?;
        s.raw_bind_parameter(i + 6, j.estimate)?;
        s.raw_bind_parameter(i + 7, j.runtime)?;
        s.raw_bind_parameter(i + 8, j.nodes)?;
        s.raw_bind_parameter(i + 9, j.user)?;
        s.raw_bind_parameter(i + 10, j.application)?;
        s.raw_bind_parameter(i + 11, j.queue)
    })
}

fn write_outcomes(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    run_id: i64,
    jobs: &[JobRecord],
    clusters: Option<&[u32]>,
) -> rusqlite::Result<()> {
    let cluster_of = |job: u32| clusters.and_then(|c| c.get(job as usize)).copied().unwrap_or(0);
    insert_batched(tx, "job_outcomes", OUTCOME_COLUMNS, sql, jobs, |s, i, r| {
        s.raw_bind_parameter(i, run_id)?;
        s.raw_bind_parameter(i + 1, r.job.id)?;
        s.raw_bind_parameter(i + 2, r.accepted)?;
        s.raw_bind_parameter(i + 3, r.planned_start)?;
        s.raw_bind_parameter(i + 4, r.planned_end)?;
        s.raw_bind_parameter(i + 5, r.actual_start)?;
        s.raw_bind_parameter(i + 6, r.actual_end)?;
        s.raw_bind_parameter(i + 7, r.overbooked)?;
        s.raw_bind_parameter(i + 8, r.pof)?;
        s.raw_bind_parameter(i + 9, r.outcome.map_or(2, Outcome::code))?;
        s.raw_bind_parameter(i + 10, r.fee())?;
        s.raw_bind_parameter(i + 11, r.penalty())?;
        s.raw_bind_parameter(i + 12, r.restarts)?;
        s.raw_bind_parameter(i + 13, r.executed)?;
        s.raw_bind_parameter(i + 14, r.moves)?;
        s.raw_bind_parameter(i + 15, r.pinned)?;
        s.raw_bind_parameter(i + 16, r.checkpoints)?;
        s.raw_bind_parameter(i + 17, cluster_of(r.job.id))?;
        s.raw_bind_parameter(i + 18, r.pof_calibrated)
    })
}

fn write_grid(tx: &rusqlite::Transaction<'_>, run: &RunRow, g: &GridOutput) -> rusqlite::Result<()> {
    let s = &g.summary;
    tx.execute(
        "INSERT INTO grid_points VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
         ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33)",
        params![
            run.run_id,
            g.algorithm,
            g.clusters,
            g.request_workload,
            g.minsize,
            g.starts,
            g.local_scheduler,
            g.start_weight,
            run.trace,
            run.seed as i64,
            g.t_stop,
            s.requests,
            s.granted,
            s.failure_rate,
            s.messages_mean,
            s.reservation_messages_mean,
            s.messages_max,
            s.efficiency_mean,
            s.unfairness_mean,
            s.rel_start_mean,
            s.rel_start_grid_mean,
            s.cost_mean,
            s.rel_cost_mean,
            s.day_share,
            s.night_share,
            s.off_peak_share,
            s.first_weekend_rel_start_mean,
            s.first_weekend_rel_cost_mean,
            s.utilisation_mean,
            s.wait_max,
            s.wait_top10,
            s.expansion_factor,
            run.wall_seconds
        ],
    )?;
    let mut request = tx.prepare_cached(
        "INSERT INTO coreservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
         ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)",
    )?;
    let mut part = tx.prepare_cached("INSERT INTO subreservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for row in &g.requests {
        let (r, m) = (&row.record, &row.metrics);
        let q = &r.request;
        let cpus = q.sorted_parts().iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        request.execute(params![
            run.run_id,
            q.id,
            g.algorithm,
            g.clusters,
            q.template,
            q.submit,
            q.earliest_start,
            q.deadline,
            q.duration,
            q.parts.len() as u32,
            cpus,
            q.start_weight,
            if r.granted() { "granted" } else { "rejected" },
            r.start,
            r.counters.attempts,
            r.counters.failures,
            r.counters.rollbacks,
            r.status_messages,
            r.messages(),
            r.tree.variants() as i64,
            r.max_messages as i64,
            m.efficiency,
            m.unfairness,
            m.rel_start,
            m.rel_start_grid,
            m.cost,
            m.rel_cost,
            m.first_weekend
        ])?;
        if let Some(start) = r.start {
            for (k, &(cluster, cpus)) in r.placement.iter().enumerate() {
                part.execute(params![run.run_id, q.id, k as u32, cluster, cpus, start, start + q.duration])?;
            }
        }
    }
    let mut cluster = tx.prepare_cached(
        "INSERT INTO cluster_runs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
         ?18)",
    )?;
    for c in &g.clusters_rows {
        let m = &c.metrics;
        cluster.execute(params![
            run.run_id,
            c.cluster,
            c.window,
            c.window_offset,
            c.raw_jobs,
            m.jobs as u32,
            c.wc_acc,
            m.utilisation(),
            m.job_utilisation,
            m.reservation_utilisation,
            m.expansion_factor,
            m.wait_max,
            m.wait_top10,
            m.backlog_time,
            m.filtering_degree,
            m.infeasibility_rate,
            m.subreservations as u32,
            m.first_weekend_subreservations as u32
        ])?;
    }
    Ok(())
}

fn write_reservations(tx: &rusqlite::Transaction<'_>, run_id: i64, jobs: &[JobRecord]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO reservations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    for r in jobs {
        let j = &r.job;
        insert.execute(params![
            run_id,
            j.id,
            j.swf_id,
            j.occurrence,
            j.release,
            j.nodes,
            j.estimate,
            j.runtime,
            r.accepted,
            r.reject_reason.map(|x| x.as_str()),
            r.actual_start,
            r.actual_end,
            r.outcome.unwrap_or(Outcome::Failed).as_str(),
            r.fee(),
            r.penalty()
        ])?;
    }
    Ok(())
}

/// The experiments (config hash, name, file) a store holds.
pub fn experiments(path: &Path) -> Result<Vec<ExperimentId>, StoreError> {
    let conn = open_read_only(path)?;
    let mut stmt = conn
        .prepare("SELECT hash, name, file FROM experiments ORDER BY hash")
        .map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })?;
    rows.collect::<Result<_, _>>().map_err(|e| StoreError::Sql { path: path.to_path_buf(), message: e.to_string() })
}

/// The run ids stored in the database at `path` (read-only).
pub fn stored_runs(path: &Path) -> Result<std::collections::HashSet<i64>, StoreError> {
    let conn = open_read_only(path)?;
    let err = sqlite(path);
    // A file without the schema yet (an interrupted creation) holds no run.
    if user_version(&conn).map_err(&err)? == 0 {
        return Ok(Default::default());
    }
    let mut stmt = conn.prepare("SELECT run_id FROM runs").map_err(&err)?;
    let rows = stmt.query_map([], |r| r.get(0)).map_err(&err)?;
    rows.collect::<Result<_, _>>().map_err(&err)
}

fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    if !path.is_file() {
        return Err(StoreError::Missing { path: path.to_path_buf() });
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(sqlite(path))?;
    let version = user_version(&conn).map_err(sqlite(path))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { path: path.to_path_buf(), found: version });
    }
    Ok(conn)
}

/// Merges shard stores into a new store at `output`. Refuses stores from
/// different experiments (config hashes), older or newer schemas, and an
/// existing output file. Runs present in several inputs are kept once.
pub fn merge(inputs: &[PathBuf], output: &Path) -> Result<MergeReport, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    if output.exists() {
        return Err(MergeError::OutputExists { path: output.to_path_buf() });
    }
    let mut reference: Option<(PathBuf, Vec<ExperimentId>)> = None;
    for input in inputs {
        let conn = open_read_only(input)?;
        let version = user_version(&conn).map_err(sqlite(input))?;
        if version != SCHEMA_VERSION {
            return Err(MergeError::Schema { path: input.clone(), found: version });
        }
        let found = experiments(input)?;
        if found.is_empty() {
            return Err(MergeError::NoExperiment { path: input.clone() });
        }
        match &reference {
            None => reference = Some((input.clone(), found)),
            Some((first, expected)) if *expected != found => {
                let names = |v: &[ExperimentId]| {
                    v.iter()
                        .map(|(h, n, f)| format!("{n} ({f}, {})", &h[..12.min(h.len())]))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(MergeError::Mismatch {
                    first: first.clone(),
                    first_experiments: names(expected),
                    other: input.clone(),
                    other_experiments: names(&found),
                });
            }
            Some(_) => {}
        }
    }
    let mut store = Store::open(output)?;
    let err = sqlite(output);
    let mut report = MergeReport::default();
    for input in inputs {
        let before: i64 = store.conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).map_err(&err)?;
        store.conn.execute("ATTACH DATABASE ?1 AS src", [input.to_string_lossy()]).map_err(&err)?;
        let tx = store.conn.transaction().map_err(&err)?;
        tx.execute_batch(
            "CREATE TEMP TABLE new_runs AS SELECT run_id FROM src.runs WHERE run_id NOT IN (SELECT run_id FROM main.runs);
             INSERT OR IGNORE INTO main.experiments SELECT * FROM src.experiments;
             INSERT OR IGNORE INTO main.experiment_points SELECT * FROM src.experiment_points;
             INSERT OR IGNORE INTO main.battery_jobs SELECT * FROM src.battery_jobs;
             INSERT INTO main.runs SELECT * FROM src.runs WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.job_outcomes SELECT * FROM src.job_outcomes WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.node_events SELECT * FROM src.node_events WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.reservations SELECT * FROM src.reservations WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT OR IGNORE INTO main.points SELECT * FROM src.points WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT OR IGNORE INTO main.grid_points SELECT * FROM src.grid_points WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.coreservations SELECT * FROM src.coreservations WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.subreservations SELECT * FROM src.subreservations WHERE run_id IN (SELECT run_id FROM new_runs);
             INSERT INTO main.cluster_runs SELECT * FROM src.cluster_runs WHERE run_id IN (SELECT run_id FROM new_runs);
             DROP TABLE temp.new_runs;",
        )
        .map_err(&err)?;
        tx.commit().map_err(&err)?;
        store.conn.execute("DETACH DATABASE src", []).map_err(&err)?;
        let after: i64 = store.conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).map_err(&err)?;
        report.runs += (after - before) as usize;
        report.inputs += 1;
    }
    Ok(report)
}

/// What a merge did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Stores merged.
    pub inputs: usize,
    /// Runs copied (duplicates counted once).
    pub runs: usize,
}

/// Why a merge was refused.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no input stores given")]
    NoInputs,
    /// The output exists.
    #[error("{path}: already exists; merge writes a new store", path = .path.display())]
    OutputExists { path: PathBuf },
    /// A store with another schema version.
    #[error("{path}: schema version {found}, this slasim writes {SCHEMA_VERSION}; re-run its sweep or use the matching slasim", path = .path.display())]
    Schema { path: PathBuf, found: i64 },
    /// A store not written by `slasim sweep`.
    #[error("{path}: holds no experiment (was it written by `slasim sweep`?)", path = .path.display())]
    NoExperiment { path: PathBuf },
    /// Stores of different experiments.
    #[error(
        "refusing to merge stores of different configs: {first} holds {first_experiments}, \
         {other} holds {other_experiments}", first = .first.display(), other = .other.display()
    )]
    Mismatch { first: PathBuf, first_experiments: String, other: PathBuf, other_experiments: String },
    /// A store error.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A query result: column names and rendered rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of rendered values (`NULL` as empty).
    pub rows: Vec<Vec<String>>,
}

fn render(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => {
            if r.fract() == 0.0 && r.abs() < 1e15 {
                format!("{r:.1}")
            } else {
                format!("{r:.6}").trim_end_matches('0').to_string()
            }
        }
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

/// Runs one read-only SQL statement on the database at `path`.
pub fn query(path: impl AsRef<Path>, sql: &str) -> Result<Table, StoreError> {
    let path = path.as_ref().to_path_buf();
    if !path.is_file() {
        return Err(StoreError::Missing { path });
    }
    let sql_err = |e: rusqlite::Error| StoreError::Sql { path: path.clone(), message: e.to_string() };
    // Reading a newer store is harmless: only writing is refused.
    let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(sqlite(&path))?;
    conn.pragma_update(None, "query_only", true).map_err(sqlite(&path))?;
    let mut stmt = conn.prepare(sql).map_err(sql_err)?;
    if !stmt.readonly() {
        return Err(StoreError::WriteRefused { sql: sql.trim().to_string() });
    }
    let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
    let n = columns.len();
    let mut rows = Vec::new();
    let mut result = stmt.query([]).map_err(sql_err)?;
    while let Some(row) = result.next().map_err(sql_err)? {
        rows.push((0..n).map(|i| row.get_ref(i).map(render).unwrap_or_default()).collect());
    }
    Ok(Table { columns, rows })
}

impl Table {
    /// Aligned text, numbers right-aligned.
    pub fn to_text(&self) -> String {
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.columns[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let numeric = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
        let mut out = String::new();
        let line = |cells: Vec<String>, out: &mut String| {
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        };
        line(self.columns.iter().enumerate().map(|(i, c)| format!("{c:<w$}", w = widths[i])).collect(), &mut out);
        line(widths.iter().map(|&w| "-".repeat(w)).collect(), &mut out);
        for row in &self.rows {
            let cells = row
                .iter()
                .enumerate()
                .map(
                    |(i, v)| {
                        if numeric(v) { format!("{v:>w$}", w = widths[i]) } else { format!("{v:<w$}", w = widths[i]) }
                    },
                )
                .collect();
            line(cells, &mut out);
        }
        out
    }

    /// CSV with a header line (RFC 4180 quoting).
    pub fn to_csv(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.columns).chain(&self.rows) {
            out.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_migrates_and_refuses_newer_schemas() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        Store::open(&path).unwrap();
        let table = query(&path, "PRAGMA user_version").unwrap();
        assert_eq!(table.rows, vec![vec![SCHEMA_VERSION.to_string()]]);
        // Re-opening is a no-op.
        Store::open(&path).unwrap();
        // A newer schema is refused and left untouched.
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        drop(conn);
        let before = std::fs::read(&path).unwrap();
        let err = Store::open(&path).err().unwrap();
        assert!(matches!(err, StoreError::NewerSchema { .. }), "{err}");
        assert!(err.to_string().contains("newer than this slasim"));
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn query_refuses_writes_and_reports_sql_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        Store::open(&path).unwrap();
        for sql in
            ["DELETE FROM jobs", "DROP TABLE runs", "INSERT INTO runs (run_id) VALUES (1)", "PRAGMA user_version = 9"]
        {
            let err = query(&path, sql).unwrap_err();
            assert!(matches!(err, StoreError::WriteRefused { .. } | StoreError::Sql { .. }), "{sql}: {err}");
        }
        let err = query(&path, "SELEC 1").unwrap_err();
        assert!(err.to_string().contains("syntax error"), "{err}");
        let err = query(&path, "SELECT nope FROM jobs").unwrap_err();
        assert!(err.to_string().contains("no such column: nope"), "{err}");
        let t = query(&path, "SELECT 1 AS a, 'x,y' AS b, NULL AS c, 2.5 AS d").unwrap();
        assert_eq!(t.to_csv(), "a,b,c,d\n1,\"x,y\",,2.5\n");
        assert!(query(dir.path().join("missing.sqlite"), "SELECT 1").is_err());
    }
}
