//! Slurm accounting (`sacct --parsable2`) as a workload: conversion to SWF.
//!
//! Sources: the `sacct(1)` man page of Slurm (22.05 and later: `--parsable2`,
//! the `--format` field names, job ids `123`, `123.batch`, `123_4`,
//! `123_[5-9]`, `123+0`, the job state codes, `SLURM_TIME_FORMAT`), the time
//! syntax of `sbatch(1)` `--time`, and the Parallel Workloads Archive's SWF
//! definition, version 2.2 (<https://www.cs.huji.ac.il/labs/parallel/workload/swf.html>).
//!
//! Contract:
//! - Input is the output of `sacct --allusers --parsable2 --format=…` (plain or
//!   gzip, detected by its magic bytes): a header line of field names
//!   separated by `|`, then one line per job, array task, heterogeneous
//!   component or job step. Columns are found by their header names, in any
//!   order; unknown columns are ignored. [`REQUIRED`] lists the ones that must
//!   be there, [`RECOMMENDED_FORMAT`] the list to ask sacct for.
//! - One SWF job per allocation: job steps (`123.batch`, `123.0`) are folded
//!   into their job (a missing run time is taken from their ends; a step that
//!   ends after its job is counted); the components of a heterogeneous job
//!   (`123+0`, `123+1`) are one SWF job with their processors summed. Array
//!   tasks (`123_4`) are jobs of their own.
//! - Jobs not finished at dump time (pending, running, requeued; a pending
//!   array range `123_[5-9]` among them) and revoked federation siblings are
//!   skipped and counted ([`SacctReport`]). A job cancelled before it started
//!   is kept, with wait time −1, run time 0 and allocated processors −1.
//! - Status ([`swf_status`]): COMPLETED → 1; FAILED, TIMEOUT, NODE_FAIL,
//!   OUT_OF_MEMORY, BOOT_FAIL, DEADLINE → 0 (failed); CANCELLED (also
//!   `CANCELLED by <uid>`) and PREEMPTED → 5 (cancelled).
//! - SWF jobs are numbered 1… in submit order (ties by Slurm job id); submit
//!   time 0 is the first kept job's submit. Users, groups, partitions and job
//!   names are numbered from 1 in order of first appearance in that order; the
//!   partition number is both the SWF queue and partition. [`SacctConversion::write`]
//!   writes the maps beside the SWF file ([`maps_path`]).
//! - `MaxProcs` (`MaxNodes`) is the one given, else the largest allocation
//!   seen, with a warning: the machine may be larger.
//! - A line with more `|`-separated fields than the header has columns (a `|`
//!   in a job name, which `--parsable2` leaves unescaped) is resolved when the
//!   header has exactly one free-text column (e.g. JobName): the other columns
//!   are anchored left and right and the surplus joins the free-text one; such
//!   lines are counted and the first is named. Otherwise the line is ambiguous.
//! - Bad input (a missing required column, an unresolvable line, a value that
//!   does not parse, a negative duration, an end before a start) is an error
//!   naming `file:line` and the column. With `lenient` the line is skipped and
//!   counted in [`SwfTrace::skipped`] instead. A header problem is always an error.
//! - Deterministic: the same input gives the same bytes. Nothing here panics on
//!   user data.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDateTime};
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::workload::swf::{
    FileSink, LineProblem, ReadOptions, SkippedLines, SwfHeader, SwfRecord, SwfTrace, SwfWriter,
};

/// The `--format` list to ask sacct for (any order; more fields are ignored).
pub const RECOMMENDED_FORMAT: &str =
    "JobIDRaw,JobID,JobName,User,Group,Partition,Submit,Start,End,Elapsed,Timelimit,AllocCPUS,ReqCPUS,AllocNodes,State";

/// Columns that must be in the header; `a|b` means either.
pub const REQUIRED: [&str; 5] = ["JobIDRaw|JobID", "Submit", "Start", "State", "AllocCPUS|NCPUS"];

/// Columns whose text may hold a `|` (free text, not escaped by `--parsable2`).
const FREE_TEXT: [&str; 13] = [
    "JobName",
    "Comment",
    "AdminComment",
    "SystemComment",
    "SubmitLine",
    "WorkDir",
    "StdIn",
    "StdOut",
    "StdErr",
    "Constraints",
    "Container",
    "Extra",
    "WCKey",
];

/// The columns read, by index into [`Columns::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    JobIdRaw,
    JobId,
    Submit,
    Start,
    End,
    Elapsed,
    ElapsedRaw,
    Timelimit,
    TimelimitRaw,
    AllocCpus,
    NCpus,
    ReqCpus,
    NNodes,
    AllocNodes,
    State,
    User,
    Uid,
    Group,
    Gid,
    Partition,
    JobName,
}

const COLUMNS: [(&str, Col); 21] = [
    ("JobIDRaw", Col::JobIdRaw),
    ("JobID", Col::JobId),
    ("Submit", Col::Submit),
    ("Start", Col::Start),
    ("End", Col::End),
    ("Elapsed", Col::Elapsed),
    ("ElapsedRaw", Col::ElapsedRaw),
    ("Timelimit", Col::Timelimit),
    ("TimelimitRaw", Col::TimelimitRaw),
    ("AllocCPUS", Col::AllocCpus),
    ("NCPUS", Col::NCpus),
    ("ReqCPUS", Col::ReqCpus),
    ("NNodes", Col::NNodes),
    ("AllocNodes", Col::AllocNodes),
    ("State", Col::State),
    ("User", Col::User),
    ("UID", Col::Uid),
    ("Group", Col::Group),
    ("GID", Col::Gid),
    ("Partition", Col::Partition),
    ("JobName", Col::JobName),
];

/// Conversion options.
#[derive(Debug, Clone, Copy, Default)]
pub struct SacctOptions {
    /// Skip (and count) malformed lines instead of failing.
    pub lenient: bool,
    /// The machine's processors (`MaxProcs`); default: the largest allocation.
    pub max_procs: Option<u64>,
    /// The machine's nodes (`MaxNodes`); default: the largest allocation, if
    /// the dump has NNodes or AllocNodes.
    pub max_nodes: Option<u64>,
}

/// Errors of the conversion. Every variant names the file; line errors the
/// line and, when one is at fault, the column.
#[derive(Debug, thiserror::Error)]
pub enum SacctError {
    /// The file cannot be opened.
    #[error("{path}: cannot open: {cause}", path = .path.display())]
    Open { path: PathBuf, cause: io::Error },
    /// A directory was given.
    #[error("{path}: is a directory, not a sacct dump", path = .path.display())]
    IsDirectory { path: PathBuf },
    /// A zero-byte file, or only blank lines.
    #[error("{path}: the file is empty", path = .path.display())]
    Empty { path: PathBuf },
    /// A read error (or corrupt gzip data).
    #[error("{path}: read error after line {line}: {cause}", path = .path.display())]
    Read { path: PathBuf, line: u64, cause: io::Error },
    /// The header line is not a sacct header, or lacks a required column.
    #[error("{path}:{line}: {detail}", path = .path.display())]
    Header { path: PathBuf, line: u64, detail: String },
    /// A malformed line.
    #[error("{path}:{line}:{column} {detail}: \"{text}\"", path = .path.display(),
        column = .column.as_ref().map(|c| format!(" column {c}:")).unwrap_or_default())]
    Malformed {
        path: PathBuf,
        line: u64,
        /// The column at fault, as the header names it.
        column: Option<String>,
        problem: LineProblem,
        detail: String,
        /// The line's text, shortened.
        text: String,
    },
    /// Nothing to convert.
    #[error("{path}: no finished jobs to convert ({report})", path = .path.display())]
    NoJobs { path: PathBuf, report: String },
    /// A write error.
    #[error("{path}: cannot write: {cause}", path = .path.display())]
    Write { path: PathBuf, cause: io::Error },
}

impl SacctError {
    /// The problem class of a malformed line, if this is one.
    pub fn line_problem(&self) -> Option<LineProblem> {
        match self {
            SacctError::Malformed { problem, .. } => Some(*problem),
            _ => None,
        }
    }
}

