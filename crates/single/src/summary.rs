//! A single-cluster run's aggregates: the figures `slasim run` prints and
//! the metrics of its `points` row.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.4 (money: gain = Σ fees
//! of successful jobs − Σ penalties of failed jobs).
//!
//! Contract: [`RunSummary::of`] reads only the run's records (what the
//! cluster decided); what something attached around the strategy recorded
//! (the calibrated PoF) is added from its own report.

use serde::Serialize;

use crate::cluster::record::{Outcome, RunRecords};
use crate::policy::RejectReason;
use crate::policy::calibrator::CalibratedRun;
use slasim_core::metrics::{bounded_slowdown, wait as wait_of};
use slasim_core::units::Time;

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
    /// Σ calibrated PoF of the overbooked jobs, if the run calibrated online
    /// (set from its [`CalibratedRun`], see [`RunSummary::calibrated`]).
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

impl RunSummary {
    /// The same summary with the calibrated PoF of a calibrated run.
    pub fn calibrated(mut self, records: &RunRecords, calibrated: Option<&CalibratedRun>) -> RunSummary {
        self.overbooked_pof_calibrated_sum = calibrated.and_then(|c| c.overbooked_pof_sum(records));
        self
    }

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
                let (w, resp, run) = (wait_of(job.occurrence, start), end - job.occurrence, end - start);
                ran += 1;
                wait += w as f64;
                s.wait_max = s.wait_max.max(w as f64);
                response += resp as f64;
                slowdown += resp as f64 / run.max(1) as f64;
                bounded += bounded_slowdown(w, run);
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
