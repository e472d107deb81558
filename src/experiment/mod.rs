//! Experiments: points of four kinds, configs, and one executor for them all.
//!
//! Contract: a [`point::Point`] is a single-cluster, Grid, provisioning or
//! pricing run, each kind resolved once in its own file under [`kinds`]
//! (from the command line or a [`config`] alike). The [`coordinator`] runs any
//! list of points on worker threads within one `--jobs` budget, sharing the
//! [`inputs`] loaded once; a point's stored outcome depends on the point
//! alone, never on the number of threads or the order in which points finish.
//! [`slurm`] splits a config's points into shards for a Slurm cluster.

pub mod config;
pub mod coordinator;
pub mod id;
pub mod inputs;
pub mod kinds;
pub mod point;
pub mod provenance;
pub mod slurm;
pub mod summary;
