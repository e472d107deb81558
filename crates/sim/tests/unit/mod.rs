//! The library's tests, one module per module of `slasim_sim`.

mod kernel;
mod port;
