//! Calibration of predicted probabilities of failure (PoF) against outcomes.
//!
//! Reference: issue 17 §2 ("calibrated PoF"); `overbooking-dissertation-spec.md`
//! §3 (the PoF a strategy predicts), §4 (the acceptance test that uses it).
//!
//! Contract:
//! - [`isotonic_fit`] is pool-adjacent-violators (PAV): the weighted
//!   least-squares non-decreasing fit of y on x. Points are sorted by x
//!   (stable, `f64::total_cmp`) and points with equal x are pooled first, so
//!   ties never depend on input order. It returns blocks
//!   `(upper x bound, fitted y)` with increasing x and non-decreasing y; each
//!   block's y is the weighted mean of its points' y.
//! - [`OnlineCalibrator`] learns the map predicted → observed PoF only from
//!   outcomes it was given ([`OnlineCalibrator::observe`]: outcomes that have
//!   happened). Outcomes are aggregated in [`CAL_BINS`] fixed bins of
//!   predicted PoF (memory is bounded; each bin keeps its count, failures and
//!   the sum of its predictions). It refits when `min_count` outcomes have
//!   been seen and then after every `refit_every` new outcomes, inside
//!   `observe`: the map in force depends only on the sequence of outcomes,
//!   never on when or how often [`OnlineCalibrator::calibrate`] is called.
//! - [`OnlineCalibrator::calibrate`] is the identity (clamped to [0, 1])
//!   before the first fit; afterwards it interpolates linearly between the
//!   block centres (the mean prediction of each PAV block, mapped to its
//!   observed failure rate), and uses the nearest block beyond the first and
//!   last centres. The map is non-decreasing and continuous, its output lies
//!   in [0, 1], and it allocates nothing.
//! - [`wilson_interval`], [`brier`] and [`reliability_table`] are the checks
//!   the issue asks for: every bin with enough jobs should have its mean
//!   prediction inside the 95 % Wilson interval of its observed rate, and a
//!   calibrated PoF should have a lower Brier score than the raw one.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use slasim_core::setting::InvalidSetting;

/// The z value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Bins of predicted PoF in which an [`OnlineCalibrator`] aggregates outcomes.
pub const CAL_BINS: usize = 1000;

/// Whether the acceptance test uses the raw or a calibrated PoF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Calibration {
    /// The PoF as the strategy predicts it.
    #[default]
    None,
    /// An isotonic map learned online from the outcomes seen so far.
    Isotonic,
    /// The same map read at the one-sided 90 % upper Wilson bound of each
    /// block's rate: where few outcomes back the map, the acceptance test
    /// reads a higher PoF (a guard against the optimiser's curse: the test
    /// accepts where the fitted rate is lowest, which is where noise pulls it
    /// down).
    #[serde(rename = "isotonic-upper")]
    IsotonicUpper,
    /// One factor learned online: observed failures over predicted PoF
    /// summed over the outcomes seen (with a prior of 5 expected failures
    /// at factor 1), applied to every prediction. One parameter instead of
    /// a map: it cannot follow a shape, but noise cannot bend it either.
    Scale,
    /// A logistic map learned online (Platt): logit(calibrated) =
    /// a + b · logit(predicted), fitted by maximum likelihood with b ≥ 0,
    /// over the outcomes and the same prior pseudo-outcomes on the identity
    /// as the isotonic map. Two parameters: it can bend (b < 1 reads low
    /// predictions higher) where one factor cannot, and no block of a few
    /// outcomes can pull a region of it to 0.
    Logistic,
}

impl Calibration {
    /// The names `FromStr` accepts.
    pub const NAMES: [&'static str; 5] = ["none", "isotonic", "isotonic-upper", "scale", "logistic"];
}

/// The z of a one-sided 90 % bound ([`Calibration::IsotonicUpper`]).
pub const Z90_ONE_SIDED: f64 = 1.281_551_565_544_600_5;

impl FromStr for Calibration {
    type Err = InvalidSetting;

    fn from_str(s: &str) -> Result<Calibration, InvalidSetting> {
        match s.trim() {
            "none" => Ok(Calibration::None),
            "isotonic" => Ok(Calibration::Isotonic),
            "isotonic-upper" => Ok(Calibration::IsotonicUpper),
            "scale" => Ok(Calibration::Scale),
            "logistic" => Ok(Calibration::Logistic),
            _ => Err(InvalidSetting::new(
                "overbooking.calibration",
                s,
                "must be none, isotonic, isotonic-upper, scale or logistic",
            )),
        }
    }
}

impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Calibration::None => "none",
            Calibration::Isotonic => "isotonic",
            Calibration::IsotonicUpper => "isotonic-upper",
            Calibration::Scale => "scale",
            Calibration::Logistic => "logistic",
        })
    }
}

