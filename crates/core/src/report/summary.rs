//! Summary statistics for reports: means with Student-t confidence intervals,
//! Wilson intervals for proportions, the Brier score.
//!
//! Reference: the dissertation reports means over batteries "with 95 %
//! confidence intervals" (spec §6.4); Wilson, JASA 1927, for binomial
//! intervals; Brier, Monthly Weather Review 1950.
//!
//! Contract: pure functions on numbers. Every interval is finite: a single
//! observation gets a zero-width interval, an empty sample none at all.

use distrs::{Normal, StudentsT};

/// A mean and the half-width of its two-sided 95 % Student-t interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanCi {
    /// Sample mean.
    pub mean: f64,
    /// Half-width: the interval is mean ± half.
    pub half: f64,
    /// Sample size.
    pub n: usize,
}

impl MeanCi {
    /// Lower bound.
    pub fn low(&self) -> f64 {
        self.mean - self.half
    }

    /// Upper bound.
    pub fn high(&self) -> f64 {
        self.mean + self.half
    }

    /// Do two intervals overlap?
    pub fn overlaps(&self, other: &MeanCi) -> bool {
        self.low() <= other.high() && other.low() <= self.high()
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom.
pub fn t_quantile_975(df: usize) -> f64 {
    StudentsT::ppf(0.975, df as f64)
}

/// Mean and 95 % confidence interval of a sample (`None` if empty).
pub fn mean_ci(values: &[f64]) -> Option<MeanCi> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(MeanCi { mean, half: 0.0, n });
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some(MeanCi { mean, half: t_quantile_975(n - 1) * (var / n as f64).sqrt(), n })
}

/// The same from a mean, a sample standard deviation and a size.
pub fn ci_from(mean: f64, sd: f64, n: usize) -> MeanCi {
    let half = if n > 1 && sd.is_finite() { t_quantile_975(n - 1) * sd / (n as f64).sqrt() } else { 0.0 };
    MeanCi { mean, half, n }
}

/// Wilson score interval (95 %) for `successes` out of `n`.
pub fn wilson(successes: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let z = Normal::ppf(0.975, 0.0, 1.0);
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let denom = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
    // At 0 of n (n of n) the bound is exactly 0 (1); rounding would leave 1e-17.
    let low = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes >= n { 1.0 } else { (centre + half).min(1.0) };
    Some((low, high))
}

/// Brier score of probability forecasts against 0/1 outcomes.
pub fn brier(pairs: impl IntoIterator<Item = (f64, bool)>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for (p, hit) in pairs {
        sum += (p - if hit { 1.0 } else { 0.0 }).powi(2);
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

/// Additional gain of `value` over `base` in percent, as the dissertation
/// computes it (a negative base gives a negative percentage, §6.4).
pub fn additional_percent(value: f64, base: f64) -> Option<f64> {
    (base != 0.0).then(|| 100.0 * (value - base) / base)
}
