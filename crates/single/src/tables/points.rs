//! The `points` table: a single-cluster point's settings and aggregates.
//!
//! Contract: one row per run; the report reads its axes and metrics as the
//! descriptors' [`Use`](slasim_core::store::columns::Use)s say, [`crate::writer::stored_summary`] reads every
//! column with a `read` back into a [`RunSummary`]. Columns added after
//! schema 1 read as their `default` in older stores.

use crate::summary::RunSummary;
use crate::tables::run::RunRow;
use slasim_core::store::columns::Section;
use slasim_core::store::columns::{Column, Described, Read, Rows, Table, axis, column, metric};

/// The single-cluster aggregates (and the dissertation tables from them).
pub const SUMMARY: Section = Section("summary");
/// Paper B's reservation table.
pub const RESERVATIONS: Section = Section("reservations");
/// The gain with and without checkpointing.
pub const CHECKPOINTS: Section = Section("checkpoints");
/// The classic queueing modes' metrics.
pub const QUEUEING: Section = Section("queueing");

/// The report groupings of the `points` table, which the kind declares.
pub const SECTIONS: [Section; 4] = [SUMMARY, RESERVATIONS, CHECKPOINTS, QUEUEING];

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
    /// The energy policy (`none` without one).
    pub energy_policy: String,
    /// Its idle timeout, seconds (0 when it reads none).
    pub idle_timeout: i64,
    /// The power cap, watts.
    pub power_cap: Option<f64>,
}

/// What a `points` row is written from.
#[derive(Debug, Clone, Copy)]
pub struct PointRow<'a> {
    /// The run.
    pub run: &'a RunRow,
    /// Its settings.
    pub axes: &'a PointAxes,
    /// Its aggregates.
    pub summary: &'a RunSummary,
}

/// The row type of `points`.
pub enum Points {}

impl Rows for Points {
    type Row<'a> = PointRow<'a>;
    type Summary = RunSummary;
}

/// A metric of the run's summary, read back into the same field.
macro_rules! summary {
    ($name:literal, $field:ident, $ty:ident $($null:ident)?, $doc:literal $(; $($rest:tt)+)?) => {
        column!($name, $ty $($null)?, $doc, |r| r.summary.$field $(; $($rest)+)?; read read!($field))
    };
}

macro_rules! read {
    ($field:ident) => {{
        let read: Read<Points> = |s, row, i| {
            s.$field = row.get(i)?;
            Ok(())
        };
        read
    }};
}

/// Every column of `points`, in table order.
pub static POINTS: Table<Points> =
    Table::new("points", 1, "One row per run with its axes and summary metrics (the report reads these).")
        .key(&["run_id"])
        .columns(COLUMNS);

