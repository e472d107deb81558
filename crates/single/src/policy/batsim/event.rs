//! What the `batsim` strategy tells a scheduler: typed events, and the
//! workload they refer to.
//!
//! Reference: Batsim's protocol documentation (oar-team/batsim,
//! `docs/protocol.rst`): the events SIMULATION_BEGINS, JOB_SUBMITTED,
//! JOB_COMPLETED, JOB_KILLED, NOTIFY (`event_machine_unavailable`,
//! `event_machine_available`), RESOURCE_STATE_CHANGED, ANSWER,
//! REQUESTED_CALL and SIMULATION_ENDS.
//!
//! Contract:
//! - An [`Event`] names jobs by their [`JobId`] in the [`Workload`] (the job
//!   table fixed before the first event); a transport turns it into whatever
//!   its scheduler reads (Batsim's JSON for [`super::remote::Remote`], Python
//!   objects for an in-process scheduler). Events carry no wall-clock data:
//!   the same run gives the same events.
//! - The events of one instant travel together, in the order the strategy
//!   produced them (see the strategy's module documentation).

use crate::cluster::energy::EnergyConfig;
use crate::policy::batsim::protocol::{IntervalSet, JobState, WORKLOAD};
use crate::workload::job::Job;
use slasim_core::units::{JobId, NodeId, Time};

/// A job as a scheduler sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobSpec {
    /// Submission time.
    pub submit: Time,
    /// Actual run time (the delay profile: how long it runs if not killed).
    pub runtime: Time,
    /// Requested time, at which the job is killed.
    pub walltime: Time,
    /// Requested resources.
    pub nodes: u32,
}

/// The machines and the jobs of a run, as announced to a scheduler.
#[derive(Debug, Clone, Default)]
pub struct Workload {
    /// Machines `0..capacity`.
    pub capacity: u32,
    /// Per job (indexed by [`JobId`]): its number (the trace's own when they
    /// are unique, else slasim's id).
    pub numbers: Vec<i64>,
    /// Per job: its protocol name, `w0!NUMBER`.
    pub names: Vec<String>,
    /// Per job: what it requests and how long it runs.
    pub jobs: Vec<JobSpec>,
    /// The machines' power model (pstates and their watts), when the cluster
    /// has one. Known from the first exchange on (SIMULATION_BEGINS), not
    /// yet at [`super::Scheduler::start`].
    pub power: Option<EnergyConfig>,
}

impl Workload {
    /// The workload of `jobs` (numbered `0..n` in order) on `capacity` machines.
    pub fn new(capacity: u32, jobs: &[Job]) -> Workload {
        let numbers = crate::workload::batsim::job_numbers(jobs);
        let names = numbers.iter().map(|n| format!("{WORKLOAD}!{n}")).collect();
        let jobs = jobs
            .iter()
            .map(|j| JobSpec { submit: j.occurrence, runtime: j.runtime, walltime: j.estimate, nodes: j.nodes })
            .collect();
        Workload { capacity, numbers, names, jobs, power: None }
    }

    /// The protocol name of `job`.
    pub fn name(&self, job: JobId) -> &str {
        &self.names[job as usize]
    }
}

/// A job named in JOB_KILLED.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KilledJob {
    /// The job the KILL_JOB named.
    pub job: JobId,
    /// Its progress in `[0, 1]` when it was running (a kill of a job that was
    /// not running is acknowledged without one).
    pub progress: Option<f64>,
}

/// One event sent to a scheduler.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The first event: the machines (all idle, in computing pstate 0), their
    /// power states when [`Workload::power`] is set, and the workload.
    SimulationBegins,
    /// A job is submitted and waits for a decision.
    JobSubmitted { job: JobId },
    /// A running job ended: ran its profile, reached its walltime, or was
    /// stopped by a machine failure. `alloc` is where it ran.
    JobCompleted { job: JobId, state: JobState, alloc: IntervalSet },
    /// The acknowledgement of a KILL_JOB, at the same instant.
    JobKilled { jobs: Vec<KilledJob> },
    /// A machine failed (Batsim's NOTIFY `event_machine_unavailable`).
    MachineUnavailable { node: NodeId },
    /// A machine was repaired (NOTIFY `event_machine_available`).
    MachineAvailable { node: NodeId },
    /// Every machine of one SET_RESOURCE_STATE request reached its pstate
    /// (RESOURCE_STATE_CHANGED): `nodes` the request's machines (those that
    /// failed on the way left out), `pstate` the state asked for.
    ResourceStateChanged { nodes: IntervalSet, pstate: u32 },
    /// The answer to a QUERY of `consumed_energy`: joules since t = 0.
    EnergyAnswer { joules: f64 },
    /// A CALL_ME_LATER is due.
    RequestedCall,
    /// The last event: every job has finished or been rejected.
    SimulationEnds,
}
