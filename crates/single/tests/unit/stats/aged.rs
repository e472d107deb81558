use proptest::prelude::*;
use slasim_core::units::{DAY, Time};
use slasim_single::stats::aged::*;
use std::f64::consts::LN_2;

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

#[test]
fn ageing_weights_by_hand() {
    let mut h = AgedHistogram::with_half_life_days(1.0).unwrap();
    assert!(close(h.rate(), LN_2 / 86_400.0, 1e-20));
    assert_eq!(h.weight_of(0, 0), 1.0);
    assert!(close(h.weight_of(0, DAY), 0.5, 1e-15));
    assert!(close(h.weight_of(0, 2 * DAY), 0.25, 1e-15));
    assert!(close(h.weight_of(DAY, 3 * DAY), 0.25, 1e-15));
    assert_eq!(h.weight_of(DAY, 0), 0.0, "an observation from the future weighs nothing");
    // Bin 0 at t = 0, bin 1 at t = 1 day: weights 0.5 and 1 → 1/3, 2/3.
    h.observe(0, 0, 1.0).unwrap();
    h.observe(DAY, 1, 1.0).unwrap();
    let mut p = [0.0; BINS];
    assert!(h.probabilities(&mut p));
    assert!(close(p[0], 1.0 / 3.0, 1e-15) && close(p[1], 2.0 / 3.0, 1e-15));
    assert!(close(p.iter().sum::<f64>(), 1.0, 1e-15));
    // Effective count 0.5 + 1 at one day, half of it a day later.
    assert!(close(h.effective_count(DAY), 1.5, 1e-12));
    assert!(close(h.effective_count(2 * DAY), 0.75, 1e-12));
    // A third observation of weight 3 in bin 1 a day later: 0.25, 0.5 + 3.
    h.observe(2 * DAY, 1, 3.0).unwrap();
    assert!(h.probabilities(&mut p));
    assert!(close(p[0], 0.25 / 3.75, 1e-15) && close(p[1], 3.5 / 3.75, 1e-15));
    assert_eq!((h.samples(), h.last()), (3, Some(2 * DAY)));
}

#[test]
fn no_decay_is_plain_frequencies_and_overruns_cap_at_100() {
    let mut h = AgedHistogram::new(0.0).unwrap();
    let mut p = [1.0; BINS];
    assert!(!h.probabilities(&mut p) && p.iter().all(|&x| x == 0.0), "empty");
    assert_eq!((h.last(), h.effective_count(5)), (None, 0.0));
    for (t, bin) in [(0, 10), (5, 10), (9, 50), (1_000_000, 100), (2_000_000, 250)] {
        h.observe(t, bin, 1.0).unwrap();
    }
    assert!(h.probabilities(&mut p));
    assert_eq!((p[10], p[50], p[100]), (0.4, 0.2, 0.4));
    assert_eq!(h.effective_count(10_000_000), 5.0);
}

#[test]
fn refuses_the_past_and_bad_weights_without_changing() {
    let mut h = AgedHistogram::with_half_life_days(2.0).unwrap();
    h.observe(100, 3, 1.0).unwrap();
    let before = h.clone();
    assert_eq!(h.observe(99, 4, 1.0), Err(AgedError::OutOfOrder { now: 99, last: 100 }));
    assert!(matches!(h.observe(100, 4, -1.0), Err(AgedError::BadWeight(_))));
    assert!(h.observe(100, 4, f64::NAN).is_err() && h.observe(100, 4, f64::INFINITY).is_err());
    assert_eq!(h, before);
    h.observe(100, 4, 1.0).unwrap(); // same time is fine
    let msg = AgedError::OutOfOrder { now: 99, last: 100 }.to_string();
    assert!(msg.contains("99") && msg.contains("time order"), "{msg}");
}

#[test]
fn renormalises_across_long_gaps() {
    // Half-life 1 h; 1000 h later the old mass is 2^−1000 ≈ 9e−302 of the new.
    let mut h = AgedHistogram::with_half_life_days(1.0 / 24.0).unwrap();
    h.observe(0, 0, 1.0).unwrap();
    h.observe(1000 * 3600, 5, 1.0).unwrap();
    let mut p = [0.0; BINS];
    assert!(h.probabilities(&mut p));
    assert!(p[0] < 1e-300 && close(p[5], 1.0, 1e-15));
    // Steps of 100 h (exponent ≈ 69 each) cross the threshold every 4th step.
    for k in 1..=20 {
        h.observe((1000 + 100 * k) * 3600, 7, 1.0).unwrap();
    }
    h.observe((3000 + 1) * 3600, 8, 1.0).unwrap();
    assert!(h.probabilities(&mut p));
    // Bin 7's latest entry is 1 h old (weight 1/2), the rest ≤ 2^−101.
    assert!(close(p[7], 0.5 / 1.5, 1e-12) && close(p[8], 1.0 / 1.5, 1e-12));
    assert!(h.effective_count((3000 + 1) * 3600).is_finite());
    assert!(close(h.effective_count((3000 + 1) * 3600), 1.5, 1e-12));
}

