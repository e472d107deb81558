//! The SLA admission environment's exchange: one arrival put to the agent
//! and its decision taken back (`AdmissionEnv::step`), the agent being the
//! dissertation's acceptance rule (`AdmissionEnv::baseline`), so the figure
//! is the environment's own cost. Two episodes: one battery of the default
//! point (500 jobs, Poisson failures), and the whole KTH-SP2 log (28,475
//! jobs, no failures, runtime PDFs learned from the log itself). Criterion's throughput line is steps per second;
//! µs per exchange is its inverse, the simulation included.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slasim::gym::admission::AdmissionEnv;

/// Steps of one episode on battery 0 with the baseline's decisions.
fn episode(env: &mut AdmissionEnv) -> u64 {
    let mut steps = 0;
    let mut waiting = env.reset(3, Some(0)).expect("reset");
    while waiting {
        let action = env.baseline();
        waiting = !env.step(action).expect("step").terminated;
        steps += 1;
    }
    steps
}

fn bench(c: &mut Criterion, name: &str, mut env: AdmissionEnv, samples: usize) {
    let steps = episode(&mut env);
    eprintln!("admission/{name}: {steps} steps an episode");
    let mut group = c.benchmark_group("admission");
    group.sample_size(samples);
    group.throughput(Throughput::Elements(steps));
    group.bench_function(name, |b| b.iter(|| episode(&mut env)));
    group.finish();
}

fn admission(c: &mut Criterion) {
    bench(c, "default-battery", AdmissionEnv::default_point(8).expect("the default point"), 20);
    let kth = common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz");
    let text = format!(
        "name = \"sla-admission-kth\"\nplacement = \"best-fit\"\n\n[workload]\ntrace = {:?}\n\n\
         [prepare]\nwhole_log = true\n\n[failures]\nmodel = \"none\"\n\n\
         [overbooking.pdf]\nlearn_from = \"input\"\n\n\
         [[sweep]]\n[sweep.axes]\nstrategy = [\"comprehensive-overbooking\"]\n",
        kth.display().to_string()
    );
    let env = AdmissionEnv::from_config(&slasim::registry(), "kth.toml", &text, 0, 8)
        .expect("KTH-SP2 (set SLASIM_TRACE_DIR)");
    bench(c, "kth-whole-log", env, 10);
}

criterion_group!(benches, admission);
criterion_main!(benches);
