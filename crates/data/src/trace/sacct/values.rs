//! The values of sacct fields: job ids (`123`, `123.batch`, `123_4`,
//! `123_[5-9]`, `123+0`), durations and time limits in the syntax of
//! `sbatch --time`, times, counts, and job states with their SWF status.

use chrono::NaiveDateTime;

/// How times are written: epoch seconds (`SLURM_TIME_FORMAT=%s`) or local
/// wall-clock `YYYY-MM-DDTHH:MM:SS` (sacct's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TimeKind {
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
pub(super) struct JobId<'a> {
    /// The part before the first `.`.
    pub(super) base: &'a str,
    /// The step after the `.`, if any.
    pub(super) step: Option<&'a str>,
    pub(super) kind: IdKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IdKind {
    Plain(u64),
    ArrayTask {
        array: u64,
        task: u64,
    },
    /// A pending range; the task count when the range is explicit, and its
    /// throttle (`%N`) when it has one.
    ArrayRange {
        array: u64,
        tasks: Option<u64>,
        throttle: Option<u32>,
    },
    Het {
        group: u64,
        offset: u64,
    },
}

pub(super) fn parse_job_id(text: &str) -> Option<JobId<'_>> {
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
            IdKind::ArrayRange { array, tasks: range_tasks(range), throttle: range_throttle(range) }
        } else {
            number(task).map(|task| IdKind::ArrayTask { array, task })?
        }
    } else if let Some((group, offset)) = base.split_once('+') {
        IdKind::Het { group: number(group)?, offset: number(offset)? }
    } else {
        IdKind::Plain(number(base)?)
    };
    Some(JobId { base, step, kind })
}

/// Tasks in an array range `5-9,12,20-30:2%4`; `None` if it does not parse.
pub(crate) fn range_tasks(range: &str) -> Option<u64> {
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

/// The throttle of an array range (`1-10%2`: 2); `None` without one or
/// when it is not a positive count.
pub(crate) fn range_throttle(range: &str) -> Option<u32> {
    range.split_once('%').and_then(|(_, n)| n.parse::<u32>().ok()).filter(|&n| n > 0)
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
pub(super) fn parse_limit(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("UNLIMITED") || t.eq_ignore_ascii_case("Partition_Limit") {
        return Ok(None);
    }
    parse_duration(t).map(Some).ok_or_else(|| {
        format!("`{t}` is not a time limit (D-HH:MM:SS, HH:MM:SS, MM:SS, MM, UNLIMITED or Partition_Limit)")
    })
}

/// A time stamp: `None` for Unknown, None or empty.
pub(super) fn parse_time(text: &str) -> Result<Option<(i64, TimeKind)>, String> {
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
pub(super) fn parse_count(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.len() <= 12 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse().map(Some).map_err(|e| format!("`{t}`: {e}"));
    }
    Err(format!("`{t}` is not a count"))
}
