//! SLA-aware shifting (`[shifting] policy = "sla-aware"`) in the planning
//! strategies: small schedules worked out by hand on a plain carbon file,
//! and the deadline property on random workloads and signals.

use crate::common;

use std::cell::Cell;
use std::sync::Arc;

use proptest::prelude::*;
use slasim::signal::{Alignment, Interpolation, Quantity, ReadOptions, Signal, read};
use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::strategy::Outcome;
use slasim::single::policy::shifting::{Shift, ShiftingConfig};
use slasim::single::policy::{Placement, build};
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;
use slasim::units::{HOUR, Time};

/// An hourly carbon signal over one week and an hour (it loops by weeks).
fn hourly(values: impl Fn(i64) -> f64) -> Signal {
    let times: Vec<i64> = (0..=168).map(|h| h * HOUR).collect();
    let values = (0..=168).map(values).collect();
    Signal::from_samples("hourly", Quantity::CarbonIntensity, Interpolation::Hold, times, values, HOUR).unwrap()
}

fn shift(signal: Signal, horizon: Time) -> Arc<Shift> {
    let aligned = Alignment::at(0).align(Arc::new(signal)).unwrap();
    let config = ShiftingConfig { policy: "sla-aware".to_string(), horizon, ..ShiftingConfig::default() };
    Arc::new(Shift::new(&config, aligned, 1).unwrap())
}

/// Runs `name` (best fit) on `capacity` nodes without failures, PoF_max
/// `pof_max` over PDFs learned from the jobs themselves, shifted by `shift`.
fn run(name: &str, capacity: u32, jobs: &[Job], pof_max: f64, shift: Option<Arc<Shift>>) -> Simulated {
    let mut settings = common::settings(name, Placement::BestFit, jobs, pof_max);
    settings.shifting = shift;
    let strategy = build(name, &settings, capacity).unwrap();
    simulate(Scenario::new(capacity, jobs.to_vec(), FailureStream::none(capacity), strategy)).unwrap()
}

fn starts(sim: &Simulated) -> Vec<Option<Time>> {
    sim.cluster.records.iter().map(|(_, r)| r.actual_start).collect()
}

/// The hand-checked case's signal, written as a user writes it: 300
/// gCO2eq/kWh, except 100 over hours 4 and 5 ([14,400, 21,600)).
fn cheap_window() -> Signal {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("carbon.csv");
    let mut text = String::from("time,gCO2eq/kWh\n");
    for h in 0..=168 {
        let v = if h == 4 || h == 5 { 100 } else { 300 };
        text.push_str(&format!("{},{v}\n", h * HOUR));
    }
    std::fs::write(&path, text).unwrap();
    read(&path, &ReadOptions::default()).unwrap()
}

/// Three jobs submitted at 0, exact estimates (runtime = estimate), on 2
/// nodes: j0 2 nodes × 1 h, deadline 10 h; j1 1 node × 1 h, deadline 2 h;
/// j2 1 node × 2 h, deadline 24 h.
fn three_jobs() -> Vec<Job> {
    vec![
        common::job_at(0, 0, 0, 10 * HOUR, HOUR, HOUR, 2),
        common::job_at(1, 0, 0, 2 * HOUR, HOUR, HOUR, 1),
        common::job_at(2, 0, 0, 24 * HOUR, 2 * HOUR, 2 * HOUR, 1),
    ]
}

/// Conservative backfilling, horizon one day, margin 1 %:
/// - unshifted: j0 [0, 1 h) on both nodes; j1 [1 h, 2 h), ending at its
///   deadline; j2 [1 h, 3 h) on the other node.
/// - shifted, in arrival order:
///   - j0: earliest 0, mean 300 over [0, 1 h). Window [0, min(0 + 24 h,
///     10 h − 1 h)] = [0, 9 h]. Hourly candidates 1 h, 2 h, …: 4 h is the
///     first with mean 100 < 300 − 3 (5 h ties, so 4 h stays): booked
///     [4 h, 5 h) on both nodes.
///   - j1: earliest 0 (both nodes free until 4 h). Window [0, min(24 h, 2 h −
///     1 h)] = [0, 1 h]: 1 h has mean 300, no lower. Its deadline forbids the
///     cheap window: it stays at 0.
///   - j2: earliest 0 on the node j1 left, mean 300 over [0, 2 h). Window
///     [0, 22 h]. A 2-h window meeting the cheap hours must overlap [4 h,
///     5 h), where j0 holds both nodes, or start at 5 h or later: at 5 h the
///     mean is (100 + 300) / 2 = 200 < 300 − 3, the lowest feasible one
///     (from 6 h on it is 300). Booked [5 h, 7 h).
#[test]
fn conservative_backfilling_books_the_cheap_window_its_deadline_allows() {
    let plain = run("conservative-backfilling", 2, &three_jobs(), 0.5, None);
    assert_eq!(starts(&plain), [Some(0), Some(HOUR), Some(HOUR)]);
    let shifted = run("conservative-backfilling", 2, &three_jobs(), 0.5, Some(shift(cheap_window(), 24 * HOUR)));
    assert_eq!(starts(&shifted), [Some(4 * HOUR), Some(0), Some(5 * HOUR)]);
    for (_, r) in shifted.cluster.records.iter() {
        assert_eq!(r.outcome, Some(Outcome::Success));
        assert_eq!(r.planned_start, r.actual_start);
    }
}

