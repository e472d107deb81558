//! Every table the writers fill, by descriptors ([`crate::store::columns`]):
//! one module per kind of point (and one for experiments), each exposing a
//! [`crate::store::columns::Table`] per table.

pub mod experiment;
pub mod grid;
pub mod points;
pub mod pricing;
pub mod provision;
pub mod run;
