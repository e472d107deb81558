//! Experiment preparation: from an SWF trace to PDF-training history and batteries.
//!
//! Reference: `overbooking-dissertation-spec.md` §1.2 (job creation), §2.3 (which
//! jobs train the PDFs), §7.2 (filtering), §7.3 (occurrence scaling), §7.4
//! (deadline, fee, penalty).
//!
//! Contract, in pipeline order (every step configurable through [`PrepareConfig`]):
//! 1. **Filter** unusable records, counting each under the first reason that
//!    applies ([`FilterReason`]).
//! 2. **Order** the usable jobs by submit time (stable; ties by SWF job number).
//! 3. **Split**: the last `input_jobs` jobs are the simulation input; everything
//!    before is history, used only to learn runtime PDFs.
//! 4. **Batteries**: the input is cut, in order, into `batteries × battery_size`.
//! 5. **Scale** occurrence times by one factor for the whole input, so that the
//!    input's *estimated* load Σ n·x / (K · span) equals `target_load`
//!    (default 2.0 = 200 %); the factor is computed unless fixed in the config.
//!    Each battery is re-based so its first job occurs at t = 0.
//! 6. **SLA terms**: e = o, d = o + deadline_factor·x, fee = n·x node-hours,
//!    penalty = penalty_ratio · fee.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::workload::job::Job;
use crate::workload::sla::{self, SlaInput, SlaTermsRule};
use slasim_core::setting::{InvalidSetting, at_least_one, positive};
use slasim_core::units::Time;
use slasim_core::units::thousands;
use slasim_data::trace::swf::{SwfRecord, SwfTrace};

/// Which SWF field gives a job's processor count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ProcessorField {
    /// Requested processors (field 8), else allocated (field 5). PWA logs such as
    /// CTC leave field 8 at −1, so the fallback matters.
    #[default]
    RequestedElseAllocated,
    /// Requested processors only.
    Requested,
    /// Allocated processors only.
    Allocated,
}

/// The resource unit a job's `n` and the cluster size are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NodeUnit {
    /// Processors, as the PWA logs give them (the dissertation's choice).
    #[default]
    Processors,
    /// Whole nodes: n = ⌈processors / processors-per-node⌉, capacity = MaxNodes.
    Nodes,
}

/// Why a record was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FilterReason {
    /// Submit time unknown (−1).
    NoSubmitTime,
    /// Run time unknown (−1).
    NoRuntime,
    /// Run time 0: nothing to schedule.
    ZeroRuntime,
    /// No processor count in the chosen field(s).
    NoProcessors,
    /// No runtime estimate (requested time ≤ 0).
    NoEstimate,
    /// Asks for more resources than the machine has.
    WiderThanMachine,
    /// Ran past its estimate (`drop_overruns`).
    Overrun,
    /// SWF status other than 1, completed (`completed_only`).
    NotCompleted,
}

impl FilterReason {
    /// Every reason, in report order.
    pub const ALL: [FilterReason; 8] = [
        FilterReason::NoSubmitTime,
        FilterReason::NoRuntime,
        FilterReason::ZeroRuntime,
        FilterReason::NoProcessors,
        FilterReason::NoEstimate,
        FilterReason::WiderThanMachine,
        FilterReason::Overrun,
        FilterReason::NotCompleted,
    ];
}

impl fmt::Display for FilterReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FilterReason::NoSubmitTime => "no submit time",
            FilterReason::NoRuntime => "no run time",
            FilterReason::ZeroRuntime => "zero run time",
            FilterReason::NoProcessors => "no processor count",
            FilterReason::NoEstimate => "no runtime estimate",
            FilterReason::WiderThanMachine => "wider than the machine",
            FilterReason::Overrun => "ran past its estimate",
            FilterReason::NotCompleted => "status not completed",
        })
    }
}

