//! `persistence`: tomorrow repeats today. Each future instant is forecast
//! by the same hour of the last day already observed: `at` reads the
//! signal at `at − k·day`, `k` the fewest whole days that bring it to `now`
//! or before.
//!
//! Reference: the day-ahead persistence baseline of carbon-intensity
//! forecasting (Maji et al., "CarbonCast", BuildSys 2022, §5, its
//! "persistence" baseline; Wiesner et al., Middleware 2021, §5.3).

use crate::policy::forecast::{Forecast, ForecastInfo, ForecastSettings, virtual_day};
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

/// The persistence forecast.
pub struct Persistence;

impl Forecast for Persistence {
    fn integral(&self, signal: &AlignedSignal, now: Time, from: Time, to: Time) -> f64 {
        if to <= from {
            return 0.0;
        }
        let day = virtual_day(signal);
        let mut sum = 0.0;
        // The observed part, then one piece per day ahead, each read `k` days back.
        let mut a = from;
        if a < now {
            let b = to.min(now);
            sum += signal.integral(a, b);
            a = b;
        }
        while a < to {
            let k = (a - now + day - 1) / day;
            let k = k.max(1);
            let b = to.min(now + k * day);
            sum += signal.integral(a - k * day, b - k * day);
            a = b;
        }
        sum
    }
}

fn build(_: &ForecastSettings) -> Box<dyn Forecast> {
    Box::new(Persistence)
}

/// Its registration.
pub const PERSISTENCE: ForecastInfo = ForecastInfo {
    name: "persistence",
    description: "each future hour as the same hour of the last day observed (day-ahead persistence)",
    reads_noise: false,
    build,
};
