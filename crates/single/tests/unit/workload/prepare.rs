use slasim_data::trace::swf::SwfHeader;
use slasim_data::trace::swf::{SwfRecord, SwfTrace};
use slasim_single::workload::prepare::*;

fn record(job: i64, submit: i64, runtime: i64, procs: i64, estimate: i64) -> SwfRecord {
    SwfRecord { job, submit, runtime, allocated_procs: procs, requested_time: estimate, ..SwfRecord::UNKNOWN }
}

fn trace(records: Vec<SwfRecord>, max_procs: u32) -> SwfTrace {
    SwfTrace {
        name: "hand.swf".into(),
        header: SwfHeader::from_entries([("MaxProcs", max_procs.to_string())]),
        records,
        ..SwfTrace::default()
    }
}

fn small_config(input_jobs: usize, batteries: usize, battery_size: usize) -> PrepareConfig {
    PrepareConfig { input_jobs, batteries, battery_size, ..PrepareConfig::default() }
}

#[test]
fn deadline_fee_and_penalty_follow_the_dissertation() {
    // 4 processors × 2 h estimate: fee = 8 VC; d = o + 2x.
    let t = trace(vec![record(1, 0, 3000, 4, 7200), record(2, 100, 10, 1, 60)], 10);
    let cfg = PrepareConfig { penalty_ratio: 2.5, occurrence_factor: Some(1.0), ..small_config(2, 1, 2) };
    let p = cfg.prepare(&t).unwrap();
    let j = p.batteries[0].jobs[0];
    assert_eq!((j.occurrence, j.release, j.deadline), (0, 0, 14_400));
    assert_eq!(j.fee, 8.0);
    assert_eq!(j.penalty, 20.0);
    let k = p.batteries[0].jobs[1];
    assert_eq!((k.occurrence, k.release, k.deadline), (100, 100, 220));
    assert_eq!(k.fee, 1.0 / 60.0);
}

#[test]
fn scaling_hits_the_target_load_exactly() {
    // Capacity 10; four jobs of 5 nodes × 1 h spread over 10 h: load 0.2.
    let recs = (0..4).map(|i| record(i + 1, i * 12_000, 100, 5, 3600)).collect();
    let t = trace(recs, 10);
    let p = small_config(4, 1, 4).prepare(&t).unwrap();
    assert!((p.input_load - 0.2).abs() < 1e-15);
    assert!((p.occurrence_factor - 0.1).abs() < 1e-15);
    let jobs = &p.batteries[0].jobs;
    assert_eq!(jobs.iter().map(|j| j.occurrence).collect::<Vec<_>>(), vec![0, 1200, 2400, 3600]);
    let scaled = estimated_load(jobs.iter().map(|j| (j.occurrence, j.nodes, j.estimate)), 10).unwrap();
    assert_eq!(scaled, 2.0);
}

