//! The Slurm bench: a client submitting a workload's jobs to one controller.
//!
//! Contract: [`Scenario::new`] checks every job against the machine (its
//! partition, its size, its time limit; a located error otherwise) and
//! derives what the controller needs; [`simulate`] runs the bench to the end,
//! on the calling thread. The result depends only on the scenario.

use std::sync::Arc;

use crate::accounting::{Accounting, Limits};
use crate::advance::AdvanceReservations;
use crate::conf::{PrioritySettings, SchedulerSettings, SlurmConf};
use crate::controller::{Controller, Counters, Outcome, Queued};
use crate::dependency::Dependencies;
use crate::instant::Arrival;
pub use crate::machine::Need;
use crate::machine::{JobError, Machine};
use crate::priority::{FairTree, Multifactor};
use slasim_core::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::bench::Bench;
use slasim_sim::client::ClientActor;
use slasim_sim::kernel::{KernelStats, SimError};

/// A conf and the workload read for it, shared by the points that read them.
#[derive(Debug)]
pub struct SlurmInputs {
    /// The conf.
    pub conf: SlurmConf,
    /// The workload.
    pub workload: SlurmWorkload,
    /// The accounting dumps (none: no QOS factor, no limits).
    pub accounting: Accounting,
    /// The advance reservations (none without a reservations file).
    pub advance: Option<AdvanceReservations>,
}

/// One Slurm simulation, ready to run.
pub struct Scenario {
    machine: Machine,
    scheduler: SchedulerSettings,
    priority: Multifactor,
    jobs: Arc<[Queued]>,
    arrivals: Vec<Arrival>,
    fairshare: FairTree,
    /// Per job: its user association.
    pub assocs: Vec<u32>,
    origin: slasim_sim::units::Time,
    backfill_origin: Option<slasim_sim::units::Time>,
    /// The Unix time of the workload's time 0 (0 when it has none).
    epoch: slasim_sim::units::Time,
    /// The QOS and association limits, with dumps.
    limits: Option<Limits>,
    /// Preemption, when on ([`Scenario::with_preemption`]).
    preempt: Option<crate::preemption::Preemption>,
    /// Advance reservations ([`crate::advance`]).
    advance: Option<AdvanceReservations>,
    /// `EnforcePartLimits` is `ANY` or `ALL`.
    enforce_part_limits: bool,
    charge_at_end: bool,
    /// Dependencies and array throttles, when the workload has any.
    relations: Option<Dependencies>,
    /// Jobs of several partitions ([`crate::multipart`]), when any.
    multi: Option<crate::multipart::MultiPartition>,
    /// When a started run ends.
    run_end: crate::queued::RunEnd,
}

/// What a simulation produced.
#[derive(Debug, Clone)]
pub struct Simulated {
    /// Per job, in workload order.
    pub outcomes: Vec<Outcome>,
    /// The schedulers' counters.
    pub counters: Counters,
    /// Kernel statistics.
    pub kernel: KernelStats,
    /// Per job: the limit it last waited for, or was rejected for (an
    /// accounting or partition limit; empty when no job had one).
    pub reasons: Vec<Option<crate::accounting::Reason>>,
    /// Per job, with dependencies or array throttles: the reason it last
    /// waited outside the queue for (empty without them).
    pub waits: Vec<Option<crate::dependency::Wait>>,
    nodes: Vec<u32>,
    node_at: Vec<u32>,
    counts: Vec<u32>,
}

impl Simulated {
    /// The nodes job `j` ran on (none if it never started).
    pub fn nodes_of(&self, j: usize) -> &[u32] {
        if self.outcomes.get(j).is_none_or(|o| o.start < 0) {
            return &[];
        }
        let first = self.node_at[j] as usize;
        &self.nodes[first..first + self.counts[j] as usize]
    }
}

