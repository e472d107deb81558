use slasim_core::units::{DAY, Time};
use slasim_grid::workload::corequest::CoRequest;
use slasim_grid::workload::coreservations::*;
use slasim_single::workload::job::Job;

fn job(o: Time, n: u32, x: Time) -> Job {
    Job { swf_id: o, ..Job::without_sla(0, o, n, x, x / 2) }
}

fn settings(workload: RequestWorkload) -> RequestSettings {
    RequestSettings { workload, ..RequestSettings::default() }
}

#[test]
fn the_three_workloads_share_templates_and_draws() {
    let t_stop = 1_209_600;
    let jobs: Vec<Job> = (0..2000).map(|i| job(i * 600, 1 + (i % 300) as u32, 600 + (i % 48) * 1800)).collect();
    let r1 = requests(&jobs, &settings(RequestWorkload::R1), t_stop, 1160, 9);
    let r2 = requests(&jobs, &settings(RequestWorkload::R2), t_stop, 1160, 9);
    let r3 = requests(&jobs, &settings(RequestWorkload::R3), t_stop, 1160, 9);
    // About 10 % of the jobs are templates.
    assert!((150..250).contains(&r1.len()), "{}", r1.len());
    assert_eq!((r1.len(), r2.len()), (r2.len(), r3.len()));
    let key = |r: &CoRequest| (r.template, r.earliest_start, r.duration, r.parts.clone());
    let mut a: Vec<_> = r1.iter().map(key).collect();
    let mut b: Vec<_> = r3.iter().map(key).collect();
    a.sort_by_key(|k| k.0);
    b.sort_by_key(|k| k.0);
    assert_eq!(a, b);
    for r in &r1 {
        let (wc, c) = (r.duration, r.parts[0]);
        // One u for size and start: parts[1] = round(0.7c + 0.6uc) with u = f / t_stop.
        let u = r.earliest_start as f64 / t_stop as f64;
        let expected = (0.7 * f64::from(c) + 0.6 * u * f64::from(c)).round().clamp(1.0, 1160.0) as u32;
        assert!(r.parts[1].abs_diff(expected) <= 1, "{r:?}");
        assert_eq!(r.span(), (6 * wc).min(DAY));
        assert_eq!(r.submit, (r.earliest_start - 3 * wc).max(0));
    }
    assert!(r3.iter().all(|r| r.span() == (3 * r.duration).min(DAY)));
    assert!(r2.iter().all(|r| r.submit == (r.earliest_start - r.duration / 2).max(0)));
    // Submit order and dense ids.
    assert!(r1.windows(2).all(|w| w[0].submit <= w[1].submit));
    assert!(r1.iter().enumerate().all(|(i, r)| r.id as usize == i));
    // Another seed, other templates.
    assert_ne!(requests(&jobs, &settings(RequestWorkload::R1), t_stop, 1160, 10), r1);
}

#[test]
fn the_6_8_series_have_6_hour_spans_and_a_duplicated_third_part() {
    let jobs: Vec<Job> = (0..3000).map(|i| job(i * 400, 64, 3600)).collect();
    let two = requests(&jobs, &settings(RequestWorkload::Span6h2Part), 1_209_600, 1160, 3);
    let three = requests(&jobs, &settings(RequestWorkload::Span6h3Part), 1_209_600, 1160, 3);
    assert!(two.iter().all(|r| r.span() == 21_600 && r.submit == (r.earliest_start - 30).max(0)));
    assert!(three.iter().all(|r| r.parts.len() == 3 && r.parts[1] == r.parts[2]));
    // Every third template is dropped: 2/3 as many, rounded up.
    assert_eq!(three.len(), two.len() - two.len() / 3);
    // Parts are capped at the cluster size.
    let wide = [job(0, 1152, 3600)];
    let r =
        requests(&wide, &RequestSettings { template_probability: 1.0, ..settings(RequestWorkload::R1) }, 100, 1000, 1);
    assert!(r[0].parts[1] <= 1000);
}
