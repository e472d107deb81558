//! The tables of a Slurm point: `slurm_points` (settings and aggregates),
//! `slurm_groups` (per partition, account, user and QOS), `slurm_jobs` (per
//! job) and `slurm_reasons` (per reason jobs waited for), registered with the store as one group ([`GROUP`]), whose jobs
//! join the `all_jobs` view.
//!
//! Contract:
//! - The descriptors below are the tables' one definition: a store opened
//!   for writing gets the tables it lacks from them, and a column appended
//!   to a table since a store was written is added to it from its
//!   descriptor, its `default` standing for the rows already there (the
//!   tables came after schema 11: no steps, no migration).
//! - In `all_jobs` a Slurm job's `processors` are its CPUs; a job that
//!   never started (stored `start` −1) has NULL start, end and wait.
//! - Rows bind exactly the values (and Rust types) the Slurm kind stored
//!   before descriptors: the stored rows do not change.

use crate::controller::Outcome;
use slasim_core::store::columns::{Column, Described, Read, Rows, Table, column, read_back};
use slasim_core::store::tables::groups::{PointTables, all};
use slasim_core::store::{Store, StoreError};
use slasim_data::trace::sacct::jobs::SlurmJob;
use slasim_sim::units::Time;

/// The aggregates of a run (its `slurm_points` figures), in seconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aggregates {
    /// Jobs that ran.
    pub jobs: usize,
    /// Mean wait.
    pub mean_wait: Option<f64>,
    /// Median wait.
    pub median_wait: Option<f64>,
    /// Largest wait.
    pub max_wait: Option<i64>,
    /// 95th-percentile wait (nearest rank).
    pub p95_wait: Option<i64>,
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
/// store has it (the columns whose descriptors `read` them back).
pub fn stored_aggregates(store: &Store, point_id: i64) -> Result<Option<Aggregates>, StoreError> {
    store.read(|conn| read_back(conn, &SLURM_POINTS, point_id))
}

/// The `slurm_points` row of a point.
#[derive(Debug, Clone, Copy)]
pub struct SlurmPointRow<'a> {
    /// Its stable id.
    pub point_id: i64,
    /// The config's name, if run from one.
    pub experiment: Option<&'a str>,
    /// The `slurm.conf` path, as given (none: generated from the trace).
    pub conf: Option<&'a str>,
    /// The `slurm.conf` generated from a GPU-era trace (none: read from `conf`).
    pub conf_text: Option<&'a str>,
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
    /// Runs killed by a node going down.
    pub node_failed: i64,
    /// slasim version (and commit).
    pub code_version: &'a str,
    /// Wall seconds of the simulation.
    pub wall_seconds: f64,
}

/// The row type of `slurm_points`.
pub enum Points {}

impl Rows for Points {
    type Row<'a> = SlurmPointRow<'a>;
    type Summary = Aggregates;
}

/// Sets an aggregate from its stored value (a count is stored as an INTEGER).
macro_rules! read {
    ($field:ident) => {{
        let read: Read<Points> = |a, row, i| {
            a.$field = row.get(i)?;
            Ok(())
        };
        read
    }};
    ($field:ident as usize) => {{
        let read: Read<Points> = |a, row, i| {
            a.$field = row.get::<_, i64>(i)? as usize;
            Ok(())
        };
        read
    }};
}

/// One row per Slurm point.
pub static SLURM_POINTS: Table<Points> = Table::new(
    "slurm_points",
    11,
    "One row per Slurm point: its `slurm.conf` (and its sha256), workload, settings and aggregates: mean, median, 95th-percentile and largest wait, mean bounded slowdown, makespan, CPU and GPU utilisation, backfilled jobs, scheduler passes, preemptions.",
)
.key(&["point_id"])
.columns(POINT_COLUMNS);