/// What the conversion read, kept and skipped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SacctReport {
    /// Data lines read (the header and blank lines excluded).
    pub lines: u64,
    /// Allocation lines (jobs, array tasks, heterogeneous components).
    pub allocations: u64,
    /// Job step lines folded into their job.
    pub steps: u64,
    /// Steps whose job is not in the dump (or was skipped as malformed).
    pub orphan_steps: u64,
    /// Steps of jobs skipped as unfinished.
    pub skipped_steps: u64,
    /// Steps that end after their job's end (the job's end is kept).
    pub steps_past_end: u64,
    /// Jobs whose run time came from their steps' ends (no End or Elapsed).
    pub runtime_from_steps: u64,
    /// Jobs with no run time at all (SWF −1).
    pub no_runtime: u64,
    /// Pending at dump time (skipped), array range lines included.
    pub pending: u64,
    /// Pending array range lines (`123_[5-9]`) among `pending`.
    pub pending_array_ranges: u64,
    /// Tasks those ranges stand for, when the range is explicit.
    pub pending_array_tasks: u64,
    /// Running, suspended or completing at dump time (skipped).
    pub running: u64,
    /// Requeued, waiting to run again (skipped).
    pub requeued: u64,
    /// Revoked federation siblings (skipped: the job ran on another cluster).
    pub revoked: u64,
    /// Heterogeneous jobs, each one SWF job.
    pub het_jobs: u64,
    /// Their component lines.
    pub het_components: u64,
    /// Array task lines converted.
    pub array_tasks: u64,
    /// Kept jobs that never started (cancelled while pending).
    pub never_started: u64,
    /// SWF jobs written.
    pub jobs: u64,
    /// … of which status 1, 0, 5.
    pub completed: u64,
    /// Status 0.
    pub failed: u64,
    /// Status 5.
    pub cancelled: u64,
    /// Lines with a `|` inside the free-text column, resolved by anchoring.
    pub resolved: u64,
    /// The first such line.
    pub first_resolved: Option<u64>,
    /// The free-text column they were resolved into.
    pub resolved_column: Option<String>,
    /// Times were epoch seconds (`SLURM_TIME_FORMAT=%s`), not local wall-clock time.
    pub epoch_times: bool,
    /// `MaxProcs` when it was not given: the largest allocation seen.
    pub guessed_max_procs: Option<i64>,
    /// `MaxNodes` when it was not given and the dump counts nodes.
    pub guessed_max_nodes: Option<i64>,
}

impl SacctReport {
    /// Warnings about guessed machine sizes, each ending with what sets the
    /// size instead (`hint`, e.g. `--capacity`/`--max-nodes` for a conversion).
    pub fn warnings(&self, procs_hint: &str, nodes_hint: &str) -> Vec<String> {
        let guessed = |key: &str, value: Option<i64>, hint: &str| {
            value.map(|v| {
                format!("{key} not given: {v}, the largest allocation in the dump (the machine may be larger; {hint})")
            })
        };
        guessed("MaxNodes", self.guessed_max_nodes, nodes_hint)
            .into_iter()
            .chain(guessed("MaxProcs", self.guessed_max_procs, procs_hint))
            .collect()
    }

    /// Lines skipped because the job had not finished (or ran elsewhere).
    pub fn unfinished(&self) -> u64 {
        self.pending + self.running + self.requeued + self.revoked
    }
}

impl fmt::Display for SacctReport {
    /// One paragraph: what was read, kept and skipped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} lines: {} allocations, {} steps folded into their jobs; {} SWF jobs ({} completed, {} failed, {} cancelled",
            self.lines, self.allocations, self.steps, self.jobs, self.completed, self.failed, self.cancelled
        )?;
        if self.never_started > 0 {
            write!(f, ", {} of them never started", self.never_started)?;
        }
        write!(f, ")")?;
        if self.array_tasks > 0 {
            write!(f, "; {} array tasks", self.array_tasks)?;
        }
        if self.het_jobs > 0 {
            write!(f, "; {} heterogeneous jobs from {} components", self.het_jobs, self.het_components)?;
        }
        let mut skipped = Vec::new();
        if self.pending > 0 {
            let mut s = format!("{} pending", self.pending);
            if self.pending_array_ranges > 0 {
                s += &format!(
                    " ({} of them array ranges of {} tasks)",
                    self.pending_array_ranges, self.pending_array_tasks
                );
            }
            skipped.push(s);
        }
        for (n, what) in [
            (self.running, "running"),
            (self.requeued, "requeued"),
            (self.revoked, "revoked"),
            (self.skipped_steps, "steps of skipped jobs"),
            (self.orphan_steps, "steps without their job"),
        ] {
            if n > 0 {
                skipped.push(format!("{n} {what}"));
            }
        }
        if !skipped.is_empty() {
            write!(f, "; skipped {}", skipped.join(", "))?;
        }
        if self.runtime_from_steps > 0 {
            write!(f, "; {} run times from step ends", self.runtime_from_steps)?;
        }
        if self.no_runtime > 0 {
            write!(f, "; {} jobs without a run time (-1)", self.no_runtime)?;
        }
        if self.steps_past_end > 0 {
            write!(f, "; {} steps end after their job", self.steps_past_end)?;
        }
        if let (Some(line), Some(column)) = (self.first_resolved, &self.resolved_column) {
            write!(
                f,
                "; {} lines had a `|` inside {column}, resolved by anchoring the other columns (first: line {line})",
                self.resolved
            )?;
        }
        Ok(())
    }
}

/// The numbers given to names: each list is in number order (index 0 is 1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SacctMaps {
    /// User names (or UIDs when the dump has no User column).
    pub users: Vec<String>,
    /// Group names (or GIDs).
    pub groups: Vec<String>,
    /// Partitions: SWF queue and partition numbers.
    pub partitions: Vec<String>,
    /// Job names: SWF executable numbers.
    pub job_names: Vec<String>,
    /// Slurm job ids of the SWF jobs (`123`, `123_4` for an array task,
    /// `123` for a heterogeneous job), by SWF job number.
    pub jobs: Vec<String>,
}

impl SacctMaps {
    /// Writes the maps as CSV: `kind,number,name`, kinds `user`, `group`,
    /// `partition`, `job-name`, `job`.
    pub fn write_csv<W: Write>(&self, out: W) -> io::Result<()> {
        let mut writer = csv::Writer::from_writer(out);
        writer.write_record(["kind", "number", "name"])?;
        for (kind, names) in [
            ("user", &self.users),
            ("group", &self.groups),
            ("partition", &self.partitions),
            ("job-name", &self.job_names),
            ("job", &self.jobs),
        ] {
            for (i, name) in names.iter().enumerate() {
                writer.write_record([kind, &(i + 1).to_string(), name])?;
            }
        }
        writer.flush()
    }
}

/// A converted dump: the SWF trace, the maps, and what happened.
#[derive(Debug, Clone)]
pub struct SacctConversion {
    /// The SWF trace; `skipped` counts the malformed lines skipped in lenient mode.
    pub trace: SwfTrace,
    /// The line each SWF job came from (its leading component's), by record.
    pub lines: Vec<u64>,
    /// Name → number maps.
    pub maps: SacctMaps,
    /// Counts and warnings.
    pub report: SacctReport,
}

/// Where the maps of an SWF output go: its path without `.gz` and `.swf`,
/// plus `.maps.csv` (`out.swf` → `out.maps.csv`).
pub fn maps_path(swf: &Path) -> PathBuf {
    let mut stem = swf.as_os_str().to_os_string();
    for ending in [".gz", ".swf"] {
        if let Some(s) = stem.to_str().and_then(|s| s.strip_suffix(ending)) {
            stem = s.into();
        }
    }
    stem.push(".maps.csv");
    PathBuf::from(stem)
}

impl SacctConversion {
    /// Writes the SWF file (gzip if its name ends in `.gz`) and the maps beside
    /// it ([`maps_path`]). Each goes to a temporary file in the same directory
    /// first and is renamed into place, so neither is ever half-written.
    /// Returns the maps' path.
    pub fn write(&self, swf: &Path) -> Result<PathBuf, SacctError> {
        let maps = maps_path(swf);
        let maps_tmp = AtomicFile::create(&maps)?;
        let swf_tmp = AtomicFile::create(swf)?;
        fn werr(path: &Path) -> impl Fn(io::Error) -> SacctError + '_ {
            move |cause| SacctError::Write { path: path.to_path_buf(), cause }
        }
        {
            let out = BufWriter::new(maps_tmp.file().map_err(werr(&maps))?);
            self.maps.write_csv(out).map_err(werr(&maps))?;
        }
        {
            let file = BufWriter::with_capacity(1 << 18, swf_tmp.file().map_err(werr(swf))?);
            let sink = if swf.extension().is_some_and(|e| e == "gz") {
                FileSink::Gzip(Box::new(GzEncoder::new(file, Compression::default())))
            } else {
                FileSink::Plain(file)
            };
            let mut writer = SwfWriter::new(sink);
            writer.write_header(&self.trace.header).map_err(werr(swf))?;
            for record in &self.trace.records {
                writer.write_record(record).map_err(werr(swf))?;
            }
            writer.finish().map_err(werr(swf))?;
        }
        maps_tmp.commit()?;
        swf_tmp.commit()?;
        Ok(maps)
    }
}

