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
pub static EXPERIMENTS: Table<Experiments> = Table::new(
    "experiments",
    1,
    "One row per config (or command line) that ran points into this store: its name, text and hash.",
)
.key(&["hash"])
.conflict(Conflict::Ignore)
.columns(&[
    column!("hash", Text, "sha256 of the config text", |r| r.hash.as_str()),
    column!("name", Text, "the experiment's name (the config's `name`)", |r| r.name.as_str()),
    column!("file", Text, "the config file, as given (or the command line that built it)", |r| r.file.as_str()),
    column!("config", Text, "the config text", |r| r.config.as_str()),
    column!("code_version", Text, "the slasim version (and commit) that first registered it", |r| {
        r.code_version.as_str()
    }),
    column!("created_at", Text, "wall-clock time of its first registration, RFC 3339", |r| r.created_at.as_str()),
    column!("points", Int null, "how many distinct points its sweeps make, all shards' (NULL: registered before schema 14)", |r| r.points; since 14),
]);

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
pub static EXPERIMENT_POINTS: Table<ExperimentPoints> = Table::new(
    "experiment_points",
    1,
    "Which point belongs to which experiment and sweep (a point may belong to several).",
)
.key(&["experiment", "run_id", "sweep"])
.without_rowid()
.conflict(Conflict::Ignore)
.columns(&[
    column!("experiment", Text, "the experiment's config hash", |r| r.experiment; references "experiments(hash)"),
    column!("run_id", Int, "a run_id or a provisioning/pricing point_id (any kind's point id)", |r| r.point_id),
    column!("sweep", Text, "the name of the sweep that names the point", |r| r.sweep),
]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 2] {
    [&EXPERIMENTS, &EXPERIMENT_POINTS]
}
