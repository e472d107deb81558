//! The single-cluster runs' store group, by descriptors: a run and its
//! battery's jobs ([`run`]) and its row of axes and summary metrics
//! ([`points`]), the `jobs` view over them, and their history
//! ([`history`]: the steps of schemas 1 to 11). The Grid's points store
//! their runs here too.

pub mod carbon;
pub mod history;
pub mod points;
pub mod run;

use slasim_core::store::columns::Described;
use slasim_core::store::tables::groups::View;
use slasim_core::store::tables::groups::{PointTables, all, new, shared};

/// Every table of single-cluster runs.
pub fn described() -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = run::tables().to_vec();
    all.extend(points::tables());
    all
}

/// `job_outcomes` joined with `battery_jobs` and `runs` (as schema 7 made it).
pub static JOBS_VIEW: View = View {
    name: "jobs",
    doc: "View: `job_outcomes` joined with `battery_jobs` and `runs`, one row per job per run with every attribute and outcome.",
    sql: "CREATE VIEW jobs AS
SELECT o.run_id, r.strategy, r.battery, o.job, b.swf_id, b.occurrence, b.release, b.deadline, b.estimate,
       b.runtime, b.nodes, b.user, b.application, b.queue, o.accepted, o.planned_start, o.planned_end,
       o.actual_start, o.actual_end, o.overbooked, o.pof,
       CASE o.outcome WHEN 1 THEN 'success' WHEN 2 THEN 'failed' ELSE 'rejected' END AS outcome,
       o.fee, o.penalty, o.restarts, o.executed, o.moves, o.pinned, o.checkpoints, o.cluster, o.pof_calibrated
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job",
};

/// Single-cluster runs, and the runs of the Grid's points (whose own
/// tables are the Grid's group), with the batteries' jobs they share.
pub static RUNS: PointTables = PointTables {
    key_table: "runs",
    key: "run_id",
    metrics: "points",
    tables: &[
        all("runs"),
        shared("battery_jobs"),
        all("job_outcomes"),
        all("node_events"),
        all("energy"),
        all("energy_states"),
        all("reservations"),
        new("points"),
    ],
    described,
    steps: &history::STEPS,
    views: &[JOBS_VIEW],
    ids_since: None,
    jobs: Some(
        "SELECT o.run_id AS point, CASE WHEN g.run_id IS NULL THEN 'single' ELSE 'grid' END AS kind, o.job AS job,
       b.occurrence AS submit, o.actual_start AS start, o.actual_end AS \"end\",
       o.actual_start - b.occurrence AS wait, b.nodes AS processors
FROM job_outcomes o
JOIN runs r ON r.run_id = o.run_id
JOIN battery_jobs b ON b.battery_key = r.battery_key AND b.job = o.job
LEFT JOIN grid_points g ON g.run_id = o.run_id",
    ),
    provenance: Some("SELECT run_id AS point, trace, seed, config, code_version FROM runs"),
};
