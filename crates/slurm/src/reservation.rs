//! Advance reservations as `scontrol show reservation` prints them, read
//! with located errors.
//!
//! Sources: Slurm 22.05's `scontrol(1)` man page (the reservation fields
//! and flags) and how scontrol prints a reservation
//! (`src/api/reservation_info.c` `slurm_sprint_reservation_info`,
//! `reservation_flags_string` in `src/common/slurm_protocol_defs.c`).
//!
//! Contract:
//! - Input is `scontrol show reservation` output: `Key=Value` pairs
//!   separated by blanks, several per line; each `ReservationName=` starts
//!   a record, so both the default form (records of several lines, a blank
//!   line between them) and `scontrol -o` (one line each) are read.
//!   `No reservations in the system` is an empty file. A `last_update_time`
//!   or `records` pair before the first record is skipped.
//! - Fields read: `ReservationName`, `StartTime`, `EndTime`, `Duration`,
//!   `Nodes` (a hostlist, conf's [`expand_hostlist`]), `NodeCnt`,
//!   `CoreCnt`, `Features`, `PartitionName`, `Flags` (22.05's flags),
//!   `TRES` (sacctmgr's [`parse_tres`]), `Users`, `Groups`, `Accounts`,
//!   `Licenses`, `State` (`ACTIVE`/`INACTIVE`), `BurstBuffer`, `Watts`,
//!   `MaxStartDelay`. `NodeName`/`CoreIDs` lines (core reservations) and
//!   any other key are listed in [`Reservations::ignored`]. `(null)` and an
//!   empty value are "not set".
//! - Times: `YYYY-MM-DDTHH:MM:SS` as scontrol prints by default, or epoch
//!   seconds with `SLURM_TIME_FORMAT=%s`. The first form has no time zone:
//!   it is read as if it were UTC, the same rule as the sacct reader
//!   (`slasim_data::trace::sacct`), so a reservation and a sacct dump printed
//!   on the same machine in the same form share one clock. A file mixing the
//!   two forms is an error. `EndTime` may be `Unknown`/`None` (then
//!   `Duration`, if finite, gives it); `Duration` is Slurm's time syntax,
//!   `N/A`/`UNLIMITED` for none; when both are given `EndTime` is used (a
//!   daylight-saving change makes wall-clock `EndTime − StartTime` differ
//!   from `Duration`).
//! - Checks: a record without `ReservationName` or `StartTime`; a
//!   reservation named twice; a time, count, hostlist, flag, state or TRES
//!   that does not parse; an end before the start; a `NodeCnt` other than
//!   the number of hosts `Nodes` names. [`check_against`] checks a file
//!   against a `slurm.conf`: every node and partition it names is defined.
//! - Bad input is a [`ConfError`] naming the file, the line and the key.
//!   Nothing here panics on user data.
//! - Read, not modelled yet: the simulation does not hold reserved nodes.

use std::path::{Path, PathBuf};

use crate::conf::{Clock, ConfError, Ignored, SlurmConf, expand_hostlist, parse_time, stamp};
use crate::sacctmgr::{Tres, parse_tres};
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

/// One reservation.
#[derive(Debug, Clone, PartialEq)]
pub struct Reservation {
    /// The line of its `ReservationName`.
    pub line: u64,
    /// `ReservationName`.
    pub name: String,
    /// `StartTime`, seconds on the file's [`Clock`].
    pub start: i64,
    /// `EndTime` (or `StartTime + Duration`); `None`: no end.
    pub end: Option<i64>,
    /// `Duration`, seconds (`None`: N/A or UNLIMITED).
    pub duration: Option<Time>,
    /// `Nodes`, expanded.
    pub nodes: Vec<String>,
    /// The line of its `Nodes` (its `ReservationName`'s without).
    pub nodes_line: u64,
    /// `NodeCnt`.
    pub node_count: u32,
    /// `CoreCnt`.
    pub core_count: u32,
    /// `Features`.
    pub features: Option<String>,
    /// `PartitionName`.
    pub partition: Option<String>,
    /// The line of its `PartitionName` (its `ReservationName`'s without).
    pub partition_line: u64,
    /// `Flags`, upper-cased.
    pub flags: Vec<String>,
    /// `TRES`.
    pub tres: Vec<Tres>,
    /// `Users` (a name may start with `-`: every user but it).
    pub users: Vec<String>,
    /// `Groups`.
    pub groups: Vec<String>,
    /// `Accounts` (a name may start with `-`).
    pub accounts: Vec<String>,
    /// `Licenses`.
    pub licenses: Option<String>,
    /// `State=ACTIVE` when the dump was taken.
    pub active: bool,
    /// `MaxStartDelay`, seconds.
    pub max_start_delay: Option<Time>,
}

/// A reservation file.
#[derive(Debug, Clone, PartialEq)]
pub struct Reservations {
    /// The file it was read from.
    pub path: PathBuf,
    /// How its times are written (`None`: no reservation).
    pub clock: Option<Clock>,
    /// Every reservation, in file order.
    pub reservations: Vec<Reservation>,
    /// Keys read but not used (`NodeName`, `CoreIDs`, `BurstBuffer`, `Watts`, unknown ones).
    pub ignored: Vec<Ignored>,
}

