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
//! engine by [`GridKind`] ([`streams`]: its random streams).

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
pub mod streams;
pub mod tables;
pub mod tree;
pub mod workload;
pub mod writer;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The Grid kind: its point kind (and so its tables), its report section
/// and groupings, its Gantt charts, its lists, `slasim grid`, its random
/// streams and its table of broker algorithms. A program lists it after the
/// single cluster, whose tables hold a Grid point's runs and whose
/// strategies run its clusters.
pub struct GridKind;

/// The Grid kind, for a program's list of kinds.
pub static KIND: GridKind = GridKind;

impl Kind for GridKind {
    fn name(&self) -> &'static str {
        "grid"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        let single: &dyn slasim_core::experiment::point::PointKind = &slasim_single::kind::SINGLE;
        if registry.point_kinds.get(single.name()).is_err() {
            return Err(BadName::Missing { kind: "grid", needs: "the single-cluster kind" });
        }
        registry.add_point_kind(&kind::GRID)?;
        registry.add::<slasim_core::report::section::Sections>(&report::GridSection)?;
        registry.add::<slasim_core::report::gantt::source::GanttSources>(&gantt::GridGantt)?;
        registry.add::<slasim_core::cli::list::Lists>(&cli::ALGORITHM_LIST)?;
        registry.add::<slasim_core::cli::list::Lists>(&cli::REQUEST_WORKLOAD_LIST)?;
        registry.add::<slasim_core::cli::subcommand::Subcommands>(&cli::GridSubcommand)?;
        for stream in streams::STREAMS {
            registry.add_stream(stream)?;
        }
        registry.report_groups.register(tables::GRID)?;
        registry.report_groups.register(tables::GRID_CLUSTERS)?;
        registry.add_list::<algorithm::Algorithms>()
    }
}
