//! The tables of a single-cluster or Grid run: `runs`, `battery_jobs`,
//! `job_outcomes`, `node_events`, `reservations`, `energy` and `energy_states`.
//!
//! Contract: `battery_jobs` holds a battery's inputs once, `job_outcomes`
//! and `reservations` one row per job or reservation of a run (the jobs
//! view joins them back); none of them is read back by the store.

use crate::cluster::energy::{Energy, EnergyConfig, MeteredState};
use crate::cluster::record::{JobRecord, NodeEventRecord, Outcome};
use crate::workload::failures::NodeEventKind;
use crate::workload::job::{Job, NO_DEADLINE};
use slasim_core::experiment::id::PointId;
use slasim_core::experiment::provenance::{code_version, rfc3339};
use slasim_core::store::columns::{Column, Described, Index, Rows, Table, column};
use std::time::SystemTime;

/// One run ready to be stored.
#[derive(Debug, Clone)]
pub struct RunRow {
    /// Stable id (from the resolved settings).
    pub run_id: i64,
    /// Strategy name.
    pub strategy: String,
    /// Battery index.
    pub battery: i64,
    /// Identity of the battery's jobs (workload, preparation, battery).
    pub battery_key: i64,
    /// Trace name.
    pub trace: String,
    /// Seed.
    pub seed: u64,
    /// Cluster size.
    pub capacity: u32,
    /// Resolved settings, TOML.
    pub config: String,
    /// sha256 of `config`, hex.
    pub config_hash: String,
    /// slasim version (and git commit when known).
    pub code_version: String,
    /// Wall-clock start, RFC 3339 UTC.
    pub started_at: String,
    /// Wall-clock end, RFC 3339 UTC.
    pub finished_at: String,
    /// Wall seconds the simulation took.
    pub wall_seconds: f64,
}

/// What a `runs` row says of its point, whatever kind of point it is.
#[derive(Debug, Clone, Copy)]
pub struct RunOf<'a> {
    /// Strategy name.
    pub strategy: &'a str,
    /// Battery index.
    pub battery: usize,
    /// Identity of the battery's jobs.
    pub battery_key: i64,
    /// Trace name.
    pub trace: &'a str,
    /// Seed.
    pub seed: u64,
    /// Cluster size.
    pub capacity: u32,
}

impl RunRow {
    /// The row of the point whose canonical settings are `config` (its id
    /// is theirs), simulated from `started` for `wall_seconds`, finished now.
    pub fn new(of: RunOf<'_>, config: String, started: SystemTime, wall_seconds: f64) -> RunRow {
        let id = PointId::of(&config);
        RunRow {
            run_id: id.run_id,
            strategy: of.strategy.to_string(),
            battery: of.battery as i64,
            battery_key: of.battery_key,
            trace: of.trace.to_string(),
            seed: of.seed,
            capacity: of.capacity,
            config,
            config_hash: id.hash,
            code_version: code_version(),
            started_at: rfc3339(started),
            finished_at: rfc3339(SystemTime::now()),
            wall_seconds,
        }
    }
}

/// The row type of `runs`.
pub enum Runs {}

impl Rows for Runs {
    type Row<'a> = &'a RunRow;
    type Summary = ();
}

/// One run.
pub static RUNS: Table<Runs> = Table::new(
    "runs",
    1,
    "One row per single-cluster or Grid run: its strategy, battery, trace, seed, capacity and resolved settings.",
)
.key(&["run_id"])
.columns(&[
    column!("run_id", Int, "stable: derived from the run's resolved settings", |r| r.run_id),
    column!("strategy", Text, "the strategy's name (`slasim list strategies`)", |r| r.strategy.as_str()),
    column!("battery", Int, "the battery's index", |r| r.battery),
    column!("battery_key", Int, "the battery's jobs in battery_jobs", |r| r.battery_key),
    column!("trace", Text, "the trace, as the user named it", |r| r.trace.as_str()),
    column!("seed", Int, "the seed", |r| r.seed as i64),
    column!("capacity", Int, "the cluster's nodes (in the run's node unit)", |r| r.capacity),
    column!("config", Text, "the resolved settings, TOML", |r| r.config.as_str()),
    column!("config_hash", Text, "sha256 of `config`", |r| r.config_hash.as_str()),
    column!("code_version", Text, "the slasim version (and commit) that ran it", |r| r.code_version.as_str()),
    column!("started_at", Text, "wall clock (UTC), informational only: when the run started, RFC 3339", |r| {
        r.started_at.as_str()
    }),
    column!("finished_at", Text, "wall clock (UTC), informational only: when it ended, RFC 3339", |r| {
        r.finished_at.as_str()
    }),
    column!("wall_seconds", Real, "wall seconds the simulation took", |r| r.wall_seconds),
]);

