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
//! - [`simulate`]: one job client and one failure injector feeding one cluster
//!   ([`simulate_outcomes`]: the same without the execution list);
//! - [`simulate_grid`]: per cluster a job client feeding it, and a request
//!   client feeding the broker, whose port `lrs[i]` reaches cluster i's LRS
//!   and whose reply input every cluster's reply port reaches.
//! - [`simulate_provisioning`]: per provisioning site a job client feeding
//!   it; a provisioner and/or a workflow executor whose port `sites[i]`
//!   reaches site i and whose reply input every site's reply port reaches.
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
use crate::provision::buyer::{BuyerActor, PricedRecord};
use crate::provision::executor::{Execution, ExecutorActor};
use crate::provision::provisioner::{ProvisionerActor, SubmissionRecord};
use crate::provision::site::{SiteActor, SiteResult, SlotScheduler};
use crate::sim::client::ClientActor;
use crate::sim::cluster::{ClusterActor, ClusterResult};
use crate::sim::event::{DeliverBatch, Event, Finish};
use crate::sim::injector::FailureInjector;
use crate::sim::kernel::{Batch, Bench, Handled, Kernel, KernelStats, SimError};
use crate::stats::calibration::OnlineCalibrator;
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
    /// Online PoF calibration (issue 17), if any.
    pub calibrator: Option<OnlineCalibrator>,
}