/// A file written under a temporary name in its directory and renamed into
/// place by [`AtomicFile::commit`]; removed if dropped before.
struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    committed: bool,
}

impl AtomicFile {
    fn create(path: &Path) -> Result<AtomicFile, SacctError> {
        let name = path.file_name().ok_or_else(|| SacctError::Write {
            path: path.to_path_buf(),
            cause: io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
        })?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        Ok(AtomicFile { path: path.to_path_buf(), tmp, committed: false })
    }

    fn file(&self) -> io::Result<File> {
        File::create(&self.tmp)
    }

    fn commit(mut self) -> Result<(), SacctError> {
        std::fs::rename(&self.tmp, &self.path).map_err(|cause| SacctError::Write { path: self.path.clone(), cause })?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Opens a plain or gzip file (by its magic bytes) for line reading.
fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, SacctError> {
    let meta = std::fs::metadata(path).map_err(|cause| SacctError::Open { path: path.to_path_buf(), cause })?;
    if meta.is_dir() {
        return Err(SacctError::IsDirectory { path: path.to_path_buf() });
    }
    if meta.len() == 0 {
        return Err(SacctError::Empty { path: path.to_path_buf() });
    }
    let file = File::open(path).map_err(|cause| SacctError::Open { path: path.to_path_buf(), cause })?;
    let mut input = BufReader::with_capacity(1 << 18, file);
    let gzip = input.fill_buf().map(|b| b.starts_with(&[0x1f, 0x8b])).unwrap_or(false);
    Ok(if gzip { Box::new(BufReader::new(MultiGzDecoder::new(input))) } else { Box::new(input) })
}

/// Whether `path` holds a sacct dump: its first non-blank line is a header of
/// field names separated by `|`, naming JobID or JobIDRaw. False on any
/// read error (the SWF reader then reports it).
pub fn is_sacct_file(path: &Path) -> bool {
    let Ok(mut input) = open(path) else { return false };
    let mut line = Vec::new();
    // A header is short; 64 KiB bounds the look at a file that is neither.
    for _ in 0..64 {
        line.clear();
        match input.by_ref().take(1 << 16).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_prefix(BOM).unwrap_or(&text).trim();
        if !text.is_empty() {
            return looks_like_header(text);
        }
    }
    false
}

/// A UTF-8 byte-order mark, which editors on Windows put before a file's first line.
const BOM: &str = "\u{feff}";

/// A `|`-separated list of identifiers naming JobID or JobIDRaw.
fn looks_like_header(text: &str) -> bool {
    let names: Vec<&str> = text.split('|').map(str::trim).collect();
    names.len() > 1
        && names.iter().all(|n| n.is_empty() || is_identifier(n))
        && names.iter().any(|n| n.eq_ignore_ascii_case("JobID") || n.eq_ignore_ascii_case("JobIDRaw"))
}

fn is_identifier(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Loads a sacct dump as an SWF trace, as [`SwfTrace::load`] loads an SWF
/// file: `lenient` skips malformed lines, `runnable` also treats a job
/// without a processor count or run time as malformed (its line is named).
/// Warnings (a guessed `MaxProcs`) and the conversion's counts are logged.
pub fn load(path: &Path, options: ReadOptions) -> Result<SwfTrace, SacctError> {
    load_sized(path, options, None, None)
}

/// [`load`] with the machine's size given (`--capacity`): its processors as
/// the header's `MaxProcs`, its nodes as `MaxNodes`, neither then guessed.
pub fn load_sized(
    path: &Path,
    options: ReadOptions,
    max_procs: Option<u64>,
    max_nodes: Option<u64>,
) -> Result<SwfTrace, SacctError> {
    let sacct = SacctOptions { lenient: options.lenient, max_procs, max_nodes };
    let SacctConversion { mut trace, lines, report, .. } = convert_file(path, &sacct)?;
    // MaxNodes matters only to --node-unit nodes; the same --capacity sets
    // it. Given either, the machine's size is the user's: nothing to warn of.
    let hint = "--capacity or a config's `capacity` sets the simulated machine's size";
    if max_procs.is_none() && max_nodes.is_none() {
        for warning in report.warnings(hint, hint) {
            tracing::warn!("{}: {warning}", path.display());
        }
    }
    tracing::info!("{}: sacct dump: {report}", path.display());
    if options.runnable {
        let mut kept = Vec::with_capacity(trace.records.len());
        for (record, &line) in trace.records.iter().zip(&lines) {
            let why = if record.processors().is_none() {
                Some(("AllocCPUS", "no processor count (0 allocated, no ReqCPUS)".to_string()))
            } else if record.runtime < 0 {
                Some(("Elapsed", "no run time (no End, Elapsed or step end)".to_string()))
            } else {
                None
            };
            let Some((column, detail)) = why else {
                kept.push(*record);
                continue;
            };
            let error = SacctError::Malformed {
                path: path.to_path_buf(),
                line,
                column: Some(column.to_string()),
                problem: LineProblem::NotRunnable,
                detail,
                text: format!("SWF job {}", record.job),
            };
            if !options.lenient {
                return Err(error);
            }
            *trace.skipped.by_problem.entry(LineProblem::NotRunnable).or_default() += 1;
            trace.skipped.first.get_or_insert_with(|| error.to_string());
        }
        trace.records = kept;
    }
    Ok(trace)
}

/// Converts a sacct dump file.
pub fn convert_file(path: &Path, options: &SacctOptions) -> Result<SacctConversion, SacctError> {
    convert_reader(path, open(path)?, options)
}

/// Converts a sacct dump read from `input`; `path` names it in messages.
pub fn convert_reader<R: BufRead>(
    path: &Path,
    mut input: R,
    options: &SacctOptions,
) -> Result<SacctConversion, SacctError> {
    // Lines are read here rather than by the csv crate: its line numbers are
    // wrong after blank lines, and --parsable2 has no quoting to undo.
    let mut fields = Fields::default();
    let mut line = 0u64;
    let mut next = |fields: &mut Fields, line: &mut u64| -> Result<bool, SacctError> {
        loop {
            fields.buf.clear();
            let n = input.read_until(b'\n', &mut fields.buf).map_err(|cause| SacctError::Read {
                path: path.to_path_buf(),
                line: *line,
                cause,
            })?;
            if n == 0 {
                return Ok(false);
            }
            *line += 1;
            if *line == 1 && fields.buf.starts_with(BOM.as_bytes()) {
                fields.buf.drain(..BOM.len());
            }
            while matches!(fields.buf.last(), Some(b'\n' | b'\r')) {
                fields.buf.pop();
            }
            if !fields.buf.trim_ascii().is_empty() {
                fields.split();
                return Ok(true);
            }
        }
    };
    if !next(&mut fields, &mut line)? {
        return Err(SacctError::Empty { path: path.to_path_buf() });
    }
    let columns = Columns::from_header(path, line, &fields)?;
    let mut state = Converter::new(path, columns, *options);
    while next(&mut fields, &mut line)? {
        state.report.lines += 1;
        match state.line(line, &fields) {
            Ok(()) => {}
            Err(e) if options.lenient && e.line_problem().is_some() => state.skip(&e),
            Err(e) => return Err(e),
        }
    }
    state.finish()
}

/// One line split at every `|`.
#[derive(Debug, Default)]
struct Fields {
    buf: Vec<u8>,
    ranges: Vec<(usize, usize)>,
}

impl Fields {
    fn split(&mut self) {
        self.ranges.clear();
        let mut start = 0;
        for (i, &b) in self.buf.iter().enumerate() {
            if b == b'|' {
                self.ranges.push((start, i));
                start = i + 1;
            }
        }
        self.ranges.push((start, self.buf.len()));
    }

    fn len(&self) -> usize {
        self.ranges.len()
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        self.ranges.get(i).map(|&(a, b)| &self.buf[a..b])
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.ranges.iter().map(|&(a, b)| &self.buf[a..b])
    }
}

/// Where each read column is in a line.
#[derive(Debug, Clone)]
struct Columns {
    /// Header names, as written.
    names: Vec<String>,
    index: [Option<usize>; COLUMNS.len()],
    /// The single free-text column, if the header has exactly one.
    free_text: Option<usize>,
    /// Every free-text column in the header.
    free_text_names: Vec<String>,
}

impl Columns {
    fn from_header(path: &Path, line: u64, record: &Fields) -> Result<Columns, SacctError> {
        let names: Vec<String> = record.iter().map(|f| String::from_utf8_lossy(f).trim().to_string()).collect();
        let text = names.join("|");
        if !looks_like_header(&text) {
            return Err(SacctError::Header {
                path: path.to_path_buf(),
                line,
                detail: format!(
                    "not a sacct header: expected field names separated by `|`, naming JobIDRaw or JobID \
                     (run sacct with --parsable2 and without --noheader, e.g. --format={RECOMMENDED_FORMAT}); found \"{}\"",
                    shorten(&text)
                ),
            });
        }
        let mut index = [None; COLUMNS.len()];
        for (i, name) in names.iter().enumerate() {
            if let Some(slot) = COLUMNS.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
                index[slot].get_or_insert(i);
            }
        }
        let has = |name: &str| COLUMNS.iter().position(|(n, _)| *n == name).is_some_and(|slot| index[slot].is_some());
        for required in REQUIRED {
            if !required.split('|').any(has) {
                return Err(SacctError::Header {
                    path: path.to_path_buf(),
                    line,
                    detail: format!(
                        "column {} missing from the header (required: {}; ask sacct for --format={RECOMMENDED_FORMAT})",
                        required.replace('|', " or "),
                        REQUIRED.join(", ").replace('|', " or ")
                    ),
                });
            }
        }
        let free: Vec<usize> =
            (0..names.len()).filter(|&i| FREE_TEXT.iter().any(|n| n.eq_ignore_ascii_case(&names[i]))).collect();
        Ok(Columns {
            free_text: (free.len() == 1).then(|| free[0]),
            free_text_names: free.iter().map(|&i| names[i].clone()).collect(),
            names,
            index,
        })
    }

    fn get(&self, col: Col) -> Option<usize> {
        self.index[col as usize]
    }

    fn name(&self, col: Col) -> &str {
        self.get(col).map_or(COLUMNS[col as usize].0, |i| self.names[i].as_str())
    }
}

/// How times are written: epoch seconds (`SLURM_TIME_FORMAT=%s`) or local
/// wall-clock `YYYY-MM-DDTHH:MM:SS` (sacct's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TimeKind {
    Epoch,
    Local,
}

/// The SWF status of a final sacct state, or why the line is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateClass {
    /// Finished, with this SWF status.
    Final(i64),
    /// Waiting to run (skipped).
    Pending,
    /// Running, suspended or completing (skipped).
    Running,
    /// Requeued (skipped).
    Requeued,
    /// A federation sibling revoked because the job ran elsewhere (skipped).
    Revoked,
}

