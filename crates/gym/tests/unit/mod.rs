//! The library's tests, one module per module of `slasim_gym`.

mod pick;
mod record;
