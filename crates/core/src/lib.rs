//! slasim's engine and its single-cluster kind (the `slasim` crate re-exports
//! it with the kinds of the other crates: the Grid, provisioning and pricing,
//! Slurm, the environments).
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`trace`]: the log formats (SWF, Slurm's sacct dumps) and the traces directory;
//! - [`metrics`]: the queueing metrics every kind reports (wait, bounded slowdown);
//! - [`workload`]: a single cluster's jobs: traces prepared into batteries, the synthetic
//!   default, failure streams;
//! - [`stats`]: runtime PDFs, failure laws, probability-of-success models;
//! - [`plan`]: availability profile and per-node plan, with gap search;
//! - [`policy`]: scheduling strategies and placement;
//! - [`sim`]: the event kernel, typed ports, models and benches (no domain): the
//!   `slasim-sim` crate, re-exported;
//! - [`cluster`]: the single-cluster models (cluster, failure injector) and their bench;
//! - [`experiment`]: points of the built-in kind (single cluster) and of
//!   registered ones, configs, and the one executor that runs them;
//! - [`store`]: the SQLite store of every point;
//! - [`report`]: Polars tables, plots and the HTML report of a store;
//! - [`registry`]: strategies, broker algorithms and model kinds by name, open to other crates;
//! - [`rng`]: seeded, independent random streams;
//! - [`setting`]: validation of user-supplied settings;
//! - [`threads`]: the `--jobs` budget of busy threads;
//! - [`units`]: virtual time and rate units (`slasim-sim`'s);
//! - [`cli`]: the `slasim` command line.

pub mod cli;
pub mod cluster;
pub mod experiment;
pub mod metrics;
pub mod plan;
pub mod policy;
pub mod registry;
pub mod report;
pub mod rng;
pub mod setting;
pub mod stats;
pub mod store;
#[cfg(test)]
pub(crate) mod testing;
pub mod threads;
pub mod trace;
pub mod workload;

// clap, for the macros kind crates use (`value_enum!`).
#[doc(hidden)]
pub use clap as __clap;

// The kernel crate, under the paths every module of this crate names.
pub use slasim_sim as sim;
pub use slasim_sim::units;