/// A PAV block under construction: its x range, weighted sums and weight.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Block {
    /// Largest x of its points.
    x_hi: f64,
    /// Σ w·x (for the block centre).
    sum_wx: f64,
    /// Σ w·y.
    sum_wy: f64,
    /// Σ w.
    w: f64,
}

impl Block {
    fn y(&self) -> f64 {
        self.sum_wy / self.w
    }

    fn centre(&self) -> f64 {
        self.sum_wx / self.w
    }

    fn absorb(&mut self, other: &Block) {
        self.x_hi = self.x_hi.max(other.x_hi);
        self.sum_wx += other.sum_wx;
        self.sum_wy += other.sum_wy;
        self.w += other.w;
    }
}

/// Pushes `b` (whose x is ≥ every x already in `out`) and pools violators.
/// `out` is the PAV stack; it stays non-decreasing in y.
fn pav_push(out: &mut Vec<Block>, mut b: Block) {
    while let Some(last) = out.last() {
        // Violation: the previous block's mean exceeds the new one's.
        // Compare Σwy/Σw without dividing: a.y > b.y ⇔ a.wy·b.w > b.wy·a.w.
        if last.sum_wy * b.w > b.sum_wy * last.w {
            let mut pooled = *last;
            pooled.absorb(&b);
            b = pooled;
            out.pop();
        } else {
            break;
        }
    }
    out.push(b);
}

/// Isotonic (non-decreasing) regression of y on x by pool-adjacent-violators.
///
/// `points` are `(x, y, weight)`; points whose weight is not finite and > 0,
/// or whose x or y is not finite, are ignored. Returns the step function as
/// blocks `(upper x bound, fitted y)`: block k covers the points with
/// `upper[k−1] < x ≤ upper[k]`. Bounds increase strictly, fitted values are
/// non-decreasing, and each fitted value is the weighted mean of its block's
/// y. Deterministic: sorting is stable and equal x are pooled before PAV.
pub fn isotonic_fit(points: &[(f64, f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted: Vec<(f64, f64, f64)> = points
        .iter()
        .copied()
        .filter(|&(x, y, w)| x.is_finite() && y.is_finite() && w.is_finite() && w > 0.0)
        .collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut stack: Vec<Block> = Vec::with_capacity(sorted.len());
    let mut i = 0;
    while i < sorted.len() {
        // Pool every point with this x into one block first.
        let x = sorted[i].0;
        let mut b = Block { x_hi: x, sum_wx: 0.0, sum_wy: 0.0, w: 0.0 };
        while i < sorted.len() && sorted[i].0.total_cmp(&x) == Ordering::Equal {
            let (px, py, pw) = sorted[i];
            b.sum_wx += pw * px;
            b.sum_wy += pw * py;
            b.w += pw;
            i += 1;
        }
        pav_push(&mut stack, b);
    }
    // PAV compares block means by cross products; two means it calls equal
    // can still divide out an ulp apart the wrong way, so the reported values
    // pass through a running maximum (which changes nothing else).
    let mut floor = f64::NEG_INFINITY;
    stack
        .iter()
        .map(|b| {
            floor = floor.max(b.y());
            (b.x_hi, floor)
        })
        .collect()
}

/// Outcomes aggregated in one bin of predicted PoF.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Tally {
    count: u64,
    failures: u64,
    sum_predicted: f64,
}

/// The bin of a prediction in [0, 1] among `bins` equal-width bins.
fn bin_of(p: f64, bins: usize) -> usize {
    ((p.clamp(0.0, 1.0) * bins as f64) as usize).min(bins - 1)
}

/// An online isotonic calibration of one strategy's predicted PoF (keep one
/// per strategy: their biases differ, issue 17 §2).
///
/// Memory is bounded: outcomes are kept as tallies in [`CAL_BINS`] bins of
/// predicted PoF, and the fit is a PAV over the non-empty bins (x = mean
/// prediction of the bin, y = its failure rate, weight = its count). Two
/// predictions in the same bin (width 0.001) are indistinguishable to the fit.
#[derive(Debug, Clone)]
pub struct OnlineCalibrator {
    min_count: usize,
    refit_every: usize,
    tallies: Vec<Tally>,
    seen: usize,
    since_fit: usize,
    /// The map in force: PAV blocks (centre = mean prediction, y = rate).
    /// Empty until the first fit.
    centres: Vec<f64>,
    rates: Vec<f64>,
    /// Scratch PAV stack, kept to avoid allocating on refits.
    stack: Vec<Block>,
    /// Scratch input of a refit: the tallies and the prior's anchors.
    input: Vec<Block>,
    /// Weight of each of the prior's [`ANCHORS`] points on the identity.
    prior_weight: f64,
    /// z of the upper bound each block's rate is read at (0: the rate itself).
    upper_z: f64,
    /// Which map it fits, with the parameters in force once fitted.
    fit: Fit,
}

/// The map an [`OnlineCalibrator`] fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fit {
    /// The isotonic map (its blocks are the calibrator's centres and rates).
    Isotonic,
    /// One factor ([`Calibration::Scale`]), with a prior of `prior`
    /// expected failures at factor 1.
    Scale { prior: f64, factor: Option<f64> },
    /// logit(calibrated) = a + b · logit(predicted) ([`Calibration::Logistic`]).
    Logistic { ab: Option<(f64, f64)> },
}

