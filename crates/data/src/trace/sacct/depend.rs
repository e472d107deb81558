//! Dependencies and array specifications as a submit line writes them
//! (`sbatch --dependency=afterok:12:13,singleton --array=1-10%2 job.sh`), or
//! as a `Dependency` column lists them (`afterok:12_*(unfulfilled)`).
//!
//! Sources: Slurm 22.05 `src/slurmctld/job_scheduler.c`
//! (`update_job_dependency`, `_parse_dependency_jobid_new`,
//! `_parse_dependency_jobid_old`, `_xlate_array_dep`, `_parse_depend_state`)
//! and the `sbatch(1)` man page (`--dependency`, `--array`).
//!
//! Contract:
//! - A dependency is parts separated by `,` (all needed) or `?` (any one
//!   suffices: one `?` makes every part optional, as Slurm's `or_flag`).
//!   A part is `singleton`, `TYPE:ID[:ID…]`, or bare job ids (Slurm's old
//!   format: `afterany`). An id is `123`, `123_4` (one task), `123_*`
//!   (every task) or `123_[4-5]` (those tasks), each possibly followed by
//!   `+MINUTES` (ignored by every type but `after`, as Slurm does) and a
//!   state in parentheses (ignored: the simulation decides).
//! - Types modelled: `after`, `afterany`, `afterok`, `afternotok`,
//!   `singleton`. `aftercorr`, `afterburstbuffer` and `expand` are refused
//!   (not modelled), and so is `after:ID+MINUTES`; anything else is not a
//!   dependency. Empty, `0` and `(null)` mean none.
//! - A submit line is split into words as a shell splits it (at white
//!   space outside quotes, the quotes dropped); `--dependency=V`,
//!   `--dependency V`, `-d V`, `-dV`, and the same forms of `--array`/`-a`,
//!   are read wherever they stand, the last of each counting; so are
//!   `--partition`/`-p` (a job submitted to several partitions: `-p a,b`).

use crate::trace::sacct::jobs::{DependKind, DependOn, Dependency};
use crate::trace::sacct::values::{range_tasks, range_throttle};

/// At most this many tasks in one `123_[…]` of a dependency.
const MAX_TASKS: u64 = 1 << 20;

/// The options of a submit line this reader uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SubmitOptions {
    /// `--dependency`'s value.
    pub(crate) dependency: Option<String>,
    /// `--array`'s value.
    pub(crate) array: Option<String>,
    /// `--partition`'s value.
    pub(crate) partition: Option<String>,
    /// `--begin`'s value.
    pub(crate) begin: Option<String>,
    /// `--reservation`'s value.
    pub(crate) reservation: Option<String>,
    /// `--kill-on-invalid-dep`'s value.
    pub(crate) kill_on_invalid_dep: Option<String>,
}

fn unquote(v: &str) -> &str {
    let v = v.trim();
    for q in ['"', '\''] {
        if let Some(inner) = v.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

/// A command line split as a shell splits it: at white space outside
/// quotes, the quotes dropped (`--wrap="a -d b"` is one word).
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quote, mut inside) = (None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                inside = true;
            }
            (None, c) if c.is_whitespace() => {
                if inside || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                inside = false;
            }
            (None, c) => {
                word.push(c);
                inside = true;
            }
        }
    }
    if inside || !word.is_empty() {
        words.push(word);
    }
    words
}

/// Finds `--dependency`, `--array`, `--partition`, `--begin`,
/// `--reservation` and `--kill-on-invalid-dep` in a submit line (the last of
/// each, as sbatch takes it).
pub(crate) fn submit_options(line: &str) -> SubmitOptions {
    let mut found = SubmitOptions::default();
    let words = words(line);
    let mut tokens = words.iter();
    while let Some(t) = tokens.next() {
        let take = |long: &str, short: Option<&str>| -> Option<Option<String>> {
            if let Some(rest) = t.strip_prefix(long) {
                if let Some(v) = rest.strip_prefix('=') {
                    return Some(Some(v.to_string()));
                }
                return rest.is_empty().then_some(None);
            }
            if !t.starts_with("--")
                && let Some(rest) = short.and_then(|s| t.strip_prefix(s))
            {
                return Some(if rest.is_empty() { None } else { Some(rest.to_string()) });
            }
            None
        };
        if let Some(value) = take("--dependency", Some("-d")) {
            found.dependency = value.or_else(|| tokens.next().cloned());
        } else if let Some(value) = take("--array", Some("-a")) {
            found.array = value.or_else(|| tokens.next().cloned());
        } else if let Some(value) = take("--partition", Some("-p")) {
            found.partition = value.or_else(|| tokens.next().cloned());
        } else if let Some(value) = take("--begin", Some("-b")) {
            found.begin = value.or_else(|| tokens.next().cloned());
        } else if let Some(value) = take("--reservation", None) {
            found.reservation = value.or_else(|| tokens.next().cloned());
        } else if let Some(value) = take("--kill-on-invalid-dep", None) {
            found.kill_on_invalid_dep = value.or_else(|| tokens.next().cloned());
        }
    }
    found
}

