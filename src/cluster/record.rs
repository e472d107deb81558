//! What a simulation leaves behind: one record per job, node events, a summary.
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

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::policy::RejectReason;
use crate::units::{JobId, NodeId, Time};
use crate::workload::failures::NodeEventKind;
use crate::workload::job::Job;

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Ran to its real runtime, or was killed after receiving its full estimate.
    Success,
    /// Killed before receiving its estimate (overbooking), or lost to node failures.
    Failed,
    /// Rejected at its occurrence.
    Rejected,
}

impl Outcome {
    /// The code stored in `job_outcomes.outcome`.
    pub fn code(self) -> i64 {
        match self {
            Outcome::Success => 1,
            Outcome::Failed => 2,
            Outcome::Rejected => 3,
        }
    }

    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failed => "failed",
            Outcome::Rejected => "rejected",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    /// The calibrated prediction the acceptance test read, if the cluster calibrates.
    pub pof_calibrated: Option<f64>,
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
            pof_calibrated: None,
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

/// Per-run aggregates, the figures `slasim run` prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RunSummary {
    /// Jobs submitted.
    pub jobs: u32,
    /// Accepted at occurrence.
    pub accepted: u32,
    /// Ended successfully.
    pub successful: u32,
    /// Failed after acceptance.
    pub failed: u32,
    /// Rejected at occurrence.
    pub rejected: u32,
    /// Σ fees, VC.
    pub fees: f64,
    /// Σ penalties, VC.
    pub penalties: f64,
    /// fees − penalties.
    pub gain: f64,
    /// Node-seconds of execution / (capacity · span), span from 0 to the last end.
    pub utilisation: f64,
    /// Accepted jobs booked shorter than their estimate.
    pub overbooked: u32,
    /// Of those, how many failed.
    pub overbooked_failed: u32,
    /// Σ predicted PoF of the overbooked jobs (mean = this / overbooked).
    pub overbooked_pof_sum: f64,
    /// Σ calibrated PoF of the overbooked jobs, if the cluster calibrated.
    pub overbooked_pof_calibrated_sum: Option<f64>,
    /// Reservations submitted (paper B).
    pub reservations: u32,
    /// Of those, accepted.
    pub reservations_accepted: u32,
    /// Rejected reservations in % of submitted (0 without reservations).
    pub reservation_rejection_rate: f64,
    /// Area-weighted slowdown of the variable jobs that ran: Σ aᵢsᵢ / Σ aᵢ,
    /// sᵢ = response / run time, aᵢ = run time · nodes (paper B).
    pub sldwa: f64,
    /// Variable jobs moved later at least once.
    pub moved_jobs: u32,
    /// Mean delay of the moved jobs that ran: actual start − first planned start, s.
    pub move_delay_mean: f64,
    /// Maximum of those delays, s.
    pub move_delay_max: f64,
    /// Jobs the starvation guard pinned.
    pub pinned_jobs: u32,
    /// Checkpoints written (killed overbooked jobs that may resume).
    pub checkpoints: u32,
    /// Checkpointed jobs that succeeded in the end.
    pub resumed_successful: u32,
    /// Jobs wider than the machine, dropped (rejected `too-wide`).
    pub dropped: u32,
    /// Mean wait (start − occurrence) of the jobs that ran, s.
    pub wait_mean: f64,
    /// Maximum wait, s.
    pub wait_max: f64,
    /// Mean response time (end − occurrence), s.
    pub response_mean: f64,
    /// Mean slowdown: response / max(run time, 1 s).
    pub slowdown_mean: f64,
    /// Mean bounded slowdown: max(1, response / max(run time, τ)), τ = 10 s.
    pub bounded_slowdown_mean: f64,
    /// Last end − first occurrence of the jobs that ran, s.
    pub makespan: f64,
}

/// τ of the bounded slowdown, s.
pub const BOUNDED_SLOWDOWN_TAU: Time = 10;

