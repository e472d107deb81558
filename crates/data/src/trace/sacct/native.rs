//! A sacct dump as a Slurm-shaped workload ([`SlurmWorkload`]): what the SWF
//! conversion flattens (accounts, QOS, memory, GPUs, node lists, eligible
//! times) kept.
//!
//! Contract:
//! - The input is what [`convert_reader`](super::convert_reader) reads, read
//!   by the same machinery: the header, the columns, job ids, steps folded
//!   into their job, heterogeneous components (`123+0`, `123+1`) summed into
//!   one job led by the lowest offset, array tasks (`123_4`) jobs of their
//!   own, unfinished jobs (pending, running, requeued, revoked) skipped and
//!   counted in [`SacctReport`], `|` inside a job name, gzip, errors naming
//!   `file:line` and the column.
//! - Jobs that never started (cancelled while pending; any job with no start,
//!   no CPUs or `AllocNodes` 0) are skipped too: they never ran. They are
//!   counted in [`SacctReport::never_started`], and not in `jobs`,
//!   `completed`, `failed` or `cancelled`.
//! - Per job: `id` is the numeric `JobIDRaw` (an array task's own, a
//!   heterogeneous job's leader's); user (`User`, else `UID`), account and
//!   partition names are `""` when missing or empty, QOS `"normal"`; the
//!   submit time is `Submit`, or `Eligible` when that is later (but
//!   `Submit`, or the submit line's `--begin` when later, for a job with a
//!   dependency or a throttled array: the simulation decides when it is
//!   eligible); the time
//!   limit is `TimelimitRaw`/`Timelimit` (`UNLIMITED`, `Partition_Limit`:
//!   `None`); the run time is `End − Start`, else `Elapsed` (else the end of
//!   its last step). `Constraints` (the features asked for) and
//!   `Reservation` (the reservation named) are kept as written when dumped
//!   and not empty or `(null)`; the Slurm kind checks them.
//! - Request: `ReqTRES` when the column is there and the line's value is not
//!   empty (`billing=4,cpu=4,gres/gpu=2,mem=4G,node=1`: `mem` in K, M, G, T
//!   or P, M by default, stored in MiB rounded up; GPUs are `gres/gpu`, else
//!   the sum of the typed `gres/gpu:<type>`; other keys are ignored). Keys it
//!   lacks, or no `ReqTRES`: CPUs from `ReqCPUS` (else `AllocCPUS`), nodes
//!   from `ReqNodes` (else `AllocNodes`/`NNodes`), memory from `ReqMem`
//!   (`4000M`, `4G`; older versions' `4000Mc` per CPU and `4000Mn` per node
//!   are multiplied out), GPUs 0. Nodes are at least 1.
//! - [`Logged`]: start and end, the allocation from `AllocTRES` parsed the
//!   same way (else the request), the `NodeList` if dumped and not empty, and
//!   the ending: COMPLETED → [`Ending::Completed`], TIMEOUT →
//!   [`Ending::Timeout`], CANCELLED (also `CANCELLED by <uid>`) and PREEMPTED
//!   → [`Ending::Cancelled`], any other final state → [`Ending::Failed`].
//! - Times are relative to the first kept job's submit time (0), which is
//!   [`SlurmWorkload::epoch`] when the dump's times are epoch seconds
//!   (`SLURM_TIME_FORMAT=%s`); sacct's default local wall-clock times have
//!   no time zone, so the epoch is then `None`.
//! - A `sacct --duplicates` dump has a line per run of a requeued job, all
//!   with its job id: they are one job, submitted when its first run was
//!   (as above), logged as its last run ([`Logged::requeued`] counts the
//!   others). Without `--duplicates`, sacct shows only the last run, with
//!   the requeue as its `Submit`.
//! - Jobs are sorted by submit time, then id (then dump line); names are
//!   numbered in order of first appearance in that order. Each job's
//!   [`Origin::Dump`] names its allocation line (a heterogeneous job's
//!   leading component's), for the machine's later checks (a partition it
//!   does not define, more GPUs than a node has: not checked here).
//! - Relations ([`Relations`]): an array task's array job id and task id
//!   (`JobID` `123_4`); its array's throttle, from the submit line's
//!   `--array=…%N` or a pending tail `123_[5-9%N]`; the job's `JobName`;
//!   its dependency, from a non-empty `Dependency` column, else the
//!   `SubmitLine` (sacct 23.02+) `--dependency`/`-d` (see `depend.rs`);
//!   the submit line's `--kill-on-invalid-dep=yes|no` (another value is an
//!   error naming the line and column).
//! - A job submitted to several partitions: `partitions` lists them (in the
//!   order written, repeats and empty names dropped) when the `Partition`
//!   column holds a comma list (a job that has not started), else when the
//!   submit line's `--partition`/`-p` does; `partition` is the column's
//!   (where it ran), else the first of the list. One name: no list. The
//!   Slurm kind checks the names.
//!   A dependency on a job that is not a kept job of the dump (an array job
//!   id: one of its tasks is), on itself, a dependency or array range that
//!   does not parse (in `SubmitLine`, or a pending tail's `JobID`), and a
//!   dependency type not modelled, are errors naming the line and column;
//!   with [`NativeOptions::lenient`] the job is skipped (so, in turn, are
//!   the jobs depending on it).
//! - A malformed `ReqTRES`/`AllocTRES` (an item without `=`, a count that is
//!   not a number), `ReqMem`, `ReqNodes` or `Eligible`, and a job that ran but
//!   has no run time, are errors naming the line and column; with
//!   [`NativeOptions::lenient`] the line is skipped and counted in
//!   [`SacctReport::skipped`]. Nothing here panics on user data.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use crate::trace::sacct::columns::{Col, Columns, Fields};
use crate::trace::sacct::convert::{Alloc, Converter};
use crate::trace::sacct::depend::{
    parse_array_spec, parse_begin, parse_dependency, parse_kill_on_invalid_dep, submit_options,
};
use crate::trace::sacct::jobs::{
    ArrayTask, Dependency, Ending, Logged, Origin, Relations, SlurmJob, SlurmWorkload, Tres,
};
use crate::trace::sacct::values::{IdKind, JobId, TimeKind, parse_count, parse_job_id, parse_time};
use crate::trace::sacct::{SacctError, SacctOptions, SacctReport, open, shorten};
use crate::trace::swf::{LineProblem, SkippedLines};

/// Options of [`read_native`].
#[derive(Debug, Clone, Copy, Default)]
pub struct NativeOptions {
    /// Skip (and count, in [`SacctReport::skipped`]) malformed lines instead of failing.
    pub lenient: bool,
}

/// Reads a sacct dump file (plain or gzip) as a [`SlurmWorkload`]; see the
/// module's contract.
pub fn read_native(path: &Path, options: NativeOptions) -> Result<(SlurmWorkload, SacctReport), SacctError> {
    parse_native(path, open(path)?, options)
}

/// [`read_native`] over `input`; `path` names it in messages and origins.
pub fn parse_native<R: BufRead>(
    path: &Path,
    mut input: R,
    options: NativeOptions,
) -> Result<(SlurmWorkload, SacctReport), SacctError> {
    let mut fields = Fields::default();
    let mut lines = super::Lines { path, input: &mut input, line: 0 };
    if !lines.next(&mut fields)? {
        return Err(SacctError::Empty { path: path.to_path_buf() });
    }
    let line = lines.line;
    let columns = Columns::from_header(path, line, &fields)?;
    let extra = ExtraColumns::find(&columns.names);
    let sacct = SacctOptions { lenient: options.lenient, ..SacctOptions::default() };
    let mut conv = Converter::new(path, columns, sacct);
    let mut pieces: Vec<Piece> = Vec::new();
    while lines.next(&mut fields)? {
        let line = lines.line;
        conv.report.lines += 1;
        // Undoing an allocation whose own columns turn out malformed needs its
        // key's previous entry (a duplicate job id), taken before the line.
        let undo = options.lenient.then(|| Undo::before(&conv, &fields));
        let result = conv.line(line, &fields).and_then(|()| match conv.allocs.last() {
            Some(alloc) if alloc.line == line => piece(&conv, &extra, &fields, alloc).map(Some),
            _ => Ok(None),
        });
        match result {
            Ok(Some(p)) => pieces.push(p),
            Ok(None) => {}
            Err(e) if options.lenient && e.line_problem().is_some() => {
                if let Some(undo) = undo {
                    undo.apply(&mut conv, line);
                }
                conv.skip(&e);
            }
            Err(e) => return Err(e),
        }
    }
    build(path, conv, pieces, options)
}

