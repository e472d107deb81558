//! The queue shifting policies' choices, worked out by hand on one week of
//! hourly carbon: 300, 300, 120, 120, 100, 100 for hours 0 to 5, then 300.

use std::sync::Arc;

use slasim_core::units::{HOUR, Time};
use slasim_data::signal::{Alignment, Interpolation, Quantity, Signal};
use slasim_single::policy::forecast;
use slasim_single::policy::shifting::hold::Window;
use slasim_single::policy::shifting::{Outlook, carbon_time, cats, lowest_window};
use slasim_single::workload::job::{Job, NO_DEADLINE};

const MONDAY: i64 = 1_672_617_600;

/// The week's signal seen through the forecast `name` (noise `noise`, seed 1).
fn outlook(step: Time, first: &[f64], name: &str, noise: f64) -> Outlook {
    let n = 7 * 24 * HOUR / step;
    let times = (0..n).map(|i| MONDAY + i * step).collect();
    let values = (0..n as usize).map(|i| first.get(i).copied().unwrap_or(300.0)).collect();
    let signal =
        Signal::from_samples("week", Quantity::CarbonIntensity, Interpolation::Hold, times, values, 0).unwrap();
    let aligned = Alignment::at(MONDAY).align(Arc::new(signal)).unwrap();
    let forecast = forecast::named(name).unwrap();
    Outlook::new(aligned, (forecast.build)(&forecast::ForecastSettings { seed: 1, noise }))
}

const HOURLY: [f64; 6] = [300.0, 300.0, 120.0, 120.0, 100.0, 100.0];

/// A 2-hour job submitted at `now` with `deadline`, horizon 4 h.
fn window(now: Time, deadline: Time) -> Window {
    let mut job = Job::without_sla(0, now, 1, 2 * HOUR, 2 * HOUR);
    job.deadline = deadline;
    Window::of(&job, now, 4 * HOUR)
}

/// Windows cost 600, 420, 240, 220, 200 (value × hours) at starts 0 … 4 h:
/// `lowest-window` and `cats` take 4 h; `carbon-time` rates the savings
/// 60, 90, 76, 66.7 per hour of wait and run and takes 2 h.
#[test]
fn choices_on_the_oracle() {
    let o = outlook(HOUR, &HOURLY, "oracle", 0.0);
    let w = window(0, NO_DEADLINE);
    assert_eq!((w.earliest, w.latest), (0, 4 * HOUR));
    assert_eq!(lowest_window::choose(&o, &w), 4 * HOUR);
    assert_eq!(cats::choose(&o, &w), 4 * HOUR);
    assert_eq!(carbon_time::choose(&o, &w), 2 * HOUR);
}

/// A deadline caps the window at `deadline − estimate`: due at 5 h, a
/// 2-hour job may start by 3 h, so `lowest-window` takes 3 h (cost 220),
/// not 4 h; due at 2 h, it may not wait at all.
#[test]
fn a_deadline_caps_the_window() {
    let o = outlook(HOUR, &HOURLY, "oracle", 0.0);
    let w = window(0, 5 * HOUR);
    assert_eq!(w.latest, 3 * HOUR);
    assert_eq!(lowest_window::choose(&o, &w), 3 * HOUR);
    let w = window(0, 2 * HOUR);
    assert_eq!(w.latest, 0);
    assert_eq!(lowest_window::choose(&o, &w), 0);
    assert_eq!(cats::choose(&o, &w), 0);
}

/// Seen at 0, the persistence forecast repeats Sunday (300 all day):
/// every window costs the same and the earliest wins.
#[test]
fn a_wrong_forecast_moves_the_choice() {
    let o = outlook(HOUR, &HOURLY, "persistence", 0.0);
    let w = window(0, NO_DEADLINE);
    assert_eq!(lowest_window::choose(&o, &w), 0);
    assert_eq!(carbon_time::choose(&o, &w), 0);
    // A noisy forecast is the oracle times a factor per hour: the choice
    // is one of the candidates, and asked twice it is the same.
    let o = outlook(HOUR, &HOURLY, "noise", 0.5);
    let a = lowest_window::choose(&o, &w);
    assert!(a % HOUR == 0 && a <= 4 * HOUR);
    assert_eq!(a, lowest_window::choose(&o, &w));
}

/// Half-hourly: 300 for 2.5 h, 100 for 2 h, then 300. `cats` tries every
/// half hour and takes 2.5 h (mean 100); `lowest-window` tries whole hours
/// from the submission, where 2 h and 3 h tie at 300, and takes 2 h.
#[test]
fn cats_steps_by_the_signal() {
    let mut first = vec![300.0; 5];
    first.extend([100.0; 4]);
    let o = outlook(HOUR / 2, &first, "oracle", 0.0);
    assert_eq!(o.step(), HOUR / 2);
    let w = window(0, NO_DEADLINE);
    assert_eq!(cats::choose(&o, &w), 9_000);
    assert_eq!(lowest_window::choose(&o, &w), 2 * HOUR);
}

/// The next change of an hourly signal is the next whole hour.
#[test]
fn next_change_is_the_next_sample() {
    let o = outlook(HOUR, &HOURLY, "oracle", 0.0);
    assert_eq!(o.next_change(0), HOUR);
    assert_eq!(o.next_change(1), HOUR);
    assert_eq!(o.next_change(HOUR - 1), HOUR);
    assert_eq!(o.next_change(HOUR), 2 * HOUR);
}
