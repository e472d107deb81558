//! The tables of a run's energy by the hour: `run_carbon` (per run and
//! cluster) and `job_carbon` (per job), written only for a point with both
//! `[signals]` and `[energy]` ([`crate::cluster::carbon`] says how each
//! figure is integrated).
//!
//! `run_shifting` holds a run's `[shifting]` settings (written only for a
//! point with a shifting policy), so runs can be compared by policy.
//!
//! Contract: the group [`CARBON`] came after schema 11, so it has no steps: a
//! store gets its tables from the descriptors when opened for writing (a
//! store without them simply has no such run); keyed by `run_id` like the
//! run tables it sits beside.

use crate::cluster::carbon::{JobCarbon, RunCarbon};
use crate::policy::shifting::ShiftingConfig;
use slasim_core::store::columns::{Described, Rows, Table, column};
use slasim_core::store::tables::groups::{PointTables, all};

/// A run's energy, emissions and cost.
#[derive(Debug, Clone, Copy)]
pub struct RunCarbonRow<'a> {
    /// The run.
    pub run_id: i64,
    /// The cluster (0 in a single-cluster run).
    pub cluster: u32,
    /// Its figures.
    pub carbon: &'a RunCarbon,
}

/// The row type of `run_carbon`.
pub enum RunCarbons {}

impl Rows for RunCarbons {
    type Row<'a> = RunCarbonRow<'a>;
    type Summary = ();
}

/// Energy, emissions, cost and renewable share per run and cluster.
pub static RUN_CARBON: Table<RunCarbons> = Table::new(
    "run_carbon",
    11,
    "Per run and cluster with `[signals]` and `[energy]`: kWh, kgCO2eq and cost integrated over the aligned grid signals, renewable kWh used (supply capped at the draw) and its share, the kWh shared among the jobs, and the jobs' own kgCO2eq and cost (their nodes' busy watts over their runs: what shifting a job moves).",
)
.key(&["run_id", "cluster"])
.without_rowid()
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("cluster", Int, "the cluster: 0 in a single-cluster run", |r| r.cluster),
    column!("region", Text null, "[signals] region, NULL for files given by path", |r| r.carbon.region.as_deref()),
    column!("kwh", Real, "kWh over the energy meter's window", |r| r.carbon.kwh),
    column!("kg_co2", Real null, "∫ watts × carbon intensity; NULL without a carbon signal", |r| r.carbon.kg_co2),
    column!("cost", Real null, "∫ watts × price; NULL without a price signal", |r| r.carbon.cost),
    column!("currency", Text null, "the price's currency (NULL without a price signal)", |r| {
        r.carbon.currency.as_deref()
    }),
    column!("renewable_kwh", Real null, "∫ min(renewable supply, draw); NULL without a renewable signal", |r| {
        r.carbon.renewable_kwh
    }),
    column!("renewable_share", Real null, "renewable_kwh / kwh (NULL without a renewable signal)", |r| {
        r.carbon.renewable_share
    }),
    column!("shared_kwh", Real, "energy no job drew itself, shared among the jobs, kWh", |r| r.carbon.shared_kwh),
    column!("own_kg_co2", Real null, "the jobs' own: their nodes' busy watts over their runs × intensity", |r| {
        r.carbon.own_kg_co2
    }),
    column!("own_cost", Real null, "the jobs' own: their nodes' busy watts over their runs × price", |r| {
        r.carbon.own_cost
    }),
]);

/// A job's energy, emissions and cost.
#[derive(Debug, Clone, Copy)]
pub struct JobCarbonRow<'a> {
    /// The run.
    pub run_id: i64,
    /// The job's figures.
    pub job: &'a JobCarbon,
}

/// The row type of `job_carbon`.
pub enum JobCarbons {}

impl Rows for JobCarbons {
    type Row<'a> = JobCarbonRow<'a>;
    type Summary = ();
}

/// Energy, emissions and cost per job that ran.
pub static JOB_CARBON: Table<JobCarbons> = Table::new(
    "job_carbon",
    11,
    "Per job that ran, with `[signals]` and `[energy]`: joules (its nodes' busy watts over its run plus its node-second share of the energy no job drew itself), kgCO2eq and cost.",
)
.key(&["run_id", "job"])
.without_rowid()
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("job", Int, "the job's index within the battery", |r| r.job.job),
    column!("joules", Real, "its nodes' busy watts over its run, plus its share of shared_kwh", |r| r.job.joules),
    column!("kg_co2", Real null, "its joules × carbon intensity, kg (NULL without a carbon signal)", |r| r.job.kg_co2),
    column!("cost", Real null, "its joules × price (NULL without a price signal)", |r| r.job.cost),
]);

/// A run's shifting settings.
#[derive(Debug, Clone, Copy)]
pub struct RunShiftingRow<'a> {
    /// The run.
    pub run_id: i64,
    /// Its `[shifting]` settings.
    pub shifting: &'a ShiftingConfig,
}

/// The row type of `run_shifting`.
pub enum RunShiftings {}

impl Rows for RunShiftings {
    type Row<'a> = RunShiftingRow<'a>;
    type Summary = ();
}

/// The shifting policy, signal and forecast of a run that shifted jobs.
pub static RUN_SHIFTING: Table<RunShiftings> = Table::new(
    "run_shifting",
    11,
    "Per run with a shifting policy (`[shifting]`): the policy, the signal it steers by, its horizon and threshold, and the forecast it saw with its noise.",
)
.key(&["run_id"])
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("policy", Text, "the shifting policy: slasim list shifting-policies", |r| r.shifting.policy.as_str()),
    column!("signal", Text, "the signal it steers by: carbon or price", |r| r.shifting.signal.name()),
    column!("horizon", Int, "seconds a job may be shifted", |r| r.shifting.horizon),
    column!("threshold", Real null, "a threshold policy's threshold (NULL: the policy has none)", |r| {
        r.shifting.threshold
    }),
    column!("forecast", Text, "the forecast it saw: slasim list forecasts", |r| r.shifting.forecast.as_str()),
    column!("noise", Real, "the noise forecast's relative error", |r| r.shifting.noise),
]);

/// This module's tables.
pub fn described() -> Vec<&'static dyn Described> {
    vec![&RUN_CARBON, &JOB_CARBON, &RUN_SHIFTING]
}

/// The energy-by-the-hour tables, a group of their own beside the runs'.
pub static CARBON: PointTables = PointTables {
    key_table: "run_carbon",
    key: "run_id",
    metrics: "run_carbon",
    tables: &[all("run_carbon"), all("job_carbon"), all("run_shifting")],
    described,
    steps: &[],
    views: &[],
    ids_since: None,
    jobs: None,
    provenance: None,
};
