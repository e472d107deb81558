//! The Grid's workload: the log windows its clusters run ([`windows`]) and
//! the co-reservation requests drawn from them ([`corequest`],
//! [`coreservations`]).

pub mod corequest;
pub mod coreservations;
pub mod windows;
