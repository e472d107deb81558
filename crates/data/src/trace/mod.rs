//! The field's log formats and where their files are: the Standard Workload
//! Format of the Parallel Workloads Archive ([`swf`]), Slurm accounting
//! dumps ([`sacct`]), GPU-era CSV traces read as SWF ([`gpu`]), the
//! catalogue of known files ([`catalogue`]), their download ([`fetch`]) and
//! the traces directory ([`trace_dir`],
//! [`resolve_trace`]).
//!
//! Contract: these are data formats, read with located errors (file, line,
//! field); they know no point kind. A kind maps their records to its jobs:
//! the single cluster prepares SWF records into batteries, Slurm reads a
//! dump's jobs natively with [`sacct`]'s columns and values. Trace files are
//! never bundled: they are read from the path given, or looked up in the
//! traces directories ([`trace_dirs`]), where `slasim trace fetch` puts them.

pub mod catalogue;
pub mod fetch;
pub mod gpu;
pub mod sacct;
pub mod swf;

use std::path::{Path, PathBuf};

/// Environment variable naming the traces directory.
pub const TRACE_DIR_ENV: &str = "SLASIM_TRACE_DIR";

/// The directory older setups keep their traces in, relative to the working
/// directory; still read (never written) when [`TRACE_DIR_ENV`] is unset.
pub const LEGACY_TRACE_DIR: &str = "../shared/data/traces";

/// The traces directory, where `slasim trace fetch` writes:
/// `$SLASIM_TRACE_DIR`, else the per-user cache `$XDG_CACHE_HOME/slasim/traces`,
/// else `$HOME/.cache/slasim/traces` (else [`LEGACY_TRACE_DIR`] when neither
/// variable is set). It holds `swf/`, `other/`, `failures/` and `gpu/`, the
/// layout of the catalogue's paths.
pub fn trace_dir() -> PathBuf {
    trace_dirs().swap_remove(0)
}

/// The directories a trace name is looked up in, in order: `$SLASIM_TRACE_DIR`
/// alone when set; otherwise the per-user cache ([`trace_dir`]), then
/// [`LEGACY_TRACE_DIR`]. Never empty.
pub fn trace_dirs() -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os(TRACE_DIR_ENV).filter(|d| !d.is_empty()) {
        return vec![PathBuf::from(dir)];
    }
    let mut dirs: Vec<PathBuf> =
        crate::dirs::cache_dir().map(|cache| cache.join("slasim").join("traces")).into_iter().collect();
    dirs.push(PathBuf::from(LEGACY_TRACE_DIR));
    dirs
}

/// Where a catalogued entry's file is in the traces directories: the first
/// directory holding one of its forms (shipped first, then plain).
pub fn locate(entry: &catalogue::Entry) -> Option<PathBuf> {
    entry
        .dataset
        .dirs()
        .iter()
        .find_map(|dir| entry.forms().iter().map(|(path, _)| dir.join(path)).find(|p| p.is_file()))
}

/// Resolves a trace name: the path itself if it exists; else a catalogue
/// name (or a catalogued file's name) in the traces directories, where
/// `slasim trace fetch` puts it, either form; else the same name under each
/// traces directory's `swf/`, `other/`, `failures/` or root.
pub fn resolve_trace(name: &Path) -> Result<PathBuf, String> {
    if name.exists() {
        return Ok(name.to_path_buf());
    }
    let entry = name.to_str().and_then(catalogue::find);
    if let Some(found) = entry.and_then(locate) {
        return Ok(found);
    }
    let dirs = trace_dirs();
    let found = dirs.iter().find_map(|dir| {
        ["swf", "other", "failures", ""].iter().map(|sub| dir.join(sub).join(name)).find(|p| p.exists())
    });
    found.ok_or_else(|| {
        let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        let hint = match entry {
            Some(entry) => format!("`slasim trace fetch {}` downloads it", entry.name),
            None => format!("set {TRACE_DIR_ENV} to the directory holding swf/ and failures/"),
        };
        format!("{}: no such file (also looked under {}; {hint})", name.display(), looked.join(", "))
    })
}
