//! A bench: models and their connections, and running one simulation.
//!
//! Reference: NeXosim's bench assembly (models own their state, talk through
//! typed messages; the simulation steps virtual time).
//!
//! Contract: [`simulate`] runs one [`Scenario`] on its own single-threaded
//! tokio runtime: it spawns a kameo actor per model (one client, one cluster,
//! one failure injector), seeds the kernel with their first events, runs it to
//! the end and collects the cluster's records. The result depends only on the
//! scenario: no shared state, no wall clock, no thread-count effects.

use kameo::actor::{ActorRef, Spawn};

use crate::policy::Strategy;
use crate::policy::overbooking::CheckpointConfig;
use crate::sim::client::ClientActor;
use crate::sim::cluster::{ClusterActor, ClusterResult};
use crate::sim::event::{ClientMsg, ClusterMsg, Deliver, Event, Finish, InjectorMsg};
use crate::sim::injector::FailureInjector;
use crate::sim::kernel::{Bench, Kernel, KernelStats, Outbox, SimError};
use crate::units::Time;
use crate::workload::failures::FailureStream;
use crate::workload::job::Job;

/// Everything one simulation needs.
pub struct Scenario {
    /// Cluster size in nodes.
    pub capacity: u32,
    /// The jobs (variable jobs and reservations), ordered by occurrence, ids 0..n.
    pub jobs: Vec<Job>,
    /// Node failures and repairs.
    pub failures: FailureStream,
    /// The cluster's strategy.
    pub strategy: Box<dyn Strategy>,
    /// Checkpoint/restart of killed overbooked jobs (paper A), if any.
    pub checkpoint: Option<CheckpointConfig>,
}

/// What one simulation produced.
#[derive(Debug, Clone)]
pub struct Simulated {
    /// The cluster's records and node events.
    pub cluster: ClusterResult,
    /// Kernel statistics.
    pub kernel: KernelStats,
}

/// The single-cluster bench: a client and a failure injector feeding one cluster.
struct SingleCluster {
    clients: Vec<ActorRef<ClientActor>>,
    clusters: Vec<ActorRef<ClusterActor>>,
    injectors: Vec<ActorRef<FailureInjector>>,
}

fn stopped<E: std::fmt::Debug>(model: &str) -> impl FnOnce(E) -> SimError + '_ {
    move |e| SimError::ModelStopped { model: model.to_string(), reason: format!("{e:?}") }
}

impl Bench for SingleCluster {
    type Payload = Event;

    async fn deliver(&mut self, now: Time, event: Event, outbox: Outbox<Event>) -> Result<Outbox<Event>, SimError> {
        match event {
            Event::Client(i, msg) => {
                self.clients[i].ask(Deliver::<ClientMsg> { now, msg, outbox }).await.map_err(stopped("client"))
            }
            Event::Cluster(i, msg) => {
                self.clusters[i].ask(Deliver::<ClusterMsg> { now, msg, outbox }).await.map_err(stopped("cluster"))
            }
            Event::Injector(i, msg) => {
                self.injectors[i].ask(Deliver::<InjectorMsg> { now, msg, outbox }).await.map_err(stopped("injector"))
            }
        }
    }
}

/// The last deadline: nothing after it can change an outcome.
fn horizon(jobs: &[Job]) -> Time {
    jobs.iter().map(|j| j.deadline.max(j.occurrence + j.estimate)).max().unwrap_or(0)
}

/// Runs one scenario to the end on a fresh single-threaded runtime.
pub fn simulate(scenario: Scenario) -> Result<Simulated, SimError> {
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(run(scenario))
}

async fn run(scenario: Scenario) -> Result<Simulated, SimError> {
    let mut kernel = Kernel::new(horizon(&scenario.jobs));
    let client = ClientActor::new(0, 0, scenario.jobs);
    let injector = FailureInjector::new(0, 0, scenario.failures);
    for first in [client.first_event(), injector.first_event()].into_iter().flatten() {
        kernel.schedule(first)?;
    }
    let cluster = ClusterActor::new(0, scenario.capacity, scenario.checkpoint, scenario.strategy);
    let mut bench = SingleCluster {
        clients: vec![ClientActor::spawn(client)],
        clusters: vec![ClusterActor::spawn(cluster)],
        injectors: vec![FailureInjector::spawn(injector)],
    };
    let kernel_stats = kernel.run(&mut bench).await?;
    let cluster = bench.clusters[0].ask(Finish).await.map_err(stopped("cluster"))?;
    for actor in &bench.clients {
        let _ = actor.stop_gracefully().await;
    }
    for actor in &bench.injectors {
        let _ = actor.stop_gracefully().await;
    }
    let _ = bench.clusters[0].stop_gracefully().await;
    Ok(Simulated { cluster, kernel: kernel_stats })
}