/// The columns only this reader uses, by index in the header.
#[derive(Debug, Clone, Copy, Default)]
struct ExtraColumns {
    account: Option<usize>,
    qos: Option<usize>,
    eligible: Option<usize>,
    req_nodes: Option<usize>,
    req_mem: Option<usize>,
    req_tres: Option<usize>,
    alloc_tres: Option<usize>,
    node_list: Option<usize>,
    constraints: Option<usize>,
    reservation: Option<usize>,
    submit_line: Option<usize>,
    dependency: Option<usize>,
}

impl ExtraColumns {
    fn find(names: &[String]) -> ExtraColumns {
        let at = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
        ExtraColumns {
            account: at("Account"),
            qos: at("QOS"),
            eligible: at("Eligible"),
            req_nodes: at("ReqNodes"),
            req_mem: at("ReqMem"),
            req_tres: at("ReqTRES"),
            alloc_tres: at("AllocTRES"),
            node_list: at("NodeList"),
            constraints: at("Constraints"),
            reservation: at("Reservation"),
            submit_line: at("SubmitLine"),
            dependency: at("Dependency"),
        }
    }
}

/// What a line added to the converter, to take back when the rest of it is
/// malformed (lenient mode).
struct Undo {
    allocs: usize,
    allocations: u64,
    array_tasks: u64,
    key: Option<(Box<str>, Option<usize>)>,
}

impl Undo {
    fn before(conv: &Converter<'_>, record: &Fields) -> Undo {
        // The converter's key: the JobIDRaw's base, else the JobID's.
        // `conv.raw` would shift by the previous line's surplus: this line's
        // is the converter's rule (`fields_mismatch`) applied here.
        let want = conv.columns.names.len();
        let surplus = if conv.columns.free_text.is_some() { record.len().saturating_sub(want) } else { 0 };
        let raw = |i: usize| {
            let i = match conv.columns.free_text {
                Some(ft) if i > ft => i + surplus,
                _ => i,
            };
            record.get(i).unwrap_or(b"")
        };
        let key = [Col::JobIdRaw, Col::JobId]
            .into_iter()
            .filter_map(|col| conv.columns.get(col).map(raw))
            .filter_map(|raw| std::str::from_utf8(raw).ok().map(str::trim))
            .find(|text| !text.is_empty())
            .and_then(parse_job_id)
            .map(|id| (Box::from(id.base), conv.by_key.get(id.base).copied()));
        Undo {
            allocs: conv.allocs.len(),
            allocations: conv.report.allocations,
            array_tasks: conv.report.array_tasks,
            key,
        }
    }

    fn apply(self, conv: &mut Converter<'_>, line: u64) {
        if conv.allocs.len() <= self.allocs || conv.allocs.last().is_none_or(|a| a.line != line) {
            return;
        }
        conv.allocs.truncate(self.allocs);
        conv.report.allocations = self.allocations;
        conv.report.array_tasks = self.array_tasks;
        if let Some((key, previous)) = self.key {
            match previous {
                Some(i) => {
                    conv.by_key.insert(key, i);
                }
                None => {
                    conv.by_key.remove(&key);
                }
            }
        }
    }
}

/// One allocation line, with what the SWF conversion drops.
#[derive(Debug, Clone)]
struct Piece {
    line: u64,
    id: u64,
    het: Option<u64>,
    allocated: bool,
    /// `Submit`, or `Eligible` when later (absolute).
    submit: i64,
    /// `Submit`, or the submit line's `--begin` when later (absolute): a
    /// job whose dependency or array throttle is modelled is submitted then.
    logged_submit: i64,
    /// `Submit` (absolute).
    submitted: i64,
    /// Its `JobName`, if any.
    name: Option<String>,
    /// `(array job id, task id)` of an array task.
    array: Option<(u64, u64)>,
    /// The throttle of its array as its submit line gives it.
    throttle: Option<u32>,
    dependency: Option<Dependency>,
    /// The dependency came from the `Dependency` column (else the submit line).
    dependency_column: bool,
    /// The submit line's `--kill-on-invalid-dep`.
    kill_on_invalid_dep: Option<bool>,
    start: Option<i64>,
    end: Option<i64>,
    request: Tres,
    alloc: Tres,
    user: String,
    account: String,
    partition: String,
    /// A job submitted to several partitions: each, as written, no repeats.
    partitions: Vec<String>,
    qos: String,
    node_list: Option<String>,
    constraints: Option<String>,
    reservation: Option<String>,
    ending: Ending,
}

fn malformed(conv: &Converter<'_>, record: &Fields, column: usize, detail: String) -> SacctError {
    SacctError::Malformed {
        path: conv.path.to_path_buf(),
        line: conv.line_no,
        column: conv.columns.names.get(column).cloned(),
        problem: LineProblem::NotNumeric,
        detail,
        text: shorten(&String::from_utf8_lossy(&record.buf)),
    }
}

/// The trimmed text of header column `column` (empty when the header lacks it).
fn field<'r>(conv: &Converter<'_>, record: &'r Fields, column: Option<usize>) -> Result<&'r str, SacctError> {
    let Some(i) = column else { return Ok("") };
    std::str::from_utf8(conv.raw(record, i))
        .map(str::trim)
        .map_err(|_| malformed(conv, record, i, "not UTF-8 text".to_string()))
}

/// The trimmed text of a free-text column, joined across a resolved
/// surplus of `|` (empty when the header lacks it).
fn free_field(conv: &Converter<'_>, record: &Fields, column: Option<usize>) -> Result<String, SacctError> {
    let Some(i) = column else { return Ok(String::new()) };
    let last = if conv.columns.free_text == Some(i) { i + conv.extra } else { i };
    let mut text = String::new();
    for k in i..=last {
        if k > i {
            text.push('|');
        }
        let raw = if last > i { record.get(k).unwrap_or(b"") } else { conv.raw(record, k) };
        text.push_str(std::str::from_utf8(raw).map_err(|_| malformed(conv, record, i, "not UTF-8 text".to_string()))?);
    }
    Ok(text.trim().to_string())
}

