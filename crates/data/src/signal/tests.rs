//! The signal module's contract on tiny hand-checked series and malformed
//! inputs; every shipped file is read in `tests/integration/signals.rs`.

use std::sync::Arc;

use super::*;
use slasim_sim::units::{DAY, HOUR};

fn tiny(interpolation: Interpolation) -> Signal {
    // Samples 10 at 0 h, 20 at 1 h, 40 at 2 h: step 1 h, span [0, 3 h).
    Signal::from_samples(
        "tiny",
        Quantity::CarbonIntensity,
        interpolation,
        vec![0, HOUR, 2 * HOUR],
        vec![10.0, 20.0, 40.0],
        0,
    )
    .unwrap()
}

#[test]
fn hold_values_and_integrals_by_hand() {
    let s = tiny(Interpolation::Hold);
    assert_eq!((s.step(), s.start(), s.end()), (HOUR, 0, 3 * HOUR));
    // Each value holds for its hour; the last for one step.
    assert_eq!(s.value_at(0), Some(10.0));
    assert_eq!(s.value_at(1800), Some(10.0));
    assert_eq!(s.value_at(HOUR), Some(20.0));
    assert_eq!(s.value_at(3 * HOUR - 1), Some(40.0));
    assert_eq!(s.value_at(3 * HOUR), None);
    assert_eq!(s.value_at(-1), None);
    // Whole span: 10·3600 + 20·3600 + 40·3600 = 252,000.
    assert_eq!(s.integral(0, 3 * HOUR), Some(252_000.0));
    // 0:30–1:30: 10·1800 + 20·1800 = 54,000.
    assert_eq!(s.integral(1800, 5400), Some(54_000.0));
    assert_eq!(s.integral(5400, 5400), Some(0.0));
    assert_eq!(s.integral(5400, 1800), None);
    assert_eq!(s.integral(0, 3 * HOUR + 1), None);
    // 252,000 s·g/kWh over 10,800 s.
    assert!((s.mean() - 70.0 / 3.0).abs() < 1e-12);
}

#[test]
fn linear_values_and_integrals_by_hand() {
    let s = tiny(Interpolation::Linear);
    // Halfway between 10 and 20, and between 20 and 40; the last sample holds.
    assert_eq!(s.value_at(1800), Some(15.0));
    assert_eq!(s.value_at(5400), Some(30.0));
    assert_eq!(s.value_at(9000), Some(40.0));
    // Trapezoids: (10+20)/2·3600 = 54,000; (20+40)/2·3600 = 108,000; 40·3600 = 144,000.
    assert_eq!(s.integral(0, HOUR), Some(54_000.0));
    assert_eq!(s.integral(HOUR, 2 * HOUR), Some(108_000.0));
    assert_eq!(s.integral(0, 3 * HOUR), Some(306_000.0));
    // 0:30–1:00 runs 15→20 (mean 17.5·1800 = 31,500), 1:00–1:30 runs 20→30 (25·1800 = 45,000).
    assert_eq!(s.integral(1800, 5400), Some(76_500.0));
    // The same samples held again.
    assert_eq!(s.with_interpolation(Interpolation::Hold).integral(1800, 5400), Some(54_000.0));
}

#[test]
fn gaps_are_bridged_up_to_the_tolerance_and_refused_beyond() {
    // 0 h, 1 h, then 3 h: one step (1 h) missing.
    let times = vec![0, HOUR, 3 * HOUR];
    let values = vec![1.0, 2.0, 4.0];
    let s =
        Signal::from_samples("g", Quantity::Power, Interpolation::Hold, times.clone(), values.clone(), HOUR).unwrap();
    assert_eq!(s.gaps(), Gaps { filled: 1, missing_steps: 1, longest: HOUR, rows_without_value: 0 });
    // Held across the gap: 2 W from 1 h to 3 h.
    assert_eq!(s.value_at(2 * HOUR), Some(2.0));
    let e = Signal::from_samples("g", Quantity::Power, Interpolation::Hold, times, values, HOUR - 1).unwrap_err();
    assert_eq!((e.problem, e.line), (Problem::Gap, Some(3)));
}

fn plain(text: &str, options: &ReadOptions) -> Result<Signal, SignalError> {
    parse("f.csv", text.as_bytes(), options)
}