/// Maps a sacct State value (`COMPLETED`, `CANCELLED by 1000`, …) to its
/// class; `None` for a state sacct does not define.
pub fn swf_status(state: &str) -> Option<StateClass> {
    let word = state.split_ascii_whitespace().next().unwrap_or("");
    // sacct pads nothing in --parsable2, but a trailing `+` marks truncation in
    // fixed-width output; accept it so a hand-edited dump still reads.
    let word = word.strip_suffix('+').unwrap_or(word);
    Some(match word.to_ascii_uppercase().as_str() {
        "COMPLETED" => StateClass::Final(1),
        "FAILED" | "TIMEOUT" | "NODE_FAIL" | "OUT_OF_MEMORY" | "BOOT_FAIL" | "DEADLINE" => StateClass::Final(0),
        "CANCELLED" | "PREEMPTED" => StateClass::Final(5),
        "PENDING" => StateClass::Pending,
        "RUNNING" | "SUSPENDED" | "COMPLETING" | "CONFIGURING" | "RESIZING" | "SIGNALING" | "STAGE_OUT" | "STOPPED" => {
            StateClass::Running
        }
        "REQUEUED" | "REQUEUE_FED" | "REQUEUE_HOLD" | "SPECIAL_EXIT" | "RESV_DEL_HOLD" => StateClass::Requeued,
        "REVOKED" => StateClass::Revoked,
        _ => return None,
    })
}

/// A Slurm job id: `123`, `123_4`, `123_[5-9]`, `123+0`, each with an optional
/// `.step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct JobId<'a> {
    /// The part before the first `.`.
    base: &'a str,
    /// The step after the `.`, if any.
    step: Option<&'a str>,
    kind: IdKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdKind {
    Plain(u64),
    ArrayTask {
        array: u64,
    },
    /// A pending range; the task count when the range is explicit.
    ArrayRange {
        tasks: Option<u64>,
    },
    Het {
        group: u64,
        offset: u64,
    },
}

fn parse_job_id(text: &str) -> Option<JobId<'_>> {
    let (base, step) = match text.split_once('.') {
        Some((base, step)) if !step.is_empty() => (base, Some(step)),
        Some(_) => return None,
        None => (text, None),
    };
    let number = |s: &str| if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) { s.parse().ok() } else { None };
    let kind = if let Some((array, task)) = base.split_once('_') {
        let array = number(array)?;
        if let Some(range) = task.strip_prefix('[') {
            let range = range.strip_suffix(']')?;
            IdKind::ArrayRange { tasks: range_tasks(range) }
        } else {
            number(task).map(|_: u64| IdKind::ArrayTask { array })?
        }
    } else if let Some((group, offset)) = base.split_once('+') {
        IdKind::Het { group: number(group)?, offset: number(offset)? }
    } else {
        IdKind::Plain(number(base)?)
    };
    Some(JobId { base, step, kind })
}

/// Tasks in an array range `5-9,12,20-30:2%4`; `None` if it does not parse.
fn range_tasks(range: &str) -> Option<u64> {
    let range = range.split('%').next().unwrap_or(range);
    let mut total = 0u64;
    for part in range.split(',') {
        let (span, step) = match part.split_once(':') {
            Some((span, step)) => (span, step.parse::<u64>().ok().filter(|&s| s > 0)?),
            None => (part, 1),
        };
        let (lo, hi) = match span.split_once('-') {
            Some((lo, hi)) => (lo.parse::<u64>().ok()?, hi.parse::<u64>().ok()?),
            None => {
                let v = span.parse::<u64>().ok()?;
                (v, v)
            }
        };
        total = total.checked_add(hi.checked_sub(lo)? / step + 1)?;
    }
    Some(total)
}

/// A Slurm duration in seconds: `D-HH:MM:SS`, `D-HH:MM`, `D-HH`, `HH:MM:SS`,
/// `MM:SS` or `MM` (the `--time` syntax; sacct prints `[D-]HH:MM:SS`).
/// `None` if it does not parse; negative values do not parse.
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.trim();
    let num = |s: &str| -> Option<i64> {
        if s.is_empty() || s.len() > 12 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (days, rest) = match text.split_once('-') {
        Some((d, rest)) => (Some(num(d)?), rest),
        None => (None, text),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let v: Vec<i64> = parts.iter().map(|p| num(p)).collect::<Option<_>>()?;
    let sixty = |x: i64| (x < 60).then_some(x);
    let seconds = match (days, v.as_slice()) {
        (Some(d), [h]) => d * 86_400 + h * 3600,
        (Some(d), [h, m]) => d * 86_400 + h * 3600 + sixty(*m)? * 60,
        (Some(d), [h, m, s]) => d * 86_400 + h * 3600 + sixty(*m)? * 60 + sixty(*s)?,
        (None, [m]) => m * 60,
        (None, [m, s]) => m * 60 + sixty(*s)?,
        (None, [h, m, s]) => h * 3600 + sixty(*m)? * 60 + sixty(*s)?,
        _ => return None,
    };
    Some(seconds)
}

/// A time limit in seconds; `None` for UNLIMITED, Partition_Limit or empty.
fn parse_limit(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("UNLIMITED") || t.eq_ignore_ascii_case("Partition_Limit") {
        return Ok(None);
    }
    parse_duration(t).map(Some).ok_or_else(|| {
        format!("`{t}` is not a time limit (D-HH:MM:SS, HH:MM:SS, MM:SS, MM, UNLIMITED or Partition_Limit)")
    })
}

/// A time stamp: `None` for Unknown, None or empty.
fn parse_time(text: &str) -> Result<Option<(i64, TimeKind)>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("Unknown") || t.eq_ignore_ascii_case("None") {
        return Ok(None);
    }
    if t.bytes().all(|b| b.is_ascii_digit()) && t.len() <= 12 {
        return t.parse().map(|v| Some((v, TimeKind::Epoch))).map_err(|e| format!("`{t}`: {e}"));
    }
    NaiveDateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S")
        .map(|d| Some((d.and_utc().timestamp(), TimeKind::Local)))
        .map_err(|_| {
            format!(
                "`{t}` is not a time (YYYY-MM-DDTHH:MM:SS as sacct prints by default, epoch seconds with \
                 SLURM_TIME_FORMAT=%s, Unknown or None)"
            )
        })
}

/// A non-negative count; `None` for empty.
fn parse_count(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.len() <= 12 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse().map(Some).map_err(|e| format!("`{t}`: {e}"));
    }
    Err(format!("`{t}` is not a count"))
}

/// Interns names; numbers are assigned later, in order of first use.
#[derive(Debug, Default)]
struct Names {
    ids: HashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl Names {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }
}

