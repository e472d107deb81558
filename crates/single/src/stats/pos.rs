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
//!   pessimistic reading), one cluster-wide reliability.
//! - [`Comprehensive::p_executable`]: on the grid t0 + kΔ, the start CDF is the
//!   product of the direct predecessors' end CDFs (each conditioned on not
//!   having ended by `now`, unless disabled); the end PDF is the start PDF
//!   convolved (FFT) with the job's stepped runtime PDF; P_executable is its
//!   mass up to the slot end. It can also return the job's own end CDF,
//!   truncated at the slot end, for its successors.
//! - A caller may give each predecessor a key (its job id): its factor of the
//!   start CDF is then kept for that grid (now, t0, Δ, conditioning) and read
//!   back, not recomputed, until [`Comprehensive::forget_predecessors`]. The
//!   caller promises that a key names the same predecessor until then. Kept
//!   or not, every result is the same to the bit.
//! - Every result is a probability in [0, 1]; nothing here yields NaN.

use crate::stats::convolution::Convolver;
use crate::stats::pdf::PercentPdf;
use crate::workload::failure_law::{FailureLaw, availability};
use slasim_core::units::Time;

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
    /// None: nodes that never fail.
    law: Option<FailureLaw>,
}

impl Reliability {
    /// From λ and μ per second and the survival law of one node.
    pub fn new(lambda: f64, mu: f64, law: FailureLaw) -> Reliability {
        Reliability { availability: availability(lambda, mu), law: Some(law) }
    }

    /// Nodes that never fail: always available, always surviving.
    pub fn never_failing() -> Reliability {
        Reliability { availability: 1.0, law: None }
    }

    /// P_available of `n` nodes.
    pub fn available(&self, n: u32) -> f64 {
        self.availability.powi(n as i32)
    }

