mod battery;
mod fragmentation;
mod overbooking;
pub mod slurm_jobs;
