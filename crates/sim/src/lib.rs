//! slasim's simulator core: a deterministic event kernel, typed ports,
//! benches and the units of virtual time. It knows no domain: the compiler
//! holds that border, as this crate depends on no other crate of slasim.
//!
//! Contract: one simulation runs on one thread, the caller's. The [`kernel`]
//! owns virtual time and delivers events in a total order; models own their
//! state, declare their own message type ([`kernel::Model`]) and inputs
//! ([`port::Receive`]), and talk only through typed ports ([`port`]); a
//! [`bench::Bench`] adds models, hands out their typed addresses and runs the
//! kernel by plain, blocking calls: to the end, or step by step
//! ([`bench::Bench::step`]) with the caller's calls on a model in between
//! ([`bench::Bench::call`]). The bench owns the runtime its models run on;
//! its caller builds none. No model reads the wall clock. Clusters, brokers
//! and sites are models of the crates that own them, and the generic
//! [`client`] feeds any of them.

pub mod bench;
pub mod client;
pub mod kernel;
pub mod model;
pub mod port;
pub mod units;