    /// P_success of `n` nodes over `t` seconds.
    pub fn success(&self, n: u32, t: Time) -> f64 {
        self.law.as_ref().map_or(1.0, |law| law.survival(t as f64).powi(n as i32))
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
    /// F(t): the grid point at or before `t` (never ahead of `t`), 0 before the origin.
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
    pub fn raw(&self, t: Time, step: Time, cum: &[f64]) -> f64 {
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

    /// `raw(t0 + kΔ)` for k < n into `out`: the same values, read off in runs
    /// (before the start, the PDF's steps, after the kill) rather than with a
    /// division per grid point, when the predecessor's grid step is Δ.
    /// Returns `(from, kill)`: `out[..from]` is 0 and `out[kill..]` is 1.
    pub fn raw_on_grid(&self, t0: Time, step: Time, n: usize, cum: &[f64], out: &mut Vec<f64>) -> (usize, usize) {
        out.clear();
        let (base, values, own_step, beyond) = match *self {
            Predecessor::Running { start, .. } => (start, cum, step, cum.last().copied().unwrap_or(0.0)),
            Predecessor::Planned { cdf, .. } => (cdf.origin, &cdf.values[..], cdf.step.max(1), 1.0),
        };
        if own_step != step {
            out.extend((0..n).map(|k| self.raw(t0 + k as Time * step, step, cum)));
            return (0, n);
        }
        let kill = first_step_at(t0, step, self.kill()).min(n);
        let from = if values.is_empty() { kill } else { first_step_at(t0, step, base).min(kill) };
        out.resize(from, 0.0);
        if from < kill {
            // t0 + from·Δ ≥ base, less than Δ past it unless from = 0.
            let first = ((t0 + from as Time * step - base) / step) as usize;
            let inside = values.get(first..).unwrap_or(&[]);
            out.extend_from_slice(&inside[..inside.len().min(kill - from)]);
            out.resize(kill, beyond);
        }
        out.resize(n, 1.0);
        (from, kill)
    }

    fn kill(&self) -> Time {
        match *self {
            Predecessor::Running { kill, .. } | Predecessor::Planned { kill, .. } => kill,
        }
    }
}

/// The grid of a placement's start CDF.
fn grid_of(p: &Placement<'_>) -> Grid {
    (p.now, p.t0.max(p.now), p.step.max(1), p.condition)
}

/// A factor's middle `[from, kill)` in `grid`; a hopeless predecessor has
/// none (from = kill) and leaves the grid unfilled, so it is not indexed.
fn middle(grid: &[f64], from: usize, kill: usize) -> &[f64] {
    if from < kill { &grid[from..kill] } else { &[] }
}

/// Multiplies a start CDF by one predecessor's factor (0 before `from`,
/// `middle` on `[from, kill)`).
fn multiply(start_cdf: &mut [f64], from: usize, kill: usize, middle: &[f64]) {
    for f in &mut start_cdf[..from] {
        *f *= 0.0;
    }
    for (f, &v) in start_cdf[from..kill].iter_mut().zip(middle) {
        *f *= v;
    }
}

/// The PDF of a CDF on a grid: the increments of its running maximum (a CDF
/// computed with rounding may dip). Where the CDF never falls and holds no
/// −0, its running maximum is itself, and the increments are taken without
/// the serial maximum, to the same bits.
pub fn increments(cdf: &[f64], pdf: &mut Vec<f64>) {
    pdf.clear();
    let rising = cdf.iter().zip(cdf.iter().skip(1)).fold(true, |ok, (a, b)| ok & (b >= a));
    let signed = cdf.iter().fold(true, |ok, c| ok & (*c >= 0.0) & (c.to_bits() != (-0.0f64).to_bits()));
    if rising && signed {
        pdf.extend(cdf.first().map(|&c| c - 0.0));
        pdf.extend(cdf.iter().zip(cdf.iter().skip(1)).map(|(a, b)| b - a));
        return;
    }
    let mut previous = 0.0;
    pdf.extend(cdf.iter().map(|&c| {
        let c = c.max(previous);
        let step = c - previous;
        previous = c;
        step
    }));
}

/// The first k with t0 + kΔ ≥ t.
fn first_step_at(t0: Time, step: Time, t: Time) -> usize {
    if t <= t0 { 0 } else { ((t - t0).saturating_add(step - 1) / step) as usize }
}

/// One predecessor's factor of the start CDF on a grid: 0 before `from`,
/// `middle` on `[from, kill)`, 1 from `kill` on.
#[derive(Debug, Default)]
struct Factor {
    from: usize,
    kill: usize,
    middle: Vec<f64>,
}

/// The grid a factor is computed on: now, t0, Δ and whether predecessors are
/// conditioned on not having ended by now.
type Grid = (Time, Time, Time, bool);

/// Factors kept by key for one grid, until forgotten: a slot per key holds
/// the generation it was written in and where its factor is; forgetting
/// starts a new generation, so nothing is cleared key by key.
#[derive(Debug, Default)]
struct Factors {
    grid: Option<Grid>,
    generation: u32,
    slots: Vec<(u32, u32)>,
    kept: Vec<Factor>,
    len: usize,
}

impl Factors {
    fn forget(&mut self) {
        self.grid = None;
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Written slots of an old generation 0 would read as current.
            self.slots.clear();
            self.generation = 1;
        }
    }

    fn get(&self, key: u32, grid: Grid) -> Option<&Factor> {
        if self.grid != Some(grid) {
            return None;
        }
        match self.slots.get(key as usize) {
            Some(&(generation, i)) if generation == self.generation && self.generation != 0 => {
                Some(&self.kept[i as usize])
            }
            _ => None,
        }
    }

    /// A fresh factor kept under `key` on `grid` (a different grid forgets the others).
    fn insert(&mut self, key: u32, grid: Grid) -> &mut Factor {
        if self.grid != Some(grid) {
            self.forget();
            self.grid = Some(grid);
        }
        let key = key as usize;
        if self.slots.len() <= key {
            self.slots.resize(key + 1, (0, 0));
        }
        self.slots[key] = (self.generation, self.len as u32);
        if self.kept.len() == self.len {
            self.kept.push(Factor::default());
        }
        self.len += 1;
        &mut self.kept[self.len - 1]
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
    pred_grid: Vec<f64>,
    factors: Factors,
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
        self.evaluate(p, predecessors.map(|pred| (None, pred)), None::<fn(f64) -> bool>, end_cdf).unwrap_or(0.0)
    }

    /// [`Comprehensive::p_executable`], or with `worth`
    /// [`Comprehensive::p_executable_if`], for predecessors each named by a
    /// key (distinct keys): a predecessor's factor is kept under its key and
    /// read back by later calls on the same grid until
    /// [`Comprehensive::forget_predecessors`].
    pub fn p_executable_keyed<'a, I, W>(
        &mut self,
        p: Placement<'_>,
        predecessors: I,
        worth: Option<W>,
        end_cdf: Option<&mut EndCdf>,
    ) -> Option<f64>
    where
        I: Iterator<Item = (u32, Predecessor<'a>)> + Clone,
        W: FnOnce(f64) -> bool,
    {
        self.evaluate(p, predecessors.map(|(key, pred)| (Some(key), pred)), worth, end_cdf)
    }

    /// Whether the factor of the predecessor under `key` is kept for `p`'s
    /// grid: a caller need not prepare that predecessor's runtime PDF.
    pub fn keeps(&self, key: u32, p: &Placement<'_>) -> bool {
        self.factors.get(key, grid_of(p)).is_some()
    }

    /// Forgets every kept factor: keys may name other predecessors from now on.
    pub fn forget_predecessors(&mut self) {
        self.factors.forget();
    }

    /// [`Comprehensive::p_executable`] unless `worth(bound)` is false for an
    /// upper bound of it, then `None` (and `end_cdf` untouched). The bound is
    /// P_executable by a direct sum (no FFT) plus [`SCREEN_MARGIN`], far
    /// above the rounding of either sum, so a caller whose `worth` is
    /// monotone never drops an evaluation it would have kept.
    pub fn p_executable_if<'a, I>(
        &mut self,
        p: Placement<'_>,
        predecessors: I,
        worth: impl FnOnce(f64) -> bool,
        end_cdf: Option<&mut EndCdf>,
    ) -> Option<f64>
    where
        I: Iterator<Item = Predecessor<'a>> + Clone,
    {
        self.evaluate(p, predecessors.map(|pred| (None, pred)), Some(worth), end_cdf)
    }

