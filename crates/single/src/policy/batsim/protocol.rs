//! The Batsim protocol's messages: what slasim sends, and the decisions it reads.
//!
//! Reference: Batsim's protocol documentation (oar-team/batsim,
//! `docs/protocol.rst`, and `docs/interval-set.rst` for allocations), in the
//! version pybatsim 3.2.1 speaks: a message is `{"now": t, "events": [...]}`,
//! each event `{"timestamp": t, "type": T, "data": {...}}`; job ids are
//! `WORKLOAD!NUMBER`; resources are interval sets such as `"0-3 7 9-12"`.
//!
//! Contract:
//! - [`Decision::parse`] reads one event of a scheduler's reply. Anything the
//!   simulator cannot apply — a missing or mistyped field, an unknown type, a
//!   malformed interval set, a decision for something slasim does not model
//!   (dynamic jobs, queries other than `consumed_energy`) — is an error that
//!   names the event; nothing here panics on what a scheduler sends.
//!   SET_RESOURCE_STATE's `state` is a pstate number, as Batsim's string
//!   (`"3"`) or a JSON integer; whether the platform has it, and whether the
//!   cluster has power states at all, is the strategy's check.
//! - With a power model, SIMULATION_BEGINS gives each compute resource the
//!   properties Batsim forwards from an energy platform: `wattage_per_state`
//!   (`idle:busy` per pstate: the computing pstates `0..k`, the sleep pstate
//!   `k`, the switching-off and switching-on virtual pstates `k+1`, `k+2`,
//!   a transition's watts being its joules over its seconds), `wattage_off`
//!   (the sleep watts) and `sleep_pstates` (`k:k+1:k+2`), `k` being
//!   `[energy] compute_pstates`, or the number of `[[energy.pstates]]`,
//!   each with its own watts (without a sleep state, only
//!   `wattage_per_state`).
//! - [`parse_reply`] checks the message frame: `now` and `events` present,
//!   event timestamps non-decreasing, none before the request's `now` nor after
//!   the reply's `now`.
//! - Times go out as JSON floats in seconds (slasim's clock is whole seconds).

use serde_json::{Map, Value, json};

use crate::cluster::energy::EnergyConfig;
use crate::workload::batsim::delay_profile_name;
use slasim_core::units::{NodeId, Time};

/// A set of resource ids, as sorted disjoint closed intervals.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IntervalSet(pub Vec<(NodeId, NodeId)>);

impl IntervalSet {
    /// Parses Batsim's text form (`"0-3 7 9-12"`), refusing overlaps,
    /// reversed intervals and anything else.
    pub fn parse(text: &str) -> Result<IntervalSet, String> {
        let mut out: Vec<(NodeId, NodeId)> = Vec::new();
        for token in text.split_whitespace() {
            let (a, b) = match token.split_once('-') {
                Some((a, b)) => (a, b),
                None => (token, token),
            };
            let parse = |s: &str| s.parse::<NodeId>().map_err(|_| format!("`{token}` is not a resource id or range"));
            let (a, b) = (parse(a)?, parse(b)?);
            if a > b {
                return Err(format!("`{token}` is a reversed range"));
            }
            out.push((a, b));
        }
        if out.is_empty() {
            return Err(format!("`{text}` names no resource"));
        }
        out.sort_unstable();
        for w in out.windows(2) {
            if w[1].0 <= w[0].1 {
                return Err(format!("resource {} appears twice in `{text}`", w[1].0));
            }
        }
        Ok(IntervalSet(out))
    }

    /// The set of `nodes` (any order, no duplicates needed).
    pub fn from_nodes(nodes: &[NodeId]) -> IntervalSet {
        let mut sorted = nodes.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut out: Vec<(NodeId, NodeId)> = Vec::new();
        for n in sorted {
            match out.last_mut() {
                Some(last) if last.1 + 1 == n => last.1 = n,
                _ => out.push((n, n)),
            }
        }
        IntervalSet(out)
    }

    /// Number of resources.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|&(a, b)| u64::from(b - a) + 1).sum()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends every member, ascending, to `out`.
    pub fn members(&self, out: &mut Vec<NodeId>) {
        for &(a, b) in &self.0 {
            out.extend(a..=b);
        }
    }
}

