//! Batsim's job table (`_jobs.csv`) of a run, for evalys and other Batsim tools.
//!
//! Reference: Batsim's output documentation (oar-team/batsim,
//! `docs/output-jobs.rst`) for the columns and their meaning; interval sets as
//! in `docs/interval-set.rst`.
//!
//! Contract:
//! - [`job_table`] is a pure function of a run's jobs, their records and its
//!   executions (as [`crate::cluster::bench::simulate`] returns them): one
//!   row per job, in job id order, with Batsim's columns `job_id,
//!   workload_name, profile, submission_time, requested_number_of_resources,
//!   requested_time, success, final_state, starting_time, execution_time,
//!   finish_time, waiting_time, turnaround_time, stretch,
//!   allocated_resources, consumed_energy, metadata`
//!   followed by slasim's own columns (`slasim_outcome, slasim_deadline,
//!   slasim_overbooked, slasim_pof, slasim_fee, slasim_penalty,
//!   slasim_restarts`), which evalys ignores.
//! - Job ids and profiles are those the `batsim` strategy and
//!   `trace export --format batsim` use (`w0`, `delay<run time>`).
//! - A job's times are those of its last execution; `final_state` is
//!   REJECTED, COMPLETED_SUCCESSFULLY (it ran its whole run time),
//!   COMPLETED_WALLTIME_REACHED (stopped at its requested time) or
//!   COMPLETED_FAILED (stopped earlier: a node failure or a kill); a job that
//!   never ran has empty times. `success` is 1 only for
//!   COMPLETED_SUCCESSFULLY. Energy is not modelled: `consumed_energy` is -1,
//!   as Batsim writes without its energy plugin.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::cluster::ExecutionRecord;
use crate::cluster::record::{Outcome, RunRecords};
use crate::policy::batsim::protocol::{IntervalSet, JobState, WORKLOAD};
use crate::workload::batsim::delay_profile_name;

/// The header row.
pub const HEADER: &str = "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,\
success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,\
allocated_resources,consumed_energy,metadata,slasim_outcome,slasim_deadline,slasim_overbooked,slasim_pof,\
slasim_fee,slasim_penalty,slasim_restarts";

/// The job table of a run, as CSV text.
pub fn job_table(records: &RunRecords, executions: &[ExecutionRecord]) -> String {
    // The last execution of each job.
    let mut last: Vec<Option<&ExecutionRecord>> = vec![None; records.len()];
    for e in executions {
        if let Some(slot) = last.get_mut(e.job as usize) {
            match slot {
                Some(prev) if prev.start > e.start => {}
                _ => *slot = Some(e),
            }
        }
    }
    let numbers = crate::workload::batsim::job_numbers(records.recorded_jobs());
    let mut out = String::with_capacity(160 * (records.len() + 1));
    out.push_str(HEADER);
    out.push('\n');
    for (i, (j, r)) in records.iter().enumerate() {
        let execution = last[i];
        let state = match (r.outcome, execution) {
            (Some(Outcome::Rejected), _) => JobState::Rejected,
            (_, Some(e)) if e.end - e.start >= j.runtime => JobState::CompletedSuccessfully,
            (_, Some(e)) if e.end - e.start >= j.estimate => JobState::CompletedWalltimeReached,
            _ => JobState::CompletedFailed,
        };
        let _ = write!(
            out,
            "{},{WORKLOAD},{},{},{},{},{},{},",
            numbers[i],
            delay_profile_name(j.runtime),
            j.occurrence,
            j.nodes,
            j.estimate,
            u8::from(state == JobState::CompletedSuccessfully),
            state.as_str()
        );
        match execution.filter(|_| state != JobState::Rejected) {
            Some(e) => {
                let run = e.end - e.start;
                let turnaround = e.end - j.occurrence;
                let stretch = if run > 0 { format!("{}", turnaround as f64 / run as f64) } else { String::new() };
                let _ = write!(
                    out,
                    "{},{run},{},{},{turnaround},{stretch},{},",
                    e.start,
                    e.end,
                    e.start - j.occurrence,
                    IntervalSet::from_nodes(&e.nodes)
                );
            }
            None => out.push_str(",,,,,,,"),
        }
        let deadline =
            if j.deadline >= crate::workload::job::NO_DEADLINE { String::new() } else { j.deadline.to_string() };
        let pof = r.pof.map_or_else(String::new, |p| p.to_string());
        let _ = writeln!(
            out,
            "-1,,{},{deadline},{},{pof},{},{},{}",
            r.outcome.map_or("", Outcome::as_str),
            u8::from(r.overbooked),
            r.fee(j),
            r.penalty(j),
            r.restarts
        );
    }
    out
}

/// Simulates a single-cluster point again, keeping its executions (the
/// store keeps no node lists), and writes its job table to `out`.
pub fn write_for_point(point: &crate::point::SinglePoint, out: &Path) -> anyhow::Result<()> {
    use slasim_core::experiment::inputs::Inputs;
    use slasim_core::experiment::point::Point;
    let inputs = Inputs::load(&[Point::new(point.clone())])?;
    let simulated = crate::point::simulate_with_executions(&inputs, point)?;
    let text = job_table(&simulated.cluster.records, &simulated.cluster.executions);
    std::fs::write(out, text).with_context(|| format!("{}: cannot write the job table", out.display()))
}
