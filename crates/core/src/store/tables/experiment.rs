//! The tables of experiments: `experiments` and `experiment_points`.
//!
//! Contract: registering an experiment again changes nothing (rows are
//! inserted or ignored); a point belongs to every sweep that names it.

use crate::store::ExperimentRow;
use crate::store::columns::{Conflict, Described, Rows, Table, column};

/// The row type of `experiments`.
pub enum Experiments {}

impl Rows for Experiments {
    type Row<'a> = &'a ExperimentRow;
    type Summary = ();
}

/// One row per config that ran points into the store.
pub static EXPERIMENTS: Table<Experiments> = Table::with_conflict(
    "experiments",
    Conflict::Ignore,
    1,
    &[
        column!("hash", Text, |r| r.hash.as_str()),
        column!("name", Text, |r| r.name.as_str()),
        column!("file", Text, |r| r.file.as_str()),
        column!("config", Text, |r| r.config.as_str()),
        column!("code_version", Text, |r| r.code_version.as_str()),
        column!("created_at", Text, |r| r.created_at.as_str()),
    ],
);

/// A point of an experiment's sweep.
#[derive(Debug, Clone, Copy)]
pub struct ExperimentPointRow<'a> {
    /// The experiment's config hash.
    pub experiment: &'a str,
    /// The point's id (a run id or a provisioning/pricing point id).
    pub point_id: i64,
    /// The sweep naming it.
    pub sweep: &'a str,
}

/// The row type of `experiment_points`.
pub enum ExperimentPoints {}

impl Rows for ExperimentPoints {
    type Row<'a> = ExperimentPointRow<'a>;
    type Summary = ();
}

/// Which point belongs to which experiment and sweep.
pub static EXPERIMENT_POINTS: Table<ExperimentPoints> = Table::with_conflict(
    "experiment_points",
    Conflict::Ignore,
    1,
    &[
        column!("experiment", Text, |r| r.experiment),
        column!("run_id", Int, |r| r.point_id),
        column!("sweep", Text, |r| r.sweep),
    ],
);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 2] {
    [&EXPERIMENTS, &EXPERIMENT_POINTS]
}
