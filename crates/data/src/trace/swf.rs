//! Standard Workload Format (SWF) reader and writer.
//!
//! Reference: the Parallel Workloads Archive's SWF definition (Chapin et al.,
//! JSSPP 1999; <https://www.cs.huji.ac.il/labs/parallel/workload/swf.html>).
//!
//! Contract:
//! - [`SwfReader`] streams a plain or gzip-compressed file (detected by its magic
//!   bytes, not its name) line by line into a reused buffer; it never holds the
//!   whole file in memory. Header comments (`; Key: value`) are parsed before the
//!   first record and exposed through [`SwfHeader`].
//! - Every record has exactly 18 fields. `-1` means "unknown". Only field 11
//!   (status) may hold other negative values; a field that is not a number, or a
//!   negative value other than `-1` elsewhere, is an error naming `file:line`, the
//!   field and the line's text. Fields 6, 7 and 10 (CPU time, memory) may be
//!   fractional; all others are integers.
//! - In lenient mode malformed lines are skipped and counted per reason
//!   ([`SkippedLines`]) instead of ending the read.
//! - [`SwfWriter`] writes what the reader reads: a header and records written by
//!   it read back equal (`f64` fields use Rust's shortest round-trip format).

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

mod writer;

pub use writer::{FileSink, SwfWriter};

/// 0-based index of the run time field.
const RUNTIME_FIELD: usize = 3;
/// 0-based index of the requested processors field.
const REQUESTED_PROCS_FIELD: usize = 7;

/// Number of fields in an SWF record.
pub const FIELD_COUNT: usize = 18;

/// Names of the 18 SWF fields, 1-based in messages.
pub const FIELD_NAMES: [&str; FIELD_COUNT] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time used",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable number",
    "queue number",
    "partition number",
    "preceding job number",
    "think time",
];

/// The 0-based indices of the fields that may be fractional.
const FRACTIONAL_FIELDS: [usize; 3] = [5, 6, 9];
/// The 0-based index of the status field, the only one with other negative codes.
const STATUS_FIELD: usize = 10;

/// One SWF job record. `-1` marks an unknown value, as in the format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwfRecord {
    /// Field 1: job number.
    pub job: i64,
    /// Field 2: submit time, seconds since the log's start.
    pub submit: i64,
    /// Field 3: wait time in seconds.
    pub wait: i64,
    /// Field 4: run time in seconds (wall clock).
    pub runtime: i64,
    /// Field 5: number of allocated processors.
    pub allocated_procs: i64,
    /// Field 6: average CPU time used per processor, seconds.
    pub avg_cpu_time: f64,
    /// Field 7: used memory per processor, kilobytes.
    pub used_memory: f64,
    /// Field 8: requested number of processors.
    pub requested_procs: i64,
    /// Field 9: requested time (the user's runtime estimate), seconds.
    pub requested_time: i64,
    /// Field 10: requested memory per processor, kilobytes.
    pub requested_memory: f64,
    /// Field 11: status (1 completed, 0 failed, 5 cancelled, …).
    pub status: i64,
    /// Field 12: user id.
    pub user: i64,
    /// Field 13: group id.
    pub group: i64,
    /// Field 14: executable (application) number.
    pub executable: i64,
    /// Field 15: queue number.
    pub queue: i64,
    /// Field 16: partition number.
    pub partition: i64,
    /// Field 17: preceding job number.
    pub preceding_job: i64,
    /// Field 18: think time from the preceding job, seconds.
    pub think_time: i64,
}

impl SwfRecord {
    /// A record with every field unknown (`-1`).
    pub const UNKNOWN: SwfRecord = SwfRecord {
        job: -1,
        submit: -1,
        wait: -1,
        runtime: -1,
        allocated_procs: -1,
        avg_cpu_time: -1.0,
        used_memory: -1.0,
        requested_procs: -1,
        requested_time: -1,
        requested_memory: -1.0,
        status: -1,
        user: -1,
        group: -1,
        executable: -1,
        queue: -1,
        partition: -1,
        preceding_job: -1,
        think_time: -1,
    };

    /// The user's runtime estimate, if the log has one.
    pub fn estimate(&self) -> Option<i64> {
        (self.requested_time > 0).then_some(self.requested_time)
    }

    /// Requested processors, falling back to allocated processors.
    pub fn processors(&self) -> Option<i64> {
        if self.requested_procs > 0 {
            Some(self.requested_procs)
        } else if self.allocated_procs > 0 {
            Some(self.allocated_procs)
        } else {
            None
        }
    }