/// Reads this reader's fields of an allocation line the converter accepted.
fn piece(conv: &Converter<'_>, extra: &ExtraColumns, record: &Fields, alloc: &Alloc) -> Result<Piece, SacctError> {
    let mut submit = alloc.submit;
    // The dependency and the array throttle: the `Dependency` column, else
    // the submit line's options.
    let submit_line = free_field(conv, record, extra.submit_line)?;
    let options = submit_options(&submit_line);
    let mut throttle = None;
    let mut begin = alloc.submit;
    if let (Some(text), Some(i)) = (options.begin.as_deref(), extra.submit_line) {
        begin = begin.max(parse_begin(text, alloc.submit).map_err(|detail| malformed(conv, record, i, detail))?);
    }
    if let (Some(spec), Some(i)) = (options.array.as_deref(), extra.submit_line) {
        throttle = Some(parse_array_spec(spec).map_err(|detail| malformed(conv, record, i, detail))?);
    }
    let kill_on_invalid_dep = match (options.kill_on_invalid_dep.as_deref(), extra.submit_line) {
        (Some(text), Some(i)) => {
            Some(parse_kill_on_invalid_dep(text).map_err(|detail| malformed(conv, record, i, detail))?)
        }
        _ => None,
    };
    let dependency_column = extra.dependency.is_some_and(|i| field(conv, record, Some(i)).is_ok_and(|t| !t.is_empty()));
    let dependency = match (extra.dependency, extra.submit_line) {
        (Some(i), _) if dependency_column => {
            parse_dependency(field(conv, record, Some(i))?).map_err(|detail| malformed(conv, record, i, detail))?
        }
        (_, Some(i)) => match options.dependency.as_deref() {
            Some(text) => parse_dependency(text).map_err(|detail| malformed(conv, record, i, detail))?,
            None => None,
        },
        _ => None,
    };
    let array = match field(conv, record, conv.columns.get(Col::JobId))?.split('.').next().map(parse_job_id) {
        Some(Some(JobId { kind: IdKind::ArrayTask { array, task }, .. })) => Some((array, task)),
        _ => None,
    };
    let job_name = Some(free_field(conv, record, conv.columns.get(Col::JobName))?).filter(|n| !n.is_empty());
    let eligible = field(conv, record, extra.eligible)?;
    if let Some(i) = extra.eligible {
        let parsed = parse_time(eligible).map_err(|detail| malformed(conv, record, i, detail))?;
        if let Some((time, kind)) = parsed {
            if conv.time_kind.is_some_and(|(seen, _)| seen != kind) {
                let detail = format!("`{eligible}` is not in the format of the line's other times");
                return Err(malformed(conv, record, i, detail));
            }
            submit = submit.max(time);
        }
    }
    // Fallbacks for keys ReqTRES lacks, or for no ReqTRES.
    let cpus = alloc.req_cpus.unwrap_or(alloc.alloc_cpus);
    let nodes = match extra.req_nodes {
        Some(i) => {
            let text = field(conv, record, Some(i))?;
            parse_count(text).map_err(|detail| malformed(conv, record, i, detail))?.filter(|&n| n > 0)
        }
        None => None,
    }
    .or(alloc.nodes)
    .unwrap_or(1);
    let fallback = Tres { cpus: to_u32(cpus), mem_mib: 0, nodes: to_u32(nodes), gpus: 0 };
    let req_tres = field(conv, record, extra.req_tres)?;
    let parsed = match extra.req_tres {
        Some(i) if !req_tres.is_empty() => parse_tres(req_tres).map_err(|detail| malformed(conv, record, i, detail))?,
        _ => TresParts::default(),
    };
    let mut request = parsed.or(fallback);
    request.nodes = request.nodes.max(1);
    if let (None, Some(i)) = (parsed.mem_mib, extra.req_mem) {
        let text = field(conv, record, Some(i))?;
        request.mem_mib = parse_req_mem(text, request.cpus, request.nodes).ok_or_else(|| {
            let detail = format!(
                "`{text}` is not a memory request (a number with K, M, G or T, M by default, \
                 and c per CPU or n per node)"
            );
            malformed(conv, record, i, detail)
        })?;
    }
    let alloc_tres = field(conv, record, extra.alloc_tres)?;
    let mut allocated = match extra.alloc_tres {
        Some(i) if !alloc_tres.is_empty() => {
            let fallback =
                Tres { cpus: to_u32(alloc.alloc_cpus), nodes: alloc.nodes.map_or(request.nodes, to_u32), ..request };
            parse_tres(alloc_tres).map_err(|detail| malformed(conv, record, i, detail))?.or(fallback)
        }
        _ => request,
    };
    allocated.nodes = allocated.nodes.max(1);
    let name = |column: Option<usize>| field(conv, record, column).map(str::to_string);
    let user = match name(conv.columns.get(Col::User))? {
        user if user.is_empty() => name(conv.columns.get(Col::Uid))?,
        user => user,
    };
    let qos = match name(extra.qos)? {
        qos if qos.is_empty() => "normal".to_string(),
        qos => qos,
    };
    let node_list = Some(name(extra.node_list)?).filter(|n| !n.is_empty());
    // `Constraints` and `Reservation`: kept as written, checked by the machine.
    let optional = |column: Option<usize>| -> Result<Option<String>, SacctError> {
        Ok(Some(name(column)?).filter(|n| !n.is_empty() && n != "(null)"))
    };
    let constraints = optional(extra.constraints)?;
    // sacct leaves `Reservation` empty for some jobs that ran in one: the
    // submit line's `--reservation` then.
    let reservation = optional(extra.reservation)?.or_else(|| options.reservation.clone());
    let state = field(conv, record, conv.columns.get(Col::State))?;
    // Several partitions (`sbatch -p a,b`): the `Partition` column's list
    // (a job that has not started), else the submit line's.
    let mut partition = name(conv.columns.get(Col::Partition))?;
    let written = match options.partition.as_deref() {
        Some(list) if !partition.contains(',') => list,
        _ => partition.as_str(),
    };
    let mut partitions: Vec<String> = Vec::new();
    for p in written.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if !partitions.iter().any(|q| q == p) {
            partitions.push(p.to_string());
        }
    }
    if partitions.len() < 2 {
        partitions.clear();
    } else if partition.is_empty() || partition.contains(',') {
        partition = partitions[0].clone();
    }
    Ok(Piece {
        line: alloc.line,
        id: alloc.order,
        het: alloc.het.map(|(group, _)| group),
        allocated: alloc.allocated,
        submit,
        logged_submit: begin,
        submitted: alloc.submit,
        name: job_name,
        array,
        throttle,
        dependency,
        dependency_column,
        kill_on_invalid_dep,
        start: alloc.start,
        end: alloc.end,
        request,
        alloc: allocated,
        user,
        account: name(extra.account)?,
        partition,
        partitions,
        qos,
        node_list,
        constraints,
        reservation,
        ending: ending(state),
    })
}

fn to_u32(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The class of a final state (the converter has already checked it is one).
fn ending(state: &str) -> Ending {
    let word = state.split_ascii_whitespace().next().unwrap_or("");
    let word = word.strip_suffix('+').unwrap_or(word);
    match word.to_ascii_uppercase().as_str() {
        "COMPLETED" => Ending::Completed,
        "TIMEOUT" => Ending::Timeout,
        "CANCELLED" | "PREEMPTED" => Ending::Cancelled,
        _ => Ending::Failed,
    }
}

/// The keys of a TRES string this reader uses; `None` when absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct TresParts {
    cpus: Option<u32>,
    mem_mib: Option<u64>,
    nodes: Option<u32>,
    /// Untyped `gres/gpu`.
    gpus: Option<u32>,
    /// The sum of the typed `gres/gpu:<type>`.
    typed_gpus: Option<u32>,
}

impl TresParts {
    /// The parts given, the rest from `fallback`; GPUs: untyped, else typed, else 0.
    fn or(self, fallback: Tres) -> Tres {
        Tres {
            cpus: self.cpus.unwrap_or(fallback.cpus),
            mem_mib: self.mem_mib.unwrap_or(fallback.mem_mib),
            nodes: self.nodes.unwrap_or(fallback.nodes),
            gpus: self.gpus.or(self.typed_gpus).unwrap_or(0),
        }
    }
}

/// A TRES string: `billing=4,cpu=4,gres/gpu=2,mem=4G,node=1`.
fn parse_tres(text: &str) -> Result<TresParts, String> {
    let mut parts = TresParts::default();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!("`{item}` is not key=value in a TRES list"));
        };
        let (key, value) = (key.trim(), value.trim());
        let count = || {
            parse_count(value)
                .ok()
                .flatten()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("`{value}` is not a count (in `{item}`)"))
        };
        if key.eq_ignore_ascii_case("cpu") {
            parts.cpus = Some(count()?);
        } else if key.eq_ignore_ascii_case("node") {
            parts.nodes = Some(count()?);
        } else if key.eq_ignore_ascii_case("mem") {
            let mib = parse_mem_mib(value).ok_or_else(|| {
                format!("`{value}` is not a memory size (a number with K, M, G or T, M by default; in `{item}`)")
            })?;
            parts.mem_mib = Some(mib);
        } else if key.eq_ignore_ascii_case("gres/gpu") {
            parts.gpus = Some(count()?);
        } else if key.get(..9).is_some_and(|k| k.eq_ignore_ascii_case("gres/gpu:")) {
            let n = count()?;
            parts.typed_gpus = Some(parts.typed_gpus.unwrap_or(0).saturating_add(n));
        }
    }
    Ok(parts)
}

/// A memory size in MiB, rounded up: `4000`, `4000M`, `4G`, `1.5G`, `512K`
/// (K, M, G, T, P; M by default). `None` if it does not parse.
fn parse_mem_mib(text: &str) -> Option<u64> {
    const UNITS: [(char, u128); 5] = [('K', 1), ('M', 1 << 10), ('G', 1 << 20), ('T', 1 << 30), ('P', 1 << 40)];
    let t = text.trim();
    let (number, kib_per_unit) = UNITS
        .iter()
        .find_map(|&(c, kib)| t.strip_suffix([c, c.to_ascii_lowercase()]).map(|n| (n, kib)))
        .unwrap_or((t, 1 << 10));
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || int.len() + frac.len() > 20 || number.ends_with('.') {
        return None;
    }
    let mantissa: u128 = format!("{int}{frac}").parse().ok()?;
    let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    let kib = mantissa.checked_mul(kib_per_unit)?;
    u64::try_from(kib.div_ceil(scale.checked_mul(1024)?)).ok()
}

/// `ReqMem`: a memory size, per CPU with a trailing `c`, per node with `n`
/// (older Slurm versions); empty is 0.
fn parse_req_mem(text: &str, cpus: u32, nodes: u32) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() {
        return Some(0);
    }
    let (size, times) = if let Some(s) = t.strip_suffix('c') {
        (s, u64::from(cpus))
    } else if let Some(s) = t.strip_suffix('n') {
        (s, u64::from(nodes))
    } else {
        (t, 1)
    };
    parse_mem_mib(size)?.checked_mul(times)
}

fn add(a: Tres, b: Tres) -> Tres {
    Tres {
        cpus: a.cpus.saturating_add(b.cpus),
        mem_mib: a.mem_mib.saturating_add(b.mem_mib),
        nodes: a.nodes.saturating_add(b.nodes),
        gpus: a.gpus.saturating_add(b.gpus),
    }
}

