//! slasim's command line, with `sjf-backfilling`, `a3b-unshuffled` and the
//! `dice` kind in its registry.

use std::process::ExitCode;

use slasim::experiment::registry::Registry;

fn main() -> ExitCode {
    match Registry::new(&slasim_custom_strategy::kinds()) {
        Ok(registry) => slasim::cli::main(&registry),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
