//! The sla-machine kind: slasim's question on a machine of unlike nodes.
//! The same jobs (a GPU trace's pods, or a Slurm workload, as they ask) on
//! the same machine (the pods' node list, or a `slurm.conf`), under an SLA
//! planner that books each job on specific nodes and cards, and under the
//! Slurm twin; the SLA terms judge both schedules.
//!
//! Contract: [`battery`] runs one battery and measures it, on jobs from
//! [`slasim_single::workload::pods`] or [`slurm_jobs`]; [`kind`] is the
//! point kind (`[sla_machine]`), its tables in [`tables`] and its report
//! section in [`report`]. It builds on the machine model
//! (`slasim_machine`), the single cluster's planner and SLA terms, and the
//! Slurm twin, which share no code with each other.

pub mod battery;
pub mod fragmentation;
pub mod kind;
pub mod overbooking;
pub mod report;
pub mod slurm_jobs;
pub mod streams;
pub mod tables;

use slasim_core::experiment::registry::{BadName, Kind, Registry};

/// The sla-machine kind, for a program's list of kinds: after the single
/// cluster and Slurm, whose strategies it runs.
pub struct SlaMachineKindEntry;

/// The sla-machine kind.
pub static KIND: SlaMachineKindEntry = SlaMachineKindEntry;

impl Kind for SlaMachineKindEntry {
    fn name(&self) -> &'static str {
        "sla-machine"
    }

    fn register(&self, registry: &mut Registry) -> Result<(), BadName> {
        registry.add_point_kind(&kind::SLA_MACHINE)?;
        for stream in streams::STREAMS {
            registry.add_stream(stream)?;
        }
        registry.add::<slasim_core::report::section::Sections>(&report::SlaMachineSection)
    }
}
