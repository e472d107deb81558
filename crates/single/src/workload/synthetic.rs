//! The embedded synthetic workload: the default input when no trace is given.
//!
//! Contract: [`SyntheticConfig::generate`] returns an [`SwfTrace`] (header and
//! records), so a synthetic workload goes through exactly the same preparation
//! as a real log and can be exported with the SWF writer. The same config always
//! gives the same trace. Job attributes and the arrival process draw from two
//! separate seeded streams ([`WORKLOAD_JOBS`], [`WORKLOAD_ARRIVALS`]).
//!
//! The model follows what the PWA logs show (Feitelson's workload-modeling
//! book, ch. 6–8; Tsafrir et al. on user runtime estimates):
//! - **Sizes**: a share of serial jobs; parallel sizes log-uniform up to
//!   `max_job_share` of the machine, snapped to a power of two with probability
//!   `power_of_two_share`.
//! - **Estimates**: log-normal (heavy right tail) around `estimate_median_minutes`,
//!   mostly rounded up to the round values users type (5 min … 36 h).
//! - **Real/estimated ratio**: a spike near 0 (jobs that die at once), a broad
//!   Beta body, a spike at exactly 100 % (jobs killed at their limit or using
//!   all of it) and a few over-runs past the estimate.
//! - **Arrivals**: a non-homogeneous Poisson process with a daily cosine cycle
//!   peaking at `peak_hour`, its mean rate set so that the real (ω-based)
//!   utilisation of the generated log is `utilisation`.

use rand::RngExt;
use rand_distr::{Beta, Distribution, Exp, LogNormal, Zipf};
use serde::{Deserialize, Serialize};

use slasim_core::rng::{WORKLOAD_ARRIVALS, WORKLOAD_JOBS, stream};
use slasim_core::setting::{InvalidSetting, at_least_one, positive, probability};
use slasim_core::units::{DAY, HOUR, Time};
use slasim_data::trace::swf::{SwfHeader, SwfRecord, SwfTrace};

/// Estimates users type, in minutes: raw estimates are rounded up to these.
pub const ROUND_ESTIMATES_MIN: [i64; 18] =
    [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 600, 720, 1080, 1440, 2160];

/// Parameters of the synthetic workload. Every field has a documented default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SyntheticConfig {
    /// Seed of both random streams (default 1).
    pub seed: u64,
    /// Number of jobs (default 40,000: 20,000 history + 20,000 simulation input).
    pub jobs: usize,
    /// Machine size in processors (default 256).
    pub processors: u32,
    /// Real utilisation Σ n·ω / (K · span) of the generated log (default 0.65).
    pub utilisation: f64,
    /// Share of serial (1-processor) jobs (default 0.25).
    pub serial_share: f64,
    /// Share of parallel jobs whose size is a power of two (default 0.7).
    pub power_of_two_share: f64,
    /// Largest job as a share of the machine (default 0.5).
    pub max_job_share: f64,
    /// Median raw estimate in minutes (default 60).
    pub estimate_median_minutes: f64,
    /// σ of the log-normal estimate, in ln-seconds (default 1.6).
    pub estimate_sigma: f64,
    /// Longest estimate in hours (default 36).
    pub max_estimate_hours: f64,
    /// Share of estimates rounded up to a round value (default 0.85).
    pub round_estimate_share: f64,
    /// Share of jobs ending almost at once, ω/x < 2 % (default 0.12).
    pub ratio_spike_near_zero: f64,
    /// Share of jobs running exactly their estimate (default 0.12).
    pub ratio_spike_at_full: f64,
    /// Share of jobs running past their estimate (default 0.06).
    pub ratio_overrun: f64,
    /// Mean over-run beyond the estimate, as a share of it (default 0.05).
    pub overrun_mean: f64,
    /// Beta(α, β) shape of the ratio body (default α = 1.1).
    pub ratio_body_alpha: f64,
    /// Beta(α, β) shape of the ratio body (default β = 1.5).
    pub ratio_body_beta: f64,
    /// Relative amplitude of the daily arrival cycle, 0 ≤ A < 1 (default 0.6).
    pub daily_amplitude: f64,
    /// Hour of day with the most arrivals (default 14).
    pub peak_hour: f64,
    /// Number of distinct users, Zipf-distributed activity (default 64).
    pub users: u64,
}

