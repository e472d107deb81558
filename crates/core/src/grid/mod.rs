//! The Grid: a reservation broker placing co-reservations across clusters.
//!
//! Reference: `coreservation-thesis-spec.md` (Meltzer, co-reservation
//! algorithms): ch. 3 (the model), ch. 4 (algorithms 1–5), ch. 5 (simulator),
//! §6.1 (metrics), and its "Ambiguities" and "Mapping onto the Rust actor
//! design" sections.
//!
//! Contract: the pieces of the broker are pure and testable on their own —
//! [`request`] (requests, start grid, TRs), [`tree`] (the lazily built, pruned
//! variant tree), [`search`] (the reservation step as a state machine),
//! [`lrs`] (a cluster's status, reservation and cancellation service),
//! [`resort`] (Alg. 5's sorted tree and re-sorting step), [`cost`] (cost
//! tables), [`algorithm`] (the algorithms, each a type behind
//! [`algorithm::BrokerStrategy`]); [`broker`] is the actor that drives them
//! through the kernel; [`metrics`] computes the thesis' criteria from a run.

pub mod algorithm;
pub mod bench;
pub mod broker;
pub mod config;
pub mod cost;
pub mod lrs;
pub mod metrics;
pub mod request;
pub mod resort;
pub mod search;
pub mod tree;
