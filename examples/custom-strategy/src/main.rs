//! slasim's command line, with `sjf-backfilling`, `a3b-unshuffled` and the `dice` kind registered.

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(e) = slasim_custom_strategy::register() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    slasim::cli::main()
}
