//! Paired differences, hand-checked.

use std::collections::BTreeMap;

use slasim_slurm::what_if::{Difference, Measure, Measures, Of, differences};

/// Differences 1, 2, 3: mean 2, s = 1, t(0.975; 2) = 4.303, so the
/// interval is 2 ± 4.303/√3 = [−0.484, 4.484]: within noise. Differences
/// 0.9, 1, 1, 1.1: mean 1, s = 0.0816, t(0.975; 3) = 3.182, so 1 ± 0.130:
/// significant. Identical pairs: [0, 0], within noise. One pair: no interval.
#[test]
fn a_difference_is_the_paired_t_interval() {
    let d = Difference::of(&[(10.0, 11.0), (10.0, 12.0), (10.0, 13.0)]).unwrap();
    let (low, high) = d.interval.unwrap();
    assert!((d.mean - 2.0).abs() < 1e-12 && (d.baseline - 10.0).abs() < 1e-12 && (d.value - 12.0).abs() < 1e-12);
    assert!((low + 0.484).abs() < 1e-3 && (high - 4.484).abs() < 1e-3, "{low} {high}");
    assert_eq!(d.verdict(), Some("within noise"));
    let d = Difference::of(&[(0.0, 0.9), (0.0, 1.0), (0.0, 1.0), (0.0, 1.1)]).unwrap();
    let (low, high) = d.interval.unwrap();
    assert!((low - 0.870).abs() < 1e-3 && (high - 1.130).abs() < 1e-3, "{low} {high}");
    assert_eq!(d.verdict(), Some("significant"));
    let same = Difference::of(&[(5.0, 5.0), (7.0, 7.0)]).unwrap();
    assert_eq!((same.interval, same.verdict()), (Some((0.0, 0.0)), Some("within noise")));
    let one = Difference::of(&[(1.0, 2.0)]).unwrap();
    assert_eq!((one.interval, one.verdict()), (None, None));
    assert!(Difference::of(&[]).is_none());
}

/// Replicas pair by index; a reason absent from a replica counts 0 there;
/// a group absent from a replica pairs nothing for it.
#[test]
fn replicas_pair_by_index_and_an_absent_reason_is_zero() {
    let replica = |wait: f64, reason: Option<f64>, group: Option<f64>| {
        let mut m = Measures::new();
        m.insert((Of::All, Measure::MeanWait), wait);
        if let Some(r) = reason {
            m.insert((Of::Reason("QOSMaxJobsPerUserLimit".into()), Measure::Jobs), r);
        }
        if let Some(g) = group {
            m.insert((Of::Group("partition".into(), "gpu".into()), Measure::MeanWait), g);
        }
        m
    };
    let baseline: BTreeMap<i64, Measures> =
        [(0, replica(1.0, None, Some(1.0))), (1, replica(2.0, Some(4.0), None)), (2, replica(3.0, None, Some(2.0)))]
            .into();
    // Replica 2 of the setting is missing: two pairs.
    let setting: BTreeMap<i64, Measures> =
        [(0, replica(2.0, Some(6.0), Some(2.0))), (1, replica(4.0, Some(8.0), Some(5.0)))].into();
    let rows = differences(&[baseline, setting]);
    let find = |of: Of, m: Measure| rows.iter().find(|(s, k, _)| *s == 1 && *k == (of.clone(), m)).map(|r| r.2);
    let wait = find(Of::All, Measure::MeanWait).unwrap();
    assert_eq!((wait.pairs, wait.mean), (2, 1.5));
    let reason = find(Of::Reason("QOSMaxJobsPerUserLimit".into()), Measure::Jobs).unwrap();
    assert_eq!((reason.pairs, reason.baseline, reason.value), (2, 2.0, 7.0));
    let gpu = find(Of::Group("partition".into(), "gpu".into()), Measure::MeanWait).unwrap();
    assert_eq!((gpu.pairs, gpu.mean), (1, 1.0));
    // In the report's order: all jobs first, then groups, then reasons.
    let order: Vec<&Of> = rows.iter().map(|(_, (of, _), _)| of).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
}
