//! The library's tests, one module per module of `slasim_slurm`.

mod accounting;
mod cli;
mod conf;
mod controller;
mod dependency;
mod generated;
mod gpu;
mod report;
mod reservation;
mod sacctmgr;
