//! The library's tests, one module per module of `slasim_slurm`.

mod accounting;
mod cli;
mod conf;
mod generated;
mod gpu;
mod preemption;
mod report;
mod reservation;
mod sacctmgr;