/// Which filters apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FilterConfig {
    /// Drop jobs whose run time is 0.
    pub drop_zero_runtime: bool,
    /// Drop jobs wider than the machine (otherwise they are kept, and the
    /// strategies reject them as `too-wide`).
    pub drop_wider_than_machine: bool,
    /// A job without a requested time gets its run time as its estimate
    /// instead of being dropped (the classic modes' convention).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub estimate_from_runtime: bool,
    /// Drop jobs that ran past their estimate (a candidate for the
    /// dissertation's unstated trace filter, issue 17's ablation).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub drop_overruns: bool,
    /// Keep only jobs whose SWF status is 1, completed (the same).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub completed_only: bool,
}

impl Default for FilterConfig {
    fn default() -> Self {
        FilterConfig {
            drop_zero_runtime: true,
            drop_wider_than_machine: true,
            estimate_from_runtime: false,
            drop_overruns: false,
            completed_only: false,
        }
    }
}

/// Every setting of the preparation pipeline. Defaults are the dissertation's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PrepareConfig {
    /// Filtering rules.
    pub filter: FilterConfig,
    /// Which field gives the processor count.
    pub processors: ProcessorField,
    /// Processors or whole nodes.
    pub node_unit: NodeUnit,
    /// Processors per node for `node_unit = "nodes"`; default MaxProcs / MaxNodes.
    pub processors_per_node: Option<u32>,
    /// Machine size K in the node unit; default from the header (MaxProcs or MaxNodes).
    pub capacity: Option<u32>,
    /// Simulation input: the last N usable jobs (the rest is PDF history).
    pub input_jobs: usize,
    /// Number of batteries cut from the input.
    pub batteries: usize,
    /// Jobs per battery.
    pub battery_size: usize,
    /// Target estimated load of the scaled input (2.0 = 200 %).
    pub target_load: f64,
    /// A fixed occurrence factor (e.g. the thesis' 0.15 for CTC) instead of the computed one.
    pub occurrence_factor: Option<f64>,
    /// d = o + deadline_factor · x; `inf` gives jobs without a deadline
    /// (paper B's variable jobs).
    pub deadline_factor: f64,
    /// penalty = penalty_ratio · fee.
    pub penalty_ratio: f64,
    /// Simulate the whole log as one battery at its own arrival times (scaled
    /// only by an explicit `occurrence_factor`), with no PDF history.
    pub whole_log: bool,
    /// Keep only the log's first N usable jobs (by submit time), before
    /// anything else; left out of the canonical text when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_jobs: Option<usize>,
    /// The rule giving each job its deadline, fee and penalty
    /// ([`crate::workload::sla::SLA_TERMS`]); left out of the canonical text
    /// when it is the default `uniform`.
    #[serde(default = "default_sla_terms", skip_serializing_if = "is_default_sla_terms")]
    pub sla_terms: String,
}

fn default_sla_terms() -> String {
    sla::DEFAULT.to_string()
}

fn is_default_sla_terms(name: &String) -> bool {
    name == sla::DEFAULT
}

/// What a job requests as its run time: its actual run time (exact
/// estimates) or the run time limit its user gave (logged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Estimates {
    /// The actual run time.
    #[default]
    Exact,
    /// The logged estimate (requested time).
    Logged,
}

impl Estimates {
    /// Both, with one line each.
    pub const ALL: [(Estimates, &'static str); 2] = [
        (Estimates::Exact, "jobs request their actual run times"),
        (Estimates::Logged, "jobs request the run time limits their users gave (the log's requested time)"),
    ];

    /// Its name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Estimates::Exact => "exact",
            Estimates::Logged => "logged",
        }
    }
}

impl Default for PrepareConfig {
    fn default() -> Self {
        PrepareConfig {
            filter: FilterConfig::default(),
            processors: ProcessorField::default(),
            node_unit: NodeUnit::default(),
            processors_per_node: None,
            capacity: None,
            input_jobs: 20_000,
            batteries: 20,
            battery_size: 1000,
            target_load: 2.0,
            occurrence_factor: None,
            deadline_factor: 2.0,
            penalty_ratio: 1.0,
            whole_log: false,
            first_jobs: None,
            sla_terms: default_sla_terms(),
        }
    }
}

