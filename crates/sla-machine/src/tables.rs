//! The sla-machine points' store group, by descriptors: `sla_machine_points`
//! (one row per point: its settings and measures) and `sla_machine_jobs`
//! (one row per job of its battery).
//!
//! Contract: a point's rows are written in one transaction
//! ([`crate::kind::write_point`]); absent values are NULL.

use slasim_core::store::columns::{Described, Rows, Table, column};
use slasim_core::store::tables::groups::{PointTables, all};

use crate::battery::{JobResult, Measures};

/// A point's row.
#[derive(Debug, Clone)]
pub struct PointRow {
    /// Its id.
    pub point_id: i64,
    /// The pods, or a sacct dump, as the config names them (NULL: the
    /// synthetic workload).
    pub trace: Option<String>,
    /// The node list as the config names it (NULL: beside the pods).
    pub nodes: Option<String>,
    /// The `slurm.conf` as the config names it (NULL: the pods' node list).
    pub conf: Option<String>,
    /// The synthetic workload's days (NULL: none).
    pub synthetic_days: Option<f64>,
    /// The synthetic workload's offered load (NULL: none).
    pub synthetic_load: Option<f64>,
    /// A strategy on the machine, or `slurm`.
    pub strategy: String,
    /// The planner's node choice (NULL under Slurm).
    pub node_choice: Option<String>,
    /// The planners' failure model.
    pub failures: &'static str,
    /// The acceptance test of overbooked windows (none: no overbooking).
    pub acceptance: Option<&'static str>,
    /// PoF_max of the PoF test.
    pub pof_max: Option<f64>,
    /// The risk test's security factor.
    pub security_factor: Option<f64>,
    /// The SLA terms rule.
    pub sla_terms: String,
    /// Its deadline factor.
    pub deadline_factor: f64,
    /// Its penalty ratio.
    pub penalty_ratio: f64,
    /// Batteries the pods are cut into.
    pub batteries: i64,
    /// This point's battery.
    pub battery: i64,
    /// Submissions come this many times as fast as the trace's.
    pub load: f64,
    /// `logged` or `sampled`.
    pub arrivals: &'static str,
    /// Pods of a sampled battery.
    pub jobs: Option<i64>,
    /// Seed of a sampled battery.
    pub seed: Option<i64>,
    /// Reservations in % of the battery's jobs (none: no reservations).
    pub reservation_percent: Option<f64>,
    /// Their start factor.
    pub start_factor: Option<f64>,
    /// `reject` or `move`.
    pub reservation_option: Option<&'static str>,
    /// Its measures.
    pub measures: Measures,
    /// Its canonical settings.
    pub config: String,
    /// The slasim version that ran it.
    pub code_version: String,
}

/// The row type of `sla_machine_points`.
pub enum Points {}

impl Rows for Points {
    type Row<'a> = &'a PointRow;
    type Summary = ();
}

