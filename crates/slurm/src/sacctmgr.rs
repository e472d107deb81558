//! What a centre's accounting database says: `sacctmgr show assoc -P`,
//! `sacctmgr show qos -P` and `sacctmgr show event -P` dumps, read with
//! located errors.
//!
//! Sources: Slurm 22.05's `sacctmgr(1)` man page (the association and QOS
//! fields, their time and TRES syntax) and how sacctmgr prints them
//! (`src/sacctmgr/association_functions.c` `sacctmgr_print_assoc_rec`,
//! `src/sacctmgr/qos_functions.c`, `slurmdb_make_tres_string_from_simple`,
//! `slurmdb_qos_flags_str` and `preempt_mode_string`/`preempt_mode_num`;
//! for events `src/sacctmgr/event_functions.c` `sacctmgr_list_event` and
//! `node_state_string_compact` in `src/common/slurm_protocol_defs.c`).
//!
//! Contract:
//! - A dump is sacctmgr's `-P` (`--parsable2`) output: a header line of
//!   column names separated by `|`, then one line per association or QOS.
//!   `-p` output (every line ends with a `|`) is read too. Blank lines are
//!   skipped. Columns are found by their header names (case-insensitive), in
//!   any order; the ones read are listed below, others are listed in
//!   [`AssocDump::ignored`] / [`QosDump::ignored`], never dropped silently.
//!   `Account` (associations), `Name` (QOS) and `NodeName`, `TimeStart`,
//!   `TimeEnd` and `State` (events) must be there.
//! - Events ([`parse_events`]): a row with an empty `NodeName` is a
//!   cluster event, skipped. `NodeName` is a hostlist. `TimeStart` and
//!   `TimeEnd` are as `scontrol` prints reservations
//!   ([`crate::conf::stamp`]: `YYYY-MM-DDTHH:MM:SS` read as UTC, or epoch
//!   seconds with `SLURM_TIME_FORMAT=%s`, one form per file); `TimeEnd`
//!   `Unknown` is an event not over. `State` is
//!   `node_state_string_compact`'s, its last flag character (`*`, `$`, `~`,
//!   …) dropped: `DOWN`, `DRAIN`, `DRNG`, `FAIL` and `FAILG` are node
//!   events; any other state is an error.
//! - Values: an empty field is "not set" (`None`, or an empty list). Counts
//!   are whole numbers. Times are Slurm's time syntax (conf's
//!   [`parse_time`]: `[days-]hours:minutes:seconds`, minutes, `UNLIMITED`);
//!   `MaxWall`/`GrpWall` are minutes and the others seconds in Slurm, here
//!   all are seconds. TRES lists are `cpu=10,mem=20G,gres/gpu=2,node=1`
//!   ([`parse_tres`]). `Share` is a whole number or `parent`. QOS lists are
//!   comma-separated names. `PreemptMode` is `cluster`, `off`, `cancel`,
//!   `requeue` or `suspend`, optionally with `gang` or `within` (Slurm
//!   stores `off` as `cluster`: both are `None`, the cluster's mode).
//!   `UsageFactor` and `UsageThres` are non-negative numbers. `Flags` are
//!   22.05's QOS flags.
//! - Checks: a row with more or fewer fields than the header; a value that
//!   does not parse; an association or QOS defined twice; an event that
//!   ends before it starts; a QOS that
//!   preempts itself or names a QOS the dump does not define; and, across
//!   the two dumps ([`check_qos_names`]), an association naming a QOS (in
//!   `QOS` or `Def QOS`) that the QOS dump does not define.
//! - Bad input is a [`ConfError`] naming the file, the line and the column.
//!   Nothing here panics on user data.
//! - What a run models of them is [`crate::accounting`]'s (the QOS
//!   factor, some QOS and association limits, the `UsageFactor`); the rest
//!   is read, not modelled yet (the guide lists what is modelled).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::conf::{ConfError, parse_time};
pub use crate::preemption::mode::{PreemptAction, PreemptMode, parse_preempt_mode};
use slasim_sim::units::Time;