/// One allocation line, as read.
#[derive(Debug, Clone)]
struct Alloc {
    line: u64,
    /// Numeric job id for ordering (JobIDRaw, else the JobID's leading number).
    order: u64,
    /// What the maps call it.
    label: u32,
    het: Option<(u64, u64)>,
    submit: i64,
    start: Option<i64>,
    end: Option<i64>,
    runtime: Option<i64>,
    alloc_cpus: i64,
    /// It got an allocation: a start time, CPUs, and nodes if AllocNodes says.
    allocated: bool,
    req_cpus: Option<i64>,
    nodes: Option<i64>,
    limit: Option<i64>,
    status: i64,
    user: Option<u32>,
    group: Option<u32>,
    partition: Option<u32>,
    job_name: Option<u32>,
    merged: bool,
}

/// Steps of one job, folded.
#[derive(Debug, Clone, Copy, Default)]
struct StepFold {
    count: u64,
    last_end: Option<i64>,
}

struct Converter<'p> {
    path: &'p Path,
    columns: Columns,
    options: SacctOptions,
    allocs: Vec<Alloc>,
    /// Allocation key (JobIDRaw, else JobID base) → index in `allocs`.
    by_key: HashMap<Box<str>, usize>,
    steps: HashMap<Box<str>, StepFold>,
    /// Keys of the allocations skipped as unfinished.
    skipped_keys: HashSet<Box<str>>,
    users: Names,
    groups: Names,
    partitions: Names,
    job_names: Names,
    labels: Names,
    time_kind: Option<(TimeKind, u64)>,
    skipped: SkippedLines,
    report: SacctReport,
    /// Scratch for a resolved free-text value.
    joined: String,
    /// The number of the line being parsed, for messages.
    line_no: u64,
    extra: usize,
}

