//! Sweep throughput with 1 and 2 worker threads: the CTC-SP2 chapter-6 points
//! of three batteries (450 points: every strategy, PoF_max 0.05 … 1.0, runtime
//! and resource PDFs, risk test) at the occurrence factor computed for 200 %
//! load on the log's 338 processors (the config's own factor and 430 nodes are
//! reset: a lighter load, so the bench takes minutes, not a quarter hour),
//! simulated without and with the SQLite writer. Target: 2 workers give at
//! least 1.7× the throughput of 1.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slasim::experiment::config::Experiment;
use slasim::experiment::coordinator::run_points;
use slasim::experiment::coordinator::{SweepOptions, run_sweep};
use slasim::experiment::point::Point;
use slasim::single::point::SinglePoint;

fn experiment() -> Experiment {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("SLASIM_TRACE_DIR").is_none() {
        // SAFETY: no other thread runs yet, so nothing reads the environment concurrently.
        unsafe { std::env::set_var("SLASIM_TRACE_DIR", root.join("../shared/data/traces")) };
    }
    let registry = slasim::registry();
    let e = Experiment::load(&registry, root.join("configs/ctc-sp2-chapter6.toml")).expect("config loads");
    let points = e.points.all(&registry).expect("points are made").into_iter().filter_map(|p| {
        let mut s = p.point.get::<SinglePoint>()?.clone();
        if s.battery >= 3 {
            return None;
        }
        s.prepare.occurrence_factor = None;
        s.prepare.capacity = None;
        Some((Point::new(s), p.sweep))
    });
    Experiment::from_points(&e.name, "sweep_scaling bench", points).expect("points")
}

fn scaling(c: &mut Criterion) {
    let e = experiment();
    let points: Vec<Point> =
        e.points.all(&slasim::registry()).expect("points are made").into_iter().map(|p| p.point).collect();
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.throughput(Throughput::Elements(points.len() as u64));
    for threads in [1, 2] {
        group.bench_function(format!("{} points, {threads} worker(s), no store", points.len()), |b| {
            b.iter(|| run_points(&slasim::registry(), &points, threads, None).expect("runs"))
        });
        group.bench_function(format!("{} points, {threads} worker(s), with the writer", points.len()), |b| {
            b.iter_with_setup(
                || tempfile::tempdir().expect("tempdir"),
                |dir| {
                    let options = SweepOptions { threads, shard: None, progress: false, interrupts: None };
                    run_sweep(&slasim::registry(), &e, &dir.path().join("s.sqlite"), &options).expect("sweeps")
                },
            )
        });
    }
    group.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
