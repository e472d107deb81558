//! The single-cluster tables' history: the scripts that made and changed
//! them, verbatim, each keyed by the schema version it made (the engine ran
//! them until the tables' descriptors became their definition).
//!
//! Contract: a store from before schema 11 is brought up by these steps
//! (beside the other groups', in version order), so it upgrades exactly as
//! it always did; a new store is made from the descriptors, and a test holds
//! the two equal. Never edit a step: a change to a table is a change to its
//! descriptors.

use slasim_core::store::tables::groups::Step;

/// A battery's job attributes are the same in every run of it, so they are
/// stored once (`battery_jobs`) and each run stores only its outcomes
/// (`job_outcomes`); the `jobs` view joins them back into one row per job per
/// run with every attribute and outcome.
pub static STEPS: [Step; 7] = [
    Step {
        version: 1,
        sql: r#"
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
"#,
    },
    Step {
        version: 2,
        sql: r#"
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
    },
    Step {
        version: 3,
        sql: r#"
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
    },
    Step {
        version: 4,
        sql: r#"
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
"#,
    },
    // v7: online PoF calibration (issue 17).
    Step {
        version: 7,
        sql: r#"
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
    },
    // v10: an energy meter's reading per run and cluster.
    Step {
        version: 10,
        sql: r#"
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
    },
    // v11: node power states: seconds and joules per state, transitions
    // included (and the points' energy_policy, idle_timeout and power_cap,
    // from their descriptors).
    Step {
        version: 11,
        sql: r#"
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
    },
];
