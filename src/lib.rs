//! slasim: an experiment engine for SLA-aware, planning-based HPC and Grid
//! scheduling research.
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`workload`]: SWF traces, preparation, the synthetic default, failure streams;
//! - [`stats`]: runtime PDFs, failure laws, probability-of-success models;
//! - [`rng`]: seeded, independent random streams;
//! - [`setting`]: validation of user-supplied settings;
//! - [`units`]: virtual time and rate units;
//! - [`cli`]: the `slasim` command line.

pub mod cli;
pub mod rng;
pub mod setting;
pub mod stats;
pub mod units;
pub mod workload;
