use slasim_core::units::{DAY, Time};
use slasim_grid::workload::windows::*;
use slasim_single::workload::job::Job;

fn job(o: Time, n: u32, x: Time, w: Time) -> Job {
    Job { swf_id: o, ..Job::without_sla(0, o, n, x, w) }
}

#[test]
fn merging_joins_small_jobs_of_one_limit_within_an_hour() {
    let config = WindowConfig::default();
    let jobs = [
        job(0, 8, 3600, 100),     // opens group A (limit 3600)
        job(10, 16, 7200, 50),    // opens group B (limit 7200)
        job(20, 32, 3600, 900),   // joins A: 40 CPUs, runtime 900
        job(30, 200, 3600, 10),   // too wide to merge: alone
        job(1000, 100, 7200, 20), // joins B: 116 < 128
        job(1100, 20, 7200, 70),  // B would reach 136: opens B'
        job(3600, 8, 3600, 5),    // 3600 s after A's first: joins A (48)
        job(3601, 8, 3600, 5),    // 3601 s after: opens A'
        job(3800, 8, 7200, 90),   // 2700 s after B' opened: joins it (28, runtime 90)
    ];
    let merged = merge(&jobs, &config);
    let summary: Vec<(Time, u32, Time, Time)> =
        merged.iter().map(|j| (j.occurrence, j.nodes, j.estimate, j.runtime)).collect();
    assert_eq!(
        summary,
        vec![(0, 48, 3600, 900), (10, 116, 7200, 50), (30, 200, 3600, 10), (1100, 28, 7200, 90), (3601, 8, 3600, 5)]
    );
    // A group never reaches the merge bound.
    let crowd: Vec<Job> = (0..40).map(|i| job(i, 8, 600, 60)).collect();
    assert!(merge(&crowd, &config).iter().all(|j| j.nodes < 128));
    assert_eq!(merge(&crowd, &config).iter().map(|j| j.nodes).sum::<u32>(), 320);
}

#[test]
fn windows_are_disjoint_rebased_and_counted() {
    let config = WindowConfig { days: 1.0, merge_jobs: false, ..WindowConfig::default() };
    // A job every 6 h over 4 days, starting at t = 1000.
    let jobs: Vec<Job> = (0..16).map(|i| job(1000 + i * 6 * 3600, 4, 3600, 1800)).collect();
    let w = cut_windows(&jobs, 3, &config).unwrap();
    assert_eq!(w.iter().map(|w| w.jobs.len()).collect::<Vec<_>>(), vec![4, 4, 4]);
    assert_eq!(w[1].offset, 1000 + DAY);
    assert_eq!(w[1].jobs[0].occurrence, 0);
    assert_eq!(w[1].jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    assert!((w[0].wc_acc - 0.5).abs() < 1e-12);
    assert!((w[0].wc_acc_work - 0.5).abs() < 1e-12);
    // Three whole days after the first job: a fourth window does not fit.
    let err = cut_windows(&jobs, 4, &config).unwrap_err();
    assert_eq!(err.setting(), "grid.clusters");
    assert!(err.to_string().contains("(3)"), "{err}");
    // An offset moves every window.
    let shifted = WindowConfig { offset_days: 0.5, ..config };
    assert_eq!(cut_windows(&jobs, 1, &shifted).unwrap()[0].offset, 1000 + DAY / 2);
}
