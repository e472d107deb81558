//! The Slurm bench: a client submitting a workload's jobs to one controller.
//!
//! Contract: a [`Scenario`] is a workload admitted to a machine
//! ([`crate::admission`]: every job checked against it, a located error
//! otherwise) and a run's settings, the controller's proto-model
//! ([`crate::controller::Proto`]) and the submissions; [`SlurmInputs`] holds
//! one admission for every point that shares it. [`simulate`] runs the
//! bench to the end, on the calling thread. The result depends
//! only on the scenario.

use crate::accounting::Accounting;
use crate::admission::Admission;
use crate::advance::AdvanceReservations;
use crate::conf::{PrioritySettings, SchedulerSettings, SlurmConf};
use crate::controller::{Controller, ControllerMsg, Counters, Outcome, Proto, Settings};
use crate::instant::{Arrival, JOB_END, NODE};
pub use crate::machine::Need;
use crate::machine::{JobError, Machine};
use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::bench::Bench;
use slasim_sim::client::ClientActor;
use slasim_sim::kernel::{KernelStats, Scheduled, SimError, Stop};
use slasim_sim::units::{DAY, Time};

/// Where a run is, in simulated days, against the day of its last submission.
fn day_line(now: Time, last_submit: Time) -> String {
    let (day, of) = (now / DAY + 1, last_submit / DAY + 1);
    if day <= of {
        format!("simulated day {day} of {of}")
    } else {
        format!("simulated day {day}: {} after the last submission", day - of)
    }
}

/// A conf and the workload read for it, admitted to its machine: what the
/// points that read them share.
#[derive(Debug)]
pub struct SlurmInputs {
    /// The conf.
    pub conf: SlurmConf,
    /// The `slurm.conf` text generated from a GPU-era trace (none: read from a file).
    pub generated: Option<String>,
    /// The workload.
    pub workload: SlurmWorkload,
    /// The accounting dumps (none: no QOS factor, no limits).
    pub accounting: Accounting,
    /// The workload admitted to the conf's machine, with the advance
    /// reservations and the conf's preemption.
    pub admission: Admission,
}

impl SlurmInputs {
    /// A run of `settings` on these inputs.
    pub fn scenario(&self, settings: Settings) -> Scenario {
        Scenario::of(&self.admission, &self.conf, &self.workload, settings)
    }
}

/// One Slurm simulation, ready to run.
pub struct Scenario {
    /// What the controller is built from.
    controller: Proto,
    /// The submissions, in time order.
    arrivals: Vec<Arrival>,
    /// Per job: its user association.
    pub assocs: Vec<u32>,
    /// The run ends here (none: when no event is left).
    horizon: Option<Time>,
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
    /// The runs taken off their nodes before their end, by preemption or a
    /// node failure, in time order ([`crate::controller::requeue`]).
    pub stopped: Vec<crate::controller::requeue::Stopped>,
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

    /// The nodes of stopped run `s`.
    pub fn nodes_of_stopped(&self, s: &crate::controller::requeue::Stopped) -> &[u32] {
        let first = s.node_at as usize;
        &self.nodes[first..first + self.counts[s.job as usize] as usize]
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
        let admission = Admission::new(conf, Machine::new(conf), workload, accounting, advance.cloned())?;
        let settings = Settings { priority, scheduler, ..Settings::of(conf, workload.epoch) };
        Ok(Scenario::of(&admission, conf, workload, settings))
    }

    /// A run of `settings` on `admission` (of `workload`, under `conf`).
    pub fn of(admission: &Admission, conf: &SlurmConf, workload: &SlurmWorkload, settings: Settings) -> Scenario {
        Scenario {
            controller: admission.proto(conf, workload, settings),
            arrivals: admission.arrivals().to_vec(),
            assocs: admission.assocs().to_vec(),
            horizon: None,
        }
    }

    /// The same scenario with the preemption `conf` (and the QOS dump of
    /// `accounting`) configure ([`crate::preemption`]); a mode slasim does
    /// not model (`SUSPEND`, `GANG`, `WITHIN`) is a located error.
    pub fn with_preemption(
        mut self,
        conf: &SlurmConf,
        accounting: &Accounting,
        workload: &SlurmWorkload,
    ) -> Result<Scenario, crate::preemption::PreemptError> {
        self.controller.preempt =
            crate::preemption::Preemption::new(conf, accounting, workload, &self.controller.jobs)?;
        Ok(self)
    }

    /// The same scenario with slurmctld started at `origin` on the
    /// workload's time axis (0 is the first submission), which sets the
    /// phase of the periodic events.
    pub fn controller_started_at(mut self, origin: slasim_sim::units::Time) -> Scenario {
        self.controller.settings.started = origin;
        self
    }

