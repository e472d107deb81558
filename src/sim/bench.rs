//! Benches: models and their connections, and running one simulation.
//!
//! Reference: NeXosim's bench assembly (models own their state, talk through
//! typed messages over connected ports; the simulation steps virtual time);
//! `coreservation-thesis-spec.md` §5.3 (the Grid simulator: batch-system
//! managers feeding clusters, a reservation manager feeding the broker).
//!
//! Contract: a bench spawns a kameo actor per model, connects their ports,
//! seeds the kernel with the models' first events and runs it to the end on
//! its own single-threaded tokio runtime. Two assemblies of the same models:
//! - [`simulate`]: one job client and one failure injector feeding one cluster;
//! - [`simulate_grid`]: per cluster a job client feeding it, and a request
//!   client feeding the broker, whose port `lrs[i]` reaches cluster i's LRS
//!   and whose reply input every cluster's reply port reaches.
//!
//! The result depends only on the scenario: no shared state, no wall clock,
//! no thread-count effects.

use kameo::actor::{ActorRef, Spawn};
use kameo::error::SendError;
use kameo::mailbox;

use crate::grid::broker::{BrokerActor, BrokerResult};
use crate::grid::lrs::Lrs;
use crate::grid::request::CoRequest;
use crate::policy::Strategy;
use crate::policy::overbooking::CheckpointConfig;
use crate::sim::client::ClientActor;
use crate::sim::cluster::{ClusterActor, ClusterResult};
use crate::sim::event::{DeliverBatch, Event, Finish};
use crate::sim::injector::FailureInjector;
use crate::sim::kernel::{Batch, Bench, Handled, Kernel, KernelStats, SimError};
use crate::units::Time;
use crate::workload::failures::FailureStream;
use crate::workload::job::Job;

/// Everything one single-cluster simulation needs.
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

/// What one single-cluster simulation produced.
#[derive(Debug, Clone)]
pub struct Simulated {
    /// The cluster's records and node events.
    pub cluster: ClusterResult,
    /// Kernel statistics.
    pub kernel: KernelStats,
}

/// One cluster of a Grid.
pub struct GridCluster {
    /// CPUs.
    pub capacity: u32,
    /// Its local jobs, ordered by occurrence, ids unique within the cluster.
    pub jobs: Vec<Job>,
    /// Its local scheduler (one that takes advance reservations).
    pub strategy: Box<dyn Strategy>,
    /// Its local reservation service.
    pub lrs: Lrs,
}

/// Everything one Grid simulation needs.
pub struct GridScenario {
    /// The clusters, candidate 0 first.
    pub clusters: Vec<GridCluster>,
    /// Co-reservation requests, ordered by submit time.
    pub requests: Vec<CoRequest>,
    /// The broker with its algorithm (ports unconnected).
    pub broker: BrokerActor,
}

/// What one Grid simulation produced.
#[derive(Debug, Clone)]
pub struct GridSimulated {
    /// Each cluster's records, reservations and backlog integrals.
    pub clusters: Vec<ClusterResult>,
    /// The broker's request records.
    pub broker: BrokerResult,
    /// Kernel statistics.
    pub kernel: KernelStats,
}

/// A client of either kind.
enum ClientRef {
    Jobs(ActorRef<ClientActor<Job>>),
    Requests(ActorRef<ClientActor<CoRequest>>),
}

/// The spawned models of a bench: routes each event to its model.
#[derive(Default)]
struct Models {
    clients: Vec<ClientRef>,
    clusters: Vec<ActorRef<ClusterActor>>,
    injectors: Vec<ActorRef<FailureInjector>>,
    brokers: Vec<ActorRef<BrokerActor>>,
}

fn stopped<E: std::fmt::Debug>(model: &str) -> impl FnOnce(E) -> SimError + '_ {
    move |e| SimError::ModelStopped { model: model.to_string(), reason: format!("{e:?}") }
}

/// The kernel has at most one message in flight, so a model's mailbox never fills.
const MAILBOX: usize = 4;

fn spawn<A: kameo::Actor<Args = A>>(actor: A) -> ActorRef<A> {
    A::spawn_with_mailbox(actor, mailbox::bounded(MAILBOX))
}

/// The reply to a batch: the model's own error, or why it could not answer.
fn answered<M>(model: &str, reply: Result<Handled<Event>, SendError<M, SimError>>) -> Result<Handled<Event>, SimError> {
    reply.map_err(|e| match e {
        SendError::HandlerError(e) => e,
        other => SimError::ModelStopped { model: model.to_string(), reason: format!("{:?}", other.map_msg(|_| ())) },
    })
}

impl Bench for Models {
    type Payload = Event;

    fn address(&self, payload: &Event) -> (u8, usize) {
        payload.address()
    }

