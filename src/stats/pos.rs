//! Probability of success of a placement: PoS = P_available · P_executable · P_success.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1 (comprehensive), §3.2
//! (heuristic), §3.3 and errata §11.1–2 (survival, not failure probability),
//! §2.5–2.6 (joint CDF of the direct predecessors, convolution).
//!
//! Contract:
//! - [`Reliability`] gives P_available = Π 1/(1 + λ_i/μ_i) and
//!   P_success = Π S_i(t) over a node set, with S the survival of the failure
//!   law (e^(−λt) for the Poisson model the dissertation simulates).
//! - [`heuristic`]: P_executable = CDF_j(⌊100·min(x, l)/x⌋) (floor: the
//!   conservative reading), one cluster-wide reliability.
//! - [`Comprehensive::p_executable`]: on the grid t0 + kΔ, the start CDF is the
//!   product of the direct predecessors' end CDFs (each conditioned on not
//!   having ended by `now`, unless disabled); the end PDF is the start PDF
//!   convolved (FFT) with the job's stepped runtime PDF; P_executable is its
//!   mass up to the slot end. It can also return the job's own end CDF,
//!   truncated at the slot end, for its successors.
//! - Every result is a probability in [0, 1]; nothing here yields NaN.

use crate::stats::convolution::Convolver;
use crate::stats::failure_law::{FailureLaw, availability};
use crate::stats::pdf::PercentPdf;
use crate::units::Time;

/// The three factors of a PoS and their product.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pos {
    /// All nodes up at the start.
    pub available: f64,
    /// The job finishes within its allotment.
    pub executable: f64,
    /// No node fails during the exposure min(x, l).
    pub success: f64,
}

impl Pos {
    /// PoS.
    pub fn value(&self) -> f64 {
        (self.available * self.executable * self.success).clamp(0.0, 1.0)
    }

    /// PoF = 1 − PoS.
    pub fn pof(&self) -> f64 {
        1.0 - self.value()
    }
}

/// Node availability and survival, the same for every node unless per-node
/// rates are given.
#[derive(Debug, Clone)]
pub struct Reliability {
    availability: f64,
    law: FailureLaw,
}

impl Reliability {
    /// From λ and μ per second and the survival law of one node.
    pub fn new(lambda: f64, mu: f64, law: FailureLaw) -> Reliability {
        Reliability { availability: availability(lambda, mu), law }
    }

    /// P_available of `n` nodes.
    pub fn available(&self, n: u32) -> f64 {
        self.availability.powi(n as i32)
    }

    /// P_success of `n` nodes over `t` seconds.
    pub fn success(&self, n: u32, t: Time) -> f64 {
        self.law.survival(t as f64).powi(n as i32)
    }
}

/// The heuristic PoS of a job with estimate `x` on `n` nodes in a slot of length `l`.
pub fn heuristic(reliability: &Reliability, pdf: &PercentPdf, x: Time, l: Time, n: u32) -> Pos {
    let exposure = x.min(l).max(0);
    let executable = if l >= x { 1.0 } else { pdf.cdf((100 * exposure / x.max(1)) as usize) };
    Pos { available: reliability.available(n), executable, success: reliability.success(n, exposure) }
}

/// A job's end-time CDF on a grid: `F(origin + k·step) = values[k]`, 1 after the end.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EndCdf {
    /// Time of `values[0]`.
    pub origin: Time,
    /// Grid step.
    pub step: Time,
    /// Non-decreasing, last value 1.
    pub values: Vec<f64>,
}

impl EndCdf {
    /// F(t): the grid point at or before `t` (conservative), 0 before the origin.
    pub fn at(&self, t: Time) -> f64 {
        if t < self.origin || self.values.is_empty() {
            return 0.0;
        }
        let k = ((t - self.origin) / self.step.max(1)) as usize;
        self.values.get(k).copied().unwrap_or(1.0)
    }
}

