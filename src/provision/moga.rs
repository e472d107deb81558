//! Fonseca–Fleming multi-objective genetic algorithm (MOGA) for resource plans.
//!
//! Contract: [`run`] searches bit strings of a given length (bit i = 1 ⇔ advertised
//! slot i is in the plan) for the Pareto set of the bi-objective problem
//! `min (cost, makespan)`, calling a caller-supplied evaluator exactly
//! `population × (generations + 1)` times, and returns an [`Archive`] of mutually
//! non-dominated, feasible individuals with pairwise distinct objective vectors.
//! The module knows nothing about slots or workflows: the evaluator maps a
//! [`Genome`] to its [`Objectives`], returning [`Objectives::INFEASIBLE`] when the
//! plan cannot host the application. Given the same random generator state, the
//! result is identical on every run. [`select`] then picks one plan of the Pareto
//! set by the trade-off factor α.
//!
//! Implements the provisioning spec (Singh 2008, Ch 4):
//! - §3.3 Pareto dominance ([`Objectives::dominates`]);
//! - §3.5 MOGA: encoding, initial population, ranking (eq 8–9), fitness (eq 10),
//!   niching with the Euclidean normalised distance (eq 11), shared fitness (eq 12),
//!   scaling (eq 13), roulette selection (eq 14), two-point crossover, mutation 1/n,
//!   archive update, termination after a fixed number of generations;
//! - §3.6 selection by α (eq 15, [`select`]);
//! - §11 A9 (infeasible plans), A10 (σ_share, max = min guard), A11 (crossover and
//!   cut points), A12 (no duplicate objective vectors in the archive), A13 (eq 15
//!   ties and degenerate ranges);
//! - §13 items 6, 7, 8 (tests below).
//!
//! An empty archive (every evaluated plan infeasible) is possible; falling back to a
//! default plan (A9) is the caller's job.

use crate::setting::InvalidSetting;
use rand::RngExt;

/// The two objectives of a resource plan (§3.2): allocation cost AC and scheduling
/// cost SC (the application makespan). Both are minimised.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objectives {
    /// Allocation cost AC (eq 4).
    pub cost: f64,
    /// Scheduling cost SC: the makespan on the plan (eq 5).
    pub makespan: f64,
}

impl Objectives {
    /// The objectives of an infeasible plan (A9): both +∞, so every feasible plan
    /// dominates it and no two infeasible plans dominate each other.
    pub const INFEASIBLE: Objectives = Objectives { cost: f64::INFINITY, makespan: f64::INFINITY };

    /// Whether both objectives are finite. Anything else (∞ in either component,
    /// NaN) is treated as [`Objectives::INFEASIBLE`] by [`run`], [`fitness`],
    /// [`Archive::update`] and [`select`].
    pub fn is_feasible(&self) -> bool {
        self.cost.is_finite() && self.makespan.is_finite()
    }

    /// Pareto dominance (§3.3): `self` is no worse in both objectives and strictly
    /// better in at least one.
    pub fn dominates(&self, other: &Objectives) -> bool {
        self.cost <= other.cost
            && self.makespan <= other.makespan
            && (self.cost < other.cost || self.makespan < other.makespan)
    }

    /// `self`, or [`Objectives::INFEASIBLE`] if it is not feasible; makes partial
    /// infinities and NaN behave like the spec's infeasible plan.
    fn canonical(self) -> Objectives {
        if self.is_feasible() { self } else { Objectives::INFEASIBLE }
    }
}

/// MOGA parameters (§3.5, §12.2).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MogaConfig {
    /// Population size N (even, ≥ 2).
    pub population: usize,
    /// Number of generations after the initial population.
    pub generations: usize,
    /// Niche radius σ_share in normalised objective space (eq 11).
    pub sigma_share: f64,
}

impl Default for MogaConfig {
    /// The thesis' setting: N = 100, 10 generations, σ_share = 0.041.
    fn default() -> MogaConfig {
        MogaConfig { population: 100, generations: 10, sigma_share: 0.041 }
    }
}

impl MogaConfig {
    /// Checks the configuration: the population must be even (offspring come in
    /// pairs, A11) and at least 2; σ_share must be positive and finite.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.population < 2 {
            return Err(InvalidSetting::new("moga.population", self.population, "must be at least 2"));
        }
        if self.population % 2 != 0 {
            return Err(InvalidSetting::new("moga.population", self.population, "must be even"));
        }
        if !(self.sigma_share.is_finite() && self.sigma_share > 0.0) {
            return Err(InvalidSetting::new("moga.sigma_share", self.sigma_share, "must be a positive, finite number"));
        }
        Ok(())
    }
}

/// A fixed-length bit string: one individual (a resource plan) of the MOGA.
///
/// Bits beyond `len` in the last word are always zero, so equal bit strings compare
/// and hash equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Genome {
    words: Vec<u64>,
    len: usize,
}

