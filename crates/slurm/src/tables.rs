//! The tables of a Slurm point: `slurm_points` (settings and aggregates),
//! `slurm_groups` (per partition, account, user and QOS), `slurm_jobs` (per
//! job) and `slurm_reasons` (per reason jobs waited for), registered with the store as one group ([`GROUP`]), whose jobs
//! join the `all_jobs` view.
//!
//! Contract:
//! - The tables are created by [`SCHEMA`] (`CREATE TABLE IF NOT EXISTS`),
//!   run whenever a store is opened for writing: new tables, no migration
//!   step; a column added since is appended to a table's end, and a store
//!   opened for writing gets it from its descriptor. The descriptors below are checked against what it creates, like
//!   every other table's ([`slasim_core::store::tables::described_tables`]); the
//!   script keeps its text (`NOT NULL` and the keys, which descriptors do
//!   not carry), so stores keep the schema text they always had.
//! - In `all_jobs` a Slurm job's `processors` are its CPUs; a job that
//!   never started (stored `start` −1) has NULL start, end and wait.
//! - Rows bind exactly the values (and Rust types) the Slurm kind stored
//!   before descriptors: the stored rows do not change.

use crate::controller::Outcome;
use slasim_core::store::columns::{Described, Rows, Table, column};
use slasim_core::store::tables::groups::{PointTables, all};
use slasim_core::store::{Store, StoreError};
use slasim_data::trace::sacct::jobs::SlurmJob;
use slasim_sim::units::Time;

/// Creates the Slurm tables (idempotent).
pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS slurm_points (
                 point_id INTEGER PRIMARY KEY, experiment TEXT, conf TEXT NOT NULL, conf_sha256 TEXT NOT NULL,
                 trace TEXT NOT NULL, seed INTEGER NOT NULL, config TEXT NOT NULL,
                 jobs INTEGER NOT NULL, mean_wait REAL, median_wait REAL, max_wait INTEGER,
                 mean_bounded_slowdown REAL, makespan INTEGER NOT NULL,
                 cpu_utilisation REAL, gpu_utilisation REAL, backfilled INTEGER NOT NULL,
                 main_passes INTEGER NOT NULL, backfill_passes INTEGER NOT NULL,
                 preemptions INTEGER NOT NULL DEFAULT 0,
                 code_version TEXT NOT NULL, wall_seconds REAL NOT NULL);
             CREATE TABLE IF NOT EXISTS slurm_groups (
                 point_id INTEGER NOT NULL, grouping TEXT NOT NULL, name TEXT NOT NULL,
                 jobs INTEGER NOT NULL, mean_wait REAL, max_wait INTEGER,
                 cpu_seconds REAL NOT NULL, gpu_seconds REAL NOT NULL,
                 PRIMARY KEY (point_id, grouping, name));
             CREATE TABLE IF NOT EXISTS slurm_jobs (
                 point_id INTEGER NOT NULL, job INTEGER NOT NULL, slurm_id INTEGER NOT NULL,
                 user TEXT NOT NULL, account TEXT NOT NULL, partition TEXT NOT NULL,
                 submit INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
                 wait INTEGER NOT NULL, cpus INTEGER NOT NULL, mem_mib INTEGER NOT NULL,
                 nodes INTEGER NOT NULL, gpus INTEGER NOT NULL, time_limit INTEGER NOT NULL,
                 priority INTEGER NOT NULL, backfilled INTEGER NOT NULL, first_node TEXT NOT NULL,
                 logged_start INTEGER, reason TEXT,
                 preempted INTEGER NOT NULL DEFAULT 0, preempt_cancelled INTEGER NOT NULL DEFAULT 0,
                 PRIMARY KEY (point_id, job));
             CREATE TABLE IF NOT EXISTS slurm_reasons (
                 point_id INTEGER NOT NULL, reason TEXT NOT NULL,
                 jobs INTEGER NOT NULL, tests INTEGER NOT NULL,
                 PRIMARY KEY (point_id, reason));";