/// One TRES of a TRES list (`gres/gpu=2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tres {
    /// Its name, lower-cased: `cpu`, `mem`, `node`, `billing`, `energy`,
    /// `gres/gpu`, `gres/gpu:a100`, `license/x`, `bb/datawarp`.
    pub name: String,
    /// Its amount (`mem` and `bb/…` in MiB); `None` for `NONE` (no limit).
    pub amount: Option<u64>,
}

/// `Share`: a raw share, or `parent` (the account's parent's fair share).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Share {
    /// A raw share.
    Raw(u32),
    /// `parent`.
    Parent,
}

/// One association (`sacctmgr show assoc -P`).
#[derive(Debug, Clone, PartialEq)]
pub struct Assoc {
    /// Its line.
    pub line: u64,
    /// `Cluster`.
    pub cluster: String,
    /// `Account`.
    pub account: String,
    /// `User` (`None`: the account's own association).
    pub user: Option<String>,
    /// `Partition`.
    pub partition: Option<String>,
    /// `Par Name` (the parent account; account associations only).
    pub parent: Option<String>,
    /// `Share` (`None`: not in the dump).
    pub share: Option<Share>,
    /// `Priority`.
    pub priority: Option<u32>,
    /// `GrpJobs`.
    pub grp_jobs: Option<u32>,
    /// `GrpSubmit`.
    pub grp_submit: Option<u32>,
    /// `GrpTRES`.
    pub grp_tres: Vec<Tres>,
    /// `GrpTRESMins`.
    pub grp_tres_mins: Vec<Tres>,
    /// `GrpTRESRunMins`.
    pub grp_tres_run_mins: Vec<Tres>,
    /// `GrpWall`, seconds.
    pub grp_wall: Option<Time>,
    /// `MaxJobs`.
    pub max_jobs: Option<u32>,
    /// `MaxSubmit`.
    pub max_submit: Option<u32>,
    /// `MaxTRES` (per job).
    pub max_tres: Vec<Tres>,
    /// `MaxTRESPerNode`.
    pub max_tres_per_node: Vec<Tres>,
    /// `MaxTRESMins` (per job).
    pub max_tres_mins: Vec<Tres>,
    /// `MaxWall` (per job), seconds.
    pub max_wall: Option<Time>,
    /// `QOS`: the QOS its jobs may use.
    pub qos: Vec<String>,
    /// `Def QOS`.
    pub def_qos: Option<String>,
}

/// An association dump.
#[derive(Debug, Clone, PartialEq)]
pub struct AssocDump {
    /// The file it was read from.
    pub path: PathBuf,
    /// Every association, in file order.
    pub assocs: Vec<Assoc>,
    /// Columns of the header that are not read.
    pub ignored: Vec<String>,
}