    fn from_fields(ints: &[i64; FIELD_COUNT], floats: &[f64; 3]) -> SwfRecord {
        SwfRecord {
            job: ints[0],
            submit: ints[1],
            wait: ints[2],
            runtime: ints[3],
            allocated_procs: ints[4],
            avg_cpu_time: floats[0],
            used_memory: floats[1],
            requested_procs: ints[7],
            requested_time: ints[8],
            requested_memory: floats[2],
            status: ints[10],
            user: ints[11],
            group: ints[12],
            executable: ints[13],
            queue: ints[14],
            partition: ints[15],
            preceding_job: ints[16],
            think_time: ints[17],
        }
    }
}

impl fmt::Display for SwfRecord {
    /// One SWF line, fields separated by single spaces, without a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}",
            self.job,
            self.submit,
            self.wait,
            self.runtime,
            self.allocated_procs,
            self.avg_cpu_time,
            self.used_memory,
            self.requested_procs,
            self.requested_time,
            self.requested_memory,
            self.status,
            self.user,
            self.group,
            self.executable,
            self.queue,
            self.partition,
            self.preceding_job,
            self.think_time
        )
    }
}

/// The header comments of an SWF file.
///
/// `lines` keeps every comment line verbatim (without the leading `;`), so a
/// written file carries the same header; `entries` is the parsed `Key: value`
/// view, with continuation lines appended to the previous value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SwfHeader {
    /// Raw comment lines, without the leading `;`.
    pub lines: Vec<String>,
    /// `(key, value)` pairs in file order; keys may repeat (`Queue`, `Note`).
    pub entries: Vec<(String, String)>,
}

impl SwfHeader {
    /// Builds a header from `(key, value)` pairs, generating the raw lines.
    pub fn from_entries<K: Into<String>, V: Into<String>>(entries: impl IntoIterator<Item = (K, V)>) -> SwfHeader {
        let mut header = SwfHeader::default();
        for (key, value) in entries {
            header.push_line(format!(" {}: {}", key.into(), value.into()));
        }
        header
    }

    /// Adds one raw comment line (text after `;`) and updates `entries`.
    pub fn push_line(&mut self, line: String) {
        let text = line.trim();
        match split_key(text) {
            Some((key, value)) => self.entries.push((key.to_string(), value.trim().to_string())),
            None if !text.is_empty() => {
                if let Some((_, value)) = self.entries.last_mut() {
                    value.push('\n');
                    value.push_str(text);
                }
            }
            None => {}
        }
        self.lines.push(line);
    }

    /// The first value of `key` (case-insensitive).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in file order.
    pub fn get_all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries.iter().filter(move |(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// `MaxNodes`, reading the leading integer (`338 (batch partition; 512 total)`).
    pub fn max_nodes(&self) -> Option<u64> {
        self.get("MaxNodes").and_then(leading_integer)
    }

    /// `MaxProcs`, reading the leading integer.
    pub fn max_procs(&self) -> Option<u64> {
        self.get("MaxProcs").and_then(leading_integer)
    }

    /// `UnixStartTime`: the epoch second of submit time 0.
    pub fn unix_start_time(&self) -> Option<i64> {
        self.get("UnixStartTime").and_then(|v| v.trim().parse().ok())
    }

    /// `TimeZoneString`, e.g. `US/Eastern`.
    pub fn time_zone_string(&self) -> Option<&str> {
        self.get("TimeZoneString").map(str::trim)
    }

    /// Every `Note` value.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        self.get_all("Note")
    }

    /// The queues the `Queue` lines name (`Queue:  1 DSI`), as (number, name);
    /// a line without a number and a name is left out.
    pub fn queues(&self) -> impl Iterator<Item = (i64, &str)> {
        self.get_all("Queue").filter_map(|v| {
            let (number, name) = v.trim().split_once(char::is_whitespace)?;
            Some((number.parse().ok()?, name.trim()))
        })
    }
}

/// Splits `Key: value` where the key is a single word.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let colon = text.find(':')?;
    let key = &text[..colon];
    (!key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then(|| (key, &text[colon + 1..]))
}

fn leading_integer(value: &str) -> Option<u64> {
    let digits: &str = value.trim_start();
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// What is wrong with a malformed line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineProblem {
    /// The line does not have 18 fields.
    WrongFieldCount,
    /// A field is not a (suitable) number.
    NotNumeric,
    /// A field is negative where only `-1` (unknown) may be.
    Negative,
    /// With [`ReadOptions::runnable`]: no processor count, or no run time.
    NotRunnable,
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineProblem::WrongFieldCount => "wrong field count",
            LineProblem::NotNumeric => "non-numeric field",
            LineProblem::Negative => "impossible negative value",
            LineProblem::NotRunnable => "job that cannot run",
        })
    }
}

