use slasim_core::report::summary::*;

#[test]
fn student_t_interval_by_hand() {
    // 2, 4, 6: mean 4, s = 2, t(0.975, 2) = 4.302653, half = 4.302653·2/√3 = 4.968275.
    let ci = mean_ci(&[2.0, 4.0, 6.0]).unwrap();
    assert_eq!(ci.mean, 4.0);
    assert!((t_quantile_975(2) - 4.302_653).abs() < 1e-5);
    assert!((ci.half - 4.968_275).abs() < 1e-5, "{}", ci.half);
    // Twenty batteries: t(0.975, 19) = 2.093024.
    assert!((t_quantile_975(19) - 2.093_024).abs() < 1e-5);
    assert_eq!(mean_ci(&[7.0]).unwrap(), MeanCi { mean: 7.0, half: 0.0, n: 1 });
    assert_eq!(mean_ci(&[]), None);
    let a = MeanCi { mean: 10.0, half: 1.0, n: 3 };
    assert!(a.overlaps(&MeanCi { mean: 11.5, half: 0.6, n: 3 }));
    assert!(!a.overlaps(&MeanCi { mean: 12.5, half: 1.0, n: 3 }));
    let c = ci_from(4.0, 2.0, 3);
    assert!((c.half - ci.half).abs() < 1e-12);
}

#[test]
fn wilson_interval_by_hand() {
    // 3 of 10, z = 1.96: centre (0.3 + z²/20)/(1 + z²/10) = 0.35551, half 0.24772 → [0.1078, 0.6032].
    let (lo, hi) = wilson(3, 10).unwrap();
    assert!((lo - 0.107_789).abs() < 1e-5, "{lo}");
    assert!((hi - 0.603_216).abs() < 1e-5, "{hi}");
    let (lo, hi) = wilson(0, 5).unwrap();
    assert_eq!(lo, 0.0);
    assert!((hi - 0.434_482).abs() < 1e-5, "{hi}");
    assert_eq!(wilson(5, 5).unwrap().1, 1.0);
    assert_eq!(wilson(0, 0), None);
}

#[test]
fn brier_and_additional_gain() {
    // (0.1, miss): 0.01; (0.8, hit): 0.04; (0.5, miss): 0.25 → 0.1.
    let b = brier([(0.1, false), (0.8, true), (0.5, false)]).unwrap();
    assert!((b - 0.1).abs() < 1e-15);
    assert_eq!(brier(std::iter::empty()), None);
    // CTC, Table 6.1: 23,300 over 14,260 is +63.4 %.
    assert!((additional_percent(23_300.0, 14_260.0).unwrap() - 63.394).abs() < 1e-3);
    // LANL, Table 6.6: a negative base gives a negative percentage.
    assert!(additional_percent(7_633.0, -29_532.0).unwrap() < 0.0);
    assert_eq!(additional_percent(1.0, 0.0), None);
}
