//! The `points` table, one descriptor per column.
//!
//! Contract: a single-cluster point's stored settings and metrics are
//! declared here once. A [`PointColumn`] says its name, SQL type, the schema
//! version that added it and the value its rows in older stores stand for;
//! how to write it from a run (and, for a metric, how to read it back into a
//! [`RunSummary`]). The INSERT ([`insert_sql`]), [`crate::store::Store::summary`],
//! the report loader and the migration of a column added after schema 9
//! ([`migrations_after`]) are all derived from [`POINT_COLUMNS`]: a new
//! metric or axis is one line here (plus its field in `RunSummary` or
//! `PointAxes`).

use rusqlite::types::Value;

use crate::experiment::summary::RunSummary;
use crate::store::{PointAxes, RunRow};

/// A column's SQL type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SqlType {
    /// 64-bit integer (booleans are 0/1).
    Int,
    /// Double.
    Real,
    /// UTF-8 text.
    Text,
}

impl SqlType {
    /// Its name in `CREATE TABLE` / `ALTER TABLE`.
    pub fn sql(self) -> &'static str {
        match self {
            SqlType::Int => "INTEGER",
            SqlType::Real => "REAL",
            SqlType::Text => "TEXT",
        }
    }
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

/// Reads a column into a summary.
pub type Read = fn(&mut RunSummary, &rusqlite::Row<'_>, usize) -> rusqlite::Result<()>;

/// One column of `points`.
#[derive(Debug, Clone, Copy)]
pub struct PointColumn {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub sql_type: SqlType,
    /// The schema version that added it.
    pub since: i64,
    /// The SQL value rows of stores from before `since` stand for.
    pub default: &'static str,
    /// Its value for a run.
    pub write: fn(&PointRow<'_>) -> Value,
    /// For a metric: sets the summary's field from the stored value.
    pub read: Option<Read>,
}

fn int(v: impl Into<i64>) -> Value {
    Value::Integer(v.into())
}

fn real(v: f64) -> Value {
    Value::Real(v)
}

fn text(v: &str) -> Value {
    Value::Text(v.to_string())
}

macro_rules! setting {
    ($name:literal, $ty:ident, $since:expr, $default:literal, $write:expr) => {
        PointColumn { name: $name, sql_type: SqlType::$ty, since: $since, default: $default, write: $write, read: None }
    };
}

macro_rules! metric {
    ($name:literal, $field:ident, Int, $since:expr, $default:literal) => {
        PointColumn {
            name: $name,
            sql_type: SqlType::Int,
            since: $since,
            default: $default,
            write: |r| int(r.summary.$field),
            read: Some(|s, row, i| {
                s.$field = row.get(i)?;
                Ok(())
            }),
        }
    };
    ($name:literal, $field:ident, Real, $since:expr, $default:literal) => {
        PointColumn {
            name: $name,
            sql_type: SqlType::Real,
            since: $since,
            default: $default,
            write: |r| real(r.summary.$field),
            read: Some(|s, row, i| {
                s.$field = row.get(i)?;
                Ok(())
            }),
        }
    };
}

/// Every column of `points`, in table order.
pub const POINT_COLUMNS: &[PointColumn] = &[
    setting!("run_id", Int, 1, "NULL", |r| int(r.run.run_id)),
    setting!("strategy", Text, 1, "NULL", |r| text(&r.run.strategy)),
    setting!("trace", Text, 1, "NULL", |r| text(&r.run.trace)),
    setting!("battery", Int, 1, "NULL", |r| int(r.run.battery)),
    setting!("seed", Int, 1, "NULL", |r| int(r.run.seed as i64)),
    setting!("placement", Text, 1, "NULL", |r| text(&r.axes.placement)),
    setting!("acceptance", Text, 1, "NULL", |r| text(&r.axes.acceptance)),
    setting!("pof_max", Real, 1, "NULL", |r| real(r.axes.pof_max)),
    setting!("security_factor", Real, 1, "NULL", |r| r.axes.security_factor.map_or(Value::Null, real)),
    setting!("penalty_ratio", Real, 1, "NULL", |r| real(r.axes.penalty_ratio)),
    setting!("pdf_source", Text, 1, "NULL", |r| text(&r.axes.pdf_source)),
    setting!("failures", Text, 1, "NULL", |r| text(&r.axes.failures)),
    setting!("capacity", Int, 1, "NULL", |r| int(r.run.capacity)),
    metric!("jobs", jobs, Int, 1, "NULL"),
    metric!("accepted", accepted, Int, 1, "NULL"),
    metric!("successful", successful, Int, 1, "NULL"),
    metric!("failed", failed, Int, 1, "NULL"),
    metric!("rejected", rejected, Int, 1, "NULL"),
    metric!("fees", fees, Real, 1, "NULL"),
    metric!("penalties", penalties, Real, 1, "NULL"),
    metric!("gain", gain, Real, 1, "NULL"),
    metric!("utilisation", utilisation, Real, 1, "NULL"),
    metric!("overbooked", overbooked, Int, 1, "NULL"),
    metric!("overbooked_failed", overbooked_failed, Int, 1, "NULL"),
    metric!("overbooked_pof", overbooked_pof_sum, Real, 1, "NULL"),
    setting!("wall_seconds", Real, 1, "NULL", |r| real(r.run.wall_seconds)),
    setting!("reservation_percent", Real, 2, "0.0", |r| real(r.axes.reservation_percent)),
    setting!("start_factor", Real, 2, "1.0", |r| real(r.axes.start_factor)),
    setting!("reservation_option", Text, 2, "'reject'", |r| text(&r.axes.reservation_option)),
    setting!("checkpointing", Int, 2, "0", |r| int(r.axes.checkpointing)),
    metric!("reservations", reservations, Int, 2, "0"),
    metric!("reservations_accepted", reservations_accepted, Int, 2, "0"),
    metric!("reservation_rejection_rate", reservation_rejection_rate, Real, 2, "0.0"),
    metric!("sldwa", sldwa, Real, 2, "0.0"),
    metric!("moved_jobs", moved_jobs, Int, 2, "0"),
    metric!("move_delay_mean", move_delay_mean, Real, 2, "0.0"),
    metric!("move_delay_max", move_delay_max, Real, 2, "0.0"),
    metric!("pinned_jobs", pinned_jobs, Int, 2, "0"),
    metric!("checkpoints", checkpoints, Int, 2, "0"),
    metric!("resumed_successful", resumed_successful, Int, 2, "0"),
    setting!("kill_at_estimate", Int, 3, "1", |r| int(r.axes.kill_at_estimate)),
    metric!("dropped", dropped, Int, 3, "0"),
    metric!("wait_mean", wait_mean, Real, 3, "0.0"),
    metric!("wait_max", wait_max, Real, 3, "0.0"),
    metric!("response_mean", response_mean, Real, 3, "0.0"),
    metric!("slowdown_mean", slowdown_mean, Real, 3, "0.0"),
    metric!("bounded_slowdown_mean", bounded_slowdown_mean, Real, 3, "0.0"),
    metric!("makespan", makespan, Real, 3, "0.0"),
    setting!("calibration", Text, 7, "'none'", |r| text(&r.axes.calibration)),
    PointColumn {
        name: "overbooked_pof_calibrated",
        sql_type: SqlType::Real,
        since: 7,
        default: "NULL",
        write: |r| r.summary.overbooked_pof_calibrated_sum.map_or(Value::Null, real),
        read: Some(|s, row, i| {
            s.overbooked_pof_calibrated_sum = row.get(i)?;
            Ok(())
        }),
    },
];

/// `INSERT INTO points (…) VALUES (…)` over every column, by name.
pub fn insert_sql() -> String {
    let names: Vec<&str> = POINT_COLUMNS.iter().map(|c| c.name).collect();
    let slots: Vec<String> = (1..=names.len()).map(|i| format!("?{i}")).collect();
    format!("INSERT INTO points ({}) VALUES ({})", names.join(", "), slots.join(", "))
}

/// The values of one row, in [`POINT_COLUMNS`] order.
pub fn values(row: &PointRow<'_>) -> Vec<Value> {
    POINT_COLUMNS.iter().map(|c| (c.write)(row)).collect()
}

/// `SELECT` of every metric column, and the readers in that order.
pub fn summary_select() -> (String, Vec<Read>) {
    let metrics: Vec<&PointColumn> = POINT_COLUMNS.iter().filter(|c| c.read.is_some()).collect();
    let names: Vec<&str> = metrics.iter().map(|c| c.name).collect();
    (
        format!("SELECT {} FROM points WHERE run_id = ?1", names.join(", ")),
        metrics.iter().filter_map(|c| c.read).collect(),
    )
}

/// The columns the descriptors add after schema 9 (none of today's), as
/// `ALTER TABLE` statements for the step to `version`.
pub fn migrations_after(version: i64) -> String {
    POINT_COLUMNS
        .iter()
        .filter(|c| c.since == version && version > 9)
        .map(|c| format!("ALTER TABLE points ADD COLUMN {} {} DEFAULT {};\n", c.name, c.sql_type.sql(), c.default))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptors describe exactly the table the migrations build.
    #[test]
    fn descriptors_match_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        crate::store::Store::open(&path).unwrap();
        let table =
            crate::store::query(&path, "SELECT name, type FROM pragma_table_info('points') ORDER BY cid").unwrap();
        let stored: Vec<(String, String)> = table.rows.iter().map(|r| (r[0].clone(), r[1].clone())).collect();
        let declared: Vec<(String, String)> =
            POINT_COLUMNS.iter().map(|c| (c.name.to_string(), c.sql_type.sql().to_string())).collect();
        assert_eq!(stored, declared);
    }
}
