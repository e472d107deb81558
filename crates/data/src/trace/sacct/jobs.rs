//! A sacct dump's jobs as Slurm recorded them: jobs that ask a partition for
//! CPUs, nodes, memory and GPUs, on behalf of a user in an account, under a
//! QOS, with a time limit (what the SWF conversion flattens, kept). The Slurm
//! kind replays them; its synthetic months are made of them too.
//!
//! Contract:
//! - [`SlurmWorkload`] holds the jobs in submit order (ties by Slurm job id)
//!   and the names their numeric fields index: `users[job.user]`,
//!   `accounts[job.account]`, `partitions[job.partition]` (and each of
//!   `job.partitions` for a job submitted to several), `qos[job.qos]`.
//!   Names are numbered from 0 in order of first appearance.
//! - Partition names are only names here: the Slurm kind's machine
//!   resolves them and refuses a job whose partition it does not define,
//!   naming the job's [`Origin`].
//! - Times are seconds; submit times are relative to the first job's (0).
//! - [`Tres`] counts are a job's totals (sacct's `ReqTRES`/`AllocTRES`):
//!   CPUs, memory in MiB, nodes and GPUs (`gres/gpu`) over the whole job.
//! - [`Relations`]: what ties a job to others: its name
//!   (`names[relations.name]`, for `singleton`), its array (array job id,
//!   task id and the array's `%N` throttle) and its dependency, as written
//!   (job ids, not indices: the Slurm kind resolves them).

use std::path::PathBuf;

use slasim_sim::units::Time;

/// Trackable resources: a request or an allocation, totals over the job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tres {
    /// CPUs (cores).
    pub cpus: u32,
    /// Memory in MiB (0: none asked).
    pub mem_mib: u64,
    /// Nodes (at least 1 for a real request).
    pub nodes: u32,
    /// GPUs (`gres/gpu`).
    pub gpus: u32,
}

/// How a logged job ended (sacct's state, in classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// COMPLETED.
    Completed,
    /// FAILED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE.
    Failed,
    /// TIMEOUT: it ran to its time limit.
    Timeout,
    /// CANCELLED or PREEMPTED after it started.
    Cancelled,
}

/// What the log says actually happened to a job (absent for synthetic jobs).
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    /// Start, on the workload's time axis.
    pub start: Time,
    /// End, on the workload's time axis.
    pub end: Time,
    /// What it was given (`AllocTRES`, else the request).
    pub alloc: Tres,
    /// The nodes it ran on, as sacct wrote them (`NodeList`), if dumped.
    pub node_list: Option<String>,
    /// How it ended.
    pub ending: Ending,
    /// Its runs before the logged one, each ended by a requeue (the
    /// earlier lines of a `sacct --duplicates` dump).
    pub requeued: u32,
}

/// Where a job came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Line `line` of a sacct dump.
    Dump { path: PathBuf, line: u64 },
    /// The synthetic generator's job number.
    Synthetic { index: u64 },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Dump { path, line } => write!(f, "{}:{line}", path.display()),
            Origin::Synthetic { index } => write!(f, "synthetic job {index}"),
        }
    }
}

/// One job.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmJob {
    /// Slurm's job id (array tasks: their own `JobIDRaw`), or the synthetic number.
    pub id: u64,
    /// Index into [`SlurmWorkload::users`].
    pub user: u32,
    /// Index into [`SlurmWorkload::accounts`].
    pub account: u32,
    /// Index into [`SlurmWorkload::partitions`]: the partition it ran in
    /// (for a job submitted to several, the first of them when the log
    /// does not say).
    pub partition: u32,
    /// A job submitted to several partitions (`sbatch -p a,b`): each of
    /// them, indices into [`SlurmWorkload::partitions`], in the order
    /// written, without repeats; empty for a job of one partition.
    pub partitions: Vec<u32>,
    /// Index into [`SlurmWorkload::qos`].
    pub qos: u32,
    /// When it may first start: its submission, or its eligible time (its
    /// `--begin`) when the dump has it and it is later.
    pub submit: Time,
    /// When it was submitted (sacct's `Submit`): `submit`, or earlier for a
    /// job submitted to begin later. Slurm knows it from then on.
    pub submitted: Time,
    /// Time limit in seconds (`None`: the partition's default or maximum).
    pub time_limit: Option<Time>,
    /// How long it runs once started (capped by its time limit when simulated).
    pub run_time: Time,
    /// What it asks for.
    pub request: Tres,
    /// What the log says happened, if it comes from one.
    pub logged: Option<Logged>,
    /// Where it came from.
    pub origin: Origin,
    /// sacct's `Constraints`: the node features it asked for (`None`: none).
    pub constraints: Option<String>,
    /// sacct's `Reservation`: the advance reservation it named (`None`: none).
    pub reservation: Option<String>,
    /// Its name, array and dependency (none for most jobs).
    pub relations: Relations,
}

