//! Shifting: when a job runs, steered by a grid signal (carbon intensity or
//! price) seen through a forecast.
//!
//! Reference: temporal shifting of deferrable jobs by grid carbon intensity
//! (Wiesner et al., "Let's Wait Awhile", Middleware 2021; Hanafy et al.,
//! GAIA, ASPLOS 2024; CATS, the Climate-Aware Task Scheduler). Each policy's
//! file cites its own source.
//!
//! Contract:
//! - `[shifting]` ([`ShiftingConfig`]) names a registered policy
//!   ([`SHIFTING_POLICIES`]), the signal it steers by (`carbon` or `price`,
//!   from `[signals]`), a horizon, and the forecast it sees
//!   ([`crate::policy::forecast`]). The signals it reads are the ones
//!   `[signals]` accounts the run against, aligned the same way.
//! - A policy either wraps any strategy ([`Applies::Wrapper`]: it decides
//!   when each job is handed to the strategy) or is applied by a planning
//!   strategy inside its own plan ([`Applies::InPlan`]); `none` does
//!   nothing, and a point whose policy is `none` is the point without
//!   `[shifting]` (same id).
//! - Policies see only the forecast, never the signal ahead of `now`
//!   (except through the `oracle` forecast), and never the wall clock.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::policy::Strategy;
use crate::policy::forecast::{self, Forecast, ForecastSettings};
use slasim_core::experiment::registry::{self, Entries, Named, UnknownName};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

pub mod carbon_time;
pub mod cats;
pub mod hold;
pub mod lowest_window;
pub mod none;
pub mod sla_aware;
pub mod threshold;

/// The signal a policy steers by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Steer {
    /// Grid carbon intensity (gCO2eq/kWh).
    #[default]
    Carbon,
    /// Electricity price (currency/MWh).
    Price,
}

impl Steer {
    /// Its name in configs.
    pub fn name(self) -> &'static str {
        match self {
            Steer::Carbon => "carbon",
            Steer::Price => "price",
        }
    }

    fn is_default(&self) -> bool {
        *self == Steer::Carbon
    }
}

impl fmt::Display for Steer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A point's shifting settings (`[shifting]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShiftingConfig {
    /// The policy (`slasim list shifting-policies`).
    #[serde(default = "default_policy")]
    pub policy: String,
    /// The signal it steers by.
    #[serde(default, skip_serializing_if = "Steer::is_default")]
    pub signal: Steer,
    /// Seconds a job may be held or booked beyond its earliest start.
    #[serde(default = "default_horizon")]
    pub horizon: Time,
    /// The signal value under which a threshold policy runs a job at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// The forecast the policy sees (`slasim list forecasts`).
    #[serde(default = "default_forecast")]
    pub forecast: String,
    /// The `noise` forecast's relative error (standard deviation, ≥ 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub noise: f64,
}

fn default_policy() -> String {
    none::NONE.name.to_string()
}

fn default_forecast() -> String {
    forecast::oracle::ORACLE.name.to_string()
}