impl RunSummary {
    /// Aggregates a run's records on a cluster of `capacity` nodes.
    pub fn of(records: &RunRecords, capacity: u32) -> RunSummary {
        let mut s = RunSummary { jobs: records.len() as u32, ..RunSummary::default() };
        let mut busy = 0f64;
        let mut span_end: Time = 0;
        let (mut weighted_slowdown, mut area) = (0f64, 0f64);
        let (mut delay_sum, mut delayed) = (0f64, 0u32);
        let (mut ran, mut wait, mut response, mut slowdown, mut bounded) = (0u32, 0f64, 0f64, 0f64, 0f64);
        let mut first_occurrence = Time::MAX;
        for (job, r) in records.iter() {
            if r.reject_reason == Some(RejectReason::TooWide) {
                s.dropped += 1;
            }
            if let (false, Some(start), Some(end)) = (job.reservation, r.actual_start, r.actual_end) {
                let (w, resp, run) = (start - job.occurrence, end - job.occurrence, end - start);
                ran += 1;
                wait += w as f64;
                s.wait_max = s.wait_max.max(w as f64);
                response += resp as f64;
                slowdown += resp as f64 / run.max(1) as f64;
                bounded += (resp as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0);
                first_occurrence = first_occurrence.min(job.occurrence);
            }
            if job.reservation {
                s.reservations += 1;
                s.reservations_accepted += u32::from(r.accepted);
            } else if let (Some(start), Some(end)) = (r.actual_start, r.actual_end)
                && end > start
            {
                // sᵢ·aᵢ = response · nodes.
                let nodes = f64::from(job.nodes);
                weighted_slowdown += (end - job.occurrence) as f64 * nodes;
                area += (end - start) as f64 * nodes;
            }
            if r.moves > 0 {
                s.moved_jobs += 1;
                if let (Some(actual), Some(planned)) = (r.actual_start, r.planned_start) {
                    let delay = (actual - planned).max(0) as f64;
                    delay_sum += delay;
                    delayed += 1;
                    s.move_delay_max = s.move_delay_max.max(delay);
                }
            }
            s.pinned_jobs += u32::from(r.pinned);
            s.checkpoints += r.checkpoints;
            if r.checkpoints > 0 && r.outcome == Some(Outcome::Success) {
                s.resumed_successful += 1;
            }
            if r.accepted {
                s.accepted += 1;
            }
            match r.outcome {
                Some(Outcome::Success) => s.successful += 1,
                Some(Outcome::Failed) => s.failed += 1,
                Some(Outcome::Rejected) => s.rejected += 1,
                None => {}
            }
            s.fees += r.fee(job);
            s.penalties += r.penalty(job);
            if r.accepted && r.overbooked {
                s.overbooked += 1;
                s.overbooked_pof_sum += r.pof.unwrap_or(0.0);
                if let Some(c) = r.pof_calibrated {
                    *s.overbooked_pof_calibrated_sum.get_or_insert(0.0) += c;
                }
                if r.outcome == Some(Outcome::Failed) {
                    s.overbooked_failed += 1;
                }
            }
            busy += f64::from(job.nodes) * r.executed as f64;
            span_end = span_end.max(r.actual_end.unwrap_or(0));
        }
        s.gain = s.fees - s.penalties;
        if s.reservations > 0 {
            s.reservation_rejection_rate =
                100.0 * f64::from(s.reservations - s.reservations_accepted) / f64::from(s.reservations);
        }
        if area > 0.0 {
            s.sldwa = weighted_slowdown / area;
        }
        if delayed > 0 {
            s.move_delay_mean = delay_sum / f64::from(delayed);
        }
        if ran > 0 {
            let n = f64::from(ran);
            s.wait_mean = wait / n;
            s.response_mean = response / n;
            s.slowdown_mean = slowdown / n;
            s.bounded_slowdown_mean = bounded / n;
            s.makespan = (span_end - first_occurrence) as f64;
        }
        if span_end > 0 && capacity > 0 {
            s.utilisation = busy / (f64::from(capacity) * span_end as f64);
        }
        s
    }
}
