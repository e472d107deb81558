//! The tables of a pricing point: `priced_reservations` and `pricing_harm`
//! (its point and site rows go to [`super::provision`]'s tables).
//!
//! Contract: one `priced_reservations` row per purchase request, with the
//! bought slot's f under both policies on the state it was sold on; one
//! `pricing_harm` row per point.

use crate::buyer::PricedRecord;
use crate::outcome::Harm;
use slasim_core::store::columns::{Described, Rows, Table, column};

/// A purchase request of a pricing point.
#[derive(Debug, Clone, Copy)]
pub struct PricedRow<'a> {
    /// The point.
    pub point_id: i64,
    /// The buyers' α.
    pub alpha: f64,
    /// What became of the request.
    pub record: &'a PricedRecord,
}

/// The row type of `priced_reservations`.
pub enum Priced {}

impl Rows for Priced {
    type Row<'a> = PricedRow<'a>;
    type Summary = ();
}

/// Each priced reservation request.
pub static PRICED_RESERVATIONS: Table<Priced> = Table::new(
    "priced_reservations",
    5,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("request", Int, |r| r.record.request),
        column!("submit", Int, |r| r.record.submit),
        column!("procs", Int, |r| r.record.procs),
        column!("duration", Int, |r| r.record.duration),
        column!("alpha", Real, |r| r.alpha),
        column!("offers", Int, |r| r.record.offers),
        column!("start", Int, |r| r.record.start),
        column!("wait", Int, |r| r.record.start.map(|s| s - r.record.submit)),
        column!("base_price", Real, |r| r.record.base_price),
        column!("f", Real, |r| r.record.f),
        column!("bought", Int, |r| r.record.bought),
        column!("ended", Int, |r| r.record.end),
        column!("queued", Int, |r| r.record.audit.map(|a| a.queued); since 8, "NULL"),
        column!("queued_procs", Int, |r| r.record.audit.map(|a| a.queued_procs as i64); since 8, "NULL"),
        column!("f_conservative", Real, |r| r.record.audit.map(|a| a.conservative.delayed); since 8, "NULL"),
        column!("f_easy", Real, |r| r.record.audit.map(|a| a.easy.delayed); since 8, "NULL"),
        column!("advanced_conservative", Real, |r| r.record.audit.map(|a| a.conservative.advanced); since 8, "NULL"),
        column!("advanced_easy", Real, |r| r.record.audit.map(|a| a.easy.advanced); since 8, "NULL"),
    ],
);

/// The provider's view of a pricing point.
#[derive(Debug, Clone, Copy)]
pub struct HarmRow<'a> {
    /// The point.
    pub point_id: i64,
    /// What the reservations did to the best-effort jobs.
    pub harm: &'a Harm,
}

/// The row type of `pricing_harm`.
pub enum Harms {}

impl Rows for Harms {
    type Row<'a> = HarmRow<'a>;
    type Summary = ();
}

/// The externality charged against the delay suffered, per point.
pub static PRICING_HARM: Table<Harms> = Table::new(
    "pricing_harm",
    6,
    &[
        column!("point_id", Int, |r| r.point_id),
        column!("charged", Real, |r| r.harm.charged),
        column!("suffered", Real, |r| r.harm.suffered),
        column!("suffered_vs_queueing", Real, |r| r.harm.suffered_vs_queueing),
        column!("be_jobs", Int, |r| r.harm.be_jobs as i64),
        column!("be_wait_without", Real, |r| r.harm.be_wait_without),
    ],
);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 2] {
    [&PRICED_RESERVATIONS, &PRICING_HARM]
}
