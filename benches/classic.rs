//! The classic queueing modes on the whole HPC2N-2002 log (202,871 jobs, 240
//! processors) at its original arrival times. Targets: `conservative` under
//! 5 s, `easy` under 2 s (peak memory of the full `slasim run` is measured
//! separately with `/usr/bin/time -v`, see the README).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::build;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::prepare::PrepareConfig;

fn full_hpc2n(c: &mut Criterion) {
    let mut group = c.benchmark_group("full HPC2N-2002");
    group.sample_size(10);
    for name in ["fcfs", "easy", "conservative"] {
        let prepare = PrepareConfig::default().for_classic_modes();
        let (jobs, capacity, settings) = common::whole_log(name, "HPC2N-2002-2.2-cln.swf.gz", prepare);
        assert_eq!((jobs.len(), capacity), (202_871, 240));
        group.bench_function(name, |b| {
            b.iter(|| {
                let strategy = build(name, &settings, capacity).unwrap();
                let failures = FailureStream::none(capacity);
                simulate(Scenario::new(capacity, jobs.clone(), failures, strategy)).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_hpc2n);
criterion_main!(benches);