/// An SWF field as stored: NULL where the log leaves it unknown (−1).
fn known(field: i64) -> Option<i64> {
    (field != -1).then_some(field)
}

/// A battery's job.
#[derive(Debug, Clone, Copy)]
pub struct BatteryJobRow<'a> {
    /// The battery's identity.
    pub battery_key: i64,
    /// The job.
    pub job: &'a Job,
}

/// The row type of `battery_jobs`.
pub enum BatteryJobs {}

impl Rows for BatteryJobs {
    type Row<'a> = BatteryJobRow<'a>;
    type Summary = ();
}

/// A battery's jobs, stored once.
pub static BATTERY_JOBS: Table<BatteryJobs> =
    Table::new("battery_jobs", 1, "A battery's jobs, stored once and shared by every run of that battery.")
        .key(&["battery_key", "job"])
        .without_rowid()
        .columns(&[
            column!("battery_key", Int, "the battery's identity (workload, preparation, battery)", |r| r.battery_key),
            column!("job", Int, "index within the battery", |r| r.job.id),
            column!("swf_id", Int, "the SWF job number it came from", |r| r.job.swf_id),
            column!("occurrence", Int, "its submission time, s", |r| r.job.occurrence),
            column!("release", Int, "the earliest start it allows, s", |r| r.job.release),
            column!("deadline", Int null, "the latest end it allows, s (NULL: none)", |r| {
                (r.job.deadline != NO_DEADLINE).then_some(r.job.deadline)
            }; null_was "2305843009213693951"),
            column!("estimate", Int, "the user's runtime estimate, s", |r| r.job.estimate),
            column!("runtime", Int, "its real runtime, s", |r| r.job.runtime),
            column!("nodes", Int, "the nodes it requests (in the run's node unit)", |r| r.job.nodes),
            column!("user", Int null, "the SWF user id (NULL: unknown)", |r| known(r.job.user); null_was "-1"),
            column!("application", Int null, "the SWF executable number (NULL: unknown)", |r| known(r.job.application); null_was "-1"),
            column!("queue", Int null, "the SWF queue number (NULL: unknown)", |r| known(r.job.queue); null_was "-1"),
        ]);

/// A job (or reservation) of a run and what became of it.
#[derive(Debug, Clone, Copy)]
pub struct JobRow<'a> {
    /// The run.
    pub run_id: i64,
    /// The job.
    pub job: &'a Job,
    /// Its record.
    pub record: &'a JobRecord,
    /// The cluster it ran on (0 in a single-cluster run).
    pub cluster: u32,
    /// The calibrated PoF its acceptance test read, if the run calibrated.
    pub pof_calibrated: Option<f64>,
}

/// The row type of `job_outcomes` and `reservations`.
pub enum Jobs {}

impl Rows for Jobs {
    type Row<'a> = JobRow<'a>;
    type Summary = ();
}

/// What became of each job of a run.
pub static JOB_OUTCOMES: Table<Jobs> = Table::new(
    "job_outcomes",
    1,
    "What became of each job in each run: acceptance, planned and actual start and end, PoF, fee, penalty.",
)
.columns(OUTCOME_COLUMNS);

