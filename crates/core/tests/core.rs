//! The engine's tests: its machinery on its own, with no kind registered
//! (the kinds' tests are in their crates, the command line's in the
//! `slasim` crate's `tests/integration`).
//!
//! Module `unit` holds the library's own tests, one module per library
//! module, under its path.

mod unit;
