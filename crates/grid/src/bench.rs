//! The Grid bench: per cluster a job client feeding it, and a request client
//! feeding the broker, whose port `lrs[i]` reaches cluster i's LRS.
//!
//! Reference: `coreservation-thesis-spec.md` §5.3 (the Grid simulator:
//! batch-system managers feeding clusters, a reservation manager feeding the
//! broker).
//!
//! Contract: [`simulate_grid`] assembles the bench, seeds each client's first
//! event (clusters in order, then the request client) and runs the kernel to
//! the end, on the calling thread. Each question the broker asks
//! carries the broker's input: the clusters answer there and nowhere else.

use std::sync::Arc;

use crate::broker::{BrokerActor, BrokerResult};
use crate::lrs::{LocalReservations, Lrs, LrsReport};
use crate::workload::corequest::CoRequest;
use slasim_core::sim::bench::Bench;
use slasim_core::sim::client::{ClientActor, Submission};
use slasim_core::sim::kernel::{Class, KernelStats, SimError};
use slasim_core::units::Time;
use slasim_single::cluster::{self, ClusterActor, ClusterResult, instant};
use slasim_single::policy::ReservingStrategy;
use slasim_single::workload::job::Job;

impl Submission for CoRequest {
    const CLASS: Class = instant::REQUEST;
    fn submitted_at(&self) -> Time {
        self.submit
    }
}

/// One cluster of a Grid.
pub struct GridCluster {
    /// CPUs.
    pub capacity: u32,
    /// Its local jobs, ordered by occurrence, ids 0..n within the cluster.
    pub jobs: Vec<Job>,
    /// Its local scheduler (one that takes advance reservations).
    pub strategy: Box<dyn ReservingStrategy>,
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
    pub clusters: Vec<ClusterResult<LrsReport>>,
    /// The broker's request records.
    pub broker: BrokerResult,
    /// Kernel statistics.
    pub kernel: KernelStats,
}

/// Runs one Grid scenario to the end.
pub fn simulate_grid(scenario: GridScenario) -> Result<GridSimulated, SimError> {
    let mut bench = Bench::new(Time::MAX)?;
    let mut broker = scenario.broker;
    let broker_at = bench.reserve::<BrokerActor>();
    broker.answers = Some(broker_at.input());
    let mut clusters = Vec::with_capacity(scenario.clusters.len());
    for (i, c) in scenario.clusters.into_iter().enumerate() {
        let jobs: Arc<[Job]> = c.jobs.into();
        let by_id = cluster::by_id(&jobs).ok_or_else(|| SimError::Model {
            model: format!("cluster {i}"),
            at: 0,
            what: "its job ids are not 0..n".into(),
        })?;
        let drive = LocalReservations { cluster: i as u32, strategy: c.strategy, lrs: c.lrs };
        let at = bench.add(ClusterActor::new(i, c.capacity, by_id, None, drive));
        let mut client = ClientActor::new(jobs);
        client.output.connect(at.input());
        let first = client.first_event();
        let client = bench.add(client);
        if let Some(first) = first {
            bench.seed(client, first)?;
        }
        if let Some(port) = broker.lrs.get_mut(i) {
            port.connect(at.input());
        }
        clusters.push(at);
    }
    let mut requests = ClientActor::new(scenario.requests);
    requests.output.connect(broker_at.input());
    let first = requests.first_event();
    let requests = bench.add(requests);
    if let Some(first) = first {
        bench.seed(requests, first)?;
    }
    bench.place(broker_at, broker);
    let kernel = bench.run()?;
    let mut results = Vec::with_capacity(clusters.len());
    for at in clusters {
        results.push(bench.finish(at)?);
    }
    let broker = bench.finish(broker_at)?;
    Ok(GridSimulated { clusters: results, broker, kernel })
}