// No key and no index: rows are appended in commit order (an index on the
// hashed run ids would double the cost of every insert); reports scan it.
const OUTCOME_COLUMNS: &[Column<Jobs>] = &[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("job", Int, "the job's index within the battery", |r| r.record.job),
    column!("accepted", Int, "1 if accepted at its occurrence, else 0", |r| r.record.accepted),
    column!("planned_start", Int null, "planned start of its booking, s (NULL: not accepted)", |r| {
        r.record.planned_start
    }),
    column!("planned_end", Int null, "planned end of its booking, s (NULL: not accepted)", |r| r.record.planned_end),
    column!("actual_start", Int null, "start of its last execution, s (NULL: it never started)", |r| {
        r.record.actual_start
    }),
    column!("actual_end", Int null, "end of its last execution, s (NULL: it never started)", |r| r.record.actual_end),
    column!("overbooked", Int, "1 if booked shorter than its estimate", |r| r.record.overbooked),
    column!("pof", Real null, "predicted probability of failure at acceptance (NULL: none predicted)", |r| r.record.pof),
    column!("outcome", Int, "1 success, 2 failed, 3 rejected (the jobs view shows the names)", |r| {
        r.record.outcome.map_or(2, Outcome::code)
    }),
    column!("fee", Real, "earned: the job's fee if it succeeded, else 0", |r| r.record.fee(r.job)),
    column!("penalty", Real, "paid: the job's penalty if it failed, else 0", |r| r.record.penalty(r.job)),
    column!("restarts", Int, "executions started after the first (restarts after node failures)", |r| {
        r.record.restarts
    }),
    column!("executed", Int, "seconds of execution, all attempts", |r| r.record.executed),
    column!("moves", Int, "times moved later for a reservation", |r| r.record.moves; since 2; default "0"),
    column!("pinned", Int, "pinned by the starvation guard (1) or not", |r| r.record.pinned; since 2; default "0"),
    column!("checkpoints", Int, "checkpoints written at kills", |r| r.record.checkpoints; since 2; default "0"),
    column!("cluster", Int, "the cluster it ran on: 0 for single-cluster runs", |r| r.cluster; since 4; default "0"),
    column!("pof_calibrated", Real null, "the calibrated PoF the acceptance test read (NULL: the run did not calibrate)", |r| {
        r.pof_calibrated
    }; since 7),
];

/// A run's advance reservations (paper B).
pub static RESERVATIONS: Table<Jobs> = Table::new(
    "reservations",
    2,
    "Advance reservations of a run (paper B): requested start, acceptance, outcome, fee and penalty.",
)
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("reservation", Int, "its id in the run (after the battery's jobs)", |r| r.job.id),
    column!("swf_id", Int, "the SWF job it copies", |r| r.job.swf_id),
    column!("submit", Int, "its submission time, s", |r| r.job.occurrence),
    column!("requested_start", Int, "the start it asks for, s", |r| r.job.release),
    column!("nodes", Int, "the nodes it requests", |r| r.job.nodes),
    column!("estimate", Int, "its requested duration, s", |r| r.job.estimate),
    column!("runtime", Int, "its real runtime, s", |r| r.job.runtime),
    column!("accepted", Int, "1 if accepted, else 0", |r| r.record.accepted),
    column!("reason", Text null, "why it was rejected (NULL: accepted)", |r| {
        r.record.reject_reason.map(|x| x.as_str())
    }),
    column!("actual_start", Int null, "when it started, s (NULL: it never started)", |r| r.record.actual_start),
    column!("actual_end", Int null, "when it ended, s (NULL: it never started)", |r| r.record.actual_end),
    column!("outcome", Text, "`success`, `failed` or `rejected`", |r| {
        r.record.outcome.unwrap_or(Outcome::Failed).as_str()
    }; check "outcome IN ('success', 'failed', 'rejected')"),
    column!("fee", Real, "earned: its fee if it succeeded, else 0", |r| r.record.fee(r.job)),
    column!("penalty", Real, "paid: its penalty if it failed, else 0", |r| r.record.penalty(r.job)),
]);

/// A node failure or repair of a run.
#[derive(Debug, Clone, Copy)]
pub struct NodeEventRow<'a> {
    /// The run.
    pub run_id: i64,
    /// Its position among the run's events.
    pub seq: usize,
    /// The event.
    pub event: &'a NodeEventRecord,
}

/// The row type of `node_events`.
pub enum NodeEvents {}

impl Rows for NodeEvents {
    type Row<'a> = NodeEventRow<'a>;
    type Summary = ();
}

/// Node failures and repairs.
pub static NODE_EVENTS: Table<NodeEvents> = Table::new("node_events", 1, "Node failures and repairs each run saw.")
    .indexes(&[Index { name: "node_events_by_run", columns: &["run_id"] }])
    .columns(&[
        column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
        column!("seq", Int, "its position among the run's events", |r| r.seq as i64),
        column!("time", Int, "when it happened, s", |r| r.event.time),
        column!("node", Int, "the node", |r| r.event.node),
        column!("kind", Text, "`fail` or `repair`", |r| match r.event.kind {
            NodeEventKind::Fail => "fail",
            NodeEventKind::Repair => "repair",
        }; check "kind IN ('fail', 'repair')"),
        column!("job", Int null, "the running job a failure interrupted (NULL: none)", |r| r.event.job),
    ]);

