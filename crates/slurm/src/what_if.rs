//! A what-if's answer with intervals: each setting's replicas
//! ([`crate::replica`]) paired with the baseline's, per measure the mean
//! difference and its 95 % interval, and whether it is within noise.
//!
//! Method: the paired-t interval of common random numbers (Law,
//! *Simulation Modeling and Analysis*, 5th ed., §10.2.1: replica `r` of
//! both settings shares its perturbation, so the difference of the pair is
//! one observation; [`slasim_core::report::summary::mean_ci`]).
//!
//! Contract:
//! - The replicas of one setting are the points whose settings other than
//!   `replica` are equal. Settings are in the order the caller gives; the
//!   first is the baseline.
//! - A replica's measures ([`Measures`]): its mean and 95th-percentile
//!   wait, CPU and GPU utilisation and preemptions; per partition, QOS and
//!   account its mean and 95th-percentile wait; per reason a job waited
//!   for (a limit, a dependency, an array's throttle), the jobs whose last
//!   reason it was, 0 in a replica where no job had it.
//! - A setting's difference on a measure ([`Difference`]): over the
//!   replicas (by index) where both it and the baseline have the measure,
//!   the mean of the setting's value minus the baseline's and its 95 %
//!   Student-t interval. It is within noise when the interval holds 0
//!   (identical pairs: an interval of width 0 at 0); with fewer than two
//!   pairs there is no interval and no verdict.

use std::collections::BTreeMap;

use slasim_core::report::summary::mean_ci;

/// What a measure is of: the whole run, or a group or reason of it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Of {
    /// Every job.
    All,
    /// A partition, QOS or account (`grouping`, name).
    Group(String, String),
    /// A reason (Slurm's name).
    Reason(String),
}

impl Of {
    /// As the report writes it: `all`, `partition cpu`, `reason QOSMaxJobsPerUserLimit`.
    pub fn label(&self) -> String {
        match self {
            Of::All => "all".to_string(),
            Of::Group(grouping, name) => format!("{grouping} {name}"),
            Of::Reason(reason) => format!("reason {reason}"),
        }
    }
}

/// A measure of a replica, in the report's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Measure {
    /// Mean wait, h.
    MeanWait,
    /// 95th-percentile wait, h.
    P95Wait,
    /// CPU utilisation, %.
    CpuUtilisation,
    /// GPU utilisation, %.
    GpuUtilisation,
    /// Jobs preempted.
    Preemptions,
    /// Jobs whose last reason it was.
    Jobs,
}

impl Measure {
    /// Its name in the report, with its unit as the report's columns write it.
    pub fn name(self) -> &'static str {
        match self {
            Measure::MeanWait => "mean_wait_h",
            Measure::P95Wait => "p95_wait_h",
            Measure::CpuUtilisation => "cpu_utilisation_pct",
            Measure::GpuUtilisation => "gpu_utilisation_pct",
            Measure::Preemptions => "preemptions",
            Measure::Jobs => "jobs",
        }
    }
}

/// One replica's measures: (what of, measure) → value.
pub type Measures = BTreeMap<(Of, Measure), f64>;

/// A setting's difference from the baseline on one measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// Pairs of replicas.
    pub pairs: usize,
    /// The baseline's mean over them.
    pub baseline: f64,
    /// The setting's mean over them.
    pub value: f64,
    /// The mean difference (setting − baseline).
    pub mean: f64,
    /// Its 95 % interval (none with fewer than two pairs).
    pub interval: Option<(f64, f64)>,
}

impl Difference {
    /// Of the pairs (baseline, setting).
    pub fn of(pairs: &[(f64, f64)]) -> Option<Difference> {
        let n = pairs.len();
        if n == 0 {
            return None;
        }
        let differences: Vec<f64> = pairs.iter().map(|(b, v)| v - b).collect();
        let ci = mean_ci(&differences)?;
        Some(Difference {
            pairs: n,
            baseline: pairs.iter().map(|p| p.0).sum::<f64>() / n as f64,
            value: pairs.iter().map(|p| p.1).sum::<f64>() / n as f64,
            mean: ci.mean,
            interval: (n >= 2).then(|| (ci.low(), ci.high())),
        })
    }

    /// `within noise` (the interval holds 0), `significant`, or none
    /// without an interval.
    pub fn verdict(&self) -> Option<&'static str> {
        self.interval.map(|(low, high)| if low <= 0.0 && 0.0 <= high { "within noise" } else { "significant" })
    }
}

/// Per setting after the baseline, per measure (in measure order), its
/// difference: `replicas[s]` maps setting `s`'s replica indices to their
/// measures; setting 0 is the baseline.
pub fn differences(replicas: &[BTreeMap<i64, Measures>]) -> Vec<(usize, (Of, Measure), Difference)> {
    let Some((baseline, others)) = replicas.split_first() else { return Vec::new() };
    let mut out = Vec::new();
    for (s, setting) in others.iter().enumerate() {
        let mut keys: Vec<&(Of, Measure)> = baseline.values().chain(setting.values()).flat_map(|m| m.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            // A reason absent from a replica: no job had it there.
            let value = |m: &Measures| match (&key.0, m.get(key)) {
                (_, Some(v)) => Some(*v),
                (Of::Reason(_), None) => Some(0.0),
                (_, None) => None,
            };
            let pairs: Vec<(f64, f64)> =
                baseline.iter().filter_map(|(r, b)| Some((value(b)?, value(setting.get(r)?)?))).collect();
            if let Some(d) = Difference::of(&pairs) {
                out.push((s + 1, key.clone(), d));
            }
        }
    }
    out
}
