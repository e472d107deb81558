//! The library's tests, one module per module of `slasim_slurm`.

mod accounting;
mod advance;
mod cli;
mod conf;
mod controller;
mod dependency;
mod features;
mod fidelity;
mod forecast;
mod generated;
mod gpu;
mod machine;
mod memory;
mod multipart;
mod node_space;
mod outage;
mod preemption;
mod replica;
mod report;
mod reservation;
mod sacctmgr;
mod what_if;
mod written;
