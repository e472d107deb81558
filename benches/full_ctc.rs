//! One simulation of the whole CTC-SP2 log (77,222 jobs; 77,199 usable) at its
//! original arrival times, no failures. Targets: comprehensive backfilling
//! under 2 s, heuristic planning under 5 s.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::build;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::prepare::PrepareConfig;

fn full_ctc(c: &mut Criterion) {
    let mut group = c.benchmark_group("full CTC-SP2");
    group.sample_size(10);
    for name in ["conservative-backfilling", "heuristic-planning"] {
        let prepare = PrepareConfig { whole_log: true, ..PrepareConfig::default() };
        let (jobs, capacity, settings) = common::whole_log(name, "CTC-SP2-1996-3.1-cln.swf.gz", prepare);
        group.bench_function(name, |b| {
            b.iter(|| {
                let strategy = build(name, &settings, capacity).unwrap();
                let failures = FailureStream::none(capacity);
                let sim = simulate(Scenario::new(capacity, jobs.clone(), failures, strategy)).unwrap();
                assert_eq!(sim.cluster.records.len(), 77_199);
                sim
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_ctc);
criterion_main!(benches);