    /// The same scenario with slurmctld's backfill agent started at
    /// `origin` on the workload's time axis: the phase of its passes.
    pub fn backfill_started_at(mut self, origin: slasim_sim::units::Time) -> Scenario {
        self.controller.settings.backfill_started = Some(origin);
        self
    }

    /// The same scenario with every will-run test walking the running jobs
    /// ([`Settings::walk_releases`]): the reference for the fitting orders.
    pub fn walking_releases(mut self) -> Scenario {
        self.controller.settings.walk_releases = true;
        self
    }

    /// The same scenario with runs that end by `run_end` (their start plus
    /// their run time when not set).
    pub fn ending_runs(mut self, run_end: crate::queued::RunEnd) -> Scenario {
        self.controller.settings.run_end = run_end;
        self
    }

    /// The same scenario resumed from a snapshot ([`crate::forecast`]):
    /// `running` on their nodes since their start (not submitted), and per
    /// job its run time and its priority's fixed part and age origin.
    pub fn resumed(
        mut self,
        running: Vec<crate::controller::Resumed>,
        runs: &[Time],
        priority: &[(f64, Time)],
    ) -> Scenario {
        let p = &mut self.controller;
        for (j, job) in p.jobs.iter_mut().enumerate() {
            job.run = runs[j];
            (job.fixed.weighted, job.submit) = priority[j];
        }
        let resumed: std::collections::HashSet<u32> = running.iter().map(|r| r.job).collect();
        self.arrivals.retain(|a| !resumed.contains(&a.job));
        p.running = running;
        self
    }

    /// The same scenario with node events ([`crate::outage`]).
    pub fn with_outages(mut self, outages: Option<crate::outage::Outages>) -> Scenario {
        self.controller.outages = outages;
        self
    }

    /// The same scenario ending at `horizon` at the latest: the jobs not
    /// started by then never start.
    pub fn until(mut self, horizon: Time) -> Scenario {
        self.horizon = Some(horizon);
        self
    }

    /// What job `j` needs on each of its nodes, as admitted.
    pub fn need_of(&self, j: u32) -> Need {
        self.controller.jobs[j as usize].need
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.controller.machine
    }
}

/// Runs `scenario` to the end.
pub fn simulate(scenario: Scenario) -> Result<Simulated, SimError> {
    let Scenario { controller, arrivals, horizon: until, .. } = scenario;
    let last_submit = arrivals.last().map_or(0, |a| a.at);
    let counts: Vec<u32> = controller.jobs.iter().map(|j| j.need.nodes).collect();
    // The first node change after the first submission (those before are
    // made as the controller is built).
    let first_change = controller.outages.as_ref().and_then(|o| o.first_after(0).map(|i| o.changes[i].at));
    let resumed_ends: Vec<(u32, Time)> =
        controller.running.iter().map(|r| (r.job, r.end(&controller.jobs[r.job as usize]))).collect();
    // A node out for good may leave jobs that never start, and the periodic
    // events go on while they wait: the run ends a year after its last
    // submission or node change.
    let horizon = match &controller.outages {
        Some(o) if o.open => {
            last_submit.max(o.changes.last().map_or(0, |c| c.at)).saturating_add(crate::conf::YEAR_SECONDS)
        }
        _ => slasim_sim::units::Time::MAX / 4,
    };
    let horizon = until.map_or(horizon, |t| t.min(horizon));
    let mut bench = Bench::new(horizon)?;
    let at = bench.reserve::<Controller>();
    let mut client = ClientActor::new(arrivals);
    client.output.connect(at.input());
    let first = client.first_event();
    let client = bench.add(client);
    if let Some(first) = first {
        bench.seed(client, first)?;
    }
    bench.place(at, Controller::new(controller));
    if let Some(t) = first_change {
        bench.seed(at, Scheduled::me(t, NODE, ControllerMsg::Nodes))?;
    }
    for (j, end) in resumed_ends {
        bench.seed(at, Scheduled::me(end, JOB_END, ControllerMsg::End(j)))?;
    }
    // A simulated day at a time, to say where the run is; the kernel's order
    // of events is the same as in one run to the end.
    let mut until = 0;
    loop {
        // Past the events run so far, so that a long quiet stretch is crossed.
        until = until.max(bench.now()).saturating_add(DAY);
        match bench.step(until)? {
            Stop::Ended | Stop::Finished => break,
            Stop::Reached | Stop::Suspended(_) => {
                slasim_core::experiment::progress::report(|| day_line(until, last_submit));
            }
        }
    }
    let kernel = bench.stats();
    let done = bench.finish(at)?;
    Ok(Simulated {
        reasons: done.reasons,
        waits: done.waits,
        stopped: done.stopped,
        outcomes: done.outcomes,
        counters: done.counters,
        kernel,
        nodes: done.nodes,
        node_at: done.node_at,
        counts,
    })
}
