//! One sacct dump against another: Slurm against itself, the noise floor of
//! `slurm compare`.
//!
//! Contract:
//! - [`read_starts`] reads a `sacct --parsable2` dump (header line, `|`
//!   separated; `--duplicates` allowed; plain or gzip) for its columns `JobID` (else
//!   `JobIDRaw`), `JobName`, `Start` and `State`, and `Eligible` or `Submit`
//!   and `NodeList` when present. Times are epoch seconds
//!   (`SLURM_TIME_FORMAT=%s`) or sacct's `YYYY-MM-DDTHH:MM:SS` (read as UTC:
//!   both runs are measured from their own origin, so the zone cancels).
//!   Steps (`123.batch`) are skipped.
//! - Jobs are matched across dumps by name, since job ids differ from run to
//!   run: the key is `JobName`, the array task (`123_4`: `4`) and the
//!   occurrence of that pair in the dump (the k-th job id with that name and
//!   task, in dump order, as singleton jobs share a name).
//! - A job id seen on several lines (`--duplicates`: the runs of a requeued
//!   job) is one job: its start is that of its last line (what a dump
//!   without `--duplicates` shows), its first start that of its first line,
//!   and it counts as preempted when any of its lines is `PREEMPTED` or
//!   `REQUEUED`. A job
//!   whose last start is `Unknown`/`None` never started and is not compared.
//! - Starts are seconds from the dump's origin: its earliest `Eligible`
//!   (the planned first grid point of tests/slurm/cluster.sh), else its
//!   earliest `Submit`, else its earliest start.
//! - Bad input is an error naming the file, the line and the column.

use std::collections::HashMap;
use std::path::Path;

use slasim_sim::units::Time;

/// One job of a dump, as [`read_starts`] keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpJob {
    /// `JobName`, array task and occurrence: `j001`, `a040_3`, `single_bin#2`.
    pub key: String,
    /// The numeric job id of its first line (`JobIDRaw`, else `JobID` up to `_`).
    pub id: u64,
    /// Seconds from the dump's origin to its eligible (else submit) time.
    pub submit: Time,
    /// Seconds from the dump's origin to its last start.
    pub start: Time,
    /// Seconds from the dump's origin to its first start (its first line's).
    pub first_start: Time,
    /// Its last line's `NodeList` (empty without the column).
    pub nodes: String,
    /// A line of it is `PREEMPTED` or `REQUEUED`.
    pub preempted: bool,
}

/// A dump's jobs, in dump order, and the jobs that never started.
#[derive(Debug, Clone, Default)]
pub struct DumpStarts {
    pub jobs: Vec<DumpJob>,
    pub never_started: Vec<String>,
}

/// Reads a sacct dump's starts (see the module contract).
pub fn read_starts(path: &Path) -> anyhow::Result<DumpStarts> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut slasim_data::trace::sacct::open(path)?, &mut text)
        .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    parse_starts(&text, path)
}