/// The prior's anchor points: y = x at x = 0, 1/20, …, 1. With a weight they
/// keep the map near the identity where no outcome has been seen (a fit from
/// a few successes alone would call every PoF 0, and predictions above the
/// seen range would take the last block's rate).
pub const ANCHORS: usize = 21;

impl OnlineCalibrator {
    /// A calibrator that applies once `min_count` outcomes have been seen and
    /// refits after every `refit_every` (at least 1) new outcomes.
    pub fn new(min_count: usize, refit_every: usize) -> OnlineCalibrator {
        OnlineCalibrator {
            min_count,
            refit_every: refit_every.max(1),
            tallies: vec![Tally::default(); CAL_BINS],
            seen: 0,
            since_fit: 0,
            centres: Vec::with_capacity(CAL_BINS + ANCHORS),
            rates: Vec::with_capacity(CAL_BINS + ANCHORS),
            stack: Vec::with_capacity(CAL_BINS + ANCHORS),
            input: Vec::with_capacity(CAL_BINS + ANCHORS),
            prior_weight: 0.0,
            upper_z: 0.0,
            fit: Fit::Isotonic,
        }
    }

    /// The same calibrator fitting one factor instead of a map
    /// ([`Calibration::Scale`]), with a prior of `expected` failures seen
    /// at factor 1.
    pub fn scaled(mut self, expected: f64) -> OnlineCalibrator {
        let prior = if expected.is_finite() { expected.max(0.0) } else { 0.0 };
        self.fit = Fit::Scale { prior, factor: None };
        self
    }

    /// Which map it fits, with the parameters in force once fitted.
    pub fn fit(&self) -> Fit {
        self.fit
    }

    /// The same calibrator fitting a logistic map instead of the isotonic
    /// one ([`Calibration::Logistic`]), over its outcomes and the prior's
    /// pseudo-outcomes ([`OnlineCalibrator::with_prior`]).
    pub fn logistic(mut self) -> OnlineCalibrator {
        self.fit = Fit::Logistic { ab: None };
        self
    }

    /// The same calibrator mapping each block to the Wilson upper bound of its
    /// rate at `z` (its weight, prior included, as the count), made
    /// non-decreasing again by a running maximum (0: the rate itself).
    pub fn with_upper_bound(mut self, z: f64) -> OnlineCalibrator {
        self.upper_z = if z.is_finite() { z.max(0.0) } else { 0.0 };
        self
    }

    /// The same calibrator fitting its outcomes together with [`ANCHORS`]
    /// pseudo-outcomes of `weight` each on the identity (0: none).
    pub fn with_prior(mut self, weight: f64) -> OnlineCalibrator {
        self.prior_weight = if weight.is_finite() { weight.max(0.0) } else { 0.0 };
        self
    }

    /// Records an outcome that has happened: a job accepted with PoF
    /// `predicted` failed (`true`) or succeeded. A prediction outside [0, 1]
    /// counts as its nearest end; a NaN prediction is ignored.
    pub fn observe(&mut self, predicted: f64, failed: bool) {
        if predicted.is_nan() {
            return;
        }
        let p = predicted.clamp(0.0, 1.0);
        let t = &mut self.tallies[bin_of(p, CAL_BINS)];
        t.count += 1;
        t.failures += u64::from(failed);
        t.sum_predicted += p;
        self.seen += 1;
        self.since_fit += 1;
        let first = !self.is_active() && self.seen >= self.min_count;
        if first || (self.is_active() && self.since_fit >= self.refit_every) {
            self.refit();
        }
    }

