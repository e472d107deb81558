use proptest::prelude::*;
use slasim_core::rng::{TIE_BREAK, stream};
use slasim_provision::moga::*;

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
    let pop = vec![obj(1.0, 2.0), Objectives::INFEASIBLE, obj(2.0, 1.0), obj(3.0, f64::INFINITY), obj(f64::NAN, 1.0)];
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
    let archive = run(n, &config, &mut stream(42, TIE_BREAK, 0), |g| {
        calls += 1;
        eval(g)
    });
    assert_eq!(calls, 100 * 11);
    assert_eq!(archive.stats().evaluations, 1100);
    assert_eq!(archive.stats().infeasible, 0);
    let on_front =
        archive.members().iter().filter(|(g, o)| g.ones().all(|i| i < k) && o.cost + o.makespan == k as f64).count();
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
            &mut stream(1, TIE_BREAK, 0),
            toy(bits),
        );
        assert_eq!(archive.stats().evaluations, 16);
        assert!(!archive.is_empty());
    }
    // Odd and tiny populations still evaluate N × (G + 1) times without panicking.
    for population in [0, 1, 3] {
        let config = MogaConfig { population, generations: 2, sigma_share: -1.0 };
        let archive = run(5, &config, &mut stream(1, TIE_BREAK, 0), toy(3));
        assert_eq!(archive.stats().evaluations, population * 3);
    }
    // Everything infeasible ⇒ empty archive, all counted.
    let archive = run(10, &MogaConfig::default(), &mut stream(1, TIE_BREAK, 0), |_| Objectives::INFEASIBLE);
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
        let a = run(bits, &config, &mut stream(seed, TIE_BREAK, 0), constrained(k));
        let b = run(bits, &config, &mut stream(seed, TIE_BREAK, 0), constrained(k));
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
        let mut rng = stream(seed, TIE_BREAK, 1);
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
