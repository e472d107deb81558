//! The Slurm twin on GPU-era traces (Alibaba GPU v2023 and v2025, GAIA
//! slices; [`slasim_data::trace::gpu`]): their jobs as a Slurm workload and,
//! when no `slurm.conf` is given, the machine described from the trace.
//!
//! Contract:
//! - Jobs: one per kept row of [`gpu::read_jobs`], so the drops are those
//!   of every other mode. Each asks for one node with the row's CPUs,
//!   memory (MiB, rounded up) and GPUs (`gres/gpu`); its QOS is the row's
//!   class (`LS`, `BE`, `Burstable`, `Guaranteed`; `normal` for GAIA); one
//!   user and one account (`trace`), partition `batch`. The traces hold no
//!   time limit: the limit is the run time rounded up to whole minutes, as
//!   Slurm's limits are, and at least one minute. The logged start and end
//!   are kept, so `slurm_jobs.logged_start` holds them.
//! - The machine ([`machine`]): the v2023 node list beside the pods
//!   (`openb_node_list_gpu_node.csv[.gz]`), one `NodeName` line per node
//!   with its CPUs, memory and GPUs. Without a node list (v2025, GAIA) it is
//!   homogeneous: each node has the largest request in each resource, so
//!   every job fits one node, and there are as many nodes as the logged
//!   peak concurrent use of the scarcest resource needs.
//! - Written through [`crate::generated::conf_text`]; a `slurm.conf` given
//!   in `[slurm] conf` replaces it.

use std::path::Path;

use slasim_data::trace::gpu::{self, GpuJob, GpuJobs};
use slasim_data::trace::sacct::jobs::{Ending, Logged, Origin, SlurmJob, SlurmWorkload, Tres};

use crate::generated::{NodeSpec, conf_text};

/// The QOS of a GAIA job, which has no class.
const NO_CLASS: &str = "normal";

fn request(j: &GpuJob) -> Tres {
    Tres { cpus: j.cpus, mem_mib: j.memory_mib.map_or(0, |m| m.ceil() as u64), nodes: 1, gpus: j.gpus }
}

/// The trace's jobs as the twin's workload (module contract).
pub fn workload(path: &Path, read: &GpuJobs) -> SlurmWorkload {
    let mut qos = Vec::new();
    let jobs = read
        .jobs
        .iter()
        .map(|j| {
            let run_time = j.end - j.start;
            let limit = ((run_time + 59) / 60).max(1) * 60;
            SlurmJob {
                id: j.row,
                user: 0,
                account: 0,
                partition: 0,
                partitions: Vec::new(),
                qos: SlurmWorkload::intern(&mut qos, j.qos().unwrap_or(NO_CLASS)),
                submit: j.submit,
                submitted: j.submit,
                time_limit: Some(limit),
                run_time,
                request: request(j),
                logged: Some(Logged {
                    start: j.start,
                    end: j.end,
                    alloc: request(j),
                    node_list: None,
                    ending: Ending::Completed,
                    requeued: 0,
                }),
                origin: Origin::Dump { path: path.to_path_buf(), line: j.line },
                constraints: None,
                reservation: None,
                relations: Default::default(),
            }
        })
        .collect();
    let one = |name: &str| vec![name.to_string()];
    SlurmWorkload {
        jobs,
        users: one("trace"),
        accounts: one("trace"),
        partitions: one("batch"),
        qos,
        names: Vec::new(),
        epoch: None,
        clock_origin: None,
    }
}

/// The `slurm.conf` of the machine the trace describes (module contract).
pub fn machine(path: &Path, read: &GpuJobs) -> Result<String, gpu::GpuTraceError> {
    let list = ["openb_node_list_gpu_node.csv.gz", "openb_node_list_gpu_node.csv"]
        .iter()
        .map(|n| path.with_file_name(n))
        .find(|p| read.format == gpu::GpuFormat::Pods2023 && p.exists());
    let nodes = match list {
        Some(list) => gpu::read_nodes(&list)?
            .into_iter()
            .map(|n| NodeSpec { names: n.name, cpus: n.cpus, memory_mib: n.memory_mib, gpus: n.gpus })
            .collect(),
        None => vec![homogeneous(read)],
    };
    Ok(conf_text(&nodes))
}

/// Nodes as large as the largest request, as many as the logged peak needs.
fn homogeneous(read: &GpuJobs) -> NodeSpec {
    let size = |of: fn(&Tres) -> u64| read.jobs.iter().map(|j| of(&request(j))).max().unwrap_or(0);
    let cpus = |t: &Tres| u64::from(t.cpus);
    let mem = |t: &Tres| t.mem_mib;
    let gpus = |t: &Tres| u64::from(t.gpus);
    let node = [size(cpus), size(mem), size(gpus)];
    let peak = [peak(read, cpus), peak(read, mem), peak(read, gpus)];
    let count = node.iter().zip(peak).filter(|(n, _)| **n > 0).map(|(n, p)| p.div_ceil(*n)).max().unwrap_or(1).max(1);
    NodeSpec {
        names: if count == 1 { "n1".into() } else { format!("n[1-{count}]") },
        cpus: node[0].max(1),
        memory_mib: (node[1] > 0).then_some(node[1]),
        gpus: node[2],
    }
}

/// The largest use of one resource at any instant of the logged schedule.
fn peak(read: &GpuJobs, of: fn(&Tres) -> u64) -> u64 {
    let mut events: Vec<(i64, i64)> = Vec::with_capacity(2 * read.jobs.len());
    for j in read.jobs.iter().filter(|j| j.end > j.start) {
        let amount = of(&request(j)) as i64;
        events.push((j.start, amount));
        events.push((j.end, -amount));
    }
    // Ends before starts at the same instant: a node freed at t is free at t.
    events.sort_unstable();
    let (mut used, mut most) = (0i64, 0i64);
    for (_, delta) in events {
        used += delta;
        most = most.max(used);
    }
    most as u64
}
