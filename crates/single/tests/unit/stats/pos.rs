use slasim_core::units::Time;
use slasim_single::stats::pdf::PercentPdf;
use slasim_single::stats::pdf::{BINS, Rounding, stepped};
use slasim_single::stats::pos::*;
use slasim_single::workload::failure_law::FailureLaw;

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
    let pred_cdf = EndCdf { origin: 0, step: 60, values: (0..=20).map(|k| if k < 20 { 0.0 } else { 1.0 }).collect() };
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

#[test]
fn grid_values_are_the_pointwise_ones() {
    let cum: Vec<f64> = (1..=7).map(|k| k as f64 / 8.0).collect();
    let cdf = EndCdf { origin: 130, step: 60, values: cum.clone() };
    let odd = EndCdf { origin: 130, step: 45, values: cum.clone() };
    let empty = EndCdf { origin: 0, step: 60, values: Vec::new() };
    let mut grid = Vec::new();
    for t0 in [-500, 0, 100, 130, 131, 190, 400, 900] {
        for kill in [t0 - 10, t0, 200, 520, 700, 10_000] {
            let preds = [
                Predecessor::Running { start: 100, kill, stepped: &[] },
                Predecessor::Running { start: 250, kill, stepped: &[] },
                Predecessor::Planned { cdf: &cdf, kill },
                Predecessor::Planned { cdf: &odd, kill },
                Predecessor::Planned { cdf: &empty, kill },
            ];
            for (i, pred) in preds.iter().enumerate() {
                let cum: &[f64] = if i < 2 { &cum } else { &[] };
                for n in [0, 1, 5, 30] {
                    let (from, kill) = pred.raw_on_grid(t0, 60, n, cum, &mut grid);
                    assert!(from <= kill && kill <= n);
                    assert!(grid[..from].iter().all(|&v| v == 0.0) && grid[kill..].iter().all(|&v| v == 1.0));
                    let pointwise: Vec<f64> = (0..n).map(|k| pred.raw(t0 + k as Time * 60, 60, cum)).collect();
                    assert_eq!(grid, pointwise, "{pred:?} t0 {t0} n {n}");
                }
            }
        }
    }
}

/// Predecessors named by keys give the bits of unnamed ones: on every
/// grid (conditioned and not, a predecessor hopeless at now, a planned
/// one on another step), for each subset, read back or computed, with
/// the end CDF; a key reused after forgetting names a new predecessor.
#[test]
fn kept_factors_give_the_same_bits() {
    let mut counts = [0u64; BINS];
    for (k, c) in counts.iter_mut().enumerate().skip(20) {
        *c = (k % 7 + 1) as u64;
    }
    let pdf = PercentPdf::from_counts(&counts);
    let (mut long, mut short, mut own) = (Vec::new(), Vec::new(), Vec::new());
    stepped(&pdf, 3 * H, 60, Rounding::Round, &mut long);
    stepped(&pdf, 20 * 60, 60, Rounding::Round, &mut short);
    stepped(&uniform_pdf(), 2 * H, 60, Rounding::Round, &mut own);
    let planned = EndCdf { origin: 600, step: 60, values: (1..=90).map(|k| f64::from(k) / 90.0).collect() };
    let odd = EndCdf { origin: 600, step: 45, values: (1..=90).map(|k| f64::from(k) / 90.0).collect() };
    let preds = [
        Predecessor::Running { start: 0, kill: 3 * H, stepped: &long },
        // Its model says it has ended by now = 1 h: hopeless.
        Predecessor::Running { start: 0, kill: 2 * H, stepped: &short },
        Predecessor::Planned { cdf: &planned, kill: 2 * H },
        Predecessor::Planned { cdf: &odd, kill: 2 * H + 600 },
    ];
    let (mut kept, mut plain) = (Comprehensive::new(), Comprehensive::new());
    // Never forgotten here: a factor kept on another grid must not be read.
    for now in [0, H] {
        for condition in [true, false] {
            for mask in 1..16u32 {
                for (latest_start, limit) in [(H, 3 * H), (4 * H, 5 * H), (0, 2 * H)] {
                    let place = Placement { now, t0: now, latest_start, limit, own: &own, step: 60, condition };
                    let chosen = || (0..4).filter(move |i| mask & (1 << i) != 0);
                    let (mut a, mut b) = (EndCdf::default(), EndCdf::default());
                    let keyed = chosen().map(|i| (i as u32, preds[i]));
                    let got = kept.p_executable_keyed(place, keyed, None::<fn(f64) -> bool>, Some(&mut a));
                    let want = plain.p_executable(place, chosen().map(|i| preds[i]), Some(&mut b));
                    assert_eq!(got.map(f64::to_bits), Some(want.to_bits()), "now {now} mask {mask}");
                    assert_eq!(a, b);
                }
            }
        }
    }
    // A fresh engine whose first predecessor is hopeless: its grid was
    // never filled.
    for keyed in [true, false] {
        let mut fresh = Comprehensive::new();
        let place = Placement { now: H, t0: H, latest_start: H, limit: 3 * H, own: &own, step: 60, condition: true };
        let got = if keyed {
            fresh.p_executable_keyed(place, [(1, preds[1])].into_iter(), None::<fn(f64) -> bool>, None)
        } else {
            Some(fresh.p_executable(place, [preds[1]].into_iter(), None))
        };
        let want = plain.p_executable(place, [preds[1]].into_iter(), None);
        assert_eq!(got.map(f64::to_bits), Some(want.to_bits()));
    }
    // After forgetting, key 0 names another predecessor.
    kept.forget_predecessors();
    let place = Placement { now: 0, t0: 0, latest_start: H, limit: 3 * H, own: &own, step: 60, condition: true };
    let got = kept.p_executable_keyed(place, [(0, preds[2])].into_iter(), None::<fn(f64) -> bool>, None);
    let want = plain.p_executable(place, [preds[2]].into_iter(), None);
    assert_eq!(got.map(f64::to_bits), Some(want.to_bits()));
}

