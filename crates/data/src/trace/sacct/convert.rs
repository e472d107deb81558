//! The conversion proper: one SWF job per allocation, job steps folded into
//! their job, heterogeneous components summed, users, groups and partitions
//! numbered in order of first appearance, and the report of what was
//! skipped and why.

use slasim_sim::units::seconds;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use chrono::DateTime;

use crate::trace::sacct::columns::{Col, Columns, Fields};
use crate::trace::sacct::values::{
    IdKind, JobId, StateClass, TimeKind, parse_count, parse_duration, parse_job_id, parse_limit, parse_time, swf_status,
};
use crate::trace::sacct::{SacctConversion, SacctError, SacctMaps, SacctOptions, SacctReport, shorten};
use crate::trace::swf::{LineProblem, SkippedLines, SwfHeader, SwfRecord, SwfTrace};

/// Interns names; numbers are assigned later, in order of first use.
#[derive(Debug, Default)]
pub(super) struct Names {
    pub(super) ids: HashMap<Box<str>, u32>,
    pub(super) names: Vec<Box<str>>,
}

impl Names {
    pub(super) fn id(&mut self, name: &str) -> u32 {
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
pub(super) struct Alloc {
    pub(super) line: u64,
    /// Numeric job id for ordering (JobIDRaw, else the JobID's leading number).
    pub(super) order: u64,
    /// What the maps call it.
    pub(super) label: u32,
    pub(super) het: Option<(u64, u64)>,
    pub(super) submit: i64,
    pub(super) start: Option<i64>,
    pub(super) end: Option<i64>,
    pub(super) runtime: Option<i64>,
    pub(super) alloc_cpus: i64,
    /// It got an allocation: a start time, CPUs, and nodes if AllocNodes says.
    pub(super) allocated: bool,
    pub(super) req_cpus: Option<i64>,
    pub(super) nodes: Option<i64>,
    pub(super) limit: Option<i64>,
    pub(super) status: i64,
    pub(super) user: Option<u32>,
    pub(super) group: Option<u32>,
    pub(super) partition: Option<u32>,
    pub(super) job_name: Option<u32>,
    pub(super) merged: bool,
}

/// Steps of one job, folded.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct StepFold {
    pub(super) count: u64,
    pub(super) last_end: Option<i64>,
}

pub(super) struct Converter<'p> {
    pub(super) path: &'p Path,
    pub(super) columns: Columns,
    pub(super) options: SacctOptions,
    pub(super) allocs: Vec<Alloc>,
    /// Allocation key (JobIDRaw, else JobID base) → index in `allocs`.
    pub(super) by_key: HashMap<Box<str>, usize>,
    pub(super) steps: HashMap<Box<str>, StepFold>,
    /// Keys of the allocations skipped as unfinished.
    pub(super) skipped_keys: HashSet<Box<str>>,
    pub(super) users: Names,
    pub(super) groups: Names,
    pub(super) partitions: Names,
    pub(super) job_names: Names,
    pub(super) labels: Names,
    pub(super) time_kind: Option<(TimeKind, u64)>,
    pub(super) skipped: SkippedLines,
    pub(super) report: SacctReport,
    /// Scratch for a resolved free-text value.
    pub(super) joined: String,
    /// The number of the line being parsed, for messages.
    pub(super) line_no: u64,
    pub(super) extra: usize,
    /// The pending array ranges seen (`123_[5-9%2]`), for the native reader.
    pub(super) array_ranges: Vec<ArrayRange>,
}

/// A pending array range (`123_[5-9%2]`) as a line gives it.
#[derive(Debug, Clone)]
pub(super) struct ArrayRange {
    pub(super) line: u64,
    pub(super) array: u64,
    /// Its task count; `None` when the range does not parse.
    pub(super) tasks: Option<u64>,
    pub(super) throttle: Option<u32>,
    pub(super) text: Box<str>,
}

impl<'p> Converter<'p> {
    pub(super) fn new(path: &'p Path, columns: Columns, options: SacctOptions) -> Converter<'p> {
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
            array_ranges: Vec::new(),
        }
    }

