mod battery;
mod fragmentation;
mod slurm_jobs;