impl Genome {
    /// A string of `len` zero bits.
    pub fn zeros(len: usize) -> Genome {
        Genome { words: vec![0; len.div_ceil(64)], len }
    }

    /// A string with the given bits, in order.
    pub fn from_bits(bits: impl IntoIterator<Item = bool>) -> Genome {
        let mut genome = Genome::default();
        for bit in bits {
            if genome.len % 64 == 0 {
                genome.words.push(0);
            }
            genome.len += 1;
            if bit {
                genome.set(genome.len - 1, true);
            }
        }
        genome
    }

    /// Each of `len` bits i.i.d. Bernoulli(0.5) (§3.5, initial population).
    fn random(len: usize, rng: &mut impl rand::Rng) -> Genome {
        let mut genome = Genome::zeros(len);
        for word in &mut genome.words {
            *word = rng.random::<u64>();
        }
        genome.clear_tail();
        genome
    }

    /// Number of bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the string has no bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; `false` for `i >= len()`.
    pub fn get(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i` to `value`.
    ///
    /// # Panics
    /// If `i >= len()`, like slice indexing.
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "bit {i} out of range for a genome of {} bits", self.len);
        let mask = 1u64 << (i % 64);
        if value {
            self.words[i / 64] |= mask;
        } else {
            self.words[i / 64] &= !mask;
        }
    }

    /// Inverts bit `i`.
    ///
    /// # Panics
    /// If `i >= len()`, like slice indexing.
    pub fn flip(&mut self, i: usize) {
        assert!(i < self.len, "bit {i} out of range for a genome of {} bits", self.len);
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// Number of set bits.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Indices of the set bits, ascending (the slots included in the plan).
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(k * 64 + bit)
            })
        })
    }

    /// Zeroes the unused high bits of the last word.
    fn clear_tail(&mut self) {
        let used = self.len % 64;
        if used != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << used) - 1;
        }
    }

    /// Exchanges bits `from..to` with `other` (same length); the core of crossover.
    fn swap_range(&mut self, other: &mut Genome, from: usize, to: usize) {
        let to = to.min(self.len).min(other.len);
        if from >= to {
            return;
        }
        let (first, last) = (from / 64, (to - 1) / 64);
        for k in first..=last {
            let lo = if k == first { from % 64 } else { 0 };
            let hi = if k == last { (to - 1) % 64 + 1 } else { 64 };
            let mask = if hi - lo == 64 { u64::MAX } else { ((1u64 << (hi - lo)) - 1) << lo };
            let diff = (self.words[k] ^ other.words[k]) & mask;
            self.words[k] ^= diff;
            other.words[k] ^= diff;
        }
    }
}

/// Counters of one MOGA run, for reporting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MogaStats {
    /// Evaluator calls: `population × (generations + 1)`.
    pub evaluations: usize,
    /// Evaluations that returned an infeasible plan.
    pub infeasible: usize,
    /// Individuals admitted to the archive (some may have been removed later).
    pub admitted: usize,
}

/// The external Pareto set (§3.5, archive update): feasible individuals, mutually
/// non-dominated, with pairwise distinct (cost, makespan) (A9, A12). Members keep
/// their admission order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Archive {
    members: Vec<(Genome, Objectives)>,
    stats: MogaStats,
}

impl Archive {
    /// An empty archive.
    pub fn new() -> Archive {
        Archive::default()
    }

    /// The members with their objectives, in admission order.
    pub fn members(&self) -> &[(Genome, Objectives)] {
        &self.members
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the archive has no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Counters of the run that built this archive (zero for a hand-built archive,
    /// except `admitted`).
    pub fn stats(&self) -> MogaStats {
        self.stats
    }

    /// Offers `genome` with `objectives` to the archive. It is admitted (and the
    /// members it dominates are removed) unless it is infeasible, dominated by a
    /// member, or has the same objectives as a member. Returns whether it was
    /// admitted.
    pub fn update(&mut self, genome: &Genome, objectives: Objectives) -> bool {
        if !objectives.is_feasible() {
            return false;
        }
        if self.members.iter().any(|(_, m)| m.dominates(&objectives) || *m == objectives) {
            return false;
        }
        // By transitivity a point dominated by no member cannot be dominated later
        // by a member it dominates, so removing here keeps the set non-dominated.
        self.members.retain(|(_, m)| !objectives.dominates(m));
        self.members.push((genome.clone(), objectives));
        self.stats.admitted += 1;
        true
    }

    /// The member chosen by trade-off factor `alpha` (eq 15, see [`select`]).
    pub fn select(&self, alpha: f64) -> Option<&(Genome, Objectives)> {
        select_by(self.members.len(), |i| self.members[i].1, alpha).map(|i| &self.members[i])
    }
}

/// Sharing function of eq 11. `d = 0` shares fully even for a degenerate σ_share.
fn sharing(d: f64, sigma_share: f64) -> f64 {
    if d == 0.0 {
        1.0
    } else if d < sigma_share {
        1.0 - d / sigma_share
    } else {
        0.0
    }
}

/// Buffers of the fitness computation, reused across generations.
#[derive(Default)]
struct Scratch {
    /// Canonical objectives (infeasible ⇒ INFEASIBLE).
    objectives: Vec<Objectives>,
    /// r_i (eq 8).
    ranks: Vec<usize>,
    /// μ(r), indexed by rank (eq 9).
    mu: Vec<usize>,
    /// Σ of shared fitness per rank (eq 13).
    rank_sums: Vec<f64>,
    /// Unshared fitness F_i (eq 10).
    raw: Vec<f64>,
}

/// r_i = 1 + number of members dominating i (eq 8); `ranks` is overwritten.
fn rank(objectives: &[Objectives], ranks: &mut Vec<usize>) {
    ranks.clear();
    ranks.extend(objectives.iter().map(|o| 1 + objectives.iter().filter(|p| p.dominates(o)).count()));
}

/// μ(r) (eq 9) and F_i (eq 10) from the ranks.
fn raw_fitness(ranks: &[usize], mu: &mut Vec<usize>, raw: &mut Vec<f64>) {
    let n = ranks.len();
    mu.clear();
    mu.resize(n + 2, 0);
    for &r in ranks {
        mu[r] += 1;
    }
    raw.clear();
    raw.extend(ranks.iter().map(|&r| {
        let better: usize = mu[1..r].iter().sum();
        n as f64 - better as f64 - 0.5 * (mu[r] as f64 - 1.0)
    }));
}

/// Eq 8–13 into `out`, using `scratch`'s buffers.
fn fitness_with(scratch: &mut Scratch, objectives: &[Objectives], sigma_share: f64, out: &mut Vec<f64>) {
    let Scratch { objectives: canon, ranks, mu, rank_sums, raw } = scratch;
    canon.clear();
    canon.extend(objectives.iter().map(|o| o.canonical()));
    rank(canon, ranks);
    raw_fitness(ranks, mu, raw);

    // Normalisation ranges over the feasible members of the population (A9, A10).
    let (mut ac_min, mut ac_max, mut sc_min, mut sc_max) =
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for o in canon.iter().filter(|o| o.is_feasible()) {
        ac_min = ac_min.min(o.cost);
        ac_max = ac_max.max(o.cost);
        sc_min = sc_min.min(o.makespan);
        sc_max = sc_max.max(o.makespan);
    }
    let component = |a: f64, b: f64, min: f64, max: f64| if max > min { (a - b) / (max - min) } else { 0.0 };
    let distance = |i: &Objectives, j: &Objectives| {
        if !i.is_feasible() || !j.is_feasible() {
            // Same rank and one infeasible ⇒ both infeasible: distance 0 (A9).
            return 0.0;
        }
        let dc = component(i.cost, j.cost, ac_min, ac_max);
        let ds = component(i.makespan, j.makespan, sc_min, sc_max);
        (dc * dc + ds * ds).sqrt()
    };

    // Shared fitness F_i / nc_i (eq 11–12); j = i is included, so nc_i ≥ 1.
    out.clear();
    for (i, oi) in canon.iter().enumerate() {
        let nc: f64 = canon
            .iter()
            .zip(ranks.iter())
            .filter(|&(_, &rj)| rj == ranks[i])
            .map(|(oj, _)| sharing(distance(oi, oj), sigma_share))
            .sum();
        out.push(raw[i] / nc);
    }

    // Scaling (eq 13): restores each rank's total fitness μ(r)·F.
    rank_sums.clear();
    rank_sums.resize(mu.len(), 0.0);
    for (&r, &f) in ranks.iter().zip(out.iter()) {
        rank_sums[r] += f;
    }
    for ((f, &r), &fr) in out.iter_mut().zip(ranks.iter()).zip(raw.iter()) {
        *f *= fr * mu[r] as f64 / rank_sums[r];
    }
}

/// The scaled shared fitness of each member of a population with the given
/// objectives (eq 8–13), written to `out` (cleared first). Every value is positive;
/// roulette selection (eq 14) draws member i with probability `out[i] / Σ out`.
/// Non-feasible objectives count as [`Objectives::INFEASIBLE`] (A9).
pub fn fitness(objectives: &[Objectives], sigma_share: f64, out: &mut Vec<f64>) {
    fitness_with(&mut Scratch::default(), objectives, sigma_share, out);
}

/// Eq 15 over members `0..len` whose objectives `at` yields.
fn select_by(len: usize, at: impl Fn(usize) -> Objectives, alpha: f64) -> Option<usize> {
    if !(0.0..=1.0).contains(&alpha) {
        return None;
    }
    let feasible = || (0..len).map(&at).filter(Objectives::is_feasible);
    let ac_min = feasible().map(|o| o.cost).fold(f64::INFINITY, f64::min);
    let ac_max = feasible().map(|o| o.cost).fold(f64::NEG_INFINITY, f64::max);
    let sc_min = feasible().map(|o| o.makespan).fold(f64::INFINITY, f64::min);
    let sc_max = feasible().map(|o| o.makespan).fold(f64::NEG_INFINITY, f64::max);
    let normalised = |x: f64, min: f64, max: f64| if max > min { (x - min) / (max - min) } else { 0.0 };

    let mut best: Option<(f64, Objectives, usize)> = None;
    for i in 0..len {
        let o = at(i);
        if !o.is_feasible() {
            continue;
        }
        let score = alpha * normalised(o.cost, ac_min, ac_max) + (1.0 - alpha) * normalised(o.makespan, sc_min, sc_max);
        // Ties (A13): lower makespan, then lower cost, then lower index (kept by `<`).
        let better = match best {
            None => true,
            Some((s, b, _)) => {
                score < s || (score == s && (o.makespan < b.makespan || (o.makespan == b.makespan && o.cost < b.cost)))
            }
        };
        if better {
            best = Some((score, o, i));
        }
    }
    best.map(|(_, _, i)| i)
}

/// The index of the plan of `front` (normally the Pareto set) minimising
/// `α·AC_nr + (1 − α)·SC_nr` (eq 15), with AC and SC normalised over the feasible
/// members of `front` (a term is 0 when its max equals its min). α = 0 minimises
/// makespan, α = 1 cost. Ties go to the lower makespan, then the lower cost, then
/// the lower index. `None` if `front` has no feasible member or `alpha` is outside
/// [0, 1] (validate α with `setting::probability`).
pub fn select(front: &[Objectives], alpha: f64) -> Option<usize> {
    select_by(front.len(), |i| front[i], alpha)
}

/// Two-point crossover (A11): two distinct cut points uniform in [1, n − 1], the
/// middle segment is exchanged; n = 2 ⇒ one-point at 1; n < 2 ⇒ copies.
fn crossover(a: &mut Genome, b: &mut Genome, rng: &mut impl rand::Rng) {
    let n = a.len();
    if n >= 3 {
        let c1 = rng.random_range(1..n);
        // Uniform over the other n − 2 points.
        let mut c2 = rng.random_range(1..n - 1);
        if c2 >= c1 {
            c2 += 1;
        }
        a.swap_range(b, c1.min(c2), c1.max(c2));
    } else if n == 2 {
        a.swap_range(b, 1, 2);
    }
}

/// Bit-flip mutation with probability 1/n per bit (§3.5).
fn mutate(genome: &mut Genome, rng: &mut impl rand::Rng) {
    let n = genome.len();
    if n == 0 {
        return;
    }
    let p = 1.0 / n as f64;
    for i in 0..n {
        if rng.random_bool(p) {
            genome.flip(i);
        }
    }
}

/// Runs the MOGA (§3.5) on `bits`-bit plans and returns the archive.
///
/// The initial population draws every bit Bernoulli(0.5); each generation ranks,
/// shares and scales fitness (eq 8–13), fills a mating pool of N by roulette
/// (eq 14), removes random pairs from it, applies two-point crossover (always) and
/// 1/n bit-flip mutation, replaces the population with the offspring, and offers
/// every new member to the archive. `evaluate` is called exactly
/// `population × (generations + 1)` times, in population order; randomness comes
/// only from `rng`, so the result is a function of the generator state.
///
/// `config` should have passed [`MogaConfig::validate`]; otherwise the run is still
/// defined (an odd population's unpaired parent is only mutated, a population of 0
/// evaluates nothing, a non-positive σ_share shares only identical points).
pub fn run<E: FnMut(&Genome) -> Objectives>(
    bits: usize,
    config: &MogaConfig,
    rng: &mut impl rand::Rng,
    mut evaluate: E,
) -> Archive {
    run_batched(bits, config, rng, |population, out| {
        out.clear();
        out.extend(population.iter().map(&mut evaluate));
    })
}

/// [`run`] with a population evaluated at once: `evaluate(population, out)`
/// fills `out` with one objective pair per genome, in order (so it may spread
/// the work over threads). The archive is updated in population order
/// afterwards, so the result is the same as [`run`]'s.
pub fn run_batched<E: FnMut(&[Genome], &mut Vec<Objectives>)>(
    bits: usize,
    config: &MogaConfig,
    rng: &mut impl rand::Rng,
    mut evaluate: E,
) -> Archive {
    let n = config.population;
    let mut archive = Archive::new();
    let mut population: Vec<Genome> = (0..n).map(|_| Genome::random(bits, rng)).collect();
    let mut next = population.clone();
    let mut objectives = Vec::with_capacity(n);
    let mut scratch = Scratch::default();
    let mut fit = Vec::with_capacity(n);
    let mut cumulative = Vec::with_capacity(n);
    let mut pool = Vec::with_capacity(n);

    let mut assess = |population: &[Genome], objectives: &mut Vec<Objectives>, archive: &mut Archive| {
        evaluate(population, objectives);
        // A batch evaluator that returns too few values leaves the rest infeasible.
        objectives.resize(population.len(), Objectives::INFEASIBLE);
        for (genome, o) in population.iter().zip(objectives.iter_mut()) {
            *o = o.canonical();
            archive.stats.evaluations += 1;
            if !o.is_feasible() {
                archive.stats.infeasible += 1;
            }
            archive.update(genome, *o);
        }
    };
    assess(&population, &mut objectives, &mut archive);

    for _ in 0..config.generations {
        if n == 0 {
            break;
        }
        fitness_with(&mut scratch, &objectives, config.sigma_share, &mut fit);
        cumulative.clear();
        let mut total = 0.0;
        for f in &fit {
            total += f;
            cumulative.push(total);
        }
        // Roulette (eq 14): N draws with replacement.
        pool.clear();
        for _ in 0..n {
            let u = rng.random::<f64>() * total;
            pool.push(cumulative.partition_point(|&c| c <= u).min(n - 1));
        }
        // Random pairs from the pool, crossed and mutated into the next population.
        let mut k = 0;
        while pool.len() >= 2 {
            let i = pool.swap_remove(rng.random_range(0..pool.len()));
            let j = pool.swap_remove(rng.random_range(0..pool.len()));
            let (head, tail) = next.split_at_mut(k + 1);
            let (a, b) = (&mut head[k], &mut tail[0]);
            a.clone_from(&population[i]);
            b.clone_from(&population[j]);
            crossover(a, b, rng);
            mutate(a, rng);
            mutate(b, rng);
            k += 2;
        }
        if let Some(i) = pool.pop() {
            next[k].clone_from(&population[i]);
            mutate(&mut next[k], rng);
        }
        std::mem::swap(&mut population, &mut next);
        assess(&population, &mut objectives, &mut archive);
    }
    archive
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};
    use proptest::prelude::*;

    fn obj(cost: f64, makespan: f64) -> Objectives {
        Objectives { cost, makespan }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// §13 item 7 population: a(1,5), b(2,3), c(4,1), d(3,4), e(5,5).
    fn item7() -> Vec<Objectives> {
        vec![obj(1.0, 5.0), obj(2.0, 3.0), obj(4.0, 1.0), obj(3.0, 4.0), obj(5.0, 5.0)]
    }

    #[test]
    fn item7_ranks_and_raw_fitness() {
        // d(3,4) is dominated by b(2,3) only ⇒ r = 2; e(5,5) by a, b, c, d ⇒ r = 5.
        let mut ranks = Vec::new();
        rank(&item7(), &mut ranks);
        assert_eq!(ranks, vec![1, 1, 1, 2, 5]);
        // μ(1) = 3, μ(2) = 1, μ(5) = 1. F = N − Σ_{k<r} μ(k) − 0.5(μ(r) − 1):
        // rank 1: 5 − 0 − 1 = 4; rank 2: 5 − 3 − 0 = 2; rank 5: 5 − 4 − 0 = 1.
        let (mut mu, mut raw) = (Vec::new(), Vec::new());
        raw_fitness(&ranks, &mut mu, &mut raw);
        assert_eq!((mu[1], mu[2], mu[5]), (3, 1, 1));
        assert_eq!(raw, vec![4.0, 4.0, 4.0, 2.0, 1.0]);
    }

    #[test]
    fn item7_no_sharing_at_default_sigma() {
        // Ranges: AC 1..5, SC 1..5 (width 4). Closest rank-1 pair a–b:
        // d = sqrt((1/4)² + (2/4)²) = sqrt(0.3125) = 0.559 > 0.041 ⇒ no sharing.
        let mut f = Vec::new();
        fitness(&item7(), 0.041, &mut f);
        assert_eq!(f, vec![4.0, 4.0, 4.0, 2.0, 1.0]);
        // p_i = F_i / 15 = .2667, .2667, .2667, .1333, .0667.
        let total: f64 = f.iter().sum();
        let p: Vec<f64> = f.iter().map(|x| x / total).collect();
        for (got, want) in p.iter().zip([0.2667, 0.2667, 0.2667, 0.1333, 0.0667]) {
            assert!(close(*got, want, 5e-5), "{p:?}");
        }
    }

    #[test]
    fn item7_sharing_at_sigma_0_6() {
        // d_ab = sqrt(0.3125) = 0.559017 ⇒ Sh = 1 − 0.559017/0.6 = 0.068305;
        // d_bc = sqrt(0.5) = 0.7071 > 0.6 and d_ac = 1.25 ⇒ 0.
        // nc_a = nc_b = 1.068305, nc_c = 1 ⇒ F' = 4/1.068305 = 3.744249 (a, b), 4 (c);
        // rank-1 sum 11.488498. Scaling: × 4·3/11.488498 = 1.044523
        // ⇒ 3.910954, 3.910954, 4.178092 (sum 12), matching the spec's 3.911 / 4.178.
        let mut f = Vec::new();
        fitness(&item7(), 0.6, &mut f);
        let want = [3.910954, 3.910954, 4.178092, 2.0, 1.0];
        for (got, want) in f.iter().zip(want) {
            assert!(close(*got, want, 1e-6), "{f:?}");
        }
        assert!(close(f[0] + f[1] + f[2], 12.0, 1e-12));
        let d_ab = (0.25f64 * 0.25 + 0.5 * 0.5).sqrt();
        assert!(close(1.0 + sharing(d_ab, 0.6), 1.0683, 5e-5));
    }

    #[test]
    fn infeasible_members_share_worst_rank_and_normalise_over_feasible() {
        // Two feasible points, three infeasible (one only partially infinite).
        let pop =
            vec![obj(1.0, 2.0), Objectives::INFEASIBLE, obj(2.0, 1.0), obj(3.0, f64::INFINITY), obj(f64::NAN, 1.0)];
        let mut f = Vec::new();
        fitness(&pop, 0.041, &mut f);
        // Feasible: rank 1 (μ = 2) ⇒ F = 5 − 0.5 = 4.5. Infeasible: rank 3 (μ = 3)
        // ⇒ F = 5 − 2 − 1 = 2; nc = 3 each, and scaling restores 2.
        assert_eq!(f, vec![4.5, 2.0, 4.5, 2.0, 2.0]);
        // All infeasible: one rank, F = (N + 1) / 2.
        fitness(&[Objectives::INFEASIBLE; 4], 0.041, &mut f);
        assert_eq!(f, vec![2.5; 4]);
        // Degenerate ranges (all equal): distance 0, full sharing, scaling restores F.
        fitness(&[obj(1.0, 1.0); 3], 0.041, &mut f);
        assert_eq!(f, vec![2.0; 3]);
    }

    #[test]
    fn item6_selection_by_alpha() {
        // AC_nr = 0, 0.2, 1; SC_nr = 1, 0.6, 0.
        // α = 0.5 ⇒ scores 0.5, 0.4, 0.5 ⇒ (120, 8).
        let po = [obj(100.0, 10.0), obj(120.0, 8.0), obj(200.0, 5.0)];
        assert_eq!(select(&po, 0.0), Some(2));
        assert_eq!(select(&po, 1.0), Some(0));
        assert_eq!(select(&po, 0.5), Some(1));
        assert_eq!(select(&[], 0.5), None);
        assert_eq!(select(&po, 1.5), None);
        assert_eq!(select(&po, f64::NAN), None);
    }

    #[test]
    fn selection_ties_and_degenerate_ranges() {
        // Scores at α = 0.5: 0.5 and 0.5 ⇒ lower makespan wins.
        assert_eq!(select(&[obj(0.0, 1.0), obj(1.0, 0.0)], 0.5), Some(1));
        // Equal makespan ⇒ SC term 0; α = 0 ⇒ all scores 0 ⇒ lower cost wins.
        assert_eq!(select(&[obj(3.0, 1.0), obj(2.0, 1.0)], 0.0), Some(1));
        // Identical points ⇒ lower index.
        assert_eq!(select(&[obj(2.0, 1.0), obj(2.0, 1.0)], 0.3), Some(0));
        // Infeasible members never chosen and do not enter the normalisation.
        assert_eq!(select(&[Objectives::INFEASIBLE, obj(5.0, 5.0)], 0.5), Some(1));
        assert_eq!(select(&[Objectives::INFEASIBLE], 0.5), None);
    }

    #[test]
    fn item8_dominance_and_archive() {
        assert!(obj(1.0, 1.0).dominates(&obj(1.0, 2.0)));
        assert!(!obj(1.0, 2.0).dominates(&obj(2.0, 1.0)));
        assert!(!obj(1.0, 1.0).dominates(&obj(1.0, 1.0)));
        assert!(obj(1e9, 1e9).dominates(&Objectives::INFEASIBLE));
        assert!(!Objectives::INFEASIBLE.dominates(&Objectives::INFEASIBLE));

        let g = |k: usize| Genome::from_bits((0..4).map(|i| i == k));
        let mut archive = Archive::new();
        assert!(archive.update(&g(0), obj(3.0, 1.0)));
        assert!(archive.update(&g(1), obj(1.0, 3.0)));
        assert!(archive.update(&g(2), obj(2.0, 2.5)));
        // Equal objectives (other genome) are not duplicated.
        assert!(!archive.update(&g(3), obj(2.0, 2.5)));
        // Dominated ⇒ rejected.
        assert!(!archive.update(&g(3), obj(3.0, 3.0)));
        // Infeasible ⇒ never admitted, even into an empty archive.
        assert!(!archive.update(&g(3), Objectives::INFEASIBLE));
        assert!(!Archive::new().update(&g(3), obj(1.0, f64::INFINITY)));
        assert_eq!(archive.len(), 3);
        // (1.5, 1) dominates (3, 1) and (2, 2.5) but not (1, 3).
        assert!(archive.update(&g(3), obj(1.5, 1.0)));
        let kept: Vec<Objectives> = archive.members().iter().map(|m| m.1).collect();
        assert_eq!(kept, vec![obj(1.0, 3.0), obj(1.5, 1.0)]);
        assert_eq!(archive.members()[1].0, g(3));
        assert_eq!(archive.select(1.0).map(|m| m.1), Some(obj(1.0, 3.0)));
    }

    #[test]
    fn config_validation() {
        assert_eq!(MogaConfig::default(), MogaConfig { population: 100, generations: 10, sigma_share: 0.041 });
        assert!(MogaConfig::default().validate().is_ok());
        let with = |population, sigma_share| MogaConfig { population, generations: 1, sigma_share };
        assert!(with(0, 0.041).validate().is_err());
        assert!(with(1, 0.041).validate().is_err());
        assert!(with(5, 0.041).validate().is_err());
        assert!(with(2, 0.041).validate().is_ok());
        assert!(with(4, 0.0).validate().is_err());
        assert!(with(4, f64::NAN).validate().is_err());
        assert!(with(4, f64::INFINITY).validate().is_err());
    }

    #[test]
    fn genome_bits() {
        let mut g = Genome::zeros(130);
        assert_eq!((g.len(), g.count_ones()), (130, 0));
        g.set(0, true);
        g.set(64, true);
        g.flip(129);
        g.flip(3);
        g.flip(3);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![0, 64, 129]);
        assert!(g.get(129) && !g.get(128) && !g.get(500));
        g.set(64, false);
        assert_eq!(g.count_ones(), 2);
        assert!(Genome::zeros(0).is_empty());
        assert_eq!(Genome::from_bits([true, false, true]).ones().collect::<Vec<_>>(), vec![0, 2]);
    }

    /// Toy problem with a known front: cost = number of ones, makespan = number of
    /// zeros among the first `k` bits. A plan is Pareto-optimal iff it has no ones
    /// beyond bit k; the front is {(c, k − c) : c = 0..=k}.
    fn toy(k: usize) -> impl FnMut(&Genome) -> Objectives {
        move |g: &Genome| {
            let head = g.ones().filter(|&i| i < k).count();
            obj(g.count_ones() as f64, (k - head) as f64)
        }
    }

    #[test]
    fn toy_front_is_found() {
        let (n, k) = (16, 8);
        let config = MogaConfig::default();
        let mut calls = 0;
        let mut eval = toy(k);
        let archive = run(n, &config, &mut stream(42, Stream::TieBreak, 0), |g| {
            calls += 1;
            eval(g)
        });
        assert_eq!(calls, 100 * 11);
        assert_eq!(archive.stats().evaluations, 1100);
        assert_eq!(archive.stats().infeasible, 0);
        let on_front = archive
            .members()
            .iter()
            .filter(|(g, o)| g.ones().all(|i| i < k) && o.cost + o.makespan == k as f64)
            .count();
        // Covers the front reasonably: most of its k + 1 = 9 points exactly.
        assert!(on_front >= 7, "{:?}", archive.members().iter().map(|m| m.1).collect::<Vec<_>>());
        // Ten generations need not polish every point: the rest lie one bit off the front.
        assert!(archive.members().iter().all(|(_, o)| o.cost + o.makespan <= (k + 1) as f64));
    }

    #[test]
    fn degenerate_lengths_and_populations() {
        for bits in 0..4 {
            let archive = run(
                bits,
                &MogaConfig { population: 4, generations: 3, sigma_share: 0.041 },
                &mut stream(1, Stream::TieBreak, 0),
                toy(bits),
            );
            assert_eq!(archive.stats().evaluations, 16);
            assert!(!archive.is_empty());
        }
        // Odd and tiny populations still evaluate N × (G + 1) times without panicking.
        for population in [0, 1, 3] {
            let config = MogaConfig { population, generations: 2, sigma_share: -1.0 };
            let archive = run(5, &config, &mut stream(1, Stream::TieBreak, 0), toy(3));
            assert_eq!(archive.stats().evaluations, population * 3);
        }
        // Everything infeasible ⇒ empty archive, all counted.
        let archive = run(10, &MogaConfig::default(), &mut stream(1, Stream::TieBreak, 0), |_| Objectives::INFEASIBLE);
        assert!(archive.is_empty());
        assert_eq!(archive.stats().infeasible, 1100);
    }

    /// Toy problem with infeasible plans: plans with fewer than 3 ones are infeasible.
    fn constrained(k: usize) -> impl FnMut(&Genome) -> Objectives {
        let mut inner = toy(k);
        move |g: &Genome| if g.count_ones() < 3 { Objectives::INFEASIBLE } else { inner(g) }
    }

    proptest! {
        #![proptest_config(crate::testing::cases(48))]

        #[test]
        fn runs_are_deterministic_and_non_dominated(seed in any::<u64>(), bits in 0usize..80, k in 0usize..12) {
            let k = k.min(bits);
            let config = MogaConfig { population: 20, generations: 4, sigma_share: 0.041 };
            let a = run(bits, &config, &mut stream(seed, Stream::TieBreak, 0), constrained(k));
            let b = run(bits, &config, &mut stream(seed, Stream::TieBreak, 0), constrained(k));
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(a.stats().evaluations, 20 * 5);
            for (i, (gi, oi)) in a.members().iter().enumerate() {
                prop_assert!(oi.is_feasible());
                prop_assert_eq!(gi.len(), bits);
                let mut eval = constrained(k);
                prop_assert_eq!(eval(gi), *oi);
                for (j, (_, oj)) in a.members().iter().enumerate() {
                    if i != j {
                        prop_assert!(!oi.dominates(oj) && oi != oj);
                    }
                }
            }
        }

        #[test]
        fn archive_is_the_distinct_non_dominated_set(
            points in prop::collection::vec((0u8..6, 0u8..6, any::<bool>()), 0..40)
        ) {
            let points: Vec<Objectives> = points
                .iter()
                .map(|&(c, m, ok)| if ok { obj(c.into(), m.into()) } else { Objectives::INFEASIBLE })
                .collect();
            let mut archive = Archive::new();
            for p in &points {
                archive.update(&Genome::zeros(1), *p);
            }
            let mut want: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.is_feasible() && !points.iter().any(|q| q.dominates(p)))
                .map(|p| (p.cost, p.makespan))
                .collect();
            want.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            want.dedup();
            let mut got: Vec<(f64, f64)> = archive.members().iter().map(|m| (m.1.cost, m.1.makespan)).collect();
            got.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            prop_assert_eq!(got, want);
        }

        #[test]
        fn scaling_preserves_rank_totals(points in prop::collection::vec((0u8..8, 0u8..8, 0u8..10), 1..30), sigma in 0.01f64..2.0) {
            let pop: Vec<Objectives> = points
                .iter()
                .map(|&(c, m, f)| if f == 0 { Objectives::INFEASIBLE } else { obj(c.into(), m.into()) })
                .collect();
            let mut f = Vec::new();
            fitness(&pop, sigma, &mut f);
            let (mut ranks, mut mu, mut raw) = (Vec::new(), Vec::new(), Vec::new());
            rank(&pop, &mut ranks);
            raw_fitness(&ranks, &mut mu, &mut raw);
            for r in 1..mu.len() {
                let got: f64 = (0..pop.len()).filter(|&i| ranks[i] == r).map(|i| f[i]).sum();
                let want: f64 = (0..pop.len()).filter(|&i| ranks[i] == r).map(|i| raw[i]).sum();
                prop_assert!((got - want).abs() <= 1e-9 * want.max(1.0));
            }
            prop_assert!(f.iter().all(|&x| x > 0.0 && x.is_finite()));
        }

        #[test]
        fn crossover_matches_reference(bits in 0usize..200, seed in any::<u64>()) {
            let mut rng = stream(seed, Stream::TieBreak, 1);
            let a0 = Genome::random(bits, &mut rng);
            let b0 = Genome::random(bits, &mut rng);
            let (mut a, mut b) = (a0.clone(), b0.clone());
            let from = if bits == 0 { 0 } else { seed as usize % bits };
            let to = from + (seed >> 32) as usize % (bits - from + 1);
            a.swap_range(&mut b, from, to);
            for i in 0..bits {
                let inside = (from..to).contains(&i);
                prop_assert_eq!(a.get(i), if inside { b0.get(i) } else { a0.get(i) });
                prop_assert_eq!(b.get(i), if inside { a0.get(i) } else { b0.get(i) });
            }
            // Crossover proper keeps the multiset of bits per position and the tail clean.
            let (mut c, mut d) = (a0.clone(), b0.clone());
            crossover(&mut c, &mut d, &mut rng);
            for i in 0..bits {
                prop_assert_eq!(c.get(i) as u8 + d.get(i) as u8, a0.get(i) as u8 + b0.get(i) as u8);
            }
            prop_assert_eq!(c.count_ones(), c.ones().count());
            prop_assert!(c.ones().all(|i| i < bits));
        }
    }
}
