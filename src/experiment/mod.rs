//! Experiments: resolved points, and running them on worker threads.
//!
//! Contract: [`runner::run_points`] simulates a list of [`point::Point`]s, each
//! on its own single-threaded simulation, spread over worker threads; shared
//! inputs (prepared workloads, the LANL log) are loaded once and only read.
//! The stored outcome of a point depends on the point alone, never on the
//! number of threads or the order in which points finish.

pub mod config;
pub mod coordinator;
pub mod grid;
pub mod point;
pub mod provisioning;
pub mod runner;
pub mod slurm;
