//! Simulations on the real CTC-SP2 log.

mod common;

use slasim::experiment::point::Point;
use slasim::experiment::runner::run_points;
use slasim::policy::Placement;
use slasim::workload::WorkloadSource;
use slasim::workload::failures::FailureSource;
use slasim::workload::prepare::PrepareConfig;

fn ctc_points(strategy: &str, prepare: &PrepareConfig) -> Vec<Point> {
    let path = common::traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz");
    (0..prepare.batteries)
        .map(|battery| Point {
            strategy: strategy.to_string(),
            placement: Placement::BestFit,
            seed: 1,
            battery,
            workload: WorkloadSource::Swf { path: path.clone(), lenient: false },
            prepare: prepare.clone(),
            failures: FailureSource::None,
            overbooking: Default::default(),
        })
        .collect()
}

fn mean_accepted(strategy: &str, prepare: &PrepareConfig) -> (f64, f64) {
    let results = run_points(&ctc_points(strategy, prepare), 2, None).unwrap();
    assert!(results.iter().all(|r| r.unresolved == 0));
    let n = results.len() as f64;
    let accepted = results.iter().map(|r| f64::from(r.summary.accepted)).sum::<f64>() / n;
    let fees = results.iter().map(|r| r.summary.fees).sum::<f64>() / n;
    (accepted, fees)
}

/// 20 × 1000 jobs at 200 % estimated load, no failures: heuristic planning
/// accepts clearly more jobs than comprehensive backfilling (dissertation:
/// about 600 vs 330 of 1000).
#[test]
fn ctc_heuristic_planning_accepts_clearly_more_than_backfilling() {
    let prepare = PrepareConfig::default();
    let (cb, _) = mean_accepted("conservative-backfilling", &prepare);
    let (hp, _) = mean_accepted("heuristic-planning", &prepare);
    assert!(hp > 1.3 * cb, "heuristic planning {hp} vs comprehensive backfilling {cb}");
    assert!((450.0..650.0).contains(&cb), "comprehensive backfilling accepted {cb}");
    assert!((750.0..900.0).contains(&hp), "heuristic planning accepted {hp}");
}

/// With the thesis' own CTC parameters (occurrence factor 0.15, 430 nodes) the
/// fees sold per battery land near the thesis' figures (§9.5: 16,810 VC for
/// comprehensive backfilling, 26,280 VC for heuristic planning).
#[test]
fn ctc_with_the_thesis_parameters_sells_what_the_thesis_sold() {
    let prepare = PrepareConfig { occurrence_factor: Some(0.15), capacity: Some(430), ..PrepareConfig::default() };
    let (_, cb) = mean_accepted("conservative-backfilling", &prepare);
    let (_, hp) = mean_accepted("heuristic-planning", &prepare);
    assert!((cb / 16_810.0 - 1.0).abs() < 0.10, "comprehensive backfilling fees {cb}");
    assert!((hp / 26_280.0 - 1.0).abs() < 0.10, "heuristic planning fees {hp}");
}
