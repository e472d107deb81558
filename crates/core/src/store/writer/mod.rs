//! Writing a point: one writer per point kind, each one transaction.
//!
//! Contract: a point's rows are written in one transaction through its
//! tables' descriptors ([`crate::store::tables`]), with cached prepared
//! statements and multi-row INSERTs for the tables written row by row, so a
//! crash (even `kill -9`) never leaves half a point behind: [`single`]
//! writes a single-cluster run (and its battery's jobs once), and the run
//! rows of a kind of another crate that stores its points as runs (the
//! Grid's). A kind of another crate
//! writes its rows through [`crate::store::Store::write_with`], with its
//! tables' descriptors ([`crate::store::columns::insert`]).

pub mod single;
