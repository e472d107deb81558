//! A Slurm workload's jobs (a sacct dump's, or the twin's synthetic
//! generator's) as jobs on the machine of their `slurm.conf`, as they ask,
//! with SLA terms from a registered rule.
//!
//! Contract:
//! - Each job is admitted as the twin admits it
//!   ([`slasim_slurm::machine::Machine::admit`]): its partition, its share
//!   on each of its nodes of CPUs, memory (none under `CR_Core`) and GPUs,
//!   and its time limit (its own, else the partition's `DefaultTime`, else
//!   its `MaxTime`). A job the twin refuses is the twin's located error.
//! - The request on the machine: that partition, that share on each node in
//!   whole CPUs and whole GPUs of any model (sacct's `ReqTRES` names no GPU
//!   type), and the features of its `Constraints` (`a` or `a&b`). `a|b` is
//!   refused, naming the job: a planner's request holds features every node
//!   must have. So is a limit above the partition's `MaxTime` (Slurm would
//!   never start the job).
//! - occurrence = release = its eligible time; estimate = its time limit;
//!   runtime = its run time, capped by the limit as the twin caps it, at
//!   least 1 s.
//! - SLA terms: the rule sees the job's QOS as its class when the QOS is
//!   named as a QoS class is ([`QOS_QUEUES`]), and, as its node count, the
//!   CPUs it asks for in all, as a classic log counts processors.

use anyhow::anyhow;

use slasim_core::units::seconds;
use slasim_data::trace::gpu::QOS_QUEUES;
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_machine::{Gpus, Request};
use slasim_single::workload::job::{Job, MachineJob};
use slasim_single::workload::sla::SlaTermsRule;
use slasim_slurm::features::Constraint;
use slasim_slurm::machine::Machine as TwinMachine;

/// The jobs of `workload` on the twin's `machine`, their terms from `rule`
/// with `deadline_factor` and `penalty_ratio` (module contract).
pub fn jobs(
    workload: &SlurmWorkload,
    machine: &TwinMachine,
    rule: &SlaTermsRule,
    deadline_factor: f64,
    penalty_ratio: f64,
) -> anyhow::Result<Vec<MachineJob>> {
    let mut out = Vec::with_capacity(workload.jobs.len());
    for (i, j) in workload.jobs.iter().enumerate() {
        let (partition, need, limit, over) = machine.admit(workload, j)?;
        let fail = |field: &str, detail: String| anyhow!("{}: job {}: {field}: {detail}", j.origin, j.id);
        if over {
            let max = machine.partitions[partition].max_time.unwrap_or(limit);
            return Err(fail(
                "Timelimit",
                format!(
                    "{} is above partition {}'s MaxTime ({}): Slurm would never start it",
                    seconds(limit),
                    machine.partitions[partition].name,
                    seconds(max)
                ),
            ));
        }
        let features = match j.constraints.as_deref().map(Constraint::parse).transpose() {
            Ok(None) => Vec::new(),
            Ok(Some(Constraint::All(names))) => names,
            Ok(Some(Constraint::Any(_))) => {
                let why = "`a|b` is not held by the planners (a request's features must all be on each node)";
                return Err(fail("Constraints", why.into()));
            }
            Err(detail) => return Err(fail("Constraints", detail)),
        };
        let request = Request {
            nodes: need.nodes,
            cpu_milli: need.cpus * 1000,
            mem_mib: need.mem_mib,
            gpus: Gpus::Whole(need.gpus),
            models: 0,
            features,
            partition: Some(partition as u16),
        };
        let runtime = j.run_time.min(limit).max(1);
        let mut job = Job::without_sla(i as u32, j.submit, need.nodes, limit, runtime);
        job.swf_id = j.id as i64;
        let qos = workload.qos.get(j.qos as usize).map(String::as_str);
        let class = qos.and_then(|q| QOS_QUEUES.iter().copied().find(|c| *c == q));
        rule.set_terms(&mut job, need.cpus * need.nodes, class, deadline_factor, penalty_ratio);
        out.push(MachineJob { job, request });
    }
    Ok(out)
}
