//! Same settings and seed ⇒ byte-identical stored outcomes, whatever the thread count.

use slasim::experiment::coordinator::run_points;
use slasim::experiment::point::Point;
use slasim::single::point::SinglePoint;
use slasim::single::policy::{Placement, strategy_names};
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureSource;
use slasim::single::workload::prepare::PrepareConfig;
use slasim::single::workload::synthetic::SyntheticConfig;
use slasim::store::query;

fn points() -> Vec<Point> {
    let workload = WorkloadSource::Synthetic(SyntheticConfig { jobs: 3000, seed: 7, ..SyntheticConfig::default() });
    let prepare = PrepareConfig { input_jobs: 1000, batteries: 4, battery_size: 250, ..PrepareConfig::default() };
    // Failures dense enough that every battery sees some.
    let failures = FailureSource::Poisson { lambda_per_hour: 2e-3, mu_per_hour: 0.5 };
    let mut points = Vec::new();
    for strategy in strategy_names() {
        // An external scheduler (batsim) has its own determinism test (tests/integration/batsim.rs).
        if slasim::single::policy::strategy(strategy).unwrap().reads.scheduler {
            continue;
        }
        // A classic queueing mode runs the whole log: one battery.
        let queueing = slasim::single::policy::strategy(strategy).unwrap().queueing;
        for battery in 0..if queueing { 1 } else { 4 } {
            let point = SinglePoint {
                strategy: slasim::single::policy::StrategyRef::named(strategy).unwrap(),
                placement: Placement::BestFit,
                seed: 3,
                battery,
                workload: workload.clone(),
                prepare: prepare.clone(),
                failures: failures.clone(),
                overbooking: Default::default(),
                reservations: Default::default(),
                classic: Default::default(),
                batsim: None,
                energy: None,
                energy_policy: Default::default(),
                signals: None,
                shifting: None,
                store_jobs: true,
            };
            // The classic modes model no failures.
            points.push(Point::new(point.resolve(!queueing).unwrap()));
        }
    }
    points
}

fn dump(path: &std::path::Path, sql: &str) -> String {
    query(path, sql).unwrap().to_csv()
}

#[test]
fn same_seed_gives_byte_identical_jobs_rows_for_1_and_2_threads() {
    let dir = tempfile::tempdir().unwrap();
    let points = points();
    let mut dumps = Vec::new();
    for (threads, name) in [(1, "a.sqlite"), (2, "b.sqlite"), (2, "c.sqlite")] {
        let path = dir.path().join(name);
        let results = run_points(&slasim::registry(), &points, threads, Some(&path)).unwrap();
        assert!(results.iter().all(|r| !r.skipped));
        dumps.push((
            dump(&path, "SELECT * FROM jobs ORDER BY run_id, job"),
            dump(&path, "SELECT * FROM node_events ORDER BY run_id, seq"),
            dump(&path, "SELECT run_id, strategy, battery, seed, config, config_hash FROM runs ORDER BY run_id"),
        ));
    }
    assert!(dumps[0].0.lines().count() > 2000, "the runs stored their jobs");
    assert!(dumps[0].1.lines().count() > 10, "failures happened: {}", dumps[0].1.lines().count());
    assert_eq!(dumps[0], dumps[1], "1 thread vs 2 threads");
    assert_eq!(dumps[1], dumps[2], "two runs with 2 threads");
}

#[test]
fn a_second_run_into_the_same_store_skips_stored_points() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let points = &points()[..2];
    let first = run_points(&slasim::registry(), points, 2, Some(&path)).unwrap();
    let second = run_points(&slasim::registry(), points, 2, Some(&path)).unwrap();
    assert!(first.iter().all(|r| !r.skipped));
    assert!(second.iter().all(|r| r.skipped));
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.run_id, b.run_id);
        let (a, b) = (crate::common::summary(a), crate::common::summary(b));
        assert_eq!(a.accepted, b.accepted);
        assert!((a.gain - b.gain).abs() < 1e-9);
        assert!((a.utilisation - b.utilisation).abs() < 1e-9);
    }
    assert_eq!(dump(&path, "SELECT count(*) FROM runs"), "count(*)\n2\n");
}
