mod coordinator;
mod locate;
mod registry;
mod slurm;
