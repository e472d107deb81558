//! A workload admitted to a machine: every job checked against it (a
//! located error otherwise), and what a controller needs of the workload
//! that no point's settings change, built once for the points that share
//! the workload ([`crate::bench::SlurmInputs`]).
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_mgr.c` (`calc_job_billable_tres`),
//! `src/common/assoc_mgr.c` (`assoc_mgr_tres_weighted`),
//! `src/slurmctld/job_scheduler.c` (`sort_job_queue2`: an array task's job
//! and task ids) and `src/plugins/priority/multifactor/priority_multifactor.c`
//! (`_apply_new_usage`: the `UsageFactor`).
//!
//! Contract:
//! - [`Admission::new`] checks each job: its partition (or partitions,
//!   [`crate::multipart`]), its size, its time limit, its node set (its
//!   constraint's features, its advance reservation's nodes of its
//!   partition, which must be able to hold it), its QOS and association
//!   against the accounting dumps ([`crate::accounting`]) and its
//!   dependencies ([`crate::dependency`]); the first job that fails is a
//!   [`JobError`] naming its file, line and field.
//! - The machine is the caller's, built once; admission adds the jobs' node
//!   sets to it. [`Admission::proto`] gives each run a copy of what a run
//!   changes (the machine's free resources, the limits' usage, the
//!   fair-share tree, …); the admission itself never changes.
//! - A job's priority factors and billing depend on the priority settings,
//!   so [`Admission::proto`] computes them for a run's settings: exactly
//!   those a job admitted under them gets (its QOS factor and `UsageFactor`
//!   with a QOS dump).
//! - Associations are numbered in the order of their jobs' first
//!   submission in the workload (user and account); with an association
//!   dump, each job charges the user association its limits resolved.

use crate::accounting::{Accounting, Limits};
use crate::advance::AdvanceReservations;
use crate::conf::{PrioritySettings, SlurmConf};
use crate::controller::{Proto, Settings};
use crate::dependency::Dependencies;
use crate::instant::Arrival;
use crate::machine::{JobError, Machine, Need};
use crate::multipart::MultiPartition;
use crate::outage::Outages;
use crate::preemption::{PreemptError, Preemption};
use crate::priority::{FairTree, Fixed, Multifactor};
use crate::queued::Queued;
use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload, Tres};
use slasim_sim::units::Time;

/// A workload admitted to a machine.
#[derive(Debug, Clone)]
pub struct Admission {
    /// The machine, every node free, with the jobs' node sets.
    pub machine: Machine,
    /// Each job as admitted (in its first partition), its priority factors
    /// and billing not yet set.
    jobs: Vec<Queued>,
    /// Per job of several partitions, the job in each of them, likewise
    /// (empty when no job has several).
    alternatives: Vec<Vec<Queued>>,
    /// The submissions, in time order.
    arrivals: Vec<Arrival>,
    /// Per job: its user association.
    assocs: Vec<u32>,
    /// The fair-share tree, no usage yet.
    fairshare: FairTree,
    /// The QOS and association limits, with dumps, enforced or not: the
    /// QOS factor and `UsageFactor` are theirs.
    limits: Option<Limits>,
    /// `AccountingStorageEnforce=limits` (or `safe`): without it slurmctld
    /// checks no association or QOS limit.
    enforce_limits: bool,
    /// A QOS dump was given: each job has its QOS factor and `UsageFactor`.
    qos_dump: bool,
    /// Dependencies and array throttles, when the workload has any.
    relations: Option<Dependencies>,
    /// The advance reservations (none without a reservations file).
    advance: Option<AdvanceReservations>,
    /// Preemption, when on ([`Admission::preempting`]).
    preempt: Option<Preemption>,
    /// Node events ([`Admission::with_outages`]).
    outages: Option<Outages>,
}

impl Admission {
    /// `workload` admitted to `machine` (of `conf`), with `accounting`'s
    /// dumps and `advance` reservations: a job naming one must name a
    /// known reservation it may use, whose nodes of its partition can hold
    /// it; without them, sacct's `Reservation` is not used.
    pub fn new(
        conf: &SlurmConf,
        mut machine: Machine,
        workload: &SlurmWorkload,
        accounting: &Accounting,
        advance: Option<AdvanceReservations>,
    ) -> Result<Admission, JobError> {
        let mut assoc_keys: Vec<(u32, u32)> = Vec::new();
        let mut assocs = Vec::with_capacity(workload.jobs.len());
        let mut jobs = Vec::with_capacity(workload.jobs.len());
        let mut arrivals = Vec::with_capacity(workload.jobs.len());
        // Jobs of several partitions ([`crate::multipart`]): each in each.
        let enforce_all = conf.site.enforce_part_limits == crate::conf::EnforcePartLimits::All;
        let mut tried: Vec<Option<Vec<crate::multipart::Admitted>>> = Vec::new();
        for (i, job) in workload.jobs.iter().enumerate() {
            let several = crate::multipart::partitions(&machine, workload, job, enforce_all)?;
            let (partition, need, limit, over_part_limit) = match several.as_deref() {
                Some([first, ..]) => *first,
                _ => machine.admit(workload, job)?,
            };
            if several.as_ref().is_some_and(|s| s.len() > 1) {
                tried.resize(workload.jobs.len(), None);
                tried[i] = several;
            }
            let (set, resv) = node_set(&mut machine, advance.as_ref(), workload, job, partition, &need)?;
            let key = (job.user, job.account);
            let assoc = match assoc_keys.iter().position(|k| *k == key) {
                Some(a) => a,
                None => {
                    assoc_keys.push(key);
                    assoc_keys.len() - 1
                }
            } as u32;
            assocs.push(assoc);
            jobs.push(Queued {
                partition: partition as u16,
                assoc,
                user: job.user,
                over_part_limit,
                need,
                limit,
                run: job.run_time.max(0),
                submit: job.submit,
                // `sort_job_queue2`: an array task by its array job id, then task id.
                id: job.relations.array.map_or(job.id, |a| a.job),
                task: job.relations.array.map_or(0, |a| a.task),
                // A run's settings give them ([`Admission::proto`]).
                fixed: Fixed::default(),
                billing: 0.0,
                set,
                resv,
            });
            if job.submitted < job.submit {
                arrivals.push(Arrival { job: i as u32, at: job.submitted, eligible: false });
            }
            arrivals.push(Arrival { job: i as u32, at: job.submit, eligible: true });
        }
        arrivals.sort_by_key(|a| (a.at, a.job));
        let tres: Vec<crate::accounting::Tres4> = jobs
            .iter()
            .map(|j| {
                let t = j.need.total();
                [u64::from(t.cpus), t.mem_mib, u64::from(t.nodes), u64::from(t.gpus)]
            })
            .collect();
        let time_limits: Vec<Time> = jobs.iter().map(|j| j.limit).collect();
        let partition_qos: Vec<Option<&str>> =
            jobs.iter().map(|j| conf.partitions[j.partition as usize].qos.as_deref()).collect();
        let limits = Limits::new(accounting, workload, &tres, &time_limits, &partition_qos)?;
        // With an association dump, the fair-share tree is the centre's:
        // each job charges the user association its limits resolved.
        let fairshare = match (&limits, accounting.fair_tree()) {
            (Some(l), Some((tree, user_of_row))) => {
                for (j, (job, a)) in jobs.iter_mut().zip(assocs.iter_mut()).enumerate() {
                    if let Some(row) = l.user_row(j as u32) {
                        *a = user_of_row[row as usize];
                        job.assoc = *a;
                    }
                }
                tree
            }
            _ => FairTree::new(workload.accounts.len().max(1), &assoc_keys.iter().map(|k| k.1).collect::<Vec<_>>()),
        };
        // A job ends OK when it completed in the log and the simulation does
        // not cut it at its time limit ([`crate::dependency`]).
        let ok: Vec<bool> = jobs
            .iter()
            .zip(&workload.jobs)
            .map(|(q, w)| {
                q.run <= q.limit
                    && w.logged.as_ref().is_none_or(|l| l.ending == slasim_data::trace::sacct::jobs::Ending::Completed)
            })
            .collect();
        let submits: Vec<Time> = jobs.iter().map(|j| j.submit).collect();
        let relations = Dependencies::new(workload, &ok, &submits, conf.scheduler.kill_invalid_depend)?;
        // The job in each of its partitions.
        let mut alternatives: Vec<Vec<Queued>> = vec![Vec::new(); if tried.is_empty() { 0 } else { jobs.len() }];
        for (j, t) in tried.iter().enumerate() {
            let Some(t) = t else { continue };
            alternatives[j] = t
                .iter()
                .map(|&(p, need, limit, over_part_limit)| Queued {
                    partition: p as u16,
                    need,
                    limit,
                    over_part_limit,
                    ..jobs[j]
                })
                .collect();
        }
        Ok(Admission {
            machine,
            jobs,
            alternatives,
            arrivals,
            assocs,
            fairshare,
            enforce_limits: conf.site.accounting_enforce.limits,
            qos_dump: accounting.qos.is_some(),
            limits,
            relations,
            advance,
            preempt: None,
            outages: None,
        })
    }

    /// The same admission with node events ([`crate::outage`]).
    pub fn with_outages(self, outages: Option<Outages>) -> Admission {
        Admission { outages, ..self }
    }

    /// The same admission with the preemption `conf` (and the QOS dump of
    /// `accounting`) configure ([`crate::preemption`]); a mode slasim does
    /// not model (`SUSPEND`, `GANG`, `WITHIN`) is a located error.
    pub fn preempting(
        self,
        conf: &SlurmConf,
        accounting: &Accounting,
        workload: &SlurmWorkload,
    ) -> Result<Admission, PreemptError> {
        let preempt = Preemption::new(conf, accounting, workload, &self.jobs)?;
        Ok(Admission { preempt, ..self })
    }

    /// The submissions, in time order.
    pub fn arrivals(&self) -> &[Arrival] {
        &self.arrivals
    }

    /// Per job: its user association.
    pub fn assocs(&self) -> &[u32] {
        &self.assocs
    }

    /// What a run of `settings` starts from, on this admission of
    /// `workload` under `conf`: each job's priority factors and billing
    /// under `settings.priority`, and a copy of all a run changes.
    pub fn proto(&self, conf: &SlurmConf, workload: &SlurmWorkload, settings: Settings) -> Proto {
        let priority = Multifactor::new(settings.priority.clone(), &self.machine);
        let (jobs, multi) = self.jobs_under(conf, workload, &priority);
        Proto {
            settings,
            machine: self.machine.clone(),
            priority,
            jobs,
            fairshare: self.fairshare.clone(),
            limits: if self.enforce_limits { self.limits.clone() } else { None },
            preempt: self.preempt.clone(),
            advance: self.advance.clone(),
            relations: self.relations.clone(),
            multi,
            outages: self.outages.clone(),
            running: Vec::new(),
        }
    }

    /// The jobs (and the jobs of several partitions in each) with their
    /// priority factors and billing under `priority`.
    fn jobs_under(
        &self,
        conf: &SlurmConf,
        workload: &SlurmWorkload,
        priority: &Multifactor,
    ) -> (Vec<Queued>, Option<MultiPartition>) {
        let under = |job: &mut Queued, w: &SlurmJob| {
            let p = job.partition as usize;
            job.fixed = priority.fixed(p, &job.need);
            job.billing = billing(conf, p, &job.need, &self.machine.request_of(p, w), priority.settings());
        };
        let mut jobs = self.jobs.clone();
        let mut alternatives = self.alternatives.clone();
        for (j, (job, w)) in jobs.iter_mut().zip(&workload.jobs).enumerate() {
            under(job, w);
            for alternative in alternatives.get_mut(j).into_iter().flatten() {
                under(alternative, w);
            }
        }
        if let Some(l) = &self.limits
            && self.qos_dump
        {
            for (j, (job, w)) in jobs.iter_mut().zip(&workload.jobs).enumerate() {
                let alternatives = alternatives.get_mut(j).map(|a| a.iter_mut()).into_iter().flatten();
                for job in std::iter::once(job).chain(alternatives) {
                    job.fixed = priority.with_qos(job.fixed, l.qos_factor[w.qos as usize]);
                    // `_apply_new_usage`: a `UsageFactor` of 0 or more scales the usage.
                    job.billing *= l.usage_factor[w.qos as usize];
                }
            }
        }
        (jobs, MultiPartition::new(alternatives))
    }
}

/// Job `job`'s node set ([`Machine::allows`]): the nodes its constraint
/// allows, and with advance reservations those of the reservation it names
/// (checked: its partition's nodes there can hold it).
fn node_set(
    machine: &mut Machine,
    advance: Option<&AdvanceReservations>,
    workload: &SlurmWorkload,
    job: &SlurmJob,
    partition: usize,
    need: &Need,
) -> Result<(u16, Option<u16>), JobError> {
    let resv = match advance {
        Some(a) => a.of(workload, job)?,
        None => None,
    };
    if job.constraints.is_none() && resv.is_none() {
        return Ok((0, None));
    }
    let mut nodes = machine.satisfying(job);
    if let (Some(r), Some(a)) = (resv, advance) {
        let held = &a.list[r as usize];
        for (b, &h) in nodes.iter_mut().zip(&held.nodes) {
            *b &= h;
        }
        let part = &machine.partitions[partition];
        let fitting =
            part.nodes.iter().filter(|&&n| nodes[n as usize] && need.fits(&machine.spec.size[n as usize])).count();
        if fitting < need.nodes as usize {
            return Err(JobError {
                origin: job.origin.to_string(),
                id: job.id,
                field: "Reservation".into(),
                detail: format!(
                    "reservation `{}` has {fitting} nodes of partition {} that can hold the job; it needs {}",
                    held.name, part.name, need.nodes
                ),
            });
        }
    }
    Ok((machine.set(nodes), resv))
}

/// A job's billable TRES (Slurm 22.05 `calc_job_billable_tres`,
/// `assoc_mgr_tres_weighted`): with no `TRESBillingWeights` (its
/// partition's, else the cluster's), its CPUs; else the sum of each weighted
/// TRES (`cpu`, `mem` in MiB, `node`, `gres/gpu`) of the whole job, or with
/// `PriorityFlags=MAX_TRES` the largest of them.
fn billing(conf: &SlurmConf, partition: usize, need: &Need, request: &Tres, priority: &PrioritySettings) -> f64 {
    let total = need.total();
    let weights = conf.partitions[partition].billing_weights.as_deref().unwrap_or(&conf.site.billing_weights);
    if weights.is_empty() {
        return f64::from(total.cpus);
    }
    let max_tres = priority.flags.iter().any(|f| f.eq_ignore_ascii_case("MAX_TRES"));
    let (mut node, mut global) = (0.0f64, 0.0);
    for (name, w) in weights {
        let count = match name.as_str() {
            "cpu" => f64::from(total.cpus),
            "mem" => request.mem_mib as f64,
            "node" => f64::from(total.nodes),
            "gres/gpu" => f64::from(total.gpus),
            _ => 0.0,
        };
        if max_tres {
            node = node.max(w * count);
        } else {
            global += w * count;
        }
    }
    node + global
}
