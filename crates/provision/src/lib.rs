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
//! by [`register`].

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
pub mod tables;
pub mod workflow;
pub mod writer;

use std::sync::OnceLock;

use slasim_core::registry::BadName;

/// Adds the provisioning and pricing kinds to the engine: their point kinds
/// (and so their tables), their report section, their Gantt charts, their
/// list of methods and `slasim provision`. Once per process; later calls
/// return the first one's result.
pub fn register() -> Result<(), BadName> {
    static DONE: OnceLock<Result<(), BadName>> = OnceLock::new();
    DONE.get_or_init(|| {
        slasim_core::experiment::kinds::KINDS.register(&kind::provision::PROVISION)?;
        slasim_core::experiment::kinds::KINDS.register(&kind::pricing::PRICING)?;
        slasim_core::report::SECTIONS.register(&report::ProvisionSection)?;
        slasim_core::report::gantt::GANTT_SOURCES.register(&gantt::ProvisionGantt)?;
        slasim_core::cli::LISTS.register(&cli::METHODS)?;
        slasim_core::cli::SUBCOMMANDS.register(&cli::ProvisionSubcommand)?;
        Ok(())
    })
    .clone()
}
