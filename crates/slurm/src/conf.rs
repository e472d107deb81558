//! The subset of `slurm.conf` that decides scheduling, read with located errors.
//!
//! Source: Slurm 22.05's `slurm.conf(5)` man page (NodeName, PartitionName,
//! PriorityType and the PriorityWeight* family, PriorityDecayHalfLife,
//! PriorityMaxAge, PriorityFavorSmall, PriorityCalcPeriod, SchedulerType,
//! SchedulerParameters, SelectType, SelectTypeParameters) and `gres.conf(5)`
//! for `Gres=gpu[:type][:no_consume]:count`.
//!
//! The text's lines and pairs are `lex`'s, hostlists `hostlist`'s, and
//! each key's value syntax `values`'s; this module holds the settings and
//! the parser that reads each key.
//!
//! Contract:
//! - [`read`] / [`parse`] take the file's text: `#` comments, blank lines,
//!   `\` line continuations, `Key=Value` pairs separated by blanks, keys
//!   case-insensitive, values possibly quoted. `NodeName=` and
//!   `PartitionName=` lines take hostlists (`cpu[1-4,7],gpu[01-02]`) and
//!   `NodeName=DEFAULT` / `PartitionName=DEFAULT` set defaults for the lines
//!   after them. A partition may name nodes defined further down: its
//!   `Nodes` are resolved once the whole file is read. With `Boards`,
//!   `Sockets` counts sockets per board (as in slurm.conf(5)).
//! - `Gres` counts `gpu` only, and keeps its type when it names one
//!   (`gpu:a100:4`: four GPUs of model `a100`, [`NodeDef::gpu_model`], the
//!   node's GPU model in the shared machine model; a node of two types has
//!   GPUs without a model, noted among the ignored; jobs are placed by GPU
//!   count); `SchedulerParameters` entries other than
//!   `bf_window`, `bf_resolution`, `bf_interval`, `bf_max_job_test`,
//!   `bf_continue`, `default_queue_depth` and `sched_interval` are kept in
//!   [`SchedulerSettings::other`]; `Include`, `DownNodes`, `NodeSet` and
//!   `FrontendName` lines are not followed.
//! - Read, not modelled yet (parsed and checked, kept in [`SlurmConf`] and
//!   listed in [`SlurmConf::unmodelled`]: a global setting when its value
//!   is not Slurm's default, since the default is what the twin does; a
//!   node or partition setting whenever given): `PreemptMode` with
//!   `SUSPEND`, `GANG` or `WITHIN` (global and per partition; a run refuses
//!   them), and `PriorityWeightQOS` (without a QOS dump
//!   the QOS factor is 0: QOS priorities live in slurmdbd).
//! - Modelled by the controller: `EnforcePartLimits` (`ALL`, `ANY`, `NO`;
//!   `YES` is `ANY`), `AccountingStorageEnforce` (`associations`,
//!   `limits`, `nojobs`, `nosteps`, `qos`, `safe`, `wckeys`, `all`, with
//!   the man page's implications; `limits` turns the dumps' limits on),
//!   `bf_max_job_user`, `bf_max_job_part`, `bf_one_resv_per_job` and
//!   `kill_invalid_depend` ([`crate::dependency`]) in `SchedulerParameters`.
//! - Modelled beyond priority and the schedulers: `PreemptType`
//!   (`preempt/none`, `preempt/partition_prio`, `preempt/qos`),
//!   `PreemptMode` `OFF`, `CANCEL` and `REQUEUE` (global and per
//!   partition) and `PreemptExemptTime` (time syntax): preemption
//!   ([`crate::preemption`]); `TRESBillingWeights`
//!   (global and per partition: `CPU=1.0,Mem=0.25G,GRES/gpu=2`, a unit on a
//!   weight is per that unit, stored per MiB): the usage charged to
//!   fair-share ([`crate::bench`]); node `Feature`/`Features` (comma list):
//!   the nodes a job's constraint allows ([`crate::features`]);
//!   `DefMemPerCPU` and `MaxMemPerCPU` (MiB, global and per partition; 0 or
//!   `UNLIMITED`: none): a job's memory and CPUs at submit
//!   ([`crate::memory`]); `ResvOverRun` (whole minutes or `UNLIMITED`):
//!   how long a job runs past its reservation's end ([`crate::advance`]);
//!   a partition's `QOS`: its limits ([`crate::accounting`]).
//! - Everything it does not read is listed in [`SlurmConf::ignored`] (line
//!   and key), never dropped silently; the CLI prints both lists.
//! - Bad input is a [`ConfError`] naming the file, the line and the field:
//!   a value that is not a number, a duration or a size; `Gres` without a
//!   count; more GPU types over all
//!   nodes than the machine model holds ([`slasim_machine::MAX_MODELS`]);
//!   a partition naming a node no `NodeName` line defines; a
//!   partition over no nodes; a node or partition defined twice; no nodes
//!   or no partitions at all; a `PriorityType`, `SchedulerType`,
//!   `SelectType` or `SelectTypeParameters` slasim does not model.
//! - Durations are seconds here: `MaxTime`/`DefaultTime` in Slurm's time
//!   syntax (minutes, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`, `D-HH:MM:SS`,
//!   `UNLIMITED`/`INFINITE`/`-1` → `None`); `PriorityDecayHalfLife` and
//!   `PriorityMaxAge` in the same syntax; `PriorityCalcPeriod` in minutes
//!   (or the time syntax); `bf_window` in minutes, `bf_resolution` and
//!   `bf_interval` in seconds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::preemption::mode::{PreemptAction, PreemptMode, parse_preempt_mode};
use slasim_sim::units::Time;

mod hostlist;
mod lex;
mod values;