/// A direct predecessor of a job on one of its nodes.
#[derive(Debug, Clone, Copy)]
pub enum Predecessor<'a> {
    /// Running since `start`, killed at `kill` at the latest; its runtime PDF
    /// in steps of Δ.
    Running {
        /// Actual start.
        start: Time,
        /// Kill time.
        kill: Time,
        /// Stepped runtime PDF.
        stepped: &'a [f64],
    },
    /// Planned; its end CDF as computed when it was accepted.
    Planned {
        /// Its end CDF.
        cdf: &'a EndCdf,
        /// Its kill time (end of its slot).
        kill: Time,
    },
}

impl Predecessor<'_> {
    /// The unconditioned P(ended by t); `cum` is the cumulative of a running
    /// predecessor's stepped PDF.
    fn raw(&self, t: Time, step: Time, cum: &[f64]) -> f64 {
        match *self {
            Predecessor::Running { start, kill, .. } => {
                if t >= kill {
                    1.0
                } else if t < start || cum.is_empty() {
                    0.0
                } else {
                    cum[(((t - start) / step) as usize).min(cum.len() - 1)]
                }
            }
            Predecessor::Planned { cdf, kill } => {
                if t >= kill {
                    1.0
                } else {
                    cdf.at(t)
                }
            }
        }
    }

    fn kill(&self) -> Time {
        match *self {
            Predecessor::Running { kill, .. } | Predecessor::Planned { kill, .. } => kill,
        }
    }
}

/// The comprehensive P_executable computation, with its buffers.
#[derive(Debug, Default)]
pub struct Comprehensive {
    convolver: Convolver,
    start_cdf: Vec<f64>,
    start_pdf: Vec<f64>,
    end_pdf: Vec<f64>,
    cumulative: Vec<f64>,
    pred_cum: Vec<f64>,
}

/// Inputs of one P_executable evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    /// Current time.
    pub now: Time,
    /// Earliest start: max(now, release).
    pub t0: Time,
    /// Latest start: when every predecessor has surely ended.
    pub latest_start: Time,
    /// Slot end: the job is killed then.
    pub limit: Time,
    /// The job's stepped runtime PDF.
    pub own: &'a [f64],
    /// Grid step Δ.
    pub step: Time,
    /// Condition predecessors on not having ended by `now` (spec §2.5 default).
    pub condition: bool,
}

impl Comprehensive {
    /// A fresh engine.
    pub fn new() -> Comprehensive {
        Comprehensive::default()
    }

