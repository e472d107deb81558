mod batsim_jobs;
mod reference;
