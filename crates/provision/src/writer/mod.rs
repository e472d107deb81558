//! Writing a provisioning or pricing point: one transaction each, through
//! the descriptors of [`crate::tables`] ([`provision`] a provisioning point
//! or slot statistics, [`pricing`] a pricing point).

pub mod pricing;
pub mod provision;
