//! The store's schema: one migration script per version step.
//!
//! Contract: `PRAGMA user_version` is the schema version. Opening a store for
//! writing applies the missing steps in one transaction (plus the columns
//! the descriptors of [`crate::store::tables`] add after schema 10); a store
//! from a newer slasim is refused before anything is written. A store from
//! before schema 9 that holds Grid, provisioning or pricing points is refused
//! for writing too: those points' ids were derived differently then, so
//! resuming it would run them again under new ids (`older_ids`).

use rusqlite::Connection;

/// Schema scripts; applying `MIGRATIONS[i]` takes a database from version i to i + 1.
///
/// A battery's job attributes are the same in every run of it, so they are
/// stored once (`battery_jobs`) and each run stores only its outcomes
/// (`job_outcomes`); the `jobs` view joins them back into one row per job per
/// run with every attribute and outcome.
pub const MIGRATIONS: [&str; 11] = [
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
    // v9: one pipeline for every point kind. Grid, provisioning and pricing
    // point ids are derived from their canonical TOML settings (like
    // single-cluster ids, which do not change); a pricing point's share, α
    // and policy are columns; a Grid's `cpus` is `capacity`; a point belongs
    // to every sweep of an experiment that names it.
    r#"
CREATE TABLE experiment_points_v9 (
    experiment  TEXT    NOT NULL REFERENCES experiments(hash),
    run_id      INTEGER NOT NULL,          -- a run_id or a provisioning/pricing point_id
    sweep       TEXT    NOT NULL,
    PRIMARY KEY (experiment, run_id, sweep)
) WITHOUT ROWID;
INSERT INTO experiment_points_v9 SELECT experiment, run_id, sweep FROM experiment_points;
DROP TABLE experiment_points;
ALTER TABLE experiment_points_v9 RENAME TO experiment_points;
ALTER TABLE provision_points ADD COLUMN share REAL;            -- pricing: % of the jobs that buy reservations
ALTER TABLE provision_points ADD COLUMN alpha REAL;            -- pricing: the buyers' trade-off factor
ALTER TABLE provision_points ADD COLUMN pricing_policy TEXT;   -- pricing: 'conservative' or 'easy'
"#,
    // v10: an energy meter's reading per run and cluster.
    r#"
CREATE TABLE energy (
    run_id            INTEGER NOT NULL REFERENCES runs(run_id),
    cluster           INTEGER NOT NULL,  -- 0 in a single-cluster run
    idle_watts        REAL    NOT NULL,  -- [energy]: watts of an idle node
    busy_watts        REAL    NOT NULL,  -- of a node running a job
    down_watts        REAL    NOT NULL,  -- of a failed node
    idle_node_seconds REAL    NOT NULL,  -- over the makespan window: first submission to last end
    busy_node_seconds REAL    NOT NULL,
    down_node_seconds REAL    NOT NULL,
    joules            REAL    NOT NULL,  -- Σ watts × node-seconds
    PRIMARY KEY (run_id, cluster)
) WITHOUT ROWID;
"#,
    // v11: node power states: seconds and joules per state, transitions
    // included (and the points' energy_policy, idle_timeout and power_cap,
    // from their descriptors).
    r#"
CREATE TABLE energy_states (
    run_id       INTEGER NOT NULL REFERENCES runs(run_id),
    cluster      INTEGER NOT NULL,  -- 0 in a single-cluster run
    state        TEXT    NOT NULL,  -- idle, busy, down, switching-off, asleep, switching-on
    watts        REAL    NOT NULL,  -- a node's watts in the state ([energy], [energy.sleep])
    node_seconds REAL    NOT NULL,  -- over the makespan window: first submission to last end
    joules       REAL    NOT NULL,  -- watts × node-seconds
    transitions  INTEGER NOT NULL,  -- switch-offs or switch-ons begun (0 for the other states)
    PRIMARY KEY (run_id, cluster, state)
) WITHOUT ROWID;
"#,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The first schema whose Grid, provisioning and pricing point ids this
/// build derives.
pub const IDS_SINCE: i64 = 9;

/// Reads `PRAGMA user_version`.
pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// In a store of schema `found` (older than [`IDS_SINCE`]): the kinds of
/// points whose ids this build derives differently, with their counts.
pub(crate) fn older_ids(conn: &Connection, found: i64) -> rusqlite::Result<Vec<(&'static str, i64)>> {
    let mut kinds = Vec::new();
    if found == 0 || found >= IDS_SINCE {
        return Ok(kinds);
    }
    let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0));
    if found >= 4 {
        let grid = count("SELECT count(*) FROM grid_points")?;
        if grid > 0 {
            kinds.push(("Grid", grid));
        }
    }
    if found >= 5 {
        let provision = count("SELECT count(*) FROM provision_points")?;
        if provision > 0 {
            kinds.push(("provisioning and pricing", provision));
        }
    }
    Ok(kinds)
}

/// The tables the migrations made for the single cluster (schemas 1 to 3
/// and 10), the Grid (schema 4) and the provisioning and pricing kinds
/// (schemas 5 to 9), which now live in crates of their own: each crate
/// describes its tables when it is registered.
pub const MADE_FOR_OTHER_CRATES: [&str; 19] = [
    "runs",
    "battery_jobs",
    "job_outcomes",
    "reservations",
    "node_events",
    "energy",
    "energy_states",
    "points",
    "grid_points",
    "coreservations",
    "subreservations",
    "cluster_runs",
    "provision_points",
    "provision_sites",
    "provision_submissions",
    "priced_reservations",
    "slot_samples",
    "advertised_slots",
    "pricing_harm",
];

/// What each table and view of the store holds, for the schema reference
/// (`slasim reference schema`, which refuses a table missing here).
pub const TABLES: &[(&str, &str)] = &[
    (
        "runs",
        "One row per single-cluster or Grid run: its strategy, battery, trace, seed, capacity and resolved settings.",
    ),
    ("battery_jobs", "A battery's jobs, stored once and shared by every run of that battery."),
    (
        "job_outcomes",
        "What became of each job in each run: acceptance, planned and actual start and end, PoF, fee, penalty.",
    ),
    (
        "jobs",
        "View: `job_outcomes` joined with `battery_jobs` and `runs`, one row per job per run with every attribute and outcome.",
    ),
    ("node_events", "Node failures and repairs each run saw."),
    (
        "energy",
        "An energy meter's reading per run and cluster: idle, busy and down node-seconds over the makespan window, and joules.",
    ),
    (
        "energy_states",
        "Per run and cluster with an energy meter: node-seconds, joules and transitions per node power state over the makespan window.",
    ),
    ("points", "One row per run with its axes and summary metrics (the report reads these)."),
    ("experiments", "One row per config (or command line) that ran points into this store: its name, text and hash."),
    ("experiment_points", "Which point belongs to which experiment and sweep (a point may belong to several)."),
    ("reservations", "Advance reservations of a run (paper B): requested start, acceptance, outcome, fee and penalty."),
    (
        "all_jobs",
        "View: every kind's jobs in one vocabulary, one row per job of every point whose kind has jobs (single-cluster, Grid, Slurm): `point` (`run_id` or `point_id`), `kind` (the kind's name: `single`, `grid`, `slurm`), `job` (its index in the battery or workload), `submit`, `start`, `end`, `wait` (start − submit; the three NULL for a job that never started) and `processors` (single-cluster and Grid: the job's `nodes`, in the run's node unit, processors unless `prepare.node_unit = \"nodes\"`; Slurm: its CPUs).",
    ),
];
