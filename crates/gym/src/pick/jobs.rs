//! The job table: a log's jobs as RLScheduler's `Workloads` builds them
//! (`job.py`: `Job.__init__`, `Workloads.__init__`), with every per-job
//! quantity the environment needs precomputed once: the priority keys, the
//! nodes a job takes and the six features of its observation row that do not
//! change while it waits.
//!
//! Contract (each rule mirrors `job.py`; the log is any trace slasim reads,
//! SWF or a `sacct` dump, [`JobTable::load`]):
//! - processors = max(allocated, requested); a requested time of −1 becomes
//!   the run time ([`Estimates::Logged`]; [`Estimates::Exact`] uses the run
//!   time for every job);
//! - the maxima used for normalisation (run time, requested memory, user,
//!   group, executable) are taken over every record, *before* a negative run
//!   time becomes 10 and before jobs with a zero run time are dropped;
//! - a negative run time becomes 10 s; jobs whose run time is then 0 are
//!   dropped; the rest are sorted stably by job number;
//! - the machine has `MaxNodes` nodes of `MaxProcs / MaxNodes` processors
//!   (`MaxProcs` defaults to `MaxNodes`); a job takes
//!   `ceil(processors / processors_per_node)` nodes (`cluster.py`,
//!   `SimpleCluster.can_allocated`), computed in `f64` as Python does.
//!
//! Departures, where RLScheduler fails instead: a log without `MaxNodes`
//! takes `MaxProcs`, or else the largest job, as its node count; a job wider
//! than the machine is an error naming it (RLScheduler would stop on an
//! assertion when it is picked); a normalising maximum of 0 makes the
//! feature 1, as for a missing value (RLScheduler divides by zero).

use std::path::Path;

use slasim_data::trace::swf::{ReadOptions, SwfRecord, SwfTrace};
use slasim_data::trace::{gpu, sacct};
use slasim_sim::units::Time;
use slasim_single::policy::priority::{Key, Priority, Waiting, f1::F1, sjf::Sjf, smallest::Smallest};
use slasim_single::workload::synthetic::SyntheticConfig;

/// RLScheduler's `MAX_WAIT_TIME`: waits are normalised by 12 hours.
pub const MAX_WAIT_TIME: f64 = 12.0 * 60.0 * 60.0;
/// The clamp of every normalised feature (`1.0 - 1e-5`).
pub const ALMOST_ONE: f64 = 1.0 - 1e-5;

/// Which requested time the jobs carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Estimates {
    /// As logged (−1 → the run time), as RLScheduler.
    #[default]
    Logged,
    /// Exact: the requested time is the run time.
    Exact,
}

/// A log's jobs, column by column, indexed by position (0-based, in job-number order).
#[derive(Debug, Clone)]
pub struct JobTable {
    /// Where the jobs came from (for messages).
    pub name: String,
    /// SWF job number.
    pub id: Vec<i64>,
    /// Submission time (s).
    pub submit: Vec<Time>,
    /// Run time (s), > 0.
    pub run: Vec<Time>,
    /// Requested time (s).
    pub request: Vec<Time>,
    /// Processors: max(allocated, requested).
    pub procs: Vec<i64>,
    /// Nodes taken: `ceil(procs / processors_per_node)`.
    pub nodes: Vec<i64>,
    /// RLScheduler's `sjf_score`, `smallest_score` and `f1_score` (the lead's priority rules).
    pub sjf: Vec<Key>,
    /// See [`JobTable::sjf`].
    pub smallest: Vec<Key>,
    /// See [`JobTable::sjf`].
    pub f1: Vec<f64>,
    /// RLScheduler's `f2_score` (`sqrt(r)·n + 25600·log10(s)`): only a tie-break
    /// of the visible-job selection.
    pub f2: Vec<f64>,
    /// Rank of the job in the log by (SJF, F2, F1, submission, position):
    /// the order of RLScheduler's SJF list after its earlier sorts.
    pub sjf_rank: Vec<u32>,
    /// Rank by (smallest, SJF, F2, F1, submission, position): its smallest-first list.
    pub smallest_rank: Vec<u32>,
    /// Rank by (submission, processors, requested time, position): the order
    /// its sorts leave the queue in, as far as a later step can tell.
    pub settled_rank: Vec<u32>,
    /// Observation features 1..=6 (requested time, processors, memory, user,
    /// group, executable), already normalised.
    pub features: Vec<[f32; 6]>,
    /// The machine's nodes (`MaxNodes`).
    pub total_nodes: i64,
    /// Processors per node (`MaxProcs / MaxNodes`, a float as in Python).
    pub procs_per_node: f64,
    /// `MaxProcs` (normalises processors and the utilisation score).
    pub max_procs: i64,
    /// Largest run time of the log's records (normalises requested time).
    pub max_exec_time: i64,
}