    async fn deliver(&mut self, batch: Batch<Event>) -> Result<Handled<Event>, SimError> {
        let Some(address) = batch.items.first().map(|(_, e)| e.address()) else {
            return Ok(Handled { events: Vec::new(), next_seq: batch.next_seq, delivered: 0, last_time: 0 });
        };
        let d = DeliverBatch(batch);
        match address {
            (0, i) => match &self.clients[i] {
                ClientRef::Jobs(c) => answered("client", c.ask(d).await),
                ClientRef::Requests(c) => answered("request client", c.ask(d).await),
            },
            (1, i) => answered("cluster", self.clusters[i].ask(d).await),
            (2, i) => answered("injector", self.injectors[i].ask(d).await),
            (_, i) => answered("broker", self.brokers[i].ask(d).await),
        }
    }
}

impl Models {
    async fn stop(self) {
        for client in &self.clients {
            let _ = match client {
                ClientRef::Jobs(c) => c.stop_gracefully().await,
                ClientRef::Requests(c) => c.stop_gracefully().await,
            };
        }
        for actor in &self.injectors {
            let _ = actor.stop_gracefully().await;
        }
        for actor in &self.clusters {
            let _ = actor.stop_gracefully().await;
        }
        for actor in &self.brokers {
            let _ = actor.stop_gracefully().await;
        }
    }
}

/// The last deadline: nothing after it can change an outcome.
fn horizon(jobs: &[Job]) -> Time {
    jobs.iter().map(|j| j.deadline.max(j.occurrence + j.estimate)).max().unwrap_or(0)
}

fn runtime() -> Result<tokio::runtime::Runtime, SimError> {
    Ok(tokio::runtime::Builder::new_current_thread().build()?)
}

/// Runs one single-cluster scenario to the end on a fresh single-threaded runtime.
pub fn simulate(scenario: Scenario) -> Result<Simulated, SimError> {
    runtime()?.block_on(run(scenario))
}

async fn run(scenario: Scenario) -> Result<Simulated, SimError> {
    let mut kernel = Kernel::new(horizon(&scenario.jobs));
    let mut client = ClientActor::new(0, scenario.jobs);
    client.output.connect(ClusterActor::JOBS, 0);
    let mut injector = FailureInjector::new(0, scenario.failures);
    injector.output.connect(ClusterActor::NODE_EVENTS, 0);
    for first in [client.first_event(), injector.first_event()].into_iter().flatten() {
        kernel.schedule(first)?;
    }
    let cluster = ClusterActor::new(0, scenario.capacity, scenario.checkpoint, scenario.strategy);
    let mut models = Models {
        clients: vec![ClientRef::Jobs(spawn(client))],
        clusters: vec![spawn(cluster)],
        injectors: vec![spawn(injector)],
        brokers: Vec::new(),
    };
    let kernel_stats = kernel.run(&mut models).await?;
    let cluster = models.clusters[0].ask(Finish).await.map_err(stopped("cluster"))?;
    models.stop().await;
    Ok(Simulated { cluster, kernel: kernel_stats })
}

/// Runs one Grid scenario to the end on a fresh single-threaded runtime.
pub fn simulate_grid(scenario: GridScenario) -> Result<GridSimulated, SimError> {
    runtime()?.block_on(run_grid(scenario))
}

async fn run_grid(scenario: GridScenario) -> Result<GridSimulated, SimError> {
    let mut kernel = Kernel::new(Time::MAX);
    let mut models = Models::default();
    let mut broker = scenario.broker;
    let count = scenario.clusters.len();
    for (i, c) in scenario.clusters.into_iter().enumerate() {
        let mut client = ClientActor::new(i, c.jobs);
        client.output.connect(ClusterActor::JOBS, i);
        if let Some(first) = client.first_event() {
            kernel.schedule(first)?;
        }
        let mut cluster = ClusterActor::new(i, c.capacity, None, c.strategy).with_lrs(c.lrs);
        cluster.replies.connect(BrokerActor::REPLIES, 0);
        if let Some(port) = broker.lrs.get_mut(i) {
            port.connect(ClusterActor::LRS, i);
        }
        models.clients.push(ClientRef::Jobs(spawn(client)));
        models.clusters.push(spawn(cluster));
    }
    let mut requests = ClientActor::new(count, scenario.requests);
    requests.output.connect(BrokerActor::REQUESTS, 0);
    if let Some(first) = requests.first_event() {
        kernel.schedule(first)?;
    }
    models.clients.push(ClientRef::Requests(spawn(requests)));
    models.brokers.push(spawn(broker));
    let kernel_stats = kernel.run(&mut models).await?;
    let mut clusters = Vec::with_capacity(count);
    for actor in &models.clusters {
        clusters.push(actor.ask(Finish).await.map_err(stopped("cluster"))?);
    }
    let broker = models.brokers[0].ask(Finish).await.map_err(stopped("broker"))?;
    models.stop().await;
    Ok(GridSimulated { clusters, broker, kernel: kernel_stats })
}