/// The aggregates of a run (its `slurm_points` figures), in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregates {
    /// Jobs that ran.
    pub jobs: usize,
    /// Mean wait.
    pub mean_wait: Option<f64>,
    /// Median wait.
    pub median_wait: Option<f64>,
    /// Largest wait.
    pub max_wait: Option<i64>,
    /// Mean bounded slowdown (τ = 10 s).
    pub mean_bounded_slowdown: Option<f64>,
    /// First submit to last end.
    pub makespan: Time,
    /// Busy CPU-seconds over CPUs × makespan.
    pub cpu_utilisation: Option<f64>,
    /// Busy GPU-seconds over GPUs × makespan.
    pub gpu_utilisation: Option<f64>,
    /// Jobs the backfill scheduler started.
    pub backfilled: usize,
}

/// The aggregates of the `slurm_points` row of point `point_id`, if the
/// store has it (read back as [`SLURM_POINTS`] binds them).
pub fn stored_aggregates(store: &Store, point_id: i64) -> Result<Option<Aggregates>, StoreError> {
    const SQL: &str = "SELECT jobs, mean_wait, median_wait, max_wait, mean_bounded_slowdown, makespan, \
                       cpu_utilisation, gpu_utilisation, backfilled FROM slurm_points WHERE point_id = ?1";
    store.read(|conn| {
        let mut statement = conn.prepare(SQL)?;
        let mut rows = statement.query([point_id])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        Ok(Some(Aggregates {
            jobs: row.get::<_, i64>(0)? as usize,
            mean_wait: row.get(1)?,
            median_wait: row.get(2)?,
            max_wait: row.get(3)?,
            mean_bounded_slowdown: row.get(4)?,
            makespan: row.get(5)?,
            cpu_utilisation: row.get(6)?,
            gpu_utilisation: row.get(7)?,
            backfilled: row.get::<_, i64>(8)? as usize,
        }))
    })
}

/// The `slurm_points` row of a point.
#[derive(Debug, Clone, Copy)]
pub struct SlurmPointRow<'a> {
    /// Its stable id.
    pub point_id: i64,
    /// The config's name, if run from one.
    pub experiment: Option<&'a str>,
    /// The `slurm.conf` path.
    pub conf: &'a str,
    /// sha256 of the `slurm.conf`.
    pub conf_sha256: &'a str,
    /// The sacct dump, or `synthetic`.
    pub trace: &'a str,
    /// Seed.
    pub seed: i64,
    /// Resolved settings, TOML.
    pub config: &'a str,
    /// Its aggregates.
    pub aggregates: &'a Aggregates,
    /// Main scheduler passes.
    pub main_passes: i64,
    /// Backfill passes run.
    pub backfill_passes: i64,
    /// Jobs preempted (requeued or cancelled; 0 without preemption).
    pub preemptions: i64,
    /// slasim version (and commit).
    pub code_version: &'a str,
    /// Wall seconds of the simulation.
    pub wall_seconds: f64,
}

/// The row type of `slurm_points`.
pub enum Points {}

impl Rows for Points {
    type Row<'a> = SlurmPointRow<'a>;
    type Summary = ();
}