const COLUMNS: &[Column<Points>] = &[
    column!("run_id", Int, "the run", |r| r.run.run_id; references "runs(run_id)"),
    column!("strategy", Text, "the strategy's name", |r| r.run.strategy.as_str()
        ; uses [axis(SUMMARY, 0), axis(RESERVATIONS, 1), axis(CHECKPOINTS, 1), axis(QUEUEING, 1)]),
    column!("trace", Text, "the trace, as the user named it", |r| r.run.trace.as_str()
        ; uses [axis(SUMMARY, 1), axis(RESERVATIONS, 0), axis(CHECKPOINTS, 0), axis(QUEUEING, 0)]),
    column!("battery", Int, "the battery's index", |r| r.run.battery),
    column!("seed", Int, "the seed", |r| r.run.seed as i64),
    column!("placement", Text, "the placement's name", |r| r.axes.placement.as_str(); uses [axis(SUMMARY, 7)]),
    column!("acceptance", Text, "the acceptance test: `pof` or `risk`", |r| r.axes.acceptance.as_str()
        ; uses [axis(SUMMARY, 3), axis(CHECKPOINTS, 3)]),
    column!("pof_max", Real, "PoF_max, the largest accepted probability of failure", |r| r.axes.pof_max
        ; uses [axis(SUMMARY, 4), axis(CHECKPOINTS, 4)]),
    column!("security_factor", Real null, "the risk test's, resolved; NULL under the PoF test", |r| {
        r.axes.security_factor
    }; uses [axis(SUMMARY, 5)]),
    column!("penalty_ratio", Real, "a job's penalty over its fee", |r| r.axes.penalty_ratio
        ; uses [axis(SUMMARY, 6), axis(CHECKPOINTS, 5)]),
    column!("pdf_source", Text, "where the runtime PDFs come from", |r| r.axes.pdf_source.as_str()
        ; uses [axis(SUMMARY, 2), axis(CHECKPOINTS, 2)]),
    column!("failures", Text, "the node failure model's name", |r| r.axes.failures.as_str(); uses [axis(SUMMARY, 8)]),
    column!("capacity", Int, "the cluster's nodes", |r| r.run.capacity; uses [axis(QUEUEING, 2)]),
    summary!("jobs", jobs, Int, "jobs submitted"; uses [metric(QUEUEING, 0)]),
    summary!("accepted", accepted, Int, "jobs accepted at their occurrence"; uses [metric(SUMMARY, 0)]),
    summary!("successful", successful, Int, "jobs that ended successfully"; uses [metric(SUMMARY, 1)]),
    summary!("failed", failed, Int, "jobs that failed after acceptance"; uses [metric(SUMMARY, 2)]),
    summary!("rejected", rejected, Int, "jobs rejected at their occurrence"),
    summary!("fees", fees, Real, "Σ fees earned, VC"; uses [metric(SUMMARY, 3)]),
    summary!("penalties", penalties, Real, "Σ penalties paid, VC"; uses [metric(SUMMARY, 4)]),
    summary!("gain", gain, Real, "fees − penalties, VC"; uses [metric(SUMMARY, 5), metric(CHECKPOINTS, 0)]),
    summary!("utilisation", utilisation, Real, "node-seconds of execution over capacity × (0 to the last end)"; uses [
        metric(SUMMARY, 6),
        metric(RESERVATIONS, 2),
        metric(QUEUEING, 6),
    ]),
    summary!("overbooked", overbooked, Int, "accepted jobs booked shorter than their estimate"),
    summary!("overbooked_failed", overbooked_failed, Int, "of those, the jobs that failed"),
    summary!("overbooked_pof", overbooked_pof_sum, Real, "Σ predicted PoF of the overbooked jobs"),
    column!("wall_seconds", Real, "wall seconds the simulation took", |r| r.run.wall_seconds
        ; uses [metric(SUMMARY, 7)]),
    column!("reservation_percent", Real, "reservations in % of the jobs", |r| r.axes.reservation_percent
        ; since 2; default "0"; uses [axis(SUMMARY, 9), axis(RESERVATIONS, 5), axis(CHECKPOINTS, 6)]),
    column!("start_factor", Real, "the reservations' start factor", |r| r.axes.start_factor; since 2; default "1"
        ; uses [axis(SUMMARY, 10), axis(RESERVATIONS, 3)]),
    column!("reservation_option", Text, "what a reservation does to a job in its way: `reject` or `move`", |r| {
        r.axes.reservation_option.as_str()
    }; since 2; default "'reject'"; uses [axis(SUMMARY, 11), axis(RESERVATIONS, 2)]),
    // Last among the checkpointing axes: sorted by them, a pair is (off, on).
    column!("checkpointing", Int, "1 with checkpoint/restart, else 0", |r| r.axes.checkpointing; since 2; default "0"
        ; uses [axis(SUMMARY, 12), axis(RESERVATIONS, 4), axis(CHECKPOINTS, 7)]),
    summary!("reservations", reservations, Int, "reservations submitted"; since 2; default "0"
        ; uses [metric(RESERVATIONS, 3)]),
    summary!("reservations_accepted", reservations_accepted, Int, "of those, accepted"; since 2; default "0"),
    summary!("reservation_rejection_rate", reservation_rejection_rate, Real,
        "rejected reservations in % of those submitted"; since 2; default "0"; uses [metric(RESERVATIONS, 0)]),
    summary!("sldwa", sldwa, Real, "area-weighted slowdown of the variable jobs that ran"; since 2; default "0"
        ; uses [metric(RESERVATIONS, 1)]),
    summary!("moved_jobs", moved_jobs, Int, "variable jobs moved later at least once"; since 2; default "0"
        ; uses [metric(RESERVATIONS, 4)]),
    summary!("move_delay_mean", move_delay_mean, Real, "mean delay of the moved jobs that ran, seconds"
        ; since 2; default "0"; uses [metric(RESERVATIONS, 5)]),
    summary!("move_delay_max", move_delay_max, Real, "largest delay of the moved jobs that ran, seconds"
        ; since 2; default "0"; uses [metric(RESERVATIONS, 6)]),
    summary!("pinned_jobs", pinned_jobs, Int, "jobs the starvation guard pinned"; since 2; default "0"
        ; uses [metric(RESERVATIONS, 7)]),
    summary!("checkpoints", checkpoints, Int, "checkpoints written (killed overbooked jobs that may resume)"
        ; since 2; default "0"; uses [metric(CHECKPOINTS, 1)]),
    summary!("resumed_successful", resumed_successful, Int, "checkpointed jobs that succeeded in the end"
        ; since 2; default "0"; uses [metric(CHECKPOINTS, 2)]),
    column!("kill_at_estimate", Int, "classic modes: 1 if jobs are killed at their estimate", |r| {
        r.axes.kill_at_estimate
    }; since 3; default "1"; uses [axis(QUEUEING, 3)]),
    summary!("dropped", dropped, Int, "jobs dropped, wider than the machine"; since 3; default "0"
        ; uses [metric(QUEUEING, 1)]),
    summary!("wait_mean", wait_mean, Real, "mean wait of the jobs that ran, seconds"; since 3; default "0"
        ; uses [metric(QUEUEING, 2)]),
    summary!("wait_max", wait_max, Real, "largest wait, seconds"; since 3; default "0"; uses [metric(QUEUEING, 8)]),
    summary!("response_mean", response_mean, Real, "mean response time (end − occurrence), seconds"
        ; since 3; default "0"; uses [metric(QUEUEING, 3)]),
    summary!("slowdown_mean", slowdown_mean, Real, "mean slowdown: response / max(run time, 1 s)"
        ; since 3; default "0"; uses [metric(QUEUEING, 4)]),
    summary!("bounded_slowdown_mean", bounded_slowdown_mean, Real, "mean bounded slowdown, tau = 10 s"
        ; since 3; default "0"; uses [metric(QUEUEING, 5)]),
    summary!("makespan", makespan, Real, "last end − first occurrence of the jobs that ran, seconds"
        ; since 3; default "0"; uses [metric(QUEUEING, 7)]),
    column!("calibration", Text, "PoF calibration: 'none' or 'isotonic'", |r| r.axes.calibration.as_str()
        ; since 7; default "'none'"; uses [axis(SUMMARY, 13)]),
    summary!("overbooked_pof_calibrated", overbooked_pof_calibrated_sum, Real null,
        "Σ calibrated PoF of the overbooked jobs (calibrated runs); NULL otherwise"; since 7),
    column!("energy_policy", Text null, "the energy policy (`none` without one)", |r| {
        r.axes.energy_policy.as_str()
    }; since 11; default "'none'"),
    column!("idle_timeout", Int null, "the energy policy's idle timeout, s (0 when it reads none)", |r| {
        r.axes.idle_timeout
    }; since 11; default "0"),
    column!("power_cap", Real null, "the power cap, watts (NULL: none)", |r| r.axes.power_cap
        ; since 11; default "NULL"),
];

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 1] {
    [&POINTS]
}
