//! The single cluster's random streams (each with the derivation number it
//! always had, so stored outcomes do not move); the workload's are the
//! engine's shared ones ([`slasim_core::rng::WORKLOAD_JOBS`],
//! [`slasim_core::rng::WORKLOAD_ARRIVALS`]).

use slasim_core::rng::Stream;

/// Synthetic node failures, one index per node.
pub const NODE_FAILURES: Stream = Stream::new("node-failures", 3);
/// Synthetic advance reservations.
pub const RESERVATIONS: Stream = Stream::new("reservations", 5);
/// A noisy forecast's relative error, one index per virtual hour.
pub const FORECAST_NOISE: Stream = Stream::new("forecast-noise", 21);

/// Every stream the kind owns, which it registers.
pub const STREAMS: [Stream; 3] = [NODE_FAILURES, RESERVATIONS, FORECAST_NOISE];
