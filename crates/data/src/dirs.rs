//! Where data files live on this machine: the per-user cache and the
//! signals directories. A module of its own so that the trace catalogue and
//! the signal readers can both name the directories without naming each
//! other.

use std::path::PathBuf;

/// `$XDG_CACHE_HOME`, else `$HOME/.cache` (unset or empty variables skipped).
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|home| home.join(".cache")))
}

/// Environment variable naming the signals directory.
pub const SIGNAL_DIR_ENV: &str = "SLASIM_SIGNAL_DIR";

/// The directory older setups keep their signals in, relative to the
/// working directory; still read (never written) when [`SIGNAL_DIR_ENV`] is
/// unset.
pub const LEGACY_SIGNAL_DIR: &str = "../shared/data/signals";

/// The directories a signal name is looked up in, in order:
/// `$SLASIM_SIGNAL_DIR` alone when set; otherwise the per-user cache
/// (`$XDG_CACHE_HOME/slasim/signals`, else `$HOME/.cache/slasim/signals`),
/// where `slasim trace fetch` writes catalogued signals, then
/// [`LEGACY_SIGNAL_DIR`].
pub fn signal_dirs() -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os(SIGNAL_DIR_ENV).filter(|d| !d.is_empty()) {
        return vec![PathBuf::from(dir)];
    }
    let mut dirs: Vec<PathBuf> = cache_dir().map(|cache| cache.join("slasim").join("signals")).into_iter().collect();
    dirs.push(PathBuf::from(LEGACY_SIGNAL_DIR));
    dirs
}