/// The reservation flags `reservation_flags_string` prints in Slurm 22.05.
const FLAGS: [&str; 29] = [
    "MAINT",
    "NO_MAINT",
    "FLEX",
    "OVERLAP",
    "IGNORE_JOBS",
    "HOURLY",
    "NO_HOURLY",
    "DAILY",
    "NO_DAILY",
    "WEEKDAY",
    "WEEKEND",
    "WEEKLY",
    "NO_WEEKLY",
    "SPEC_NODES",
    "ALL_NODES",
    "ANY_NODES",
    "NO_ANY_NODES",
    "STATIC",
    "NO_STATIC",
    "PART_NODES",
    "NO_PART_NODES",
    "FIRST_CORES",
    "TIME_FLOAT",
    "REPLACE",
    "REPLACE_DOWN",
    "PURGE_COMP",
    "NO_HOLD_JOBS_AFTER_END",
    "MAGNETIC",
    "NO_MAGNETIC",
];

/// Reads the file at `path`.
pub fn read(path: &Path) -> Result<Reservations, ConfError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfError {
        path: path.to_path_buf(),
        line: 0,
        field: "file".into(),
        detail: format!("cannot read: {e}"),
    })?;
    parse(&text, path)
}

/// One record's pairs: (line, key, value).
type Pairs<'a> = Vec<(u64, &'a str, &'a str)>;

/// Parses `text`, read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<Reservations, ConfError> {
    let err = |line: u64, field: &str, detail: String| ConfError {
        path: path.to_path_buf(),
        line,
        field: field.to_string(),
        detail,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records: Vec<Pairs> = Vec::new();
    for (line, raw) in (1u64..).zip(text.lines()) {
        let body = raw.trim();
        if body.is_empty() || body.eq_ignore_ascii_case("No reservations in the system") {
            continue;
        }
        for token in body.split_whitespace() {
            let Some((key, value)) = token.split_once('=') else {
                return Err(err(line, "syntax", format!("`{token}` is not a Key=Value pair")));
            };
            if key.eq_ignore_ascii_case("ReservationName") {
                records.push(Vec::new());
            }
            match records.last_mut() {
                Some(record) => record.push((line, key, value)),
                None if key.eq_ignore_ascii_case("last_update_time") || key.eq_ignore_ascii_case("records") => {}
                None => return Err(err(line, key, "before any ReservationName=".into())),
            }
        }
    }
    let mut out = Reservations { path: path.to_path_buf(), clock: None, reservations: Vec::new(), ignored: Vec::new() };
    for record in &records {
        let r = record_of(record, path, &mut out)?;
        if let Some(first) = out.reservations.iter().find(|x| x.name == r.name) {
            return Err(err(
                r.line,
                "ReservationName",
                format!("reservation `{}` named twice (first on line {})", r.name, first.line),
            ));
        }
        out.reservations.push(r);
    }
    Ok(out)
}

/// `(null)` or empty: not set.
fn set(value: &str) -> Option<&str> {
    let v = value.trim();
    (!v.is_empty() && v != "(null)").then_some(v)
}