    /// P(the job ends by `p.limit`), given its `predecessors` (distinct jobs).
    /// If `end_cdf` is given it receives the job's end CDF, truncated at the limit.
    pub fn p_executable<'a, I>(&mut self, p: Placement<'_>, predecessors: I, end_cdf: Option<&mut EndCdf>) -> f64
    where
        I: Iterator<Item = Predecessor<'a>> + Clone,
    {
        let step = p.step.max(1);
        let t0 = p.t0.max(p.now);
        if p.limit < t0 {
            if let Some(out) = end_cdf {
                *out = EndCdf { origin: p.limit, step, values: vec![1.0] };
            }
            return 0.0;
        }
        // The start can be no later than the last predecessor's kill (or latest_start).
        let latest = predecessors.clone().map(|pred| pred.kill()).fold(p.latest_start.max(t0), Time::max);
        let m = ((latest - t0) + step - 1) / step;
        let m = m.max(0) as usize;
        self.start_cdf.clear();
        self.start_cdf.resize(m + 1, 1.0);
        for pred in predecessors {
            let pred = &pred;
            self.pred_cum.clear();
            if let Predecessor::Running { stepped, .. } = pred {
                let mut acc = 0.0;
                self.pred_cum.extend(stepped.iter().map(|m| {
                    acc += m;
                    acc.min(1.0)
                }));
            }
            let cum = &self.pred_cum;
            let at_now = pred.raw(p.now, step, cum);
            let conditioned = p.condition && at_now > 0.0;
            // Ended for sure by now per its model although it has not: fall back
            // to its kill time (the worst case).
            let hopeless = conditioned && at_now >= 1.0 - 1e-12;
            for (k, f) in self.start_cdf.iter_mut().enumerate() {
                let t = t0 + k as Time * step;
                let v = if hopeless {
                    if t >= pred.kill() { 1.0 } else { 0.0 }
                } else {
                    let raw = pred.raw(t, step, cum);
                    if conditioned { ((raw - at_now) / (1.0 - at_now)).clamp(0.0, 1.0) } else { raw }
                };
                *f *= v;
            }
        }
        self.start_cdf[m] = 1.0;
        self.start_pdf.clear();
        let mut previous = 0.0;
        for &c in &self.start_cdf {
            let c = c.max(previous);
            self.start_pdf.push(c - previous);
            previous = c;
        }
        self.convolver.convolve(&self.start_pdf, p.own, &mut self.end_pdf);
        let last = ((p.limit - t0) / step) as usize;
        let executable: f64 = self.end_pdf.iter().take(last + 1).sum::<f64>().clamp(0.0, 1.0);
        if let Some(out) = end_cdf {
            self.cumulative.clear();
            let mut acc = 0.0;
            for &m in self.end_pdf.iter().take(last + 1) {
                acc += m;
                self.cumulative.push(acc.min(1.0));
            }
            // Killed at the limit: the residual mass ends there.
            if let Some(l) = self.cumulative.last_mut() {
                if self.end_pdf.len() > last + 1 {
                    *l = 1.0;
                } else {
                    *l = l.max(1.0);
                }
            }
            out.origin = t0;
            out.step = step;
            out.values.clear();
            out.values.extend_from_slice(&self.cumulative);
        }
        executable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::pdf::{BINS, Rounding, stepped};

    const H: Time = 3600;

    fn uniform_pdf() -> PercentPdf {
        // Ratios 1 … 100 % equally likely.
        let mut counts = [0u64; BINS];
        for c in counts.iter_mut().skip(1) {
            *c = 1;
        }
        PercentPdf::from_counts(&counts)
    }

    fn lanl() -> Reliability {
        let lambda = 1.2904e-4 / 3600.0;
        Reliability::new(lambda, 0.4333 / 3600.0, FailureLaw::exponential(lambda).unwrap())
    }

    #[test]
    fn heuristic_pos_by_hand() {
        // 4 nodes, estimate 10 h, slot 6 h, uniform ratios: P_exec = CDF(60 %) = 0.6.
        let r = lanl();
        let pos = heuristic(&r, &uniform_pdf(), 10 * H, 6 * H, 4);
        let a: f64 = 1.0 / (1.0 + 1.2904e-4 / 0.4333);
        assert!((pos.available - a.powi(4)).abs() < 1e-15);
        assert!((pos.executable - 0.6).abs() < 1e-15);
        assert!((pos.success - (-4.0 * 1.2904e-4 * 6.0f64).exp()).abs() < 1e-15);
        assert!((pos.value() - a.powi(4) * 0.6 * (-4.0 * 1.2904e-4 * 6.0f64).exp()).abs() < 1e-15);
        // A slot at least as long as the estimate: P_exec = 1, exposure x.
        let full = heuristic(&r, &uniform_pdf(), 10 * H, 12 * H, 1);
        assert_eq!(full.executable, 1.0);
        assert!((full.success - (-1.2904e-4 * 10.0f64).exp()).abs() < 1e-15);
    }

    #[test]
    fn comprehensive_without_predecessors_is_the_own_cdf() {
        // Estimate 100 min, Δ = 1 min, uniform ratios: P(end ≤ 60 min) = 0.6.
        let mut own = Vec::new();
        stepped(&uniform_pdf(), 100 * 60, 60, Rounding::Round, &mut own);
        let mut c = Comprehensive::new();
        let place = Placement { now: 0, t0: 0, latest_start: 0, limit: 60 * 60, own: &own, step: 60, condition: true };
        let p = c.p_executable(place, std::iter::empty(), None);
        assert!((p - 0.6).abs() < 1e-12, "{p}");
        let h = heuristic(&lanl(), &uniform_pdf(), 100 * 60, 60 * 60, 1).executable;
        assert!((p - h).abs() < 1e-12);
    }

    #[test]
    fn a_predecessor_ending_for_sure_shifts_the_own_cdf() {
        // A planned predecessor ends exactly at 20 min (all its mass there): the
        // job starts at 20 min, so P(end ≤ 80 min) = own CDF(60 min) = 0.6.
        let mut own = Vec::new();
        stepped(&uniform_pdf(), 100 * 60, 60, Rounding::Round, &mut own);
        let pred_cdf =
            EndCdf { origin: 0, step: 60, values: (0..=20).map(|k| if k < 20 { 0.0 } else { 1.0 }).collect() };
        let pred = Predecessor::Planned { cdf: &pred_cdf, kill: 20 * 60 };
        let mut c = Comprehensive::new();
        let place =
            Placement { now: 0, t0: 0, latest_start: 20 * 60, limit: 80 * 60, own: &own, step: 60, condition: true };
        let mut end = EndCdf::default();
        let p = c.p_executable(place, [pred].into_iter(), Some(&mut end));
        assert!((p - 0.6).abs() < 1e-12, "{p}");
        assert_eq!(end.origin, 0);
        assert_eq!(*end.values.last().unwrap(), 1.0);
        assert!((end.at(80 * 60) - 1.0).abs() < 1e-12);
        assert!((end.at(50 * 60) - 0.3).abs() < 1e-12, "{}", end.at(50 * 60));
    }

    #[test]
    fn two_predecessors_multiply_and_running_ones_are_conditioned() {
        // Two running predecessors, each a 10-min job started at 0 whose ratio is
        // 50 % or 100 % with equal chance (ends at 5 or 10 min). At now = 0 the
        // start CDF is F1·F2: 0.25 at 5 min, 1 at 10 min. The new job takes
        // exactly 10 min (ratio 100 %). P(end ≤ 15 min) = 0.25.
        let mut counts = [0u64; BINS];
        counts[50] = 1;
        counts[100] = 1;
        let mut pred_pdf = Vec::new();
        stepped(&PercentPdf::from_counts(&counts), 600, 60, Rounding::Round, &mut pred_pdf);
        let mut full = [0u64; BINS];
        full[100] = 1;
        let mut own = Vec::new();
        stepped(&PercentPdf::from_counts(&full), 600, 60, Rounding::Round, &mut own);
        let a = Predecessor::Running { start: 0, kill: 600, stepped: &pred_pdf };
        let b = Predecessor::Running { start: 0, kill: 600, stepped: &pred_pdf };
        let mut c = Comprehensive::new();
        let at = |now| Placement { now, t0: now, latest_start: 600, limit: 900, own: &own, step: 60, condition: true };
        let p = c.p_executable(at(0), [a, b].into_iter(), None);
        assert!((p - 0.25).abs() < 1e-12, "{p}");
        // At now = 6 min neither has ended, so both end at 10 min and the job
        // cannot end by 16 min.
        let p = c.p_executable(Placement { limit: 960, ..at(360) }, [a, b].into_iter(), None);
        assert!(p.abs() < 1e-12, "{p}");
        // Unconditioned, the impossible ends at 5 min land at now (6 min): the
        // job starts at 6 min with probability 0.25 and ends by 16 min.
        let p = c.p_executable(Placement { limit: 960, condition: false, ..at(360) }, [a, b].into_iter(), None);
        assert!((p - 0.25).abs() < 1e-12, "{p}");
    }
}