    pub(super) fn skip(&mut self, error: &SacctError) {
        if let Some(problem) = error.line_problem() {
            *self.skipped.by_problem.entry(problem).or_default() += 1;
            if self.skipped.first.is_none() {
                self.skipped.first = Some(error.to_string());
            }
        }
    }

    pub(super) fn malformed(
        &self,
        record: &Fields,
        column: Option<Col>,
        problem: LineProblem,
        detail: String,
    ) -> SacctError {
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
    pub(super) fn raw<'r>(&self, record: &'r Fields, i: usize) -> &'r [u8] {
        let i = match self.columns.free_text {
            Some(ft) if self.extra > 0 && i > ft => i + self.extra,
            _ => i,
        };
        record.get(i).unwrap_or(b"")
    }

    /// The text of `col` (empty when the header lacks it).
    pub(super) fn text<'r>(&self, record: &'r Fields, col: Col) -> Result<&'r str, SacctError> {
        let Some(i) = self.columns.get(col) else { return Ok("") };
        std::str::from_utf8(self.raw(record, i))
            .map(str::trim)
            .map_err(|_| self.malformed(record, Some(col), LineProblem::NotNumeric, "not UTF-8 text".to_string()))
    }

    pub(super) fn time(&mut self, record: &Fields, col: Col) -> Result<Option<i64>, SacctError> {
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

    pub(super) fn count(&self, record: &Fields, col: Col) -> Result<Option<i64>, SacctError> {
        parse_count(self.text(record, col)?)
            .map_err(|detail| self.malformed(record, Some(col), LineProblem::NotNumeric, detail))
    }

    /// The first of `cols` the header has, as a count.
    pub(super) fn first_count(&self, record: &Fields, cols: &[Col]) -> Result<Option<i64>, SacctError> {
        match cols.iter().find(|&&c| self.columns.get(c).is_some()) {
            Some(&c) => self.count(record, c),
            None => Ok(None),
        }
    }

    /// Elapsed time: ElapsedRaw, else Elapsed; `None` when neither is given.
    pub(super) fn elapsed(&self, record: &Fields) -> Result<Option<i64>, SacctError> {
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
    pub(super) fn limit(&self, record: &Fields) -> Result<Option<i64>, SacctError> {
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
    pub(super) fn name(&mut self, record: &Fields, cols: &[Col], which: Which) -> Result<Option<u32>, SacctError> {
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
    pub(super) fn job_name(&mut self, record: &Fields) -> Option<u32> {
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
    pub(super) fn line(&mut self, line: u64, record: &Fields) -> Result<(), SacctError> {
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
        if let Some(JobId { kind: IdKind::ArrayRange { array, tasks, throttle }, base, .. }) = id {
            // A pending range always; counted with the pending jobs whatever its state says.
            self.array_ranges.push(ArrayRange { line, array, tasks, throttle, text: base.into() });
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
                    format!("starts {} before its submit time (negative wait)", seconds(submit - start)),
                ));
            }
            if let Some(end) = end.filter(|&e| e < start) {
                return Err(self.malformed(
                    record,
                    Some(Col::End),
                    LineProblem::Negative,
                    format!("ends {} before it starts (negative elapsed time)", seconds(start - end)),
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
            (Some(IdKind::ArrayTask { array, .. }), raw) => {
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
    pub(super) fn fields_mismatch(&mut self, record: &Fields, want: usize) -> Result<(), SacctError> {
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
    pub(super) fn step(&mut self, record: &Fields, parent: &str) -> Result<(), SacctError> {
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
                format!("ends {} before it starts (negative elapsed time)", seconds(start.unwrap_or(end) - end)),
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
    pub(super) fn finish(mut self) -> Result<SacctConversion, SacctError> {
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

    pub(super) fn build(mut self, jobs: Vec<Alloc>) -> Result<SacctConversion, SacctError> {
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
        let trace = SwfTrace { name, header, records, skipped: self.skipped, dropped: Vec::new() };
        Ok(SacctConversion { trace, lines, maps, report: self.report })
    }

    pub(super) fn header(
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
pub(super) enum Which {
    User,
    Group,
    Partition,
}