impl<'p> Converter<'p> {
    fn new(path: &'p Path, columns: Columns, options: SacctOptions) -> Converter<'p> {
        Converter {
            path,
            columns,
            options,
            allocs: Vec::new(),
            by_key: HashMap::new(),
            steps: HashMap::new(),
            skipped_keys: HashSet::new(),
            users: Names::default(),
            groups: Names::default(),
            partitions: Names::default(),
            job_names: Names::default(),
            labels: Names::default(),
            time_kind: None,
            skipped: SkippedLines::default(),
            report: SacctReport::default(),
            joined: String::new(),
            line_no: 0,
            extra: 0,
        }
    }

    fn skip(&mut self, error: &SacctError) {
        if let Some(problem) = error.line_problem() {
            *self.skipped.by_problem.entry(problem).or_default() += 1;
            if self.skipped.first.is_none() {
                self.skipped.first = Some(error.to_string());
            }
        }
    }

    fn malformed(&self, record: &Fields, column: Option<Col>, problem: LineProblem, detail: String) -> SacctError {
        SacctError::Malformed {
            path: self.path.to_path_buf(),
            line: self.line_no,
            column: column.map(|c| self.columns.name(c).to_string()),
            problem,
            detail,
            text: shorten(&String::from_utf8_lossy(&record.buf)),
        }
    }

    /// The raw field of column `i` in this line, honouring a resolved surplus.
    fn raw<'r>(&self, record: &'r Fields, i: usize) -> &'r [u8] {
        let i = match self.columns.free_text {
            Some(ft) if self.extra > 0 && i > ft => i + self.extra,
            _ => i,
        };
        record.get(i).unwrap_or(b"")
    }

    /// The text of `col` (empty when the header lacks it).
    fn text<'r>(&self, record: &'r Fields, col: Col) -> Result<&'r str, SacctError> {
        let Some(i) = self.columns.get(col) else { return Ok("") };
        std::str::from_utf8(self.raw(record, i))
            .map(str::trim)
            .map_err(|_| self.malformed(record, Some(col), LineProblem::NotNumeric, "not UTF-8 text".to_string()))
    }

    fn time(&mut self, record: &Fields, col: Col) -> Result<Option<i64>, SacctError> {
        let text = self.text(record, col)?;
        let parsed =
            parse_time(text).map_err(|detail| self.malformed(record, Some(col), LineProblem::NotNumeric, detail))?;
        let Some((value, kind)) = parsed else { return Ok(None) };
        match self.time_kind {
            None => self.time_kind = Some((kind, self.line_no)),
            Some((seen, line)) if seen != kind => {
                let name = |k| if k == TimeKind::Epoch { "epoch seconds" } else { "YYYY-MM-DDTHH:MM:SS" };
                return Err(self.malformed(
                    record,
                    Some(col),
                    LineProblem::NotNumeric,
                    format!("`{text}` is in {}, but line {line} has {}", name(kind), name(seen)),
                ));
            }
            Some(_) => {}
        }
        Ok(Some(value))
    }

    fn count(&self, record: &Fields, col: Col) -> Result<Option<i64>, SacctError> {
        parse_count(self.text(record, col)?)
            .map_err(|detail| self.malformed(record, Some(col), LineProblem::NotNumeric, detail))
    }

    /// The first of `cols` the header has, as a count.
    fn first_count(&self, record: &Fields, cols: &[Col]) -> Result<Option<i64>, SacctError> {
        match cols.iter().find(|&&c| self.columns.get(c).is_some()) {
            Some(&c) => self.count(record, c),
            None => Ok(None),
        }
    }

    /// Elapsed time: ElapsedRaw, else Elapsed; `None` when neither is given.
    fn elapsed(&self, record: &Fields) -> Result<Option<i64>, SacctError> {
        for col in [Col::ElapsedRaw, Col::Elapsed] {
            if self.columns.get(col).is_none() {
                continue;
            }
            let text = self.text(record, col)?;
            if text.is_empty() {
                continue;
            }
            if text.starts_with('-') {
                return Err(self.malformed(
                    record,
                    Some(col),
                    LineProblem::Negative,
                    format!("negative elapsed time `{text}`"),
                ));
            }
            let value = if col == Col::ElapsedRaw { parse_count(text).ok().flatten() } else { parse_duration(text) };
            return value.map(Some).ok_or_else(|| {
                self.malformed(
                    record,
                    Some(col),
                    LineProblem::NotNumeric,
                    format!("`{text}` is not an elapsed time ([D-]HH:MM:SS, or seconds for ElapsedRaw)"),
                )
            });
        }
        Ok(None)
    }

    /// The time limit: TimelimitRaw (minutes), else Timelimit.
    fn limit(&self, record: &Fields) -> Result<Option<i64>, SacctError> {
        if self.columns.get(Col::TimelimitRaw).is_some() {
            let text = self.text(record, Col::TimelimitRaw)?;
            if !text.is_empty() {
                return match parse_count(text) {
                    Ok(minutes) => Ok(minutes.map(|m| m * 60)),
                    Err(_) => parse_limit(text)
                        .map_err(|d| self.malformed(record, Some(Col::TimelimitRaw), LineProblem::NotNumeric, d)),
                };
            }
        }
        if self.columns.get(Col::Timelimit).is_some() {
            let text = self.text(record, Col::Timelimit)?;
            return parse_limit(text)
                .map_err(|d| self.malformed(record, Some(Col::Timelimit), LineProblem::NotNumeric, d));
        }
        Ok(None)
    }

    /// A name column (falling back to an id column), interned.
    fn name(&mut self, record: &Fields, cols: &[Col], which: Which) -> Result<Option<u32>, SacctError> {
        for &col in cols {
            if self.columns.get(col).is_none() {
                continue;
            }
            let text = self.text(record, col)?;
            if !text.is_empty() {
                let names = match which {
                    Which::User => &mut self.users,
                    Which::Group => &mut self.groups,
                    Which::Partition => &mut self.partitions,
                };
                return Ok(Some(names.id(text)));
            }
        }
        Ok(None)
    }

    /// The job name (lossy: names are free text), joined across a resolved surplus.
    fn job_name(&mut self, record: &Fields) -> Option<u32> {
        let i = self.columns.get(Col::JobName)?;
        self.joined.clear();
        let last = if self.columns.free_text == Some(i) { i + self.extra } else { i };
        for k in i..=last {
            if k > i {
                self.joined.push('|');
            }
            self.joined.push_str(&String::from_utf8_lossy(record.get(k).unwrap_or(b"")));
        }
        let name = self.joined.trim();
        (!name.is_empty()).then(|| self.job_names.id(name))
    }

    /// Reads one data line.
    fn line(&mut self, line: u64, record: &Fields) -> Result<(), SacctError> {
        self.line_no = line;
        self.extra = 0;
        let want = self.columns.names.len();
        if record.len() != want {
            self.fields_mismatch(record, want)?;
        }
        let raw_text = self.text(record, Col::JobIdRaw)?;
        let id_text = self.text(record, Col::JobId)?;
        let id_col = if raw_text.is_empty() && !id_text.is_empty() { Col::JobId } else { Col::JobIdRaw };
        let bad_id = |this: &Self, col: Col, text: &str| {
            this.malformed(record, Some(col), LineProblem::NotNumeric, format!("`{text}` is not a Slurm job id"))
        };
        let raw = if raw_text.is_empty() {
            None
        } else {
            Some(parse_job_id(raw_text).ok_or_else(|| bad_id(self, Col::JobIdRaw, raw_text))?)
        };
        let id = if id_text.is_empty() {
            None
        } else {
            Some(parse_job_id(id_text).ok_or_else(|| bad_id(self, Col::JobId, id_text))?)
        };
        let Some(key_id) = raw.or(id) else {
            return Err(self.malformed(record, Some(id_col), LineProblem::NotNumeric, "no job id".to_string()));
        };
        let state_text = self.text(record, Col::State)?;
        let class = swf_status(state_text).ok_or_else(|| {
            self.malformed(
                record,
                Some(Col::State),
                LineProblem::NotNumeric,
                format!("`{state_text}` is not a Slurm job state"),
            )
        })?;
        let is_step = raw.map_or(id.is_some_and(|i| i.step.is_some()), |r| r.step.is_some());
        if is_step {
            return self.step(record, key_id.base);
        }
        if let Some(JobId { kind: IdKind::ArrayRange { tasks }, .. }) = id {
            // A pending range always; counted with the pending jobs whatever its state says.
            self.report.pending += 1;
            self.report.pending_array_ranges += 1;
            self.report.pending_array_tasks += tasks.unwrap_or(0);
            return Ok(());
        }
        let status = match class {
            StateClass::Final(status) => status,
            skipped => {
                // Their steps are skipped with them, not counted as orphans.
                self.skipped_keys.insert(key_id.base.into());
                *match skipped {
                    StateClass::Running => &mut self.report.running,
                    StateClass::Requeued => &mut self.report.requeued,
                    StateClass::Revoked => &mut self.report.revoked,
                    _ => &mut self.report.pending,
                } += 1;
                return Ok(());
            }
        };
        let submit = self.time(record, Col::Submit)?.ok_or_else(|| {
            self.malformed(record, Some(Col::Submit), LineProblem::NotNumeric, "no submit time".to_string())
        })?;
        let start = self.time(record, Col::Start)?;
        let end = match self.columns.get(Col::End) {
            Some(_) => self.time(record, Col::End)?,
            None => None,
        };
        if let Some(start) = start {
            if start < submit {
                return Err(self.malformed(
                    record,
                    Some(Col::Start),
                    LineProblem::Negative,
                    format!("starts {} s before its submit time (negative wait)", submit - start),
                ));
            }
            if let Some(end) = end.filter(|&e| e < start) {
                return Err(self.malformed(
                    record,
                    Some(Col::End),
                    LineProblem::Negative,
                    format!("ends {} s before it starts (negative elapsed time)", start - end),
                ));
            }
        }
        let elapsed = self.elapsed(record)?;
        let alloc_cpus = self.first_count(record, &[Col::AllocCpus, Col::NCpus])?.unwrap_or(0);
        let req_cpus = self.count(record, Col::ReqCpus)?.filter(|&n| n > 0);
        // AllocNodes is 0 for a job that never got nodes, even when sacct
        // prints a start time for it (cancelled while pending, some versions).
        let alloc_nodes = self.count(record, Col::AllocNodes)?;
        let nodes = match alloc_nodes {
            Some(n) => Some(n),
            None => self.count(record, Col::NNodes)?,
        }
        .filter(|&n| n > 0);
        let allocated = start.is_some() && alloc_cpus > 0 && alloc_nodes != Some(0);
        let limit = self.limit(record)?;
        let user = self.name(record, &[Col::User, Col::Uid], Which::User)?;
        let group = self.name(record, &[Col::Group, Col::Gid], Which::Group)?;
        let partition = self.name(record, &[Col::Partition], Which::Partition)?;
        let job_name = self.job_name(record);
        let runtime = elapsed.or_else(|| start.zip(end).map(|(s, e)| e - s));
        let (order, het, label_text) = match (id.map(|i| i.kind), raw.map(|r| r.kind)) {
            (Some(IdKind::Het { group, offset }), raw) => {
                let order = match raw {
                    Some(IdKind::Plain(n)) => n,
                    _ => group,
                };
                (order, Some((group, offset)), id.map_or(key_id.base, |i| i.base.split('+').next().unwrap_or("")))
            }
            (Some(IdKind::ArrayTask { array }), raw) => {
                self.report.array_tasks += 1;
                let order = match raw {
                    Some(IdKind::Plain(n)) => n,
                    _ => array,
                };
                (order, None, id.map_or(key_id.base, |i| i.base))
            }
            (_, Some(IdKind::Plain(n))) | (Some(IdKind::Plain(n)), None) => {
                (n, None, id.map_or(key_id.base, |i| i.base))
            }
            _ => return Err(bad_id(self, id_col, key_id.base)),
        };
        let label = self.labels.id(label_text);
        self.report.allocations += 1;
        let index = self.allocs.len();
        self.by_key.insert(key_id.base.into(), index);
        self.allocs.push(Alloc {
            line,
            order,
            label,
            het,
            submit,
            start,
            end,
            runtime,
            alloc_cpus,
            allocated,
            req_cpus,
            nodes,
            limit,
            status,
            user,
            group,
            partition,
            job_name,
            merged: false,
        });
        Ok(())
    }

    /// A line whose field count differs from the header's.
    fn fields_mismatch(&mut self, record: &Fields, want: usize) -> Result<(), SacctError> {
        let found = record.len();
        let detail = format!("{found} fields for the {want} columns of the header");
        if found < want {
            return Err(self.malformed(record, None, LineProblem::WrongFieldCount, detail));
        }
        match self.columns.free_text {
            Some(ft) => {
                self.extra = found - want;
                self.report.resolved += 1;
                self.report.first_resolved.get_or_insert(self.line_no);
                self.report.resolved_column.get_or_insert_with(|| self.columns.names[ft].clone());
                Ok(())
            }
            None if self.columns.free_text_names.is_empty() => Err(self.malformed(
                record,
                None,
                LineProblem::WrongFieldCount,
                format!("{detail}, and no free-text column to hold a `|`: the delimiter cannot be resolved"),
            )),
            None => Err(self.malformed(
                record,
                None,
                LineProblem::WrongFieldCount,
                format!(
                    "{detail}: a `|` inside one of {} (free text, unescaped by --parsable2) makes the line \
                     ambiguous; ask sacct for only one of them",
                    self.columns.free_text_names.join(", ")
                ),
            )),
        }
    }

    /// A job step: checked, then folded into its job.
    fn step(&mut self, record: &Fields, parent: &str) -> Result<(), SacctError> {
        let start = self.time(record, Col::Start)?;
        let end = match self.columns.get(Col::End) {
            Some(_) => self.time(record, Col::End)?,
            None => None,
        };
        if let Some(end) = end.filter(|&e| start.is_some_and(|s| e < s)) {
            return Err(self.malformed(
                record,
                Some(Col::End),
                LineProblem::Negative,
                format!("ends {} s before it starts (negative elapsed time)", start.unwrap_or(end) - end),
            ));
        }
        let elapsed = self.elapsed(record)?;
        let last_end = end.or_else(|| start.zip(elapsed).map(|(s, e)| s + e));
        let fold = match self.steps.get_mut(parent) {
            Some(fold) => fold,
            None => self.steps.entry(parent.into()).or_default(),
        };
        fold.count += 1;
        fold.last_end = fold.last_end.max(last_end);
        Ok(())
    }

    /// Folds steps and heterogeneous components, orders, numbers and builds the trace.
    fn finish(mut self) -> Result<SacctConversion, SacctError> {
        // Steps into their jobs.
        for (key, fold) in std::mem::take(&mut self.steps) {
            let Some(&i) = self.by_key.get(&key) else {
                if self.skipped_keys.contains(&key) {
                    self.report.skipped_steps += fold.count;
                } else {
                    self.report.orphan_steps += fold.count;
                }
                continue;
            };
            self.report.steps += fold.count;
            let alloc = &mut self.allocs[i];
            if let (Some(step_end), Some(end)) = (fold.last_end, alloc.end) {
                if step_end > end {
                    self.report.steps_past_end += 1;
                }
            }
            if alloc.runtime.is_none() {
                if let (Some(start), Some(step_end)) = (alloc.start, fold.last_end) {
                    alloc.runtime = Some((step_end - start).max(0));
                    self.report.runtime_from_steps += 1;
                }
            }
        }
        // Heterogeneous components into one job, led by the lowest offset.
        let mut leaders: HashMap<u64, usize> = HashMap::new();
        for i in 0..self.allocs.len() {
            let Some((group, offset)) = self.allocs[i].het else { continue };
            self.report.het_components += 1;
            let Some(&lead) = leaders.get(&group) else {
                leaders.insert(group, i);
                self.report.het_jobs += 1;
                continue;
            };
            let other = self.allocs[i].clone();
            self.allocs[i].merged = true;
            let leader = &mut self.allocs[lead];
            leader.alloc_cpus += other.alloc_cpus;
            leader.req_cpus = match (leader.req_cpus, other.req_cpus) {
                (Some(a), Some(b)) => Some(a + b),
                (a, b) => a.or(b),
            };
            leader.nodes = match (leader.nodes, other.nodes) {
                (Some(a), Some(b)) => Some(a + b),
                (a, b) => a.or(b),
            };
            leader.limit = leader.limit.max(other.limit);
            if other.allocated {
                leader.allocated = true;
                leader.runtime = leader.runtime.max(other.runtime);
                leader.start = match (leader.start, other.start) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            if other.het.is_some_and(|(_, o)| leader.het.is_some_and(|(_, lo)| o < lo)) {
                // The lower offset leads: its submit time, state and names.
                leader.het = Some((group, offset));
                leader.line = other.line;
                leader.submit = other.submit;
                leader.status = other.status;
                leader.user = other.user;
                leader.group = other.group;
                leader.partition = other.partition;
                leader.job_name = other.job_name;
            }
        }
        let mut jobs: Vec<Alloc> = self.allocs.drain(..).filter(|a| !a.merged).collect();
        jobs.sort_by_key(|a| (a.submit, a.order, a.line));
        if jobs.is_empty() {
            let mut report = self.report.to_string();
            if self.skipped.total() > 0 {
                report += &format!("; {}", self.skipped);
            }
            return Err(SacctError::NoJobs { path: self.path.to_path_buf(), report });
        }
        self.build(jobs)
    }

    fn build(mut self, jobs: Vec<Alloc>) -> Result<SacctConversion, SacctError> {
        let origin = jobs.first().map_or(0, |a| a.submit);
        let mut maps = SacctMaps::default();
        // Provisional id → SWF number, in order of first use.
        let renumber = |table: &Names, number: &mut Vec<u32>, out: &mut Vec<String>, id: Option<u32>| {
            let id = id? as usize;
            if number.len() < table.names.len() {
                number.resize(table.names.len(), 0);
            }
            if number[id] == 0 {
                out.push(table.names[id].to_string());
                number[id] = out.len() as u32;
            }
            Some(i64::from(number[id]))
        };
        let (mut user_no, mut group_no, mut part_no, mut name_no) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut records = Vec::with_capacity(jobs.len());
        let mut lines = Vec::with_capacity(jobs.len());
        let (mut max_procs, mut max_nodes, mut last_end) = (0i64, 0i64, origin);
        for (n, a) in jobs.iter().enumerate() {
            let ran = a.allocated;
            let (wait, runtime) = match (ran, a.start) {
                (true, Some(start)) => (start - a.submit, a.runtime.unwrap_or(-1)),
                _ => (-1, 0),
            };
            if ran && a.runtime.is_none() {
                self.report.no_runtime += 1;
            }
            if !ran {
                self.report.never_started += 1;
            }
            match a.status {
                1 => self.report.completed += 1,
                0 => self.report.failed += 1,
                _ => self.report.cancelled += 1,
            }
            if ran {
                max_procs = max_procs.max(a.alloc_cpus);
                max_nodes = max_nodes.max(a.nodes.unwrap_or(0));
            }
            let end = a.end.unwrap_or(a.submit + wait.max(0) + runtime.max(0));
            last_end = last_end.max(end);
            let partition = renumber(&self.partitions, &mut part_no, &mut maps.partitions, a.partition);
            records.push(SwfRecord {
                job: n as i64 + 1,
                submit: a.submit - origin,
                wait,
                runtime,
                allocated_procs: if ran { a.alloc_cpus } else { -1 },
                requested_procs: a.req_cpus.unwrap_or(-1),
                requested_time: a.limit.unwrap_or(-1),
                status: a.status,
                user: renumber(&self.users, &mut user_no, &mut maps.users, a.user).unwrap_or(-1),
                group: renumber(&self.groups, &mut group_no, &mut maps.groups, a.group).unwrap_or(-1),
                executable: renumber(&self.job_names, &mut name_no, &mut maps.job_names, a.job_name).unwrap_or(-1),
                queue: partition.unwrap_or(-1),
                partition: partition.unwrap_or(-1),
                ..SwfRecord::UNKNOWN
            });
            lines.push(a.line);
            maps.jobs.push(self.labels.names.get(a.label as usize).map_or_else(String::new, |s| s.to_string()));
        }
        self.report.jobs = records.len() as u64;
        let epoch = self.time_kind.is_some_and(|(k, _)| k == TimeKind::Epoch);
        self.report.epoch_times = epoch;
        let header = self.header(&maps, origin, last_end, epoch, max_procs, max_nodes);
        let name = self.path.display().to_string();
        let trace = SwfTrace { name, header, records, skipped: self.skipped };
        Ok(SacctConversion { trace, lines, maps, report: self.report })
    }

    fn header(
        &mut self,
        maps: &SacctMaps,
        origin: i64,
        last_end: i64,
        epoch: bool,
        max_procs: i64,
        max_nodes: i64,
    ) -> SwfHeader {
        let file =
            self.path.file_name().map_or_else(|| self.path.display().to_string(), |f| f.to_string_lossy().into());
        let mut h = SwfHeader::default();
        let mut push = |line: String| h.push_line(format!(" {line}"));
        push("Version: 2.2".into());
        push(format!(
            "Conversion: slasim {} trace convert --from sacct (Slurm accounting, sacct --parsable2) of {file}",
            env!("CARGO_PKG_VERSION")
        ));
        push(format!("MaxJobs: {}", maps.jobs.len()));
        push(format!("MaxRecords: {}", maps.jobs.len()));
        let date = |t: i64| DateTime::from_timestamp(t, 0).map(|d| d.format("%a %b %d %H:%M:%S %Y").to_string());
        if epoch {
            push(format!("UnixStartTime: {origin}"));
            if let (Some(s), Some(e)) = (date(origin), date(last_end)) {
                push(format!("StartTime: {s} UTC"));
                push(format!("EndTime:   {e} UTC"));
            }
        } else if let (Some(s), Some(e)) = (date(origin), date(last_end)) {
            push(format!("StartTime: {s}"));
            push(format!("EndTime:   {e}"));
            push(
                "Note: times are sacct's local wall-clock times (no time zone; a daylight-saving change in the \
                 log shifts the waits that span it by an hour); SLURM_TIME_FORMAT=%s gives epoch seconds"
                    .into(),
            );
        }
        let nodes = match self.options.max_nodes {
            Some(n) => Some(n.to_string()),
            None if max_nodes > 0 => {
                self.report.guessed_max_nodes = Some(max_nodes);
                Some(format!("{max_nodes}"))
            }
            None => None,
        };
        if let Some(nodes) = nodes {
            push(format!("MaxNodes: {nodes}"));
        }
        match self.options.max_procs {
            Some(p) => push(format!("MaxProcs: {p}")),
            None => {
                self.report.guessed_max_procs = Some(max_procs);
                push(format!("MaxProcs: {max_procs}"));
                push("Note: MaxProcs is the largest allocation in the log, not the machine's size".into());
            }
        }
        if !maps.partitions.is_empty() {
            push(format!("MaxQueues: {}", maps.partitions.len()));
            for (i, p) in maps.partitions.iter().enumerate() {
                push(format!("Queue: {} {p}", i + 1));
            }
            push(format!("MaxPartitions: {}", maps.partitions.len()));
            for (i, p) in maps.partitions.iter().enumerate() {
                push(format!("Partition: {} {p}", i + 1));
            }
            push("Note: queue and partition numbers are both the Slurm partition's".into());
        }
        push(
            "Note: status 1 COMPLETED; 0 FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE; \
             5 CANCELLED, PREEMPTED"
                .into(),
        );
        push(
            "Note: requested time is the Slurm time limit (-1 for UNLIMITED or Partition_Limit); \
             executable numbers are job names"
                .into(),
        );
        let r = &self.report;
        if r.unfinished() > 0 || r.orphan_steps > 0 {
            push(format!(
                "Note: skipped {} pending ({} array ranges), {} running, {} requeued, {} revoked jobs and {} steps \
                 without their job",
                r.pending, r.pending_array_ranges, r.running, r.requeued, r.revoked, r.orphan_steps
            ));
        }
        if self.skipped.total() > 0 {
            push(format!("Note: {}", self.skipped));
        }
        h
    }
}