impl std::fmt::Display for IntervalSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, &(a, b)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if a == b { write!(f, "{a}")? } else { write!(f, "{a}-{b}")? }
        }
        Ok(())
    }
}

/// Batsim's final job states (JOB_COMPLETED's `job_state`, the job table's `final_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    /// Ran its profile before its walltime.
    CompletedSuccessfully,
    /// Stopped by a machine failure.
    CompletedFailed,
    /// Killed at its walltime.
    CompletedWalltimeReached,
    /// Killed by the scheduler (KILL_JOB).
    CompletedKilled,
    /// Rejected by the scheduler.
    Rejected,
}

impl JobState {
    /// Its name in the protocol and the job table.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::CompletedSuccessfully => "COMPLETED_SUCCESSFULLY",
            JobState::CompletedFailed => "COMPLETED_FAILED",
            JobState::CompletedWalltimeReached => "COMPLETED_WALLTIME_REACHED",
            JobState::CompletedKilled => "COMPLETED_KILLED",
            JobState::Rejected => "REJECTED",
        }
    }
}

/// The workload name slasim gives its jobs (`w0!NUMBER`).
pub const WORKLOAD: &str = "w0";

/// A job as JOB_SUBMITTED describes it.
#[derive(Debug, Clone, Copy)]
pub struct JobDescription<'a> {
    /// `w0!NUMBER`.
    pub id: &'a str,
    /// Submission time.
    pub subtime: Time,
    /// Requested resources.
    pub res: u32,
    /// Requested time (the walltime, at which the job is killed).
    pub walltime: Time,
    /// Profile name.
    pub profile: &'a str,
}

impl JobDescription<'_> {
    /// Its JSON object.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "subtime": self.subtime as f64,
            "res": self.res,
            "walltime": self.walltime as f64,
            "profile": self.profile,
        })
    }
}

/// A slasim time as Batsim time, in seconds. The instant 0 goes out as
/// 1 µs: pybatsim's scheduler API (`batsim.sched`) refuses to allocate at
/// time 0 (its `Allocation` asserts a positive start), and Batsim's own clock
/// is past 0 once the first exchange is over. Decisions dated within the
/// second still apply at 0.
pub fn batsim_time(t: Time) -> f64 {
    if t == 0 { 1e-6 } else { t as f64 }
}

/// One event.
pub fn event(now: Time, kind: &str, data: Value) -> Value {
    json!({"timestamp": batsim_time(now), "type": kind, "data": data})
}

/// The properties Batsim gives a compute resource of an energy platform
/// (see the module contract); empty without a sleep state.
pub fn power_properties(power: Option<&EnergyConfig>) -> Value {
    let Some(m) = power else { return json!({}) };
    let k = m.computing_pstates();
    let mut states: Vec<String> = (0..k as usize)
        .map(|i| {
            let (idle, busy) = m.pstate_watts(i);
            format!("{idle:?}:{busy:?}")
        })
        .collect();
    let Some(sleep) = m.sleep else {
        if m.pstates.is_empty() {
            return json!({});
        }
        return json!({ "wattage_per_state": states.join(", ") });
    };
    for w in [sleep.watts, sleep.switch_off_watts(), sleep.switch_on_watts()] {
        states.push(format!("{w:?}:{w:?}"));
    }
    json!({
        "wattage_per_state": states.join(", "),
        "wattage_off": format!("{:?}", sleep.watts),
        "sleep_pstates": format!("{k}:{}:{}", k + 1, k + 2),
    })
}

