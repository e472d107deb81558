//! The provisioning bench: per site a job client feeding it, and a
//! provisioner, a workflow executor and/or a reservation buyer asking the
//! sites through their ports.
//!
//! Contract: [`simulate_provisioning`] assembles the bench, seeds the first
//! events (per site its client's, then the site's own; then the
//! provisioner's, the executor's and the buyer's) and runs the kernel, on the
//! calling thread, until nothing is left before the horizon, or
//! until the executor's workflow is done. Each request carries its asker's
//! input: a site answers there, and tells a task's end to the model that
//! placed the task, nowhere else.

use crate::buyer::{BuyerActor, PricedRecord};
use crate::executor::{Execution, ExecutorActor};
use crate::provisioner::{ProvisionerActor, SubmissionRecord};
use crate::site::{SiteActor, SiteResult, SlotScheduler};
use slasim_core::sim::bench::Bench;
use slasim_core::sim::client::ClientActor;
use slasim_core::sim::kernel::{KernelStats, SimError};
use slasim_core::units::Time;
use slasim_single::workload::job::Job;

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

/// Runs one provisioning scenario.
pub fn simulate_provisioning(scenario: ProvisionScenario) -> Result<ProvisionSimulated, SimError> {
    let mut bench = Bench::new(scenario.horizon)?;
    let mut provisioner = scenario.provisioner.map(|p| (bench.reserve::<ProvisionerActor>(), p));
    let mut executor = scenario.executor.map(|e| (bench.reserve::<ExecutorActor>(), e));
    let mut buyer = scenario.buyer.map(|b| (bench.reserve::<BuyerActor>(), b));
    if let Some((at, p)) = provisioner.as_mut() {
        p.sites.answers = Some(at.input());
    }
    if let Some((at, e)) = executor.as_mut() {
        e.sites.answers = Some(at.input());
    }
    if let Some((at, b)) = buyer.as_mut() {
        b.site.answers = Some(at.input());
    }
    let asker_at = (
        provisioner.as_ref().map(|(at, _)| *at),
        executor.as_ref().map(|(at, _)| *at),
        buyer.as_ref().map(|(at, _)| *at),
    );
    let mut sites = Vec::with_capacity(scenario.sites.len());
    for (i, site) in scenario.sites.into_iter().enumerate() {
        let mut actor = SiteActor::new(i as u32, site.scheduler, site.sample);
        let first_events = actor.first_events();
        let at = bench.add(actor);
        let mut client = ClientActor::new(site.jobs);
        client.output.connect(at.input());
        let first = client.first_event();
        let client = bench.add(client);
        if let Some(first) = first {
            bench.seed(client, first)?;
        }
        for event in first_events {
            bench.seed(at, event)?;
        }
        if let Some((_, p)) = provisioner.as_mut() {
            p.sites.connect(i, at.input());
        }
        if let Some((_, e)) = executor.as_mut() {
            e.sites.connect(i, at.input());
        }
        if let (0, Some((_, b))) = (i, buyer.as_mut()) {
            b.site.connect(0, at.input());
        }
        sites.push(at);
    }
    if let Some((at, p)) = provisioner {
        if let Some(first) = p.first_event() {
            bench.seed(at, first)?;
        }
        bench.place(at, p);
    }
    if let Some((at, e)) = executor {
        bench.seed(at, e.first_event())?;
        bench.stop_when(e.done_flag());
        bench.place(at, e);
    }
    if let Some((at, b)) = buyer {
        if let Some(first) = b.first_event() {
            bench.seed(at, first)?;
        }
        bench.place(at, b);
    }
    let kernel = bench.run()?;
    let mut results = Vec::with_capacity(sites.len());
    for at in sites {
        results.push(bench.finish(at)?);
    }
    let submissions = match asker_at.0 {
        Some(at) => bench.finish(at)?,
        None => Vec::new(),
    };
    let execution = match asker_at.1 {
        Some(at) => Some(bench.finish(at)?),
        None => None,
    };
    let purchases = match asker_at.2 {
        Some(at) => bench.finish(at)?,
        None => Vec::new(),
    };
    Ok(ProvisionSimulated { sites: results, submissions, execution, purchases, kernel })
}
