//! slasim: an experiment engine for SLA-aware, planning-based HPC and Grid
//! scheduling research.
//!
//! This crate is the engine with every kind: [`slasim_core`] (the engine and
//! the single-cluster kind), re-exported here under the paths it always had,
//! and each kind crate of its own under its name ([`grid`], [`provision`],
//! [`slurm`], [`gym`]). [`register_kinds`] adds those kinds to the engine;
//! the `slasim` binary and the Python package call it first.
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`workload`]: SWF traces, sacct dumps, preparation, the synthetic default, failure streams;
//! - [`stats`]: runtime PDFs, failure laws, probability-of-success models;
//! - [`plan`]: availability profile and per-node plan, with gap search;
//! - [`policy`]: scheduling strategies and placement;
//! - [`grid`]: the co-reservation broker, its algorithms and the clusters' reservation service, as a kind;
//! - [`provision`]: slot advertisement, workflows, MOGA and greedy provisioning, adaptive pricing, as kinds;
//! - [`gym`]: reinforcement-learning environments stepped in Rust (job picking, SLA admission);
//! - [`sim`]: the event kernel, typed ports, models and benches (no domain);
//! - [`cluster`]: the single-cluster models (cluster, failure injector) and their bench;
//! - [`slurm`]: Slurm's scheduling on a heterogeneous machine (slurm.conf, partitions,
//!   cons_tres, multifactor priority, the main and backfill schedulers), as a kind;
//! - [`experiment`]: points of every kind, configs, and the one executor that runs them;
//! - [`store`]: the SQLite store of every point;
//! - [`report`]: Polars tables, plots and the HTML report of a store;
//! - [`registry`]: strategies, broker algorithms, kinds, report sections and subcommands by name;
//! - [`rng`]: seeded, independent random streams;
//! - [`setting`]: validation of user-supplied settings;
//! - [`threads`]: the `--jobs` budget of busy threads;
//! - [`units`]: virtual time and rate units;
//! - [`cli`]: the `slasim` command line.

pub use slasim_core::*;
pub use slasim_grid as grid;
pub use slasim_gym as gym;
pub use slasim_provision as provision;
pub use slasim_slurm as slurm;

/// Adds the kinds of their own crates (the Grid, provisioning and pricing,
/// then Slurm) to the engine: point kinds, tables, report sections,
/// subcommands. Idempotent.
pub fn register_kinds() -> Result<(), registry::BadName> {
    slasim_grid::register()?;
    slasim_provision::register()?;
    slasim_slurm::register()
}
