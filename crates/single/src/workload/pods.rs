//! GPU-trace pods as jobs on their machine, as they ask: CPUs in
//! thousandths, memory, a share of one card or whole cards, and the GPU
//! models allowed; with SLA terms from a registered rule.
//!
//! Source: Alibaba GPU v2023 (`slasim_data::trace::gpu::read_pods`); Weng
//! et al., "Beware of Fragmentation", USENIX ATC 2023, §2.
//!
//! Contract:
//! - One job per kept row, in file order: occurrence = release = creation,
//!   estimate = runtime = deletion − scheduling (at least 1 s: the traces
//!   hold no limit, so the estimate is exact), one node.
//! - `gpu_spec` names the models allowed; a model the machine lacks is an
//!   error naming the file, line and column. A pod no node can hold is kept:
//!   the planner rejects it `too-wide` with the reason.
//! - SLA terms: the rule sees the pod's QoS class and, as its node count,
//!   the cards it asks for (a share or a CPU-only pod counts as one), as the
//!   flattened trace counts processors, so fees compare with a flattened run.

use std::path::Path;

use slasim_data::trace::gpu::{GpuJobs, QOS_QUEUES};
use slasim_machine::{Gpus, Machine, Request};

use crate::workload::job::{Job, MachineJob};
use crate::workload::sla::SlaTermsRule;

/// A pod that cannot be read as a job on this machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: column {column}: {detail}")]
pub struct PodError {
    /// The pod file.
    pub path: String,
    /// Its 1-based line.
    pub line: u64,
    /// The column at fault.
    pub column: &'static str,
    /// What is wrong.
    pub detail: String,
}

/// The pods of `read` (from `path`) as jobs on `machine`, their terms from
/// `rule` with `deadline_factor` and `penalty_ratio` (module contract).
pub fn jobs(
    path: &Path,
    read: &GpuJobs,
    machine: &Machine,
    rule: &SlaTermsRule,
    deadline_factor: f64,
    penalty_ratio: f64,
) -> Result<Vec<MachineJob>, PodError> {
    let mut models = Vec::with_capacity(read.specs.len());
    let mut out = Vec::with_capacity(read.jobs.len());
    for (i, p) in read.jobs.iter().enumerate() {
        let fail = |column, detail| PodError { path: path.display().to_string(), line: p.line, column, detail };
        let gpus = Gpus::of(p.gpus, p.gpu_milli).map_err(|d| fail("gpu_milli", d))?;
        let allowed = match p.spec {
            Some(s) => {
                let s = usize::from(s);
                while models.len() <= s {
                    models.push(machine.models_of(&read.specs[models.len()]));
                }
                models[s].clone().map_err(|d| fail("gpu_spec", d))?
            }
            None => 0,
        };
        let request = Request {
            nodes: 1,
            cpu_milli: p.cpu_milli,
            mem_mib: p.memory_mib.map_or(0, |m| m.ceil() as u64),
            gpus,
            models: allowed,
            features: Vec::new(),
            partition: None,
        };
        let runtime = (p.end - p.start).max(1);
        let mut job = Job::without_sla(i as u32, p.submit, 1, runtime, runtime);
        job.swf_id = p.row as i64;
        job.queue = p.queue.map_or(-1, i64::from);
        let class = p.queue.map(|q| QOS_QUEUES[usize::from(q) - 1]);
        rule.set_terms(&mut job, gpus.cards().max(1), class, deadline_factor, penalty_ratio);
        out.push(MachineJob { job, request });
    }
    Ok(out)
}
