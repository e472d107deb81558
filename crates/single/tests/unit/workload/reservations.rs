use slasim_single::workload::job::Job;
use slasim_single::workload::reservations::*;

fn jobs(n: u32) -> Vec<Job> {
    (0..n)
        .map(|i| Job {
            id: i,
            swf_id: i64::from(i) + 100,
            occurrence: i64::from(i) * 60,
            release: i64::from(i) * 60,
            deadline: i64::from(i) * 60 + 7200,
            estimate: 3600,
            runtime: 1800,
            nodes: 1 + i % 4,
            user: -1,
            application: -1,
            queue: -1,
            fee: 1.0,
            penalty: 2.0,
            reservation: false,
        })
        .collect()
}

#[test]
fn copies_the_picked_jobs_with_a_delayed_fixed_window() {
    let base = jobs(200);
    let config = ReservationConfig { percent: 25.0, start_factor: 2.0, ..ReservationConfig::default() };
    let r = config.generate(&base, 7, 3);
    assert_eq!(r.len(), 50);
    assert_eq!(r, config.generate(&base, 7, 3), "seeded");
    assert_ne!(r, config.generate(&base, 8, 3), "another repetition, other picks");
    let mut sources: Vec<i64> = r.iter().map(|x| x.swf_id).collect();
    sources.dedup();
    assert_eq!(sources.len(), 50, "distinct jobs");
    for (k, x) in r.iter().enumerate() {
        let src = base[(x.swf_id - 100) as usize];
        assert_eq!(x.id as usize, 200 + k);
        assert!(x.reservation);
        assert_eq!((x.occurrence, x.nodes, x.estimate, x.runtime), (src.occurrence, src.nodes, 3600, 1800));
        let delay = x.release - x.occurrence;
        assert!((0..7200).contains(&delay), "U[0,1)·x·2: {delay}");
        assert_eq!(x.deadline, x.release + x.estimate);
        assert_eq!((x.fee, x.penalty), (1.0, 2.0));
    }
    // At 100 % every job is copied once; at 0 % none.
    let all = ReservationConfig { percent: 100.0, ..config.clone() }.generate(&base, 1, 0);
    assert_eq!(all.len(), 200);
    assert!(ReservationConfig { percent: 0.0, ..config }.generate(&base, 1, 0).is_empty());
}

#[test]
fn guard_and_validation() {
    let g = MoveGuard { max_moves: Some(2), max_delay_factor: Some(1.0) };
    assert!(!g.pins(1, 100, 3600));
    assert!(g.pins(2, 0, 3600));
    assert!(g.pins(0, 3601, 3600));
    assert!(!MoveGuard::default().pins(1000, 1_000_000, 1));
    let bad = ReservationConfig { percent: 120.0, ..ReservationConfig::default() };
    assert!(bad.validate().unwrap_err().to_string().contains("reservations.percent"));
    let bad = ReservationConfig { start_factor: -1.0, ..ReservationConfig::default() };
    assert!(bad.validate().is_err());
}
