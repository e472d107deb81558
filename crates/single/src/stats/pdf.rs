//! Runtime-estimate statistics: percent-binned PDFs of real/estimated runtime,
//! per job class, learned from a trace's history.
//!
//! Reference: `overbooking-dissertation-spec.md` §2.1 (percent PDF/CDF), §2.2
//! (classes), §2.3 (learned from the history before the simulation input),
//! §2.4 (conversion to fixed time steps).
//!
//! Contract:
//! - A [`PercentPdf`] has 101 bins (0 … 100 %) summing to 1; a job's ratio
//!   100·ω/x goes to bin `min(100, round(ratio))` (or floor); jobs running past
//!   their estimate land in bin 100 (they are killed at x).
//! - A [`RuntimeModel`] holds one PDF per class of the chosen [`PdfSource`]
//!   (runtime frames, resource frames, user, application, or a combination)
//!   plus the "all jobs" PDF. A class with fewer than `min_class_size`
//!   history jobs falls back to "all jobs" (or is an error, if so configured).
//! - [`RuntimeModel::stepped`] converts a job's PDF to fixed time steps Δ:
//!   step k ↔ runtime k·Δ, K = ⌈x/Δ⌉ steps, bin 100 at step K; the vector sums
//!   to 1. It writes into a caller's buffer: no allocation per call.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::stats::aged::{AgedHistogram, PdfUpdate, half_life};
use crate::workload::job::Job;
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;

pub use crate::stats::aged::BINS;

/// The percent bin of a job that ran `runtime` seconds of an `estimate`:
/// 100·runtime/estimate rounded by `rounding`, an estimate below 1 s counting
/// as 1 s, overruns in the last bin.
pub fn percent_bin(runtime: Time, estimate: Time, rounding: Rounding) -> usize {
    let ratio = 100.0 * runtime as f64 / estimate.max(1) as f64;
    (rounding.apply(ratio) as usize).min(BINS - 1)
}

/// A distribution of real/estimated runtime in percent.
#[derive(Debug, Clone, PartialEq)]
pub struct PercentPdf {
    mass: [f64; BINS],
    cdf: [f64; BINS],
    samples: usize,
}

impl PercentPdf {
    /// The PDF of bin counts.
    pub fn from_counts(counts: &[u64; BINS]) -> PercentPdf {
        let total: u64 = counts.iter().sum();
        let mut weights = [0.0; BINS];
        for (w, &c) in weights.iter_mut().zip(counts) {
            *w = c as f64;
        }
        // Integer-valued weights: Σ is exact, so this divides as counts / total did.
        PercentPdf::from_weights(&weights, total as usize)
    }

    /// The PDF of non-negative bin weights (aged counts) learned from `samples` jobs.
    pub fn from_weights(weights: &[f64; BINS], samples: usize) -> PercentPdf {
        let total: f64 = weights.iter().sum();
        let mut mass = [0.0; BINS];
        let mut cdf = [0.0; BINS];
        let mut acc = 0.0;
        for i in 0..BINS {
            mass[i] = if total > 0.0 { weights[i] / total } else { 0.0 };
            acc += mass[i];
            cdf[i] = acc;
        }
        if total > 0.0 {
            cdf[BINS - 1] = 1.0;
        }
        PercentPdf { mass, cdf, samples }
    }

    /// Probability of bin `p`.
    pub fn pdf(&self, p: usize) -> f64 {
        self.mass[p.min(BINS - 1)]
    }

    /// P(ratio ≤ p %).
    pub fn cdf(&self, p: usize) -> f64 {
        self.cdf[p.min(BINS - 1)]
    }

    /// Number of jobs it was learned from.
    pub fn samples(&self) -> usize {
        self.samples
    }

    /// Mean ratio in [0, 1].
    pub fn mean_ratio(&self) -> f64 {
        self.mass.iter().enumerate().map(|(p, m)| p as f64 * m).sum::<f64>() / 100.0
    }
}

/// How a ratio becomes a percent bin, and a percent a time step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Rounding {
    /// To the nearest (the spec's proposal).
    #[default]
    Round,
    /// Down.
    Floor,
    /// Up (pessimistic for end times: never earlier).
    Ceil,
}

