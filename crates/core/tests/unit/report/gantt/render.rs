use slasim_core::report::gantt::render::*;
use slasim_core::units::DAY;

#[test]
fn ticks_are_round_and_few() {
    let t = ticks(0, 7 * DAY);
    assert_eq!(t.first(), Some(&0));
    assert!(t.len() <= 11 && t.windows(2).all(|w| w[1] - w[0] == DAY), "{t:?}");
    assert_eq!(clock(DAY + 90 * 60), "d1 01:30");
}