/// A `--begin` time (`sbatch(1)`) for a job submitted at `submit` (seconds,
/// on the dump's clock): `now[+N[seconds|minutes|hours|days|weeks]]`,
/// `YYYY-MM-DD[THH:MM[:SS]]` or `HH:MM[:SS]` (the submit's day, the next one
/// when that time has passed). Wall-clock times are read on the dump's
/// clock: as UTC when its times are epoch seconds. Other forms (`noon`,
/// `MMDDYY`, …) are refused with the forms read.
pub(crate) fn parse_begin(text: &str, submit: i64) -> Result<i64, String> {
    let t = unquote(text);
    let refused = || {
        format!(
            "--begin `{t}` is not a time slasim reads (now+N[seconds|minutes|hours|days|weeks], YYYY-MM-DD[THH:MM[:SS]] or HH:MM[:SS])"
        )
    };
    if let Some(rest) = t.strip_prefix("now") {
        let Some(rest) = rest.strip_prefix('+') else {
            return if rest.is_empty() { Ok(submit) } else { Err(refused()) };
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let count: i64 = rest[..digits].parse().map_err(|_| refused())?;
        let unit = &rest[digits..];
        let seconds = match unit.to_ascii_lowercase().as_str() {
            "" | "s" | "sec" | "secs" | "second" | "seconds" => 1,
            "m" | "min" | "mins" | "minute" | "minutes" => 60,
            "h" | "hour" | "hours" => 3600,
            "d" | "day" | "days" => 86_400,
            "w" | "week" | "weeks" => 604_800,
            _ => return Err(refused()),
        };
        return count.checked_mul(seconds).and_then(|d| submit.checked_add(d)).ok_or_else(refused);
    }
    for format in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"] {
        if let Ok(d) = chrono::NaiveDateTime::parse_from_str(t, format) {
            return Ok(d.and_utc().timestamp());
        }
    }
    if let Ok(d) = chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Ok(d.and_time(chrono::NaiveTime::MIN).and_utc().timestamp());
    }
    for format in ["%H:%M:%S", "%H:%M"] {
        if let Ok(time) = chrono::NaiveTime::parse_from_str(t, format) {
            let day = submit.div_euclid(86_400) * 86_400;
            let at = day + i64::from(chrono::Timelike::num_seconds_from_midnight(&time));
            return Ok(if at < submit { at + 86_400 } else { at });
        }
    }
    Err(refused())
}

/// `--kill-on-invalid-dep`'s value: `yes` or `no` (`sbatch(1)`).
pub(crate) fn parse_kill_on_invalid_dep(text: &str) -> Result<bool, String> {
    match unquote(text).to_ascii_lowercase().as_str() {
        "yes" => Ok(true),
        "no" => Ok(false),
        other => Err(format!("--kill-on-invalid-dep `{other}` is neither `yes` nor `no`")),
    }
}

/// An array specification (`1-10%2`): its throttle (0: none), or why it
/// does not parse.
pub(crate) fn parse_array_spec(spec: &str) -> Result<u32, String> {
    let tasks = range_tasks(spec).filter(|&n| n > 0);
    let throttle_ok = spec.split_once('%').is_none_or(|(_, n)| n.parse::<u32>().is_ok());
    match tasks {
        Some(_) if throttle_ok => Ok(range_throttle(spec).unwrap_or(0)),
        _ => Err(format!(
            "`{spec}` is not an array range (indices `1-10`, `0-15:4` or `1,3,5-7`, with an optional `%N` throttle)"
        )),
    }
}

