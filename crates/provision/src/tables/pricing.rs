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
    "Each priced reservation request of a pricing point: its price, start and wait.",
)
.key(&["point_id", "request"])
.without_rowid()
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
    column!("request", Int, "the request's index", |r| r.record.request),
    column!("submit", Int, "its submission, s", |r| r.record.submit),
    column!("procs", Int, "its processors", |r| r.record.procs),
    column!("duration", Int, "requested (the job's estimate), s", |r| r.record.duration),
    column!("alpha", Real, "the buyers' α", |r| r.alpha),
    column!("offers", Int, "candidate starts offered (eq. 18)", |r| r.record.offers),
    column!("start", Int null, "chosen by eq. 20, s (NULL: no offer chosen)", |r| r.record.start),
    column!("wait", Int null, "start − submit, s (NULL: no start)", |r| r.record.start.map(|s| s - r.record.submit)),
    column!("base_price", Real, "n·d·c, processor-seconds", |r| r.record.base_price),
    column!("f", Real, "externality charged, processor-seconds", |r| r.record.f),
    column!("bought", Int, "1 if the site sold it", |r| r.record.bought),
    column!("ended", Int null, "when the job ended in it, s (NULL: it did not)", |r| r.record.end),
    column!("queued", Int null, "queued best-effort jobs when it was sold (NULL: not sold, or before v8)", |r| {
        r.record.audit.map(|a| a.queued)
    }; since 8),
    column!("queued_procs", Int null, "their processors, summed", |r| {
        r.record.audit.map(|a| a.queued_procs as i64)
    }; since 8),
    column!("f_conservative", Real null, "its f under conservative backfilling", |r| {
        r.record.audit.map(|a| a.conservative.delayed)
    }; since 8),
    column!("f_easy", Real null, "its f under EASY (A19)", |r| r.record.audit.map(|a| a.easy.delayed); since 8),
    column!("advanced_conservative", Real null, "Σ advance × procs it caused (f ignores it)", |r| {
        r.record.audit.map(|a| a.conservative.advanced)
    }; since 8),
    column!("advanced_easy", Real null, "the same under EASY", |r| r.record.audit.map(|a| a.easy.advanced); since 8),
]);

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
    "The provider's view of a pricing point: the externality charged against the delay suffered.",
)
.key(&["point_id"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "provision_points(point_id)"),
    column!("charged", Real, "Σ f of the bought reservations, processor-seconds", |r| r.harm.charged),
    column!("suffered", Real null,
        "Σ over best-effort jobs of procs × (wait with − wait without the reservations); NULL if the two runs did not start the same jobs", |r| {
        r.harm.suffered
    }),
    column!("suffered_vs_queueing", Real null,
        "the same against the run where the buyers queue as best effort instead (NULL: as above)", |r| {
        r.harm.suffered_vs_queueing
    }),
    column!("be_jobs", Int, "best-effort jobs", |r| r.harm.be_jobs as i64),
    column!("be_wait_without", Real null, "mean best-effort wait in the run without reservations, seconds", |r| {
        r.harm.be_wait_without
    }),
]);

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 2] {
    [&PRICED_RESERVATIONS, &PRICING_HARM]
}
