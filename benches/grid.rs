//! One §6.6 Grid run per algorithm: 4 clusters of 1160 CPUs, each running
//! its own 2-week window of SDSC Blue, and the R1 request workload (seed 1)
//! placed by the broker. Target: each run under 1 s.

mod common;

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::grid::config::GridConfig;
use slasim::grid::kind::run_grid_point;
use slasim::grid::workload::windows::GridLog;
use slasim::single::workload::WorkloadSource;

fn section_6_6(c: &mut Criterion) {
    let source = WorkloadSource::Swf {
        path: common::traces().join("swf").join("SDSC-BLUE-2000-4.2-cln.swf.gz"),
        lenient: false,
    };
    let log = Arc::new(GridLog::load(&source).expect("the SDSC-Blue log loads"));
    let mut group = c.benchmark_group("grid §6.6, 4 clusters, R1");
    group.sample_size(10);
    let easy = slasim::single::policy::StrategyRef::named("easy").expect("a built-in strategy");
    for algorithm in ["a1", "a2", "a3", "a3-star", "a3b"] {
        let config = GridConfig { clusters: 4, algorithm: algorithm.to_string(), ..GridConfig::default() };
        group.bench_function(algorithm, |b| b.iter(|| run_grid_point(&log, &config, easy, 1).expect("runs")));
    }
    group.finish();
}

criterion_group!(benches, section_6_6);
criterion_main!(benches);
