//! The simulator core: a deterministic event kernel, typed ports and benches.
//!
//! Contract: one simulation runs on one thread. The [`kernel`] owns virtual
//! time and delivers events in a total order; models are kameo actors that
//! own their state, declare their own message type ([`kernel::Model`]) and
//! inputs ([`port::Receive`]), and talk only through typed ports ([`port`]);
//! a [`bench::Bench`] adds models, hands out their typed addresses and runs
//! the kernel. No model reads the wall clock. Nothing here knows a domain:
//! clusters, brokers and sites are models of the modules that own them
//! ([`crate::cluster`], [`crate::grid`], [`crate::provision`]), and the
//! generic [`client`] feeds any of them.

pub mod bench;
pub mod client;
pub mod kernel;
pub mod model;
pub mod port;