/// Errors while reading an SWF file. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum SwfError {
    /// The file cannot be opened.
    #[error("{path}: cannot open: {cause}", path = .path.display())]
    Open { path: PathBuf, cause: io::Error },
    /// A directory was given.
    #[error("{path}: is a directory, not an SWF trace file", path = .path.display())]
    IsDirectory { path: PathBuf },
    /// A zero-byte file.
    #[error("{path}: the file is empty", path = .path.display())]
    Empty { path: PathBuf },
    /// No record could be read: comments only, or every line skipped.
    #[error("{path}: no job records{why}", path = .path.display())]
    NoRecords { path: PathBuf, why: String },
    /// A malformed line.
    #[error("{path}:{line}:{field} {detail}: \"{text}\"", path = .path.display(),
        field = .field.map(|f| format!(" field {} ({}):", f + 1, FIELD_NAMES[f])).unwrap_or_default())]
    Malformed {
        path: PathBuf,
        line: u64,
        /// 0-based field index, when one field is at fault.
        field: Option<usize>,
        problem: LineProblem,
        detail: String,
        /// The line's text, shortened.
        text: String,
    },
    /// The gzip stream ends early or is corrupt.
    #[error("{path}: truncated or corrupt gzip data after line {line}: {cause}", path = .path.display())]
    Gzip { path: PathBuf, line: u64, cause: io::Error },
    /// Any other read error.
    #[error("{path}: read error after line {line}: {cause}", path = .path.display())]
    Read { path: PathBuf, line: u64, cause: io::Error },
    /// A write error (writer side).
    #[error("{path}: cannot write: {cause}", path = .path.display())]
    Write { path: PathBuf, cause: io::Error },
}

impl SwfError {
    /// The problem class of a malformed line, if this is one.
    pub fn line_problem(&self) -> Option<LineProblem> {
        match self {
            SwfError::Malformed { problem, .. } => Some(*problem),
            _ => None,
        }
    }
}

/// Malformed lines skipped in lenient mode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkippedLines {
    /// Count per problem.
    pub by_problem: std::collections::BTreeMap<LineProblem, u64>,
    /// The first skipped line's full message, as an example.
    pub first: Option<String>,
}

impl SkippedLines {
    /// Total lines skipped.
    pub fn total(&self) -> u64 {
        self.by_problem.values().sum()
    }

    fn record(&mut self, error: &SwfError) {
        if let Some(problem) = error.line_problem() {
            *self.by_problem.entry(problem).or_default() += 1;
            if self.first.is_none() {
                self.first = Some(error.to_string());
            }
        }
    }
}

impl fmt::Display for SkippedLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped {} malformed line(s)", self.total())?;
        let parts: Vec<String> = self.by_problem.iter().map(|(p, n)| format!("{n} {p}")).collect();
        if !parts.is_empty() {
            write!(f, ": {}", parts.join(", "))?;
        }
        if let Some(first) = &self.first {
            write!(f, "; first: {first}")?;
        }
        Ok(())
    }
}

/// Reader options.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Skip malformed lines (and count them) instead of failing.
    pub lenient: bool,
    /// Also treat a job that cannot be run as malformed: a zero or negative
    /// processor count (requested and allocated) or a negative run time.
    pub runnable: bool,
}

/// A streaming SWF reader: an iterator over records.
pub struct SwfReader {
    path: PathBuf,
    input: Box<dyn BufRead + Send>,
    gzip: bool,
    line_no: u64,
    buf: Vec<u8>,
    /// The first record line, read while parsing the header.
    pending: bool,
    header: SwfHeader,
    options: ReadOptions,
    skipped: SkippedLines,
    records: u64,
    finished: bool,
}

const READ_BUFFER: usize = 1 << 18;

