//! Grid cluster workloads: disjoint windows of one log, one per cluster.
//!
//! Reference: `coreservation-thesis-spec.md` §6.2 (each batch system gets a
//! different excerpt of SDSC Blue; jobs below 128 CPUs with the same
//! wall-clock limit submitted within an hour are merged; Table 6), ambiguities
//! A9 (wall-clock accuracy per cluster), A14 (the merging rule), A15 (the
//! windows).
//!
//! Contract:
//! - Window k covers submit times `[t0 + offset + k·length, t0 + offset +
//!   (k+1)·length)` of the usable jobs, t0 being the first usable submit; its
//!   jobs are re-based so the window starts at 0, and numbered 0.. in submit
//!   order. Windows never overlap. Asking for more windows than the log holds
//!   is an error naming the setting.
//! - Merging (A14), when on: in submit order, each job below `merge_below`
//!   CPUs joins the open group of its wall-clock limit if it was submitted at
//!   most `merge_within` after the group's first job and the group stays below
//!   `merge_below` CPUs; otherwise it opens a new group. A group becomes one
//!   job: the first submit, the summed CPUs, the shared limit, the longest
//!   runtime.
//! - A window's wall-clock accuracy is the mean of min(runtime, limit) / limit
//!   over its jobs (A9); its work-weighted accuracy weighs each job by its
//!   limit × CPUs.
//! - A [`GridLog`] is a log's usable jobs at their own submit times, loaded
//!   once and cut into windows per point.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use slasim_core::setting::InvalidSetting;
use slasim_core::units::{DAY, Time};
use slasim_single::workload::WorkloadSource;
use slasim_single::workload::job::Job;
use slasim_single::workload::prepare::PrepareConfig;

/// How cluster windows are cut from a log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WindowConfig {
    /// Length of each window, days (the thesis: 2 weeks).
    pub days: f64,
    /// Start of window 0 after the log's first usable job, days.
    pub offset_days: f64,
    /// Merge small jobs (A14).
    pub merge_jobs: bool,
    /// Jobs below this many CPUs are merged, and groups stay below it.
    pub merge_below: u32,
    /// Seconds within which merged jobs were submitted.
    pub merge_within: Time,
}

impl Default for WindowConfig {
    fn default() -> Self {
        WindowConfig { days: 14.0, offset_days: 0.0, merge_jobs: true, merge_below: 128, merge_within: 3600 }
    }
}

impl WindowConfig {
    /// Window length in seconds.
    pub fn length(&self) -> Time {
        (self.days * DAY as f64).round() as Time
    }

    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if !(self.days.is_finite() && self.days * DAY as f64 >= 1.0) {
            return Err(InvalidSetting::new("grid.windows.days", self.days, "must be a positive, finite number"));
        }
        if !(self.offset_days.is_finite() && self.offset_days >= 0.0) {
            return Err(InvalidSetting::new("grid.windows.offset_days", self.offset_days, "must be finite and ≥ 0"));
        }
        if self.merge_within < 0 {
            return Err(InvalidSetting::new("grid.windows.merge_within", self.merge_within, "must be ≥ 0"));
        }
        Ok(())
    }
}

/// One cluster's window of the log.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterWindow {
    /// Window index.
    pub index: usize,
    /// Its start, in the log's own seconds.
    pub offset: Time,
    /// Usable jobs in the window before merging.
    pub raw_jobs: usize,
    /// The jobs, re-based to the window's start, ids 0.. in submit order.
    pub jobs: Vec<Job>,
    /// Mean min(runtime, limit) / limit over its jobs.
    pub wc_acc: f64,
    /// Σ min(runtime, limit) · CPUs / Σ limit · CPUs over its jobs: the
    /// accuracy of the work a backlog estimates.
    pub wc_acc_work: f64,
}

/// Windows could not be cut.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WindowError {
    /// A window setting is out of its domain.
    #[error(transparent)]
    Setting(#[from] InvalidSetting),
    /// The log is too short for one window per cluster.
    #[error(
        "setting `grid.clusters` = {requested}: more clusters than the log has whole {days}-day windows \
         after the offset ({available})"
    )]
    TooFewWindows {
        /// Clusters asked for.
        requested: usize,
        /// Whole windows in the log.
        available: usize,
        /// Window length, days.
        days: f64,
    },
}