/// Errors of the preparation pipeline; each names the setting or trace at fault.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum PrepareError {
    /// A setting outside its domain.
    #[error(transparent)]
    Setting(#[from] InvalidSetting),
    /// The machine size is unknown.
    #[error(
        "{trace}: the header has no {key} line; give the machine's size: --capacity N (`capacity` in a config's [prepare])"
    )]
    UnknownCapacity { trace: String, key: &'static str },
    /// `sla_terms` names no registered rule.
    #[error("sla_terms: {0}")]
    UnknownSlaTerms(#[from] slasim_core::experiment::registry::UnknownName),
    /// Nothing survived filtering.
    #[error("{trace}: no usable jobs after filtering ({report})")]
    NoUsableJobs { trace: String, report: String },
    /// Too few usable jobs for the requested batteries.
    #[error(
        "{trace}: {usable} usable jobs cannot fill {batteries} batteries of {size} jobs; \
         lower --batteries or --battery-size (`batteries`, `battery_size` in a config's [prepare]), \
         or run the log as one battery: --whole-log"
    )]
    TooFewJobs { trace: String, usable: usize, batteries: usize, size: usize },
    /// The input spans no time, so its load is undefined.
    #[error("{trace}: the simulation input's jobs all occur at one instant; its load is undefined")]
    ZeroSpan { trace: String },
}

/// Counts of filtered records per reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FilterReport {
    /// Records read.
    pub records: usize,
    /// Records kept.
    pub usable: usize,
    /// Dropped records, per reason.
    pub dropped: BTreeMap<FilterReason, usize>,
}

impl FilterReport {
    /// Total dropped.
    pub fn dropped_total(&self) -> usize {
        self.dropped.values().sum()
    }
}

impl fmt::Display for FilterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {} records usable", thousands(self.usable), thousands(self.records))?;
        if !self.dropped.is_empty() {
            let parts: Vec<String> = self.dropped.iter().map(|(r, n)| format!("{r}: {n}")).collect();
            write!(f, "; dropped {}", parts.join(", "))?;
        }
        Ok(())
    }
}

/// One battery: an independent simulation input starting at t = 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Battery {
    /// 0-based battery index.
    pub index: usize,
    /// Jobs in occurrence order, ids 0..len; shared by the scenarios that
    /// run it (a whole-log battery is the run's largest input).
    pub jobs: Arc<[Job]>,
    /// Where it began in the log: its first job's submission, in the log's
    /// seconds (its time 0 is there).
    pub began: Time,
}

/// The prepared experiment input.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The trace's name.
    pub trace: String,
    /// Machine size K in the node unit.
    pub capacity: u32,
    /// PDF-training jobs (unscaled times; SLA terms filled for completeness).
    pub history: Vec<Job>,
    /// The simulation input cut into batteries.
    pub batteries: Vec<Battery>,
    /// The occurrence factor applied.
    pub occurrence_factor: f64,
    /// The Unix time of the log's time 0 (its `UnixStartTime`; none when
    /// the header gives none, or 0 as the synthetic workload's does).
    pub unix_start: Option<i64>,
    /// Estimated load of the input before scaling (Σ n·x / (K·span)).
    pub input_load: f64,
    /// What filtering did.
    pub filter: FilterReport,
}

/// A usable job before SLA terms: times in the trace's seconds.
#[derive(Debug, Clone, Copy)]
struct Usable {
    swf_id: i64,
    submit: Time,
    estimate: Time,
    runtime: Time,
    nodes: u32,
    user: i64,
    application: i64,
    queue: i64,
    qos_class: Option<&'static str>,
}