/// One QOS (`sacctmgr show qos -P`).
#[derive(Debug, Clone, PartialEq)]
pub struct Qos {
    /// Its line.
    pub line: u64,
    /// `Name`.
    pub name: String,
    /// `Priority` (0 when empty).
    pub priority: u32,
    /// `GraceTime`, seconds.
    pub grace_time: Option<Time>,
    /// `Preempt`: the QOS it may preempt.
    pub preempt: Vec<String>,
    /// `PreemptExemptTime`, seconds.
    pub preempt_exempt_time: Option<Time>,
    /// `PreemptMode` (`None`: `cluster`, the cluster's mode).
    pub preempt_mode: Option<PreemptMode>,
    /// `Flags`, as printed (`DenyOnLimit`, `NoReserve`, …).
    pub flags: Vec<String>,
    /// `UsageThres`.
    pub usage_threshold: Option<f64>,
    /// `UsageFactor` (1 when empty).
    pub usage_factor: f64,
    /// `GrpTRES`.
    pub grp_tres: Vec<Tres>,
    /// `GrpTRESMins`.
    pub grp_tres_mins: Vec<Tres>,
    /// `GrpTRESRunMins`.
    pub grp_tres_run_mins: Vec<Tres>,
    /// `GrpJobs`.
    pub grp_jobs: Option<u32>,
    /// `GrpSubmit`.
    pub grp_submit: Option<u32>,
    /// `GrpWall`, seconds.
    pub grp_wall: Option<Time>,
    /// `MaxTRES` (per job).
    pub max_tres: Vec<Tres>,
    /// `MaxTRESPerNode`.
    pub max_tres_per_node: Vec<Tres>,
    /// `MaxTRESMins` (per job).
    pub max_tres_mins: Vec<Tres>,
    /// `MaxWall` (per job), seconds.
    pub max_wall: Option<Time>,
    /// `MaxTRESPU` (per user).
    pub max_tres_pu: Vec<Tres>,
    /// `MaxJobsPU`.
    pub max_jobs_pu: Option<u32>,
    /// `MaxSubmitPU`.
    pub max_submit_pu: Option<u32>,
    /// `MaxTRESPA` (per account).
    pub max_tres_pa: Vec<Tres>,
    /// `MaxJobsPA`.
    pub max_jobs_pa: Option<u32>,
    /// `MaxSubmitPA`.
    pub max_submit_pa: Option<u32>,
    /// `MinTRES` (per job).
    pub min_tres: Vec<Tres>,
}

/// A QOS dump.
#[derive(Debug, Clone, PartialEq)]
pub struct QosDump {
    /// The file it was read from.
    pub path: PathBuf,
    /// Every QOS, in file order.
    pub qos: Vec<Qos>,
    /// Columns of the header that are not read.
    pub ignored: Vec<String>,
}

impl QosDump {
    /// The QOS named `name`.
    pub fn get(&self, name: &str) -> Option<&Qos> {
        self.qos.iter().find(|q| q.name == name)
    }
}

/// The QOS flags of Slurm 22.05 (`slurmdb_qos_flags_str`).
const QOS_FLAGS: [&str; 10] = [
    "DenyOnLimit",
    "EnforceUsageThreshold",
    "NoReserve",
    "PartitionMaxNodes",
    "PartitionMinNodes",
    "OverPartQOS",
    "PartitionTimeLimit",
    "RequiresReservation",
    "NoDecay",
    "UsageFactorSafe",
];

const ASSOC_COLUMNS: [&str; 21] = [
    "Cluster",
    "Account",
    "User",
    "Partition",
    "Par Name",
    "Share",
    "Priority",
    "GrpJobs",
    "GrpTRES",
    "GrpSubmit",
    "GrpWall",
    "GrpTRESMins",
    "MaxJobs",
    "MaxTRES",
    "MaxTRESPerNode",
    "MaxSubmit",
    "MaxWall",
    "MaxTRESMins",
    "QOS",
    "Def QOS",
    "GrpTRESRunMins",
];

const QOS_COLUMNS: [&str; 26] = [
    "Name",
    "Priority",
    "GraceTime",
    "Preempt",
    "PreemptExemptTime",
    "PreemptMode",
    "Flags",
    "UsageThres",
    "UsageFactor",
    "GrpTRES",
    "GrpTRESMins",
    "GrpTRESRunMins",
    "GrpJobs",
    "GrpSubmit",
    "GrpWall",
    "MaxTRES",
    "MaxTRESPerNode",
    "MaxTRESMins",
    "MaxWall",
    "MaxTRESPU",
    "MaxJobsPU",
    "MaxSubmitPU",
    "MaxTRESPA",
    "MaxJobsPA",
    "MaxSubmitPA",
    "MinTRES",
];

fn read_text(path: &Path) -> Result<String, ConfError> {
    std::fs::read_to_string(path).map_err(|e| ConfError {
        path: path.to_path_buf(),
        line: 0,
        field: "file".into(),
        detail: format!("cannot read: {e}"),
    })
}