impl SwfReader {
    /// Opens a plain or gzip SWF file and reads its header.
    pub fn open(path: impl AsRef<Path>, options: ReadOptions) -> Result<SwfReader, SwfError> {
        let path = path.as_ref().to_path_buf();
        let meta = std::fs::metadata(&path).map_err(|cause| SwfError::Open { path: path.clone(), cause })?;
        if meta.is_dir() {
            return Err(SwfError::IsDirectory { path });
        }
        if meta.len() == 0 {
            return Err(SwfError::Empty { path });
        }
        let file = File::open(&path).map_err(|cause| SwfError::Open { path: path.clone(), cause })?;
        let mut raw = BufReader::with_capacity(READ_BUFFER, file);
        let magic = raw.fill_buf().map_err(|cause| SwfError::Read { path: path.clone(), line: 0, cause })?;
        let gzip = magic.starts_with(&[0x1f, 0x8b]);
        let input: Box<dyn BufRead + Send> = if gzip {
            Box::new(BufReader::with_capacity(READ_BUFFER, MultiGzDecoder::new(raw)))
        } else {
            Box::new(raw)
        };
        SwfReader::with_input(path, input, gzip, options)
    }

    /// Reads SWF text from any buffered source; `name` is used in messages.
    pub fn from_reader(
        name: impl Into<PathBuf>,
        input: impl BufRead + Send + 'static,
        options: ReadOptions,
    ) -> Result<SwfReader, SwfError> {
        SwfReader::with_input(name.into(), Box::new(input), false, options)
    }

    fn with_input(
        path: PathBuf,
        input: Box<dyn BufRead + Send>,
        gzip: bool,
        options: ReadOptions,
    ) -> Result<SwfReader, SwfError> {
        let mut reader = SwfReader {
            path,
            input,
            gzip,
            line_no: 0,
            buf: Vec::with_capacity(256),
            pending: false,
            header: SwfHeader::default(),
            options,
            skipped: SkippedLines::default(),
            records: 0,
            finished: false,
        };
        reader.read_header()?;
        Ok(reader)
    }

    /// The file name used in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header comments.
    pub fn header(&self) -> &SwfHeader {
        &self.header
    }

    /// Lines skipped so far (lenient mode).
    pub fn skipped(&self) -> &SkippedLines {
        &self.skipped
    }

    /// Reads the next line into `buf`; false at end of input.
    fn next_line(&mut self) -> Result<bool, SwfError> {
        self.buf.clear();
        let n = self.input.read_until(b'\n', &mut self.buf).map_err(|cause| {
            if self.gzip {
                SwfError::Gzip { path: self.path.clone(), line: self.line_no, cause }
            } else {
                SwfError::Read { path: self.path.clone(), line: self.line_no, cause }
            }
        })?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        Ok(true)
    }

    fn read_header(&mut self) -> Result<(), SwfError> {
        while self.next_line()? {
            let trimmed = self.buf.trim_ascii_start();
            if let Some(rest) = trimmed.strip_prefix(b";") {
                self.header.push_line(String::from_utf8_lossy(rest).into_owned());
            } else if !trimmed.is_empty() {
                self.pending = true;
                return Ok(());
            }
        }
        Ok(())
    }

    fn malformed(&self, field: Option<usize>, problem: LineProblem, detail: String) -> SwfError {
        let mut text = String::from_utf8_lossy(&self.buf).trim().to_string();
        if text.len() > 160 {
            let cut = (0..=160).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            text.truncate(cut);
            text.push('…');
        }
        SwfError::Malformed { path: self.path.clone(), line: self.line_no, field, problem, detail, text }
    }