/// [`read_starts`] of a text; `path` names it in errors.
pub fn parse_starts(text: &str, path: &Path) -> anyhow::Result<DumpStarts> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or_else(|| anyhow::anyhow!("{}:1: empty dump, no header", path.display()))?;
    let names: Vec<&str> = header.split('|').collect();
    let col = |n: &str| names.iter().position(|c| c.eq_ignore_ascii_case(n));
    let need = |n: &str| col(n).ok_or_else(|| anyhow::anyhow!("{}:1: no column {n} in the header", path.display()));
    let id_col = col("JobID").map_or_else(|| need("JobIDRaw"), Ok)?;
    let raw_col = col("JobIDRaw");
    let (name_col, start_col, state_col) = (need("JobName")?, need("Start")?, need("State")?);
    let submit_col = col("Eligible").or_else(|| col("Submit"));
    let nodes_col = col("NodeList");

    struct Acc {
        key: String,
        id: u64,
        submit: Option<i64>,
        start: Option<i64>,
        first_start: Option<i64>,
        nodes: String,
        preempted: bool,
    }
    let mut jobs: Vec<Acc> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut occurrences: HashMap<String, usize> = HashMap::new();
    for (i, line) in lines {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        // A `|` inside a job name makes the line longer: the extra fields
        // belong to JobName, and every later column shifts.
        let extra = fields.len().saturating_sub(names.len());
        if fields.len() < names.len() {
            anyhow::bail!("{}:{line_no}: {} fields, the header has {}", path.display(), fields.len(), names.len());
        }
        let at = |c: usize| if c > name_col { fields[c + extra] } else { fields[c] };
        let job_id = at(id_col);
        if job_id.contains('.') {
            continue; // a step
        }
        let name = if extra > 0 { fields[name_col..=name_col + extra].join("|") } else { fields[name_col].to_string() };
        let located =
            |column: &str, what: String| anyhow::anyhow!("{}:{line_no}: column {column}: {what}", path.display());
        let base = job_id.split(['_', '+']).next().unwrap_or(job_id);
        let id_text = raw_col.map_or(base, at);
        let id: u64 = id_text.parse().map_err(|_| {
            located(if raw_col.is_some() { "JobIDRaw" } else { "JobID" }, format!("'{id_text}' is not a job id"))
        })?;
        let task = job_id.split_once('_').map(|(_, t)| t);
        if let Some(t) = task {
            if t.parse::<u64>().is_err() {
                // A pending array's unsplit record (`123_[4-7%2]`): no task yet.
                if t.starts_with('[') {
                    continue;
                }
                return Err(located("JobID", format!("array task '{t}' is not a number")));
            }
        }
        let start = parse_time(at(start_col)).map_err(|e| located("Start", e))?;
        let submit = match submit_col {
            Some(c) => parse_time(at(c)).map_err(|e| located(names[c], e))?,
            None => None,
        };
        let state = at(state_col);
        let preempted = state.starts_with("PREEMPTED") || state.starts_with("REQUEUED");
        let nodes = nodes_col.map_or("", at).to_string();
        match by_id.get(job_id) {
            Some(&k) => {
                let acc = &mut jobs[k];
                acc.start = start;
                acc.nodes = nodes;
                acc.preempted |= preempted;
                if acc.submit.is_none() {
                    acc.submit = submit;
                }
            }
            None => {
                let pair = match task {
                    Some(t) => format!("{name}_{t}"),
                    None => name,
                };
                let n = occurrences.entry(pair.clone()).or_insert(0);
                *n += 1;
                let key = if *n == 1 { pair } else { format!("{pair}#{n}") };
                by_id.insert(job_id.to_string(), jobs.len());
                jobs.push(Acc { key, id, submit, start, first_start: start, nodes, preempted });
            }
        }
    }
    let origin = jobs
        .iter()
        .filter_map(|j| j.submit)
        .min()
        .or_else(|| jobs.iter().filter_map(|j| j.start).min())
        .ok_or_else(|| anyhow::anyhow!("{}: no job with a submit or start time", path.display()))?;
    let mut out = DumpStarts::default();
    for j in jobs {
        match j.start {
            Some(s) => out.jobs.push(DumpJob {
                key: j.key,
                id: j.id,
                submit: j.submit.unwrap_or(s) - origin,
                start: s - origin,
                first_start: j.first_start.unwrap_or(s) - origin,
                nodes: j.nodes,
                preempted: j.preempted,
            }),
            None => out.never_started.push(j.key),
        }
    }
    Ok(out)
}

/// Epoch seconds, or `YYYY-MM-DDTHH:MM:SS` as UTC; `Unknown`, `None` and
/// empty are `None`.
fn parse_time(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() || t == "Unknown" || t == "None" {
        return Ok(None);
    }
    if let Ok(s) = t.parse::<i64>() {
        return Ok(Some(s));
    }
    let bad = || format!("'{t}' is neither epoch seconds nor YYYY-MM-DDTHH:MM:SS");
    let (date, time) = t.split_once('T').ok_or_else(bad)?;
    let d: Vec<i64> = date.split('-').map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    let c: Vec<i64> = time.split(':').map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    if d.len() != 3 || c.len() != 3 || !(1..=12).contains(&d[1]) || !(1..=31).contains(&d[2]) {
        return Err(bad());
    }
    // Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
    // days_from_civil).
    let (y, m, day) = (if d[1] <= 2 { d[0] - 1 } else { d[0] }, d[1], d[2]);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok(Some(days * 86_400 + c[0] * 3600 + c[1] * 60 + c[2]))
}
