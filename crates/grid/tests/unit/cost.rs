use slasim_core::units::{DAY, HOUR, Time};
use slasim_grid::cost::*;

fn at(d: Time, h: Time, m: Time) -> Time {
    // Monday 00:00 of the week after t = 0.
    let monday = WEEK - DEFAULT_CALENDAR_OFFSET;
    monday + d * DAY + h * HOUR + m * 60
}

#[test]
fn the_default_calendar_puts_saturday_at_800000() {
    let table = CostTable::day_night(2.0, 1.0, 0.5, DEFAULT_CALENDAR_OFFSET);
    // t = 0 is Wednesday 17:46:40: a day hour (price 2), 13 min before night.
    assert_eq!(DEFAULT_CALENDAR_OFFSET, 2 * DAY + 17 * HOUR + 46 * 60 + 40);
    assert_eq!(table.price_at(0), 2.0);
    assert_eq!(table.price_at(800_000 - 1), 1.0); // Friday 23:59:59, night
    assert_eq!(table.price_at(800_000), 0.5); // Saturday 00:00, weekend night
    assert_eq!(table.price_at(800_000 + 8 * HOUR), 1.0); // Saturday 08:00, weekend day
    assert_eq!(table.price_at(800_000 + 2 * DAY), 1.0); // Monday 00:00: 972,800 s
    assert_eq!(800_000 + 2 * DAY, 972_800);
}

fn rate(days: &str, from: u32, to: u32, price: f64) -> RateConfig {
    RateConfig { days: days.into(), from, to, price }
}

#[test]
fn configured_tables_cover_the_week_once_and_default_to_the_thesis() {
    let flat = |clusters| CostTableConfig { clusters, rates: vec![rate("all", 0, 24, 3.0)] };
    let config = CostConfig { tables: vec![flat(vec![2])], ..CostConfig::default() };
    let tables = config.tables(4).unwrap();
    let saturday_noon = 800_000 + 12 * HOUR;
    let prices: Vec<f64> = tables.iter().map(|t| t.price_at(saturday_noon)).collect();
    // Thesis: day 2, weekend half price on clusters 1 and 3; cluster 2 flat 3.
    assert_eq!(prices, vec![2.0, 1.0, 3.0, 1.0]);
    let bad = |tables: Vec<CostTableConfig>| CostConfig { tables, ..CostConfig::default() }.tables(4).unwrap_err();
    let e = bad(vec![CostTableConfig { clusters: vec![0], rates: vec![rate("all", 0, 24, -1.0)] }]);
    assert_eq!((e.setting, e.rate), ("grid.costs.tables.rates", Some(0)));
    assert!(e.to_string().contains("price -1 must be finite and ≥ 0"), "{e}");
    let e = bad(vec![CostTableConfig {
        clusters: vec![0],
        rates: vec![rate("mon-fri", 0, 24, 1.0), rate("sat", 0, 24, 1.0)],
    }]);
    assert!(e.to_string().contains("a gap in the hours: sun 00:00–01:00 has no price"), "{e}");
    let e = bad(vec![CostTableConfig {
        clusters: vec![0],
        rates: vec![rate("all", 0, 24, 1.0), rate("tue", 18, 19, 2.0)],
    }]);
    assert!(e.to_string().contains("tue 18:00–19:00 has two prices") && e.rate == Some(1), "{e}");
    let e = bad(vec![flat(vec![7])]);
    assert_eq!(e.setting, "grid.costs.tables.clusters");
    assert!(e.to_string().contains("cluster 7 does not exist"), "{e}");
    let e = bad(vec![CostTableConfig { clusters: vec![0], rates: vec![rate("weekdays", 0, 24, 1.0)] }]);
    assert!(e.to_string().contains("days `weekdays`"), "{e}");
}

#[test]
fn the_calendar_splits_windows_into_day_night_and_weekend() {
    let cal = Calendar { offset: DEFAULT_CALENDAR_OFFSET };
    assert_eq!(cal.first_weekend(), (800_000, 972_800));
    // Friday 17:00 (800,000 − 7 h) for 3 h: one day hour, two night hours, none at the weekend.
    assert_eq!(cal.split(800_000 - 7 * HOUR, 800_000 - 4 * HOUR), (HOUR, 2 * HOUR));
    // Saturday 07:30 for 1 h: 30 min night, 30 min day; all of it weekend (off-peak).
    assert_eq!(cal.split(800_000 + 7 * HOUR + 1800, 800_000 + 8 * HOUR + 1800), (1800, HOUR));
    assert!(cal.is_weekend(800_000) && !cal.is_weekend(800_000 - 1));
}

#[test]
fn the_worked_example_costs_25() {
    // Listing 6's Monday: 0–8 h 1.0, 8–18 h 1.5; 10 CPUs 07:30–09:00 → 10 · (1.0 + 1.5).
    let mut table = CostTable::day_night(1.5, 1.0, 1.0, DEFAULT_CALENDAR_OFFSET);
    let start = at(0, 7, 30);
    assert_eq!(table.partial_cost(10, start, 90 * 60), 25.0);
    table.sampling = CostSampling::Literal;
    assert_eq!(table.partial_cost(10, start, 90 * 60), 25.0);
    // The two rules differ for a whole-hour window: 1 h at night is one
    // sample half-open, two (start and end) literally.
    table.sampling = CostSampling::HalfOpen;
    assert_eq!(table.partial_cost(4, at(1, 2, 0), HOUR), 4.0);
    table.sampling = CostSampling::Literal;
    assert_eq!(table.partial_cost(4, at(1, 2, 0), HOUR), 8.0);
}
