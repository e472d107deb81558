//! The sla-machine kind's random streams; the failures' are the single
//! cluster's ([`slasim_single::streams::NODE_FAILURES`]) and a sampled
//! battery's the engine's shared ones.

use slasim_core::rng::Stream;

/// The seed of a synthetic battery's workload, one index per battery.
pub const SYNTHETIC_BATTERIES: Stream = Stream::new("synthetic-batteries", 22);

/// Every stream the kind owns, which it registers.
pub const STREAMS: [Stream; 1] = [SYNTHETIC_BATTERIES];
