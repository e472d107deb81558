//! Grid signals on the real files of the signals directory
//! (`$SLASIM_SIGNAL_DIR`, else `../shared/data/signals`): every shipped file
//! is read, and its samples, span and statistics are those its `SOURCES.md`
//! lists; then `slasim signal info` as a user runs it, on good and bad input.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use slasim::signal::{Format, Quantity, ReadOptions, Signal, read, utc};

/// One row of a per-file table of SOURCES.md: its cells after the path.
fn listed() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(common::signals().join("SOURCES.md")).unwrap();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<String> = line.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect();
            let path = cells.first()?.strip_prefix('`')?.strip_suffix('`')?;
            path.ends_with(".csv.gz").then(|| (path.to_string(), cells[1..].to_vec()))
        })
        .collect()
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.to_string_lossy().ends_with(".csv.gz") {
            out.push(path);
        }
    }
}

fn number(cell: &str) -> f64 {
    cell.replace(',', "").parse().unwrap_or_else(|e| panic!("`{cell}`: {e}"))
}

fn options(column: Option<&str>) -> ReadOptions {
    ReadOptions { column: column.map(str::to_string), ..ReadOptions::default() }
}

/// Rows with empty cells in the EIA-930 files (SOURCES.md §2, "rows with empty cells").
const EIA_EMPTY_ROWS: [(&str, u64); 3] = [("CISO", 3), ("MISO", 3), ("PJM", 23)];

#[test]
fn every_shipped_file_is_read_with_the_figures_of_sources_md() {
    let dir = common::signals();
    let listed = listed();
    let mut found = Vec::new();
    files(&dir, &mut found);
    found.sort();
    // SOURCES.md: "It contains 177 files".
    assert_eq!(found.len(), 177);
    let mut per_format: BTreeMap<&str, usize> = BTreeMap::new();
    for path in &found {
        let rel = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
        let cells = listed.get(&rel).unwrap_or_else(|| panic!("{rel} is not listed in SOURCES.md"));
        let rows = number(&cells[0]) as u64;
        // SMARD's zones are columns: Denmark 1 has a price in every hour of both years.
        let smard = rel.starts_with("prices/smard/");
        let signal: Signal = read(path, &options(smard.then_some("Denmark 1"))).unwrap_or_else(|e| panic!("{e}"));
        let samples = signal.times().len() as u64;
        assert_eq!(samples + signal.gaps().rows_without_value, rows, "{rel}: samples and rows without a value");
        let values = signal.values();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let close = |ours: f64, listed: &str, decimals: i32| {
            let listed = number(listed);
            assert!((ours - listed).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9, "{rel}: {ours} is not {listed}");
        };
        // "a .. b" in UTC, written with or without `+00:00`.
        let span = |cell: &str| {
            let (first, last) = cell.split_once(" .. ").unwrap();
            assert_eq!(utc(signal.start()), first.trim_end_matches("+00:00"), "{rel}: first sample");
            assert_eq!(
                utc(signal.times()[samples as usize - 1]),
                last.trim_end_matches("+00:00"),
                "{rel}: last sample"
            );
        };
        let format = match signal.format() {
            Format::ElectricityMaps => {
                // | rows | span | mean LCA | …
                span(&cells[1]);
                close(mean, &cells[2], 1);
                assert_eq!(signal.quantity(), &Quantity::CarbonIntensity);
                "electricitymaps"
            }
            Format::Eia930 => {
                span(&cells[1]);
                let ba = rel.rsplit('/').next().unwrap().split('_').next().unwrap();
                let empty = EIA_EMPTY_ROWS.iter().find(|(b, _)| *b == ba).map_or(0, |(_, n)| *n);
                assert_eq!(signal.gaps().rows_without_value, empty, "{rel}");
                "eia930"
            }
            Format::SustainClusterUtcUsd | Format::SustainClusterIso => {
                // | rows | span | mean | min | max | …
                span(&cells[1]);
                close(mean, &cells[2], 2);
                close(min, &cells[3], 2);
                close(max, &cells[4], 2);
                let au = rel.contains("/AU-");
                let currency = if au { "AUD" } else { "USD" };
                assert_eq!(signal.quantity(), &Quantity::Price { currency: currency.to_string() }, "{rel}");
                if signal.format() == Format::SustainClusterIso { "us-iso" } else { "utc-usd" }
            }
            Format::Smard => {
                assert_eq!(signal.quantity(), &Quantity::Price { currency: "EUR".to_string() });
                // 8,760 local hours are 8,760 UTC hours: no duplicate, no gap across DST.
                assert_eq!(signal.gaps().filled, 0, "{rel}");
                "smard"
            }
            other => panic!("{rel}: read as {other}"),
        };
        *per_format.entry(format).or_default() += 1;
    }
    // SOURCES.md's layout table: 64 + 8 + 88 + 15 + 2 files.
    let expected: BTreeMap<&str, usize> =
        [("electricitymaps", 64), ("eia930", 8), ("utc-usd", 88), ("us-iso", 15), ("smard", 2)].into();
    assert_eq!(per_format, expected);
}

