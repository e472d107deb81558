use slasim_single::policy::comprehensive::shortened::*;

#[test]
fn shortened_duration_of_paper_a() {
    // 5 h with maxPoF = 0.13: 300/1.13 = 265.49 min → 4:25:30 (ceil to seconds).
    assert_eq!(shortened(5 * 3600, 0.13), 15_930);
}
