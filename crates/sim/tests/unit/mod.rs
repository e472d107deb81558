//! The library's tests, one module per module of `slasim_sim`.

mod bench;
mod kernel;
mod port;
mod units;