impl Scenario {
    /// A cluster of `capacity` nodes running `strategy` on `jobs` under
    /// `failures`, without checkpointing or PoF calibration.
    pub fn new(capacity: u32, jobs: Vec<Job>, failures: FailureStream, strategy: Box<dyn Strategy>) -> Scenario {
        Scenario { capacity, jobs, failures, strategy, checkpoint: None, calibrator: None }
    }
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
    sites: Vec<ActorRef<SiteActor>>,
    provisioners: Vec<ActorRef<ProvisionerActor>>,
    executors: Vec<ActorRef<ExecutorActor>>,
    buyers: Vec<ActorRef<BuyerActor>>,
    /// Set by an executor when its workflow is done: the run may stop.
    done: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
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
            (3, i) => answered("broker", self.brokers[i].ask(d).await),
            (4, i) => answered("site", self.sites[i].ask(d).await),
            (5, i) => answered("provisioner", self.provisioners[i].ask(d).await),
            (6, i) => answered("executor", self.executors[i].ask(d).await),
            (_, i) => answered("buyer", self.buyers[i].ask(d).await),
        }
    }

    fn finished(&self) -> bool {
        self.done.as_ref().is_some_and(|d| d.load(std::sync::atomic::Ordering::Relaxed))
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
        for actor in &self.sites {
            let _ = actor.stop_gracefully().await;
        }
        for actor in &self.provisioners {
            let _ = actor.stop_gracefully().await;
        }
        for actor in &self.executors {
            let _ = actor.stop_gracefully().await;
        }
        for actor in &self.buyers {
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
    runtime()?.block_on(run(scenario, true))
}

/// [`simulate`] for a run that is only stored: the same records, node events
/// and summary, but `cluster.executions` is left empty.
pub fn simulate_outcomes(scenario: Scenario) -> Result<Simulated, SimError> {
    runtime()?.block_on(run(scenario, false))
}

async fn run(mut scenario: Scenario, executions: bool) -> Result<Simulated, SimError> {
    // The strategy sees the workload before the first event.
    scenario.strategy.begin(&scenario.jobs)?;
    let mut kernel = Kernel::new(horizon(&scenario.jobs));
    let jobs = scenario.jobs.len();
    let mut client = ClientActor::new(0, scenario.jobs);
    client.output.connect(ClusterActor::JOBS, 0);
    let mut injector = FailureInjector::new(0, scenario.failures);
    injector.output.connect(ClusterActor::NODE_EVENTS, 0);
    for first in [client.first_event(), injector.first_event()].into_iter().flatten() {
        kernel.schedule(first)?;
    }
    let mut cluster = ClusterActor::new(0, scenario.capacity, scenario.checkpoint, scenario.strategy)
        .with_calibrator(scenario.calibrator)
        .expecting_jobs(jobs);
    if !executions {
        cluster = cluster.without_executions();
    }
    let mut models = Models {
        clients: vec![ClientRef::Jobs(spawn(client))],
        clusters: vec![spawn(cluster)],
        injectors: vec![spawn(injector)],
        ..Models::default()
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

/// One provisioning site of a bench.
pub struct ProvisionSite {
    /// Its scheduler (fresh, or a snapshot to fork from).
    pub scheduler: SlotScheduler,
    /// Background jobs still to arrive, ordered by occurrence.
    pub jobs: Vec<Job>,
    /// Record slot statistics at each arrival.
    pub sample: bool,
}

/// Everything one provisioning simulation (a main run or a fork) needs.
pub struct ProvisionScenario {
    /// The sites.
    pub sites: Vec<ProvisionSite>,
    /// A provisioner (ports unconnected), if any.
    pub provisioner: Option<ProvisionerActor>,
    /// A workflow executor (ports unconnected), if any.
    pub executor: Option<ExecutorActor>,
    /// A reservation buyer on site 0 (ports unconnected), if any.
    pub buyer: Option<BuyerActor>,
    /// Nothing after this instant is simulated.
    pub horizon: Time,
}

/// What one provisioning simulation produced.
#[derive(Debug, Clone)]
pub struct ProvisionSimulated {
    /// Each site's final state and samples.
    pub sites: Vec<SiteResult>,
    /// The provisioner's records.
    pub submissions: Vec<SubmissionRecord>,
    /// The executor's result.
    pub execution: Option<Execution>,
    /// The buyer's records.
    pub purchases: Vec<PricedRecord>,
    /// Kernel statistics.
    pub kernel: KernelStats,
}

/// Runs one provisioning scenario on a fresh single-threaded runtime.
pub fn simulate_provisioning(scenario: ProvisionScenario) -> Result<ProvisionSimulated, SimError> {
    runtime()?.block_on(run_provisioning(scenario))
}

async fn run_provisioning(scenario: ProvisionScenario) -> Result<ProvisionSimulated, SimError> {
    let mut kernel = Kernel::new(scenario.horizon);
    let mut models = Models::default();
    let mut provisioner = scenario.provisioner;
    let mut executor = scenario.executor;
    let mut buyer = scenario.buyer;
    for (i, site) in scenario.sites.into_iter().enumerate() {
        let mut client = ClientActor::new(i, site.jobs);
        client.output.connect(SiteActor::JOBS, i);
        if let Some(first) = client.first_event() {
            kernel.schedule(first)?;
        }
        let mut actor = SiteActor::new(i as u32, site.scheduler, site.sample);
        for event in actor.first_events() {
            kernel.schedule(event)?;
        }
        if let Some(p) = provisioner.as_mut() {
            actor.replies.connect(ProvisionerActor::REPLIES, 0);
            if let Some(port) = p.sites.get_mut(i) {
                port.connect(SiteActor::REQUESTS, i);
            }
        }
        if let (0, Some(b)) = (i, buyer.as_mut()) {
            actor.replies.connect(BuyerActor::REPLIES, 0);
            b.site.connect(SiteActor::REQUESTS, 0);
        }
        if let Some(e) = executor.as_mut() {
            actor.replies.connect(ExecutorActor::REPLIES, 0);
            if let Some(port) = e.sites.get_mut(i) {
                port.connect(SiteActor::REQUESTS, i);
            }
        }
        models.clients.push(ClientRef::Jobs(spawn(client)));
        models.sites.push(spawn(actor));
    }
    if let Some(p) = provisioner {
        if let Some(first) = p.first_event() {
            kernel.schedule(first)?;
        }
        models.provisioners.push(spawn(p));
    }
    if let Some(e) = executor {
        kernel.schedule(e.first_event())?;
        models.done = Some(e.done_flag());
        models.executors.push(spawn(e));
    }
    if let Some(b) = buyer {
        if let Some(first) = b.first_event() {
            kernel.schedule(first)?;
        }
        models.buyers.push(spawn(b));
    }
    let kernel_stats = kernel.run(&mut models).await?;
    let mut sites = Vec::with_capacity(models.sites.len());
    for actor in &models.sites {
        sites.push(actor.ask(Finish).await.map_err(stopped("site"))?);
    }
    let submissions = match models.provisioners.first() {
        Some(p) => p.ask(Finish).await.map_err(stopped("provisioner"))?,
        None => Vec::new(),
    };
    let execution = match models.executors.first() {
        Some(e) => Some(e.ask(Finish).await.map_err(stopped("executor"))?),
        None => None,
    };
    let purchases = match models.buyers.first() {
        Some(b) => b.ask(Finish).await.map_err(stopped("buyer"))?,
        None => Vec::new(),
    };
    models.stop().await;
    Ok(ProvisionSimulated { sites, submissions, execution, purchases, kernel: kernel_stats })
}