/// A cluster's energy meter reading.
#[derive(Debug, Clone, Copy)]
pub struct EnergyRow<'a> {
    /// The run.
    pub run_id: i64,
    /// The cluster (0 in a single-cluster run).
    pub cluster: u32,
    /// The meter's watts.
    pub watts: &'a EnergyConfig,
    /// Its reading.
    pub energy: &'a Energy,
}

/// The row type of `energy`.
pub enum Energies {}

impl Rows for Energies {
    type Row<'a> = EnergyRow<'a>;
    type Summary = ();
}

/// Energy per run and cluster.
pub static ENERGY: Table<Energies> = Table::new(
    "energy",
    10,
    "An energy meter's reading per run and cluster: idle, busy and down node-seconds over the makespan window, and joules.",
)
.key(&["run_id", "cluster"])
.without_rowid()
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("cluster", Int, "the cluster: 0 in a single-cluster run", |r| r.cluster),
    column!("idle_watts", Real, "[energy]: watts of an idle node", |r| r.watts.idle_watts),
    column!("busy_watts", Real, "[energy]: watts of a node running a job", |r| r.watts.busy_watts),
    column!("down_watts", Real, "[energy]: watts of a failed node", |r| r.watts.down_watts),
    column!("idle_node_seconds", Real, "idle node-seconds over the makespan window: first submission to last end", |r| {
        r.energy.idle_node_seconds
    }),
    column!("busy_node_seconds", Real, "busy node-seconds over the makespan window", |r| r.energy.busy_node_seconds),
    column!("down_node_seconds", Real, "failed node-seconds over the makespan window", |r| r.energy.down_node_seconds),
    column!("joules", Real, "Σ watts × node-seconds", |r| r.energy.joules),
]);

/// One node power state's share of a cluster's energy.
#[derive(Debug, Clone, Copy)]
pub struct EnergyStateRow {
    /// The run.
    pub run_id: i64,
    /// The cluster (0 in a single-cluster run).
    pub cluster: u32,
    /// The state.
    pub state: MeteredState,
    /// A node's watts in it.
    pub watts: f64,
    /// Node-seconds in it.
    pub node_seconds: f64,
    /// Their joules.
    pub joules: f64,
    /// Transitions into it begun (switching states only).
    pub transitions: u32,
}

/// The row type of `energy_states`.
pub enum EnergyStates {}

impl Rows for EnergyStates {
    type Row<'a> = EnergyStateRow;
    type Summary = ();
}

/// Seconds and joules per node power state, per run and cluster.
pub static ENERGY_STATES: Table<EnergyStates> = Table::new(
    "energy_states",
    11,
    "Per run and cluster with an energy meter: node-seconds, joules and transitions per node power state over the makespan window.",
)
.key(&["run_id", "cluster", "state"])
.without_rowid()
.columns(&[
    column!("run_id", Int, "the run", |r| r.run_id; references "runs(run_id)"),
    column!("cluster", Int, "the cluster: 0 in a single-cluster run", |r| r.cluster),
    column!("state", Text, "the power state: idle, busy, down, switching-off, asleep, switching-on", |r| {
        r.state.as_str()
    }),
    column!("watts", Real, "a node's watts in the state ([energy], [energy.sleep])", |r| r.watts),
    column!("node_seconds", Real, "node-seconds in it over the makespan window: first submission to last end", |r| {
        r.node_seconds
    }),
    column!("joules", Real, "watts × node-seconds", |r| r.joules),
    column!("transitions", Int, "switch-offs or switch-ons begun (0 for the other states)", |r| r.transitions),
]);

/// The `energy_states` rows of a reading: one per state.
pub fn energy_state_rows(run_id: i64, cluster: u32, w: &EnergyConfig, e: &Energy) -> [EnergyStateRow; 6] {
    let watts = w.state_watts();
    std::array::from_fn(|k| {
        let state = MeteredState::ALL[k];
        let transitions = match state {
            MeteredState::SwitchingOff => e.switches.0,
            MeteredState::SwitchingOn => e.switches.1,
            _ => 0,
        };
        EnergyStateRow {
            run_id,
            cluster,
            state,
            watts: watts[k],
            node_seconds: e.states[k].0,
            joules: e.states[k].1,
            transitions,
        }
    })
}

/// This module's tables.
pub fn tables() -> [&'static dyn Described; 7] {
    [&RUNS, &BATTERY_JOBS, &JOB_OUTCOMES, &NODE_EVENTS, &RESERVATIONS, &ENERGY, &ENERGY_STATES]
}
