//! The Grid's random streams (each with the derivation number it always
//! had, so stored outcomes do not move).

use slasim_core::rng::Stream;

/// Co-reservation request workloads: template picks and their draws.
pub const CO_RESERVATION_REQUESTS: Stream = Stream::new("co-reservation-requests", 10);
/// The broker's shuffle of sub-reservation variants.
pub const VARIANT_SHUFFLE: Stream = Stream::new("variant-shuffle", 11);

/// Every stream the kind owns, which it registers.
pub const STREAMS: [Stream; 2] = [CO_RESERVATION_REQUESTS, VARIANT_SHUFFLE];