#[test]
fn the_plain_form_reads_each_time_notation_and_unit() {
    let o = ReadOptions::default();
    let s = plain("time,gCO2eq/kWh\n2023-01-01T00:00:00Z,100\n2023-01-01 01:00:00,110\n1672538400,120\n", &o).unwrap();
    assert_eq!(s.times(), &[1_672_531_200, 1_672_534_800, 1_672_538_400]);
    assert_eq!(s.quantity(), &Quantity::CarbonIntensity);
    let s = plain("time,value (EUR/MWh)\n2023-01-01T01:00:00+01:00,-5\n2023-01-01 01:00:00+01:00,7\n", &o);
    // The same instant twice, written with an offset: a duplicate.
    assert_eq!(s.unwrap_err().problem, Problem::DuplicateTime);
    let s = plain("time,value (EUR/MWh)\n2023-01-01T00:00:00Z,-5\n2023-01-01T01:00:00Z,7\n", &o).unwrap();
    assert_eq!((s.quantity().unit(), s.values()), ("EUR/MWh".to_string(), &[-5.0, 7.0][..]));
}

/// Each malformed input names its file, line and field.
#[test]
fn malformed_inputs_are_located() {
    let o = ReadOptions::default();
    let cases: &[(&str, Problem, Option<u64>, Option<&str>)] = &[
        ("", Problem::Empty, None, None),
        ("\n\n", Problem::Empty, None, None),
        ("time,gCO2eq/kWh\n", Problem::TooFewSamples, None, None),
        ("time,furlongs\n0,1\n", Problem::Header, Some(1), None),
        ("when,what\n0,1\n", Problem::Header, Some(1), None),
        ("time,W\n0,1\n3600,x\n", Problem::NotANumber, Some(3), Some("W")),
        ("time,W\n0,1\n3600,NaN\n", Problem::NotANumber, Some(3), Some("W")),
        ("time,W\n0,1\n3600,-2\n", Problem::Negative, Some(3), Some("W")),
        ("time,gCO2eq/kWh\n0,1\n3600,2\n3600,3\n", Problem::DuplicateTime, Some(4), Some("time")),
        ("time,gCO2eq/kWh\n0,1\n7200,2\n3600,3\n", Problem::TimeGoesBack, Some(4), Some("time")),
        ("time,gCO2eq/kWh\n0,1\n3600,2\n400000,3\n", Problem::Gap, Some(4), Some("time")),
        ("time,gCO2eq/kWh\n0,1\nyesterday,2\n", Problem::Time, Some(3), Some("time")),
        ("time,gCO2eq/kWh\n0,1\n3600,2,9\n", Problem::FieldCount, Some(3), None),
        ("time,gCO2eq/kWh\n0,1\n", Problem::TooFewSamples, None, None),
    ];
    for (text, problem, line, field) in cases {
        let e = plain(text, &o).unwrap_err();
        assert_eq!(e.path, PathBuf::from("f.csv"), "{text:?}");
        assert_eq!((e.problem, e.line, e.field.as_deref()), (*problem, *line, *field), "{text:?}: {e}");
    }
    // The message says all three.
    let e = plain("time,W\n0,1\n3600,x\n", &o).unwrap_err();
    assert_eq!(e.to_string(), "f.csv:3: field `W`: `x` is not a number");
    // Bytes that are not text, a lone quote, a huge number: errors, no panic.
    for bytes in [
        &b"\xff\xfe\x00\x01"[..],
        b"time,W\n0,\"1\n",
        b"time,W\n0,1e999\n3600,1\n",
        b"\x1f\x8b\x08",
        b"time,W\n-9223372036854775808,1\n9223372036854775807,1\n",
    ] {
        assert!(parse("f", bytes, &o).is_err());
    }
}

