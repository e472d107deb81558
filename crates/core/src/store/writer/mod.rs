//! Writing a point: one writer per point kind, each point whole.
//!
//! Contract: a point's rows are written all or nothing (a savepoint, inside
//! the sweep's group of points committed together) through its
//! tables' descriptors ([`crate::store::tables`]), with cached prepared
//! statements and multi-row INSERTs for the tables written row by row, so a
//! crash (even `kill -9`) never leaves half a point behind. A kind writes
//! its rows through [`crate::store::Store::write_with`], with its tables'
//! descriptors ([`crate::store::columns::insert`]).