pub use hostlist::expand_hostlist;
use lex::{Pair, logical_lines, tokenize};
pub(crate) use values::uint;
use values::*;
pub use values::{Clock, Gres, parse_gres, parse_time, stamp};

/// One node, its hostlist expanded.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeDef {
    /// Its name.
    pub name: String,
    /// `CPUs` (default 1; else Boards×Sockets×CoresPerSocket×ThreadsPerCore if given).
    pub cpus: u32,
    /// `RealMemory` in MiB (default 1).
    pub real_memory_mib: u64,
    /// GPUs from `Gres=gpu[:type]:N` (0 without).
    pub gpus: u32,
    /// The GPUs' type from `Gres=gpu:type:N`, when it names one and the
    /// node has GPUs.
    pub gpu_model: Option<String>,
    /// `Weight` (default 1): lower weights are allocated first.
    pub weight: u32,
    /// `Feature`/`Features`, as written.
    pub features: Vec<String>,
    /// The line that defined it.
    pub line: u64,
}

/// One partition.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionDef {
    /// `PartitionName`.
    pub name: String,
    /// Indices into [`SlurmConf::nodes`] of its `Nodes` (`ALL`: every node), in node order.
    pub nodes: Vec<usize>,
    /// `MaxTime` in seconds (`None`: UNLIMITED/INFINITE, the default).
    pub max_time: Option<Time>,
    /// `DefaultTime` in seconds (`None`: MaxTime applies).
    pub default_time: Option<Time>,
    /// `PriorityTier` (default 1).
    pub priority_tier: u32,
    /// `PriorityJobFactor` (default 1).
    pub priority_job_factor: u32,
    /// `MaxNodes` (`None`: unlimited).
    pub max_nodes: Option<u32>,
    /// `Default=YES`.
    pub default: bool,
    /// `State=UP` (default) — jobs of a partition that is not up never start.
    pub up: bool,
    /// `PreemptMode` (`None`: the cluster's; read, not modelled yet).
    pub preempt_mode: Option<PreemptMode>,
    /// `TRESBillingWeights` (`None`: the cluster's): what its jobs are charged.
    pub billing_weights: Option<Vec<(String, f64)>>,
    /// `DefMemPerCPU`, MiB (`None`: the cluster's).
    pub def_mem_per_cpu: Option<u64>,
    /// `MaxMemPerCPU`, MiB (`None`: the cluster's).
    pub max_mem_per_cpu: Option<u64>,
    /// `QOS`: the partition QOS, whose limits apply to its jobs beside their
    /// own QOS's ([`crate::accounting`]; `None`: none).
    pub qos: Option<String>,
    /// The line that defined it.
    pub line: u64,
}

/// `SelectTypeParameters`: what cons_tres allocates besides cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Consumable {
    /// `CR_Core` / `CR_CPU`: cores only; memory is not a limit.
    #[default]
    Core,
    /// `CR_Core_Memory` / `CR_CPU_Memory`: cores and memory.
    CoreMemory,
}

/// The multifactor priority settings (`Priority*`).
#[derive(Debug, Clone, PartialEq)]
pub struct PrioritySettings {
    /// `PriorityType=priority/multifactor` (else `priority/basic`: FIFO by submit).
    pub multifactor: bool,
    /// `PriorityWeightAge`.
    pub weight_age: f64,
    /// `PriorityWeightAssoc`.
    pub weight_assoc: f64,
    /// `PriorityWeightFairshare`.
    pub weight_fairshare: f64,
    /// `PriorityWeightJobSize`.
    pub weight_job_size: f64,
    /// `PriorityWeightPartition`.
    pub weight_partition: f64,
    /// `PriorityWeightQOS`.
    pub weight_qos: f64,
    /// `PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=3000`: (TRES name lower-cased, weight).
    pub weight_tres: Vec<(String, f64)>,
    /// `PriorityDecayHalfLife` in seconds (default 7 days; 0: no decay).
    pub decay_half_life: Time,
    /// `PriorityMaxAge` in seconds (default 7 days).
    pub max_age: Time,
    /// `PriorityFavorSmall=YES`.
    pub favor_small: bool,
    /// `PriorityCalcPeriod` in seconds (default 5 minutes).
    pub calc_period: Time,
    /// `PriorityFlags` as written (upper-cased, comma-separated), for the docs' checks.
    pub flags: Vec<String>,
}

impl Default for PrioritySettings {
    fn default() -> Self {
        PrioritySettings {
            multifactor: false,
            weight_age: 0.0,
            weight_assoc: 0.0,
            weight_fairshare: 0.0,
            weight_job_size: 0.0,
            weight_partition: 0.0,
            weight_qos: 0.0,
            weight_tres: Vec::new(),
            decay_half_life: 7 * 86_400,
            max_age: 7 * 86_400,
            favor_small: false,
            calc_period: 300,
            flags: Vec::new(),
        }
    }
}

/// Slurm's `YEAR_SECONDS`: what it takes for "for ever" in a time setting.
pub const YEAR_SECONDS: Time = 365 * 86_400;

