//! The engine's own tests, one module per module of `slasim_core`, under its path.

mod experiment;
mod metrics;
mod names;
mod report;
mod rng;
mod setting;
mod store;
mod threads;