/// SIMULATION_BEGINS for `capacity` idle compute machines (with the power
/// states of `power`, if any) and one workload whose delay profiles are
/// `runtimes` (distinct).
pub fn simulation_begins(capacity: u32, workload_path: &str, runtimes: &[Time], power: Option<&EnergyConfig>) -> Value {
    let properties = power_properties(power);
    let resources: Vec<Value> = (0..capacity)
        .map(|i| json!({"id": i, "name": format!("node{i}"), "state": "idle", "properties": properties}))
        .collect();
    let mut profiles = Map::new();
    for &r in runtimes {
        profiles.insert(delay_profile_name(r), json!({"type": "delay", "delay": r as f64}));
    }
    let mut workloads = Map::new();
    workloads.insert(WORKLOAD.to_string(), Value::String(workload_path.to_string()));
    let mut by_workload = Map::new();
    by_workload.insert(WORKLOAD.to_string(), Value::Object(profiles));
    event(
        0,
        "SIMULATION_BEGINS",
        json!({
            "nb_resources": capacity,
            "nb_compute_resources": capacity,
            "nb_storage_resources": 0,
            "allow_compute_sharing": false,
            "allow_storage_sharing": false,
            "config": {
                "redis-enabled": false,
                "redis-hostname": "127.0.0.1",
                "redis-port": 6379,
                "redis-prefix": "default",
                "profiles-forwarded-on-submission": false,
                "dynamic-jobs-enabled": false,
                "dynamic-jobs-acknowledged": false,
                "profile-reuse-enabled": false,
                "forward-unknown-events": false,
            },
            "compute_resources": resources,
            "storage_resources": [],
            "workloads": workloads,
            "profiles": by_workload,
        }),
    )
}

/// A message `{"now": now, "events": events}` as text.
pub fn message(now: Time, events: &[Value]) -> String {
    let mut text = String::with_capacity(64 + 160 * events.len());
    text.push_str("{\"now\":");
    text.push_str(&Value::from(batsim_time(now)).to_string());
    text.push_str(",\"events\":[");
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&e.to_string());
    }
    text.push_str("]}");
    text
}

/// A decision of a scheduler's reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// EXECUTE_JOB: start `job` on `alloc`.
    Execute { job: String, alloc: IntervalSet },
    /// REJECT_JOB.
    Reject { job: String },
    /// KILL_JOB.
    Kill { jobs: Vec<String> },
    /// CALL_ME_LATER at `at` seconds.
    CallMeLater { at: f64 },
    /// SET_RESOURCE_STATE: put `resources` in pstate `state`.
    SetResourceState { resources: IntervalSet, state: u64 },
    /// QUERY of `consumed_energy` (the only query answered).
    QueryEnergy,
    /// NOTIFY, SET_JOB_METADATA: nothing for the simulation to do.
    Ignored,
}

/// A reply that cannot be applied; `what` names the event.
#[derive(Debug, Clone, PartialEq)]
pub struct BadReply {
    /// The event (its type and data as received), or the frame.
    pub event: String,
    /// What is wrong.
    pub why: String,
}

fn short(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > 200 {
        let mut cut = 200;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

fn field<'a>(data: &'a Value, name: &str) -> Result<&'a Value, String> {
    data.get(name).ok_or_else(|| format!("its data has no `{name}`"))
}

fn string(data: &Value, name: &str) -> Result<String, String> {
    field(data, name)?.as_str().map(str::to_string).ok_or_else(|| format!("`{name}` is not a string"))
}

