mod actor;
mod scheduler;
