//! Statistics: runtime-ratio PDFs, failure laws, probability-of-success models
//! and a job's bounded slowdown.
//!
//! Contract: everything here is pure computation on numbers; nothing reads files
//! or the clock. Each submodule cites the spec section it implements.

pub mod aged;
pub mod calibration;
pub mod convolution;
pub mod pdf;
pub mod pos;
