//! The `slasim` binary: the registry of the workspace's kinds, then [`slasim::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    slasim::cli::main(&slasim::registry())
}
