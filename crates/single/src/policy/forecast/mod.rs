//! Forecasts: what a policy that looks ahead sees of a grid signal.
//!
//! Reference: carbon-aware schedulers plan on a forecast, not on the
//! signal itself (Wiesner et al., "Let's Wait Awhile", Middleware 2021, §5.3
//! on forecast errors; GAIA, Hanafy et al., ASPLOS 2024, §6.5). Results
//! that rest on the oracle alone overstate what shifting saves; the
//! imperfect forecasts here say by how much.
//!
//! Contract:
//! - A [`Forecast`] is asked at virtual time `now` for `∫ value dt` over
//!   `[from, to)`. Over what is already observed (`≤ now`) every forecast
//!   gives the signal itself; only the future is forecast.
//! - Forecasts are pure functions of the signal, the point's seed and the
//!   arguments: asked twice, they answer the same; the number of threads
//!   and the order of questions change nothing.
//! - Forecasts are registered by name ([`FORECASTS`]), one file each.

use slasim_core::experiment::registry::{self, Entries, Named, UnknownName};
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

pub mod noise;
pub mod oracle;
pub mod persistence;

/// A forecast of one aligned signal.
pub trait Forecast: Send + Sync {
    /// The forecast of `∫ value dt` over virtual `[from, to)`, as seen at
    /// `now` (0 when `to ≤ from`).
    fn integral(&self, signal: &AlignedSignal, now: Time, from: Time, to: Time) -> f64;
}

/// What a forecast is built from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastSettings {
    /// The point's seed (the noise forecast's errors).
    pub seed: u64,
    /// The noise forecast's relative error (standard deviation, ≥ 0).
    pub noise: f64,
}

/// A registered forecast.
pub struct ForecastInfo {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// One line for `slasim list forecasts`.
    pub description: &'static str,
    /// It reads `shifting.noise`.
    pub reads_noise: bool,
    /// Builds it.
    pub build: fn(&ForecastSettings) -> Box<dyn Forecast>,
}

impl Named for ForecastInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The forecasts a config can name.
pub enum Forecasts {}

impl Entries for Forecasts {
    type Entry = ForecastInfo;
    const WHAT: &'static str = "forecast";
    fn builtin() -> Vec<&'static ForecastInfo> {
        static BUILTIN: [ForecastInfo; 3] = [oracle::ORACLE, persistence::PERSISTENCE, noise::NOISE];
        BUILTIN.iter().collect()
    }
}

/// The forecast registered as `name`.
pub fn named(name: &str) -> Result<&'static ForecastInfo, UnknownName> {
    registry::find::<Forecasts>(name)
}

/// The signal seconds of one day, in virtual seconds (the alignment's
/// scale maps signal time onto virtual time).
pub fn virtual_day(signal: &AlignedSignal) -> Time {
    let day = 86_400.0 / signal.scale();
    (day.round() as Time).max(1)
}
