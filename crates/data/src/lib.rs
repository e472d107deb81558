//! slasim's data: the field's log formats, the grid signals and where their
//! files live. It knows neither the engine nor any kind: a kind maps these
//! records to its own jobs and models.
//!
//! Module map (each module's doc states its contract and references):
//! - [`trace`]: the log formats (the Standard Workload Format, Slurm's sacct
//!   dumps, GPU-era CSV traces), the catalogue of known files (a data file,
//!   `catalogue.toml`, embedded) and their download;
//! - [`signal`]: time-varying grid signals (carbon intensity, price,
//!   renewable supply) read as time series, and their alignment onto a run's
//!   virtual time;
//! - [`dirs`]: the directories traces and signals are looked up in.

pub mod dirs;
pub mod signal;
pub mod trace;
