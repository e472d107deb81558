//! How many random cases a property test runs, and from which seed.
//!
//! Contract: `cargo test` runs every property on a fixed set of cases (a fixed
//! seed, the same on every machine), so a run passes or fails for the code,
//! not for the draw. Exploring is a separate command (`scripts/explore`):
//! `SLASIM_EXPLORE=N` runs N cases per property, `SLASIM_SEED=S` draws them
//! from seed S (the script picks a fresh one and prints it, so a failure can
//! be replayed with the same two variables). Failures found once are kept in
//! the `*.proptest-regressions` files and re-run first.
//!
//! Compiled only into tests: no crate's library holds it; the kind crates'
//! tests and the integration tests (through `tests/common`) include it by
//! path.

use proptest::test_runner::{Config, RngSeed};

/// The seed of the fixed cases.
pub const FIXED_SEED: u64 = 0x5_1a51_2026;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    let value = std::env::var(name).ok()?;
    match value.trim().parse() {
        Ok(v) => Some(v),
        Err(_) => panic!("{name}={value}: not a number"),
    }
}

/// The config of a property test that runs `cases` cases in `cargo test`.
pub fn cases(cases: u32) -> Config {
    let cases = env("SLASIM_EXPLORE").unwrap_or(cases);
    let default = Config::default();
    Config {
        cases,
        rng_seed: RngSeed::Fixed(env("SLASIM_SEED").unwrap_or(FIXED_SEED)),
        // Properties that skip unfit draws reject a share of them: exploring
        // thousands of cases must not stop at the fixed cases' reject limit.
        max_global_rejects: default.max_global_rejects.max(cases.saturating_mul(4)),
        ..default
    }
}

/// The most processors in use at once by half-open `[start, end)` spans of
/// `(start, end, processors)`, times in seconds.
#[allow(dead_code)] // not every crate that includes this file draws spans
pub fn peak_use(spans: &[(i64, i64, i64)]) -> i64 {
    let mut events: Vec<(i64, i64)> = spans.iter().flat_map(|&(s, e, n)| [(s, n), (e, -n)]).collect();
    // Ends before starts at equal times: the spans are half-open.
    events.sort_unstable();
    let (mut used, mut max) = (0, 0);
    for (_, d) in events {
        used += d;
        max = max.max(used);
    }
    max
}
