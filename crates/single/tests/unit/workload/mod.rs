mod batsim;
mod failure_law;
mod failures;
mod info;
mod prepare;
mod reservations;
mod sla;
mod synthetic;
