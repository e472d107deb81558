//! The provisioning and pricing kinds: slot advertisement, multi-objective
//! workflow provisioning and adaptive pricing.
//!
//! Reference: `provisioning-dissertation-spec.md` (Singh, provisioning-based
//! resource and application management): §1 (slots), §2 (the slot-set
//! scheduler of Fig. 2 and advertisement), §3 (workflows, HEFT, the MOGA,
//! the trade-off α, the best-effort baseline), §8 (results), §9–§11 (the
//! simulation procedure and the choices the spec proposes).
//!
//! Contract: the algorithms are pure and testable on their own — [`slots`]
//! (slots, Table 1 costs, the Fig. 2 slot set), [`workflow`] (DAGs, HEFT,
//! generators, the workflow file format), [`moga`] (the Fonseca–Fleming MOGA
//! and eq. 15), [`plan`] (a resource plan's makespan and allocation cost).
//! [`site`] is a cluster whose local scheduler is the slot set (conservative
//! backfilling) and which answers advertisement, reservation and load
//! queries through the kernel; [`provisioner`] is the workflow user's client
//! (MOGA provisioning at each submission instant) and [`executor`] runs one
//! workflow best effort or in its reserved slots (the provisioning point
//! kind, [`kind::provision`], assembles them, forks the what-if
//! runs from snapshots and measures a point); [`load`] raises a trace's load with a week-shifted, thinned copy;
//! [`pricing`] is the adaptive pricing of Ch. 5 (Fig. 22, the query models
//! and the user's choice), pure functions of a site's state; [`greedy`] is
//! the greedy per-task provisioning with priced slots (Fig. 51); [`buyer`] is
//! the client of trace jobs that buy priced reservations (Ch. 5); [`outcome`]
//! is what a provisioning or pricing run hands the store.

//!
//! As kinds of point: [`kind`] (the provisioning and pricing kinds: settings,
//! resolve and run), [`tables`] and [`writer`] (their store group, by
//! descriptors), [`report`] (their report section), [`gantt`] (a provisioning
//! point's Gantt chart), [`cli`] (`slasim provision`), all added to the engine
//! by [`ProvisionKind`] ([`streams`]: their random streams).

pub mod bench;
pub mod buyer;
pub mod cli;
pub mod executor;
pub mod gantt;
pub mod greedy;
pub mod kind;
pub mod load;
pub mod moga;
pub mod outcome;
pub mod plan;
pub mod pricing;
pub mod provisioner;
pub mod report;
pub mod site;
pub mod slots;
pub mod streams;
pub mod tables;
pub mod workflow;
pub mod writer;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The provisioning and pricing kinds: their point kinds (and so their
/// tables), their report section, their Gantt charts, their list of
/// methods, `slasim provision` and their random streams.
pub struct ProvisionKind;

/// The provisioning and pricing kinds, for a program's list of kinds.
pub static KIND: ProvisionKind = ProvisionKind;

impl Kind for ProvisionKind {
    fn name(&self) -> &'static str {
        "provision"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add_point_kind(&kind::provision::PROVISION)?;
        registry.add_point_kind(&kind::pricing::PRICING)?;
        registry.add::<slasim_core::report::section::Sections>(&report::ProvisionSection)?;
        registry.add::<slasim_core::report::gantt::source::GanttSources>(&gantt::ProvisionGantt)?;
        registry.add::<slasim_core::cli::list::Lists>(&cli::METHODS)?;
        registry.add::<slasim_core::cli::subcommand::Subcommands>(&cli::ProvisionSubcommand)?;
        for stream in streams::STREAMS {
            registry.add_stream(stream)?;
        }
        Ok(())
    }
}
