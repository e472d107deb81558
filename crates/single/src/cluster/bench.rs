//! The single-cluster bench: one job client and one failure injector feeding
//! one cluster, and an energy meter reading its node states when asked for.
//!
//! Contract: [`simulate`] assembles the bench on a [`slasim_core::sim::bench::Bench`],
//! seeds the kernel with the client's and the injector's first events and
//! runs it to the end, on the calling thread ([`simulate_outcomes`]: the
//! same without the execution list). The result depends only on the
//! scenario: no shared state, no wall clock, no thread-count effects.
//! [`Stepped`] is the same bench for a caller that steps it and decides
//! between steps by plain calls on what drives the cluster
//! ([`Stepped::when_suspended`], [`Stepped::tell`]). What drives the cluster is the
//! scenario's: a plain strategy, or one with something attached around it
//! from outside ([`crate::cluster::Drive`]), whose report comes back in the
//! result.

use std::sync::Arc;

use crate::cluster::cap::CapSeries;
use crate::cluster::carbon::{PowerProfile, PowerRecorder};
use crate::cluster::checkpoint::CheckpointConfig;
use crate::cluster::energy::{Energy, EnergyConfig, EnergyMeter};
use crate::cluster::injector::FailureInjector;
use crate::cluster::strategy::Strategy;
use crate::cluster::{self, ClusterActor, ClusterResult, Drive};
use crate::workload::failures::FailureStream;
use crate::workload::job::Job;
use slasim_core::sim::bench::Bench;
use slasim_core::sim::client::ClientActor;
use slasim_core::sim::kernel::{KernelStats, SimError, Stop};
use slasim_core::sim::port::Address;
use slasim_core::units::Time;

/// Everything one single-cluster simulation needs, its cluster driven by `D`.
pub struct Scenario<D: Drive = Box<dyn Strategy>> {
    /// Cluster size in nodes.
    pub capacity: u32,
    /// The jobs (variable jobs and reservations), ordered by occurrence, ids
    /// 0..n; shared with the battery they come from when they are all of it.
    pub jobs: Arc<[Job]>,
    /// Node failures and repairs.
    pub failures: FailureStream,
    /// The cluster's strategy (and what is attached around it).
    pub strategy: D,
    /// Checkpoint/restart of killed overbooked jobs (paper A), if any.
    pub checkpoint: Option<CheckpointConfig>,
    /// An energy meter on the cluster's node states, if any.
    pub energy: Option<EnergyConfig>,
    /// With a meter: also record the cluster's watts over time (for
    /// `[signals]`; a listener more, so off unless asked for).
    pub record_power: bool,
    /// With a meter: a cap that follows a series (`[energy.cap_series]`,
    /// aligned onto the run's time).
    pub cap: Option<CapSeries>,
}

impl Scenario {
    /// A cluster of `capacity` nodes running `strategy` on `jobs` under
    /// `failures`, without checkpointing.
    pub fn new(
        capacity: u32,
        jobs: impl Into<Arc<[Job]>>,
        failures: FailureStream,
        strategy: Box<dyn Strategy>,
    ) -> Scenario {
        Scenario {
            capacity,
            jobs: jobs.into(),
            failures,
            strategy,
            checkpoint: None,
            energy: None,
            record_power: false,
            cap: None,
        }
    }
}

impl Scenario {
    /// The same scenario driven by `drive` (the strategy with something
    /// attached around it) instead of the plain strategy.
    pub fn driven_by<D: Drive>(self, drive: impl FnOnce(Box<dyn Strategy>) -> D) -> Scenario<D> {
        let Scenario { capacity, jobs, failures, strategy, checkpoint, energy, record_power, cap } = self;
        Scenario { capacity, jobs, failures, strategy: drive(strategy), checkpoint, energy, record_power, cap }
    }
}

/// What one single-cluster simulation produced, with `R`, the report of
/// what drove its cluster.
#[derive(Debug, Clone)]
pub struct Simulated<R: Send + 'static = ()> {
    /// The cluster's records and node events.
    pub cluster: ClusterResult<R>,
    /// Kernel statistics.
    pub kernel: KernelStats,
    /// The meter's reading over the run's makespan window, if it had one.
    pub energy: Option<Energy>,
    /// The cluster's watts over the meter's window, if recorded.
    pub power: Option<PowerProfile>,
}

impl<R: Send + 'static> Simulated<R> {
    /// The result without the report, and the report.
    pub fn split(self) -> (Simulated, R) {
        let (cluster, report) = self.cluster.split();
        (Simulated { cluster, kernel: self.kernel, energy: self.energy, power: self.power }, report)
    }
}

/// The last deadline: nothing after it can change an outcome.
pub fn horizon(jobs: &[Job]) -> Time {
    jobs.iter().map(|j| j.deadline.max(j.occurrence + j.estimate)).max().unwrap_or(0)
}

/// Runs one single-cluster scenario to the end.
pub fn simulate<D: Drive>(scenario: Scenario<D>) -> Result<Simulated<D::Report>, SimError> {
    run(scenario, true)
}

/// [`simulate`] for a run that is only stored: the same records, node events
/// and summary, but `cluster.executions` is left empty.
pub fn simulate_outcomes<D: Drive>(scenario: Scenario<D>) -> Result<Simulated<D::Report>, SimError> {
    run(scenario, false)
}

fn run<D: Drive>(scenario: Scenario<D>, executions: bool) -> Result<Simulated<D::Report>, SimError> {
    let mut bench = Stepped::assemble(scenario, executions)?;
    let kernel = bench.bench.run()?;
    bench.finish(kernel)
}