impl Scenario {
    /// `workload` on the machine of `conf`, with its priority and scheduler
    /// settings (possibly changed from the file's by a sweep).
    pub fn new(
        conf: &SlurmConf,
        priority: PrioritySettings,
        scheduler: SchedulerSettings,
        workload: &SlurmWorkload,
    ) -> Result<Scenario, JobError> {
        Scenario::with_accounting(conf, priority, scheduler, workload, &Accounting::default())
    }

    /// [`Scenario::new`] with a centre's accounting dumps: each job's QOS
    /// factor, and the QOS and association limits
    /// ([`crate::accounting`]); a job whose QOS or association the dumps
    /// lack is a located error.
    pub fn with_accounting(
        conf: &SlurmConf,
        priority: PrioritySettings,
        scheduler: SchedulerSettings,
        workload: &SlurmWorkload,
        accounting: &Accounting,
    ) -> Result<Scenario, JobError> {
        Scenario::with_reservations(conf, priority, scheduler, workload, accounting, None)
    }

    /// [`Scenario::with_accounting`] with advance reservations
    /// ([`crate::advance`]): a job naming one must name a known reservation
    /// it may use, whose nodes of its partition can hold it (a located
    /// error otherwise). Without them, sacct's `Reservation` is not used.
    pub fn with_reservations(
        conf: &SlurmConf,
        priority: PrioritySettings,
        scheduler: SchedulerSettings,
        workload: &SlurmWorkload,
        accounting: &Accounting,
        advance: Option<&AdvanceReservations>,
    ) -> Result<Scenario, JobError> {
        let mut machine = Machine::new(conf);
        let priority = Multifactor::new(priority, &machine);
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
            let (set, resv) = node_set(&mut machine, advance, workload, job, partition, &need)?;
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
                fixed: priority.fixed(partition, &need),
                billing: billing(conf, partition, &need, &machine.request_of(partition, job), priority.settings()),
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
        let time_limits: Vec<slasim_sim::units::Time> = jobs.iter().map(|j| j.limit).collect();
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
                    && w.logged.as_ref().is_none_or(|l| l.ending == slasim_core::trace::sacct::jobs::Ending::Completed)
            })
            .collect();
        let submits: Vec<slasim_sim::units::Time> = jobs.iter().map(|j| j.submit).collect();
        let relations = Dependencies::new(workload, &ok, &submits, conf.scheduler.kill_invalid_depend)?;
        // The job in each of its partitions: that partition's priority
        // factors and billing.
        let mut alternatives: Vec<Vec<Queued>> = vec![Vec::new(); if tried.is_empty() { 0 } else { jobs.len() }];
        for (j, t) in tried.iter().enumerate() {
            let Some(t) = t else { continue };
            let w = &workload.jobs[j];
            alternatives[j] = t
                .iter()
                .map(|&(p, need, limit, over_part_limit)| Queued {
                    partition: p as u16,
                    need,
                    limit,
                    over_part_limit,
                    fixed: priority.fixed(p, &need),
                    billing: billing(conf, p, &need, &machine.request_of(p, w), priority.settings()),
                    ..jobs[j]
                })
                .collect();
        }
        if let Some(l) = &limits
            && accounting.qos.is_some()
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
        Ok(Scenario {
            machine,
            scheduler,
            priority,
            jobs: jobs.into(),
            arrivals,
            fairshare,
            assocs,
            enforce_part_limits: conf.site.enforce_part_limits != crate::conf::EnforcePartLimits::No,
            charge_at_end: conf.site.accounting_enforce.limits,
            origin: 0,
            backfill_origin: None,
            epoch: workload.epoch.unwrap_or(0),
            // `AccountingStorageEnforce=limits` (or `safe`): without it
            // slurmctld checks no association or QOS limit.
            limits: limits.filter(|_| conf.site.accounting_enforce.limits),
            relations,
            advance: advance.cloned(),
            preempt: None,
            multi: crate::multipart::MultiPartition::new(alternatives),
            run_end: crate::queued::RunEnd::AfterStart,
        })
    }

    /// The same scenario with the preemption `conf` (and the QOS dump of
    /// `accounting`) configure ([`crate::preemption`]); a mode slasim does
    /// not model (`SUSPEND`, `GANG`, `WITHIN`) is a located error.
    pub fn with_preemption(
        self,
        conf: &SlurmConf,
        accounting: &Accounting,
        workload: &SlurmWorkload,
    ) -> Result<Scenario, crate::preemption::PreemptError> {
        let preempt = crate::preemption::Preemption::new(conf, accounting, workload, &self.jobs)?;
        Ok(Scenario { preempt, ..self })
    }

    /// The same scenario with slurmctld started at `origin` on the
    /// workload's time axis (0 is the first submission), which sets the
    /// phase of the periodic events.
    pub fn controller_started_at(self, origin: slasim_sim::units::Time) -> Scenario {
        Scenario { origin, ..self }
    }

    /// The same scenario with slurmctld's backfill agent started at
    /// `origin` on the workload's time axis: the phase of its passes.
    pub fn backfill_started_at(self, origin: slasim_sim::units::Time) -> Scenario {
        Scenario { backfill_origin: Some(origin), ..self }
    }

    /// The same scenario with runs that end by `run_end` (their start plus
    /// their run time when not set).
    pub fn ending_runs(self, run_end: crate::queued::RunEnd) -> Scenario {
        Scenario { run_end, ..self }
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }
}