fn list(value: &str) -> Vec<String> {
    set(value)
        .map_or_else(Vec::new, |v| v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
}

fn record_of(record: &Pairs, path: &Path, out: &mut Reservations) -> Result<Reservation, ConfError> {
    let err = |line: u64, field: &str, detail: String| ConfError {
        path: path.to_path_buf(),
        line,
        field: field.to_string(),
        detail,
    };
    let (first_line, _, name) = record.first().copied().unwrap_or((0, "ReservationName", ""));
    let name = set(name).ok_or_else(|| err(first_line, "ReservationName", "empty".into()))?;
    let mut r = Reservation {
        line: first_line,
        name: name.to_string(),
        start: 0,
        end: None,
        duration: None,
        nodes: Vec::new(),
        nodes_line: first_line,
        node_count: 0,
        core_count: 0,
        features: None,
        partition: None,
        partition_line: first_line,
        flags: Vec::new(),
        tres: Vec::new(),
        users: Vec::new(),
        groups: Vec::new(),
        accounts: Vec::new(),
        licenses: None,
        active: false,
        max_start_delay: None,
    };
    let mut start = None;
    let mut node_count_line = None;
    let mut seen: Vec<String> = Vec::new();
    for &(line, key, value) in &record[1..] {
        let lower = key.to_ascii_lowercase();
        // Core reservations print one `NodeName= CoreIDs=` line per node.
        if lower != "nodename" && lower != "coreids" {
            if seen.contains(&lower) {
                return Err(err(line, key, format!("given twice in reservation `{name}`")));
            }
            seen.push(lower.clone());
        }
        let wrap = |d: String| err(line, key, d);
        let duration = |v: &str| -> Result<Option<Time>, ConfError> {
            match set(v) {
                None => Ok(None),
                Some(v) if v.eq_ignore_ascii_case("N/A") => Ok(None),
                Some(v) => parse_time(v).map_err(wrap),
            }
        };
        let count =
            |v: &str| -> Result<u32, ConfError> { set(v).map_or(Ok(0), |v| crate::conf::uint::<u32>(v).map_err(wrap)) };
        match lower.as_str() {
            "starttime" => {
                start = Some(
                    stamp(value, &mut out.clock)
                        .map_err(wrap)?
                        .ok_or_else(|| wrap(format!("a reservation needs a start time: `{value}`")))?,
                )
            }
            "endtime" => r.end = stamp(value, &mut out.clock).map_err(wrap)?,
            "duration" => r.duration = duration(value)?,
            "maxstartdelay" => r.max_start_delay = duration(value)?,
            "nodes" => {
                r.nodes_line = line;
                r.nodes = match set(value) {
                    Some(v) => expand_hostlist(v).map_err(wrap)?,
                    None => Vec::new(),
                }
            }
            "nodecnt" => {
                r.node_count = count(value)?;
                node_count_line = Some(line);
            }
            "corecnt" => r.core_count = count(value)?,
            "features" => r.features = set(value).map(str::to_string),
            "partitionname" => {
                r.partition_line = line;
                r.partition = set(value).map(str::to_string);
            }
            "flags" => {
                for flag in list(value) {
                    let upper = flag.to_ascii_uppercase();
                    if !FLAGS.contains(&upper.as_str()) {
                        return Err(wrap(format!("`{flag}` is not a reservation flag of Slurm 22.05")));
                    }
                    r.flags.push(upper);
                }
            }
            "tres" => r.tres = parse_tres(set(value).unwrap_or("")).map_err(wrap)?,
            "users" => r.users = list(value),
            "groups" => r.groups = list(value),
            "accounts" => r.accounts = list(value),
            "licenses" => r.licenses = set(value).map(str::to_string),
            "state" => {
                r.active = match value.trim().to_ascii_uppercase().as_str() {
                    "ACTIVE" => true,
                    "INACTIVE" => false,
                    _ => return Err(wrap(format!("not ACTIVE or INACTIVE: `{value}`"))),
                }
            }
            _ => out.ignored.push(Ignored { line, key: key.to_string() }),
        }
    }
    let Some(start) = start else {
        return Err(err(first_line, "StartTime", format!("reservation `{name}` has no StartTime")));
    };
    r.start = start;
    if r.end.is_none() {
        r.end = r.duration.and_then(|d| start.checked_add(d));
    }
    if let Some(end) = r.end
        && end < start
    {
        return Err(err(first_line, "EndTime", format!("reservation `{name}` ends before it starts")));
    }
    if let Some(line) = node_count_line
        && !r.nodes.is_empty()
        && r.node_count as usize != r.nodes.len()
    {
        return Err(err(
            line,
            "NodeCnt",
            format!("{} but Nodes names {} nodes in reservation `{name}`", r.node_count, r.nodes.len()),
        ));
    }
    Ok(r)
}

/// Where time 0 of `workload`'s axis (its first submission) is on a
/// file's clock: its times of `clock` less this are on the axis. For a
/// workload without absolute times (a synthetic one), epoch seconds count
/// from its time 0. `what` names the file's records in the error.
pub fn origin(clock: Option<Clock>, workload: &SlurmWorkload, what: &str) -> Result<Time, String> {
    match (clock, workload.epoch, workload.clock_origin) {
        (None, _, _) => Ok(0),
        (Some(Clock::Epoch), Some(epoch), _) => Ok(epoch),
        (Some(Clock::Epoch), None, None) => Ok(0),
        (Some(Clock::WallClock), None, Some(origin)) => Ok(origin),
        (Some(clock), _, _) => {
            let theirs = match (workload.epoch, workload.clock_origin) {
                (Some(_), _) => "epoch seconds",
                (None, Some(_)) => "wall-clock times",
                (None, None) => "no absolute times",
            };
            let ours = if clock == Clock::Epoch { "epoch seconds" } else { "wall-clock times" };
            Err(format!(
                "the {what} are in {ours} but the workload has {theirs}: they cannot be placed on its time axis"
            ))
        }
    }
}

/// Checks `reservations` against `conf`: every node and partition it names is defined there.
pub fn check_against(reservations: &Reservations, conf: &SlurmConf) -> Result<(), ConfError> {
    let err = |line: u64, field: &str, detail: String| ConfError {
        path: reservations.path.clone(),
        line,
        field: field.to_string(),
        detail,
    };
    for r in &reservations.reservations {
        if let Some(node) = r.nodes.iter().find(|n| !conf.nodes.iter().any(|d| &d.name == *n)) {
            return Err(err(
                r.nodes_line,
                "Nodes",
                format!("reservation `{}` holds node `{node}`, which {} does not define", r.name, conf.path.display()),
            ));
        }
        if let Some(p) = &r.partition
            && !conf.partitions.iter().any(|d| &d.name == p)
        {
            return Err(err(
                r.partition_line,
                "PartitionName",
                format!(
                    "reservation `{}` names partition `{p}`, which {} does not define",
                    r.name,
                    conf.path.display()
                ),
            ));
        }
    }
    Ok(())
}