    /// Refits the map on every outcome seen so far.
    fn refit(&mut self) {
        self.since_fit = 0;
        match self.fit {
            Fit::Scale { prior, .. } => {
                let (failures, predicted) =
                    self.tallies.iter().fold((0.0, 0.0), |(f, p), t| (f + t.failures as f64, p + t.sum_predicted));
                let (f, p) = (failures + prior, predicted + prior);
                self.fit = Fit::Scale { prior, factor: Some(if p > 0.0 { f / p } else { 1.0 }) };
                return;
            }
            Fit::Logistic { ab } => {
                let (a, b) = logistic_fit(&self.tallies, self.prior_weight, ab.unwrap_or((0.0, 1.0)));
                // A fit that diverged (no prior, outcomes all of one kind) keeps the last one.
                if a.is_finite() && b.is_finite() {
                    self.fit = Fit::Logistic { ab: Some((a, b)) };
                }
                return;
            }
            Fit::Isotonic => {}
        }
        self.input.clear();
        for t in self.tallies.iter().filter(|t| t.count > 0) {
            let w = t.count as f64;
            self.input.push(Block { x_hi: t.sum_predicted / w, sum_wx: t.sum_predicted, sum_wy: t.failures as f64, w });
        }
        if self.prior_weight > 0.0 {
            let w = self.prior_weight;
            for g in 0..ANCHORS {
                let x = g as f64 / (ANCHORS - 1) as f64;
                self.input.push(Block { x_hi: x, sum_wx: w * x, sum_wy: w * x, w });
            }
            // In place and stable: equal x keep data before anchors.
            self.input.sort_by(|a, b| a.x_hi.total_cmp(&b.x_hi));
        }
        self.stack.clear();
        for &b in &self.input {
            pav_push(&mut self.stack, b);
        }
        self.centres.clear();
        self.rates.clear();
        let mut floor = 0.0_f64;
        for b in &self.stack {
            self.centres.push(b.centre());
            let y = b.y().clamp(0.0, 1.0);
            // A running maximum keeps the map non-decreasing: for the upper
            // bound, and for means PAV called equal that divide out an ulp
            // apart the wrong way.
            let rate = floor.max(if self.upper_z > 0.0 { wilson_bounds(y, b.w, self.upper_z).1 } else { y });
            floor = rate;
            self.rates.push(rate);
        }
    }

    /// The calibrated PoF for a prediction: the identity (clamped to [0, 1])
    /// before the first fit, then the fitted map, interpolated linearly
    /// between block centres and flat beyond the first and last ones.
    /// A NaN prediction stays NaN.
    pub fn calibrate(&self, predicted: f64) -> f64 {
        if predicted.is_nan() {
            return predicted;
        }
        let p = predicted.clamp(0.0, 1.0);
        match self.fit {
            Fit::Scale { factor: Some(k), .. } => return (k * p).clamp(0.0, 1.0),
            Fit::Logistic { ab: Some((a, b)) } => return sigmoid(a + b * logit(p)),
            _ => {}
        }
        let (c, r) = (&self.centres, &self.rates);
        let (Some(&c_first), Some(&c_last)) = (c.first(), c.last()) else { return p };
        if p <= c_first {
            return r[0];
        }
        if p >= c_last {
            return r[r.len() - 1];
        }
        // c_first < p < c_last: there are ≥ 2 centres, and k ∈ [1, len−1].
        let k = c.partition_point(|&x| x <= p);
        let (x0, x1, y0, y1) = (c[k - 1], c[k], r[k - 1], r[k]);
        let t = (p - x0) / (x1 - x0);
        (y0 + t * (y1 - y0)).clamp(0.0, 1.0)
    }

    /// Outcomes seen so far.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// Whether the calibration applies (a fit exists).
    pub fn is_active(&self) -> bool {
        match self.fit {
            Fit::Isotonic => !self.centres.is_empty(),
            Fit::Scale { factor, .. } => factor.is_some(),
            Fit::Logistic { ab } => ab.is_some(),
        }
    }

    /// The map in force as `(block centre, observed rate)` pairs.
    pub fn blocks(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.centres.iter().copied().zip(self.rates.iter().copied())
    }
}

/// Predictions are read at least this far from 0 and 1 on the logit scale.
const LOGIT_EPS: f64 = 1e-6;

