use slasim_core::units::Time;
use slasim_provision::load::*;
use slasim_single::workload::job::Job;

fn jobs(n: u32) -> Vec<Job> {
    (0..n).map(|i| Job::without_sla(i, Time::from(i) * 3600, 1 + i % 4, 1800, 1800)).collect()
}

#[test]
fn copy_is_shifted_thinned_and_renumbered() {
    let base = jobs(200);
    assert_eq!(with_shifted_copy(&base, 0.0, 1), base);
    let all = with_shifted_copy(&base, 1.0, 1);
    assert_eq!(all.len(), 400);
    assert!(all.windows(2).all(|w| w[0].occurrence <= w[1].occurrence));
    assert!(all.iter().enumerate().all(|(i, j)| j.id == i as u32));
    // Monotone in the probability: the kept copies at 0.3 are a subset of those at 0.6.
    let (a, b) = (with_shifted_copy(&base, 0.3, 9), with_shifted_copy(&base, 0.6, 9));
    assert!(a.len() < b.len());
    let keys = |v: &[Job]| v.iter().map(|j| (j.occurrence, j.swf_id)).collect::<std::collections::BTreeSet<_>>();
    assert!(keys(&a).is_subset(&keys(&b)));
}

#[test]
fn bisection_hits_the_target() {
    let base = jobs(2000);
    let u0 = offered_utilisation(&base, 8).unwrap();
    let target = u0 * 1.3;
    let (p, scaled) = scale_to(&base, 8, target, 5).unwrap();
    assert!(p > 0.0 && p < 1.0, "{p}");
    assert!((offered_utilisation(&scaled, 8).unwrap() - target).abs() < 0.01 * target);
    assert_eq!(scale_to(&base, 8, u0 * 0.5, 5).unwrap().0, 0.0);
    assert!(scale_to(&base, 8, 50.0, 5).unwrap_err().to_string().contains("target_load"));
    assert!(scale_to(&base, 8, f64::NAN, 5).is_err());
}
