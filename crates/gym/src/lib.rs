//! Reinforcement-learning environments stepped in Rust, for Gymnasium-style
//! loops (the Python package wraps them as `gymnasium.Env`s).
//!
//! Contract: an environment owns its seeded generator (a [`slasim_core::rng`]
//! stream), reads no clock, and writes observations, masks and rewards into
//! buffers its caller owns. The same log, options, seed and actions give the
//! same observations and rewards to the bit. One environment per
//! sub-module: [`pick`] (choose the next job to start, RLScheduler's MDP);
//! [`admission`] (book an arriving SLA job on one of the planning
//! scheduler's candidates, or reject it; the kernel simulates);
//! [`vector`] steps many job-picking environments in one call.

pub mod admission;
pub mod pick;
pub mod vector;
