//! Experiments: points of registered kinds, configs, and one executor for
//! them all.
//!
//! Contract: a [`point::Point`] is a point of a [`point::PointKind`] of the
//! program's registry ([`crate::experiment::registry`]; each kind resolves its points in its
//! own crate), from the command line or a [`config`] alike ([`locate`]
//! places a config's errors). The [`coordinator`] runs any
//! list of points on worker threads within one `--jobs` budget, sharing the
//! [`inputs`] loaded once ([`load`]); a point's stored outcome depends on the point
//! alone, never on the number of threads or the order in which points finish.
//! [`slurm`] splits a config's points into shards for a Slurm cluster.

pub mod config;
pub mod coordinator;
pub mod id;
pub mod inputs;
pub mod load;
pub mod locate;
pub mod point;
pub mod progress;
pub mod provenance;
pub mod registry;
pub mod slurm;