/// The increments of the running maximum, fast path or not, by the
/// serial definition: rising, dipping, with zeros of both signs.
#[test]
fn increments_are_those_of_the_running_maximum() {
    let serial = |cdf: &[f64]| {
        let mut previous = 0.0;
        cdf.iter()
            .map(|&c| {
                let c = c.max(previous);
                let step = c - previous;
                previous = c;
                step.to_bits()
            })
            .collect::<Vec<u64>>()
    };
    let cases: [&[f64]; 7] = [
        &[],
        &[0.0, 0.1, 0.1, 0.35, 1.0],
        &[0.2, 0.5, 0.4999999999999999, 0.7, 1.0],
        &[-0.0, 0.0, 0.3, 1.0],
        &[0.0, -0.0, 0.3, 1.0],
        &[-1e-17, 0.2, 1.0],
        &[1.0],
    ];
    for cdf in cases {
        let mut pdf = vec![9.0];
        increments(cdf, &mut pdf);
        assert_eq!(pdf.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), serial(cdf), "{cdf:?}");
    }
}

#[test]
fn the_screen_bounds_the_convolution() {
    let mut own = Vec::new();
    stepped(&uniform_pdf(), 100 * 60, 60, Rounding::Round, &mut own);
    let pred_cdf = EndCdf { origin: 0, step: 60, values: (0..=80).map(|k| (k as f64 / 80.0).powi(2)).collect() };
    let pred = Predecessor::Planned { cdf: &pred_cdf, kill: 80 * 60 };
    let mut c = Comprehensive::new();
    for limit in [10, 50, 90, 150, 200] {
        let place =
            Placement { now: 0, t0: 0, latest_start: 80 * 60, limit: limit * 60, own: &own, step: 60, condition: true };
        let exact = c.p_executable(place, [pred].into_iter(), None);
        let mut seen = None;
        let kept = c.p_executable_if(
            place,
            [pred].into_iter(),
            |b| {
                seen = Some(b);
                true
            },
            None,
        );
        assert_eq!(kept, Some(exact));
        let bound = seen.expect("screened");
        assert!(bound >= exact && bound - SCREEN_MARGIN <= exact + 1e-12, "{bound} vs {exact}");
        assert_eq!(c.p_executable_if(place, [pred].into_iter(), |_| false, None), None);
    }
}