/// Reads the association dump at `path`.
pub fn read_assoc(path: &Path) -> Result<AssocDump, ConfError> {
    parse_assoc(&read_text(path)?, path)
}

/// Reads the QOS dump at `path`.
pub fn read_qos(path: &Path) -> Result<QosDump, ConfError> {
    parse_qos(&read_text(path)?, path)
}

/// A `-P` table: its header and rows.
struct Table<'a> {
    path: &'a Path,
    /// Lower-cased column name → index.
    index: HashMap<String, usize>,
    /// Columns not among the ones read, as written.
    ignored: Vec<String>,
    rows: Vec<(u64, Vec<&'a str>)>,
}

impl<'a> Table<'a> {
    fn parse(text: &'a str, path: &'a Path, known: &[&str], required: &str) -> Result<Table<'a>, ConfError> {
        let err = |line: u64, field: &str, detail: String| ConfError {
            path: path.to_path_buf(),
            line,
            field: field.to_string(),
            detail,
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = (1u64..).zip(text.lines()).filter(|(_, l)| !l.trim().is_empty());
        let Some((header_line, header)) = lines.next() else {
            return Err(err(0, "header", "empty file: no header line".into()));
        };
        // `-p` ends every line with a `|`.
        let trailing = header.trim_end().ends_with('|');
        let strip = |l: &'a str| -> &'a str {
            let l = l.trim_end_matches(['\r', '\n']);
            if trailing { l.strip_suffix('|').unwrap_or(l) } else { l }
        };
        let names: Vec<&str> = strip(header.trim_end()).split('|').map(str::trim).collect();
        let mut index = HashMap::new();
        let mut ignored = Vec::new();
        for (i, name) in names.iter().enumerate() {
            if name.is_empty() {
                return Err(err(header_line, "header", format!("column {} has no name", i + 1)));
            }
            // sacctmgr 22.05.8 heads `format=...,ParentName` as `ParentName`
            // with -P (a real cluster's dump), and `Par Name` otherwise.
            let name: &str = if name.eq_ignore_ascii_case("ParentName") { "Par Name" } else { name };
            if index.insert(name.to_ascii_lowercase(), i).is_some() {
                return Err(err(header_line, name, "column named twice".into()));
            }
            if !known.iter().any(|k| k.eq_ignore_ascii_case(name)) {
                ignored.push(name.to_string());
            }
        }
        if !index.contains_key(&required.to_ascii_lowercase()) {
            return Err(err(
                header_line,
                "header",
                format!("no `{required}` column (is this a sacctmgr -P dump with its header?)"),
            ));
        }
        let mut rows = Vec::new();
        for (line, raw) in lines {
            let fields: Vec<&str> = strip(raw).split('|').collect();
            if fields.len() != names.len() {
                return Err(err(
                    line,
                    "columns",
                    format!("{} fields, but the header has {} columns", fields.len(), names.len()),
                ));
            }
            rows.push((line, fields));
        }
        Ok(Table { path, index, ignored, rows })
    }
}

/// One row's fields, by column name.
struct Row<'t> {
    path: &'t Path,
    line: u64,
    index: &'t HashMap<String, usize>,
    fields: &'t [&'t str],
}

