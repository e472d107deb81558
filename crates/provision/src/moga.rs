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

use rand::RngExt;
use slasim_core::setting::InvalidSetting;

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
    pub fn random(len: usize, rng: &mut impl rand::Rng) -> Genome {
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
    pub fn swap_range(&mut self, other: &mut Genome, from: usize, to: usize) {
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
pub fn sharing(d: f64, sigma_share: f64) -> f64 {
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
pub fn rank(objectives: &[Objectives], ranks: &mut Vec<usize>) {
    ranks.clear();
    ranks.extend(objectives.iter().map(|o| 1 + objectives.iter().filter(|p| p.dominates(o)).count()));
}

/// μ(r) (eq 9) and F_i (eq 10) from the ranks.
pub fn raw_fitness(ranks: &[usize], mu: &mut Vec<usize>, raw: &mut Vec<f64>) {
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
pub fn crossover(a: &mut Genome, b: &mut Genome, rng: &mut impl rand::Rng) {
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
