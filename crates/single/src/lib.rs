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
//! its lists), and [`streams`] (its random streams), all added to a registry by [`SingleKind`].

pub mod cli;
pub mod cluster;
pub mod kind;
pub mod plan;
pub mod point;
pub mod policy;
pub mod report;
pub mod stats;
pub mod streams;
pub mod summary;
pub mod tables;
pub mod workload;
pub mod writer;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The single-cluster kind: its point kind (and so its tables), its report
/// section, its Gantt charts, its lists, its commands, its random streams,
/// its report groupings and its own tables (strategies, energy policies,
/// priority rules, forecasts, shifting policies, SLA terms rules). A
/// program lists it before any kind built on it, and first of all so that
/// its section heads the report and its commands stand where they always
/// did.
pub struct SingleKind;

/// The single-cluster kind, for a program's list of kinds.
pub static KIND: SingleKind = SingleKind;

impl Kind for SingleKind {
    fn name(&self) -> &'static str {
        "single"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add_point_kind(&kind::SINGLE)?;
        registry.add_tables(&tables::carbon::CARBON);
        registry.add::<slasim_core::report::section::Sections>(&report::SingleClusterSection)?;
        registry.add::<slasim_core::report::gantt::source::GanttSources>(&report::gantt::SingleClusterGantt)?;
        for list in cli::list::LISTS {
            registry.add::<slasim_core::cli::list::Lists>(list)?;
        }
        for command in cli::SUBCOMMANDS {
            registry.add::<slasim_core::cli::subcommand::Subcommands>(command)?;
        }
        for stream in streams::STREAMS {
            registry.add_stream(stream)?;
        }
        for section in tables::points::SECTIONS {
            registry.report_groups.register(section)?;
        }
        registry.add_list::<policy::Strategies>()?;
        registry.add_list::<policy::energy::EnergyPolicies>()?;
        registry.add_list::<policy::priority::PriorityRules>()?;
        registry.add_list::<policy::forecast::Forecasts>()?;
        registry.add_list::<policy::shifting::ShiftingPolicies>()?;
        registry.add_list::<plan::NodeChoices>()?;
        registry.add_list::<policy::on_machine::MachineStrategies>()?;
        registry.add_list::<workload::sla::SlaTermsRules>()
    }
}
