//! `noise`: the signal with a relative error of a set size. Each future
//! virtual hour `h` is forecast as the signal times `max(0, 1 + σ·ε_h)`,
//! `ε_h` a standard normal drawn from the point's seed and `h` alone; the
//! observed past (`≤ now`) is the signal itself.
//!
//! Reference: forecast errors modelled as relative Gaussian noise, as Wiesner
//! et al., "Let's Wait Awhile", Middleware 2021, §5.3, evaluate shifting
//! under imperfect forecasts.

use rand_distr::{Distribution, StandardNormal};

use crate::policy::forecast::{Forecast, ForecastInfo, ForecastSettings};
use crate::streams::FORECAST_NOISE;
use slasim_core::rng::stream;
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

/// Seconds of one forecast error.
const HOUR: Time = 3600;

/// The noisy forecast.
pub struct Noise {
    seed: u64,
    sigma: f64,
}

impl Noise {
    /// The factor of virtual hour `h`.
    fn factor(&self, h: i64) -> f64 {
        let mut rng = stream(self.seed, FORECAST_NOISE, h as u64);
        let e: f64 = StandardNormal.sample(&mut rng);
        (1.0 + self.sigma * e).max(0.0)
    }
}

impl Forecast for Noise {
    fn integral(&self, signal: &AlignedSignal, now: Time, from: Time, to: Time) -> f64 {
        if to <= from {
            return 0.0;
        }
        let mut sum = 0.0;
        let mut a = from;
        if a < now {
            let b = to.min(now);
            sum += signal.integral(a, b);
            a = b;
        }
        while a < to {
            let h = a.div_euclid(HOUR);
            let b = to.min((h + 1) * HOUR);
            sum += signal.integral(a, b) * self.factor(h);
            a = b;
        }
        sum
    }
}

fn build(settings: &ForecastSettings) -> Box<dyn Forecast> {
    Box::new(Noise { seed: settings.seed, sigma: settings.noise })
}

/// Its registration.
pub const NOISE: ForecastInfo = ForecastInfo {
    name: "noise",
    description: "the signal times (1 + noise·ε) per future hour, ε standard normal from the seed",
    reads_noise: true,
    build,
};