fn logit(p: f64) -> f64 {
    let p = p.clamp(LOGIT_EPS, 1.0 - LOGIT_EPS);
    (p / (1.0 - p)).ln()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Maximum likelihood of logit(rate) = a + b · logit(prediction) over the
/// tallies (x = logit of each bin's mean prediction) and `anchor_weight`
/// pseudo-outcomes at rate p at each of the [`ANCHORS`] predictions p, by
/// Newton's method from `start` (deterministic: at most 50 steps, stopping
/// when a step is below 1e-10). The anchors keep the map near the identity
/// where no outcome has been seen: fitted only on the low PoF the test
/// admits, a flat map would read every PoF low and admit everything. b is
/// kept ≥ 0 so the map stays non-decreasing; at b = 0 the step fits a alone.
fn logistic_fit(tallies: &[Tally], anchor_weight: f64, start: (f64, f64)) -> (f64, f64) {
    let observed = tallies.iter().filter(|t| t.count > 0).map(|t| {
        let n = t.count as f64;
        (logit(t.sum_predicted / n), t.failures as f64, n)
    });
    let anchors = (0..ANCHORS).filter(|_| anchor_weight > 0.0).map(|g| {
        let p = g as f64 / (ANCHORS - 1) as f64;
        (logit(p), anchor_weight * p, anchor_weight)
    });
    let points = observed.chain(anchors);
    let (mut a, mut b) = start;
    for _ in 0..50 {
        // Gradient (ga, gb) and the negated Hessian [[haa, hab], [hab, hbb]].
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (x, failures, n) in points.clone() {
            let q = sigmoid(a + b * x);
            let r = failures - n * q;
            let w = n * q * (1.0 - q);
            ga += r;
            gb += r * x;
            haa += w;
            hab += w * x;
            hbb += w * x * x;
        }
        let det = haa * hbb - hab * hab;
        if !(det.is_finite() && det > 0.0) {
            break;
        }
        let (mut da, mut db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        if b + db < 0.0 {
            // At the bound b = 0 the map is flat: Newton on a alone.
            (da, db) = (ga / haa, -b);
        }
        a += da;
        b += db;
        if da.abs().max(db.abs()) < 1e-10 {
            break;
        }
    }
    (a, b)
}

/// The Wilson bounds of a rate `p` observed over a (possibly fractional)
/// weight `n > 0` of outcomes, at normal quantile `z` (a fractional weight
/// is an effective sample size, e.g. jobs over a design effect).
pub fn wilson_bounds(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Wilson score interval of a binomial proportion: `successes` of
/// `trials` at normal quantile `z` (e.g. [`Z95`]). Zero trials give (0, 1);
/// successes beyond trials count as trials.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    wilson_bounds(successes.min(trials) as f64 / n, n, z)
}

/// The Brier score: the mean of (prediction − outcome)², outcome 1 for a
/// failure. NaN for no pairs.
pub fn brier(pairs: impl Iterator<Item = (f64, bool)>) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for (p, failed) in pairs {
        let d = p - f64::from(u8::from(failed));
        sum += d * d;
        n += 1;
    }
    if n == 0 { f64::NAN } else { sum / n as f64 }
}

/// One row of a reliability table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReliabilityBin {
    /// Lower bound of the predictions in this bin (inclusive).
    pub lo: f64,
    /// Upper bound (exclusive, except 1 for the last bin).
    pub hi: f64,
    /// Jobs in the bin.
    pub count: u64,
    /// Mean predicted PoF.
    pub predicted_mean: f64,
    /// Observed failure rate.
    pub observed_rate: f64,
    /// 95 % Wilson interval of the observed rate.
    pub wilson: (f64, f64),
}

impl ReliabilityBin {
    /// Whether the mean prediction lies inside the Wilson interval.
    pub fn consistent(&self) -> bool {
        self.wilson.0 <= self.predicted_mean && self.predicted_mean <= self.wilson.1
    }
}

/// The reliability table of `(predicted PoF, failed)` pairs over `bins`
/// equal-width bins of [0, 1] (predictions outside are clamped, NaN ones are
/// skipped). Only non-empty bins are returned, in increasing order.
pub fn reliability_table(pairs: &[(f64, bool)], bins: usize) -> Vec<ReliabilityBin> {
    if bins == 0 {
        return Vec::new();
    }
    let mut tallies = vec![Tally::default(); bins];
    for &(p, failed) in pairs.iter().filter(|(p, _)| !p.is_nan()) {
        let p = p.clamp(0.0, 1.0);
        let t = &mut tallies[bin_of(p, bins)];
        t.count += 1;
        t.failures += u64::from(failed);
        t.sum_predicted += p;
    }
    tallies
        .iter()
        .enumerate()
        .filter(|(_, t)| t.count > 0)
        .map(|(i, t)| ReliabilityBin {
            lo: i as f64 / bins as f64,
            hi: (i + 1) as f64 / bins as f64,
            count: t.count,
            predicted_mean: t.sum_predicted / t.count as f64,
            observed_rate: t.failures as f64 / t.count as f64,
            wilson: wilson_interval(t.failures, t.count, Z95),
        })
        .collect()
}