/// What ties a job to other jobs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Relations {
    /// Index into [`SlurmWorkload::names`] (its `JobName`), if it has one.
    pub name: Option<u32>,
    /// Its array, if it is an array task.
    pub array: Option<ArrayTask>,
    /// Its dependency, if it was submitted with one.
    pub dependency: Option<Dependency>,
    /// `--kill-on-invalid-dep`: cancel it (`Some(true)`) or keep it pending
    /// (`Some(false)`) when its dependency can never be met; `None`: the
    /// cluster's `kill_invalid_depend`.
    pub kill_on_invalid_dep: Option<bool>,
}

/// An array task: `array_job_id_task_id`, and its array's throttle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayTask {
    /// The array job id (`123` of `123_4`).
    pub job: u64,
    /// The task id (`4` of `123_4`).
    pub task: u64,
    /// The array's `%N`: at most this many of its tasks run at once (0: no cap).
    pub throttle: u32,
}

/// A dependency type Slurm 22.05 defines and the twin models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DependKind {
    /// `after`: the job has started (or was cancelled).
    After,
    /// `afterany`: the job has ended.
    AfterAny,
    /// `afterok`: the job has ended successfully.
    AfterOk,
    /// `afternotok`: the job has ended unsuccessfully.
    AfterNotOk,
    /// `singleton`: no other job of the user with the same name runs, and
    /// none submitted before it is pending.
    Singleton,
}

impl DependKind {
    /// Slurm's name of it.
    pub fn name(self) -> &'static str {
        match self {
            DependKind::After => "after",
            DependKind::AfterAny => "afterany",
            DependKind::AfterOk => "afterok",
            DependKind::AfterNotOk => "afternotok",
            DependKind::Singleton => "singleton",
        }
    }
}

/// One dependency on one job (an array job id alone: all its tasks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DependOn {
    /// Its type.
    pub kind: DependKind,
    /// The job id (0 for `singleton`).
    pub job: u64,
    /// An array task id (`123_4`); `None`: the job, or every task of the
    /// array `job` (`123`, `123_*`).
    pub task: Option<u64>,
}

/// A job's dependency: its parts, all needed (`,`) or any one (`?`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependency {
    /// Any one part suffices (the string used `?`).
    pub any: bool,
    /// The parts, in the order written.
    pub on: Vec<DependOn>,
}

/// Jobs and the names they index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlurmWorkload {
    /// In submit order.
    pub jobs: Vec<SlurmJob>,
    /// User names.
    pub users: Vec<String>,
    /// Account names.
    pub accounts: Vec<String>,
    /// Partition names.
    pub partitions: Vec<String>,
    /// QOS names.
    pub qos: Vec<String>,
    /// Job names ([`Relations::name`]).
    pub names: Vec<String>,
    /// The Unix time of submit time 0, when the dump gave absolute times.
    pub epoch: Option<i64>,
    /// Submit time 0 on the dump's own clock: epoch seconds, or wall-clock
    /// time read as if UTC (`None`: not from a dump). Places other files of
    /// the same clock (reservations) on the workload's time axis.
    pub clock_origin: Option<i64>,
}

impl SlurmWorkload {
    /// The index of `name` in `names`, added at the end when new.
    pub fn intern(names: &mut Vec<String>, name: &str) -> u32 {
        match names.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                names.push(name.to_string());
                (names.len() - 1) as u32
            }
        }
    }
}