/// A day: the default horizon.
fn default_horizon() -> Time {
    86_400
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for ShiftingConfig {
    fn default() -> Self {
        ShiftingConfig {
            policy: default_policy(),
            signal: Steer::default(),
            horizon: default_horizon(),
            threshold: None,
            forecast: default_forecast(),
            noise: 0.0,
        }
    }
}

impl ShiftingConfig {
    /// The registered policy it names.
    pub fn policy(&self) -> Result<&'static ShiftingPolicyInfo, UnknownName> {
        registry::find::<ShiftingPolicies>(&self.policy)
    }

    /// Every value in its domain.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        let policy = self.policy().map_err(|_| {
            InvalidSetting::new("shifting.policy", &self.policy, "a shifting policy (`slasim list shifting-policies`)")
        })?;
        let forecast = forecast::named(&self.forecast).map_err(|_| {
            InvalidSetting::new("shifting.forecast", &self.forecast, "a forecast (`slasim list forecasts`)")
        })?;
        if self.horizon <= 0 {
            return Err(InvalidSetting::new("shifting.horizon", self.horizon, "must be a number of seconds above 0"));
        }
        if !self.noise.is_finite() || self.noise < 0.0 {
            return Err(InvalidSetting::new("shifting.noise", self.noise, "must be a finite number, 0 or more"));
        }
        if forecast.reads_noise && self.noise == 0.0 {
            return Err(InvalidSetting::new(
                "shifting.noise",
                self.noise,
                "the noise forecast needs its relative error above 0 (0.1 is 10 %)",
            ));
        }
        match self.threshold {
            Some(t) if !t.is_finite() || t < 0.0 => {
                return Err(InvalidSetting::new("shifting.threshold", t, "must be a finite number, 0 or more"));
            }
            None if policy.reads_threshold => {
                return Err(InvalidSetting::new(
                    "shifting.threshold",
                    "(none)",
                    "this policy runs a job once the signal is under a threshold: give shifting.threshold",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// The same settings with what its policy and forecast do not read
    /// reset; `None` for the `none` policy (the point without shifting).
    pub fn normalized(&self) -> Option<ShiftingConfig> {
        let policy = self.policy().ok()?;
        if policy.name == none::NONE.name {
            return None;
        }
        let mut c = self.clone();
        if !policy.reads_threshold {
            c.threshold = None;
        }
        if !forecast::named(&c.forecast).is_ok_and(|f| f.reads_noise) {
            c.noise = 0.0;
        }
        Some(c)
    }
}

/// What a policy that looks ahead sees: the signal it steers by, through
/// its forecast.
pub struct Outlook {
    signal: AlignedSignal,
    forecast: Box<dyn Forecast>,
}

impl Outlook {
    /// The outlook on `signal` through the forecast `name` of `settings`.
    pub fn new(signal: AlignedSignal, forecast: Box<dyn Forecast>) -> Outlook {
        Outlook { signal, forecast }
    }

    /// The forecast `∫ value dt` over `[from, to)` seen at `now`.
    pub fn integral(&self, now: Time, from: Time, to: Time) -> f64 {
        self.forecast.integral(&self.signal, now, from, to)
    }

    /// The forecast mean over `[from, to)` seen at `now` (the value at
    /// `from` when the interval is empty).
    pub fn mean(&self, now: Time, from: Time, to: Time) -> f64 {
        if to > from { self.integral(now, from, to) / (to - from) as f64 } else { self.integral(now, from, from + 1) }
    }

    /// The observed value at `now`.
    pub fn now(&self, now: Time) -> f64 {
        self.signal.value_at(now)
    }

    /// The signal's step (its smallest spacing between samples) in virtual
    /// seconds, at least 1.
    pub fn step(&self) -> Time {
        let step = self.signal.signal().step() as f64 / self.signal.scale();
        (step.round() as Time).max(1)
    }

    /// The first virtual instant after `t` at which the signal reaches its
    /// next sample (where a held signal changes): within a second of it,
    /// never before it.
    pub fn next_change(&self, t: Time) -> Time {
        let signal = self.signal.signal();
        let step = signal.step().max(1);
        let phase = (self.signal.signal_instant(t) - signal.start()).rem_euclid(step);
        let ahead = ((step - phase) as f64 / self.signal.scale()).ceil() as Time;
        t.saturating_add(ahead.max(1))
    }
}

impl fmt::Debug for Outlook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outlook").field("signal", &self.signal.signal().name()).finish_non_exhaustive()
    }
}

/// A point's shifting, built: its settings, policy and outlook.
#[derive(Debug)]
pub struct Shift {
    /// The settings.
    pub config: ShiftingConfig,
    /// The policy.
    pub policy: &'static ShiftingPolicyInfo,
    /// What it sees.
    pub outlook: Outlook,
}

impl Shift {
    /// Builds the shifting of `config` over the steered `signal`.
    pub fn new(config: &ShiftingConfig, signal: AlignedSignal, seed: u64) -> anyhow::Result<Shift> {
        let policy = config.policy()?;
        let forecast = forecast::named(&config.forecast)?;
        let forecast = (forecast.build)(&ForecastSettings { seed, noise: config.noise });
        Ok(Shift { config: config.clone(), policy, outlook: Outlook::new(signal, forecast) })
    }

    /// True if the strategy should shift bookings inside its own plan.
    pub fn in_plan(&self) -> bool {
        matches!(self.policy.applies, Applies::InPlan)
    }
}

/// Wraps a strategy in a policy that decides when each job reaches it.
pub type Wrap = fn(Box<dyn Strategy>, Arc<Shift>) -> Box<dyn Strategy>;

/// How a policy applies.
#[derive(Clone, Copy)]
pub enum Applies {
    /// Not at all (`none`).
    Nothing,
    /// Around any strategy.
    Wrapper(Wrap),
    /// Inside the plan of a strategy that books every job with its deadline.
    InPlan,
}

/// A registered shifting policy.
pub struct ShiftingPolicyInfo {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// One line for `slasim list shifting-policies`.
    pub description: &'static str,
    /// It reads `shifting.threshold`.
    pub reads_threshold: bool,
    /// How it applies.
    pub applies: Applies,
}

impl fmt::Debug for ShiftingPolicyInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ShiftingPolicyInfo({:?})", self.name)
    }
}

impl Named for ShiftingPolicyInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The shifting policies a config can name.
pub enum ShiftingPolicies {}

impl Entries for ShiftingPolicies {
    type Entry = ShiftingPolicyInfo;
    const WHAT: &'static str = "shifting policy";
    fn builtin() -> Vec<&'static ShiftingPolicyInfo> {
        static BUILTIN: [ShiftingPolicyInfo; 6] = [
            none::NONE,
            sla_aware::SLA_AWARE,
            lowest_window::LOWEST_WINDOW,
            carbon_time::CARBON_TIME,
            threshold::THRESHOLD,
            cats::CATS,
        ];
        BUILTIN.iter().collect()
    }
}