    fn evaluate<'a, I, W>(
        &mut self,
        p: Placement<'_>,
        predecessors: I,
        worth: Option<W>,
        end_cdf: Option<&mut EndCdf>,
    ) -> Option<f64>
    where
        I: Iterator<Item = (Option<u32>, Predecessor<'a>)> + Clone,
        W: FnOnce(f64) -> bool,
    {
        let step = p.step.max(1);
        let t0 = p.t0.max(p.now);
        if p.limit < t0 {
            if worth.is_some_and(|worth| !worth(0.0)) {
                return None;
            }
            if let Some(out) = end_cdf {
                *out = EndCdf { origin: p.limit, step, values: vec![1.0] };
            }
            return Some(0.0);
        }
        self.start_pdf(p, t0, step, predecessors);
        let last = ((p.limit - t0) / step) as usize;
        if let Some(worth) = worth
            && self.start_pdf.len() + p.own.len() <= SCREEN_MAX_LEN
            && !worth((self.direct_mass(p.own, last) + SCREEN_MARGIN).min(1.0))
        {
            return None;
        }
        self.convolver.convolve(&self.start_pdf, p.own, &mut self.end_pdf);
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
        Some(executable)
    }

    /// The start PDF on the grid t0 + kΔ into `start_pdf`.
    fn start_pdf<'a, I>(&mut self, p: Placement<'_>, t0: Time, step: Time, predecessors: I)
    where
        I: Iterator<Item = (Option<u32>, Predecessor<'a>)> + Clone,
    {
        // The start can be no later than the last predecessor's kill (or latest_start).
        let latest = predecessors.clone().map(|(_, pred)| pred.kill()).fold(p.latest_start.max(t0), Time::max);
        let m = ((latest - t0) + step - 1) / step;
        let m = m.max(0) as usize;
        self.start_cdf.clear();
        self.start_cdf.resize(m + 1, 1.0);
        let grid = grid_of(&p);
        for (key, pred) in predecessors {
            let kept = key.and_then(|key| self.factors.get(key, grid));
            let factor = match kept {
                Some(factor) => factor,
                None => {
                    let (from, kill) = self.factor(&p, t0, step, &pred);
                    match key {
                        // Its grid is read only on [from, kill), which does not
                        // depend on how long this start CDF is (kill ≤ m).
                        Some(key) if kill < self.start_cdf.len() => {
                            let factor = self.factors.insert(key, grid);
                            factor.from = from;
                            factor.kill = kill;
                            factor.middle.clear();
                            factor.middle.extend_from_slice(middle(&self.pred_grid, from, kill));
                            &*factor
                        }
                        _ => {
                            multiply(&mut self.start_cdf, from, kill, middle(&self.pred_grid, from, kill));
                            continue;
                        }
                    }
                }
            };
            multiply(&mut self.start_cdf, factor.from, factor.kill, &factor.middle);
        }
        self.start_cdf[m] = 1.0;
        increments(&self.start_cdf, &mut self.start_pdf);
    }

    /// One predecessor's factor of the start CDF on a grid of
    /// `start_cdf.len()` points: returns `(from, kill)`; the factor is 0
    /// before `from`, `pred_grid[from..kill]` up to `kill`, 1 after.
    fn factor(&mut self, p: &Placement<'_>, t0: Time, step: Time, pred: &Predecessor<'_>) -> (usize, usize) {
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
        let n = self.start_cdf.len();
        if hopeless {
            // No middle: the grid is left unfilled and must not be indexed.
            let kill = first_step_at(t0, step, pred.kill()).min(n);
            return (kill, kill);
        }
        let (from, kill) = pred.raw_on_grid(t0, step, n, cum, &mut self.pred_grid);
        // Before `from` the factor is 0 (conditioned too: the clamp), from
        // `kill` on exactly 1 (conditioned: x/x), so only the middle is read.
        if conditioned {
            for raw in &mut self.pred_grid[from..kill] {
                *raw = ((*raw - at_now) / (1.0 - at_now)).clamp(0.0, 1.0);
            }
        }
        (from, kill)
    }

    /// Σ_{i ≤ last} (start ∗ own)_i by the direct sum: Σ_k start_k · OwnCDF(last − k).
    fn direct_mass(&mut self, own: &[f64], last: usize) -> f64 {
        self.cumulative.clear();
        let mut acc = 0.0;
        self.cumulative.extend(own.iter().map(|&m| {
            acc += m;
            acc
        }));
        let Some(&total) = self.cumulative.last() else { return 0.0 };
        self.start_pdf
            .iter()
            .take(last + 1)
            .enumerate()
            .map(|(k, &s)| s * self.cumulative.get(last - k).copied().unwrap_or(total))
            .sum()
    }
}

/// Added to the direct-sum bound of [`Comprehensive::p_executable_if`]. Both
/// sums are of non-negative probability vectors of norm ≤ 1; the FFT's error
/// on their sum is below √N · O(log N · ε) ≈ 1e-10 for N ≤ 2^22 and the
/// direct sum's below N · ε, so 1e-6 leaves a factor of thousands.
pub const SCREEN_MARGIN: f64 = 1e-6;

/// Longer convolutions are never screened (the margin's error bound holds up to here).
const SCREEN_MAX_LEN: usize = 1 << 22;