/// Why a job table cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum JobTableError {
    /// The SWF file could not be read.
    #[error(transparent)]
    Swf(#[from] slasim_data::trace::swf::SwfError),
    /// The sacct dump could not be read.
    #[error(transparent)]
    Sacct(#[from] slasim_data::trace::sacct::SacctError),
    /// The GPU-era trace could not be read.
    #[error(transparent)]
    Gpu(#[from] slasim_data::trace::gpu::GpuTraceError),
    /// A job needs more nodes than the machine has.
    #[error("{name}: job {id} needs {nodes} nodes ({procs} processors) but the machine has {total} nodes")]
    TooWide { name: String, id: i64, procs: i64, nodes: i64, total: i64 },
    /// Nothing to simulate.
    #[error("{name}: {why}")]
    Unusable { name: String, why: String },
}

impl JobTable {
    /// Reads a log as slasim reads traces: an SWF file (plain or gzip), a
    /// Slurm `sacct` dump (converted to SWF records by [`slasim_data::trace::sacct`]),
    /// or a GPU-era trace, GPUs counted ([`slasim_data::trace::gpu`]).
    pub fn load(path: impl AsRef<Path>, estimates: Estimates) -> Result<JobTable, JobTableError> {
        let path = path.as_ref();
        let trace = if sacct::is_sacct_file(path) {
            sacct::load(path, ReadOptions::default())?
        } else if gpu::is_gpu_trace(path) {
            gpu::load(path)?
        } else {
            SwfTrace::load(path, ReadOptions::default())?
        };
        JobTable::from_swf(&trace, estimates)
    }

    /// The embedded default: slasim's seeded synthetic workload
    /// ([`SyntheticConfig::default`]: 40,000 jobs on 256 processors), which
    /// every command runs when no trace is given.
    pub fn embedded(estimates: Estimates) -> Result<JobTable, JobTableError> {
        let trace = SyntheticConfig::default()
            .generate()
            .map_err(|e| JobTableError::Unusable { name: "the embedded workload".into(), why: e.to_string() })?;
        JobTable::from_swf(&trace, estimates)
    }

    /// The table of `trace` ([`JobTable::load`]), or the embedded default
    /// ([`JobTable::embedded`]) when none is given.
    pub fn open(trace: Option<&Path>, estimates: Estimates) -> Result<JobTable, JobTableError> {
        match trace {
            Some(path) => JobTable::load(path, estimates),
            None => JobTable::embedded(estimates),
        }
    }

    /// Builds the table from SWF records, as `Workloads.__init__` does.
    pub fn from_swf(trace: &SwfTrace, estimates: Estimates) -> Result<JobTable, JobTableError> {
        let header_nodes = trace.header.max_nodes().map(|n| n as i64).unwrap_or(0);
        let header_procs = trace.header.max_procs().map(|n| n as i64).unwrap_or(0);
        JobTable::from_records(&trace.name, &trace.records, header_nodes, header_procs, estimates)
    }

    /// Builds the table from records and the `MaxNodes`/`MaxProcs` header values (0 = absent).
    pub fn from_records(
        name: &str,
        records: &[SwfRecord],
        max_nodes: i64,
        max_procs: i64,
        estimates: Estimates,
    ) -> Result<JobTable, JobTableError> {
        let mut max_exec_time = 0i64;
        let mut max_memory = 0f64;
        let (mut max_user, mut max_group, mut max_exe) = (0i64, 0i64, 0i64);
        // (record index, run time after the fix) of the kept jobs.
        let mut kept: Vec<(usize, i64)> = Vec::with_capacity(records.len());
        let mut widest = 0i64;
        for (i, r) in records.iter().enumerate() {
            max_exec_time = max_exec_time.max(r.runtime);
            max_memory = max_memory.max(r.requested_memory);
            max_user = max_user.max(r.user);
            max_group = max_group.max(r.group);
            max_exe = max_exe.max(r.executable);
            let run = if r.runtime < 0 { 10 } else { r.runtime };
            if run > 0 {
                kept.push((i, run));
                widest = widest.max(r.allocated_procs.max(r.requested_procs));
            }
        }
        if kept.is_empty() {
            return Err(JobTableError::Unusable {
                name: name.to_string(),
                why: "no job with a positive run time".into(),
            });
        }
        kept.sort_by_key(|&(i, _)| records[i].job);
        let max_procs = if max_procs > 0 {
            max_procs
        } else if max_nodes > 0 {
            max_nodes
        } else {
            widest
        };
        let total_nodes = if max_nodes > 0 { max_nodes } else { max_procs };
        if total_nodes <= 0 {
            return Err(JobTableError::Unusable {
                name: name.to_string(),
                why: "no MaxNodes/MaxProcs and no job with processors".into(),
            });
        }
        let procs_per_node = max_procs as f64 / total_nodes as f64;
        let n = kept.len();
        let mut table = JobTable {
            name: name.to_string(),
            id: Vec::with_capacity(n),
            submit: Vec::with_capacity(n),
            run: Vec::with_capacity(n),
            request: Vec::with_capacity(n),
            procs: Vec::with_capacity(n),
            nodes: Vec::with_capacity(n),
            sjf: Vec::with_capacity(n),
            smallest: Vec::with_capacity(n),
            f1: Vec::with_capacity(n),
            f2: Vec::with_capacity(n),
            features: Vec::with_capacity(n),
            sjf_rank: Vec::new(),
            smallest_rank: Vec::new(),
            settled_rank: Vec::new(),
            total_nodes,
            procs_per_node,
            max_procs,
            max_exec_time,
        };
        for &(i, run) in &kept {
            let r = &records[i];
            let procs = r.allocated_procs.max(r.requested_procs);
            let request = match estimates {
                Estimates::Logged if r.requested_time == -1 => r.runtime,
                Estimates::Logged => r.requested_time,
                Estimates::Exact => run,
            };
            let nodes = (procs as f64 / procs_per_node).ceil() as i64;
            if nodes > total_nodes {
                return Err(JobTableError::TooWide {
                    name: name.to_string(),
                    id: r.job,
                    procs,
                    nodes,
                    total: total_nodes,
                });
            }
            let waiting =
                Waiting { submit: r.submit, estimate: request, processors: procs.clamp(0, i64::from(u32::MAX)) as u32 };
            table.sjf.push(Sjf.key(&waiting, r.submit));
            table.smallest.push(Smallest.key(&waiting, r.submit));
            table.f1.push(F1.key(&waiting, r.submit).0);
            table.f2.push((request as f64).sqrt() * procs as f64 + 25600.0 * (r.submit as f64).log10());
            table.features.push([
                clamp(request as f64 / max_exec_time as f64),
                clamp(procs as f64 / max_procs as f64),
                optional(r.requested_memory, max_memory),
                optional(r.user as f64, max_user as f64),
                optional(r.group as f64, max_group as f64),
                optional(r.executable as f64, max_exe as f64),
            ]);
            table.id.push(r.job);
            table.submit.push(r.submit);
            table.run.push(run);
            table.request.push(request);
            table.procs.push(procs);
            table.nodes.push(nodes);
        }
        table.rank();
        Ok(table)
    }

    /// The static ranks. Jobs that tie on every key have equal submission,
    /// processors and requested time, so every stable sort RLScheduler applies
    /// keeps them in arrival order, which is their position: position is the
    /// last key.
    fn rank(&mut self) {
        use super::order::PyOrd;
        let n = self.len();
        let sjf = |a: &u32, b: &u32| {
            let (x, y) = (*a as usize, *b as usize);
            self.sjf[x]
                .total_cmp_py(&self.sjf[y])
                .then_with(|| self.f2[x].total_cmp_py(&self.f2[y]))
                .then_with(|| self.f1[x].total_cmp_py(&self.f1[y]))
                .then_with(|| self.submit[x].cmp(&self.submit[y]))
        };
        let smallest = |a: &u32, b: &u32| {
            self.smallest[*a as usize].total_cmp_py(&self.smallest[*b as usize]).then_with(|| sjf(a, b))
        };
        let settled = |a: &u32, b: &u32| {
            let (x, y) = (*a as usize, *b as usize);
            self.submit[x]
                .cmp(&self.submit[y])
                .then(self.procs[x].cmp(&self.procs[y]))
                .then(self.request[x].cmp(&self.request[y]))
        };
        let ranks = |order: &dyn Fn(&u32, &u32) -> std::cmp::Ordering| {
            let mut by: Vec<u32> = (0..n as u32).collect();
            by.sort_by(order);
            let mut rank = vec![0u32; n];
            for (r, &j) in by.iter().enumerate() {
                rank[j as usize] = r as u32;
            }
            rank
        };
        let (a, b, c) = (ranks(&sjf), ranks(&smallest), ranks(&settled));
        (self.sjf_rank, self.smallest_rank, self.settled_rank) = (a, b, c);
    }

    /// Number of jobs.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// Whether the table is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }
}

/// `min(x, 1 - 1e-5)` as `f32`.
fn clamp(x: f64) -> f32 {
    x.min(ALMOST_ONE) as f32
}

/// A feature that may be missing (−1 → 1), normalised by the log's maximum.
fn optional(value: f64, max: f64) -> f32 {
    if value == -1.0 || max == 0.0 { 1.0 } else { clamp(value / max) }
}