#[test]
fn each_format_chooses_its_column() {
    let em = "Datetime (UTC),Country,Zone Name,Zone Id,Carbon Intensity gCO₂eq/kWh (direct),Carbon Intensity gCO₂eq/kWh (LCA),Low Carbon Percentage,Renewable Percentage,Data Source,Data Estimated,Data Estimation Method\n\
        2023-01-01 00:00:00,Germany,Germany,DE,140.51,185.8,83.79,78.42,entsoe.eu,false,\n\
        2023-01-01 01:00:00,Germany,Germany,DE,140.44,185.7,83.85,78.93,entsoe.eu,false,\n";
    let with = |column: &str| ReadOptions { column: Some(column.to_string()), ..ReadOptions::default() };
    let s = parse("em", em.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!((s.format(), s.column(), s.values()), (Format::ElectricityMaps, "lca", &[185.8, 185.7][..]));
    assert_eq!(parse("em", em.as_bytes(), &with("direct")).unwrap().values(), &[140.51, 140.44]);
    let e = parse("em", em.as_bytes(), &with("renewable")).unwrap_err();
    assert_eq!((e.problem, e.line), (Problem::Column, Some(1)));

    let eia = "timestamp,WND,SUN,WAT,OIL,NG,COL,NUC,OTH,avg_CI\n\
        2022-01-01 00:00:00+00:00,3130.0,1367.0,2304.0,44.0,6764.0,19.0,2265.0,189.0,222.3\n\
        2022-01-01 01:00:00+00:00,3013.0,0.0,2723.0,42.0,8603.0,19.0,2265.0,1159.0,260.9\n\
        2022-01-01 02:00:00+00:00,,,,,,,,,\n\
        2022-01-01 03:00:00+00:00,3000.0,0.0,2723.0,42.0,8603.0,19.0,2265.0,1159.0,250.0\n";
    let s = parse("eia", eia.as_bytes(), &with("renewable")).unwrap();
    assert_eq!((s.quantity(), s.values()), (&Quantity::EnergyPerHour, &[4497.0, 3013.0, 3000.0][..]));
    assert_eq!(s.gaps(), Gaps { filled: 1, missing_steps: 1, longest: HOUR, rows_without_value: 1 });
    assert_eq!(parse("eia", eia.as_bytes(), &ReadOptions::default()).unwrap().values(), &[222.3, 260.9, 250.0]);

    let smard = "\u{feff}Date;Time of day;France[€/MWh];Poland[€/MWh]\nJan 1, 2018;12:00 AM;6.74;-\nJan 1, 2018;1:00 AM;-4.74;-\n";
    let e = parse("smard", smard.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert!(e.detail.contains("France, Poland"), "{e}");
    let s = parse("smard", smard.as_bytes(), &with("france")).unwrap();
    // Local midnight in winter is 23:00 UTC the day before; prices may be negative.
    assert_eq!(s.times(), &[1_514_761_200, 1_514_764_800]);
    assert_eq!((s.quantity().unit(), s.values()), ("EUR/MWh".to_string(), &[6.74, -4.74][..]));
    let e = parse("smard", smard.as_bytes(), &with("Poland")).unwrap_err();
    assert_eq!((e.problem, e.detail.contains("2 row(s) without one")), (Problem::TooFewSamples, true));
}

#[test]
fn smard_local_time_becomes_utc_across_both_switches() {
    let zone = |rows: &str| format!("Date;Time of day;France[€/MWh]\n{rows}");
    let with = ReadOptions { column: Some("France".to_string()), ..ReadOptions::default() };
    // 2018-03-25: 1:00 AM CET is 00:00 UTC; 3:00 AM CEST is 01:00 UTC: no gap.
    let spring = zone("Mar 25, 2018;1:00 AM;1\nMar 25, 2018;3:00 AM;2\n");
    let s = parse("s", spring.as_bytes(), &with).unwrap();
    assert_eq!(s.times(), &[1_521_936_000, 1_521_939_600]);
    // 2:00 AM does not exist that day.
    let e = parse("s", zone("Mar 25, 2018;1:00 AM;1\nMar 25, 2018;2:00 AM;2\n").as_bytes(), &with).unwrap_err();
    assert_eq!((e.problem, e.line, e.field.as_deref()), (Problem::Time, Some(3), Some("Time of day")));
    // 2018-10-28: 2:00 AM twice, CEST (00:00 UTC) then CET (01:00 UTC).
    let autumn =
        zone("Oct 28, 2018;1:00 AM;1\nOct 28, 2018;2:00 AM;2\nOct 28, 2018;2:00 AM;3\nOct 28, 2018;3:00 AM;4\n");
    let s = parse("s", autumn.as_bytes(), &with).unwrap();
    assert_eq!(s.times(), &[1_540_681_200, 1_540_684_800, 1_540_688_400, 1_540_692_000]);
    assert_eq!(s.gaps().filled, 0);
}

/// The worked example of the alignment rule (module `align`, and the
/// reference page): CTC-SP2's log starts at UnixStartTime 835,823,160, Wed
/// 1996-06-26 21:06:00 UTC, replayed on a 2023 signal starting Sun
/// 2023-01-01 00:00 UTC (1,672,531,200) and spanning 365 days.
/// - The same date in 2023 is Mon 2023-06-26 21:06; the Wednesdays at 21:06
///   around it are 06-21 (5 days before) and 06-28 (2 days after): the
///   nearest, 2023-06-28 21:06:00 (1,687,986,360), is virtual time 0.
///   The shift is 835,823,160 − 1,687,986,360 = −852,163,200 s = −1,409 weeks.
/// - The period is 52 weeks (364 days): 2023-12-31 is never read.
/// - Virtual 30 weeks is 178 d 21:06 + 210 d = 388 d 21:06 after the start,
///   24 d 21:06 after one loop: Wed 2023-01-25 21:06:00 (1,674,680,760).
#[test]
fn alignment_worked_example() {
    let start = 1_672_531_200;
    // Value = hour of the week (Monday 00:00 = 0), so it shows weekday and hour.
    let times: Vec<i64> = (0..365 * 24).map(|h| start + h * HOUR).collect();
    let hour_of_week = |t: i64| ((t - start) / HOUR + 6 * 24) % (7 * 24);
    let values: Vec<f64> = times.iter().map(|&t| hour_of_week(t) as f64).collect();
    let signal = Arc::new(
        Signal::from_samples("2023", Quantity::CarbonIntensity, Interpolation::Hold, times, values, 0).unwrap(),
    );
    let aligned = Alignment::at(835_823_160).align(signal.clone()).unwrap();
    assert_eq!(aligned.shift(), -852_163_200);
    assert_eq!(aligned.shift() % WEEK, 0);
    assert_eq!(aligned.period(), 52 * WEEK);
    assert_eq!(aligned.signal_instant(0), 1_687_986_360);
    // Wednesday (2 days after Monday) at 21:00.
    assert_eq!(aligned.value_at(0), (2 * 24 + 21) as f64);
    assert_eq!(aligned.signal_instant(30 * WEEK), 1_674_680_760);
    assert_eq!(aligned.value_at(30 * WEEK), (2 * 24 + 21) as f64);
    // At every hour of three years, the log's weekday and hour.
    for t in (0..3 * 365 * 24).map(|h| h * HOUR) {
        assert_eq!(aligned.value_at(t), ((t / HOUR + 2 * 24 + 21) % (7 * 24)) as f64, "virtual {t}");
    }
    // The seam: the last second read is Sat 2023-12-30 23:59:59, then Sun 2023-01-01 00:00.
    let seam = 52 * WEEK - (1_687_986_360 - start);
    assert_eq!(aligned.signal_instant(seam - 1), start + 52 * WEEK - 1);
    assert_eq!(aligned.signal_instant(seam), start);
    // One whole period integrates to the period's integral, wherever it begins.
    let once = signal.integral(start, start + 52 * WEEK).unwrap();
    assert!((aligned.integral(1234, 1234 + 52 * WEEK) - once).abs() < 1e-6 * once);
    assert!((aligned.integral(0, 3 * 52 * WEEK) - 3.0 * once).abs() < 1e-6 * once);
    // Across the seam, the integral is the sum of the pieces on each side.
    let before = signal.integral(start + 52 * WEEK - 2 * HOUR, start + 52 * WEEK).unwrap();
    let after = signal.integral(start, start + 3 * HOUR).unwrap();
    assert!((aligned.integral(seam - 2 * HOUR, seam + 3 * HOUR) - (before + after)).abs() < 1e-6);
    // Twice as fast: half a period of virtual time reads a whole period, per virtual second.
    let fast = Alignment { scale: 2.0, ..Alignment::at(835_823_160) }.align(signal.clone()).unwrap();
    assert!((fast.integral(0, 26 * WEEK) - once / 2.0).abs() < 1e-6 * once);
    // A start whose nearest whole week falls before the signal: Sat 2000-01-01
    // 00:00 is nearest to Sat 2022-12-31 (1 day before Sun 2023-01-01, where
    // the next Saturday would be 6 days after), which is 363 days after the
    // start in the loop: Sat 2023-12-30 00:00 (1,703,894,400); a day later,
    // the seam, Sun 2023-01-01.
    let y2k = Alignment::at(946_684_800).align(signal.clone()).unwrap();
    assert_eq!(y2k.signal_instant(0), 1_703_894_400);
    assert_eq!(y2k.value_at(0), (5 * 24) as f64);
    assert_eq!(y2k.signal_instant(DAY), start);
    // A week's offset keeps weekday and hour.
    let later = Alignment { offset: WEEK, ..Alignment::at(835_823_160) }.align(signal.clone()).unwrap();
    assert_eq!(later.signal_instant(0), 1_687_986_360 + WEEK);
    // Refused: a scale of 0, a signal shorter than a week.
    assert!(Alignment { scale: 0.0, ..Alignment::at(0) }.align(signal).is_err());
    let short = Arc::new(tiny(Interpolation::Hold));
    assert!(matches!(Alignment::at(0).align(short), Err(AlignError::TooShort { .. })));
}

#[test]
fn capped_integrals_by_hand() {
    // A week of hours: 10, 20, 40, then 0 for the rest of the week.
    let mut values = vec![0.0; 7 * 24];
    values[..3].copy_from_slice(&[10.0, 20.0, 40.0]);
    let times: Vec<i64> = (0..7 * 24).map(|h| h * HOUR).collect();
    let hold = Signal::from_samples("week", Quantity::Power, Interpolation::Hold, times, values, 0).unwrap();
    let linear = hold.clone().with_interpolation(Interpolation::Linear);
    let (hold, linear) = (Arc::new(hold), Arc::new(linear));
    let aligned = Alignment::at(0).align(hold.clone()).unwrap();
    // Held, capped at 25: 10·3600 + 20·3600 + 25·3600 = 198,000.
    assert_eq!(aligned.integral_capped(0, 3 * HOUR, 25.0), 198_000.0);
    // A cap above every value is the plain integral.
    assert_eq!(aligned.integral_capped(1800, 5400, 1e9), aligned.integral(1800, 5400));
    // Linear, capped at 30 over hour 1 (20→40): 20→30 in the first half
    // hour (25·1800 = 45,000), then 30·1800 = 54,000.
    let lin = Alignment::at(0).align(linear).unwrap();
    assert!((lin.integral_capped(HOUR, 2 * HOUR, 30.0) - 99_000.0).abs() < 1e-9);
    // Falling through the cap: hour 2 runs 40→0, capped at 30: 30 for the
    // first quarter hour (27,000), then 30→0 over 2,700 s (40,500).
    assert!((lin.integral_capped(2 * HOUR, 3 * HOUR, 30.0) - 67_500.0).abs() < 1e-9);
    // Looping: two weeks hold the first three hours twice (capped at 25).
    assert_eq!(aligned.integral_capped(0, 2 * WEEK, 25.0), 2.0 * 198_000.0);
    assert_eq!(aligned.integral_capped(5, 5, 25.0), 0.0);
}

/// A week of samples every 100 s: 50 over [0, 100), 10 over [100, 300),
/// 30 after; the step function `lower_step` reads, held and linear.
#[test]
fn lower_steps_by_hand() {
    let times: Vec<i64> = (0..WEEK / 100).map(|k| k * 100).collect();
    let values: Vec<f64> = (0..times.len()).map(|k| [50.0, 10.0, 10.0].get(k).copied().unwrap_or(30.0)).collect();
    let held = Signal::from_samples("s", Quantity::Power, Interpolation::Hold, times, values, 0).unwrap();
    let linear = held.clone().with_interpolation(Interpolation::Linear);
    let held = Alignment::at(0).align(Arc::new(held)).unwrap();
    // Held: the signal itself, constant until the next sample that changes the interval.
    assert_eq!(held.lower_step(0), (50.0, 100));
    assert_eq!(held.lower_step(99), (50.0, 100));
    assert_eq!(held.lower_step(100), (10.0, 200));
    assert_eq!(held.lower_step(250), (10.0, 300));
    assert_eq!(held.lower_step(300), (30.0, 400));
    assert_eq!(held.lowest(), 10.0);
    // The loop: a week later, the same.
    assert_eq!(held.lower_step(WEEK + 150), (10.0, WEEK + 200));
    // Linear: each interval at its lower end, 50→10 counts 10, 10→30 counts 10.
    let linear = Alignment::at(0).align(Arc::new(linear)).unwrap();
    assert_eq!(linear.lower_step(50), (10.0, 100));
    assert_eq!(linear.lower_step(250), (10.0, 300));
    assert_eq!(linear.lower_step(350), (30.0, 400));
    // Scaled: a virtual second reads 150 s of signal, so [0, 1) spans
    // [0, 150): 50 and 10; [1, 2) spans [150, 300): 10.
    let scaled = Alignment { start: 0, offset: 0, scale: 150.0 };
    let scaled = scaled.align(Arc::new(held.signal().clone())).unwrap();
    assert_eq!(scaled.lower_step(0), (10.0, 1));
    assert_eq!(scaled.lower_step(1), (10.0, 2));
    // [2, 3) spans [300, 450): 30 from there on, until the next sample
    // interval the second does not fit in (each is 100 s, shorter than a second).
    assert_eq!(scaled.lower_step(2).0, 30.0);
}
