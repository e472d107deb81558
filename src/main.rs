//! The `slasim` binary: see [`slasim::cli`].

fn main() -> std::process::ExitCode {
    slasim::cli::main()
}
