use slasim_sim::units::{count, duration, percent};

#[test]
fn units_read_as_printed() {
    assert_eq!(percent(0.4254), "42.5 %");
    assert_eq!(
        (duration(95.0), duration(1580.0), duration(26_280.0)),
        ("95 s".to_string(), "26.3 min".to_string(), "7.3 h".to_string())
    );
    assert_eq!(duration(3.0 * 86_400.0), "3.0 d");
    assert_eq!(slasim_sim::units::TimeUnit::of(3.0 * 86_400.0).name, "d");
    assert_eq!(count(1, "battery", "batteries"), "1 battery");
    assert_eq!(count(2000, "point", "points"), "2,000 points");
}