impl Row<'_> {
    fn err(&self, column: &str, detail: String) -> ConfError {
        ConfError { path: self.path.to_path_buf(), line: self.line, field: column.to_string(), detail }
    }

    /// The trimmed field of `column`; `""` when the column is absent.
    fn get(&self, column: &str) -> &str {
        self.index.get(&column.to_ascii_lowercase()).and_then(|&i| self.fields.get(i)).map_or("", |f| f.trim())
    }

    fn text(&self, column: &str) -> Option<String> {
        Some(self.get(column)).filter(|v| !v.is_empty()).map(str::to_string)
    }

    fn count(&self, column: &str) -> Result<Option<u32>, ConfError> {
        let v = self.get(column);
        if v.is_empty() {
            return Ok(None);
        }
        crate::conf::uint::<u32>(v).map(Some).map_err(|d| self.err(column, d))
    }

    fn time(&self, column: &str) -> Result<Option<Time>, ConfError> {
        let v = self.get(column);
        if v.is_empty() {
            return Ok(None);
        }
        parse_time(v).map_err(|d| self.err(column, d))
    }

    fn tres(&self, column: &str) -> Result<Vec<Tres>, ConfError> {
        parse_tres(self.get(column)).map_err(|d| self.err(column, d))
    }

    fn names(&self, column: &str) -> Result<Vec<String>, ConfError> {
        let v = self.get(column);
        let mut out: Vec<String> = Vec::new();
        for name in v.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.contains(char::is_whitespace) {
                return Err(self.err(column, format!("`{name}` is not a name")));
            }
            if !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
        Ok(out)
    }

    fn number(&self, column: &str) -> Result<Option<f64>, ConfError> {
        let v = self.get(column);
        if v.is_empty() {
            return Ok(None);
        }
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(self.err(column, format!("not a non-negative number: `{v}`"))),
        }
    }
}

/// Parses an association dump's `text`, read from `path`.
pub fn parse_assoc(text: &str, path: &Path) -> Result<AssocDump, ConfError> {
    let table = Table::parse(text, path, &ASSOC_COLUMNS, "Account")?;
    let mut assocs: Vec<Assoc> = Vec::with_capacity(table.rows.len());
    let mut seen: HashMap<(String, String, Option<String>, Option<String>), u64> = HashMap::new();
    for (line, fields) in &table.rows {
        let r = Row { path: table.path, line: *line, index: &table.index, fields };
        let account = r.get("Account");
        if account.is_empty() {
            return Err(r.err("Account", "empty: every association names its account".into()));
        }
        let share = match r.get("Share") {
            "" => None,
            s if s.eq_ignore_ascii_case("parent") => Some(Share::Parent),
            s => Some(Share::Raw(
                crate::conf::uint::<u32>(s)
                    .map_err(|_| r.err("Share", format!("not a whole number or `parent`: `{s}`")))?,
            )),
        };
        let assoc = Assoc {
            line: *line,
            cluster: r.get("Cluster").to_string(),
            account: account.to_string(),
            user: r.text("User"),
            partition: r.text("Partition"),
            parent: r.text("Par Name"),
            share,
            priority: r.count("Priority")?,
            grp_jobs: r.count("GrpJobs")?,
            grp_submit: r.count("GrpSubmit")?,
            grp_tres: r.tres("GrpTRES")?,
            grp_tres_mins: r.tres("GrpTRESMins")?,
            grp_tres_run_mins: r.tres("GrpTRESRunMins")?,
            grp_wall: r.time("GrpWall")?,
            max_jobs: r.count("MaxJobs")?,
            max_submit: r.count("MaxSubmit")?,
            max_tres: r.tres("MaxTRES")?,
            max_tres_per_node: r.tres("MaxTRESPerNode")?,
            max_tres_mins: r.tres("MaxTRESMins")?,
            max_wall: r.time("MaxWall")?,
            qos: r.names("QOS")?,
            def_qos: r.names("Def QOS")?.into_iter().next(),
        };
        if r.names("Def QOS")?.len() > 1 {
            return Err(r.err("Def QOS", format!("one QOS, not a list: `{}`", r.get("Def QOS"))));
        }
        let key = (assoc.cluster.clone(), assoc.account.clone(), assoc.user.clone(), assoc.partition.clone());
        if let Some(first) = seen.insert(key, *line) {
            return Err(r.err("Account", format!("association defined twice (first on line {first})")));
        }
        assocs.push(assoc);
    }
    Ok(AssocDump { path: path.to_path_buf(), assocs, ignored: table.ignored })
}

