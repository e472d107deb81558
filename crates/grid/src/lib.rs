//! The Grid kind: a reservation broker placing co-reservations across
//! clusters.
//!
//! Reference: `coreservation-thesis-spec.md` (Meltzer, co-reservation
//! algorithms): ch. 3 (the model), ch. 4 (algorithms 1–5), ch. 5 (simulator),
//! §6.1 (metrics), and its "Ambiguities" and "Mapping onto the Rust actor
//! design" sections.
//!
//! Contract: the pieces of the broker are pure and testable on their own —
//! [`request`] (requests, start grid, TRs), [`tree`] (the lazily built, pruned
//! variant tree), [`search`] (the reservation step as a state machine),
//! [`lrs`] (a cluster's status, reservation and cancellation service),
//! [`resort`] (Alg. 5's sorted tree and re-sorting step), [`cost`] (cost
//! tables), [`algorithm`] (the algorithms, each a type behind
//! [`algorithm::BrokerStrategy`]); [`broker`] is the actor that drives them
//! through the kernel; [`metrics`] computes the thesis' criteria from a run;
//! [`workload`] holds the log windows the clusters run and the requests.
//!
//! As a kind of point: [`kind`] (its settings, resolve and run, stored as a
//! run of the single-cluster tables plus its own), [`tables`] and [`writer`]
//! (its store group, by descriptors), [`report`] (its report section),
//! [`mod@reference`] (the thesis' values beside ours), [`gantt`] (a Grid run's
//! Gantt chart), [`cli`] (`slasim grid`, and
//! `slasim list algorithms` and `request-workloads`), all added to the
//! engine by [`register`].

pub mod algorithm;
pub mod bench;
pub mod broker;
pub mod cli;
pub mod config;
pub mod cost;
pub mod gantt;
pub mod kind;
pub mod lrs;
pub mod metrics;
pub mod reference;
pub mod report;
pub mod request;
pub mod resort;
pub mod search;
pub mod tables;
pub mod tree;
pub mod workload;
pub mod writer;

use std::sync::OnceLock;

use slasim_core::registry::BadName;

/// Adds the Grid kind to the engine: its point kind (and so its tables),
/// its report section, its Gantt charts, its lists and `slasim grid`; the
/// single cluster's first, whose tables hold a Grid point's runs. Once per
/// process; later calls return the first one's result.
pub fn register() -> Result<(), BadName> {
    static DONE: OnceLock<Result<(), BadName>> = OnceLock::new();
    DONE.get_or_init(|| {
        slasim_single::register()?;
        slasim_core::experiment::kinds::KINDS.register(&kind::GRID)?;
        slasim_core::report::SECTIONS.register(&report::GridSection)?;
        slasim_core::report::gantt::GANTT_SOURCES.register(&gantt::GridGantt)?;
        slasim_core::cli::LISTS.register(&cli::ALGORITHM_LIST)?;
        slasim_core::cli::LISTS.register(&cli::REQUEST_WORKLOAD_LIST)?;
        slasim_core::cli::SUBCOMMANDS.register(&cli::GridSubcommand)?;
        Ok(())
    })
    .clone()
}
