use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use slasim_core::rng::*;

fn draws(mut rng: ChaCha8Rng) -> Vec<u64> {
    (0..4).map(|_| rng.random()).collect()
}

#[test]
fn streams_are_reproducible_and_distinct() {
    let failures = Stream::new("node-failures", 3);
    let a = draws(stream(7, failures, 3));
    assert_eq!(a, draws(stream(7, failures, 3)));
    assert_ne!(a, draws(stream(7, failures, 4)));
    assert_ne!(a, draws(stream(7, WORKLOAD_JOBS, 3)));
    assert_ne!(a, draws(stream(8, failures, 3)));
}
