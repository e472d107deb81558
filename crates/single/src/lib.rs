//! The single-cluster kind: one cluster, its workload and its scheduler, as
//! the dissertation's reproductions run it (risk-aware overbooking, the
//! overbooking rule, reservations), the textbook queueing baselines, power
//! states and the Batsim bridge.
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`workload`]: a single cluster's jobs: traces prepared into batteries, the synthetic
//!   default, failure streams;
//! - [`stats`]: runtime PDFs, failure laws, probability-of-success models;
//! - [`plan`]: availability profile and per-node plan, with gap search;
//! - [`policy`]: scheduling strategies and placement (the decision port the cluster drives);
//! - [`cluster`]: the single-cluster models (cluster, failure injector) and their bench.
//!
//! As a kind of point: [`point`] (its settings, `resolve` and `run`),
//! [`kind`] (its [`slasim_core::experiment::point::PointKind`]), [`summary`]
//! (what a run hands the store), [`tables`] and [`writer`] (its store group,
//! by descriptors), [`report`] (its report section, the text report of
//! `slasim run`, its Gantt charts), [`cli`] (`slasim run`, `slasim trace` and
//! its lists), all added to the engine by [`register`].

pub mod cli;
pub mod cluster;
pub mod kind;
pub mod plan;
pub mod point;
pub mod policy;
pub mod report;
pub mod stats;
pub mod summary;
pub mod tables;
pub mod workload;
pub mod writer;

use std::sync::OnceLock;

use slasim_core::registry::BadName;

/// Adds the single-cluster kind to the engine: its point kind (and so its
/// tables), its report section, its Gantt charts, its lists and its
/// commands. A program registers it before any other kind, so that its
/// section heads the report and its commands stand where they always did.
/// Once per process; later calls return the first one's result.
pub fn register() -> Result<(), BadName> {
    static DONE: OnceLock<Result<(), BadName>> = OnceLock::new();
    DONE.get_or_init(|| {
        slasim_core::experiment::kinds::KINDS.register(&kind::SINGLE)?;
        slasim_core::store::tables::groups::register(&tables::carbon::CARBON);
        slasim_core::report::SECTIONS.register(&report::SingleClusterSection)?;
        slasim_core::report::gantt::GANTT_SOURCES.register(&report::gantt::SingleClusterGantt)?;
        for list in cli::list::LISTS {
            slasim_core::cli::LISTS.register(list)?;
        }
        for command in cli::SUBCOMMANDS {
            slasim_core::cli::SUBCOMMANDS.register(command)?;
        }
        Ok(())
    })
    .clone()
}