/// The scheduler settings (`SchedulerType`, `SchedulerParameters`).
#[derive(Debug, Clone, PartialEq)]
pub struct SchedulerSettings {
    /// `SchedulerType=sched/backfill` (else `sched/builtin`: no backfill).
    pub backfill: bool,
    /// `bf_window` in seconds (default 1440 minutes).
    pub bf_window: Time,
    /// `bf_resolution` in seconds (default 60).
    pub bf_resolution: Time,
    /// `bf_max_job_test` (default 500).
    pub bf_max_job_test: u32,
    /// `bf_continue`.
    pub bf_continue: bool,
    /// `bf_interval` in seconds (default 30).
    pub bf_interval: Time,
    /// `default_queue_depth` (default 100).
    pub default_queue_depth: u32,
    /// `sched_interval` in seconds (default 60).
    pub sched_interval: Time,
    /// `bf_max_job_user` (0, the default: no limit).
    pub bf_max_job_user: u32,
    /// `bf_max_job_part` (0, the default: no limit).
    pub bf_max_job_part: u32,
    /// `kill_invalid_depend`: a job whose dependency can never be met is
    /// cancelled (else it stays pending).
    pub kill_invalid_depend: bool,
    /// `bf_one_resv_per_job`: a job of several partitions gets at most one
    /// start estimate (and reservation) per backfill pass.
    pub bf_one_resv_per_job: bool,
    /// Other `SchedulerParameters` entries, as written, for the ignored list.
    pub other: Vec<String>,
}

impl Default for SchedulerSettings {
    fn default() -> Self {
        SchedulerSettings {
            backfill: true,
            bf_window: 1440 * 60,
            bf_resolution: 60,
            bf_max_job_test: 500,
            bf_continue: false,
            bf_interval: 30,
            default_queue_depth: 100,
            sched_interval: 60,
            bf_max_job_user: 0,
            bf_max_job_part: 0,
            kill_invalid_depend: false,
            bf_one_resv_per_job: false,
            other: Vec::new(),
        }
    }
}

/// `PreemptType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PreemptType {
    /// `preempt/none` (the default).
    #[default]
    None,
    /// `preempt/partition_prio`.
    PartitionPrio,
    /// `preempt/qos`.
    Qos,
}

/// The preemption settings (modelled by [`crate::preemption`]). Two are
/// equal when their settings are: the lines, where they were read, are not
/// compared.
#[derive(Debug, Clone, Copy, Eq)]
pub struct PreemptSettings {
    /// `PreemptType`.
    pub preempt_type: PreemptType,
    /// `PreemptMode` (default `OFF`).
    pub mode: PreemptMode,
    /// `PreemptExemptTime` in seconds (`None`: not set).
    pub exempt_time: Option<Time>,
    /// The line of `PreemptType` (0: not given).
    pub type_line: u64,
    /// The line of `PreemptMode` (0: not given).
    pub mode_line: u64,
}

/// `slurm_cred.c`'s `DEFAULT_EXPIRATION_WINDOW`, seconds.
pub const DEFAULT_CRED_EXPIRE: Time = 120;

impl PartialEq for PreemptSettings {
    fn eq(&self, other: &Self) -> bool {
        (self.preempt_type, self.mode, self.exempt_time) == (other.preempt_type, other.mode, other.exempt_time)
    }
}

impl Default for PreemptSettings {
    fn default() -> Self {
        PreemptSettings {
            preempt_type: PreemptType::None,
            mode: PREEMPT_OFF,
            exempt_time: None,
            type_line: 0,
            mode_line: 0,
        }
    }
}

/// What becomes of a batch job taken off its nodes before its end, by
/// preemption in `REQUEUE` mode or by a node failure (modelled by
/// [`crate::controller::requeue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequeueSettings {
    /// `JobRequeue` (default 1): a batch job may be requeued. With 0 it is
    /// killed instead (`_job_requeue_op` refuses, `ESLURM_DISABLED`).
    pub allowed: bool,
    /// Seconds after its requeue before a requeued job may start again:
    /// `batch_requeue_fini` sets its `begin_time` to now plus the launch
    /// credential's lifetime plus 1. That lifetime is `AuthInfo`'s
    /// `cred_expire` (`slurm_cred.c`: 120 s by default; below 5, the
    /// default).
    pub delay: Time,
}

impl Default for RequeueSettings {
    fn default() -> Self {
        RequeueSettings { allowed: true, delay: DEFAULT_CRED_EXPIRE + 1 }
    }
}

/// `PreemptMode=OFF`.
pub const PREEMPT_OFF: PreemptMode = PreemptMode { action: PreemptAction::Off, gang: false, within: false };

/// `EnforcePartLimits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnforcePartLimits {
    /// `NO` (the default): a job over a partition's limits is queued, not rejected.
    #[default]
    No,
    /// `ANY` (also `YES`): rejected unless one of its partitions can take it.
    Any,
    /// `ALL`: rejected unless all of its partitions can take it.
    All,
}

/// `AccountingStorageEnforce`, with the man page's implications applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccountingEnforce {
    /// `associations` (also implied by `limits`, `qos`, `safe`, `wckeys`, `all`).
    pub associations: bool,
    /// `limits` (also implied by `safe`).
    pub limits: bool,
    /// `nojobs`.
    pub nojobs: bool,
    /// `nosteps`.
    pub nosteps: bool,
    /// `qos`.
    pub qos: bool,
    /// `safe`.
    pub safe: bool,
    /// `wckeys`.
    pub wckeys: bool,
}

/// Settings read, not modelled yet: what a centre configures beyond
/// priority and the schedulers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SiteSettings {
    /// Preemption.
    pub preempt: PreemptSettings,
    /// Requeues (`JobRequeue`, `AuthInfo`'s `cred_expire`).
    pub requeue: RequeueSettings,
    /// `TRESBillingWeights`: (TRES name lower-cased, weight per unit, per MiB for memory).
    pub billing_weights: Vec<(String, f64)>,
    /// `DefMemPerCPU`, MiB.
    pub def_mem_per_cpu: Option<u64>,
    /// `MaxMemPerCPU`, MiB.
    pub max_mem_per_cpu: Option<u64>,
    /// `EnforcePartLimits`.
    pub enforce_part_limits: EnforcePartLimits,
    /// `AccountingStorageEnforce`.
    pub accounting_enforce: AccountingEnforce,
    /// `ResvOverRun` in seconds: how long a job may run past the end of
    /// its reservation (minutes in the file; `UNLIMITED`: a year).
    pub resv_over_run: Time,
}