const POINT_COLUMNS: &[Column<Points>] = &[
    column!("point_id", Int, "stable: derived from the point's resolved settings", |r| r.point_id),
    column!("experiment", Text null, "the config's name (NULL: not run from one)", |r| r.experiment),
    column!("conf", Text null, "the `slurm.conf` as given (NULL: generated from the trace, in `conf_text`)", |r| {
        r.conf
    }; null_was "''"),
    column!("conf_sha256", Text, "sha256 of the `slurm.conf`", |r| r.conf_sha256),
    column!("trace", Text, "the sacct dump, or `synthetic`", |r| r.trace),
    column!("seed", Int, "the seed", |r| r.seed),
    column!("config", Text, "the resolved settings, TOML", |r| r.config),
    column!("jobs", Int, "jobs that ran", |r| r.aggregates.jobs as i64; read read!(jobs as usize)),
    column!("mean_wait", Real null, "mean wait, s (NULL: no job ran)", |r| r.aggregates.mean_wait; read read!(mean_wait)),
    column!("median_wait", Real null, "median wait, s (NULL: no job ran)", |r| r.aggregates.median_wait
        ; read read!(median_wait)),
    column!("max_wait", Int null, "largest wait, s (NULL: no job ran)", |r| r.aggregates.max_wait; read read!(max_wait)),
    column!("mean_bounded_slowdown", Real null, "mean bounded slowdown, τ = 10 s (NULL: no job ran)", |r| {
        r.aggregates.mean_bounded_slowdown
    }; read read!(mean_bounded_slowdown)),
    column!("makespan", Int, "first submit to last end, s", |r| r.aggregates.makespan; read read!(makespan)),
    column!("cpu_utilisation", Real null, "busy CPU-seconds over CPUs × makespan (NULL: no makespan)", |r| {
        r.aggregates.cpu_utilisation
    }; read read!(cpu_utilisation)),
    column!("gpu_utilisation", Real null, "busy GPU-seconds over GPUs × makespan (NULL: no GPU or no makespan)", |r| {
        r.aggregates.gpu_utilisation
    }; read read!(gpu_utilisation)),
    column!("backfilled", Int, "jobs the backfill scheduler started", |r| r.aggregates.backfilled as i64
        ; read read!(backfilled as usize)),
    column!("main_passes", Int, "main scheduler passes", |r| r.main_passes),
    column!("backfill_passes", Int, "backfill passes run", |r| r.backfill_passes),
    column!("preemptions", Int, "jobs preempted, requeued or cancelled (0 without preemption)", |r| {
        r.preemptions
    }; default "0"),
    column!("code_version", Text, "the slasim version (and commit) that ran it", |r| r.code_version),
    column!("wall_seconds", Real, "wall seconds of the simulation", |r| r.wall_seconds),
    column!("conf_text", Text null, "the `slurm.conf` generated from a GPU-era trace, as `slasim slurm conf --trace` prints it (NULL: read from `conf`)", |r| {
        r.conf_text
    }),
    column!("p95_wait", Int null, "95th-percentile wait (nearest rank), s (NULL: no job ran, or stored before it)", |r| {
        r.aggregates.p95_wait
    }; read read!(p95_wait)),
    column!("node_failed", Int, "runs killed by a node going down (0 without `DOWN` node events)", |r| {
        r.node_failed
    }; default "0"),
];

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
    /// Their 95th-percentile wait (nearest rank), s.
    pub p95_wait: i64,
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
    "Per Slurm point and partition, account, user or QOS (`grouping`, `name`): jobs, mean, 95th-percentile and largest wait, CPU- and GPU-seconds.",
)
.key(&["point_id", "grouping", "name"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id),
    column!("grouping", Text, "`partition`, `account`, `user` or `qos`", |r| r.grouping),
    column!("name", Text, "the partition's, account's, user's or QOS's name", |r| r.name),
    column!("jobs", Int, "its jobs that ran", |r| r.jobs),
    column!("mean_wait", Real null, "their mean wait, s", |r| r.mean_wait),
    column!("max_wait", Int null, "their largest wait, s", |r| r.max_wait),
    column!("cpu_seconds", Real, "CPU-seconds they used", |r| r.cpu_seconds),
    column!("gpu_seconds", Real, "GPU-seconds they used", |r| r.gpu_seconds),
    column!("p95_wait", Int null, "their 95th-percentile wait (nearest rank), s (NULL: stored before it)", |r| {
        Some(r.p95_wait)
    }),
]);

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
    "Each job of a Slurm point (unless `store_jobs = false`): its user, account, partition and request, submit, start, end and wait (NULL for a job that never started), priority at its start, whether backfill started it, its first node, the logged start of a sacct dump, and the reason it last waited for (Slurm's name; NULL if none).",
)
.key(&["point_id", "job"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id),
    column!("job", Int, "its index in the workload", |r| r.job as i64),
    column!("slurm_id", Int, "its Slurm job id", |r| r.slurm.id as i64),
    column!("user", Text, "its user", |r| r.user),
    column!("account", Text, "its account", |r| r.account),
    column!("partition", Text, "its partition", |r| r.partition),
    column!("submit", Int, "its submission, s", |r| r.slurm.submit),
    column!("start", Int null, "its start, s (NULL: never started)", |r| started(r.outcome.start); null_was "-1"),
    column!("end", Int null, "its end, s (NULL: never ended)", |r| started(r.outcome.end); null_was "-1"),
    column!("wait", Int null, "start − submit, s (NULL: never started)", |r| {
        started(r.outcome.start).map(|start| slasim_core::metrics::wait(r.slurm.submit, start))
    }; null_was "-1"),
    column!("cpus", Int, "the CPUs it requests", |r| r.slurm.request.cpus),
    column!("mem_mib", Int, "the memory it requests, MiB", |r| r.slurm.request.mem_mib as i64),
    column!("nodes", Int, "the nodes it requests", |r| r.slurm.request.nodes),
    column!("gpus", Int, "the GPUs it requests", |r| r.slurm.request.gpus),
    column!("time_limit", Int null, "its time limit, s (NULL: none)", |r| r.slurm.time_limit; null_was "-1"),
    column!("priority", Int, "its priority when it started", |r| r.outcome.priority),
    column!("backfilled", Int, "1 if the backfill scheduler started it", |r| r.outcome.backfilled),
    column!("first_node", Text null, "the name of its first node (NULL: never started)", |r| {
        (!r.first_node.is_empty()).then_some(r.first_node)
    }; null_was "''"),
    column!("logged_start", Int null, "the start a sacct dump logged, s (NULL: not from a dump)", |r| {
        r.slurm.logged.as_ref().map(|l| l.start)
    }),
    column!("reason", Text null, "the reason it last waited for, or was rejected for (Slurm's name; NULL if none)", |r| {
        r.reason
    }),
    column!("preempted", Int, "times it was preempted", |r| r.outcome.preempted; default "0"),
    column!("preempt_cancelled", Int, "1 if preemption cancelled it (then `end` is that instant)", |r| {
        r.outcome.preempt_cancelled
    }; default "0"),
    column!("node_failed", Int, "times a node going down killed its run", |r| r.outcome.node_failed; default "0"),
    column!("node_fail_ended", Int, "1 if a node failure ended it, not requeued (`JobRequeue=0`; then `end` is that instant)", |r| {
        r.outcome.node_fail_ended
    }; default "0"),
]);

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
    "Per Slurm point and reason (Slurm's names: `QOSMaxJobsPerUserLimit`, `PartitionTimeLimit`, ...): the jobs whose last reason it was, and the scheduler tests it failed. Only the reasons that occurred.",
)
.key(&["point_id", "reason"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id),
    column!("reason", Text, "Slurm's name of the reason", |r| r.reason),
    column!("jobs", Int, "jobs whose last reason it was", |r| r.jobs),
    column!("tests", Int, "the scheduler tests it failed (and the submissions it refused)", |r| r.tests),
]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 4] {
    [&SLURM_POINTS, &SLURM_GROUPS, &SLURM_JOBS, &SLURM_REASONS]
}

/// A time the twin keeps as −1 until it happens, as stored: NULL until then.
fn started(time: Time) -> Option<Time> {
    (time >= 0).then_some(time)
}

/// The Slurm points' tables, as the store registers them.
pub static GROUP: PointTables = PointTables {
    key_table: "slurm_points",
    key: "point_id",
    metrics: "slurm_points",
    tables: &[all("slurm_points"), all("slurm_groups"), all("slurm_jobs"), all("slurm_reasons")],
    described: || tables().to_vec(),
    steps: &[],
    views: &[],
    ids_since: None,
    jobs: Some(
        "SELECT point_id, 'slurm', job, submit, start, \"end\", wait, cpus
FROM slurm_jobs",
    ),
    provenance: Some("SELECT point_id AS point, trace, seed, config, code_version FROM slurm_points"),
};
