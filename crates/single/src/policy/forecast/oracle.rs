//! `oracle`: the forecast is the signal itself (a perfect forecast, the
//! upper bound of what looking ahead can save).

use crate::policy::forecast::{Forecast, ForecastInfo, ForecastSettings};
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

/// The perfect forecast.
pub struct Oracle;

impl Forecast for Oracle {
    fn integral(&self, signal: &AlignedSignal, _now: Time, from: Time, to: Time) -> f64 {
        if to <= from { 0.0 } else { signal.integral(from, to) }
    }
}

fn build(_: &ForecastSettings) -> Box<dyn Forecast> {
    Box::new(Oracle)
}

/// Its registration.
pub const ORACLE: ForecastInfo = ForecastInfo {
    name: "oracle",
    description: "the signal itself: a perfect forecast (the default)",
    reads_noise: false,
    build,
};
