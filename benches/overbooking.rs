//! Overbooking costs. Targets: one comprehensive PoS evaluation (4
//! predecessors, 1000-step PDFs) under 50 µs; one 1000-job CTC-SP2 battery
//! (200 % load, LANL failures) with comprehensive overbooking under 1 s.

mod common;

use common::traces;
use criterion::{Criterion, criterion_group, criterion_main};
use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::single::point;
use slasim::single::point::SinglePoint;
use slasim::single::policy::Placement;
use slasim::single::stats::pos::{Comprehensive, EndCdf, Placement as Place, Predecessor};
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureSource;
use slasim::single::workload::prepare::PrepareConfig;

/// A smooth 1000-step PDF.
fn pdf(shift: f64) -> Vec<f64> {
    let raw: Vec<f64> = (0..=1000).map(|k| ((k as f64 / 1000.0 - shift).powi(2) * -8.0).exp()).collect();
    let sum: f64 = raw.iter().sum();
    raw.into_iter().map(|v| v / sum).collect()
}

fn one_pos(c: &mut Criterion) {
    let step = 60;
    let own = pdf(0.5);
    let running = [pdf(0.3), pdf(0.6)];
    // Two planned predecessors with 1000-step end CDFs.
    let planned: Vec<EndCdf> = [0.4, 0.7]
        .iter()
        .map(|&s| {
            let mut acc = 0.0;
            let values = pdf(s)
                .iter()
                .map(|m| {
                    acc += m;
                    acc.min(1.0)
                })
                .collect();
            EndCdf { origin: 0, step, values }
        })
        .collect();
    let kill = 1000 * step;
    let preds = [
        Predecessor::Running { start: -200 * step, kill, stepped: &running[0] },
        Predecessor::Running { start: -100 * step, kill, stepped: &running[1] },
        Predecessor::Planned { cdf: &planned[0], kill },
        Predecessor::Planned { cdf: &planned[1], kill },
    ];
    let place = Place { now: 0, t0: 0, latest_start: kill, limit: 1600 * step, own: &own, step, condition: true };
    let mut engine = Comprehensive::new();
    c.bench_function("comprehensive PoS (4 predecessors, 1000-step PDFs)", |b| {
        b.iter(|| engine.p_executable(place, preds.iter().copied(), None))
    });
}

fn ctc_battery(c: &mut Criterion) {
    let point = SinglePoint {
        strategy: slasim::single::policy::StrategyRef::named("comprehensive-overbooking").unwrap(),
        placement: Placement::BestFit,
        seed: 1,
        battery: 0,
        workload: WorkloadSource::Swf { path: traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz"), lenient: false },
        prepare: PrepareConfig::default(),
        failures: FailureSource::default_for("lanl").unwrap(),
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
    let inputs = Inputs::load(&[Point::new(point.clone())]).expect("CTC-SP2 and LANL load");
    let mut group = c.benchmark_group("CTC-SP2 battery");
    group.sample_size(10);
    group.bench_function("comprehensive-overbooking, 1000 jobs, LANL failures", |b| {
        b.iter(|| point::run(&inputs, &point).expect("runs"))
    });
    group.finish();
}

criterion_group!(benches, one_pos, ctc_battery);
criterion_main!(benches);
