//! slasim's integration tests, one binary: each file of this folder is a
//! module (run one with `cargo test --release --locked --test integration
//! <module>::`), and `common` holds what they share. One binary links the
//! crate once, where a binary per file linked it once each.

mod common;

mod admission;
mod architecture;
mod batsim;
mod batsim_kth;
mod batsim_pybatsim;
mod cap_series;
mod carbon;
mod catalogue;
mod classic;
mod cli;
mod config;
mod convolution;
mod determinism;
mod docs;
mod energy;
mod export;
mod extending;
mod failure_streams;
mod gantt;
mod gpu_traces;
mod kinds;
mod newcomer;
mod overbooking;
mod power;
mod power_report;
mod priority;
mod properties;
mod provisioning;
mod recording;
mod regression;
mod report;
mod reservations;
mod sacct;
mod schedules;
mod shifting;
mod signals;
mod simulation_traces;
mod sla_shifting;
mod slurm;
mod slurm_report;
mod store;
mod sweep;
mod swf_roundtrip;
mod textbook;
mod traces;
