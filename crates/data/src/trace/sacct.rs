//! Slurm accounting (`sacct --parsable2`): conversion to SWF, and the dump's
//! jobs as recorded ([`jobs`], [`read_native`]).
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
//!
//! Rooms: this file (the public interface, its errors and report, reading and
//! writing files), `columns` (the header and each line's fields), `values`
//! (job ids, durations, times, counts, states) and `convert` (the conversion).

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::trace::swf::{FileSink, LineProblem, ReadOptions, SwfTrace, SwfWriter};

mod columns;
mod convert;
mod depend;
pub mod jobs;
mod native;
mod values;

pub use depend::parse_dependency;
pub use native::{NativeOptions, parse_native, read_native};

pub use values::{StateClass, parse_duration, swf_status};

use columns::{Columns, Fields};
use convert::Converter;

/// The `--format` list to ask sacct for (any order; more fields are ignored).
pub const RECOMMENDED_FORMAT: &str =
    "JobIDRaw,JobID,JobName,User,Group,Partition,Submit,Start,End,Elapsed,Timelimit,AllocCPUS,ReqCPUS,AllocNodes,State";

/// Columns that must be in the header; `a|b` means either.
pub const REQUIRED: [&str; 5] = ["JobIDRaw|JobID", "Submit", "Start", "State", "AllocCPUS|NCPUS"];

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
    /// Malformed lines skipped in lenient mode, by [`read_native`] (the SWF
    /// conversion counts them in [`SwfTrace::skipped`] instead).
    pub skipped: crate::trace::swf::SkippedLines,
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

/// Opens a sacct dump, plain or gzip (by its magic bytes), for line reading.
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, SacctError> {
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
    let mut fields = Fields::default();
    let mut lines = Lines { path, input: &mut input, line: 0 };
    if !lines.next(&mut fields)? {
        return Err(SacctError::Empty { path: path.to_path_buf() });
    }
    let line = lines.line;
    let columns = Columns::from_header(path, line, &fields)?;
    let mut state = Converter::new(path, columns, *options);
    while lines.next(&mut fields)? {
        state.report.lines += 1;
        match state.line(lines.line, &fields) {
            Ok(()) => {}
            Err(e) if options.lenient && e.line_problem().is_some() => state.skip(&e),
            Err(e) => return Err(e),
        }
    }
    state.finish()
}

/// A dump's numbered lines that are not blank, split into fields: a BOM
/// before the header and CR LF removed. Read here rather than by the csv
/// crate: its line numbers are wrong after blank lines, and --parsable2 has
/// no quoting to undo.
struct Lines<'a, R> {
    path: &'a Path,
    input: R,
    /// The number of the line read last.
    line: u64,
}

impl<R: BufRead> Lines<'_, R> {
    /// Reads the next line that is not blank into `fields`; false at the end.
    fn next(&mut self, fields: &mut Fields) -> Result<bool, SacctError> {
        loop {
            fields.buf.clear();
            let n = self.input.read_until(b'\n', &mut fields.buf).map_err(|cause| SacctError::Read {
                path: self.path.to_path_buf(),
                line: self.line,
                cause,
            })?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            if self.line == 1 && fields.buf.starts_with(BOM.as_bytes()) {
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
    }
}

/// `text` trimmed and cut to 160 bytes (at a character boundary) for a message.
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
mod tests;