/// A setting of the file that slasim does not read (or reads, but does not model yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// Its line.
    pub line: u64,
    /// Its key as written (or `SchedulerParameters: name` for one entry).
    pub key: String,
}

/// What a `slurm.conf` says about scheduling.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmConf {
    /// The file it was read from.
    pub path: PathBuf,
    /// Every node, in file order.
    pub nodes: Vec<NodeDef>,
    /// Every partition, in file order.
    pub partitions: Vec<PartitionDef>,
    /// `SelectTypeParameters`.
    pub consumable: Consumable,
    /// Priority.
    pub priority: PrioritySettings,
    /// The schedulers.
    pub scheduler: SchedulerSettings,
    /// Preemption, billing, memory defaults and enforcement (read, not modelled yet).
    pub site: SiteSettings,
    /// Settings read and checked whose value the simulation does not model yet.
    pub unmodelled: Vec<Ignored>,
    /// Settings not read.
    pub ignored: Vec<Ignored>,
}

/// A located error in a `slurm.conf`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {field}: {detail}", path = .path.display())]
pub struct ConfError {
    /// The file.
    pub path: PathBuf,
    /// The line (1-based; 0 for the file as a whole).
    pub line: u64,
    /// The key at fault (`PartitionName=gpu Nodes`, `PriorityWeightAge`, …).
    pub field: String,
    /// What is wrong, and the value.
    pub detail: String,
}

/// Reads the file at `path`.
pub fn read(path: &Path) -> Result<SlurmConf, ConfError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfError {
        path: path.to_path_buf(),
        line: 0,
        field: "file".into(),
        detail: format!("cannot read: {e}"),
    })?;
    parse(&text, path)
}

/// Parses `text`, read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<SlurmConf, ConfError> {
    let mut parser = Parser {
        path,
        conf: SlurmConf {
            path: path.to_path_buf(),
            nodes: Vec::new(),
            partitions: Vec::new(),
            consumable: Consumable::default(),
            priority: PrioritySettings::default(),
            scheduler: SchedulerSettings::default(),
            site: SiteSettings::default(),
            unmodelled: Vec::new(),
            ignored: Vec::new(),
        },
        node_default: NodeAttrs::default(),
        part_default: PartAttrs::default(),
        node_index: HashMap::new(),
        gpu_models: Vec::new(),
        pending: Vec::new(),
    };
    // Editors on Windows may leave a byte-order mark before the first key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (line, body) in logical_lines(text) {
        parser.line(line, &body)?;
    }
    parser.finish()
}

/// A `NodeName` line's attributes; unset ones come from `NodeName=DEFAULT`.
#[derive(Debug, Clone, Default)]
struct NodeAttrs {
    cpus: Option<u32>,
    real_memory_mib: Option<u64>,
    /// `Gres`: the GPU count and type.
    gres: Option<(u32, Option<String>)>,
    weight: Option<u32>,
    features: Option<Vec<String>>,
    boards: Option<u32>,
    sockets: Option<u32>,
    cores_per_socket: Option<u32>,
    threads_per_core: Option<u32>,
}

impl NodeAttrs {
    /// `self` with the fields `over` sets replaced.
    fn overlay(&self, over: &NodeAttrs) -> NodeAttrs {
        NodeAttrs {
            cpus: over.cpus.or(self.cpus),
            real_memory_mib: over.real_memory_mib.or(self.real_memory_mib),
            gres: over.gres.clone().or_else(|| self.gres.clone()),
            weight: over.weight.or(self.weight),
            features: over.features.clone().or_else(|| self.features.clone()),
            boards: over.boards.or(self.boards),
            sockets: over.sockets.or(self.sockets),
            cores_per_socket: over.cores_per_socket.or(self.cores_per_socket),
            threads_per_core: over.threads_per_core.or(self.threads_per_core),
        }
    }

    /// `CPUs`, else the topology's product (with `Boards`, `Sockets` is per board), else 1.
    fn cpus(&self) -> Result<u32, String> {
        if let Some(cpus) = self.cpus {
            return Ok(cpus);
        }
        let topology = [self.boards, self.sockets, self.cores_per_socket, self.threads_per_core];
        topology
            .iter()
            .try_fold(1u32, |acc, n| acc.checked_mul(n.unwrap_or(1)))
            .ok_or_else(|| "Boards×Sockets×CoresPerSocket×ThreadsPerCore overflows".to_string())
    }
}

/// A `PartitionName` line's attributes; unset ones come from `PartitionName=DEFAULT`.
#[derive(Debug, Clone, Default)]
struct PartAttrs {
    nodes: Option<String>,
    max_time: Option<Option<Time>>,
    default_time: Option<Option<Time>>,
    priority_tier: Option<u32>,
    priority_job_factor: Option<u32>,
    max_nodes: Option<Option<u32>>,
    default: Option<bool>,
    up: Option<bool>,
    preempt_mode: Option<PreemptMode>,
    billing_weights: Option<Vec<(String, f64)>>,
    def_mem_per_cpu: Option<Option<u64>>,
    max_mem_per_cpu: Option<Option<u64>>,
    qos: Option<String>,
}

