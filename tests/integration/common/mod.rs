//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The property tests' case count and seed (one file with the library's unit tests).
#[path = "../../../crates/core/src/testing.rs"]
pub mod testing;

/// The textbook rules, written again from their sources (`textbook.rs`).
pub mod reference;

/// The traces directory: `$SLASIM_TRACE_DIR`, else `../shared/data/traces`
/// next to the crate. Tests fail (never skip) when it is missing: they exist
/// to check the real logs.
pub fn traces() -> PathBuf {
    let dir = std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/traces"));
    assert!(
        dir.join("swf").is_dir(),
        "trace directory {} not found: set SLASIM_TRACE_DIR to the directory holding swf/, other/ and failures/",
        dir.display()
    );
    dir
}

/// The signals directory: `$SLASIM_SIGNAL_DIR`, else `../shared/data/signals`
/// next to the crate. As for the traces, tests fail (never skip, under
/// `CI=true` or not) when it is missing: they exist to check the real files.
pub fn signals() -> PathBuf {
    let dir = std::env::var_os("SLASIM_SIGNAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/signals"));
    assert!(
        dir.join("SOURCES.md").is_file(),
        "signal directory {} not found: set SLASIM_SIGNAL_DIR to the directory holding SOURCES.md, carbon_intensity/, grid_mix/ and prices/",
        dir.display()
    );
    dir
}

/// The `slasim` binary built for this test run.
pub fn slasim() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_slasim"));
    cmd.env("SLASIM_TRACE_DIR", traces());
    cmd
}

/// Runs `slasim ARGS`: whether it succeeded, its stdout and its stderr.
pub fn run(args: &[&str]) -> (bool, String, String) {
    let out = slasim().args(args).output().expect("slasim runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

use std::sync::Arc;

use slasim::single::policy::overbooking::{Overbooking, OverbookingConfig};
use slasim::single::policy::{Placement, StrategySettings, strategy};
use slasim::single::stats::pdf::{PdfConfig, PdfSource, RuntimeModel};
use slasim::single::stats::pos::Reliability;
use slasim::single::workload::failure_law::FailureLaw;
use slasim::single::workload::job::Job;
use slasim::units::Time;

/// LANL node reliability (λ = 1.2904e-4/h, μ = 0.4333/h).
pub fn lanl_reliability() -> Reliability {
    let lambda = 1.2904e-4 / 3600.0;
    Reliability::new(lambda, 0.4333 / 3600.0, FailureLaw::exponential(lambda).unwrap())
}

/// Settings for `name`: overbooking with PDFs learned from `history` (one
/// "all jobs" class) under the PoF test with `pof_max`.
pub fn settings(name: &str, placement: Placement, history: &[Job], pof_max: f64) -> StrategySettings {
    let info = strategy(name).unwrap();
    let overbooking = info.reads.overbooking.then(|| {
        let pdf = PdfConfig { source: PdfSource::default(), min_class_size: 1, ..PdfConfig::default() };
        let model = Arc::new(RuntimeModel::learn(history, &pdf).unwrap());
        let config = OverbookingConfig { pof_max, pdf, ..OverbookingConfig::default() };
        Arc::new(Overbooking::new(&config, model, info.security_factor))
    });
    StrategySettings {
        placement,
        reliability: lanl_reliability(),
        overbooking,
        reservations: Default::default(),
        kill_at_estimate: true,
        batsim: None,
        shifting: None,
    }
}

/// Hours → seconds.
pub fn h(v: f64) -> slasim::units::Time {
    (v * slasim::units::HOUR as f64).round() as slasim::units::Time
}

/// A job occurring at `o`, released at `e`, estimate `x`, real runtime `w`, `n`
/// nodes, deadline `d` (times in hours, fractional allowed); fee = penalty =
/// n·x node-hours.
pub fn job(id: u32, o: f64, e: f64, x: f64, w: f64, n: u32, d: f64) -> Job {
    job_at(id, h(o), h(e), h(d), h(x), h(w), n)
}

/// A job in seconds: occurrence, release, deadline, estimate, runtime,
/// nodes; fee and penalty are its booked node-hours.
pub fn job_at(id: u32, o: Time, e: Time, d: Time, x: Time, w: Time, n: u32) -> Job {
    let fee = f64::from(n) * x as f64 / 3600.0;
    Job {
        id,
        swf_id: i64::from(id),
        occurrence: o,
        release: e,
        deadline: d,
        estimate: x,
        runtime: w,
        nodes: n,
        user: -1,
        application: -1,
        queue: -1,
        fee,
        penalty: fee,
        reservation: false,
    }
}

/// An execution's span `[start, end)`.
pub type Span = (slasim::units::Time, slasim::units::Time);

/// The first node that runs two executions at once, with the two spans;
/// `None` when no node is double-booked. O(e log e) over all executions.
pub fn double_booking(executions: &[slasim::single::cluster::ExecutionRecord]) -> Option<(u32, Span, Span)> {
    let mut busy: Vec<(u32, slasim::units::Time, slasim::units::Time)> =
        executions.iter().flat_map(|e| e.nodes.iter().map(move |&n| (n, e.start, e.end))).collect();
    busy.sort_unstable();
    busy.windows(2).find(|w| w[0].0 == w[1].0 && w[0].2 > w[1].1).map(|w| (w[0].0, (w[0].1, w[0].2), (w[1].1, w[1].2)))
}

/// Writes `small.swf` in `dir`: a log of `capacity` processors holding the
/// jobs (occurrence, processors, estimate, runtime), numbered from 1.
pub fn write_swf(dir: &std::path::Path, capacity: u32, jobs: &[(Time, u32, Time, Time)]) -> PathBuf {
    let path = dir.join("small.swf");
    let mut text = format!("; MaxProcs: {capacity}\n; MaxNodes: {capacity}\n");
    for (i, &(o, n, x, w)) in jobs.iter().enumerate() {
        text.push_str(&format!("{} {o} -1 {w} {n} -1 -1 {n} {x} -1 1 1 1 1 1 1 -1 -1\n", i + 1));
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// The single-cluster summary of a point's result (a defect if it has none).
pub fn summary(result: &slasim::experiment::coordinator::PointResult) -> slasim::single::summary::RunSummary {
    *result.summary_as().expect("a single-cluster run's summary")
}