/// One row per Slurm point.
pub static SLURM_POINTS: Table<Points> = Table::new(
    "slurm_points",
    11,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("experiment", Text, |r| r.experiment),
        column!("conf", Text, |r| r.conf),
        column!("conf_sha256", Text, |r| r.conf_sha256),
        column!("trace", Text, |r| r.trace),
        column!("seed", Int, |r| r.seed),
        column!("config", Text, |r| r.config),
        column!("jobs", Int, |r| r.aggregates.jobs as i64),
        column!("mean_wait", Real, |r| r.aggregates.mean_wait),
        column!("median_wait", Real, |r| r.aggregates.median_wait),
        column!("max_wait", Int, |r| r.aggregates.max_wait),
        column!("mean_bounded_slowdown", Real, |r| r.aggregates.mean_bounded_slowdown),
        column!("makespan", Int, |r| r.aggregates.makespan),
        column!("cpu_utilisation", Real, |r| r.aggregates.cpu_utilisation),
        column!("gpu_utilisation", Real, |r| r.aggregates.gpu_utilisation),
        column!("backfilled", Int, |r| r.aggregates.backfilled as i64),
        column!("main_passes", Int, |r| r.main_passes),
        column!("backfill_passes", Int, |r| r.backfill_passes),
        column!("preemptions", Int, |r| r.preemptions),
        column!("code_version", Text, |r| r.code_version),
        column!("wall_seconds", Real, |r| r.wall_seconds),
    ],
);

/// A partition, account or user of a point: its jobs' waits and usage.
#[derive(Debug, Clone, Copy)]
pub struct SlurmGroupRow<'a> {
    /// The point.
    pub point_id: i64,
    /// `partition`, `account` or `user`.
    pub grouping: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Jobs that ran.
    pub jobs: i64,
    /// Their mean wait, s.
    pub mean_wait: f64,
    /// Their largest wait, s.
    pub max_wait: i64,
    /// CPU-seconds they used.
    pub cpu_seconds: f64,
    /// GPU-seconds they used.
    pub gpu_seconds: f64,
}

/// The row type of `slurm_groups`.
pub enum Groups {}

impl Rows for Groups {
    type Row<'a> = SlurmGroupRow<'a>;
    type Summary = ();
}

/// Per partition, account and user of a point.
pub static SLURM_GROUPS: Table<Groups> = Table::new(
    "slurm_groups",
    11,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("grouping", Text, |r| r.grouping),
        column!("name", Text, |r| r.name),
        column!("jobs", Int, |r| r.jobs),
        column!("mean_wait", Real, |r| r.mean_wait),
        column!("max_wait", Int, |r| r.max_wait),
        column!("cpu_seconds", Real, |r| r.cpu_seconds),
        column!("gpu_seconds", Real, |r| r.gpu_seconds),
    ],
);

/// A job of a point and what became of it.
#[derive(Debug, Clone, Copy)]
pub struct SlurmJobRow<'a> {
    /// The point.
    pub point_id: i64,
    /// Its index in the workload.
    pub job: usize,
    /// The job.
    pub slurm: &'a SlurmJob,
    /// What became of it.
    pub outcome: &'a Outcome,
    /// Its user's, account's and partition's names.
    pub user: &'a str,
    /// Its account.
    pub account: &'a str,
    /// Its partition.
    pub partition: &'a str,
    /// The name of its first node ("" if it never started).
    pub first_node: &'a str,
    /// The reason it last waited for, or was rejected for (Slurm's name).
    pub reason: Option<&'static str>,
}

/// The row type of `slurm_jobs`.
pub enum Jobs {}

impl Rows for Jobs {
    type Row<'a> = SlurmJobRow<'a>;
    type Summary = ();
}

