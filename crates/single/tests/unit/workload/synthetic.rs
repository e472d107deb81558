use slasim_core::units::{DAY, HOUR};
use slasim_data::trace::swf::SwfRecord;
use slasim_single::workload::synthetic::*;

fn small() -> SyntheticConfig {
    SyntheticConfig { jobs: 20_000, ..SyntheticConfig::default() }
}

#[test]
fn same_seed_same_trace_other_seed_other_trace() {
    let a = small().generate().unwrap();
    assert_eq!(a, small().generate().unwrap());
    let b = SyntheticConfig { seed: 2, ..small() }.generate().unwrap();
    assert_ne!(a.records, b.records);
}

#[test]
fn sizes_are_biased_to_powers_of_two() {
    let t = small().generate().unwrap();
    let parallel: Vec<i64> = t.records.iter().map(|r| r.requested_procs).filter(|&n| n > 1).collect();
    let pow2 = parallel.iter().filter(|n| n.count_ones() == 1).count() as f64 / parallel.len() as f64;
    // Snapped share 0.7 plus the log-uniform draws that round onto a power of two.
    assert!(pow2 > 0.72, "power-of-two share {pow2}");
    let serial = t.records.iter().filter(|r| r.requested_procs == 1).count() as f64 / t.records.len() as f64;
    assert!((serial - 0.25).abs() < 0.02, "serial share {serial}");
    assert!(t.records.iter().all(|r| r.requested_procs >= 1 && r.requested_procs <= 128));
}

#[test]
fn ratio_has_both_spikes_a_body_and_overruns() {
    let t = small().generate().unwrap();
    let n = t.records.len() as f64;
    let ratio = |r: &SwfRecord| r.runtime as f64 / r.requested_time as f64;
    let near_zero = t.records.iter().filter(|r| ratio(r) < 0.02).count() as f64 / n;
    let full = t.records.iter().filter(|r| r.runtime == r.requested_time).count() as f64 / n;
    let over = t.records.iter().filter(|r| r.runtime > r.requested_time).count() as f64 / n;
    let body = t.records.iter().filter(|r| (0.1..0.9).contains(&ratio(r))).count() as f64 / n;
    assert!((0.12..0.16).contains(&near_zero), "near-zero spike {near_zero}");
    assert!((0.11..0.14).contains(&full), "spike at 100 % {full}");
    assert!((0.05..0.07).contains(&over), "over-runs {over}");
    assert!(body > 0.45, "body {body}");
}

#[test]
fn estimates_are_heavy_tailed_and_mostly_round() {
    let t = small().generate().unwrap();
    let mut est: Vec<i64> = t.records.iter().map(|r| r.requested_time).collect();
    est.sort_unstable();
    let median = est[est.len() / 2];
    let p99 = est[est.len() * 99 / 100];
    assert!(p99 > 8 * median, "median {median}, p99 {p99}");
    let round = t.records.iter().filter(|r| ROUND_ESTIMATES_MIN.contains(&(r.requested_time / 60))).count();
    assert!(round as f64 / t.records.len() as f64 > 0.85);
}

#[test]
fn arrivals_follow_the_daily_cycle_and_the_target_utilisation() {
    let cfg = small();
    let t = cfg.generate().unwrap();
    let mut by_hour = [0usize; 24];
    for r in &t.records {
        by_hour[((r.submit % DAY) / HOUR) as usize] += 1;
    }
    // Rate ratio between peak (14 h) and trough (2 h) is (1 + A)/(1 − A) = 4.
    let ratio = by_hour[14] as f64 / by_hour[2] as f64;
    assert!((3.0..5.5).contains(&ratio), "peak/trough {ratio}: {by_hour:?}");
    assert!(t.records.windows(2).all(|w| w[0].submit <= w[1].submit));
    let work: f64 = t.records.iter().map(|r| (r.requested_procs * r.runtime) as f64).sum();
    let span = (t.records.last().unwrap().submit - t.records[0].submit) as f64;
    let util = work / (256.0 * span);
    assert!((util - 0.65).abs() < 0.03, "utilisation {util}");
}

#[test]
fn invalid_parameters_name_the_setting() {
    let err = SyntheticConfig { daily_amplitude: 1.0, ..small() }.generate().unwrap_err();
    assert_eq!(err.setting, "daily_amplitude");
    let err =
        SyntheticConfig { ratio_spike_at_full: 0.9, ratio_spike_near_zero: 0.2, ..small() }.generate().unwrap_err();
    assert!(err.to_string().contains("must not exceed 1"));
}
