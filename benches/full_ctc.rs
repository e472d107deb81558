//! One simulation of the whole CTC-SP2 log (77,222 jobs; 77,199 usable) at its
//! original arrival times, no failures. Targets: comprehensive backfilling
//! under 2 s, heuristic planning under 5 s.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::experiment::point::Point;
use slasim::experiment::runner::Inputs;
use slasim::policy::{Placement, build};
use slasim::sim::bench::{Scenario, simulate};
use slasim::workload::WorkloadSource;
use slasim::workload::failures::{FailureSource, FailureStream};
use slasim::workload::prepare::PrepareConfig;

fn traces() -> PathBuf {
    std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/traces"))
}

fn full_ctc(c: &mut Criterion) {
    let mut group = c.benchmark_group("full CTC-SP2");
    group.sample_size(10);
    for name in ["conservative-backfilling", "heuristic-planning"] {
        let point = Point {
            strategy: name.to_string(),
            placement: Placement::BestFit,
            seed: 1,
            battery: 0,
            workload: WorkloadSource::Swf { path: traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz"), lenient: false },
            prepare: PrepareConfig { whole_log: true, ..PrepareConfig::default() },
            failures: FailureSource::None,
            overbooking: Default::default(),
            reservations: Default::default(),
        };
        let inputs = Inputs::load(std::slice::from_ref(&point)).expect("CTC-SP2 loads");
        let prepared = inputs.prepared(&point).expect("prepared");
        let jobs = &prepared.batteries[0].jobs;
        let capacity = prepared.capacity;
        let settings = inputs.strategy_settings(&point).expect("settings");
        group.bench_function(name, |b| {
            b.iter(|| {
                let strategy = build(name, &settings, capacity).unwrap();
                let failures = FailureStream::none(capacity);
                let sim =
                    simulate(Scenario { capacity, jobs: jobs.clone(), failures, strategy, checkpoint: None }).unwrap();
                assert_eq!(sim.cluster.records.len(), 77_199);
                sim
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_ctc);
criterion_main!(benches);
