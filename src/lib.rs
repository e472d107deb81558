//! slasim: an experiment engine for SLA-aware, planning-based HPC and Grid
//! scheduling research.
//!
//! This crate is the engine with every kind: [`slasim_core`] (the engine,
//! which knows no kind), re-exported here under the paths it always had,
//! and each kind crate under its name ([`single`], [`grid`], [`provision`],
//! [`slurm`], [`gym`]). [`KINDS`] lists the kinds in their order, and
//! [`registry()`] builds the one registry of them that the `slasim` binary,
//! the Python package and the tests pass down; a program with kinds of its
//! own builds its registry from that list and its own (the example in
//! `examples/custom-strategy`).
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`single`]: the single-cluster kind: its workloads (`workload`), runtime statistics
//!   (`stats`), plans (`plan`), strategies and placement (`policy`), the cluster (`cluster`);
//! - [`grid`]: the co-reservation broker, its algorithms and the clusters' reservation service, as a kind;
//! - [`provision`]: slot advertisement, workflows, MOGA and greedy provisioning, adaptive pricing, as kinds;
//! - [`gym`]: reinforcement-learning environments stepped in Rust (job picking, SLA admission);
//! - [`trace`], [`signal`]: the log formats, the catalogue and the grid signals (the
//!   `slasim-data` crate, which knows neither engine nor kind);
//! - [`machine`]: the machine model the Slurm twin and the SLA planners share: nodes with CPUs,
//!   memory, GPUs (a count and a model) and features, partitions, and what a job asks of them;
//! - [`sim`]: the event kernel, typed ports, models and benches (no domain);
//! - [`slurm`]: Slurm's scheduling on a heterogeneous machine (slurm.conf, partitions,
//!   cons_tres, multifactor priority, the main and backfill schedulers), as a kind;
//! - [`experiment`]: points of every kind, configs, and the one executor that runs them;
//! - [`store`]: the SQLite store of every point;
//! - [`report`]: Polars tables, plots and the HTML report of a store;
//! - [`experiment::registry`]: the registry of kinds, report sections, subcommands, strategies, … by name;
//! - [`rng`]: seeded, independent random streams;
//! - [`setting`]: validation of user-supplied settings;
//! - [`threads`]: the `--jobs` budget of busy threads;
//! - [`units`]: virtual time and rate units;
//! - [`cli`]: the `slasim` command line.

use slasim_core::experiment::registry::{Kind, Registry};
pub use slasim_core::*;
pub use slasim_data::{signal, trace};
pub use slasim_grid as grid;
pub use slasim_gym as gym;
pub use slasim_machine as machine;
pub use slasim_provision as provision;
pub use slasim_single as single;
pub use slasim_sla_machine as sla_machine;
pub use slasim_slurm as slurm;

/// The kinds of the workspace, in their order: the single cluster first
/// (its section heads the report, its commands stand first), then the Grid
/// and provisioning and pricing built on it, Slurm, and the environments.
pub const KINDS: [&dyn Kind; 6] =
    [&single::KIND, &grid::KIND, &provision::KIND, &slurm::KIND, &gym::KIND, &sla_machine::KIND];

/// The registry of [`KINDS`].
pub fn registry() -> Registry {
    Registry::new(&KINDS).expect("the workspace's kinds register: each name and stream once")
}
