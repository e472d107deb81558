//! The provisioning and pricing kinds of point: their settings, `resolve`
//! and `run`, and their [`slasim_core::experiment::point::PointKind`]s.

pub mod pricing;
pub mod provision;
