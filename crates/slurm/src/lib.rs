//! Slurm's scheduling on a heterogeneous machine: node types, partitions,
//! multifactor priority with fair-share, and the main and backfill schedulers.
//!
//! Rooms: [`conf`] (the `slurm.conf` subset, with located errors),
//! [`machine`] (nodes, partitions, cons_tres placement), [`priority`]
//! (multifactor priority and Fair Tree), [`queued`] (a job as the
//! controller holds it), [`controller`] (the queue and the two schedulers
//! as one kernel model, cut as slurmctld's files are: its job manager, main
//! scheduler, backfill, preemption, decay tick and kernel adapter), [`instant`] (the order of an
//! instant), [`mod@bench`] (the bench that runs a workload on it),
//! [`sacctmgr`] (association and QOS dumps, read), [`accounting`] (what a
//! run models of them: the QOS factor, the QOS and association limits),
//! [`preemption`] (preemption by partition or QOS, with `CANCEL` and
//! `REQUEUE`; [`preemption::mode`] reads the modes), [`reservation`] (`scontrol show
//! reservation`, read), [`advance`] (those reservations as the controller
//! holds them), [`features`] (node features and a job's constraint),
//! [`memory`] (`DefMemPerCPU`, `MaxMemPerCPU`), [`dependency`] (job
//! dependencies and array throttles: when a job is eligible),
//! [`multipart`] (jobs of several partitions: a queue record per
//! partition), [`outage`] (node events: nodes out of scheduling) and
//! [`against`] (one sacct dump's starts against another's: Slurm against
//! itself), [`replica`] (a replay's replicas: run times and submissions
//! perturbed as the workload varies), [`what_if`] (their paired
//! differences, with intervals) and [`forecast`] (start-time forecasts from
//! a snapshot of a live queue).
//!
//! Its workloads: a sacct dump's jobs as recorded
//! ([`slasim_data::trace::sacct::jobs`], read by
//! [`slasim_data::trace::sacct::read_native`]), or a generated month of a
//! centre ([`synthetic`]).
//!
//! Before a run: [`admission`] (a workload admitted to a machine: every job
//! checked, once for the points that share it).
//!
//! As a kind of point: [`kind`] (its settings, resolve and run),
//! [`metrics`] (what a run gives the store: aggregates, groups, reasons),
//! [`tables`] (its store group, by descriptors), [`report`] (its report section) and
//! [`cli`] (`slasim slurm`), all added to a registry by [`SlurmKind`].
//!
//! Every departure from Slurm's documented behaviour is listed on the docs'
//! Slurm reference page, beside the document it departs from.

pub mod accounting;
pub mod admission;
pub mod advance;
pub mod against;
pub mod bench;
pub mod cli;
pub mod conf;
pub mod controller;
pub mod dependency;
pub mod features;
pub mod fidelity;
pub mod forecast;
pub mod generated;
pub mod gpu;
pub mod instant;
pub mod kind;
pub mod machine;
pub mod memory;
pub mod metrics;
pub mod multipart;
pub mod outage;
pub mod preemption;
pub mod priority;
pub mod queued;
pub mod replica;
pub mod report;
pub mod reservation;
pub mod sacctmgr;
pub mod synthetic;
pub mod tables;
pub mod what_if;
pub mod written;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The Slurm kind: its point kind (and so its tables), its report section
/// and `slasim slurm`. Its synthetic centre draws from the engine's shared
/// workload streams ([`slasim_core::rng::SHARED`]); its replicas from its
/// own ([`replica::REPLICA_PERTURBATION`]).
pub struct SlurmKind;

/// The Slurm kind, for a program's list of kinds.
pub static KIND: SlurmKind = SlurmKind;

impl Kind for SlurmKind {
    fn name(&self) -> &'static str {
        "slurm"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add_point_kind(&kind::SLURM)?;
        registry.add_stream(replica::REPLICA_PERTURBATION)?;
        registry.add_stream(forecast::START_FORECAST)?;
        registry.add::<slasim_core::report::section::Sections>(&report::SlurmSection)?;
        registry.add::<slasim_core::cli::subcommand::Subcommands>(&cli::SlurmSubcommand)
    }
}