impl PartAttrs {
    /// `self` with the fields `over` sets replaced.
    fn overlay(&self, over: &PartAttrs) -> PartAttrs {
        PartAttrs {
            nodes: over.nodes.clone().or_else(|| self.nodes.clone()),
            max_time: over.max_time.or(self.max_time),
            default_time: over.default_time.or(self.default_time),
            priority_tier: over.priority_tier.or(self.priority_tier),
            priority_job_factor: over.priority_job_factor.or(self.priority_job_factor),
            max_nodes: over.max_nodes.or(self.max_nodes),
            default: over.default.or(self.default),
            up: over.up.or(self.up),
            preempt_mode: over.preempt_mode.or(self.preempt_mode),
            billing_weights: over.billing_weights.clone().or_else(|| self.billing_weights.clone()),
            def_mem_per_cpu: over.def_mem_per_cpu.or(self.def_mem_per_cpu),
            max_mem_per_cpu: over.max_mem_per_cpu.or(self.max_mem_per_cpu),
            qos: over.qos.clone().or_else(|| self.qos.clone()),
        }
    }
}

/// A partition whose `Nodes` are resolved once every node is known.
struct PendingPartition {
    name: String,
    line: u64,
    attrs: PartAttrs,
}

struct Parser<'a> {
    path: &'a Path,
    conf: SlurmConf,
    node_default: NodeAttrs,
    part_default: PartAttrs,
    /// Node name → index into `conf.nodes`.
    node_index: HashMap<String, usize>,
    /// The GPU types named so far, to refuse more than the machine model holds.
    gpu_models: Vec<String>,
    pending: Vec<PendingPartition>,
}