/// Comprehensive overbooking, best fit, PDFs learned from the jobs (all
/// exact: no overbooked slot passes), LANL reliability in the PoS (no
/// failure happens). A full booking's PoS is P_available^n · e^(−λ n x):
/// - j0 (2 nodes, 1 h): (1 / (1 + 1.2904e-4 / 0.4333))² · e^(−2 × 1.2904e-4)
///   = 0.99940 · 0.99974 = 0.99915, PoF 8.5e-4;
/// - j2 (1 node, 2 h): 0.99970 · e^(−2 × 1.2904e-4) = 0.99944, PoF 5.6e-4.
///
/// Comprehensive overbooking accepts a full booking without the test; a
/// shifted one must pass it.
/// - PoF_max 0.01: both pass; the schedule is conservative backfilling's.
/// - PoF_max 7e-4 (binding): j0's later booking fails the test, so j0 stays
///   at its earliest start [0, 1 h); j1's earliest is then [1 h, 2 h) and
///   its window [1 h, 1 h] holds no other start; j2's earliest is [1 h, 3 h)
///   and, with the cheap hours free, it is booked [4 h, 6 h) (mean 100, the
///   first of the lowest).
#[test]
fn comprehensive_overbooking_shifts_only_where_the_acceptance_test_holds() {
    let name = "comprehensive-overbooking";
    let loose = run(name, 2, &three_jobs(), 0.01, Some(shift(cheap_window(), 24 * HOUR)));
    assert_eq!(starts(&loose), [Some(4 * HOUR), Some(0), Some(5 * HOUR)]);
    let binding = run(name, 2, &three_jobs(), 7e-4, Some(shift(cheap_window(), 24 * HOUR)));
    assert_eq!(starts(&binding), [Some(0), Some(HOUR), Some(4 * HOUR)]);
    let pof: Vec<f64> = binding.cluster.records.iter().map(|(_, r)| r.pof.unwrap()).collect();
    assert!(pof[0] > 7e-4 && pof[2] < 7e-4, "{pof:?}");
    for (_, r) in binding.cluster.records.iter() {
        assert_eq!(r.outcome, Some(Outcome::Success));
    }
}

#[derive(Debug, Clone)]
struct Case {
    capacity: u32,
    jobs: Vec<Job>,
    carbon: Vec<f64>,
    horizon: Time,
    overbooking: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (1u32..=4, prop_oneof![Just(2 * HOUR), Just(6 * HOUR), Just(24 * HOUR)], any::<bool>())
        .prop_flat_map(|(capacity, horizon, overbooking)| {
            // Occurrence, nodes, estimate, slack (deadline = release + slack ×
            // estimate), all on a 10-minute grain.
            let job = (0..36i64, 1..=capacity, 1..=24i64, 1.0..4.0f64, prop::bool::weighted(0.1));
            let carbon = prop::collection::vec(50.0..500.0f64, 169);
            (Just(capacity), prop::collection::vec(job, 1..25), carbon, Just(horizon), Just(overbooking))
        })
        .prop_map(|(capacity, raw, carbon, horizon, overbooking)| {
            let mut raw = raw;
            raw.sort_by_key(|r| r.0);
            let jobs = raw
                .into_iter()
                .enumerate()
                .map(|(i, (o, n, x, slack, open))| {
                    let (o, x) = (o * 1800, x * 600);
                    let deadline = if open {
                        slasim::single::workload::job::NO_DEADLINE
                    } else {
                        o + ((slack * x as f64) as Time / 600).max(x / 600) * 600
                    };
                    common::job_at(i as u32, o, o, deadline, x, x, n)
                })
                .collect();
            Case { capacity, jobs, carbon, horizon, overbooking }
        })
}