/// Folds steps and components with the SWF conversion's own code, then builds
/// the jobs from the leading lines it kept.
fn build(
    path: &Path,
    mut conv: Converter<'_>,
    pieces: Vec<Piece>,
    options: NativeOptions,
) -> Result<(SlurmWorkload, SacctReport), SacctError> {
    let epoch_times = conv.time_kind.is_some_and(|(kind, _)| kind == TimeKind::Epoch);
    let ranges = std::mem::take(&mut conv.array_ranges);
    let job_id_column = conv.columns.name(Col::JobId).to_string();
    let conversion = conv.finish()?;
    let mut report = conversion.report;
    report.skipped = conversion.trace.skipped;
    // Pending array ranges: a range that does not parse is an error; their
    // throttles are their arrays'.
    let mut throttles: HashMap<u64, u32> = HashMap::new();
    for r in &ranges {
        if r.tasks.is_none() {
            let error = SacctError::Malformed {
                path: path.to_path_buf(),
                line: r.line,
                column: Some(job_id_column.clone()),
                problem: LineProblem::NotNumeric,
                detail: format!(
                    "`{}` is not an array range (indices `1-10`, `0-15:4` or `1,3,5-7`, with an optional `%N` throttle)",
                    r.text
                ),
                text: r.text.to_string(),
            };
            if !options.lenient {
                return Err(error);
            }
            note_skip(&mut report.skipped, &error);
            continue;
        }
        if let Some(t) = r.throttle {
            throttles.insert(r.array, t);
        }
    }
    for p in &pieces {
        if let (Some((array, _)), Some(t)) = (p.array, p.throttle) {
            throttles.entry(array).or_insert(t);
        }
    }
    let by_line: HashMap<u64, usize> = pieces.iter().enumerate().map(|(i, p)| (p.line, i)).collect();
    let mut groups: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Some(group) = p.het {
            groups.entry(group).or_default().push(i);
        }
    }
    struct Kept<'a> {
        lead: &'a Piece,
        start: i64,
        end: i64,
        run_time: i64,
        limit: Option<i64>,
        request: Tres,
        alloc: Tres,
        node_list: Option<String>,
        /// `Submit`, or `Eligible` when later and neither a dependency nor
        /// an array throttle is modelled.
        submit: i64,
        /// The logged `Submit` of its first run.
        logged_submit: i64,
        /// Its first run's `Submit`.
        submitted: i64,
        throttle: u32,
        /// Its earlier runs, each ended by a requeue.
        requeued: u32,
    }
    let mut kept: Vec<Kept<'_>> = Vec::new();
    report.never_started = 0;
    for (record, line) in conversion.trace.records.iter().zip(&conversion.lines) {
        let Some(lead) = by_line.get(line).map(|&i| &pieces[i]) else { continue };
        if record.allocated_procs < 0 {
            report.never_started += 1;
            continue;
        }
        let components: Vec<&Piece> = match lead.het.and_then(|g| groups.get(&g)) {
            Some(members) => members.iter().map(|&i| &pieces[i]).collect(),
            None => vec![lead],
        };
        let ran = || components.iter().filter(|p| p.allocated);
        let start = ran().filter_map(|p| p.start).min();
        let end = ran().filter_map(|p| p.end).max();
        let run_time = match (start, end) {
            (Some(s), Some(e)) => Some(e - s),
            _ => (record.runtime >= 0).then_some(record.runtime),
        };
        let (Some(start), Some(run_time)) = (start, run_time) else {
            let error = SacctError::Malformed {
                path: path.to_path_buf(),
                line: lead.line,
                column: Some("End".to_string()),
                problem: LineProblem::NotRunnable,
                detail: "no run time (no End, Elapsed or step end)".to_string(),
                text: format!("job {}", lead.id),
            };
            if !options.lenient {
                return Err(error);
            }
            note_skip(&mut report.skipped, &error);
            continue;
        };
        let node_lists: Vec<&str> = ran().filter_map(|p| p.node_list.as_deref()).collect();
        kept.push(Kept {
            lead,
            start,
            end: end.unwrap_or(start + run_time),
            run_time,
            limit: (record.requested_time >= 0).then_some(record.requested_time),
            request: components.iter().map(|p| p.request).fold(Tres::default(), add),
            alloc: ran().map(|p| p.alloc).fold(Tres::default(), add),
            node_list: (!node_lists.is_empty()).then(|| node_lists.join(",")),
            submit: lead.submit,
            logged_submit: lead.logged_submit,
            submitted: lead.submitted,
            throttle: lead.array.and_then(|(a, _)| throttles.get(&a).copied()).unwrap_or(0),
            requeued: 0,
        });
    }
    // A `--duplicates` dump has a line per run of a requeued job, all with
    // its job id: one job, submitted when its first run was, logged as its
    // last run ended (what a dump without `--duplicates` shows, submitted
    // at its last requeue).
    let mut first_line: HashMap<u64, usize> = HashMap::new();
    let mut repeated = false;
    for (i, k) in kept.iter().enumerate() {
        repeated |= first_line.insert(k.lead.id, i).is_some();
    }
    if repeated {
        kept.sort_by_key(|k| k.lead.line);
        let mut merged: Vec<Kept<'_>> = Vec::with_capacity(kept.len());
        let mut at: HashMap<u64, usize> = HashMap::new();
        for k in kept {
            match at.get(&k.lead.id) {
                Some(&i) => {
                    let first = &merged[i];
                    let (submit, logged_submit, submitted) = (first.submit, first.logged_submit, first.submitted);
                    merged[i] = Kept { submit, logged_submit, submitted, requeued: first.requeued + 1, ..k };
                }
                None => {
                    at.insert(k.lead.id, merged.len());
                    merged.push(k);
                }
            }
        }
        kept = merged;
    }
    // Dependencies: each job depended on must be a job of the dump that ran
    // (an array job id: at least one of its tasks). In lenient mode a job
    // whose dependency names a missing job is skipped, and so, in turn, are
    // the jobs that depend on it.
    loop {
        let ids: std::collections::HashSet<u64> = kept.iter().map(|k| k.lead.id).collect();
        let tasks: std::collections::HashSet<(u64, u64)> = kept.iter().filter_map(|k| k.lead.array).collect();
        let arrays: std::collections::HashSet<u64> = tasks.iter().map(|t| t.0).collect();
        let mut dropped = false;
        let mut i = 0;
        while i < kept.len() {
            let lead = kept[i].lead;
            let missing = lead.dependency.as_ref().and_then(|d| {
                d.on.iter().find(|on| {
                    on.kind != crate::trace::sacct::jobs::DependKind::Singleton
                        && match on.task {
                            None => !ids.contains(&on.job) && !arrays.contains(&on.job),
                            Some(t) => !tasks.contains(&(on.job, t)),
                        }
                })
            });
            let selfish = lead.dependency.as_ref().is_some_and(|d| {
                d.on.iter().any(|on| {
                    on.kind != crate::trace::sacct::jobs::DependKind::Singleton
                        && ((on.task.is_none() && on.job == lead.id)
                            || lead.array.is_some_and(|(a, t)| on.job == a && on.task.is_none_or(|x| x == t)))
                })
            });
            let detail = match missing {
                Some(on) => {
                    let id = on.task.map_or(on.job.to_string(), |t| format!("{}_{t}", on.job));
                    Some(format!("{} depends on job {id}, which is not a job of the dump that ran", on.kind.name()))
                }
                None if selfish => Some("the job depends on itself".to_string()),
                None => None,
            };
            if let Some(detail) = detail {
                let column = if lead.dependency_column { "Dependency" } else { "SubmitLine" };
                let error = SacctError::Malformed {
                    path: path.to_path_buf(),
                    line: lead.line,
                    column: Some(column.to_string()),
                    problem: LineProblem::NotRunnable,
                    detail,
                    text: format!("job {}", lead.id),
                };
                if !options.lenient {
                    return Err(error);
                }
                note_skip(&mut report.skipped, &error);
                kept.remove(i);
                dropped = true;
                continue;
            }
            // The simulation decides when the job is eligible: it is
            // submitted when it was, not when it became eligible.
            if lead.dependency.is_some() || kept[i].throttle > 0 {
                kept[i].submit = kept[i].logged_submit;
            }
            i += 1;
        }
        if !dropped {
            break;
        }
    }
    report.no_runtime = 0;
    report.guessed_max_procs = None;
    report.guessed_max_nodes = None;
    report.jobs = kept.len() as u64;
    (report.completed, report.failed, report.cancelled) = (0, 0, 0);
    if kept.is_empty() {
        let mut text = report.to_string();
        if report.skipped.total() > 0 {
            text += &format!("; {}", report.skipped);
        }
        return Err(SacctError::NoJobs { path: path.to_path_buf(), report: text });
    }
    kept.sort_by_key(|k| (k.submit, k.lead.id, k.lead.line));
    // Time 0 is the first submission, of a job that may start then or later.
    let origin = kept.iter().map(|k| k.submitted.min(k.submit)).min().unwrap_or(0);
    let mut workload = SlurmWorkload {
        epoch: epoch_times.then_some(origin),
        clock_origin: Some(origin),
        jobs: Vec::with_capacity(kept.len()),
        ..SlurmWorkload::default()
    };
    for k in kept {
        let p = k.lead;
        *match p.ending {
            Ending::Completed => &mut report.completed,
            Ending::Failed | Ending::Timeout => &mut report.failed,
            Ending::Cancelled => &mut report.cancelled,
        } += 1;
        let job = SlurmJob {
            id: p.id,
            user: SlurmWorkload::intern(&mut workload.users, &p.user),
            account: SlurmWorkload::intern(&mut workload.accounts, &p.account),
            partition: SlurmWorkload::intern(&mut workload.partitions, &p.partition),
            partitions: p.partitions.iter().map(|q| SlurmWorkload::intern(&mut workload.partitions, q)).collect(),
            qos: SlurmWorkload::intern(&mut workload.qos, &p.qos),
            submit: k.submit - origin,
            submitted: k.submitted.min(k.submit) - origin,
            time_limit: k.limit,
            run_time: k.run_time,
            request: k.request,
            logged: Some(Logged {
                start: k.start - origin,
                end: k.end - origin,
                alloc: k.alloc,
                node_list: k.node_list,
                ending: p.ending,
                requeued: k.requeued,
            }),
            origin: Origin::Dump { path: path.to_path_buf(), line: p.line },
            constraints: p.constraints.clone(),
            reservation: p.reservation.clone(),
            relations: Relations {
                name: p.name.as_deref().map(|n| SlurmWorkload::intern(&mut workload.names, n)),
                array: p.array.map(|(job, task)| ArrayTask { job, task, throttle: k.throttle }),
                dependency: p.dependency.clone(),
                kill_on_invalid_dep: p.kill_on_invalid_dep,
            },
        };
        workload.jobs.push(job);
    }
    Ok((workload, report))
}