/// The queues a trace's header names by a QoS class, with that class.
type QosClasses = Vec<(i64, &'static str)>;

/// The header's `Queue:` lines whose name is a QoS class
/// ([`slasim_data::trace::gpu::QOS_QUEUES`]); a classic log's queues
/// (LoadLeveler classes, `express`, `normal`, …) are none.
fn qos_classes(trace: &SwfTrace) -> QosClasses {
    let known = &slasim_data::trace::gpu::QOS_QUEUES;
    trace.header.queues().filter_map(|(q, name)| known.iter().find(|&&c| c == name).map(|&c| (q, c))).collect()
}

impl PrepareConfig {
    /// Checks the settings that filtering, splitting and scaling read.
    pub fn validate_split(&self) -> Result<(), PrepareError> {
        positive("target_load", self.target_load)?;
        if let Some(f) = self.occurrence_factor {
            positive("occurrence_factor", f)?;
        }
        at_least_one("input_jobs", self.input_jobs)?;
        if let Some(c) = self.capacity {
            at_least_one("capacity", c)?;
        }
        if let Some(p) = self.processors_per_node {
            at_least_one("processors_per_node", p)?;
        }
        Ok(())
    }

    /// Checks every setting's domain.
    pub fn validate(&self) -> Result<(), PrepareError> {
        self.validate_split()?;
        if self.deadline_factor.is_nan() || self.deadline_factor < 1.0 {
            Err(InvalidSetting::new(
                "deadline_factor",
                self.deadline_factor,
                "must be at least 1 (d ≥ o + x), or inf for jobs without a deadline",
            ))?;
        }
        positive("penalty_ratio", self.penalty_ratio)?;
        self.sla_rule()?;
        at_least_one("batteries", self.batteries)?;
        at_least_one("battery_size", self.battery_size)?;
        if self.input_jobs < self.batteries * self.battery_size {
            Err(InvalidSetting::new("input_jobs", self.input_jobs, "must be at least batteries × battery_size"))?;
        }
        Ok(())
    }

    /// Machine size and the processors-per-node divisor for this trace.
    fn machine(&self, trace: &SwfTrace) -> Result<(u32, f64), PrepareError> {
        let header = &trace.header;
        let unknown = |key| PrepareError::UnknownCapacity { trace: trace.name.clone(), key };
        let to_u32 = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        match self.node_unit {
            NodeUnit::Processors => {
                let capacity = match self.capacity {
                    Some(c) => c,
                    None => header.max_procs().map(to_u32).ok_or_else(|| unknown("MaxProcs"))?,
                };
                Ok((capacity, 1.0))
            }
            NodeUnit::Nodes => {
                let max_nodes = header.max_nodes().map(to_u32);
                let per_node = match (self.processors_per_node, max_nodes, header.max_procs()) {
                    (Some(p), _, _) => f64::from(p),
                    (None, Some(n), Some(p)) if n > 0 => (p as f64 / f64::from(n)).max(1.0),
                    _ => return Err(unknown("MaxNodes/MaxProcs")),
                };
                let capacity = match self.capacity {
                    Some(c) => c,
                    None => max_nodes.ok_or_else(|| unknown("MaxNodes"))?,
                };
                Ok((capacity, per_node))
            }
        }
    }

    /// The processor count of a record under the chosen field.
    fn processors(&self, r: &SwfRecord) -> Option<i64> {
        match self.processors {
            ProcessorField::RequestedElseAllocated => r.processors(),
            ProcessorField::Requested => (r.requested_procs > 0).then_some(r.requested_procs),
            ProcessorField::Allocated => (r.allocated_procs > 0).then_some(r.allocated_procs),
        }
    }

    fn classify(
        &self,
        r: &SwfRecord,
        capacity: u32,
        per_node: f64,
        classes: &QosClasses,
    ) -> Result<Usable, FilterReason> {
        if r.submit < 0 {
            return Err(FilterReason::NoSubmitTime);
        }
        if r.runtime < 0 {
            return Err(FilterReason::NoRuntime);
        }
        if r.runtime == 0 && self.filter.drop_zero_runtime {
            return Err(FilterReason::ZeroRuntime);
        }
        let procs = self.processors(r).ok_or(FilterReason::NoProcessors)?;
        let estimate = r
            .estimate()
            .or_else(|| self.filter.estimate_from_runtime.then_some(r.runtime))
            .ok_or(FilterReason::NoEstimate)?;
        let nodes = ((procs as f64 / per_node).ceil() as u64).max(1);
        if nodes > u64::from(capacity) && self.filter.drop_wider_than_machine {
            return Err(FilterReason::WiderThanMachine);
        }
        if self.filter.drop_overruns && r.runtime > estimate {
            return Err(FilterReason::Overrun);
        }
        if self.filter.completed_only && r.status != 1 {
            return Err(FilterReason::NotCompleted);
        }
        Ok(Usable {
            swf_id: r.job,
            submit: r.submit,
            estimate,
            runtime: r.runtime,
            nodes: u32::try_from(nodes).unwrap_or(u32::MAX),
            user: r.user,
            application: r.executable,
            queue: r.queue,
            qos_class: classes.iter().find(|(q, _)| *q == r.queue).map(|&(_, class)| class),
        })
    }

    /// Filters a trace into usable jobs in submit order (steps 1–2).
    fn usable(&self, trace: &SwfTrace) -> Result<(Vec<Usable>, FilterReport, u32), PrepareError> {
        let (capacity, per_node) = self.machine(trace)?;
        let classes = qos_classes(trace);
        let mut report = FilterReport { records: trace.records.len(), ..FilterReport::default() };
        let mut jobs = Vec::with_capacity(trace.records.len());
        for r in &trace.records {
            match self.classify(r, capacity, per_node, &classes) {
                Ok(job) => jobs.push(job),
                Err(reason) => *report.dropped.entry(reason).or_default() += 1,
            }
        }
        jobs.sort_by_key(|j| (j.submit, j.swf_id));
        if let Some(n) = self.first_jobs {
            jobs.truncate(n);
        }
        report.usable = jobs.len();
        if jobs.is_empty() {
            return Err(PrepareError::NoUsableJobs { trace: trace.name.clone(), report: report.to_string() });
        }
        Ok((jobs, report, capacity))
    }

    /// The SLA terms rule `sla_terms` names.
    fn sla_rule(&self) -> Result<&'static SlaTermsRule, PrepareError> {
        slasim_core::experiment::registry::find::<sla::SlaTermsRules>(&self.sla_terms).map_err(PrepareError::from)
    }

    fn job(&self, rule: &SlaTermsRule, id: u32, u: &Usable, occurrence: Time) -> Job {
        let terms = (rule.terms)(&SlaInput {
            occurrence,
            estimate: u.estimate,
            nodes: u.nodes,
            qos_class: u.qos_class,
            deadline_factor: self.deadline_factor,
            penalty_ratio: self.penalty_ratio,
        });
        Job {
            id,
            swf_id: u.swf_id,
            occurrence,
            release: occurrence,
            deadline: terms.deadline,
            estimate: u.estimate,
            runtime: u.runtime,
            nodes: u.nodes,
            user: u.user,
            application: u.application,
            queue: u.queue,
            fee: terms.fee,
            penalty: terms.penalty,
            reservation: false,
        }
    }

    /// The classic queueing modes' preparation of this config: the whole log
    /// at its own arrival times (scaled only by an explicit occurrence
    /// factor), no deadlines, zero-length jobs kept, a job without a
    /// requested time estimated by its run time, and jobs wider than the
    /// machine kept for the strategy to drop and count.
    pub fn for_classic_modes(mut self) -> PrepareConfig {
        self.whole_log = true;
        self.deadline_factor = f64::INFINITY;
        self.filter.drop_zero_runtime = false;
        self.filter.drop_wider_than_machine = false;
        self.filter.estimate_from_runtime = true;
        self
    }

    /// Step 1–2 only: every usable job at its own submit time (ids in submit
    /// order), the filter report and the machine size. The Grid cuts its
    /// cluster windows from these.
    pub fn usable_jobs(&self, trace: &SwfTrace) -> Result<(Vec<Job>, FilterReport, u32), PrepareError> {
        let rule = self.sla_rule()?;
        let (usable, filter, capacity) = self.usable(trace)?;
        let jobs = usable.iter().enumerate().map(|(i, u)| self.job(rule, i as u32, u, u.submit)).collect();
        Ok((jobs, filter, capacity))
    }

    /// Steps 1–3 and the input's load: what `trace info` reports and
    /// `prepare` builds on. The input is the last `input_jobs` usable jobs, or
    /// all of them when there are fewer.
    pub fn split(&self, trace: &SwfTrace) -> Result<Split, PrepareError> {
        self.validate_split()?;
        let (usable, filter, capacity) = self.usable(trace)?;
        let history_len = if self.whole_log { 0 } else { usable.len().saturating_sub(self.input_jobs) };
        let input = &usable[history_len..];
        let input_load = estimated_load(input.iter().map(|u| (u.submit, u.nodes, u.estimate)), capacity)
            .ok_or_else(|| PrepareError::ZeroSpan { trace: trace.name.clone() })?;
        let computed = if self.whole_log { 1.0 } else { input_load / self.target_load };
        let occurrence_factor = self.occurrence_factor.unwrap_or(computed);
        Ok(Split { usable, history_len, filter, capacity, input_load, occurrence_factor })
    }

    /// Runs the whole pipeline on a trace.
    pub fn prepare(&self, trace: &SwfTrace) -> Result<Prepared, PrepareError> {
        if self.whole_log {
            self.validate_split()?;
        } else {
            self.validate()?;
        }
        let rule = self.sla_rule()?;
        let split = self.split(trace)?;
        let needed = if self.whole_log { split.usable.len() } else { self.batteries * self.battery_size };
        let size = if self.whole_log { needed } else { self.battery_size };
        if split.usable.len() < needed {
            return Err(PrepareError::TooFewJobs {
                trace: trace.name.clone(),
                usable: split.usable.len(),
                batteries: self.batteries,
                size: self.battery_size,
            });
        }
        let (history, input) = split.usable.split_at(split.history_len);
        let factor = split.occurrence_factor;
        let batteries = input[..needed]
            .chunks(size)
            .enumerate()
            .map(|(index, chunk)| {
                let base = chunk[0].submit;
                // Straight into the shared slice: no Vec to copy it from.
                let jobs = chunk
                    .iter()
                    .enumerate()
                    .map(|(i, u)| self.job(rule, i as u32, u, ((u.submit - base) as f64 * factor).round() as Time))
                    .collect();
                Battery { index, jobs, began: base }
            })
            .collect();
        let history = history.iter().enumerate().map(|(i, u)| self.job(rule, i as u32, u, u.submit)).collect();
        Ok(Prepared {
            trace: trace.name.clone(),
            capacity: split.capacity,
            history,
            batteries,
            occurrence_factor: factor,
            unix_start: trace.header.unix_start_time().filter(|&t| t > 0),
            input_load: split.input_load,
            filter: split.filter,
        })
    }
}

/// The filtered, ordered jobs split into history and input (steps 1–3).
#[derive(Debug, Clone)]
pub struct Split {
    usable: Vec<Usable>,
    /// Jobs before the input (PDF history).
    pub history_len: usize,
    /// What filtering did.
    pub filter: FilterReport,
    /// Machine size K.
    pub capacity: u32,
    /// Estimated load of the input before scaling.
    pub input_load: f64,
    /// The occurrence factor for the target load (or the fixed one).
    pub occurrence_factor: f64,
}

impl Split {
    /// Jobs in the simulation input.
    pub fn input_len(&self) -> usize {
        self.usable.len() - self.history_len
    }
}

/// Estimated load Σ n·x / (K · (o_last − o_first)) of jobs given as
/// `(occurrence, nodes, estimate)`; `None` when they span no time.
pub fn estimated_load(jobs: impl IntoIterator<Item = (Time, u32, Time)>, capacity: u32) -> Option<f64> {
    let (mut first, mut last, mut work) = (Time::MAX, Time::MIN, 0f64);
    for (o, n, x) in jobs {
        first = first.min(o);
        last = last.max(o);
        work += f64::from(n) * x as f64;
    }
    (last > first).then(|| work / (f64::from(capacity) * (last - first) as f64))
}