impl Rounding {
    fn apply(self, v: f64) -> f64 {
        match self {
            Rounding::Round => v.round(),
            Rounding::Floor => v.floor(),
            Rounding::Ceil => v.ceil(),
        }
    }
}

/// Which job attributes define a PDF class; none means "all jobs".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PdfSource {
    /// Runtime-estimate frames.
    pub runtime: bool,
    /// Requested-resource frames.
    pub resources: bool,
    /// Submitting user.
    pub user: bool,
    /// Application (SWF executable number; the queue when it is unknown).
    pub application: bool,
}

impl PdfSource {
    /// The names `FromStr` accepts, joined by `+` for combinations.
    pub const NAMES: [&'static str; 5] = ["runtime", "resources", "user", "application", "all"];
}

impl FromStr for PdfSource {
    type Err = InvalidSetting;

    fn from_str(s: &str) -> Result<PdfSource, InvalidSetting> {
        let mut source = PdfSource::default();
        for part in s.split('+').map(str::trim) {
            match part {
                "runtime" => source.runtime = true,
                "resources" => source.resources = true,
                "user" => source.user = true,
                "application" => source.application = true,
                "all" => {}
                _ => {
                    return Err(InvalidSetting::new(
                        "pdf_source",
                        s,
                        "must be runtime, resources, user, application or all, or a combination joined by +",
                    ));
                }
            }
        }
        Ok(source)
    }
}

impl fmt::Display for PdfSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = [
            (self.runtime, "runtime"),
            (self.resources, "resources"),
            (self.user, "user"),
            (self.application, "application"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect();
        if parts.is_empty() { f.write_str("all") } else { f.write_str(&parts.join("+")) }
    }
}

impl Serialize for PdfSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for PdfSource {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PdfSource, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// What happens to a class with too little history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Fallback {
    /// Use the "all jobs" PDF (the dissertation: "a general statistic").
    #[default]
    AllJobs,
    /// Refuse: a job of such a class is an error.
    Error,
}

/// Which jobs the runtime statistics are learned from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LearnFrom {
    /// The jobs before the simulation input (the dissertation).
    #[default]
    History,
    /// The simulation input itself: "oracle" statistics, to measure how much
    /// a drift between history and input costs.
    Input,
}

/// Settings of the runtime statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PdfConfig {
    /// Class attributes.
    pub source: PdfSource,
    /// Classes with fewer history jobs use the fallback.
    pub min_class_size: usize,
    /// What a too-small class does.
    pub fallback: Fallback,
    /// Lower bounds (seconds) of the runtime-estimate frames after the first:
    /// default 10 min, 1 h, 2 h, 3 h, 5 h, 12 h (seven frames, spec §2.2).
    pub runtime_bounds: Vec<Time>,
    /// Lower bounds of the resource frames after the first: default 2, 3, 5,
    /// 9, 17, 33, 65 (1; 2; 3–4; 5–8; 9–16; 17–32; 33–64; > 64).
    pub resource_bounds: Vec<u32>,
    /// Ratio → percent bin.
    pub bin_rounding: Rounding,
    /// Time step Δ of the stepped PDFs, seconds.
    pub step_seconds: Time,
    /// Percent → time step.
    pub step_rounding: Rounding,
    /// History (default) or the input itself (oracle).
    pub learn_from: LearnFrom,
    /// Static (the dissertation) or online: jobs that end during a run enter
    /// their class's PDF (issue 17 §3).
    #[serde(skip_serializing_if = "is_static")]
    pub update: PdfUpdate,
    /// Online only: the half-life of an observation in days (none: never
    /// forgets, history included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_life_days: Option<f64>,
}

fn is_static(u: &PdfUpdate) -> bool {
    *u == PdfUpdate::Static
}

impl Default for PdfConfig {
    fn default() -> Self {
        PdfConfig {
            source: PdfSource { runtime: true, ..PdfSource::default() },
            min_class_size: 30,
            fallback: Fallback::AllJobs,
            runtime_bounds: vec![600, 3600, 7200, 10_800, 18_000, 43_200],
            resource_bounds: vec![2, 3, 5, 9, 17, 33, 65],
            bin_rounding: Rounding::Round,
            step_seconds: 60,
            step_rounding: Rounding::Round,
            learn_from: LearnFrom::History,
            update: PdfUpdate::Static,
            half_life_days: None,
        }
    }
}