/// Parses a dependency; `Ok(None)` for none.
pub fn parse_dependency(text: &str) -> Result<Option<Dependency>, String> {
    let text = unquote(text);
    if text.is_empty() || text == "0" || text.eq_ignore_ascii_case("(null)") {
        return Ok(None);
    }
    let mut dependency = Dependency::default();
    let mut depth = 0i32;
    let mut from = 0;
    let bytes = text.as_bytes();
    for i in 0..=bytes.len() {
        let b = bytes.get(i).copied();
        match b {
            Some(b'[') | Some(b'(') => depth += 1,
            Some(b']') | Some(b')') => depth -= 1,
            _ => {}
        }
        if b.is_none() || (depth == 0 && matches!(b, Some(b',') | Some(b'?'))) {
            if b == Some(b'?') {
                dependency.any = true;
            }
            part(&text[from..i], &mut dependency.on).map_err(|e| format!("`{text}`: {e}"))?;
            from = i + 1;
        }
    }
    Ok(Some(dependency))
}

/// Without a trailing `(state)`.
fn without_state(s: &str) -> Result<&str, String> {
    match s.find('(') {
        Some(i) if s.ends_with(')') => Ok(&s[..i]),
        Some(_) => Err(format!("`{s}`: an unclosed `(`")),
        None => Ok(s),
    }
}

fn part(text: &str, on: &mut Vec<DependOn>) -> Result<(), String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("an empty dependency".to_string());
    }
    if without_state(text)?.eq_ignore_ascii_case("singleton") {
        on.push(DependOn { kind: DependKind::Singleton, job: 0, task: None });
        return Ok(());
    }
    let (kind, ids) = match text.split_once(':') {
        None if text.starts_with(|c: char| c.is_ascii_digit()) => (DependKind::AfterAny, text),
        None => return Err(format!("`{text}` is not a dependency (TYPE:JOB_ID or singleton)")),
        Some((name, ids)) => {
            let kind = match name.to_ascii_lowercase().as_str() {
                "after" => DependKind::After,
                "afterany" => DependKind::AfterAny,
                "afterok" => DependKind::AfterOk,
                "afternotok" => DependKind::AfterNotOk,
                "aftercorr" | "afterburstbuffer" | "expand" => {
                    return Err(format!(
                        "dependency type `{name}` is not modelled (after, afterany, afterok, afternotok, singleton are)"
                    ));
                }
                _ => {
                    return Err(format!(
                        "`{name}` is not a dependency type (after, afterany, afterok, afternotok, singleton)"
                    ));
                }
            };
            (kind, ids)
        }
    };
    for id in ids.split(':') {
        let id = without_state(id.trim())?;
        let (id, minutes) = match id.split_once('+') {
            Some((id, m)) => {
                let m: u64 =
                    m.parse().ok().filter(|&m| m > 0).ok_or_else(|| format!("`{m}` is not a number of minutes"))?;
                (id, Some(m))
            }
            None => (id, None),
        };
        if minutes.is_some() && kind == DependKind::After {
            return Err(format!("`after:{id}+MINUTES` (a delay after the start) is not modelled"));
        }
        let number = |s: &str| -> Result<u64, String> {
            s.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| format!("`{s}` is not a job id"))
        };
        match id.split_once('_') {
            None => on.push(DependOn { kind, job: number(id)?, task: None }),
            Some((job, "*")) => on.push(DependOn { kind, job: number(job)?, task: None }),
            Some((job, task)) if task.starts_with('[') => {
                let job = number(job)?;
                let range = task.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or("");
                let bad = || format!("`{task}` is not an array range");
                if range.contains('%') || range_tasks(range).is_none_or(|n| n == 0 || n > MAX_TASKS) {
                    return Err(bad());
                }
                for piece in range.split(',') {
                    let (span, step) = match piece.split_once(':') {
                        Some((span, step)) => (span, step.parse::<u64>().map_err(|_| bad())?),
                        None => (piece, 1),
                    };
                    let (lo, hi) = match span.split_once('-') {
                        Some((lo, hi)) => {
                            (lo.parse::<u64>().map_err(|_| bad())?, hi.parse::<u64>().map_err(|_| bad())?)
                        }
                        None => {
                            let v = span.parse::<u64>().map_err(|_| bad())?;
                            (v, v)
                        }
                    };
                    let mut t = lo;
                    while t <= hi {
                        on.push(DependOn { kind, job, task: Some(t) });
                        t += step.max(1);
                    }
                }
            }
            Some((job, task)) => {
                let task = task.parse::<u64>().map_err(|_| format!("`{task}` is not an array task id"))?;
                on.push(DependOn { kind, job: number(job)?, task: Some(task) });
            }
        }
    }
    Ok(())
}
