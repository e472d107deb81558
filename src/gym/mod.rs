//! Gymnasium environments stepped in Rust (the Python package wraps them).

pub mod admission;