/// Both SMARD years, every zone with a value: the zones SOURCES.md gives
/// 99–100 % of hours read whole (gaps bridged), Poland 2015 (69 %) is refused
/// at its first long gap, and a zone without any price is refused.
#[test]
fn smard_zones_read_or_are_refused_where_sources_md_says() {
    let path = |year| common::signals().join(format!("prices/smard/Day-ahead_prices_{year}.csv.gz"));
    // Switzerland 2015: one day missing, bridged (24 h is the tolerance).
    let swiss = read(path(2015), &options(Some("Switzerland"))).unwrap();
    assert_eq!((swiss.times().len(), swiss.gaps().filled, swiss.gaps().longest), (8736, 1, 24 * 3600));
    // France 2015: the first 96 rows have no price; they narrow the span.
    let france = read(path(2015), &options(Some("France"))).unwrap();
    assert_eq!((france.times().len(), france.gaps().rows_without_value), (8664, 96));
    // Jan 5, 2015 12:00 AM CET is 2015-01-04 23:00 UTC.
    assert_eq!(utc(france.start()), "2015-01-04 23:00:00");
    let e = read(path(2015), &options(Some("Poland"))).unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(1113), Some("Time of day")), "{e}");
    assert!(e.to_string().contains("gap: no sample for 55 h after 2015-02-13 22:00:00"), "{e}");
    let e = read(path(2018), &options(Some("Belgium"))).unwrap_err();
    assert!(e.to_string().contains("0 sample(s) with a value (8760 row(s) without one)"), "{e}");
    // Germany/Luxembourg begins 2018-10-01 local, 2018-09-30 22:00 UTC.
    let de = read(path(2018), &options(Some("Germany/Luxembourg"))).unwrap();
    assert_eq!((utc(de.start()), de.times().len()), ("2018-09-30 22:00:00".to_string(), 2209));
}