/// A single-cluster bench assembled and seeded, for its caller to run or
/// step ([`Stepped::step`]): an environment that decides between steps
/// holds one and hands its decisions to what drives the cluster
/// ([`Stepped::tell`]).
pub struct Stepped<D: Drive> {
    bench: Bench,
    cluster: Address<ClusterActor<D>>,
    meter: Option<Address<EnergyMeter>>,
    recorder: Option<Address<PowerRecorder>>,
}

impl<D: Drive> Stepped<D> {
    /// Assembles and seeds the bench of `scenario`; `executions`: the
    /// cluster hands back its execution list.
    pub fn assemble(mut scenario: Scenario<D>, executions: bool) -> Result<Stepped<D>, SimError> {
        // The strategy sees the workload before the first event.
        scenario.strategy.strategy().begin(&scenario.jobs)?;
        let mut bench = Bench::new(horizon(&scenario.jobs))?;
        let by_id = cluster::by_id(&scenario.jobs).ok_or_else(|| SimError::Model {
            model: "cluster 0".into(),
            at: 0,
            what: "its job ids are not 0..n".into(),
        })?;
        let first_submission = scenario.jobs.first().map_or(0, |j| j.occurrence);
        let at = bench.reserve::<ClusterActor<D>>();
        let mut client = ClientActor::new(scenario.jobs);
        client.output.connect(at.input());
        let mut injector = FailureInjector::new(scenario.failures);
        injector.output.connect(at.input());
        let (first_job, first_failure) = (client.first_event(), injector.first_event());
        let client = bench.add(client);
        let injector = bench.add(injector);
        if let Some(first) = first_job {
            bench.seed(client, first)?;
        }
        if let Some(first) = first_failure {
            bench.seed(injector, first)?;
        }
        let mut cluster = ClusterActor::new(0, scenario.capacity, by_id, scenario.checkpoint, scenario.strategy);
        if !executions {
            cluster = cluster.without_executions();
        }
        if let Some(model) = &scenario.energy {
            cluster = cluster.with_power(model);
            if let Some(cap) = scenario.cap {
                cluster = cluster.with_cap_series(cap);
            }
        }
        let meter =
            scenario.energy.map(|watts| bench.add(EnergyMeter::new(watts, scenario.capacity, first_submission)));
        if let Some(meter) = meter {
            cluster.node_states.connect(meter.input());
        }
        let recorder = scenario
            .energy
            .filter(|_| scenario.record_power)
            .map(|watts| bench.add(PowerRecorder::new(watts, scenario.capacity, first_submission)));
        if let Some(recorder) = recorder {
            cluster.node_states.connect(recorder.input());
        }
        bench.place(at, cluster);
        Ok(Stepped { bench, cluster: at, meter, recorder })
    }

    /// Runs the kernel up to `until`, or until the strategy suspends for its
    /// caller (the kernel's contract).
    pub fn step(&mut self, until: Time) -> Result<Stop, SimError> {
        self.bench.step(until)
    }

    /// Calls `f` on what drives the cluster, between two steps, and returns
    /// what it returns: an environment reads what the strategy suspended with.
    pub fn call<R: Send + 'static>(&mut self, f: impl FnOnce(&mut D) -> R + Send + 'static) -> Result<R, SimError> {
        self.bench.call(self.cluster, move |cluster: &mut ClusterActor<D>| f(cluster.drive_mut()))
    }

    /// Hands `f` to what drives the cluster, to run before the cluster's
    /// next event, and returns at once: an environment hands the strategy
    /// its decision, which it goes on with at the next step.
    pub fn tell(&mut self, f: impl FnOnce(&mut D) + Send + 'static) -> Result<(), SimError> {
        self.bench.tell(self.cluster, move |cluster: &mut ClusterActor<D>| f(cluster.drive_mut()))
    }

    /// Has the cluster hand its caller what `f` makes of what drives it each
    /// time the strategy suspends: what it waits with, taken by
    /// [`Stepped::suspended_with`] after the step, with no call.
    pub fn when_suspended<T: Send + 'static>(
        &mut self,
        mut f: impl FnMut(&mut D) -> T + Send + 'static,
    ) -> Result<(), SimError> {
        self.bench.when_suspended(self.cluster, move |cluster: &mut ClusterActor<D>| f(cluster.drive_mut()))
    }

    /// What the cluster handed over when the strategy suspended in the last
    /// step ([`Stepped::when_suspended`]), if it is a `T`; taken.
    pub fn suspended_with<T: 'static>(&mut self) -> Option<T> {
        self.bench.suspended_with()
    }

    /// Current virtual time.
    pub fn now(&self) -> Time {
        self.bench.now()
    }

    /// The results, once the kernel has run to the end (`kernel`: its statistics).
    pub fn finish(mut self, kernel: KernelStats) -> Result<Simulated<D::Report>, SimError> {
        let cluster = self.bench.finish(self.cluster)?;
        let energy = match self.meter {
            Some(meter) => Some(self.bench.finish(meter)?),
            None => None,
        };
        let power = match self.recorder {
            Some(recorder) => Some(self.bench.finish(recorder)?),
            None => None,
        };
        Ok(Simulated { cluster, kernel, energy, power })
    }

    /// The results of a run stepped to its end.
    pub fn finished(self) -> Result<Simulated<D::Report>, SimError> {
        let kernel = self.bench.stats();
        self.finish(kernel)
    }
}
