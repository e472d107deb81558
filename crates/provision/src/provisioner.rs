//! The provisioner: a workflow user's client that, at each submission
//! instant, asks every site for its advertised slots through the kernel and
//! provisions the workflow on them with the MOGA.
//!
//! Reference: `provisioning-dissertation-spec.md` §3.8 "Procedure" (at each
//! submission take the current advertised slot sets, run the MOGA once, pick a
//! plan per α), §9 steps 2–3 (submission instants; snapshot the state so the
//! what-if runs are independent), §12.2–12.3.
//!
//! Contract: at each instant (class `Request`, after the jobs submitted at the
//! same time) it sends `Advertise` to every site on its port `sites[i]`; the
//! sites answer at once (class `Negotiation`), so the slot sets and snapshots
//! it gets all describe the same instant. When the last answer is in it runs
//! the MOGA (if it has a workflow; a slot observer has none) with its own
//! random stream per submission. It changes no site's state: provisioned plans
//! are enacted only in forks ([`crate::executor`]).

use crate::moga::MogaConfig;
use crate::plan::{HoleCharging, Provisioning, provision_charging};
use crate::site::{SitePorts, SiteReply, SiteRequest, SlotScheduler};
use crate::slots::Advertised;
use crate::streams::MOGA;
use crate::workflow::Workflow;
use slasim_core::rng::stream;
use slasim_core::sim::kernel::{Model, Outbox, Scheduled, SimError};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::Receive;
use slasim_core::threads::Panicked;
use slasim_core::units::Time;
use slasim_single::cluster::instant;

/// A message for a provisioner.
#[derive(Debug, Clone, PartialEq)]
pub enum ProvisionerMsg {
    /// The next submission instant has come.
    Wake,
    /// A site answers.
    Reply(SiteReply),
}

/// What the provisioner saw and decided at one submission instant.
#[derive(Debug, Clone, PartialEq)]
pub struct SubmissionRecord {
    /// Index of the submission.
    pub index: usize,
    /// The instant.
    pub time: Time,
    /// Each site's advertised slots.
    pub slots: Vec<Vec<Advertised>>,
    /// Each site's running plus queued tasks.
    pub tasks: Vec<u32>,
    /// Each site's scheduler at that instant (if snapshots were asked for).
    pub snapshots: Vec<SlotScheduler>,
    /// The MOGA's archive and choices (none for a slot observer).
    pub provisioning: Option<Provisioning>,
}

/// What the MOGA needs.
#[derive(Debug, Clone)]
pub struct MogaJob {
    /// The workflow.
    pub workflow: Workflow,
    /// MOGA settings.
    pub config: MogaConfig,
    /// Trade-off factors to pick plans for.
    pub alphas: Vec<f64>,
    /// Experiment seed (each submission gets its own MOGA stream).
    pub seed: u64,
    /// How holes are charged.
    pub charging: HoleCharging,
    /// The run's thread budget, for the MOGA's plan evaluations (no effect on results).
    pub budget: std::sync::Arc<slasim_core::threads::Budget>,
}

/// The provisioner actor.
pub struct ProvisionerActor {
    instants: Vec<Time>,
    next: usize,
    /// One port per site, in site order.
    pub sites: SitePorts,
    snapshots: bool,
    moga: Option<MogaJob>,
    pending: Option<SubmissionRecord>,
    pending_snapshots: Vec<Option<SlotScheduler>>,
    answered: usize,
    records: Vec<SubmissionRecord>,
    /// A MOGA that panicked: the error the run ends with.
    failed: Option<(Time, Panicked)>,
    buffers: Buffers<ProvisionerMsg>,
}

impl ProvisionerActor {
    /// A provisioner for `sites` sites, waking at `instants` (sorted);
    /// `snapshots` asks the sites for full copies of their state.
    pub fn new(sites: usize, instants: Vec<Time>, snapshots: bool, moga: Option<MogaJob>) -> Self {
        ProvisionerActor {
            instants,
            next: 0,
            sites: SitePorts::new(sites),
            snapshots,
            moga,
            pending: None,
            pending_snapshots: Vec::new(),
            answered: 0,
            records: Vec::new(),
            failed: None,
            buffers: Buffers::default(),
        }
    }

