//! Simulations on the real CTC-SP2 log.

use crate::common;

use slasim::experiment::coordinator::run_points;
use slasim::experiment::point::Point;
use slasim::single::point::SinglePoint;
use slasim::single::policy::Placement;
use slasim::single::policy::overbooking::OverbookingConfig;
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureSource;
use slasim::single::workload::prepare::PrepareConfig;

fn ctc_points(strategy: &str, prepare: &PrepareConfig) -> Vec<Point> {
    ctc_points_with(strategy, prepare, FailureSource::None, 0.1)
}

fn ctc_points_with(strategy: &str, prepare: &PrepareConfig, failures: FailureSource, pof_max: f64) -> Vec<Point> {
    let path = common::traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz");
    (0..prepare.batteries)
        .map(|battery| SinglePoint {
            strategy: slasim::single::policy::StrategyRef::named(strategy).unwrap(),
            placement: Placement::BestFit,
            seed: 1,
            battery,
            workload: WorkloadSource::Swf { path: path.clone(), lenient: false },
            prepare: prepare.clone(),
            failures: failures.clone(),
            overbooking: OverbookingConfig { pof_max, ..OverbookingConfig::default() },
            reservations: Default::default(),
            classic: Default::default(),
            batsim: None,
            energy: None,
            energy_policy: Default::default(),
            signals: None,
            shifting: None,
            store_jobs: true,
        })
        .map(|p| Point::new(p.resolve(true).expect("valid settings")))
        .collect()
}

/// Mean gain per battery on CTC-SP2 with LANL failures.
fn mean_gain(strategy: &str, prepare: &PrepareConfig, pof_max: f64) -> f64 {
    let lanl = FailureSource::default_for("lanl").unwrap();
    let results = run_points(&slasim::registry(), &ctc_points_with(strategy, prepare, lanl, pof_max), 2, None).unwrap();
    results.iter().map(|r| common::summary(r).gain).sum::<f64>() / results.len() as f64
}

/// With LANL failures: comprehensive overbooking beats comprehensive
/// backfilling at a low PoF_max and collapses at PoF_max 1; heuristic
/// overbooking rises above heuristic planning at a middle PoF_max and falls
/// again (docs: reproductions/overbooking-dissertation.md, the PoF_max curve).
#[test]
fn ctc_overbooking_gain_rises_then_falls() {
    let thesis = PrepareConfig { occurrence_factor: Some(0.15), capacity: Some(430), ..PrepareConfig::default() };
    let cb = mean_gain("conservative-backfilling", &thesis, 0.15);
    let co_low = mean_gain("comprehensive-overbooking", &thesis, 0.15);
    let co_high = mean_gain("comprehensive-overbooking", &thesis, 1.0);
    assert!(co_low > 1.3 * cb, "comprehensive overbooking {co_low} vs backfilling {cb}");
    assert!(co_high < 0.5 * co_low, "the gain collapses at PoF_max 1: {co_high} vs {co_low}");
    let computed = PrepareConfig::default();
    let hp = mean_gain("heuristic-planning", &computed, 0.5);
    let ho_low = mean_gain("heuristic-overbooking", &computed, 0.05);
    let ho_mid = mean_gain("heuristic-overbooking", &computed, 0.5);
    let ho_high = mean_gain("heuristic-overbooking", &computed, 1.0);
    assert!(ho_low >= hp - 1e-6, "no loss at a low PoF_max: {ho_low} vs {hp}");
    assert!(ho_mid > 1.03 * hp, "heuristic overbooking {ho_mid} vs planning {hp}");
    assert!(ho_high < ho_mid, "and falls again: {ho_high} vs {ho_mid}");
}

fn mean_accepted(strategy: &str, prepare: &PrepareConfig) -> (f64, f64) {
    let results = run_points(&slasim::registry(), &ctc_points(strategy, prepare), 2, None).unwrap();
    let n = results.len() as f64;
    let accepted = results.iter().map(|r| f64::from(common::summary(r).accepted)).sum::<f64>() / n;
    let fees = results.iter().map(|r| common::summary(r).fees).sum::<f64>() / n;
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
