use slasim_core::rng::stream;
use slasim_grid::algorithm::*;
use slasim_grid::request::Tr;
use slasim_grid::streams::VARIANT_SHUFFLE;

#[test]
fn names_resolve_and_unknown_ones_list_the_valid() {
    assert!(algorithm("a3b").unwrap().queries);
    assert!(!algorithm("a1").unwrap().queries);
    let err = algorithm("a9").err().unwrap().to_string();
    assert!(err.contains("unknown algorithm `a9`") && err.contains("a1, a2, a3, a3-star, a3b"), "{err}");
}

#[test]
fn start_sorting_is_stable_over_the_shuffle() {
    let trs: Vec<Tr> = (0..40).map(|i| Tr { cluster: i % 4, part: 0, start: (i * 7) % 5, cost: 0.0 }).collect();
    let mut shuffled = trs.clone();
    Trivial.arrange(&mut shuffled, &mut stream(1, VARIANT_SHUFFLE, 0));
    let mut sorted = trs.clone();
    StartSorted(Trivial).arrange(&mut sorted, &mut stream(1, VARIANT_SHUFFLE, 0));
    // Same shuffle, then a stable sort: within one start the shuffled order stays.
    let mut expected = shuffled.clone();
    expected.sort_by_key(|t| t.start);
    assert_eq!(sorted, expected);
    assert!(sorted.windows(2).all(|w| w[0].start <= w[1].start));
    assert_ne!(shuffled, trs, "the shuffle moved something");
}