    /// The first wake-up.
    pub fn first_event(&self) -> Option<Scheduled<ProvisionerMsg>> {
        self.instants.first().map(|&t| self.wake(t))
    }

    fn wake(&self, time: Time) -> Scheduled<ProvisionerMsg> {
        Scheduled::me(time, instant::REQUEST, ProvisionerMsg::Wake)
    }

    fn ask(&mut self, now: Time, outbox: &mut Outbox<ProvisionerMsg>) {
        let n = self.sites.len();
        self.pending = Some(SubmissionRecord {
            index: self.next,
            time: now,
            slots: vec![Vec::new(); n],
            tasks: vec![0; n],
            snapshots: Vec::new(),
            provisioning: None,
        });
        self.answered = 0;
        let mut snapshots = Vec::with_capacity(n);
        snapshots.resize_with(n, || None::<SlotScheduler>);
        self.pending_snapshots = snapshots;
        for site in 0..n {
            let request = SiteRequest::Advertise { snapshot: self.snapshots };
            self.sites.ask(site, now, instant::NEGOTIATION, request, outbox);
        }
        self.next += 1;
        if let Some(&t) = self.instants.get(self.next) {
            outbox.push(self.wake(t.max(now)));
        }
    }

    fn reply(&mut self, reply: SiteReply) {
        let SiteReply::Slots { site, slots, tasks, snapshot } = reply else {
            return;
        };
        let Some(record) = self.pending.as_mut() else {
            return;
        };
        let site = site as usize;
        if let Some(s) = record.slots.get_mut(site) {
            *s = slots;
            record.tasks[site] = tasks;
            self.pending_snapshots[site] = snapshot.map(|b| *b);
            self.answered += 1;
        }
        if self.answered == self.sites.len()
            && let Some(mut record) = self.pending.take()
        {
            record.snapshots = self.pending_snapshots.drain(..).flatten().collect();
            if let Some(job) = &self.moga {
                let mut rng = stream(job.seed, MOGA, record.index as u64);
                match provision_charging(
                    &job.workflow,
                    record.time,
                    &record.slots,
                    &job.config,
                    &job.alphas,
                    job.charging,
                    &job.budget,
                    &mut rng,
                ) {
                    Ok(p) => record.provisioning = Some(p),
                    // Ends the run after this batch (see `broken`).
                    Err(e) => self.failed = Some((record.time, e)),
                }
            }
            self.records.push(record);
        }
    }
}

impl Model for ProvisionerActor {
    type Msg = ProvisionerMsg;

    fn handle(&mut self, now: Time, msg: ProvisionerMsg, mut outbox: Outbox<ProvisionerMsg>) -> Outbox<ProvisionerMsg> {
        match msg {
            ProvisionerMsg::Wake => self.ask(now, &mut outbox),
            ProvisionerMsg::Reply(r) => self.reply(r),
        }
        outbox
    }
}

/// Site answers.
impl Receive<SiteReply> for ProvisionerActor {
    fn receive(r: SiteReply) -> ProvisionerMsg {
        ProvisionerMsg::Reply(r)
    }
}

impl Batched for ProvisionerActor {
    fn buffers(&mut self) -> &mut Buffers<ProvisionerMsg> {
        &mut self.buffers
    }

    fn broken(&self) -> Option<SimError> {
        let (at, e) = self.failed.as_ref()?;
        Some(SimError::Model { model: "provisioner".to_string(), at: *at, what: e.to_string() })
    }
}

impl Finish for ProvisionerActor {
    type Final = Vec<SubmissionRecord>;

    fn finish(&mut self) -> Self::Final {
        std::mem::take(&mut self.records)
    }
}
