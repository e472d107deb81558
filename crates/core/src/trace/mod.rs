//! The field's log formats and where their files are: the Standard Workload
//! Format of the Parallel Workloads Archive ([`swf`]), Slurm accounting
//! dumps ([`sacct`]), GPU-era CSV traces read as SWF ([`gpu`]), and the traces directory ([`trace_dir`],
//! [`resolve_trace`]).
//!
//! Contract: these are data formats, read with located errors (file, line,
//! field); they know no point kind. A kind maps their records to its jobs:
//! the single cluster prepares SWF records into batteries, Slurm reads a
//! dump's jobs natively with [`sacct`]'s columns and values. Trace files are
//! never bundled: they are read from the path given, or looked up under the
//! traces directory.

pub mod gpu;
pub mod sacct;
pub mod swf;

use std::path::{Path, PathBuf};

/// Environment variable naming the traces directory.
pub const TRACE_DIR_ENV: &str = "SLASIM_TRACE_DIR";

/// The traces directory: `$SLASIM_TRACE_DIR`, else `../shared/data/traces`.
/// It holds `swf/`, `other/` and `failures/` as in the PWA/LANL layout of
/// `SOURCES.md`.
pub fn trace_dir() -> PathBuf {
    std::env::var_os(TRACE_DIR_ENV).map_or_else(|| PathBuf::from("../shared/data/traces"), PathBuf::from)
}

/// Resolves a trace name: the path itself if it exists, else the same name
/// under the traces directory (`swf/`, `other/`, `failures/`, or its root).
pub fn resolve_trace(name: &Path) -> Result<PathBuf, String> {
    if name.exists() {
        return Ok(name.to_path_buf());
    }
    let dir = trace_dir();
    let candidates: Vec<PathBuf> =
        ["swf", "other", "failures", ""].iter().map(|sub| dir.join(sub).join(name)).collect();
    candidates.iter().find(|p| p.exists()).cloned().ok_or_else(|| {
        format!(
            "{}: no such file (also looked under {}; set {TRACE_DIR_ENV} to the directory holding swf/ and failures/)",
            name.display(),
            dir.display()
        )
    })
}