/// Parses a QOS dump's `text`, read from `path`.
pub fn parse_qos(text: &str, path: &Path) -> Result<QosDump, ConfError> {
    let table = Table::parse(text, path, &QOS_COLUMNS, "Name")?;
    let mut all: Vec<Qos> = Vec::with_capacity(table.rows.len());
    for (line, fields) in &table.rows {
        let r = Row { path: table.path, line: *line, index: &table.index, fields };
        let name = r.get("Name");
        if name.is_empty() {
            return Err(r.err("Name", "empty: every QOS has a name".into()));
        }
        if let Some(first) = all.iter().find(|q| q.name == name) {
            return Err(r.err("Name", format!("QOS `{name}` defined twice (first on line {})", first.line)));
        }
        let preempt_mode = match r.get("PreemptMode") {
            "" => None,
            v => {
                let mode = parse_preempt_mode(v).map_err(|d| r.err("PreemptMode", d))?;
                (mode != PreemptMode { action: PreemptAction::Off, gang: false, within: false }).then_some(mode)
            }
        };
        let mut flags = Vec::new();
        for flag in r.get("Flags").split(',').map(str::trim).filter(|f| !f.is_empty()) {
            match QOS_FLAGS.iter().find(|k| k.eq_ignore_ascii_case(flag)) {
                Some(k) => flags.push((*k).to_string()),
                None if flag.eq_ignore_ascii_case("NotSet") => {}
                None => {
                    return Err(r.err(
                        "Flags",
                        format!("`{flag}` is not a QOS flag of Slurm 22.05 ({})", QOS_FLAGS.join(", ")),
                    ));
                }
            }
        }
        let preempt = r.names("Preempt")?;
        if preempt.iter().any(|p| p == name) {
            return Err(r.err("Preempt", format!("QOS `{name}` cannot preempt itself")));
        }
        all.push(Qos {
            line: *line,
            name: name.to_string(),
            priority: r.count("Priority")?.unwrap_or(0),
            grace_time: r.time("GraceTime")?,
            preempt,
            preempt_exempt_time: r.time("PreemptExemptTime")?,
            preempt_mode,
            flags,
            usage_threshold: r.number("UsageThres")?,
            usage_factor: r.number("UsageFactor")?.unwrap_or(1.0),
            grp_tres: r.tres("GrpTRES")?,
            grp_tres_mins: r.tres("GrpTRESMins")?,
            grp_tres_run_mins: r.tres("GrpTRESRunMins")?,
            grp_jobs: r.count("GrpJobs")?,
            grp_submit: r.count("GrpSubmit")?,
            grp_wall: r.time("GrpWall")?,
            max_tres: r.tres("MaxTRES")?,
            max_tres_per_node: r.tres("MaxTRESPerNode")?,
            max_tres_mins: r.tres("MaxTRESMins")?,
            max_wall: r.time("MaxWall")?,
            max_tres_pu: r.tres("MaxTRESPU")?,
            max_jobs_pu: r.count("MaxJobsPU")?,
            max_submit_pu: r.count("MaxSubmitPU")?,
            max_tres_pa: r.tres("MaxTRESPA")?,
            max_jobs_pa: r.count("MaxJobsPA")?,
            max_submit_pa: r.count("MaxSubmitPA")?,
            min_tres: r.tres("MinTRES")?,
        });
    }
    // A Preempt list may name a QOS defined further down.
    let names: HashSet<&str> = all.iter().map(|q| q.name.as_str()).collect();
    for q in &all {
        if let Some(unknown) = q.preempt.iter().find(|p| !names.contains(p.as_str())) {
            return Err(ConfError {
                path: path.to_path_buf(),
                line: q.line,
                field: "Preempt".into(),
                detail: format!("QOS `{}` preempts `{unknown}`, which the dump does not define", q.name),
            });
        }
    }
    Ok(QosDump { path: path.to_path_buf(), qos: all, ignored: table.ignored })
}

