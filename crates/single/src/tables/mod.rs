//! The single-cluster runs' store group, by descriptors: a run and its
//! battery's jobs ([`run`]) and its row of axes and summary metrics
//! ([`points`]), created by the engine's migrations. The Grid's points
//! store their runs here too.

pub mod carbon;
pub mod points;
pub mod run;

use slasim_core::store::columns::Described;
use slasim_core::store::tables::groups::{PointTables, all, new};

/// Every table of single-cluster runs.
pub fn described() -> Vec<&'static dyn Described> {
    let mut all: Vec<&'static dyn Described> = run::tables().to_vec();
    all.extend(points::tables());
    all
}

/// Single-cluster runs, and the runs of the Grid's points (whose own
/// tables are the Grid's group): the tables the engine's migrations made
/// for them, so no script of their own. Merge copies `battery_jobs` for
/// every kind, before the groups.
pub static RUNS: PointTables = PointTables {
    key_table: "runs",
    key: "run_id",
    tables: &[
        all("runs"),
        all("job_outcomes"),
        all("node_events"),
        all("energy"),
        all("energy_states"),
        all("reservations"),
        new("points"),
    ],
    schema: "",
    described,
    docs: &[],
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
