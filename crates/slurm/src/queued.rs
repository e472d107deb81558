//! A job as the controller holds it: what it asks, when, and the factors
//! fixed at its admission ([`crate::bench`] builds them; the controller and
//! the mechanisms it calls read them).

use crate::machine::Need;
use crate::priority::Fixed;
use slasim_sim::units::Time;

/// A job as the controller holds it.
#[derive(Debug, Clone, Copy)]
pub struct Queued {
    /// Its partition.
    pub partition: u16,
    /// Its user association (user in account): a user of the fair-share tree.
    pub assoc: u32,
    /// Its user (the workload's index), for `bf_max_job_user`.
    pub user: u32,
    /// Its time limit is above its partition's `MaxTime`: it never starts
    /// (held with `PartitionTimeLimit`, or rejected at submission under
    /// `EnforcePartLimits`).
    pub over_part_limit: bool,
    /// What it takes on each node.
    pub need: Need,
    /// Its time limit.
    pub limit: Time,
    /// How long it runs (cut at the limit).
    pub run: Time,
    /// Submit time.
    pub submit: Time,
    /// Slurm's job id (the queue's tie-break; an array task's array job id).
    pub id: u64,
    /// An array task's task id (the queue's last tie-break), else 0.
    pub task: u64,
    /// Its factors that never change.
    pub fixed: Fixed,
    /// The usage it is charged per second run: its billable TRES
    /// (`calc_job_billable_tres`: CPUs without `TRESBillingWeights`) times
    /// its QOS's `UsageFactor`.
    pub billing: f64,
    /// The nodes it may be given ([`crate::machine::Machine::allows`]; 0: any).
    pub set: u16,
    /// The advance reservation it names ([`crate::advance`]).
    pub resv: Option<u16>,
}

/// `EPOCH:SECONDS` (`slurm compare --grid`, `[slurm] grid`): a grid point
/// in Unix seconds and the seconds between grid points.
pub fn parse_grid(text: &str) -> Result<(i64, i64), String> {
    let (origin, period) =
        text.split_once(':').ok_or_else(|| format!("'{text}' is not EPOCH:SECONDS (a Unix time, a colon, seconds)"))?;
    let origin: i64 = origin.trim().parse().map_err(|_| format!("'{origin}' in '{text}' is not a Unix time"))?;
    let period: i64 =
        period.trim().parse().map_err(|_| format!("'{period}' in '{text}' is not a number of seconds"))?;
    if period < 1 {
        return Err(format!("the grid's SECONDS in '{text}' is {period}: it must be at least 1"));
    }
    Ok((origin, period))
}

/// How the runs of `workload` (read from `dump`) end under `grid`, and its
/// logged jobs' run times as the grid takes them (before they are admitted).
pub fn aligned(
    grid: Option<(i64, i64)>,
    workload: &mut slasim_data::trace::sacct::jobs::SlurmWorkload,
    dump: &std::path::Path,
) -> anyhow::Result<RunEnd> {
    let Some((origin, period)) = grid else { return Ok(RunEnd::AfterStart) };
    let epoch = workload.epoch.ok_or_else(|| {
        anyhow::anyhow!("{}: a grid needs a dump with Unix times (SLURM_TIME_FORMAT=%s)", dump.display())
    })?;
    let run_end = RunEnd::AfterGridPoint { origin: origin - epoch, period };
    for job in &mut workload.jobs {
        if let Some(l) = &job.logged {
            job.run_time = run_end.run_of(l.start, l.end);
        }
    }
    Ok(run_end)
}

/// When a started job's run ends, before its time limit cuts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RunEnd {
    /// Its run time after its start: a job's own length.
    #[default]
    AfterStart,
    /// Its run time after the grid point (`origin` plus a multiple of
    /// `period`) nearest its start, and at least a second after its start:
    /// a job script that sleeps to a fixed time after the grid, as the test
    /// cluster's aligned runs do (`tests/slurm/cluster.sh`), so that its end
    /// follows its start as it would have on Slurm.
    AfterGridPoint {
        /// A grid point, on the workload's time axis.
        origin: Time,
        /// Seconds between grid points (at least 1).
        period: Time,
    },
}

impl RunEnd {
    /// When a run of `run` seconds started at `start` ends.
    pub fn end(self, start: Time, run: Time) -> Time {
        match self {
            RunEnd::AfterStart => start + run,
            RunEnd::AfterGridPoint { .. } => (self.origin_of(start) + run).max(start + 1),
        }
    }

    /// The run time of a run logged from `start` to `end`: what [`RunEnd::end`]
    /// takes to end it there.
    pub fn run_of(self, start: Time, end: Time) -> Time {
        end - self.origin_of(start)
    }

    /// What a run started at `start` counts its run time from: its start, or
    /// the grid point nearest it (a midpoint goes to the later one).
    fn origin_of(self, start: Time) -> Time {
        match self {
            RunEnd::AfterStart => start,
            RunEnd::AfterGridPoint { origin, period } => {
                let p = period.max(1);
                origin + p * (2 * (start - origin) + p).div_euclid(2 * p)
            }
        }
    }
}