/// What a node event does to its node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeEventKind {
    /// `DRAIN`, `DRNG`, `FAIL`, `FAILG`: no new job; the running ones run on.
    Drain,
    /// `DOWN`: the node is down.
    Down,
}

/// One node event of a `sacctmgr show event` dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeEvent {
    /// Its line in the dump.
    pub line: u64,
    /// The nodes it names (its `NodeName` hostlist, expanded).
    pub nodes: Vec<String>,
    /// `TimeStart`, in seconds on the file's clock.
    pub start: i64,
    /// `TimeEnd` (none: `Unknown`, not over).
    pub end: Option<i64>,
    /// What it does.
    pub kind: NodeEventKind,
    /// `State` as written.
    pub state: String,
    /// `Reason` (empty when not given).
    pub reason: String,
}

/// A `sacctmgr show event -P` dump.
#[derive(Debug, Clone, PartialEq)]
pub struct EventDump {
    /// The file it was read from.
    pub path: PathBuf,
    /// How its times are written (none: no node event).
    pub clock: Option<crate::conf::Clock>,
    /// The node events, in file order.
    pub events: Vec<NodeEvent>,
    /// Cluster events (rows with no `NodeName`), skipped.
    pub cluster_events: usize,
    /// Columns not read.
    pub ignored: Vec<String>,
}

/// The event columns read.
const EVENT_COLUMNS: [&str; 7] = ["Cluster", "NodeName", "TimeStart", "TimeEnd", "State", "Reason", "User"];

/// Reads the event dump at `path`.
pub fn read_events(path: &Path) -> Result<EventDump, ConfError> {
    parse_events(&read_text(path)?, path)
}

/// Parses an event dump's `text`, read from `path`.
pub fn parse_events(text: &str, path: &Path) -> Result<EventDump, ConfError> {
    let table = Table::parse(text, path, &EVENT_COLUMNS, "NodeName")?;
    for column in ["TimeStart", "TimeEnd", "State"] {
        if !table.index.contains_key(&column.to_ascii_lowercase()) {
            return Err(ConfError {
                path: path.to_path_buf(),
                line: 1,
                field: "header".into(),
                detail: format!(
                    "no `{column}` column (sacctmgr -P show event format=NodeName,TimeStart,TimeEnd,State,Reason)"
                ),
            });
        }
    }
    let mut out = EventDump {
        path: path.to_path_buf(),
        clock: None,
        events: Vec::new(),
        cluster_events: 0,
        ignored: table.ignored,
    };
    for (line, fields) in &table.rows {
        let r = Row { path: table.path, line: *line, index: &table.index, fields };
        let names = r.get("NodeName");
        if names.is_empty() {
            out.cluster_events += 1;
            continue;
        }
        let nodes = crate::conf::expand_hostlist(names).map_err(|d| r.err("NodeName", d))?;
        let start = crate::conf::stamp(r.get("TimeStart"), &mut out.clock)
            .map_err(|d| r.err("TimeStart", d))?
            .ok_or_else(|| r.err("TimeStart", "not set: every event has a start".into()))?;
        let end = crate::conf::stamp(r.get("TimeEnd"), &mut out.clock).map_err(|d| r.err("TimeEnd", d))?;
        if end.is_some_and(|e| e < start) {
            return Err(r.err("TimeEnd", format!("`{}` is before the event's start", r.get("TimeEnd"))));
        }
        let state = r.get("State");
        let base = state.trim_end_matches(['*', '$', '^', '@', '#', '%', '~', '!', '+', '-']);
        let kind = match base.to_ascii_uppercase().as_str() {
            "DOWN" => NodeEventKind::Down,
            "DRAIN" | "DRNG" | "FAIL" | "FAILG" => NodeEventKind::Drain,
            _ => {
                return Err(r.err(
                    "State",
                    format!("`{state}`: a node event is DOWN, DRAIN, DRNG, FAIL or FAILG (with its flag character)"),
                ));
            }
        };
        out.events.push(NodeEvent {
            line: *line,
            nodes,
            start,
            end,
            kind,
            state: state.to_string(),
            reason: r.get("Reason").to_string(),
        });
    }
    Ok(out)
}

