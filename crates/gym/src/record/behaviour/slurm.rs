//! The Slurm twin's choices: the visible job that `slasim`'s Slurm twin
//! (slurmctld 22.05: multifactor priority, the main and backfill schedulers;
//! [`slasim_slurm`]) started first when it ran the same sequence.
//!
//! When an episode begins, the sequence's jobs are submitted at their
//! logged times to a `slurm.conf` of the log's machine ([`conf_text`]: one
//! partition of one-CPU nodes, as many as the environment's, so that a job
//! takes the environment's node count, with the schedulers and priority of
//! [`slasim_slurm::generated`]); each job's time limit is its requested time.
//! The twin's start times rank the jobs; at each step the behaviour picks
//! the visible job the twin started first (ties to the lowest row; a job the
//! twin never started ranks last).
//!
//! Where it departs from Slurm on the log: the sequence starts on an empty
//! machine, as the environment's does; the job table has no users, so every
//! job is one user's and fair share does not order them; a job the log
//! records without processors (allocated and requested −1), which takes no
//! node in the environment as in RLScheduler's, asks the twin for one.

use std::path::Path;

use anyhow::Context;
use slasim_data::trace::sacct::jobs::{Origin, SlurmJob, SlurmWorkload, Tres};
use slasim_slurm::bench::{Scenario, simulate};
use slasim_slurm::generated::{self, NodeSpec};

use super::{Behaviour, Plan, first_by};
use crate::pick::PickJobs;
use crate::pick::jobs::JobTable;

/// The Slurm twin's choices.
pub struct Slurm;

/// The `slurm.conf` the twin runs a sequence on: `nodes` one-CPU nodes.
pub fn conf_text(nodes: i64) -> String {
    generated::conf_text(&[NodeSpec { names: format!("n[1-{nodes}]"), cpus: 1, memory_mib: None, gpus: 0 }])
}

/// The jobs `[first, last)` of `jobs` as the twin's workload.
fn workload(jobs: &JobTable, first: usize, last: usize) -> SlurmWorkload {
    let one = |name: &str| vec![name.to_string()];
    SlurmWorkload {
        jobs: (first..last)
            .map(|j| {
                // A job logged without processors (-1, as KTH-SP2 has) takes
                // no node in the environment; Slurm takes at least one.
                let nodes = u32::try_from(jobs.nodes[j].max(1)).unwrap_or(u32::MAX);
                SlurmJob {
                    id: jobs.id[j] as u64,
                    user: 0,
                    account: 0,
                    partition: 0,
                    partitions: Vec::new(),
                    qos: 0,
                    submit: jobs.submit[j],
                    submitted: jobs.submit[j],
                    time_limit: Some(jobs.request[j].max(jobs.run[j]).max(1)),
                    run_time: jobs.run[j],
                    request: Tres { cpus: nodes, mem_mib: 0, nodes, gpus: 0 },
                    logged: None,
                    origin: Origin::Synthetic { index: j as u64 },
                    constraints: None,
                    reservation: None,
                    relations: Default::default(),
                }
            })
            .collect(),
        users: one("user"),
        accounts: one("account"),
        partitions: one("batch"),
        qos: one("normal"),
        names: Vec::new(),
        epoch: None,
        clock_origin: None,
    }
}

impl Behaviour for Slurm {
    fn name(&self) -> &'static str {
        "slurm"
    }

    fn description(&self) -> &'static str {
        "the Slurm twin's choices: the visible job the twin started first on the same sequence"
    }

    fn begin(&self, env: &PickJobs) -> anyhow::Result<Plan> {
        let jobs = env.jobs();
        let first = env.start_index();
        let last = first + env.sequence_len();
        let conf = slasim_slurm::conf::parse(&conf_text(jobs.total_nodes), Path::new("(the twin's slurm.conf)"))?;
        let scenario =
            Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &workload(jobs, first, last))
                .context("the Slurm twin refused a job of the sequence")?;
        let done = simulate(scenario).context("the Slurm twin's run of the sequence")?;
        let rank = done.outcomes.iter().map(|o| if o.start < 0 { i64::MAX } else { o.start }).collect();
        Ok(Plan { rank })
    }

    fn choose(&self, env: &PickJobs, plan: &Plan) -> usize {
        let first = env.start_index() as u32;
        first_by(env, |_, a, b| plan.rank[(a - first) as usize].cmp(&plan.rank[(b - first) as usize]))
    }
}