impl Default for SyntheticConfig {
    fn default() -> Self {
        SyntheticConfig {
            seed: 1,
            jobs: 40_000,
            processors: 256,
            utilisation: 0.65,
            serial_share: 0.25,
            power_of_two_share: 0.7,
            max_job_share: 0.5,
            estimate_median_minutes: 60.0,
            estimate_sigma: 1.6,
            max_estimate_hours: 36.0,
            round_estimate_share: 0.85,
            ratio_spike_near_zero: 0.12,
            ratio_spike_at_full: 0.12,
            ratio_overrun: 0.06,
            overrun_mean: 0.05,
            ratio_body_alpha: 1.1,
            ratio_body_beta: 1.5,
            daily_amplitude: 0.6,
            peak_hour: 14.0,
            users: 64,
        }
    }
}

/// Per-job attributes drawn before arrival times.
struct Draw {
    processors: u32,
    estimate: Time,
    runtime: Time,
    user: i64,
    executable: i64,
}

impl SyntheticConfig {
    /// Checks every parameter's domain.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.jobs < 2 {
            return Err(InvalidSetting::new("jobs", self.jobs, "must be at least 2"));
        }
        at_least_one("processors", self.processors)?;
        at_least_one("users", self.users)?;
        for (setting, value) in [
            ("serial_share", self.serial_share),
            ("power_of_two_share", self.power_of_two_share),
            ("max_job_share", self.max_job_share),
            ("round_estimate_share", self.round_estimate_share),
            ("ratio_spike_near_zero", self.ratio_spike_near_zero),
            ("ratio_spike_at_full", self.ratio_spike_at_full),
            ("ratio_overrun", self.ratio_overrun),
        ] {
            probability(setting, value)?;
        }
        let spikes = self.ratio_spike_near_zero + self.ratio_spike_at_full + self.ratio_overrun;
        if spikes > 1.0 {
            return Err(InvalidSetting::new(
                "ratio_spike_near_zero + ratio_spike_at_full + ratio_overrun",
                spikes,
                "must not exceed 1",
            ));
        }
        for (setting, value) in [
            ("utilisation", self.utilisation),
            ("estimate_median_minutes", self.estimate_median_minutes),
            ("estimate_sigma", self.estimate_sigma),
            ("max_estimate_hours", self.max_estimate_hours),
            ("overrun_mean", self.overrun_mean),
            ("ratio_body_alpha", self.ratio_body_alpha),
            ("ratio_body_beta", self.ratio_body_beta),
        ] {
            positive(setting, value)?;
        }
        if !(0.0..1.0).contains(&self.daily_amplitude) {
            return Err(InvalidSetting::new("daily_amplitude", self.daily_amplitude, "must lie in [0, 1)"));
        }
        if !(0.0..24.0).contains(&self.peak_hour) {
            return Err(InvalidSetting::new("peak_hour", self.peak_hour, "must lie in [0, 24)"));
        }
        Ok(())
    }

    /// Generates the trace.
    pub fn generate(&self) -> Result<SwfTrace, InvalidSetting> {
        self.validate()?;
        let draws = self.draw_jobs()?;
        let work: f64 = draws.iter().map(|d| f64::from(d.processors) * d.runtime as f64).sum();
        let span = work / (f64::from(self.processors) * self.utilisation);
        let arrivals = self.arrivals(self.jobs as f64 / span)?;

        let records = draws
            .iter()
            .zip(arrivals)
            .enumerate()
            .map(|(i, (d, submit))| SwfRecord {
                job: i as i64 + 1,
                submit,
                runtime: d.runtime,
                allocated_procs: i64::from(d.processors),
                requested_procs: i64::from(d.processors),
                requested_time: d.estimate,
                status: 1,
                user: d.user,
                executable: d.executable,
                queue: queue_of(d.estimate),
                ..SwfRecord::UNKNOWN
            })
            .collect();
        Ok(SwfTrace { name: self.name(), header: self.header(), records, ..SwfTrace::default() })
    }

    /// A short name for messages and the store.
    pub fn name(&self) -> String {
        format!("synthetic(seed={}, jobs={}, processors={})", self.seed, self.jobs, self.processors)
    }

    fn header(&self) -> SwfHeader {
        let params = toml::to_string(self).unwrap_or_default().replace('\n', "; ");
        SwfHeader::from_entries([
            ("Version", "2.2".to_string()),
            ("Computer", "slasim synthetic workload".to_string()),
            ("Conversion", format!("slasim {} synthetic generator", env!("CARGO_PKG_VERSION"))),
            ("MaxJobs", self.jobs.to_string()),
            ("MaxRecords", self.jobs.to_string()),
            ("UnixStartTime", "0".to_string()),
            ("TimeZoneString", "UTC".to_string()),
            ("MaxNodes", self.processors.to_string()),
            ("MaxProcs", self.processors.to_string()),
            ("Note", format!("generated with {params}")),
        ])
    }

    fn draw_jobs(&self) -> Result<Vec<Draw>, InvalidSetting> {
        let mut rng = stream(self.seed, WORKLOAD_JOBS, 0);
        let max_size = ((f64::from(self.processors) * self.max_job_share).floor() as u32).max(1);
        let max_log2 = f64::from(max_size).log2();
        let median = self.estimate_median_minutes * 60.0;
        let estimate =
            distribution("estimate_sigma", self.estimate_sigma, LogNormal::new(median.ln(), self.estimate_sigma))?;
        let body = distribution(
            "ratio_body_alpha",
            self.ratio_body_alpha,
            Beta::new(self.ratio_body_alpha, self.ratio_body_beta),
        )?;
        let overrun = distribution("overrun_mean", self.overrun_mean, Exp::new(1.0 / self.overrun_mean))?;
        let users = distribution("users", self.users as f64, Zipf::new(self.users as f64, 1.1))?;
        let apps = distribution("users", self.users as f64, Zipf::new(4.0, 1.3))?;
        let max_estimate = (self.max_estimate_hours * HOUR as f64) as Time;

        let draws = (0..self.jobs)
            .map(|_| {
                let processors = if max_size == 1 || rng.random::<f64>() < self.serial_share {
                    1
                } else if rng.random::<f64>() < self.power_of_two_share {
                    1 << rng.random_range(1..=max_log2.floor().max(1.0) as u32)
                } else {
                    (2f64.powf(rng.random_range(1.0..=max_log2.max(1.0))).round() as u32).clamp(2, max_size)
                };
                let raw = estimate.sample(&mut rng).clamp(60.0, max_estimate as f64);
                let estimate = if rng.random::<f64>() < self.round_estimate_share {
                    round_up_estimate(raw as Time).min(max_estimate)
                } else {
                    (raw / 60.0).ceil() as Time * 60
                };
                let u: f64 = rng.random();
                let ratio = if u < self.ratio_spike_near_zero {
                    rng.random_range(0.0..0.02)
                } else if u < self.ratio_spike_near_zero + self.ratio_spike_at_full {
                    1.0
                } else if u < self.ratio_spike_near_zero + self.ratio_spike_at_full + self.ratio_overrun {
                    1.0 + overrun.sample(&mut rng).max(1.0 / estimate as f64)
                } else {
                    body.sample(&mut rng)
                };
                let runtime = ((ratio * estimate as f64).round() as Time).max(1);
                let user = users.sample(&mut rng) as i64;
                let executable = (user - 1) * 4 + apps.sample(&mut rng) as i64;
                Draw { processors, estimate, runtime, user, executable }
            })
            .collect();
        Ok(draws)
    }

    /// Arrival times of a daily-cycle Poisson process with mean rate `rate` per
    /// second, generated by thinning (Lewis & Shedler, 1979).
    fn arrivals(&self, rate: f64) -> Result<Vec<Time>, InvalidSetting> {
        let mut rng = stream(self.seed, WORKLOAD_ARRIVALS, 0);
        let peak_rate = rate * (1.0 + self.daily_amplitude);
        let gap = distribution("utilisation", self.utilisation, Exp::new(peak_rate))?;
        let peak = self.peak_hour * HOUR as f64;
        let mut t = 0.0f64;
        let mut out = Vec::with_capacity(self.jobs);
        while out.len() < self.jobs {
            t += gap.sample(&mut rng);
            let phase = 2.0 * std::f64::consts::PI * (t - peak) / DAY as f64;
            let intensity = rate * (1.0 + self.daily_amplitude * phase.cos());
            if rng.random::<f64>() * peak_rate <= intensity {
                out.push(t.floor() as Time);
            }
        }
        Ok(out)
    }
}

/// Maps a distribution constructor's error to the setting that caused it.
fn distribution<D, E>(setting: &'static str, value: f64, made: Result<D, E>) -> Result<D, InvalidSetting> {
    made.map_err(|_| InvalidSetting::new(setting, value, "gives no valid distribution"))
}

fn round_up_estimate(seconds: Time) -> Time {
    ROUND_ESTIMATES_MIN.iter().map(|m| m * 60).find(|&s| s >= seconds).unwrap_or(seconds)
}

/// Queue 1 short (≤ 1 h), 2 normal (≤ 12 h), 3 long.
fn queue_of(estimate: Time) -> i64 {
    match estimate {
        e if e <= HOUR => 1,
        e if e <= 12 * HOUR => 2,
        _ => 3,
    }
}
