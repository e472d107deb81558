//! Scale. Targets: one 1000-job CEA-Curie battery (93,312 processors, LANL
//! failures) with conservative backfilling and with comprehensive
//! overbooking, each under 0.1 s; one 1000-job battery on a 100,000-processor
//! synthetic machine per strategy (the whole 20-battery sweep of
//! `configs/scale-100k.toml` must stay under 30 s for all five).

mod common;

use common::traces;
use criterion::{Criterion, criterion_group, criterion_main};
use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::single::point::{self, SinglePoint};
use slasim::single::policy::Placement;
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureSource;
use slasim::single::workload::prepare::PrepareConfig;
use slasim::single::workload::synthetic::SyntheticConfig;

const STRATEGIES: [&str; 5] = [
    "conservative-backfilling",
    "comprehensive-overbooking",
    "heuristic-planning",
    "heuristic-overbooking",
    "shortened-backfilling",
];

fn point(strategy: &str, workload: WorkloadSource) -> SinglePoint {
    SinglePoint {
        strategy: slasim::single::policy::StrategyRef::named(strategy).unwrap(),
        placement: Placement::BestFit,
        seed: 1,
        battery: 0,
        workload,
        prepare: PrepareConfig::default(),
        failures: FailureSource::default_for("lanl").expect("LANL is a known failure source"),
        overbooking: Default::default(),
        reservations: Default::default(),
        classic: Default::default(),
        batsim: None,
        energy: None,
        energy_policy: Default::default(),
        signals: None,
        shifting: None,
        store_jobs: true,
    }
}

fn bench_batteries(c: &mut Criterion, group: &str, strategies: &[&str], workload: WorkloadSource) {
    let points: Vec<SinglePoint> = strategies.iter().map(|s| point(s, workload.clone())).collect();
    let all: Vec<Point> = points.iter().cloned().map(Point::new).collect();
    let inputs = Inputs::load(&all).expect("the workload and LANL load");
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for point in &points {
        group.bench_function(format!("{}, 1000 jobs, LANL failures", point.strategy), |b| {
            b.iter(|| point::run(&inputs, point).expect("runs"))
        });
    }
    group.finish();
}

fn curie_battery(c: &mut Criterion) {
    let curie = WorkloadSource::Swf { path: traces().join("swf/CEA-Curie-2011-2.1-cln.swf.gz"), lenient: false };
    bench_batteries(c, "CEA-Curie battery", &STRATEGIES[..2], curie);
}

fn synthetic_100k_battery(c: &mut Criterion) {
    let machine = SyntheticConfig { processors: 100_000, ..SyntheticConfig::default() };
    bench_batteries(c, "100,000-processor synthetic battery", &STRATEGIES, WorkloadSource::Synthetic(machine));
}

criterion_group!(benches, curie_battery, synthetic_100k_battery);
criterion_main!(benches);
