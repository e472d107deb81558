//! What a simulation leaves behind: one record per job and node events.
//!
//! Reference: `overbooking-dissertation-spec.md` §1.3 (per-job record), §6.3
//! (outcome rules), §6.4 (money: gain = Σ fees of successful jobs − Σ penalties
//! of failed jobs).
//!
//! Contract: every job of a run ends in exactly one [`Outcome`]. A
//! [`JobRecord`] holds what the run decided for a job and the job's id, not
//! the job: [`RunRecords`] keeps the run's jobs beside their records, and its
//! [`RunRecords::iter`] is how a reader pairs them. `fee` is what the provider
//! earned from the job (0 unless it succeeded) and `penalty` what it paid (0
//! unless it failed), so Σ fee − Σ penalty is the gain.

use std::sync::Arc;

pub use crate::cluster::strategy::Outcome;
use crate::cluster::strategy::RejectReason;
use crate::workload::failures::NodeEventKind;
use crate::workload::job::Job;
use slasim_core::units::{JobId, NodeId, Time};

/// What a run decided for one job.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecord {
    /// The job's id (its jobs are in the run's [`RunRecords`]).
    pub job: JobId,
    /// Accepted at occurrence.
    pub accepted: bool,
    /// Planned start of the accepted booking.
    pub planned_start: Option<Time>,
    /// Planned end of the accepted booking.
    pub planned_end: Option<Time>,
    /// Start of its last execution.
    pub actual_start: Option<Time>,
    /// End of its last execution (completion, kill or interruption).
    pub actual_end: Option<Time>,
    /// The booking was shorter than the estimate.
    pub overbooked: bool,
    /// Predicted probability of failure at acceptance.
    pub pof: Option<f64>,
    /// Final outcome (`None` only while the run is in progress).
    pub outcome: Option<Outcome>,
    /// Executions started after the first (restarts after node failures).
    pub restarts: u32,
    /// Seconds of execution over all its executions.
    pub executed: Time,
    /// Why it was rejected.
    pub reject_reason: Option<RejectReason>,
    /// Times a reservation moved it later (paper B's *move*).
    pub moves: u32,
    /// The starvation guard pinned it.
    pub pinned: bool,
    /// Times it was checkpointed at the end of an overbooked booking.
    pub checkpoints: u32,
    /// Work saved by checkpoints (seconds of its real runtime).
    pub saved: Time,
}

impl JobRecord {
    /// A fresh record for the submitted job `job`.
    pub fn new(job: JobId) -> JobRecord {
        JobRecord {
            job,
            accepted: false,
            planned_start: None,
            planned_end: None,
            actual_start: None,
            actual_end: None,
            overbooked: false,
            pof: None,
            outcome: None,
            restarts: 0,
            executed: 0,
            reject_reason: None,
            moves: 0,
            pinned: false,
            checkpoints: 0,
            saved: 0,
        }
    }

    /// What the provider earned from `job`, this record's job.
    pub fn fee(&self, job: &Job) -> f64 {
        if self.outcome == Some(Outcome::Success) { job.fee } else { 0.0 }
    }

    /// What the provider paid for `job`, this record's job.
    pub fn penalty(&self, job: &Job) -> f64 {
        if self.outcome == Some(Outcome::Failed) { job.penalty } else { 0.0 }
    }
}

/// A run's jobs and its record of each, both by job id: `records[i]` is of
/// `jobs[i]`, whose id is `i`. The jobs are the ones the run was given (a
/// battery's, shared, not copied); a record holds only what the run decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunRecords {
    /// The jobs, by id.
    pub jobs: Arc<[Job]>,
    /// One record per submitted job, by id.
    pub records: Vec<JobRecord>,
}

impl RunRecords {
    /// Each record with its job, by id.
    pub fn iter(&self) -> std::iter::Zip<std::slice::Iter<'_, Job>, std::slice::Iter<'_, JobRecord>> {
        self.into_iter()
    }

    /// Job `id` and its record, if it has one.
    pub fn get(&self, id: JobId) -> Option<(&Job, &JobRecord)> {
        Some((self.jobs.get(id as usize)?, self.records.get(id as usize)?))
    }

    /// The jobs that have a record, by id: `recorded_jobs()[i]` is of
    /// `records[i]`, as [`RunRecords::iter`] pairs them.
    pub fn recorded_jobs(&self) -> &[Job] {
        &self.jobs[..self.records.len().min(self.jobs.len())]
    }

    /// Records (jobs submitted).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// No record.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

/// Each record with its job, by id.
impl<'a> IntoIterator for &'a RunRecords {
    type Item = (&'a Job, &'a JobRecord);
    type IntoIter = std::iter::Zip<std::slice::Iter<'a, Job>, std::slice::Iter<'a, JobRecord>>;

    fn into_iter(self) -> Self::IntoIter {
        self.jobs.iter().zip(&self.records)
    }
}

/// The record of job `id`.
impl std::ops::Index<usize> for RunRecords {
    type Output = JobRecord;

    fn index(&self, id: usize) -> &JobRecord {
        &self.records[id]
    }
}

/// A node failure or repair as the cluster saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeEventRecord {
    /// When.
    pub time: Time,
    /// Which node.
    pub node: NodeId,
    /// Failure or repair.
    pub kind: NodeEventKind,
    /// The running job it interrupted, if any.
    pub job: Option<JobId>,
}
