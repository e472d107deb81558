//! The tests of `slasim_sla_machine`, in one binary: module `unit` holds
//! each library module's tests, under the module's path.

mod unit;
