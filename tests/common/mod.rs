//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The traces directory: `$SLASIM_TRACE_DIR`, else `../shared/data/traces`
/// next to the crate. Tests fail (never skip) when it is missing: they exist
/// to check the real logs.
pub fn traces() -> PathBuf {
    let dir = std::env::var_os("SLASIM_TRACE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/traces"));
    assert!(
        dir.join("swf").is_dir(),
        "trace directory {} not found: set SLASIM_TRACE_DIR to the directory holding swf/, other/ and failures/",
        dir.display()
    );
    dir
}

/// The `slasim` binary built for this test run.
pub fn slasim() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_slasim"));
    cmd.env("SLASIM_TRACE_DIR", traces());
    cmd
}