/// With exact estimates and no failures, shifting makes no job miss a
/// deadline the unshifted plan met, and no accepted job misses its deadline
/// at all. The accepted sets may differ (each job is judged alone at its
/// arrival on what the plan holds then; a shifted job may leave an early
/// window to a later arrival or take a later one from it), so rejections
/// are compared only in the property's sense: a job the shifted run accepts
/// and the unshifted run served on time is served on time again; how many
/// more or fewer the shifted runs reject is counted and printed. Over all
/// cases, some jobs must have moved (else the property says nothing).
#[test]
fn shifting_never_makes_a_job_miss_a_deadline_the_plan_met() {
    let (moved, fewer, more) = (Cell::new(0usize), Cell::new(0usize), Cell::new(0usize));
    let mut runner = proptest::test_runner::TestRunner::new(common::testing::cases(64));
    let result = runner.run(&case(), |case| {
        let name = if case.overbooking { "comprehensive-overbooking" } else { "conservative-backfilling" };
        let carbon = case.carbon.clone();
        let signal = hourly(move |h| carbon[h as usize]);
        let plain = run(name, case.capacity, &case.jobs, 0.5, None);
        let shifted = run(name, case.capacity, &case.jobs, 0.5, Some(shift(signal, case.horizon)));
        let met = |sim: &Simulated, j: &Job| {
            let r = &sim.cluster.records[j.id as usize];
            r.outcome == Some(Outcome::Success) && r.actual_end.is_some_and(|e| e <= j.deadline)
        };
        let rejected = |sim: &Simulated| sim.cluster.records.iter().filter(|(_, r)| !r.accepted).count();
        let (a, b) = (rejected(&plain), rejected(&shifted));
        fewer.set(fewer.get() + usize::from(b < a));
        more.set(more.get() + usize::from(b > a));
        for j in &case.jobs {
            let r = &shifted.cluster.records[j.id as usize];
            if r.accepted {
                prop_assert!(met(&shifted, j), "{name}: job {} accepted but late or failed: {r:?}", j.id);
                let s = r.actual_start.unwrap();
                prop_assert!(s + j.estimate <= j.deadline, "{name}: job {} starts at {s}", j.id);
                moved.set(moved.get() + usize::from(plain.cluster.records[j.id as usize].actual_start != Some(s)));
            }
            if met(&plain, j) && r.accepted {
                prop_assert!(met(&shifted, j), "{name}: job {} met its deadline unshifted, not shifted", j.id);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (moved, fewer, more) = (moved.get(), fewer.get(), more.get());
    println!("shifted runs: {moved} jobs moved; fewer rejections in {fewer} cases, more in {more}");
    assert!(moved > 0, "no job was shifted in any case");
}

/// A point whose strategy cannot shift inside its plan is refused at config
/// time, naming the setting; a planning strategy takes it.
#[test]
fn only_planning_strategies_take_sla_aware_shifting() {
    use slasim::single::cluster::energy::EnergyConfig;
    use slasim::single::point::SinglePoint;
    use slasim::single::policy::StrategyRef;
    let point = |strategy: &str| SinglePoint {
        strategy: StrategyRef::named(strategy).unwrap(),
        placement: Placement::BestFit,
        seed: 1,
        battery: 0,
        workload: Default::default(),
        prepare: Default::default(),
        failures: slasim::single::workload::failures::FailureSource::None,
        overbooking: Default::default(),
        reservations: Default::default(),
        classic: Default::default(),
        batsim: None,
        energy: Some(EnergyConfig::watts(100.0, 200.0, 0.0)),
        energy_policy: Default::default(),
        signals: Some(toml::from_str("region = \"DE-LU\"").unwrap()),
        shifting: Some(ShiftingConfig { policy: "sla-aware".to_string(), ..ShiftingConfig::default() }),
        store_jobs: true,
    };
    for strategy in ["easy", "conservative", "heuristic-planning", "fcfs"] {
        let err = point(strategy).resolve(true).unwrap_err().to_string();
        assert!(err.contains("shifting.policy") && err.contains(strategy), "{strategy}: {err}");
    }
    for strategy in ["conservative-backfilling", "comprehensive-overbooking"] {
        let p = point(strategy).resolve(true).unwrap();
        assert_eq!(p.shifting.unwrap().policy, "sla-aware");
    }
}
