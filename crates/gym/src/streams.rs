//! The environments' random streams (each with the derivation number it
//! always had, so episodes do not move).

use slasim_core::rng::Stream;

/// The start index of a job-picking environment's episodes.
pub const EPISODE_STARTS: Stream = Stream::new("episode-starts", 16);
/// The battery an SLA admission episode runs, drawn from its reset seed.
pub const ADMISSION_BATTERY: Stream = Stream::new("admission-battery", 20);

/// Every stream the environments own, which their kind registers.
pub const STREAMS: [Stream; 2] = [EPISODE_STARTS, ADMISSION_BATTERY];