#[test]
fn info_prints_what_sources_md_lists() {
    let file = common::signals().join("carbon_intensity/electricitymaps/DE-LU_2023_hourly.csv.gz");
    let (ok, out, err) = common::run(&["signal", "info", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    // SOURCES.md: 8,760 rows, 2023-01-01 00:00:00 .. 2023-12-31 23:00:00, mean LCA 367.
    for expected in [
        "format         Electricity Maps hourly CSV, column `lca`",
        "quantity       carbon intensity, gCO2eq/kWh",
        "span           2023-01-01 00:00:00 .. 2023-12-31 23:00:00 UTC",
        "samples        8,760, step 1 h",
        "gaps           none filled; rows without a value: 0",
        "/ 366.97 /",
        "hour of day    lowest mean at ",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in:\n{out}");
    }
    // A name under the signals directory, and the renewable supply of an EIA file with empty rows.
    let (ok, out, err) = common::run(&[
        "signal",
        "info",
        "grid_mix/eia930_2022/PJM_NG_avgCI_2022.csv.gz",
        "--column",
        "renewable",
        "--interpolation",
        "linear",
    ]);
    assert!(ok, "{err}");
    for expected in [
        "quantity       energy per hour, MWh/h",
        "interpolation  linear",
        "samples        8,737, step 1 h",
        "gaps           2 filled (23 missing steps, the longest 22 h); rows without a value: 23",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in:\n{out}");
    }
}

#[test]
fn bad_signal_files_give_one_located_error_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let em_header = "Datetime (UTC),Country,Zone Name,Zone Id,Carbon Intensity gCO₂eq/kWh (direct),Carbon Intensity gCO₂eq/kWh (LCA),Low Carbon Percentage,Renewable Percentage,Data Source,Data Estimated,Data Estimation Method";
    let em = |rows: &str| {
        format!("{em_header}\n2023-01-01 00:00:00,Germany,Germany,DE,140.51,185.8,83.79,78.42,entsoe.eu,false,\n{rows}")
    };
    let real = std::fs::read(
        common::signals().join("prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2022.csv.gz"),
    )
    .unwrap();
    let cases: Vec<(String, Vec<&str>, String)> = vec![
        (write("empty.csv", b""), vec![], "the file is empty".to_string()),
        (write("header.csv", b"when,what\n1,2\n"), vec![], "header.csv:1: unrecognised header `when,what`".to_string()),
        (write("unit.csv", b"time,furlongs\n0,1\n"), vec![], "unit.csv:1: cannot read the unit `furlongs`".to_string()),
        (
            write(
                "negative.csv",
                em("2023-01-01 01:00:00,Germany,Germany,DE,140.44,-185.7,83.85,78.93,entsoe.eu,false,\n").as_bytes(),
            ),
            vec![],
            "negative.csv:3: field `Carbon Intensity gCO₂eq/kWh (LCA)`: negative carbon intensity `-185.7`".to_string(),
        ),
        (
            write(
                "nan.csv",
                em("2023-01-01 01:00:00,Germany,Germany,DE,1x,185.7,83.85,78.93,entsoe.eu,false,\n").as_bytes(),
            ),
            vec!["--column", "direct"],
            "nan.csv:3: field `Carbon Intensity gCO₂eq/kWh (direct)`: `1x` is not a number".to_string(),
        ),
        (
            write(
                "back.csv",
                em("2022-12-31 23:00:00,Germany,Germany,DE,140.44,185.7,83.85,78.93,entsoe.eu,false,\n").as_bytes(),
            ),
            vec![],
            "back.csv:3: field `Datetime (UTC)`: time 2022-12-31 23:00:00 goes back before the previous sample's"
                .to_string(),
        ),
        (
            write(
                "twice.csv",
                b"Datetime,Price (USD/MWh)\n2022-01-01 05:00:00,1\n2022-01-01 06:00:00,2\n2022-01-01 06:00:00,-3\n",
            ),
            vec![],
            "twice.csv:4: field `Datetime`: time 2022-01-01 06:00:00 repeats".to_string(),
        ),
        (
            write("gap.csv", b"time,W\n2024-01-01T00:00:00Z,1\n2024-01-01T01:00:00Z,1\n2024-01-01T05:00:00Z,1\n"),
            vec!["--max-gap", "2"],
            "gap.csv:4: field `time`: gap: no sample for 3 h after 2024-01-01 01:00:00".to_string(),
        ),
        (write("column.csv", em("").as_bytes()), vec!["--column", "solar"], "choose one of: lca, direct".to_string()),
        (write("cut.csv.gz", &real[..real.len() / 2]), vec![], "truncated or corrupt gzip data".to_string()),
        (dir.path().to_str().unwrap().to_string(), vec![], "is a directory".to_string()),
        (dir.path().join("missing.csv").to_str().unwrap().to_string(), vec![], "no such file".to_string()),
    ];
    for (path, flags, message) in cases {
        let mut args = vec!["signal", "info", path.as_str()];
        args.extend(flags);
        let (ok, out, err) = common::run(&args);
        assert!(!ok && out.is_empty(), "{path} should fail: {out}");
        assert!(err.starts_with("error: ") && err.contains(&message), "{path}: `{message}` not in {err}");
        assert_eq!(err.trim().lines().count(), 1, "one-line error expected: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // The gap is bridged with a wider tolerance.
    let gap = dir.path().join("gap.csv");
    let (ok, out, err) = common::run(&["signal", "info", gap.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("1 filled (3 missing steps, the longest 3 h)"), "{out}");
}