/// Job `job`'s node set ([`Machine::allows`]): the nodes its constraint
/// allows, and with advance reservations those of the reservation it names
/// (checked: its partition's nodes there can hold it).
fn node_set(
    machine: &mut Machine,
    advance: Option<&AdvanceReservations>,
    workload: &SlurmWorkload,
    job: &slasim_core::trace::sacct::jobs::SlurmJob,
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
        let fitting = part.nodes.iter().filter(|&&n| nodes[n as usize] && machine.size[n as usize].holds(need)).count();
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
fn billing(
    conf: &SlurmConf,
    partition: usize,
    need: &Need,
    request: &slasim_core::trace::sacct::jobs::Tres,
    priority: &PrioritySettings,
) -> f64 {
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

/// Runs `scenario` to the end.
pub fn simulate(scenario: Scenario) -> Result<Simulated, SimError> {
    let Scenario {
        machine,
        scheduler,
        priority,
        jobs,
        arrivals,
        fairshare,
        origin,
        backfill_origin,
        epoch,
        limits,
        enforce_part_limits,
        charge_at_end,
        relations,
        advance,
        preempt,
        multi,
        run_end,
        ..
    } = scenario;
    let counts: Vec<u32> = jobs.iter().map(|j| j.need.nodes).collect();
    let mut bench = Bench::new(slasim_sim::units::Time::MAX / 4)?;
    let at = bench.reserve::<Controller>();
    let mut client = ClientActor::new(arrivals);
    client.output.connect(at.input());
    let first = client.first_event();
    let client = bench.add(client);
    if let Some(first) = first {
        bench.seed(client, first)?;
    }
    bench.place(
        at,
        Controller::new(machine, scheduler, priority, jobs, fairshare)
            .started_at(origin)
            .backfill_started_at(backfill_origin)
            .at_epoch(epoch)
            .with_limits(limits)
            .enforcing_part_limits(enforce_part_limits)
            .charging_at_end(charge_at_end)
            .with_dependencies(relations)
            .with_advance(advance)
            .with_preemption(preempt)
            .with_multipart(multi)
            .ending_runs(run_end),
    );
    let kernel = bench.run()?;
    let done = bench.finish(at)?;
    Ok(Simulated {
        reasons: done.reasons,
        waits: done.waits,
        outcomes: done.outcomes,
        counters: done.counters,
        kernel,
        nodes: done.nodes,
        node_at: done.node_at,
        counts,
    })
}