impl PdfConfig {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.step_seconds <= 0 {
            return Err(InvalidSetting::new("step_seconds", self.step_seconds, "must be a positive number of seconds"));
        }
        if !self.runtime_bounds.windows(2).all(|w| w[0] < w[1]) {
            return Err(InvalidSetting::new("runtime_bounds", format!("{:?}", self.runtime_bounds), "must increase"));
        }
        if !self.resource_bounds.windows(2).all(|w| w[0] < w[1]) {
            return Err(InvalidSetting::new("resource_bounds", format!("{:?}", self.resource_bounds), "must increase"));
        }
        if let Some(days) = self.half_life_days {
            half_life(days)?;
        }
        Ok(())
    }
}

/// A job's class under a source: the attributes it uses, others `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ClassKey {
    runtime: Option<u8>,
    resources: Option<u8>,
    user: Option<i64>,
    application: Option<i64>,
}

/// Runtime statistics learned from history jobs.
#[derive(Debug, Clone)]
pub struct RuntimeModel {
    config: PdfConfig,
    classes: HashMap<ClassKey, PercentPdf>,
    all: PercentPdf,
    /// The aged histograms behind the PDFs when they learn online.
    online: Option<Box<OnlineState>>,
}

/// Online learning: one aged histogram per class with its own PDF, and one
/// for "all jobs"; the history enters at time 0.
#[derive(Debug, Clone)]
struct OnlineState {
    classes: HashMap<ClassKey, AgedHistogram>,
    all: AgedHistogram,
    scratch: [f64; BINS],
}

fn frame<T: PartialOrd + Copy>(bounds: &[T], v: T) -> u8 {
    bounds.iter().take_while(|&&b| v >= b).count() as u8
}

impl RuntimeModel {
    /// Learns the PDFs from `history` (the jobs before the simulation input).
    pub fn learn(history: &[Job], config: &PdfConfig) -> Result<RuntimeModel, InvalidSetting> {
        config.validate()?;
        if history.is_empty() {
            return Err(InvalidSetting::new(
                "pdf_source",
                config.source,
                "has no history jobs to learn from (the simulation input covers the whole trace): lower --input-jobs \
                 (`input_jobs` in a config's [prepare]), or learn from the input itself: --oracle-pdfs",
            ));
        }
        let mut counts: HashMap<ClassKey, [u64; BINS]> = HashMap::new();
        let mut all = [0u64; BINS];
        for job in history {
            let bin = Self::bin(config, job);
            all[bin] += 1;
            counts.entry(Self::key(config, job)).or_insert([0; BINS])[bin] += 1;
        }
        let kept: Vec<(ClassKey, [u64; BINS])> = counts
            .into_iter()
            .filter(|(_, c)| c.iter().sum::<u64>() as usize >= config.min_class_size.max(1))
            .collect();
        let online = match config.update {
            PdfUpdate::Static => None,
            PdfUpdate::Online => {
                let rate = config.half_life_days.map_or(Ok(0.0), half_life)?;
                let seeded = |c: &[u64; BINS]| -> Result<AgedHistogram, InvalidSetting> {
                    let mut h = AgedHistogram::new(rate)?;
                    for (bin, &n) in c.iter().enumerate().filter(|(_, n)| **n > 0) {
                        // Time 0, in bin order: never out of order, never an overflowing weight.
                        let _ = h.observe(0, bin, n as f64);
                    }
                    Ok(h)
                };
                let mut classes = HashMap::with_capacity(kept.len());
                for (k, c) in &kept {
                    classes.insert(*k, seeded(c)?);
                }
                Some(Box::new(OnlineState { classes, all: seeded(&all)?, scratch: [0.0; BINS] }))
            }
        };
        let classes = kept.into_iter().map(|(k, c)| (k, PercentPdf::from_counts(&c))).collect();
        Ok(RuntimeModel { config: config.clone(), classes, all: PercentPdf::from_counts(&all), online })
    }

    /// Whether the PDFs learn from the jobs that end during a run.
    pub fn is_online(&self) -> bool {
        self.online.is_some()
    }