    /// Parses the line in `buf`.
    fn parse_line(&self) -> Result<SwfRecord, SwfError> {
        let mut ints = [0i64; FIELD_COUNT];
        let mut floats = [0f64; 3];
        let mut count = 0usize;
        for token in self.buf.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()) {
            if count == FIELD_COUNT {
                count += 1;
                break;
            }
            let fractional = FRACTIONAL_FIELDS.iter().position(|&f| f == count);
            let value = match fractional {
                Some(_) => parse_int(token).map(|v| v as f64).or_else(|| parse_float(token)),
                None => parse_int(token).map(|v| v as f64),
            };
            let Some(value) = value else {
                let kind = if fractional.is_some() { "a number" } else { "an integer" };
                return Err(self.malformed(
                    Some(count),
                    LineProblem::NotNumeric,
                    format!("`{}` is not {kind}", lossy(token)),
                ));
            };
            if value < -1.0 && count != STATUS_FIELD {
                return Err(self.malformed(
                    Some(count),
                    LineProblem::Negative,
                    format!("negative value `{}` (only -1, meaning unknown, is allowed)", lossy(token)),
                ));
            }
            match fractional {
                Some(slot) => floats[slot] = value,
                // At most 18 digits: exact in i64, and parse_int already succeeded.
                None => ints[count] = parse_int(token).unwrap_or_default(),
            }
            count += 1;
        }
        if count != FIELD_COUNT {
            let found = if count > FIELD_COUNT { "more".to_string() } else { count.to_string() };
            return Err(self.malformed(
                None,
                LineProblem::WrongFieldCount,
                format!("expected {FIELD_COUNT} fields, found {found}"),
            ));
        }
        let record = SwfRecord::from_fields(&ints, &floats);
        if self.options.runnable {
            if record.processors().is_none() {
                return Err(self.malformed(
                    Some(REQUESTED_PROCS_FIELD),
                    LineProblem::NotRunnable,
                    format!(
                        "no processor count: requested {} and allocated {} processors",
                        record.requested_procs, record.allocated_procs
                    ),
                ));
            }
            if record.runtime < 0 {
                return Err(self.malformed(
                    Some(RUNTIME_FIELD),
                    LineProblem::NotRunnable,
                    format!("negative run time {}", record.runtime),
                ));
            }
        }
        Ok(record)
    }

    /// Reads the next record; `None` at the end.
    pub fn next_record(&mut self) -> Option<Result<SwfRecord, SwfError>> {
        loop {
            if self.finished {
                return None;
            }
            if self.pending {
                self.pending = false;
            } else {
                match self.next_line() {
                    Ok(true) => {}
                    Ok(false) => {
                        self.finished = true;
                        return None;
                    }
                    Err(e) => {
                        self.finished = true;
                        return Some(Err(e));
                    }
                }
            }
            let trimmed = self.buf.trim_ascii_start();
            if trimmed.is_empty() {
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix(b";") {
                // A comment after the first record: kept, so the writer reproduces it.
                let line = String::from_utf8_lossy(rest).into_owned();
                self.header.push_line(line);
                continue;
            }
            match self.parse_line() {
                Ok(record) => {
                    self.records += 1;
                    return Some(Ok(record));
                }
                Err(e) if self.options.lenient => self.skipped.record(&e),
                Err(e) => {
                    self.finished = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// Reads every remaining record into a [`SwfTrace`].
    pub fn read_all(mut self) -> Result<SwfTrace, SwfError> {
        let mut records = Vec::new();
        while let Some(record) = self.next_record() {
            records.push(record?);
        }
        if records.is_empty() {
            let why = if self.skipped.total() > 0 {
                format!(": every line was malformed ({})", self.skipped)
            } else {
                " (the file holds only comments or blank lines)".to_string()
            };
            return Err(SwfError::NoRecords { path: self.path, why });
        }
        Ok(SwfTrace {
            name: self.path.display().to_string(),
            header: self.header,
            records,
            skipped: self.skipped,
            dropped: Vec::new(),
        })
    }
}

impl Iterator for SwfReader {
    type Item = Result<SwfRecord, SwfError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

fn lossy(token: &[u8]) -> String {
    String::from_utf8_lossy(token).into_owned()
}

/// Parses an optionally negative decimal integer; `None` if it is anything else.
fn parse_int(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value * 10 + i64::from(d);
    }
    Some(if negative { -value } else { value })
}

fn parse_float(token: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(token).ok()?;
    // Only plain decimal notation; `inf`, `nan` and the like are not numbers here.
    if !text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A whole SWF file in memory: header, records and any skipped lines.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SwfTrace {
    /// Where it came from (a path, or a generator description).
    pub name: String,
    /// Header comments.
    pub header: SwfHeader,
    /// Job records, in file order.
    pub records: Vec<SwfRecord>,
    /// Lines skipped in lenient mode.
    pub skipped: SkippedLines,
    /// Rows a reader of another format left out by rule, `(reason, rows)`
    /// (a GPU-era file's pods that never ran, say); none for an SWF file.
    pub dropped: Vec<(String, u64)>,
}

impl SwfTrace {
    /// Reads a whole SWF file (plain or gzip).
    pub fn load(path: impl AsRef<Path>, options: ReadOptions) -> Result<SwfTrace, SwfError> {
        SwfReader::open(path, options)?.read_all()
    }

    /// Writes this trace as SWF to `path`; gzip if the name ends in `.gz`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), SwfError> {
        let path = path.as_ref();
        let werr = |cause| SwfError::Write { path: path.to_path_buf(), cause };
        let mut writer = SwfWriter::create(path).map_err(werr)?;
        writer.write_header(&self.header).map_err(werr)?;
        for record in &self.records {
            writer.write_record(record).map_err(werr)?;
        }
        writer.finish().map_err(werr)
    }
}

#[cfg(test)]
mod tests;
