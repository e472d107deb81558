//! Batsim JSON workloads in and out.
//!
//! Reference: Batsim's workload documentation (oar-team/batsim,
//! `docs/input-workload.rst`): `{"nb_res": K, "jobs": [...], "profiles": {...}}`,
//! a job `{"id", "subtime", "res", "walltime", "profile"}`, a delay profile
//! `{"type": "delay", "delay": seconds}`.
//!
//! Contract:
//! - [`load`] reads a workload into an [`SwfTrace`] (so preparation, the
//!   classic checks and every strategy treat it like an SWF log): `subtime` is
//!   the submit time, `res` the requested and allocated processors, `walltime`
//!   the requested time (absent or negative: unknown), the profile's `delay`
//!   the run time, `nb_res` the machine size (`MaxProcs`). Times are rounded
//!   to whole seconds. Only delay profiles are simulated: any other profile
//!   type a job uses is an error naming the profile and its type. Ids are
//!   kept when they are integers (or integer strings), else jobs are numbered
//!   from 1 in file order.
//! - [`to_json`] writes prepared jobs as such a workload, one delay profile
//!   per distinct run time, ids the jobs' numbers ([`job_numbers`]): the
//!   trace's job numbers when unique, else slasim's ids. Reading it back and
//!   preparing it the same way gives the same jobs.
//! - Nothing here panics on a malformed file: errors name the job or profile.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::workload::job::Job;
use slasim_core::units::Time;
use slasim_data::trace::swf::{SwfHeader, SwfRecord, SwfTrace};

/// A Batsim workload that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {what}")]
pub struct BatsimWorkloadError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub what: String,
}

/// True for a path that names a Batsim JSON workload (`.json`).
pub fn is_batsim_workload(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

fn seconds(v: &Value) -> Option<i64> {
    v.as_f64().filter(|x| x.is_finite()).map(|x| x.round() as i64)
}

/// Reads a Batsim workload file.
pub fn load(path: &Path) -> Result<SwfTrace, BatsimWorkloadError> {
    let err = |what: String| BatsimWorkloadError { path: path.display().to_string(), what };
    let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let mut trace = parse(&text).map_err(err)?;
    trace.name = path.display().to_string();
    Ok(trace)
}

/// Parses a Batsim workload's text.
pub fn parse(text: &str) -> Result<SwfTrace, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON workload: {e}"))?;
    let nb_res = root
        .get("nb_res")
        .and_then(Value::as_u64)
        .filter(|&n| n > 0 && n <= u64::from(u32::MAX))
        .ok_or("no positive integer `nb_res` (the machine size)")?;
    let jobs = root.get("jobs").and_then(Value::as_array).ok_or("no list `jobs`")?;
    let empty = Map::new();
    let profiles = root.get("profiles").and_then(Value::as_object).unwrap_or(&empty);
    let mut records = Vec::with_capacity(jobs.len());
    let mut ids = HashSet::with_capacity(jobs.len());
    let mut numbered = true;
    for (i, job) in jobs.iter().enumerate() {
        let at =
            || format!("job {} (number {} in the file)", job.get("id").map_or("?".into(), Value::to_string), i + 1);
        let id = match job.get("id") {
            Some(Value::Number(n)) => n.as_i64(),
            Some(Value::String(s)) => s.rsplit('!').next().and_then(|n| n.parse::<i64>().ok()),
            _ => return Err(format!("{}: no `id`", at())),
        };
        let id = match id {
            Some(id) if numbered && ids.insert(id) => id,
            _ => {
                numbered = false;
                -1
            }
        };
        let subtime = job.get("subtime").and_then(seconds).ok_or_else(|| format!("{}: no number `subtime`", at()))?;
        let res = job
            .get("res")
            .and_then(Value::as_i64)
            .filter(|&r| r > 0)
            .ok_or_else(|| format!("{}: no positive integer `res`", at()))?;
        let walltime = job.get("walltime").and_then(seconds).filter(|&w| w >= 0).unwrap_or(-1);
        let name = job.get("profile").and_then(Value::as_str).ok_or_else(|| format!("{}: no `profile`", at()))?;
        let profile = profiles.get(name).ok_or_else(|| format!("{}: profile `{name}` is not defined", at()))?;
        let kind = profile.get("type").and_then(Value::as_str).unwrap_or("(none)");
        if kind != "delay" {
            return Err(format!(
                "{}: profile `{name}` has type `{kind}`; slasim simulates only `delay` profiles (a job runs for its delay)",
                at()
            ));
        }
        let delay = profile
            .get("delay")
            .and_then(seconds)
            .filter(|&d| d >= 0)
            .ok_or_else(|| format!("profile `{name}`: no non-negative number `delay`"))?;
        records.push(SwfRecord {
            job: id,
            submit: subtime,
            wait: -1,
            runtime: delay,
            allocated_procs: res,
            requested_procs: res,
            requested_time: walltime,
            status: 1,
            ..SwfRecord::UNKNOWN
        });
    }
    if !numbered {
        for (i, r) in records.iter_mut().enumerate() {
            r.job = i as i64 + 1;
        }
    }
    let mut entries = vec![("MaxProcs".to_string(), nb_res.to_string()), ("MaxNodes".to_string(), nb_res.to_string())];
    if let Some(d) = root.get("description").and_then(Value::as_str) {
        entries.push(("Note".to_string(), d.replace('\n', " ")));
    }
    Ok(SwfTrace {
        name: "batsim workload".into(),
        header: SwfHeader::from_entries(entries),
        records,
        ..SwfTrace::default()
    })
}

/// The numbers jobs go by in Batsim (`w0!NUMBER`, a job table's `job_id`):
/// the trace's job numbers when they are unique, else slasim's ids.
pub fn job_numbers(jobs: &[Job]) -> Vec<i64> {
    let mut seen = HashSet::with_capacity(jobs.len());
    if jobs.iter().all(|j| seen.insert(j.swf_id)) {
        jobs.iter().map(|j| j.swf_id).collect()
    } else {
        jobs.iter().map(|j| i64::from(j.id)).collect()
    }
}

/// The name of the delay profile of a job running `runtime` seconds.
pub fn delay_profile_name(runtime: Time) -> String {
    format!("delay{runtime}")
}

/// `jobs` on a machine of `capacity` as a Batsim workload.
pub fn to_json(jobs: &[Job], capacity: u32, description: &str) -> Value {
    let numbers = job_numbers(jobs);
    let mut profiles: BTreeMap<Time, Value> = BTreeMap::new();
    let list: Vec<Value> = jobs
        .iter()
        .zip(&numbers)
        .map(|(j, &id)| {
            profiles.entry(j.runtime).or_insert_with(|| json!({"type": "delay", "delay": j.runtime as f64}));
            json!({
                "id": id,
                "subtime": j.occurrence as f64,
                "res": j.nodes,
                "walltime": j.estimate as f64,
                "profile": delay_profile_name(j.runtime),
            })
        })
        .collect();
    let profiles: Map<String, Value> = profiles.into_iter().map(|(r, p)| (delay_profile_name(r), p)).collect();
    json!({
        "description": description,
        "nb_res": capacity,
        "jobs": list,
        "profiles": profiles,
    })
}
