//! Slurm's scheduling on a heterogeneous machine: node types, partitions,
//! multifactor priority with fair-share, and the main and backfill schedulers.
//!
//! Rooms: [`conf`] (the `slurm.conf` subset, with located errors),
//! [`machine`] (nodes, partitions, cons_tres placement), [`priority`]
//! (multifactor priority and Fair Tree), [`controller`] (the queue and the
//! two schedulers as one kernel model), [`instant`] (the order of an
//! instant), [`bench`] (the bench that runs a workload on it).
//!
//! Every departure from Slurm's documented behaviour is listed on the docs'
//! Slurm reference page, beside the document it departs from.

pub mod bench;
pub mod conf;
pub mod controller;
pub mod instant;
pub mod machine;
pub mod priority;