/// One row per job of a point (unless `store_jobs = false`).
pub static SLURM_JOBS: Table<Jobs> = Table::new(
    "slurm_jobs",
    11,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("job", Int, |r| r.job as i64),
        column!("slurm_id", Int, |r| r.slurm.id as i64),
        column!("user", Text, |r| r.user),
        column!("account", Text, |r| r.account),
        column!("partition", Text, |r| r.partition),
        column!("submit", Int, |r| r.slurm.submit),
        column!("start", Int, |r| r.outcome.start),
        column!("end", Int, |r| r.outcome.end),
        // −1 for a job that never started.
        column!("wait", Int, |r| if r.outcome.start >= 0 {
            slasim_core::metrics::wait(r.slurm.submit, r.outcome.start)
        } else {
            -1
        }),
        column!("cpus", Int, |r| r.slurm.request.cpus),
        column!("mem_mib", Int, |r| r.slurm.request.mem_mib as i64),
        column!("nodes", Int, |r| r.slurm.request.nodes),
        column!("gpus", Int, |r| r.slurm.request.gpus),
        column!("time_limit", Int, |r| r.slurm.time_limit.unwrap_or(-1)),
        column!("priority", Int, |r| r.outcome.priority),
        column!("backfilled", Int, |r| r.outcome.backfilled),
        column!("first_node", Text, |r| r.first_node),
        column!("logged_start", Int, |r| r.slurm.logged.as_ref().map(|l| l.start)),
        column!("reason", Text, |r| r.reason),
        column!("preempted", Int, |r| r.outcome.preempted),
        column!("preempt_cancelled", Int, |r| r.outcome.preempt_cancelled),
    ],
);

/// A reason jobs waited for, or were rejected for, in a point.
#[derive(Debug, Clone, Copy)]
pub struct SlurmReasonRow<'a> {
    /// The point.
    pub point_id: i64,
    /// Slurm's name of it (`QOSMaxJobsPerUserLimit`, `PartitionTimeLimit`, ...).
    pub reason: &'a str,
    /// Jobs whose last reason it was.
    pub jobs: i64,
    /// The scheduler tests it failed (and the submissions it refused).
    pub tests: i64,
}

/// The row type of `slurm_reasons`.
pub enum Reasons {}

impl Rows for Reasons {
    type Row<'a> = SlurmReasonRow<'a>;
    type Summary = ();
}

/// Per reason a point's jobs waited for (only reasons that occurred).
pub static SLURM_REASONS: Table<Reasons> = Table::new(
    "slurm_reasons",
    11,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("reason", Text, |r| r.reason),
        column!("jobs", Int, |r| r.jobs),
        column!("tests", Int, |r| r.tests),
    ],
);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 4] {
    [&SLURM_POINTS, &SLURM_GROUPS, &SLURM_JOBS, &SLURM_REASONS]
}

/// The Slurm points' tables, as the store registers them.
pub static GROUP: PointTables = PointTables {
    key_table: "slurm_points",
    key: "point_id",
    tables: &[all("slurm_points"), all("slurm_groups"), all("slurm_jobs"), all("slurm_reasons")],
    schema: SCHEMA,
    described: || tables().to_vec(),
    docs: &[
        (
            "slurm_points",
            "One row per Slurm point: its `slurm.conf` (and its sha256), workload, settings and aggregates: mean, median and largest wait, mean bounded slowdown, makespan, CPU and GPU utilisation, backfilled jobs, scheduler passes, preemptions.",
        ),
        (
            "slurm_groups",
            "Per Slurm point and partition, account, user or QOS (`grouping`, `name`): jobs, mean and largest wait, CPU- and GPU-seconds.",
        ),
        (
            "slurm_jobs",
            "Each job of a Slurm point (unless `store_jobs = false`): its user, account, partition and request, submit, start, end and wait (−1 for a job that never started), priority at its start, whether backfill started it, its first node, the logged start of a sacct dump, and the reason it last waited for (Slurm's name; NULL if none).",
        ),
        (
            "slurm_reasons",
            "Per Slurm point and reason (Slurm's names: `QOSMaxJobsPerUserLimit`, `PartitionTimeLimit`, ...): the jobs whose last reason it was, and the scheduler tests it failed. Only the reasons that occurred.",
        ),
    ],
    jobs: Some(
        "SELECT point_id, 'slurm', job, submit, CASE WHEN start >= 0 THEN start END, CASE WHEN start >= 0 THEN \"end\" END,
       CASE WHEN start >= 0 THEN wait END, cpus
FROM slurm_jobs",
    ),
    provenance: Some("SELECT point_id AS point, trace, seed, config, code_version FROM slurm_points"),
};