impl WindowError {
    /// The setting at fault.
    pub fn setting(&self) -> &'static str {
        match self {
            WindowError::Setting(e) => e.setting,
            WindowError::TooFewWindows { .. } => "grid.clusters",
        }
    }
}

/// Cuts `count` consecutive windows from `jobs` (usable, in submit order).
pub fn cut_windows(jobs: &[Job], count: usize, config: &WindowConfig) -> Result<Vec<ClusterWindow>, WindowError> {
    config.validate()?;
    let length = config.length();
    let Some(first) = jobs.first().map(|j| j.occurrence) else {
        return Err(WindowError::TooFewWindows { requested: count, available: 0, days: config.days });
    };
    let last = jobs.iter().map(|j| j.occurrence).max().unwrap_or(first);
    let start = first + (config.offset_days * DAY as f64).round() as Time;
    let available = if last < start { 0 } else { ((last - start) / length) as usize };
    if count > available {
        return Err(WindowError::TooFewWindows { requested: count, available, days: config.days });
    }
    let mut windows = Vec::with_capacity(count);
    for index in 0..count {
        let from = start + index as Time * length;
        let to = from + length;
        let lo = jobs.partition_point(|j| j.occurrence < from);
        let hi = jobs.partition_point(|j| j.occurrence < to);
        let slice = &jobs[lo..hi];
        let mut window: Vec<Job> = if config.merge_jobs { merge(slice, config) } else { slice.to_vec() };
        for (id, j) in window.iter_mut().enumerate() {
            j.id = id as u32;
            j.occurrence -= from;
            j.release -= from;
        }
        let used = |j: &Job| j.runtime.min(j.estimate) as f64;
        let limit = |j: &Job| j.estimate.max(1) as f64;
        let wc_acc = if window.is_empty() {
            1.0
        } else {
            window.iter().map(|j| used(j) / limit(j)).sum::<f64>() / window.len() as f64
        };
        let work: f64 = window.iter().map(|j| limit(j) * f64::from(j.nodes)).sum();
        let wc_acc_work =
            if work > 0.0 { window.iter().map(|j| used(j) * f64::from(j.nodes)).sum::<f64>() / work } else { 1.0 };
        windows.push(ClusterWindow { index, offset: from, raw_jobs: slice.len(), jobs: window, wc_acc, wc_acc_work });
    }
    Ok(windows)
}

/// Merges small jobs of one window (A14), keeping submit order.
pub fn merge(jobs: &[Job], config: &WindowConfig) -> Vec<Job> {
    let mut out: Vec<Job> = Vec::with_capacity(jobs.len());
    // The open group of each wall-clock limit: its index in `out`.
    let mut open: HashMap<Time, usize> = HashMap::new();
    for j in jobs {
        if j.nodes >= config.merge_below {
            out.push(*j);
            continue;
        }
        if let Some(&g) = open.get(&j.estimate) {
            let group = &mut out[g];
            if j.occurrence - group.occurrence <= config.merge_within && group.nodes + j.nodes < config.merge_below {
                group.nodes += j.nodes;
                group.runtime = group.runtime.max(j.runtime);
                continue;
            }
        }
        open.insert(j.estimate, out.len());
        out.push(*j);
    }
    out
}

/// A log's usable jobs, for cutting cluster windows.
#[derive(Debug, Clone)]
pub struct GridLog {
    /// The trace's name.
    pub trace: String,
    /// Usable jobs at their own submit times, in submit order.
    pub jobs: Vec<Job>,
}

impl GridLog {
    /// Loads (or generates) the workload and keeps its usable jobs: known
    /// submit time, run time > 0, a processor count and a limit, no wider than the log's machine.
    pub fn load(source: &WorkloadSource) -> anyhow::Result<GridLog> {
        let trace = source.load()?;
        let prepare = PrepareConfig { deadline_factor: f64::INFINITY, whole_log: true, ..PrepareConfig::default() };
        let (jobs, _, _) = prepare.usable_jobs(&trace)?;
        Ok(GridLog { trace: trace.name.clone(), jobs })
    }
}