fn note_skip(skipped: &mut SkippedLines, error: &SacctError) {
    if let Some(problem) = error.line_problem() {
        *skipped.by_problem.entry(problem).or_default() += 1;
        skipped.first.get_or_insert_with(|| error.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::path::PathBuf;

    const HEAD: &str = "JobIDRaw|JobID|JobName|User|Group|Account|Partition|QOS|Submit|Eligible|Start|End|Elapsed|\
                        Timelimit|ReqCPUS|AllocCPUS|ReqNodes|AllocNodes|ReqMem|ReqTRES|AllocTRES|NodeList|State\n";

    /// Epoch seconds from 1_700_000_000 (`T`).
    const T: i64 = 1_700_000_000;

    fn dump(gpu_req_tres: &str) -> String {
        format!(
            "{HEAD}\
10|10|train|alice|users|proj1|gpu|high|{a}|{a}|{b}|{c}|01:00:00|02:00:00|2|2|1|1|2000M|{gpu_req_tres}|billing=2,cpu=2,gres/gpu:tesla=1,gres/gpu=1,mem=2000M,node=1|gpu01|COMPLETED
11|11|mpi|bob|users|proj2|cpu||{d}|{e}|{f}|{g}|02:00:00|UNLIMITED|64|64|2|2|128G|billing=64,cpu=64,mem=128G,node=2|billing=64,cpu=64,mem=128G,node=2|cn[01-02]|TIMEOUT
12|12|a|b|carol|users||cpu|normal|{h}|{h}|{i}|{j}|00:10:00|00:15:00|4|4|1|1|4G|billing=4,cpu=4,mem=4G,node=1|billing=4,cpu=4,mem=4G,node=1|cn03|CANCELLED by 1000
12.batch|12.batch|batch||||||{i}|{i}|{i}|{j}|00:10:00||4|4||1||||cn03|CANCELLED
23|20_3|arr|alice|users|proj1|cpu|normal|{k}|{k}|{l}|{m}|00:01:00|00:05:00|1|1|1|1|500M|billing=1,cpu=1,mem=500M,node=1|cpu=1,mem=1.5G,node=1|cn04|FAILED
30|30|never|dave|users|proj3|cpu|normal|{n}|{n}|Unknown|{o}|00:00:00|01:00:00|1|0|1|0|1G|billing=1,cpu=1,mem=1G,node=1||None assigned|CANCELLED by 1001
31|31|still|erin|users|proj3|cpu|normal|{p}|{p}|{q}|Unknown|00:05:00|01:00:00|1|1|1|1|1G|billing=1,cpu=1,mem=1G,node=1|billing=1,cpu=1,mem=1G,node=1|cn05|RUNNING
",
            a = T,
            b = T + 100,
            c = T + 3700,
            d = T + 50,
            e = T + 200,
            f = T + 300,
            g = T + 7500,
            h = T + 10,
            i = T + 20,
            j = T + 620,
            k = T + 500,
            l = T + 600,
            m = T + 660,
            n = T - 1000,
            o = T + 5,
            p = T + 700,
            q = T + 800,
        )
    }

    fn parse(text: &str, lenient: bool) -> Result<(SlurmWorkload, SacctReport), SacctError> {
        parse_native(Path::new("t.sacct"), Cursor::new(text.as_bytes().to_vec()), NativeOptions { lenient })
    }

    fn origin(line: u64) -> Origin {
        Origin::Dump { path: PathBuf::from("t.sacct"), line }
    }

    const GPU_REQ: &str = "billing=2,cpu=2,gres/gpu=1,mem=2000M,node=1";

    #[test]
    fn every_field_of_every_job() {
        let (w, report) = parse(&dump(GPU_REQ), false).unwrap();
        assert_eq!(w.users, ["alice", "carol", "bob"]);
        assert_eq!(w.accounts, ["proj1", "", "proj2"]);
        assert_eq!(w.partitions, ["gpu", "cpu"]);
        assert_eq!(w.qos, ["high", "normal"]);
        assert_eq!(w.epoch, Some(T));
        let tres = |cpus, mem_mib, nodes, gpus| Tres { cpus, mem_mib, nodes, gpus };
        let expected = vec![
            SlurmJob {
                id: 10,
                user: 0,
                account: 0,
                partition: 0,
                partitions: Vec::new(),
                qos: 0,
                submit: 0,
                submitted: 0,
                time_limit: Some(7200),
                run_time: 3600,
                request: tres(2, 2000, 1, 1),
                logged: Some(Logged {
                    start: 100,
                    end: 3700,
                    // The untyped gres/gpu=1, not 1 + the typed one.
                    alloc: tres(2, 2000, 1, 1),
                    node_list: Some("gpu01".into()),
                    ending: Ending::Completed,
                    requeued: 0,
                }),
                origin: origin(2),
                constraints: None,
                reservation: None,
                relations: Relations { name: Some(0), ..Relations::default() },
            },
            // Job 12 (submitted at 10) has a `|` in its name, and a step folded.
            SlurmJob {
                id: 12,
                user: 1,
                account: 1,
                partition: 1,
                partitions: Vec::new(),
                qos: 1,
                submit: 10,
                submitted: 10,
                time_limit: Some(900),
                run_time: 600,
                request: tres(4, 4096, 1, 0),
                logged: Some(Logged {
                    start: 20,
                    end: 620,
                    alloc: tres(4, 4096, 1, 0),
                    node_list: Some("cn03".into()),
                    ending: Ending::Cancelled,
                    requeued: 0,
                }),
                origin: origin(4),
                constraints: None,
                reservation: None,
                // `a|b`: the name joined across the `|`.
                relations: Relations { name: Some(1), ..Relations::default() },
            },
            // Job 11: submitted at 50, eligible at 200; an empty QOS is normal.
            SlurmJob {
                id: 11,
                user: 2,
                account: 2,
                partition: 1,
                partitions: Vec::new(),
                qos: 1,
                submit: 200,
                submitted: 50,
                time_limit: None,
                run_time: 7200,
                request: tres(64, 131_072, 2, 0),
                logged: Some(Logged {
                    start: 300,
                    end: 7500,
                    alloc: tres(64, 131_072, 2, 0),
                    node_list: Some("cn[01-02]".into()),
                    ending: Ending::Timeout,
                    requeued: 0,
                }),
                origin: origin(3),
                constraints: None,
                reservation: None,
                relations: Relations { name: Some(2), ..Relations::default() },
            },
            // Array task 20_3: its own JobIDRaw.
            SlurmJob {
                id: 23,
                user: 0,
                account: 0,
                partition: 1,
                partitions: Vec::new(),
                qos: 1,
                submit: 500,
                submitted: 500,
                time_limit: Some(300),
                run_time: 60,
                request: tres(1, 500, 1, 0),
                logged: Some(Logged {
                    start: 600,
                    end: 660,
                    alloc: tres(1, 1536, 1, 0),
                    node_list: Some("cn04".into()),
                    ending: Ending::Failed,
                    requeued: 0,
                }),
                origin: origin(6),
                constraints: None,
                reservation: None,
                relations: Relations {
                    name: Some(3),
                    array: Some(ArrayTask { job: 20, task: 3, throttle: 0 }),
                    dependency: None,
                    kill_on_invalid_dep: None,
                },
            },
        ];
        assert_eq!(w.jobs, expected);
        assert_eq!(report.lines, 7);
        assert_eq!(report.allocations, 5);
        assert_eq!(report.steps, 1);
        assert_eq!(report.running, 1);
        assert_eq!(report.never_started, 1);
        assert_eq!(report.array_tasks, 1);
        assert_eq!(report.resolved, 1);
        assert_eq!((report.jobs, report.completed, report.failed, report.cancelled), (4, 1, 2, 1));
        assert!(report.epoch_times);
        assert_eq!(report.skipped.total(), 0);
    }

    #[test]
    fn a_malformed_tres_names_line_and_column_and_lenient_skips_it() {
        let text = dump("billing=2,cpu=2,gres/gpu=x,mem=2000M,node=1");
        let err = parse(&text, false).unwrap_err();
        let SacctError::Malformed { line, column, .. } = &err else { panic!("{err}") };
        assert_eq!((*line, column.as_deref()), (2, Some("ReqTRES")));
        assert!(err.to_string().starts_with("t.sacct:2: column ReqTRES: `x` is not a count"), "{err}");

        let text = dump("billing=2,cpu=2,gres/gpu,mem=2000M,node=1");
        let err = parse(&text, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct:2: column ReqTRES: `gres/gpu` is not key=value"), "{err}");

        let (w, report) = parse(&text, true).unwrap();
        assert_eq!(w.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), [12, 11, 23]);
        assert_eq!(report.skipped.total(), 1);
        assert_eq!(report.skipped.by_problem[&LineProblem::NotNumeric], 1);
        assert_eq!(report.allocations, 4);
        // The first kept job's submit is now 0.
        assert_eq!((w.epoch, w.jobs[0].submit), (Some(T + 10), 0));
        assert_eq!(w.jobs[0].origin, origin(4));

        // A skipped job's step is then an orphan; the report is as if the line were not there.
        let bad_job_12 = dump(GPU_REQ).replace("billing=4,cpu=4,mem=4G,node=1|cn03", "billing=4,cpu|cn03");
        let err = parse(&bad_job_12, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct:4: column AllocTRES: `cpu` is not key=value"), "{err}");
        let (w, report) = parse(&bad_job_12, true).unwrap();
        assert_eq!(w.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), [10, 11, 23]);
        assert_eq!((report.allocations, report.steps, report.orphan_steps), (4, 0, 1));

        let bad_alloc = dump(GPU_REQ).replace("cpu=1,mem=1.5G,node=1", "cpu=1,mem=lots,node=1");
        let err = parse(&bad_alloc, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct:6: column AllocTRES: `lots` is not a memory size"), "{err}");
    }

    #[test]
    fn without_req_tres_the_request_is_req_cpus_nodes_and_mem() {
        let text = "JobIDRaw|JobID|User|Partition|Submit|Start|End|Timelimit|ReqCPUS|AllocCPUS|ReqNodes|AllocNodes|ReqMem|State\n\
            1|1|u|p|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|00:05:00|2|2|1|1|4000Mc|COMPLETED\n\
            2|2|u|p|2024-01-01T00:00:20|2024-01-01T00:00:30|2024-01-01T00:00:40|1:00:00|8|8|2|2|1000Mn|FAILED\n\
            3|3|u|p|2024-01-01T00:00:30|2024-01-01T00:00:30|2024-01-01T00:00:30|Partition_Limit|1|1|0|1|4G|PREEMPTED\n\
            7|7+0|v||2024-01-01T00:01:00|2024-01-01T00:01:00|2024-01-01T00:02:00|00:10:00|4|4|1|1|1G|COMPLETED\n\
            8|7+1|v||2024-01-01T00:01:00|2024-01-01T00:01:00|2024-01-01T00:02:30|00:10:00|2|2|1|1|512M|COMPLETED\n";
        let (w, report) = parse(text, false).unwrap();
        assert_eq!(w.epoch, None);
        assert!(!report.epoch_times);
        assert_eq!(w.users, ["u", "v"]);
        assert_eq!(w.accounts, [""]);
        assert_eq!(w.qos, ["normal"]);
        assert_eq!(w.partitions, ["p", ""]);
        let got: Vec<_> = w.jobs.iter().map(|j| (j.id, j.submit, j.time_limit, j.run_time, j.request)).collect();
        let tres = |cpus, mem_mib, nodes| Tres { cpus, mem_mib, nodes, gpus: 0 };
        assert_eq!(
            got,
            [
                (1, 0, Some(300), 60, tres(2, 8000, 1)),
                (2, 20, Some(3600), 10, tres(8, 2000, 2)),
                (3, 30, None, 0, tres(1, 4096, 1)),
                // A heterogeneous job: its components summed, its leader's id and line.
                (7, 60, Some(600), 90, tres(6, 1536, 2)),
            ]
        );
        let logged = w.jobs[3].logged.as_ref().unwrap();
        assert_eq!(
            (logged.start, logged.end, logged.alloc, logged.node_list.as_deref()),
            (60, 150, tres(6, 1536, 2), None)
        );
        assert_eq!(w.jobs[2].logged.as_ref().unwrap().ending, Ending::Cancelled);
        assert_eq!(w.jobs[3].origin, origin(5));
        assert_eq!(report.het_jobs, 1);

        // A ReqTRES without mem takes ReqMem.
        let text = HEAD.to_string()
            + "5|5|j|u|g|a|p|q|100|100|110|120|00:00:10|00:01:00|2|2|1|1|100Mc|cpu=2,node=1||n1|COMPLETED\n";
        let (w, _) = parse(&text, false).unwrap();
        assert_eq!(w.jobs[0].request, tres(2, 200, 1));
        assert_eq!(w.jobs[0].logged.as_ref().unwrap().alloc, tres(2, 200, 1));
    }

    #[test]
    fn tres_and_memory_values() {
        assert_eq!(parse_mem_mib("4000"), Some(4000));
        assert_eq!(parse_mem_mib("4000M"), Some(4000));
        assert_eq!(parse_mem_mib("4G"), Some(4096));
        assert_eq!(parse_mem_mib("1T"), Some(1 << 20));
        assert_eq!(parse_mem_mib("1K"), Some(1));
        assert_eq!(parse_mem_mib("1025K"), Some(2));
        assert_eq!(parse_mem_mib("1.5G"), Some(1536));
        assert_eq!(parse_mem_mib("0.001M"), Some(1));
        for bad in ["", "G", "1.G", ".5G", "1.5.5G", "-1G", "4X", "1é", "99999999999999999999999T"] {
            assert_eq!(parse_mem_mib(bad), None, "{bad}");
        }
        assert_eq!(parse_req_mem("4000Mc", 4, 2), Some(16_000));
        assert_eq!(parse_req_mem("2Gn", 4, 2), Some(4096));
        assert_eq!(parse_req_mem("", 4, 2), Some(0));
        let typed = parse_tres("cpu=8,gres/gpu:a100=2,gres/gpu:v100=1,node=1").unwrap();
        assert_eq!(typed.or(Tres::default()).gpus, 3);
        let both = parse_tres("gres/gpu:a100=2,gres/gpu=2").unwrap();
        assert_eq!(both.or(Tres::default()).gpus, 2);
        assert!(parse_tres("cpu=4,,").is_ok());
        assert!(parse_tres("cpu=é").unwrap_err().contains("`é` is not a count"));
        assert!(parse_tres("gres/gpu:é").is_err());
    }

    #[test]
    fn read_native_reads_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("dump.sacct");
        std::fs::write(&file, dump(GPU_REQ)).unwrap();
        let (w, _) = read_native(&file, NativeOptions::default()).unwrap();
        assert_eq!(w.jobs.len(), 4);
        assert_eq!(w.jobs[3].origin, Origin::Dump { path: file.clone(), line: 6 });
        assert_eq!(w.jobs[3].origin.to_string(), format!("{}:6", file.display()));
    }

    /// `Constraints` and `Reservation` are kept as written; empty and
    /// `(null)` are none.
    #[test]
    fn constraints_and_reservation_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("dump.sacct");
        let text = format!(
            "JobIDRaw|JobID|User|Partition|Submit|Start|End|Timelimit|ReqCPUS|AllocCPUS|Constraints|Reservation|State\n\
             1|1|ann|cpu|{T}|{T}|{e}|01:00:00|1|1|ib&skylake|maint|COMPLETED\n\
             2|2|ann|cpu|{T}|{T}|{e}|01:00:00|1|1||(null)|COMPLETED\n",
            e = T + 60
        );
        std::fs::write(&file, text).unwrap();
        let (w, _) = read_native(&file, NativeOptions::default()).unwrap();
        assert_eq!(w.jobs[0].constraints.as_deref(), Some("ib&skylake"));
        assert_eq!(w.jobs[0].reservation.as_deref(), Some("maint"));
        assert_eq!((w.jobs[1].constraints.as_deref(), w.jobs[1].reservation.as_deref()), (None, None));
        assert_eq!(w.clock_origin, Some(T));
    }

    #[test]
    fn only_jobs_that_never_ran_is_no_jobs() {
        let text = format!(
            "{HEAD}30|30|never|dave|users|proj3|cpu|normal|{T}|{T}|Unknown|{T}|00:00:00|01:00:00|1|0|1|0|1G|cpu=1||None assigned|CANCELLED by 1\n"
        );
        let err = parse(&text, false).unwrap_err().to_string();
        assert!(err.starts_with("t.sacct: no finished jobs to convert"), "{err}");
    }
}

#[cfg(test)]
mod relations {
    use super::*;
    use crate::trace::sacct::jobs::{DependKind, DependOn};
    use std::io::Cursor;

    const HEAD: &str =
        "JobIDRaw|JobID|User|Partition|Submit|Eligible|Start|End|Timelimit|AllocCPUS|State|JobName|SubmitLine\n";

    /// A finished one-CPU job line: `raw|id|submit|eligible|start|end|state|name|submit line`.
    fn line(raw: u64, id: &str, times: [i64; 4], state: &str, name: &str, submit_line: &str) -> String {
        let [s, e, st, en] = times;
        format!("{raw}|{id}|u|p|{s}|{e}|{st}|{en}|00:10:00|1|{state}|{name}|{submit_line}\n")
    }

    fn parse(text: &str, lenient: bool) -> Result<(SlurmWorkload, SacctReport), SacctError> {
        parse_native(Path::new("d.sacct"), Cursor::new(text.as_bytes().to_vec()), NativeOptions { lenient })
    }

    fn dep(kind: DependKind, job: u64, task: Option<u64>) -> DependOn {
        DependOn { kind, job, task }
    }

    #[test]
    fn array_tasks_names_and_dependencies_from_the_submit_line() {
        let text = HEAD.to_string()
            + &line(10, "10", [100, 100, 110, 200], "COMPLETED", "prep", "sbatch prep.sh")
            // An array of 3 tasks throttled to 2: the last task holds the array id.
            + &line(12, "11_1", [120, 120, 200, 260], "COMPLETED", "arr", "sbatch --array=1-3%2 -d afterok:10 a.sh")
            + &line(13, "11_2", [120, 120, 200, 270], "FAILED", "arr", "sbatch --array=1-3%2 -d afterok:10 a.sh")
            + &line(11, "11_3", [120, 120, 260, 300], "COMPLETED", "arr", "sbatch --array=1-3%2 -d afterok:10 a.sh")
            // Eligible at 300 (its dependency met), but submitted at 130.
            + &line(14, "14", [130, 300, 300, 400], "COMPLETED", "post", "sbatch --dependency=afterok:11:10,singleton p.sh")
            + &line(15, "15", [140, 300, 310, 320], "COMPLETED", "post", "sbatch --dependency afterany:11_2?12 p.sh")
            // No dependency: its eligible time stays its submit time.
            + &line(16, "16", [150, 160, 400, 410], "COMPLETED", "", "");
        let (w, report) = parse(&text, false).unwrap();
        let ids: Vec<u64> = w.jobs.iter().map(|j| j.id).collect();
        assert_eq!(ids, [10, 11, 12, 13, 14, 15, 16]);
        let submits: Vec<i64> = w.jobs.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0, 20, 20, 20, 30, 40, 60]);
        assert_eq!(w.names, ["prep", "arr", "post"]);
        let arrays: Vec<_> = w.jobs.iter().map(|j| j.relations.array.map(|a| (a.job, a.task, a.throttle))).collect();
        assert_eq!(arrays, [None, Some((11, 3, 2)), Some((11, 1, 2)), Some((11, 2, 2)), None, None, None]);
        assert_eq!(w.jobs[1].relations.name, Some(1));
        assert_eq!(w.jobs[6].relations.name, None);
        let d = w.jobs[4].relations.dependency.as_ref().unwrap();
        assert!(!d.any);
        assert_eq!(
            d.on,
            [
                dep(DependKind::AfterOk, 11, None),
                dep(DependKind::AfterOk, 10, None),
                dep(DependKind::Singleton, 0, None)
            ]
        );
        let d = w.jobs[5].relations.dependency.as_ref().unwrap();
        assert!(d.any);
        assert_eq!(d.on, [dep(DependKind::AfterAny, 11, Some(2)), dep(DependKind::AfterAny, 12, None)]);
        assert_eq!(report.array_tasks, 3);
    }

    /// A `--duplicates` dump: job 31 ran twice (preempted at 150, requeued
    /// and submitted again then, eligible at 271): one job, submitted at
    /// 100, logged as its second run (300 to 400), requeued once.
    #[test]
    fn the_runs_of_a_requeued_job_are_one_job() {
        let text = HEAD.to_string()
            + &line(30, "30", [100, 100, 100, 180], "COMPLETED", "a", "")
            + &line(31, "31", [100, 100, 110, 150], "PREEMPTED", "b", "")
            + &line(32, "32", [120, 120, 150, 250], "COMPLETED", "c", "")
            + &line(31, "31", [150, 271, 300, 400], "COMPLETED", "b", "");
        let (w, report) = parse(&text, false).unwrap();
        let jobs: Vec<(u64, i64, i64, u32)> = w
            .jobs
            .iter()
            .map(|j| {
                let l = j.logged.as_ref().unwrap();
                (j.id, j.submit, l.start, l.requeued)
            })
            .collect();
        assert_eq!(jobs, [(30, 0, 0, 0), (31, 0, 200, 1), (32, 20, 50, 0)]);
        assert_eq!(w.jobs[1].run_time, 100);
        assert_eq!(report.jobs, 3);
    }

    /// A dependent job is submitted at its `--begin` when that is later
    /// than its `Submit` (the simulation then decides when its dependency
    /// is met); a form not read is an error at the submit line.
    #[test]
    fn a_dependent_job_waits_for_its_begin_time() {
        let begin = |b: &str| {
            HEAD.to_string()
                + &line(40, "40", [1000, 1000, 1000, 1100], "COMPLETED", "a", "")
                + &line(
                    41,
                    "41",
                    [1000, 1100, 1100, 1200],
                    "COMPLETED",
                    "b",
                    &format!("sbatch -d afterany:40 {b} x.sh"),
                )
        };
        for (option, submit) in [
            ("--begin=now+60", 60),
            ("--begin now+2minutes", 120),
            ("-b 1970-01-01T00:16:50", 10),
            ("--begin=00:20", 200),
            ("", 0),
        ] {
            let (w, _) = parse(&begin(option), false).unwrap();
            assert_eq!(w.jobs[1].submit, submit, "{option}");
        }
        let e = parse(&begin("--begin=teatime"), false).unwrap_err().to_string();
        assert!(e.starts_with("d.sacct:3: column SubmitLine"), "{e}");
        assert!(e.contains("--begin `teatime` is not a time slasim reads"), "{e}");
    }

    /// A job submitted to begin later may start at its `Eligible` time and
    /// was submitted at its `Submit`: time 0 is the first `Submit`. A
    /// reservation sacct left out is the submit line's `--reservation`.
    #[test]
    fn a_job_submitted_to_begin_later_keeps_its_submission_and_reservation() {
        let text = HEAD.to_string()
            + &line(1, "1", [1000, 1008, 1008, 1018], "COMPLETED", "a", "sbatch --begin=00:16:48 x.sh")
            + &line(
                2,
                "2",
                [1003, 1008, 1010, 1020],
                "COMPLETED",
                "b",
                "sbatch --reservation=window --begin=00:16:48 x.sh",
            )
            + &line(3, "3", [1009, 1009, 1009, 1019], "COMPLETED", "c", "sbatch --reservation window x.sh");
        let (w, _) = parse(&text, false).unwrap();
        let times: Vec<(i64, i64)> = w.jobs.iter().map(|j| (j.submitted, j.submit)).collect();
        assert_eq!(times, [(0, 8), (3, 8), (9, 9)]);
        assert_eq!(w.clock_origin, Some(1000));
        let reservations: Vec<Option<&str>> = w.jobs.iter().map(|j| j.reservation.as_deref()).collect();
        assert_eq!(reservations, [None, Some("window"), Some("window")]);
    }

    #[test]
    fn a_pending_tail_gives_the_throttle_and_is_expanded_in_the_count() {
        let text = HEAD.to_string()
            + &line(21, "20_1", [100, 100, 110, 200], "COMPLETED", "a", "")
            + "20|20_[2-9%3]|u|p|100|100|Unknown|Unknown|00:10:00|0|PENDING|a|\n";
        let (w, report) = parse(&text, false).unwrap();
        assert_eq!(w.jobs[0].relations.array.map(|a| (a.job, a.task, a.throttle)), Some((20, 1, 3)));
        assert_eq!((report.pending_array_ranges, report.pending_array_tasks), (1, 8));
    }

    #[test]
    fn a_dependency_column_is_read_with_its_states() {
        let text = "JobIDRaw|JobID|User|Partition|Submit|Start|End|Timelimit|AllocCPUS|State|Dependency\n\
            5|5|u|p|100|110|200|00:10:00|1|COMPLETED|\n\
            6|6|u|p|100|200|300|00:10:00|1|COMPLETED|afterok:5(unfulfilled),after:5_*\n";
        let (w, _) = parse(text, false).unwrap();
        let d = w.jobs[1].relations.dependency.as_ref().unwrap();
        // `5_*` is the job 5 as a whole (every task, were it an array).
        assert_eq!(d.on, [dep(DependKind::AfterOk, 5, None), dep(DependKind::After, 5, None)]);
        // Submitted at 100, as the first job: both at time 0.
        assert_eq!(w.jobs[1].submit, 0);
    }

    #[test]
    fn dependency_strings() {
        use crate::trace::sacct::depend::{
            parse_array_spec, parse_dependency, parse_kill_on_invalid_dep, submit_options,
        };
        let d = parse_dependency("afterok:12_[1-3],afternotok:9_4(failed)").unwrap().unwrap();
        assert_eq!(
            d.on,
            [
                dep(DependKind::AfterOk, 12, Some(1)),
                dep(DependKind::AfterOk, 12, Some(2)),
                dep(DependKind::AfterOk, 12, Some(3)),
                dep(DependKind::AfterNotOk, 9, Some(4))
            ]
        );
        // Slurm's old format: a bare job id is `afterany`.
        let d = parse_dependency("12,13").unwrap().unwrap();
        assert_eq!(d.on, [dep(DependKind::AfterAny, 12, None), dep(DependKind::AfterAny, 13, None)]);
        let d = parse_dependency("after:7,afterany:8+5").unwrap().unwrap();
        assert_eq!(d.on, [dep(DependKind::After, 7, None), dep(DependKind::AfterAny, 8, None)]);
        assert_eq!(parse_dependency("").unwrap(), None);
        assert_eq!(parse_dependency("(null)").unwrap(), None);
        for (bad, says) in [
            ("aftercorr:12", "dependency type `aftercorr` is not modelled"),
            ("afterburstbuffer:12", "not modelled"),
            ("expand:12", "not modelled"),
            ("after:12+10", "is not modelled"),
            ("afterwards:12", "`afterwards` is not a dependency type"),
            ("afterok:", "`` is not a job id"),
            ("afterok:x", "`x` is not a job id"),
            ("afterok:12,,singleton", "an empty dependency"),
            ("afterok:12_[3-x]", "is not an array range"),
            ("afterok:12(unfulfilled", "unclosed"),
            ("singletons", "is not a dependency"),
            ("12:13", "`12` is not a dependency type"),
        ] {
            let err = parse_dependency(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
        let o = submit_options("sbatch -N2 --array 0-15:4%3 -dafterok:1 --account=x job.sh");
        assert_eq!((o.dependency.as_deref(), o.array.as_deref()), (Some("afterok:1"), Some("0-15:4%3")));
        let o = submit_options("sbatch -a \"1-3\" --dependency='singleton' --wrap=\"sleep 1 -d x\" job.sh");
        assert_eq!((o.dependency.as_deref(), o.array.as_deref()), (Some("singleton"), Some("1-3")));
        let o = submit_options("sbatch -d afterok:1 --dependency=afterany:2 job.sh");
        assert_eq!(o.dependency.as_deref(), Some("afterany:2"));
        let o = submit_options("sbatch --kill-on-invalid-dep=yes -d afterok:1 job.sh");
        assert_eq!(o.kill_on_invalid_dep.map(|v| parse_kill_on_invalid_dep(&v)), Some(Ok(true)));
        let o = submit_options("sbatch --kill-on-invalid-dep no job.sh");
        assert_eq!(o.kill_on_invalid_dep.map(|v| parse_kill_on_invalid_dep(&v)), Some(Ok(false)));
        assert!(parse_kill_on_invalid_dep("maybe").unwrap_err().contains("neither `yes` nor `no`"));
        assert_eq!(parse_array_spec("1-10%2"), Ok(2));
        assert_eq!(parse_array_spec("1,3,5-7"), Ok(0));
        for bad in ["", "1-", "5-1", "1-10%x", "a"] {
            assert!(parse_array_spec(bad).unwrap_err().contains("is not an array range"), "{bad}");
        }
    }

    /// A job submitted to several partitions: the submit line's
    /// `--partition`/`-p` list (repeats and empty names dropped), or the
    /// `Partition` column's own list; one name is no list.
    #[test]
    fn several_partitions_from_the_submit_line_or_the_partition_column() {
        let line = |raw: u64, partition: &str, submit: i64, submit_line: &str| {
            format!("{raw}|{raw}|u|{partition}|{submit}|{submit}|200|300|00:10:00|1|COMPLETED|x|{submit_line}\n")
        };
        let text = HEAD.to_string()
            + &line(10, "b", 100, "sbatch -p a,b x.sh")
            + &line(11, "a", 101, "sbatch --partition=a x.sh")
            + &line(12, "a", 102, "sbatch --partition a,,b,a x.sh")
            + &line(13, "a,b", 103, "")
            + &line(14, "b", 104, "sbatch -pb,a --parsable x.sh");
        let (w, _) = parse(&text, false).unwrap();
        assert_eq!(w.partitions, ["b", "a"]);
        let got: Vec<(u32, Vec<u32>)> = w.jobs.iter().map(|j| (j.partition, j.partitions.clone())).collect();
        assert_eq!(got, [(0, vec![1, 0]), (1, vec![]), (1, vec![1, 0]), (1, vec![1, 0]), (0, vec![0, 1])]);
    }

    #[test]
    fn bad_relations_are_located_errors_and_nothing_is_read() {
        let ok = line(10, "10", [100, 100, 110, 200], "COMPLETED", "a", "sbatch a.sh");
        for (bad, says) in [
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch -d afterok:99 b.sh"),
                "d.sacct:3: column SubmitLine: afterok depends on job 99, which is not a job of the dump that ran",
            ),
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch -d afterok:10_2 b.sh"),
                "d.sacct:3: column SubmitLine: afterok depends on job 10_2",
            ),
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch --array=1-x b.sh"),
                "d.sacct:3: column SubmitLine: `1-x` is not an array range",
            ),
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch --dependency=afterok:10?:3 b.sh"),
                "d.sacct:3: column SubmitLine: `afterok:10?:3`",
            ),
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch --dependency=aftercorr:10 b.sh"),
                "d.sacct:3: column SubmitLine: `aftercorr:10`: dependency type `aftercorr` is not modelled",
            ),
            (
                line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch -d afterany:11 b.sh"),
                "d.sacct:3: column SubmitLine: the job depends on itself",
            ),
            (
                "30|30_[4-x]|u|p|100|100|Unknown|Unknown|00:10:00|0|PENDING|c|\n".to_string(),
                "d.sacct:3: column JobID: `30_[4-x]` is not an array range",
            ),
        ] {
            let text = HEAD.to_string() + &ok + &bad;
            let err = parse(&text, false).unwrap_err().to_string();
            assert!(err.starts_with(says), "{err}");
            // Lenient: the line is skipped and counted.
            let (w, report) = parse(&text, true).unwrap();
            assert_eq!(w.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), [10], "{bad}");
            assert_eq!(report.skipped.total(), 1);
        }
        // A job depending on a skipped one is skipped in turn (lenient).
        let text = HEAD.to_string()
            + &ok
            + &line(11, "11", [100, 100, 200, 300], "COMPLETED", "b", "sbatch -d afterok:99 b.sh")
            + &line(12, "12", [100, 100, 300, 400], "COMPLETED", "c", "sbatch -d afterok:11 c.sh");
        let (w, report) = parse(&text, true).unwrap();
        assert_eq!((w.jobs.len(), report.skipped.total()), (1, 2));
    }
}
