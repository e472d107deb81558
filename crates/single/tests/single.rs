//! The tests of `slasim_single`, in one binary: module `unit` holds each library
//! module's tests, under the module's path.

mod unit;

#[path = "../../core/src/testing.rs"]
mod testing;