#[derive(Debug, Clone, Copy)]
enum Which {
    User,
    Group,
    Partition,
}

fn shorten(text: &str) -> String {
    let mut text = text.trim().to_string();
    if text.len() > 160 {
        let cut = (0..=160).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.truncate(cut);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn convert(text: &str, lenient: bool) -> Result<SacctConversion, SacctError> {
        let options = SacctOptions { lenient, ..SacctOptions::default() };
        convert_reader(Path::new("t.sacct"), Cursor::new(text.as_bytes().to_vec()), &options)
    }

    const HEAD: &str =
        "JobIDRaw|JobID|JobName|User|Partition|Submit|Start|End|Elapsed|Timelimit|AllocCPUS|ReqCPUS|State\n";

    #[test]
    fn durations_in_every_slurm_form() {
        for (text, seconds) in [
            ("00:00:00", 0),
            ("00:01:30", 90),
            ("1-00:00:00", 86_400),
            ("2-03:04:05", 2 * 86_400 + 3 * 3600 + 4 * 60 + 5),
            ("1-12", 86_400 + 12 * 3600),
            ("1-12:30", 86_400 + 12 * 3600 + 30 * 60),
            ("45:10", 45 * 60 + 10),
            ("90", 90 * 60),
            ("100:00:00", 360_000),
        ] {
            assert_eq!(parse_duration(text), Some(seconds), "{text}");
        }
        for bad in ["", "-1", "1:2:3:4", "00:60:00", "00:00:61", "1-", "x", "1.5", "-00:00:05", "1--2"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn limits_unlimited_and_partition_limit_are_unknown() {
        assert_eq!(parse_limit("UNLIMITED"), Ok(None));
        assert_eq!(parse_limit("Partition_Limit"), Ok(None));
        assert_eq!(parse_limit(""), Ok(None));
        assert_eq!(parse_limit("01:00:00"), Ok(Some(3600)));
        assert_eq!(parse_limit("5"), Ok(Some(300)));
        assert!(parse_limit("INVALID").unwrap_err().contains("`INVALID` is not a time limit"));
    }

    #[test]
    fn times_local_epoch_and_unknown() {
        assert_eq!(parse_time("Unknown"), Ok(None));
        assert_eq!(parse_time("None"), Ok(None));
        assert_eq!(parse_time("1700000000"), Ok(Some((1_700_000_000, TimeKind::Epoch))));
        assert_eq!(parse_time("1970-01-02T00:00:10"), Ok(Some((86_410, TimeKind::Local))));
        assert!(parse_time("2024-13-01T00:00:00").is_err());
        assert!(parse_time("Tue 14:22").is_err());
    }

    #[test]
    fn job_ids() {
        let id = parse_job_id("123").unwrap();
        assert_eq!((id.base, id.step, id.kind), ("123", None, IdKind::Plain(123)));
        let id = parse_job_id("123_4.batch").unwrap();
        assert_eq!((id.base, id.step, id.kind), ("123_4", Some("batch"), IdKind::ArrayTask { array: 123 }));
        assert_eq!(parse_job_id("123_[5-9]").unwrap().kind, IdKind::ArrayRange { tasks: Some(5) });
        assert_eq!(parse_job_id("123_[1-3,7,10-20:5%2]").unwrap().kind, IdKind::ArrayRange { tasks: Some(7) });
        assert_eq!(parse_job_id("123_[oops]").unwrap().kind, IdKind::ArrayRange { tasks: None });
        assert_eq!(parse_job_id("123+1.0").unwrap().kind, IdKind::Het { group: 123, offset: 1 });
        for bad in ["", "abc", "123.", "_4", "123_", "123+", "12x", "123_[5-9"] {
            assert!(parse_job_id(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn states_map_to_swf_status() {
        assert_eq!(swf_status("COMPLETED"), Some(StateClass::Final(1)));
        assert_eq!(swf_status("CANCELLED by 1000"), Some(StateClass::Final(5)));
        assert_eq!(swf_status("PREEMPTED"), Some(StateClass::Final(5)));
        for failed in ["FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE"] {
            assert_eq!(swf_status(failed), Some(StateClass::Final(0)), "{failed}");
        }
        assert_eq!(swf_status("PENDING"), Some(StateClass::Pending));
        assert_eq!(swf_status("RUNNING"), Some(StateClass::Running));
        assert_eq!(swf_status("REQUEUED"), Some(StateClass::Requeued));
        assert_eq!(swf_status("DONE"), None);
    }

    #[test]
    fn header_detection() {
        assert!(looks_like_header("JobIDRaw|State|Submit"));
        assert!(looks_like_header("JobID|State|")); // --parsable: trailing `|`
        assert!(!looks_like_header("1 0 10 20 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1"));
        assert!(!looks_like_header("123|COMPLETED|2024-01-01T00:00:00"));
        assert!(!looks_like_header("User|State")); // no job id column
    }

    #[test]
    fn maps_path_drops_swf_and_gz() {
        assert_eq!(maps_path(Path::new("d/out.swf")), PathBuf::from("d/out.maps.csv"));
        assert_eq!(maps_path(Path::new("out.swf.gz")), PathBuf::from("out.maps.csv"));
        assert_eq!(maps_path(Path::new("out")), PathBuf::from("out.maps.csv"));
    }

    #[test]
    fn blank_lines_crlf_and_trailing_bar_are_read() {
        let text = "JobIDRaw|Submit|Start|End|AllocCPUS|State|\r\n\r\n\
            7|1970-01-01T00:00:00|1970-01-01T00:00:05|1970-01-01T00:01:05|4|COMPLETED|\r\n\n";
        let c = convert(text, false).unwrap();
        assert_eq!(c.trace.records.len(), 1);
        let r = c.trace.records[0];
        assert_eq!((r.submit, r.wait, r.runtime, r.allocated_procs, r.status), (0, 5, 60, 4, 1));
        assert_eq!(c.lines, vec![3]);
        assert_eq!(c.report.lines, 1);
    }

    #[test]
    fn a_byte_order_mark_before_the_header_is_read_past() {
        let body = "7|1970-01-01T00:00:00|1970-01-01T00:00:05|1970-01-01T00:01:05|4|COMPLETED\n";
        let plain = convert(&format!("JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}"), false).unwrap();
        let marked = convert(&format!("\u{feff}JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}"), false).unwrap();
        assert_eq!(marked.trace.records, plain.trace.records);
        assert_eq!(marked.trace.records.len(), 1);
        let r = marked.trace.records[0];
        assert_eq!((r.wait, r.runtime, r.allocated_procs), (5, 60, 4));
        // The file is recognised as a dump too, before the reader sees it.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bom.sacct");
        std::fs::write(&file, format!("\u{feff}JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}")).unwrap();
        assert!(is_sacct_file(&file));
        assert_eq!(load(&file, ReadOptions::default()).unwrap().records, plain.trace.records);
        // A mark elsewhere is no header.
        assert!(convert(&format!("x\u{feff}JobIDRaw|Submit\n{body}"), false).is_err());
    }

    #[test]
    fn mixed_time_formats_are_an_error() {
        let text = format!(
            "{HEAD}1|1|a|u|p|100|110|120|00:00:10|1|1|1|COMPLETED\n\
             2|2|a|u|p|1970-01-01T00:02:00|1970-01-01T00:02:00|1970-01-01T00:02:10|00:00:10|1|1|1|COMPLETED\n"
        );
        let err = convert(&text, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct:3: column Submit: `1970-01-01T00:02:00` is in YYYY-MM-DDTHH:MM:SS, but line 2 has epoch seconds"), "{err}");
    }

    #[test]
    fn a_short_line_is_an_error_and_lenient_skips_it() {
        let text = format!("{HEAD}1|1|a|u|p|100|110|120|00:00:10|1|1|1|COMPLETED\n2|2|a|u|p|100\n");
        let err = convert(&text, false).unwrap_err().to_string();
        assert_eq!(err, "t.sacct:3: 6 fields for the 13 columns of the header: \"2|2|a|u|p|100\"");
        let c = convert(&text, true).unwrap();
        assert_eq!(c.trace.records.len(), 1);
        assert_eq!(c.trace.skipped.by_problem[&LineProblem::WrongFieldCount], 1);
    }

    #[test]
    fn nothing_finished_is_an_error() {
        let text = format!("{HEAD}1|1|a|u|p|100|Unknown|Unknown|00:00:00|1|0|1|PENDING\n");
        let err = convert(&text, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct: no finished jobs to convert (1 lines"), "{err}");
        assert!(err.contains("skipped 1 pending"), "{err}");
    }
}
