//! What the whole-log benches share: the traces directory and one prepared
//! whole-log point.
#![allow(dead_code)]

use std::path::PathBuf;

use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::single::point::SinglePoint;
use slasim::single::policy::{Placement, StrategySettings};
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureSource;
use slasim::single::workload::job::Job;
use slasim::single::workload::prepare::PrepareConfig;

/// `$SLASIM_TRACE_DIR`, else `../shared/data/traces` next to the crate.
pub fn traces() -> PathBuf {
    std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/traces"))
}

/// The jobs, machine size and strategy settings of `strategy` on the whole
/// log `swf/<trace>` prepared by `prepare`, without failures.
pub fn whole_log(strategy: &str, trace: &str, prepare: PrepareConfig) -> (Vec<Job>, u32, StrategySettings) {
    let point = SinglePoint {
        strategy: slasim::single::policy::StrategyRef::named(strategy).unwrap(),
        placement: Placement::BestFit,
        seed: 1,
        battery: 0,
        workload: WorkloadSource::Swf { path: traces().join("swf").join(trace), lenient: false },
        prepare,
        failures: FailureSource::None,
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
    let inputs = Inputs::load(&[Point::new(point.clone())]).expect("the trace loads");
    let prepared = point.prepared(&inputs).expect("prepared");
    let settings = point.strategy_settings(&inputs).expect("settings");
    (prepared.batteries[0].jobs.to_vec(), prepared.capacity, settings)
}
