//! slasim's engine, which knows no kind: the kinds' crates (the single
//! cluster, the Grid, provisioning and pricing, Slurm, the environments)
//! register with it, and the `slasim` crate re-exports it with them.
//!
//! Module map (each module's doc states its contract and spec references):
//! - [`metrics`]: the queueing metrics every kind reports (wait, bounded slowdown);
//! - [`sim`]: the event kernel, typed ports, models and benches (no domain): the
//!   `slasim-sim` crate, re-exported;
//! - [`experiment`]: points of the registered kinds, the registry of kinds
//!   (`experiment::registry`), configs, and the one executor that runs them;
//! - [`store`]: the SQLite store of every point;
//! - [`report`]: Polars tables, plots and the HTML report of a store;
//! - [`names`]: names registered in kebab case, and the errors of a name unknown or taken;
//! - [`rng`]: seeded, independent random streams;
//! - [`setting`]: validation of user-supplied settings;
//! - [`threads`]: the `--jobs` budget of busy threads;
//! - [`units`]: virtual time and rate units (`slasim-sim`'s);
//! - [`cli`]: the `slasim` command line.

pub mod cli;
pub mod experiment;
pub mod metrics;
pub mod names;
pub mod report;
pub mod rng;
pub mod setting;
pub mod store;
pub mod threads;

// clap, for the macros kind crates use (`value_enum!`).
#[doc(hidden)]
pub use clap as __clap;

// The kernel crate, under the paths every module of this crate names.
pub use slasim_sim as sim;
pub use slasim_sim::units;
