//! The `slasim` binary: every kind registered, then [`slasim::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(e) = slasim::register_kinds() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    slasim::cli::main()
}