impl Decision {
    /// Reads one event of a reply.
    pub fn parse(event: &Value) -> Result<(f64, Decision), BadReply> {
        let bad = |why: String| BadReply { event: short(event), why };
        let kind = event.get("type").and_then(Value::as_str).ok_or_else(|| bad("the event has no `type`".into()))?;
        let timestamp =
            event.get("timestamp").and_then(Value::as_f64).ok_or_else(|| bad("the event has no `timestamp`".into()))?;
        let empty = Value::Object(Map::new());
        let data = event.get("data").unwrap_or(&empty);
        let decision = match kind {
            "EXECUTE_JOB" => {
                let job = string(data, "job_id").map_err(bad)?;
                let alloc = string(data, "alloc").map_err(bad)?;
                let alloc = IntervalSet::parse(&alloc).map_err(|e| bad(format!("bad allocation: {e}")))?;
                Decision::Execute { job, alloc }
            }
            "REJECT_JOB" => Decision::Reject { job: string(data, "job_id").map_err(bad)? },
            "KILL_JOB" => {
                let ids = field(data, "job_ids")
                    .map_err(bad)?
                    .as_array()
                    .ok_or_else(|| bad("`job_ids` is not a list".into()))?;
                let jobs = ids
                    .iter()
                    .map(|v| v.as_str().map(str::to_string).ok_or_else(|| bad(format!("job id {v} is not a string"))))
                    .collect::<Result<_, _>>()?;
                Decision::Kill { jobs }
            }
            "CALL_ME_LATER" => {
                let at = field(data, "timestamp")
                    .map_err(bad)?
                    .as_f64()
                    .ok_or_else(|| bad("`timestamp` is not a number".into()))?;
                Decision::CallMeLater { at }
            }
            "NOTIFY" | "SET_JOB_METADATA" => Decision::Ignored,
            "SET_RESOURCE_STATE" => {
                let resources = string(data, "resources").map_err(bad)?;
                let resources = IntervalSet::parse(&resources).map_err(|e| bad(format!("bad resource set: {e}")))?;
                let state = field(data, "state").map_err(bad)?;
                let number = match state {
                    Value::String(s) => s.trim().parse::<u64>().ok(),
                    Value::Number(n) => n.as_u64(),
                    _ => None,
                };
                let state = number.ok_or_else(|| bad(format!("`state` {} is not a pstate number", short(state))))?;
                Decision::SetResourceState { resources, state }
            }
            "QUERY" => {
                let requests = field(data, "requests")
                    .map_err(bad)?
                    .as_object()
                    .ok_or_else(|| bad("`requests` is not an object".into()))?;
                if requests.is_empty() {
                    return Err(bad("`requests` asks for nothing".into()));
                }
                if let Some(other) = requests.keys().find(|k| *k != "consumed_energy") {
                    return Err(bad(format!("slasim answers only `consumed_energy` queries, not `{other}`")));
                }
                Decision::QueryEnergy
            }
            "REGISTER_JOB" | "REGISTER_PROFILE" => {
                return Err(
                    bad("dynamic job registration is disabled (config `dynamic-jobs-enabled` is false)".into()),
                );
            }
            "CHANGE_JOB_STATE" | "TO_JOB_MSG" | "RESOURCES_ADDED" | "RESOURCES_REMOVED" => {
                return Err(bad(format!("{kind} is not supported by slasim")));
            }
            other => return Err(bad(format!("unknown event type `{other}`"))),
        };
        Ok((timestamp, decision))
    }
}

/// Checks a reply's frame and returns its events: `now` and `events` present,
/// timestamps non-decreasing, none before `request_now`, none after the reply's `now`.
pub fn parse_reply(text: &str, request_now: Time) -> Result<Vec<Value>, BadReply> {
    let frame = |why: String| BadReply { event: "the reply".into(), why };
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let mut shown: String = text.chars().take(120).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        frame(format!("is not JSON ({e}): {shown:?}"))
    })?;
    let now = value.get("now").and_then(Value::as_f64).ok_or_else(|| frame("has no number `now`".into()))?;
    let Some(Value::Array(events)) = value.get("events").cloned() else {
        return Err(frame("has no list `events`".into()));
    };
    // A scheduler answers at or after the instant it was told about.
    if now + 1e-6 < request_now as f64 {
        return Err(frame(format!("is dated now = {now}, before the request's now = {request_now}")));
    }
    let mut last = f64::NEG_INFINITY;
    for e in &events {
        let t = e.get("timestamp").and_then(Value::as_f64).unwrap_or(f64::NAN);
        if t.is_nan() {
            return Err(BadReply { event: short(e), why: "the event has no number `timestamp`".into() });
        }
        if t < last {
            return Err(BadReply { event: short(e), why: "timestamps are not in ascending order".into() });
        }
        if t + 1e-6 < request_now as f64 || t > now + 1e-6 {
            return Err(BadReply {
                event: short(e),
                why: format!("its timestamp {t} is outside [{request_now}, {now}] (the request's and reply's now)"),
            });
        }
        // slasim's clock is whole seconds and decisions take no time: a
        // decision dated a second or more later would need Batsim's model of
        // the scheduler's own delay, which is not modelled.
        if t >= (request_now + 1) as f64 {
            return Err(BadReply {
                event: short(e),
                why: format!(
                    "its timestamp {t} is a second or more after the request's now = {request_now} \
                     (decision delays are not modelled: answer at the instant asked)"
                ),
            });
        }
        last = t;
    }
    Ok(events)
}