/// Each point.
pub static SLA_MACHINE_POINTS: Table<Points> = Table::new(
    "sla_machine_points",
    16,
    "One row per sla-machine point: one battery of jobs on their machine under one strategy, with the SLA terms applied.",
)
.key(&["point_id"])
.columns(&[
    column!("point_id", Int, "the point's id", |r| r.point_id),
    column!("trace", Text null, "the pods, or under a slurm.conf a sacct dump, as the config names them (NULL: the synthetic workload)", |r| r.trace.as_deref()),
    column!("nodes", Text null, "the node list as the config names it (NULL: the one beside the pods)", |r| r.nodes.as_deref()),
    column!("strategy", Text, "a strategy on the machine (`slasim list machine-strategies`) or `slurm` (the twin)", |r| r.strategy.as_str()),
    column!("node_choice", Text null, "the planner's node choice (NULL under Slurm)", |r| r.node_choice.as_deref()),
    column!("sla_terms", Text, "the SLA terms rule", |r| r.sla_terms.as_str()),
    column!("deadline_factor", Real, "the rule's deadline factor", |r| r.deadline_factor),
    column!("penalty_ratio", Real, "the rule's penalty ratio", |r| r.penalty_ratio),
    column!("batteries", Int, "batteries the pods are cut into", |r| r.batteries),
    column!("battery", Int, "this point's battery, from 0", |r| r.battery),
    column!("load", Real, "submissions come this many times as fast as the trace's", |r| r.load),
    column!("arrivals", Text, "`logged` (a slice of the trace) or `sampled` (pods drawn, Poisson arrivals)", |r| r.arrivals),
    column!("sampled_jobs", Int null, "pods of a sampled battery (NULL: logged arrivals)", |r| r.jobs),
    column!("seed", Int null, "seed of a sampled battery's draws, of its failures and of its reservations (NULL: logged arrivals, no failures, no reservations)", |r| r.seed),
    column!("jobs", Int, "jobs of the battery", |r| r.measures.jobs),
    column!("accepted", Int, "jobs accepted (Slurm rejects none)", |r| r.measures.accepted),
    column!("rejected", Int, "jobs rejected", |r| r.measures.rejected),
    column!("late", Int, "jobs that ended after their deadline", |r| r.measures.late),
    column!("fees", Real, "fees earned, VC", |r| r.measures.fees),
    column!("penalties", Real, "penalties paid, VC", |r| r.measures.penalties),
    column!("gain", Real, "fees minus penalties, VC", |r| r.measures.gain),
    column!("wait_mean", Real null, "mean wait of the jobs that started, reservations aside, s (NULL: none started)", |r| r.measures.wait_mean),
    column!("wait_p95", Real null, "95th-percentile wait (nearest rank) of the same jobs, s (NULL: none started)", |r| r.measures.wait_p95),
    column!("cpu_use", Real, "share of the machine's CPUs the jobs held over the battery's span", |r| r.measures.cpu_use),
    column!("mem_use", Real, "share of its memory", |r| r.measures.mem_use),
    column!("gpu_use", Real, "share of its GPU thousandths (a card Slurm gives for a share counts whole)", |r| r.measures.gpu_use),
    column!("config", Text, "the point's canonical settings (TOML)", |r| r.config.as_str()),
    column!("code_version", Text, "the slasim version that ran it", |r| r.code_version.as_str()),
    column!("failures", Text, "the node failure model, of the planners and the twin alike (`none`, `poisson`, `weibull`, `hyperexp`)", |r| r.failures; default "'none'"),
    column!("failed", Int, "accepted jobs node failures kept from ending", |r| r.measures.failed; default "0"),
    column!("conf", Text null, "the slurm.conf as the config names it (NULL: the pods' own node list)", |r| r.conf.as_deref()),
    column!("synthetic_days", Real null, "days of the synthetic workload's submissions (NULL: a trace's jobs)", |r| r.synthetic_days),
    column!("synthetic_load", Real null, "the synthetic workload's offered load per partition (NULL: a trace's jobs)", |r| r.synthetic_load),
    column!("gpu_frag", Real null, "mean share of its GPU thousandths fragmented for the battery's own jobs, first submission to last (Weng et al., ATC 2023, §3.2; NULL: no GPU, or stored before the measure)", |r| r.measures.gpu_frag),
    column!("acceptance", Text null, "the acceptance test of overbooked windows, `pof` or `risk` (NULL: the strategy does not overbook)", |r| r.acceptance),
    column!("pof_max", Real null, "PoF_max of the PoF test (NULL: no PoF test)", |r| r.pof_max),
    column!("security_factor", Real null, "the risk test's security factor (NULL: no risk test)", |r| r.security_factor),
    column!("overbooked", Int, "jobs whose run ended in an overbooked window (shorter than their estimate)", |r| r.measures.overbooked; default "0"),
    column!("killed", Int, "overbooked jobs killed at the end of their window (they pay their penalty)", |r| r.measures.killed; default "0"),
    column!("reservation_percent", Real null, "paper B's reservations, % of the battery's jobs (NULL: none)", |r| r.reservation_percent),
    column!("start_factor", Real null, "the reservations' start factor (NULL: no reservations)", |r| r.start_factor),
    column!("reservation_option", Text null, "what a reservation does to a planned job in its way: `reject` or `move` (NULL: no reservations)", |r| r.reservation_option),
    column!("reservations", Int, "reservations among the jobs", |r| r.measures.reservations; default "0"),
    column!("reservations_accepted", Int, "of those, accepted", |r| r.measures.reservations_accepted; default "0"),
    column!("moved", Int, "jobs moved later for a reservation at least once", |r| r.measures.moved; default "0"),
]);