#[test]
fn split_keeps_the_last_jobs_for_input_and_batteries_in_order() {
    let recs = (0..10).map(|i| record(i + 1, i * 100, 50, 1, 100)).collect();
    let p = small_config(6, 3, 2).prepare(&trace(recs, 4)).unwrap();
    assert_eq!(p.history.iter().map(|j| j.swf_id).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    let ids: Vec<Vec<i64>> = p.batteries.iter().map(|b| b.jobs.iter().map(|j| j.swf_id).collect()).collect();
    assert_eq!(ids, vec![vec![5, 6], vec![7, 8], vec![9, 10]]);
    // Each battery starts at t = 0 with ids 0..size.
    for b in &p.batteries {
        assert_eq!(b.jobs[0].occurrence, 0);
        assert_eq!(b.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![0, 1]);
    }
}

#[test]
fn input_larger_than_batteries_uses_the_first_chunks() {
    let recs = (0..10).map(|i| record(i + 1, i * 100, 50, 1, 100)).collect();
    let p = small_config(8, 2, 3).prepare(&trace(recs, 4)).unwrap();
    assert_eq!(p.history.len(), 2);
    assert_eq!(p.batteries[1].jobs.iter().map(|j| j.swf_id).collect::<Vec<_>>(), vec![6, 7, 8]);
}

#[test]
fn filter_counts_each_reason() {
    let recs = vec![
        record(1, 0, 10, 1, 100),
        record(2, -1, 10, 1, 100),
        record(3, 5, -1, 1, 100),
        record(4, 6, 0, 1, 100),
        record(5, 7, 10, -1, 100),
        record(6, 8, 10, 1, -1),
        record(7, 9, 10, 99, 100),
        record(8, 10, 10, 2, 100),
        record(9, 11, 101, 1, 100),
        SwfRecord { status: 5, ..record(10, 12, 10, 1, 100) },
    ];
    // Every record completed (status 1) unless it says otherwise.
    let recs = recs.into_iter().map(|r| if r.status == -1 { SwfRecord { status: 1, ..r } } else { r }).collect();
    let mut config = small_config(2, 1, 2);
    config.filter.drop_overruns = true;
    config.filter.completed_only = true;
    let report = config.split(&trace(recs, 4)).unwrap().filter;
    assert_eq!(report.records, 10);
    assert_eq!(report.usable, 2);
    for reason in FilterReason::ALL {
        assert_eq!(report.dropped[&reason], 1, "{reason}");
    }
}

#[test]
fn jobs_are_ordered_by_submit_time() {
    let recs = vec![record(1, 300, 10, 1, 100), record(2, 100, 10, 1, 100), record(3, 200, 10, 1, 100)];
    let p = small_config(3, 1, 3).prepare(&trace(recs, 4)).unwrap();
    assert_eq!(p.batteries[0].jobs.iter().map(|j| j.swf_id).collect::<Vec<_>>(), vec![2, 3, 1]);
}

#[test]
fn whole_log_is_one_battery_at_original_times() {
    let recs = (0..5).map(|i| record(i + 1, 1000 + i * 100, 50, 1, 100)).collect();
    let p = PrepareConfig { whole_log: true, ..PrepareConfig::default() }.prepare(&trace(recs, 4)).unwrap();
    assert!(p.history.is_empty());
    assert_eq!(p.batteries.len(), 1);
    assert_eq!(p.occurrence_factor, 1.0);
    assert_eq!(p.batteries[0].jobs.iter().map(|j| j.occurrence).collect::<Vec<_>>(), vec![0, 100, 200, 300, 400]);
}

#[test]
fn node_unit_rounds_processors_up_to_nodes() {
    let mut t = trace(vec![record(1, 0, 10, 9, 100), record(2, 10, 10, 8, 100)], 32);
    t.header = SwfHeader::from_entries([("MaxNodes", "4"), ("MaxProcs", "32")]);
    let cfg = PrepareConfig { node_unit: NodeUnit::Nodes, ..small_config(2, 1, 2) };
    let p = cfg.prepare(&t).unwrap();
    assert_eq!(p.capacity, 4);
    assert_eq!(p.batteries[0].jobs.iter().map(|j| j.nodes).collect::<Vec<_>>(), vec![2, 1]);
}

#[test]
fn bad_settings_name_the_setting() {
    let t = trace(vec![record(1, 0, 10, 1, 100), record(2, 10, 10, 1, 100)], 4);
    let err = PrepareConfig { penalty_ratio: 0.0, ..small_config(2, 1, 2) }.prepare(&t).unwrap_err();
    assert!(err.to_string().contains("penalty_ratio"), "{err}");
    let err = small_config(2, 3, 1).prepare(&t).unwrap_err();
    assert!(err.to_string().contains("input_jobs"), "{err}");
    let err = small_config(5, 5, 1).prepare(&t).unwrap_err();
    assert!(matches!(err, PrepareError::TooFewJobs { usable: 2, .. }), "{err}");
}

#[test]
fn missing_header_capacity_is_a_clear_error() {
    let mut t = trace(vec![record(1, 0, 10, 1, 100)], 4);
    t.header = SwfHeader::default();
    let err = small_config(1, 1, 1).prepare(&t).unwrap_err();
    assert!(err.to_string().contains("MaxProcs"), "{err}");
}
