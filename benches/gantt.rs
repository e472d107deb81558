//! A Gantt chart of a whole HPC2N-2002 run (202,871 jobs, classic
//! conservative backfilling): finding the busiest week, laying it out and
//! rendering it as SVG from the run's executions. Target: under 1 s. The
//! simulation that recovers the executions (the store keeps no node lists)
//! is timed once, apart, and printed.

mod common;

use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::report::gantt::layout::busiest_week;
use slasim::report::gantt::{Source, layout, render};
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::build;
use slasim::single::report::gantt::cluster_band;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::prepare::PrepareConfig;

fn gantt(c: &mut Criterion) {
    let name = "conservative";
    let prepare = PrepareConfig { whole_log: true, ..PrepareConfig::default() };
    let (jobs, capacity, settings) = common::whole_log(name, "HPC2N-2002-2.2-cln.swf.gz", prepare);
    let clock = Instant::now();
    let strategy = build(name, &settings, capacity).unwrap();
    let sim = simulate(Scenario::new(capacity, jobs, FailureStream::none(capacity), strategy)).unwrap();
    let cluster = sim.cluster;
    eprintln!(
        "HPC2N whole log: {} jobs, {} executions on {capacity} nodes, simulated with executions in {:.2} s",
        cluster.records.len(),
        cluster.executions.len(),
        clock.elapsed().as_secs_f64()
    );
    let band = cluster_band("HPC2N".into(), capacity, &cluster.records, &cluster.executions, &cluster.node_events);
    let source = Source { title: "HPC2N, whole log".into(), bands: vec![band] };
    let (week, _) = busiest_week(&source).unwrap();
    let chart = layout(&source, Some(week)).unwrap();
    eprintln!("busiest week {week:?}: {} bars, {} rows", chart.bars.len(), chart.rows.len());
    let mut group = c.benchmark_group("gantt HPC2N");
    group.sample_size(10);
    group.bench_function("busiest week: window, layout and SVG", |b| {
        b.iter(|| {
            let (week, _) = busiest_week(&source).unwrap();
            let chart = layout(&source, Some(week)).unwrap();
            render::svg(&chart)
        })
    });
    group.finish();
}

criterion_group!(benches, gantt);
criterion_main!(benches);