/// Checks that every QOS an association names (`QOS`, `Def QOS`) is defined
/// in `qos`; the error names the association dump's line.
pub fn check_qos_names(assocs: &AssocDump, qos: &QosDump) -> Result<(), ConfError> {
    let names: HashSet<&str> = qos.qos.iter().map(|q| q.name.as_str()).collect();
    for a in &assocs.assocs {
        let named = a.qos.iter().map(|q| ("QOS", q)).chain(a.def_qos.iter().map(|q| ("Def QOS", q)));
        for (column, name) in named {
            if !names.contains(name.as_str()) {
                return Err(ConfError {
                    path: assocs.path.clone(),
                    line: a.line,
                    field: column.into(),
                    detail: format!("QOS `{name}` is not defined in {}", qos.path.display()),
                });
            }
        }
    }
    Ok(())
}

/// Checks that each partition's QOS (`QOS=` on its line) is defined in
/// `qos` (slurmctld does not start otherwise); the error names the conf's
/// line.
pub fn check_partition_qos(conf: &crate::conf::SlurmConf, qos: &QosDump) -> Result<(), ConfError> {
    for p in &conf.partitions {
        if let Some(q) = p.qos.as_deref().filter(|q| qos.get(q).is_none()) {
            return Err(ConfError {
                path: conf.path.clone(),
                line: p.line,
                field: format!("PartitionName={} QOS", p.name),
                detail: format!("QOS {q:?} is not in the QOS dump {}", qos.path.display()),
            });
        }
    }
    Ok(())
}

/// A TRES list as sacctmgr and scontrol print it: `cpu=10,mem=20G,gres/gpu=2,node=1`.
/// `mem` and `bb/…` take a unit (K, M, G, T, P; M when none) and are
/// stored in MiB, rounded up; other amounts are whole numbers. `NONE` is no
/// limit. Names are lower-cased; a name given twice is an error.
pub fn parse_tres(value: &str) -> Result<Vec<Tres>, String> {
    let mut out: Vec<Tres> = Vec::new();
    for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((name, amount)) = item.split_once('=') else {
            return Err(format!("`{item}` is not name=amount"));
        };
        let name = name.trim().to_ascii_lowercase();
        let valid = |c: char| c.is_ascii_alphanumeric() || "/:_-.".contains(c);
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!("`{item}`: `{name}` is not a TRES name"));
        }
        if out.iter().any(|t| t.name == name) {
            return Err(format!("`{name}` given twice in `{value}`"));
        }
        let amount = amount.trim();
        let amount = if amount.eq_ignore_ascii_case("NONE") {
            None
        } else if name == "mem" || name.starts_with("bb/") {
            Some(mebibytes(amount).ok_or_else(|| format!("`{item}`: not an amount with a unit (K, M, G, T, P)"))?)
        } else {
            Some(crate::conf::uint::<u64>(amount).map_err(|d| format!("`{item}`: {d}"))?)
        };
        out.push(Tres { name, amount });
    }
    Ok(out)
}

/// `20G` → 20480 (MiB; no unit: MiB; a fraction rounds up).
pub(crate) fn mebibytes(text: &str) -> Option<u64> {
    let (number, unit) = match text.char_indices().last()? {
        (i, c) if c.is_ascii_alphabetic() => (text.get(..i)?, c.to_ascii_uppercase()),
        _ => (text, 'M'),
    };
    let scale = match unit {
        'K' => 1.0 / 1024.0,
        'M' => 1.0,
        'G' => 1024.0,
        'T' => 1024.0 * 1024.0,
        'P' => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let mib = number.parse::<f64>().ok()? * scale;
    (mib.is_finite() && mib < 1e18).then(|| mib.ceil() as u64)
}