    /// Online learning: `job` ended at `now` after its whole runtime (or at
    /// its estimate, an over-run in bin 100); it enters the "all jobs" PDF and
    /// its class's, if the class has one. Static statistics ignore it. Ends
    /// must come in time order (the kernel's); an older one changes nothing.
    pub fn observe(&mut self, job: &Job, now: Time) {
        let Some(o) = self.online.as_deref_mut() else { return };
        let bin = Self::bin(&self.config, job);
        let key = Self::key(&self.config, job);
        if o.all.observe(now, bin, 1.0).is_ok() {
            o.all.probabilities(&mut o.scratch);
            self.all = PercentPdf::from_weights(&o.scratch, self.all.samples() + 1);
        }
        if let (Some(h), Some(pdf)) = (o.classes.get_mut(&key), self.classes.get_mut(&key))
            && h.observe(now, bin, 1.0).is_ok()
        {
            h.probabilities(&mut o.scratch);
            *pdf = PercentPdf::from_weights(&o.scratch, pdf.samples() + 1);
        }
    }

    pub fn bin(config: &PdfConfig, job: &Job) -> usize {
        percent_bin(job.runtime, job.estimate, config.bin_rounding)
    }

    fn key(config: &PdfConfig, job: &Job) -> ClassKey {
        let s = config.source;
        ClassKey {
            runtime: s.runtime.then(|| frame(&config.runtime_bounds, job.estimate)),
            resources: s.resources.then(|| frame(&config.resource_bounds, job.nodes)),
            user: s.user.then_some(job.user),
            application: s
                .application
                .then(|| if job.application >= 0 { job.application } else { -1_000_000 - job.queue }),
        }
    }

    /// The settings it was learned with.
    pub fn config(&self) -> &PdfConfig {
        &self.config
    }

    /// Number of classes with their own PDF.
    pub fn class_count(&self) -> usize {
        self.classes.len()
    }

    /// The "all jobs" PDF.
    pub fn all_jobs(&self) -> &PercentPdf {
        &self.all
    }

    /// The PDF for `job`'s class, or the fallback.
    pub fn pdf(&self, job: &Job) -> &PercentPdf {
        self.classes.get(&Self::key(&self.config, job)).unwrap_or(&self.all)
    }

    /// Checks that every job has a class of its own when the fallback is `error`.
    pub fn check_jobs<'a>(&self, jobs: impl IntoIterator<Item = &'a Job>) -> Result<(), InvalidSetting> {
        if self.config.fallback == Fallback::AllJobs {
            return Ok(());
        }
        for job in jobs {
            if !self.classes.contains_key(&Self::key(&self.config, job)) {
                return Err(InvalidSetting::new(
                    "pdf_fallback",
                    format!("error (job {} of class {:?})", job.swf_id, Self::key(&self.config, job)),
                    "refuses a job whose class has fewer than min_class_size history jobs",
                ));
            }
        }
        Ok(())
    }

    /// The job's PDF over fixed steps of Δ: `out[k]` = P(runtime ends in step k),
    /// k = 0 … ⌈x/Δ⌉. Returns the number of steps K.
    pub fn stepped(&self, job: &Job, out: &mut Vec<f64>) -> usize {
        stepped(self.pdf(job), job.estimate, self.config.step_seconds, self.config.step_rounding, out)
    }

    /// The time step Δ.
    pub fn step(&self) -> Time {
        self.config.step_seconds
    }
}

/// Converts a percent PDF for estimate `x` to `⌈x/Δ⌉ + 1` time steps.
pub fn stepped(pdf: &PercentPdf, x: Time, step: Time, rounding: Rounding, out: &mut Vec<f64>) -> usize {
    let k_max = ((x + step - 1) / step).max(1) as usize;
    out.clear();
    out.resize(k_max + 1, 0.0);
    for p in 0..BINS {
        let m = pdf.pdf(p);
        if m == 0.0 {
            continue;
        }
        let k = if p == BINS - 1 {
            k_max
        } else {
            (rounding.apply(p as f64 * x as f64 / (100.0 * step as f64)) as usize).min(k_max)
        };
        out[k] += m;
    }
    k_max
}
