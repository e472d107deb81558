//! Parsing speed of the largest PWA log here: RICC-2010-2 (447,794 jobs,
//! 42 MB uncompressed, 3.7 MB gzip). Target: under 1.5 s.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::trace::swf::{ReadOptions, SwfTrace};

fn ricc() -> PathBuf {
    let dir = std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/traces"));
    dir.join("swf/RICC-2010-2.swf.gz")
}

fn parse_ricc(c: &mut Criterion) {
    let path = ricc();
    let mut group = c.benchmark_group("swf");
    group.sample_size(10);
    group.bench_function("parse RICC-2010-2 (gzip, 447,794 jobs)", |b| {
        b.iter(|| {
            let trace = SwfTrace::load(&path, ReadOptions::default()).expect("RICC-2010-2 loads");
            assert_eq!(trace.records.len(), 447_794);
            trace
        })
    });
    group.finish();
}

criterion_group!(benches, parse_ricc);
criterion_main!(benches);