impl Parser<'_> {
    fn err(&self, line: u64, field: impl Into<String>, detail: impl Into<String>) -> ConfError {
        ConfError { path: self.path.to_path_buf(), line, field: field.into(), detail: detail.into() }
    }

    fn ignore(&mut self, line: u64, key: impl Into<String>) {
        self.conf.ignored.push(Ignored { line, key: key.into() });
    }

    /// Lists a setting read but not modelled yet.
    fn unmodelled(&mut self, line: u64, key: impl Into<String>) {
        self.conf.unmodelled.push(Ignored { line, key: key.into() });
    }

    /// One logical line.
    fn line(&mut self, line: u64, body: &str) -> Result<(), ConfError> {
        let Some(first_word) = body.split_whitespace().next() else {
            return Ok(());
        };
        // `Include file` is the one line that is not `Key=Value` pairs.
        if first_word.eq_ignore_ascii_case("include") {
            self.ignore(line, first_word);
            return Ok(());
        }
        let pairs = tokenize(body).map_err(|d| self.err(line, "syntax", d))?;
        let Some((first_key, first_value)) = pairs.first() else {
            return Ok(());
        };
        match first_key.to_ascii_lowercase().as_str() {
            "nodename" => self.node_line(line, first_value, &pairs[1..]),
            "partitionname" => self.partition_line(line, first_value, &pairs[1..]),
            // Lines whose other keys belong to them, not to the global settings.
            "nodeset" | "downnodes" | "frontendname" => {
                self.ignore(line, first_key.as_str());
                Ok(())
            }
            _ => pairs.iter().try_for_each(|(key, value)| self.global(line, key, value)),
        }
    }

    fn node_line(&mut self, line: u64, expr: &str, pairs: &[Pair]) -> Result<(), ConfError> {
        let prefix = format!("NodeName={expr}");
        let mut attrs = NodeAttrs::default();
        for (key, value) in pairs {
            let field = || format!("{prefix} {key}");
            let count = |v: &str| positive_u32(v).map_err(|d| self.err(line, field(), d));
            match key.to_ascii_lowercase().as_str() {
                "cpus" => attrs.cpus = Some(count(value)?),
                "boards" => attrs.boards = Some(count(value)?),
                "sockets" | "socketsperboard" => attrs.sockets = Some(count(value)?),
                "corespersocket" => attrs.cores_per_socket = Some(count(value)?),
                "threadspercore" => attrs.threads_per_core = Some(count(value)?),
                "realmemory" => {
                    attrs.real_memory_mib = Some(uint::<u64>(value).map_err(|d| self.err(line, field(), d))?)
                }
                "weight" => attrs.weight = Some(uint::<u32>(value).map_err(|d| self.err(line, field(), d))?),
                "feature" | "features" => {
                    // Modelled: the nodes a job's constraint allows.
                    attrs.features = Some(names_list(value));
                }
                "gres" => {
                    let gres = parse_gres(value).map_err(|d| self.err(line, field(), d))?;
                    if gres.types.len() > 1 {
                        self.ignore(
                            line,
                            format!("Gres: GPU types {} on one node (its GPUs have no model)", gres.types.join(", ")),
                        );
                    }
                    attrs.gres = Some((gres.gpus, gres.model));
                    for other in gres.others {
                        self.ignore(line, format!("Gres: {other}"));
                    }
                }
                _ => self.ignore(line, key.as_str()),
            }
        }
        if expr.eq_ignore_ascii_case("default") {
            self.node_default = self.node_default.overlay(&attrs);
            return Ok(());
        }
        let attrs = self.node_default.overlay(&attrs);
        let cpus = attrs.cpus().map_err(|d| self.err(line, format!("{prefix} CPUs"), d))?;
        let hosts = expand_hostlist(expr).map_err(|d| self.err(line, "NodeName", d))?;
        if hosts.is_empty() {
            return Err(self.err(line, "NodeName", "no node name"));
        }
        let (gpus, gpu_model) = attrs.gres.clone().unwrap_or((0, None));
        let gpu_model = gpu_model.filter(|_| gpus > 0);
        match &gpu_model {
            Some(model) if !self.gpu_models.contains(model) => {
                if self.gpu_models.len() >= slasim_machine::MAX_MODELS {
                    let detail = format!(
                        "GPU type `{model}` is one more than the {} types the machine model holds",
                        slasim_machine::MAX_MODELS
                    );
                    return Err(self.err(line, format!("{prefix} Gres"), detail));
                }
                self.gpu_models.push(model.clone());
            }
            _ => {}
        }
        for name in hosts {
            if let Some(&first) = self.node_index.get(&name) {
                let first_line = self.conf.nodes.get(first).map_or(0, |n| n.line);
                return Err(self.err(
                    line,
                    prefix,
                    format!("node `{name}` defined twice (first on line {first_line})"),
                ));
            }
            self.node_index.insert(name.clone(), self.conf.nodes.len());
            self.conf.nodes.push(NodeDef {
                name,
                cpus,
                real_memory_mib: attrs.real_memory_mib.unwrap_or(1),
                gpus,
                gpu_model: gpu_model.clone(),
                weight: attrs.weight.unwrap_or(1),
                features: attrs.features.clone().unwrap_or_default(),
                line,
            });
        }
        Ok(())
    }

    fn partition_line(&mut self, line: u64, name: &str, pairs: &[Pair]) -> Result<(), ConfError> {
        let prefix = format!("PartitionName={name}");
        let mut attrs = PartAttrs::default();
        let mut unmodelled: Vec<&str> = Vec::new();
        for (key, value) in pairs {
            let field = || format!("{prefix} {key}");
            let wrap = |d: String| self.err(line, field(), d);
            match key.to_ascii_lowercase().as_str() {
                "nodes" => attrs.nodes = Some(value.clone()),
                "maxtime" => attrs.max_time = Some(parse_time(value).map_err(wrap)?),
                "defaulttime" => attrs.default_time = Some(parse_time(value).map_err(wrap)?),
                "prioritytier" => attrs.priority_tier = Some(uint::<u32>(value).map_err(wrap)?),
                "priorityjobfactor" => attrs.priority_job_factor = Some(uint::<u32>(value).map_err(wrap)?),
                "maxnodes" => {
                    attrs.max_nodes =
                        Some(if is_unlimited(value) { None } else { Some(uint::<u32>(value).map_err(wrap)?) })
                }
                "default" => attrs.default = Some(yes_no(value).map_err(wrap)?),
                "preemptmode" => {
                    let mode = parse_preempt_mode(value).map_err(wrap)?;
                    attrs.preempt_mode = Some(mode);
                    // Preemption: CANCEL, REQUEUE and OFF are modelled; SUSPEND, GANG
                    // and WITHIN are listed (a run refuses them).
                    if !crate::preemption::mode::modelled(mode) {
                        unmodelled.push(key.as_str());
                    }
                }
                "tresbillingweights" => attrs.billing_weights = Some(parse_billing_weights(value).map_err(wrap)?),
                // Modelled ([`crate::memory`]).
                "defmempercpu" => attrs.def_mem_per_cpu = Some(mem_per_cpu(value).map_err(wrap)?),
                "maxmempercpu" => attrs.max_mem_per_cpu = Some(mem_per_cpu(value).map_err(wrap)?),
                // Modelled ([`crate::accounting`]): checked against the QOS dump when a run loads it.
                "qos" => {
                    if value.is_empty() {
                        return Err(wrap("no QOS name".into()));
                    }
                    attrs.qos = Some(value.clone());
                }
                "state" => {
                    attrs.up = Some(match value.to_ascii_uppercase().as_str() {
                        "UP" => true,
                        "DOWN" | "DRAIN" | "INACTIVE" => false,
                        _ => return Err(wrap(format!("not UP, DOWN, DRAIN or INACTIVE: `{value}`"))),
                    })
                }
                _ => self.ignore(line, key.as_str()),
            }
        }
        for key in unmodelled {
            self.unmodelled(line, format!("{prefix} {key}"));
        }
        if name.eq_ignore_ascii_case("default") {
            self.part_default = self.part_default.overlay(&attrs);
            return Ok(());
        }
        if name.is_empty() {
            return Err(self.err(line, "PartitionName", "no partition name"));
        }
        if let Some(first) = self.pending.iter().find(|p| p.name == name) {
            return Err(self.err(line, prefix, format!("partition defined twice (first on line {})", first.line)));
        }
        let attrs = self.part_default.overlay(&attrs);
        self.pending.push(PendingPartition { name: name.to_string(), line, attrs });
        Ok(())
    }

    /// A key outside `NodeName` and `PartitionName` lines.
    fn global(&mut self, line: u64, key: &str, value: &str) -> Result<(), ConfError> {
        let path = self.path;
        let wrap = |d: String| ConfError { path: path.to_path_buf(), line, field: key.into(), detail: d };
        let prio = &mut self.conf.priority;
        let sched = &mut self.conf.scheduler;
        let site = &mut self.conf.site;
        // Read, not modelled yet: listed unless the value is Slurm's default.
        let mut unmodelled = true;
        match key.to_ascii_lowercase().as_str() {
            "preempttype" => {
                site.preempt.preempt_type = match value.to_ascii_lowercase().as_str() {
                    "preempt/none" => PreemptType::None,
                    "preempt/partition_prio" => PreemptType::PartitionPrio,
                    "preempt/qos" => PreemptType::Qos,
                    _ => {
                        return Err(wrap(format!(
                            "not preempt/none, preempt/partition_prio or preempt/qos: `{value}`"
                        )));
                    }
                };
                site.preempt.type_line = line;
                // Modelled ([`crate::preemption`]).
                unmodelled = false;
            }
            "preemptmode" => {
                site.preempt.mode = parse_preempt_mode(value).map_err(wrap)?;
                site.preempt.mode_line = line;
                // CANCEL, REQUEUE and OFF are modelled; SUSPEND, GANG and WITHIN are listed.
                unmodelled = !crate::preemption::mode::modelled(site.preempt.mode);
            }
            "preemptexempttime" => {
                site.preempt.exempt_time = parse_time(value).map_err(wrap)?.filter(|&t| t > 0);
                // Modelled ([`crate::preemption`]).
                unmodelled = false;
            }
            "authinfo" => {
                // Only `cred_expire=N` decides scheduling (a requeued job's
                // delay); the authentication options are not read.
                if let Some(rest) = value.split(',').find_map(|o| o.trim().strip_prefix("cred_expire=")) {
                    let secs: Time = rest
                        .trim()
                        .parse()
                        .map_err(|_| wrap(format!("cred_expire '{rest}' is not a number of seconds")))?;
                    // `slurm_cred.c`: below 5 is an error logged, and the default used.
                    let expire = if secs < 5 { DEFAULT_CRED_EXPIRE } else { secs };
                    site.requeue.delay = expire + 1;
                } else {
                    self.ignore(line, key);
                    return Ok(());
                }
            }
            "jobrequeue" => {
                site.requeue.allowed = match value.trim() {
                    "1" => true,
                    "0" => false,
                    _ => return Err(wrap(format!("not 0 or 1: `{value}`"))),
                };
                // Modelled ([`crate::controller::requeue`]).
                unmodelled = false;
            }
            "tresbillingweights" => {
                site.billing_weights = parse_billing_weights(value).map_err(wrap)?;
                unmodelled = false;
            }
            "defmempercpu" => {
                site.def_mem_per_cpu = mem_per_cpu(value).map_err(wrap)?;
                unmodelled = false;
            }
            "maxmempercpu" => {
                site.max_mem_per_cpu = mem_per_cpu(value).map_err(wrap)?;
                unmodelled = false;
            }
            "enforcepartlimits" => {
                site.enforce_part_limits = match value.to_ascii_uppercase().as_str() {
                    "NO" => EnforcePartLimits::No,
                    "ANY" | "YES" => EnforcePartLimits::Any,
                    "ALL" => EnforcePartLimits::All,
                    _ => return Err(wrap(format!("not ALL, ANY or NO: `{value}`"))),
                };
                unmodelled = false;
            }
            "accountingstorageenforce" => {
                site.accounting_enforce = accounting_enforce(value).map_err(wrap)?;
                unmodelled = false;
            }
            "resvoverrun" => {
                // `read_slurm_conf`: whole minutes, or `UNLIMITED` (`YEAR_SECONDS`).
                site.resv_over_run =
                    if is_unlimited(value) { YEAR_SECONDS } else { Time::from(uint::<u16>(value).map_err(wrap)?) * 60 };
            }
            "priorityweightqos" => {
                prio.weight_qos = f64::from(uint::<u32>(value).map_err(wrap)?);
                unmodelled = prio.weight_qos != 0.0;
            }
            "nodename" | "partitionname" => return Err(wrap(format!("`{key}` must start its line"))),
            "prioritytype" => {
                prio.multifactor = match value.to_ascii_lowercase().as_str() {
                    "priority/multifactor" => true,
                    "priority/basic" => false,
                    _ => return Err(wrap(format!("not priority/multifactor or priority/basic: `{value}`"))),
                }
            }
            "priorityweightage" => prio.weight_age = f64::from(uint::<u32>(value).map_err(wrap)?),
            "priorityweightassoc" => prio.weight_assoc = f64::from(uint::<u32>(value).map_err(wrap)?),
            "priorityweightfairshare" => prio.weight_fairshare = f64::from(uint::<u32>(value).map_err(wrap)?),
            "priorityweightjobsize" => prio.weight_job_size = f64::from(uint::<u32>(value).map_err(wrap)?),
            "priorityweightpartition" => prio.weight_partition = f64::from(uint::<u32>(value).map_err(wrap)?),
            "priorityweighttres" => prio.weight_tres = parse_tres_weights(value).map_err(wrap)?,
            "prioritydecayhalflife" => prio.decay_half_life = bounded_time(value).map_err(wrap)?,
            "prioritymaxage" => prio.max_age = bounded_time(value).map_err(wrap)?,
            "prioritycalcperiod" => prio.calc_period = bounded_time(value).map_err(wrap)?,
            "priorityfavorsmall" => prio.favor_small = yes_no(value).map_err(wrap)?,
            "priorityflags" => {
                prio.flags =
                    value.split(',').map(str::trim).filter(|f| !f.is_empty()).map(str::to_ascii_uppercase).collect()
            }
            "schedulertype" => {
                sched.backfill = match value.to_ascii_lowercase().as_str() {
                    "sched/backfill" => true,
                    "sched/builtin" => false,
                    _ => return Err(wrap(format!("not sched/backfill or sched/builtin: `{value}`"))),
                }
            }
            "schedulerparameters" => self.scheduler_parameters(line, value)?,
            "selecttype" => match value.to_ascii_lowercase().as_str() {
                "select/cons_tres" | "select/cons_res" => {}
                _ => return Err(wrap(format!("only select/cons_tres and select/cons_res are modelled: `{value}`"))),
            },
            "selecttypeparameters" => self.select_type_parameters(line, key, value)?,
            _ => {
                self.ignore(line, key);
                return Ok(());
            }
        }
        if unmodelled
            && matches!(
                key.to_ascii_lowercase().as_str(),
                "preempttype"
                    | "preemptmode"
                    | "preemptexempttime"
                    | "tresbillingweights"
                    | "defmempercpu"
                    | "maxmempercpu"
                    | "enforcepartlimits"
                    | "accountingstorageenforce"
                    | "priorityweightqos"
            )
        {
            self.unmodelled(line, key);
        }
        Ok(())
    }

    fn scheduler_parameters(&mut self, line: u64, value: &str) -> Result<(), ConfError> {
        for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (name, arg) = match entry.split_once('=') {
                Some((name, arg)) => (name.trim(), Some(arg.trim())),
                None => (entry, None),
            };
            let field = || format!("SchedulerParameters {name}");
            // Zero would be a division by zero or an empty window downstream.
            let positive = |arg: Option<&str>| match arg {
                Some(a) => positive_u32(a).map_err(|d| self.err(line, field(), d)),
                None => Err(self.err(line, field(), "needs a value (`name=N`)")),
            };
            let count = |arg: Option<&str>| match arg {
                Some(a) => uint::<u32>(a).map_err(|d| self.err(line, field(), d)),
                None => Err(self.err(line, field(), "needs a value (`name=N`)")),
            };
            match name.to_ascii_lowercase().as_str() {
                "bf_window" => self.conf.scheduler.bf_window = Time::from(positive(arg)?) * 60,
                "bf_resolution" => self.conf.scheduler.bf_resolution = Time::from(positive(arg)?),
                "bf_interval" => self.conf.scheduler.bf_interval = Time::from(positive(arg)?),
                "bf_max_job_test" => self.conf.scheduler.bf_max_job_test = count(arg)?,
                "default_queue_depth" => self.conf.scheduler.default_queue_depth = count(arg)?,
                "sched_interval" => self.conf.scheduler.sched_interval = Time::from(count(arg)?),
                "bf_continue" => self.conf.scheduler.bf_continue = true,
                "kill_invalid_depend" => self.conf.scheduler.kill_invalid_depend = true,
                "bf_one_resv_per_job" => self.conf.scheduler.bf_one_resv_per_job = true,
                "bf_max_job_user" => {
                    self.conf.scheduler.bf_max_job_user = count(arg)?;
                }
                "bf_max_job_part" => {
                    self.conf.scheduler.bf_max_job_part = count(arg)?;
                }
                _ => {
                    self.conf.scheduler.other.push(entry.to_string());
                    self.ignore(line, format!("SchedulerParameters: {name}"));
                }
            }
        }
        Ok(())
    }

    fn select_type_parameters(&mut self, line: u64, key: &str, value: &str) -> Result<(), ConfError> {
        let mut flags = value.split(',').map(str::trim).filter(|f| !f.is_empty());
        let first = flags.next().unwrap_or("");
        self.conf.consumable = match first.to_ascii_uppercase().as_str() {
            "CR_CORE" | "CR_CPU" => Consumable::Core,
            "CR_CORE_MEMORY" | "CR_CPU_MEMORY" => Consumable::CoreMemory,
            "CR_MEMORY" | "CR_SOCKET" | "CR_SOCKET_MEMORY" => {
                return Err(self.err(
                    line,
                    key,
                    format!("`{first}` is not modelled (only CR_Core, CR_CPU, CR_Core_Memory, CR_CPU_Memory)"),
                ));
            }
            _ => {
                return Err(self.err(
                    line,
                    key,
                    format!("not CR_Core, CR_CPU, CR_Core_Memory or CR_CPU_Memory: `{first}`"),
                ));
            }
        };
        for flag in flags {
            self.ignore(line, format!("SelectTypeParameters: {flag}"));
        }
        Ok(())
    }

    /// Resolves the partitions' nodes and checks the file as a whole.
    fn finish(mut self) -> Result<SlurmConf, ConfError> {
        if self.conf.nodes.is_empty() {
            return Err(self.err(0, "NodeName", "no nodes defined"));
        }
        if self.pending.is_empty() {
            return Err(self.err(0, "PartitionName", "no PartitionName line"));
        }
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let field = format!("PartitionName={} Nodes", p.name);
            let expr = p.attrs.nodes.as_deref().unwrap_or("").trim();
            let mut nodes: Vec<usize> = if expr.eq_ignore_ascii_case("all") {
                (0..self.conf.nodes.len()).collect()
            } else {
                let hosts = expand_hostlist(expr).map_err(|d| self.err(p.line, field.as_str(), d))?;
                let mut indices = Vec::with_capacity(hosts.len());
                for host in hosts {
                    match self.node_index.get(&host) {
                        Some(&i) => indices.push(i),
                        None => {
                            return Err(self.err(
                                p.line,
                                field,
                                format!("unknown node `{host}`: no NodeName line defines it"),
                            ));
                        }
                    }
                }
                indices
            };
            if nodes.is_empty() {
                return Err(self.err(p.line, field, "a partition over no nodes"));
            }
            nodes.sort_unstable();
            nodes.dedup();
            self.conf.partitions.push(PartitionDef {
                name: p.name,
                nodes,
                max_time: p.attrs.max_time.unwrap_or(None),
                default_time: p.attrs.default_time.unwrap_or(None),
                priority_tier: p.attrs.priority_tier.unwrap_or(1),
                priority_job_factor: p.attrs.priority_job_factor.unwrap_or(1),
                max_nodes: p.attrs.max_nodes.unwrap_or(None),
                default: p.attrs.default.unwrap_or(false),
                up: p.attrs.up.unwrap_or(true),
                preempt_mode: p.attrs.preempt_mode,
                billing_weights: p.attrs.billing_weights.clone(),
                def_mem_per_cpu: p.attrs.def_mem_per_cpu.unwrap_or(None),
                max_mem_per_cpu: p.attrs.max_mem_per_cpu.unwrap_or(None),
                qos: p.attrs.qos.clone(),
                line: p.line,
            });
        }
        Ok(self.conf)
    }
}
