//! The provisioning and pricing tables' history: the scripts that made and
//! changed them, verbatim, each keyed by the schema version it made (the
//! engine ran them until the tables' descriptors became their definition).
//!
//! Contract: a store from before schema 9 is brought up by these steps
//! (beside the other groups', in version order), so it upgrades exactly as
//! it always did; a new store is made from the descriptors, and a test holds
//! the two equal. Never edit a step: a change to a table is a change to its
//! descriptors.

use slasim_core::store::tables::groups::Step;

/// Schemas 5, 6, 8 and 9.
pub static STEPS: [Step; 4] = [
    // v5: provisioning (slot advertisement, MOGA workflow provisioning).
    Step {
        version: 5,
        sql: r#"
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
    },
    // v6: greedy provisioning with adaptive pricing (Ch. 7) and the provider's view of pricing.
    Step {
        version: 6,
        sql: r#"
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
    },
    // v8: the bought slot priced under both policies on the same state (issue 16's EASY vs CB question).
    Step {
        version: 8,
        sql: r#"
ALTER TABLE priced_reservations ADD COLUMN queued INTEGER;             -- queued best-effort jobs when it was sold
ALTER TABLE priced_reservations ADD COLUMN queued_procs INTEGER;       -- their processors, summed
ALTER TABLE priced_reservations ADD COLUMN f_conservative REAL;        -- its f under conservative backfilling
ALTER TABLE priced_reservations ADD COLUMN f_easy REAL;                -- its f under EASY (A19)
ALTER TABLE priced_reservations ADD COLUMN advanced_conservative REAL; -- Σ advance × procs it caused (f ignores it)
ALTER TABLE priced_reservations ADD COLUMN advanced_easy REAL;
"#,
    },
    // v9: a pricing point's share, α and policy are columns (its id is
    // derived from its canonical TOML settings since).
    Step {
        version: 9,
        sql: r#"
ALTER TABLE provision_points ADD COLUMN share REAL;            -- pricing: % of the jobs that buy reservations
ALTER TABLE provision_points ADD COLUMN alpha REAL;            -- pricing: the buyers' trade-off factor
ALTER TABLE provision_points ADD COLUMN pricing_policy TEXT;   -- pricing: 'conservative' or 'easy'
"#,
    },
];
