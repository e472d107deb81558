//! The simulator: a deterministic event kernel and the actors it drives.
//!
//! Contract: one simulation runs on one thread. The [`kernel`] owns virtual
//! time and delivers events in a total order; models are kameo actors
//! ([`cluster`], [`client`], [`injector`], and the Grid's broker in
//! [`crate::grid::broker`]) that own their state and talk only through typed
//! messages ([`event`]) sent on connected ports ([`port`]); a [`bench`] wires
//! them together. No model reads the wall clock.

pub mod bench;
pub mod client;
pub mod cluster;
pub mod event;
pub mod injector;
pub mod kernel;
pub mod port;
pub mod record;