#[test]
fn settings_are_checked_and_named() {
    assert!(close(half_life(0.5).unwrap(), LN_2 / 43_200.0, 1e-20));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-320, 1e308] {
        let err = half_life(bad).unwrap_err();
        assert_eq!(err.setting, "pdf_half_life", "{bad}");
    }
    assert_eq!(
        half_life(0.0).unwrap_err().to_string(),
        "setting `pdf_half_life` = 0: must be a positive, finite number"
    );
    assert_eq!(AgedHistogram::new(-1.0).unwrap_err().setting, "pdf_half_life");
    assert!(AgedHistogram::new(f64::NAN).is_err());
    assert_eq!("online".parse::<PdfUpdate>(), Ok(PdfUpdate::Online));
    for name in PdfUpdate::NAMES {
        assert_eq!(name.parse::<PdfUpdate>().map(|u| u.to_string()).as_deref(), Ok(name));
    }
    let err = "live".parse::<PdfUpdate>().unwrap_err();
    assert_eq!(err.to_string(), "setting `pdf_update` = live: must be static or online");
}

/// The normalised PDF from scratch, from the observations made at or
/// before `t`: weights w·e^(−rate·(t − tᵢ)), computed relative to the
/// latest included time (the same after normalisation, and no underflow).
fn from_scratch(events: &[(Time, usize, f64)], rate: f64, t: Time) -> Option<[f64; BINS]> {
    let seen: Vec<_> = events.iter().filter(|e| e.0 <= t).collect();
    let latest = seen.iter().map(|e| e.0).max()?;
    let mut p = [0.0; BINS];
    for e in &seen {
        p[e.1.min(BINS - 1)] += e.2 * (-rate * (latest - e.0) as f64).exp();
    }
    let total: f64 = p.iter().sum();
    if total <= 0.0 {
        return None;
    }
    p.iter_mut().for_each(|x| *x /= total);
    Some(p)
}

proptest! {
    #![proptest_config(crate::testing::cases(256))]

    #[test]
    fn online_update_never_uses_the_future(
        half_life_hours in 1.0..2000.0f64,
        steps in prop::collection::vec((0i64..10 * DAY, 0usize..BINS + 5, 0.0..5.0f64), 1..80),
        zero_gaps in prop::collection::vec(any::<bool>(), 80),
    ) {
        // A time-ordered stream, with some simultaneous observations.
        let mut t = 0;
        let events: Vec<(Time, usize, f64)> = steps
            .iter()
            .zip(&zero_gaps)
            .map(|(&(gap, bin, w), &zero)| {
                t += if zero { 0 } else { gap };
                (t, bin, w)
            })
            .collect();
        let mut h = AgedHistogram::with_half_life_days(half_life_hours / 24.0).unwrap();
        let mut p = [0.0; BINS];
        for (i, &(ti, bin, w)) in events.iter().enumerate() {
            h.observe(ti, bin, w).unwrap();
            // Query at every time t in [tᵢ, tᵢ₊₁): the state holds exactly
            // the observations made at or before t.
            let next = events.get(i + 1).map_or(Time::MAX, |e| e.0);
            if next == ti {
                continue;
            }
            for q in [ti, ti + (next.saturating_sub(ti)) / 2] {
                let reference = from_scratch(&events, h.rate(), q);
                prop_assert_eq!(h.probabilities(&mut p), reference.is_some());
                if let Some(r) = reference {
                    for b in 0..BINS {
                        prop_assert!((p[b] - r[b]).abs() < 1e-9, "t = {q}, bin {b}: {} vs {}", p[b], r[b]);
                    }
                }
            }
            // A late-arriving older observation is refused.
            if ti > 0 {
                prop_assert!(h.clone().observe(ti - 1, 0, 1.0).is_err());
            }
        }
    }
}