/// A job of a point.
#[derive(Debug, Clone, Copy)]
pub struct StoredJob<'a> {
    /// The point.
    pub point_id: i64,
    /// The job.
    pub job: &'a JobResult,
}

/// The row type of `sla_machine_jobs`.
pub enum Jobs {}

impl Rows for Jobs {
    type Row<'a> = StoredJob<'a>;
    type Summary = ();
}

/// Each job of each point.
pub static SLA_MACHINE_JOBS: Table<Jobs> = Table::new(
    "sla_machine_jobs",
    16,
    "One row per job of an sla-machine point: when it was submitted, started and ended, where, and what it earned.",
)
.key(&["point_id", "job"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "sla_machine_points(point_id)"),
    column!("job", Int, "its number in the battery, from 0 (in submission order)", |r| r.job.job),
    column!("line", Int null, "its line in the trace file (NULL: a synthetic job)", |r| r.job.line),
    column!("submit", Int, "its submission in the battery, s", |r| r.job.submit),
    column!("start", Int null, "its last run's start, s (NULL: never started)", |r| r.job.start),
    column!("end", Int null, "its last run's end, or its stop by a node failure, s (NULL: never ran)", |r| r.job.end),
    column!("node", Text null, "its first node's name (NULL: never started)", |r| r.job.node.as_deref()),
    column!(
        "outcome",
        Text,
        "`success`, `late` (ended after its deadline), `failed` (node failures kept it from ending), `killed` (an overbooked job still running at the end of its window) or `rejected`",
        |r| r.job.outcome
    ),
    column!("reason", Text null, "why it was rejected (NULL: not rejected)", |r| r.job.reason.as_deref()),
    column!("deadline", Int null, "its deadline, s (NULL: none)", |r| r.job.deadline),
    column!("money", Real, "the fee earned (positive) or the penalty paid (negative), VC", |r| r.job.money),
    column!("allotment", Int null, "the length of the overbooked window its run ended in, s (NULL: booked for its whole estimate, or no run ended)", |r| r.job.allotment),
    column!("stopped", Int, "its runs stopped before their end: by a node failure, or under the twin also by preemption", |r| r.job.stopped; default "0"),
    column!("reservation", Int, "1 for a fixed reservation (paper B): a copy of the job on its line, asked to start at its release", |r| i64::from(r.job.reservation); default "0"),
    column!("moves", Int, "times it was moved later for a reservation", |r| r.job.moves; default "0"),
    column!("pinned", Int, "1 if the starvation guard pinned it", |r| i64::from(r.job.pinned); default "0"),
]);

/// The group's tables, in creation order.
pub fn described() -> Vec<&'static dyn Described> {
    vec![&SLA_MACHINE_POINTS, &SLA_MACHINE_JOBS]
}

/// The sla-machine points.
pub static GROUP: PointTables = PointTables {
    key_table: "sla_machine_points",
    key: "point_id",
    metrics: "sla_machine_points",
    tables: &[all("sla_machine_points"), all("sla_machine_jobs")],
    described,
    steps: &[],
    views: &[],
    ids_since: None,
    jobs: None,
    provenance: Some("SELECT point_id AS point, trace, seed, config, code_version FROM sla_machine_points"),
};
