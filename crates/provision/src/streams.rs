//! The provisioning and pricing kinds' random streams (each with the
//! derivation number it always had, so stored outcomes do not move); load
//! scaling draws from the engine's shared [`slasim_core::rng::LOAD_COPY`].

use slasim_core::rng::Stream;

/// Synthetic workflows.
pub const WORKFLOWS: Stream = Stream::new("workflows", 12);
/// The MOGA's initial population, selection, crossover and mutation.
pub const MOGA: Stream = Stream::new("moga", 13);
/// Which trace jobs ask for a priced reservation instead of queueing.
pub const RESERVATION_SHARE: Stream = Stream::new("reservation-share", 15);

/// Every stream the kinds own, which they register.
pub const STREAMS: [Stream; 3] = [WORKFLOWS, MOGA, RESERVATION_SHARE];
