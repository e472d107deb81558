//! Time-to-failure laws of one node: exponential (Poisson process), Weibull and
//! hyper-exponential.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1, §3.3 and errata §11.1–2.
//! The dissertation prints 1 − e^(−λt) (a *failure* probability) where it means
//! the probability that a node survives; this module implements survival:
//! - exponential: S(t) = e^(−λt)
//! - Weibull:     S(t) = e^(−(t/β)^α)
//! - hyper-exp.:  S(t) = Σ p_j e^(−λ_j t)   (no stray λ_j factor, errata §11.2)
//!
//! Contract: rates are per second, times in seconds. Constructors validate their
//! parameters and name the offending one; a built law never yields NaN.

use rand::Rng;
use rand::RngExt;
use rand_distr::{Distribution, Exp, Weibull};

use slasim_core::setting::{InvalidSetting, positive};

/// The distribution of a node's time to failure (or to repair).
#[derive(Debug, Clone)]
pub enum FailureLaw {
    /// Constant rate λ (per second): the Poisson process the dissertation simulates.
    Exponential {
        /// λ per second.
        rate: f64,
        /// Sampler.
        sampler: Exp<f64>,
    },
    /// Weibull with shape α and scale β (seconds).
    Weibull {
        /// α: < 1 infant mortality, 1 constant, > 1 ageing.
        shape: f64,
        /// β in seconds.
        scale: f64,
        /// Sampler.
        sampler: Weibull<f64>,
    },
    /// Mixture of exponentials: phase j with probability p_j and rate λ_j.
    HyperExponential {
        /// (p_j, λ_j per second, sampler).
        phases: Vec<(f64, f64, Exp<f64>)>,
    },
}

impl FailureLaw {
    /// Exponential law with rate `rate` per second.
    pub fn exponential(rate: f64) -> Result<FailureLaw, InvalidSetting> {
        let rate = positive("lambda", rate)?;
        let sampler = Exp::new(rate).map_err(|_| InvalidSetting::new("lambda", rate, "gives no exponential law"))?;
        Ok(FailureLaw::Exponential { rate, sampler })
    }

    /// Weibull law with shape α and scale β seconds.
    pub fn weibull(shape: f64, scale: f64) -> Result<FailureLaw, InvalidSetting> {
        let shape = positive("shape", shape)?;
        let scale = positive("scale", scale)?;
        let sampler =
            Weibull::new(scale, shape).map_err(|_| InvalidSetting::new("shape", shape, "gives no Weibull law"))?;
        Ok(FailureLaw::Weibull { shape, scale, sampler })
    }

    /// Hyper-exponential law from probabilities p_j (summing to 1) and rates λ_j per second.
    pub fn hyper_exponential(probabilities: &[f64], rates: &[f64]) -> Result<FailureLaw, InvalidSetting> {
        let listed = || format!("{probabilities:?}");
        if probabilities.is_empty() || probabilities.len() != rates.len() {
            return Err(InvalidSetting::new("probabilities", listed(), "needs one probability per rate, at least one"));
        }
        let sum: f64 = probabilities.iter().sum();
        if probabilities.iter().any(|p| !(p.is_finite() && *p >= 0.0)) || (sum - 1.0).abs() > 1e-9 {
            return Err(InvalidSetting::new("probabilities", listed(), "must be non-negative and sum to 1"));
        }
        let phases = probabilities
            .iter()
            .zip(rates)
            .map(|(&p, &rate)| {
                let rate = positive("lambdas", rate)?;
                let sampler =
                    Exp::new(rate).map_err(|_| InvalidSetting::new("lambdas", rate, "gives no exponential law"))?;
                Ok((p, rate, sampler))
            })
            .collect::<Result<_, InvalidSetting>>()?;
        Ok(FailureLaw::HyperExponential { phases })
    }

    /// S(t): the probability that a node works for t seconds without failing.
    pub fn survival(&self, t: f64) -> f64 {
        let t = t.max(0.0);
        match self {
            FailureLaw::Exponential { rate, .. } => (-rate * t).exp(),
            FailureLaw::Weibull { shape, scale, .. } => (-(t / scale).powf(*shape)).exp(),
            FailureLaw::HyperExponential { phases } => phases.iter().map(|(p, rate, _)| p * (-rate * t).exp()).sum(),
        }
    }

    /// The mean time to failure in seconds.
    pub fn mean(&self) -> f64 {
        match self {
            FailureLaw::Exponential { rate, .. } => 1.0 / rate,
            FailureLaw::Weibull { shape, scale, .. } => scale * libm::tgamma(1.0 + 1.0 / shape),
            FailureLaw::HyperExponential { phases } => phases.iter().map(|(p, rate, _)| p / rate).sum(),
        }
    }

    /// Draws one time to failure in seconds.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            FailureLaw::Exponential { sampler, .. } => sampler.sample(rng),
            FailureLaw::Weibull { sampler, .. } => sampler.sample(rng),
            FailureLaw::HyperExponential { phases } => {
                let mut u: f64 = rng.random();
                for (p, _, sampler) in phases {
                    if u < *p {
                        return sampler.sample(rng);
                    }
                    u -= p;
                }
                // Rounding left u ≥ Σp: use the last phase.
                phases.last().map_or(0.0, |(_, _, sampler)| sampler.sample(rng))
            }
        }
    }
}

/// Steady-state availability of a node with MTTF 1/λ and MTTR 1/μ:
/// A = MTTF / (MTTF + MTTR) = 1 / (1 + λ/μ) (spec §3.1).
pub fn availability(lambda: f64, mu: f64) -> f64 {
    1.0 / (1.0 + lambda / mu)
}
