mod coreservations;
mod windows;
