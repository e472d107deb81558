//! The site actor: a [`SlotScheduler`] driven through the kernel.
//!
//! Contract: it receives background jobs and requests ([`super::SiteAsk`]) of
//! provisioners, executors and buyers; each answer goes at once (class
//! `NEGOTIATION`) to the input the request carries, and a task's end to the
//! input of the model that placed it, nowhere else. Task starts and ends at
//! their times. What a submission or a purchase books at `now` starts at
//! once; what an end (or anything handled after an end, before the wake-up
//! of that instant) books at `now` starts at that wake-up, after every end
//! of the instant (the kernel's "one instant" rule). It never reads the wall
//! clock.

use crate::pricing::{self, Policy, SlotRequest, query_earliest, query_window};
use crate::site::{Due, SiteReply, SiteRequest, SlotScheduler, WorkKey};
use slasim_core::sim::kernel::{Model, Outbox, Scheduled};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::{Input, Receive, Request};
use slasim_core::units::Time;
use slasim_single::cluster::instant;
use slasim_single::workload::job::Job;

/// A message for a site.
#[derive(Debug, Clone, PartialEq)]
pub enum SiteMsg {
    /// A background job arrives.
    Submit(Job),
    /// A request, and where its answers go.
    Request(Request<SiteRequest, SiteReply>),
    /// A planned start is due.
    Wake,
    /// Reserved work starts.
    StartReserved {
        /// Whose.
        key: WorkKey,
        /// Its runtime.
        runtime: Time,
    },
    /// Work ends.
    End(WorkKey),
}

/// What a site hands back at the end.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteResult {
    /// The final scheduler state.
    pub scheduler: SlotScheduler,
    /// Advertised-slot count and tasks in the system at each background arrival.
    pub samples: Vec<SlotSample>,
}

/// The slot statistics recorded at one background arrival (before it is booked).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotSample {
    /// When.
    pub time: Time,
    /// Advertised slots.
    pub slots: u32,
    /// Running plus queued tasks.
    pub tasks: u32,
}

/// The site actor.
pub struct SiteActor {
    me: u32,
    scheduler: SlotScheduler,
    /// Where each owner of tasks here hears that one ended (its reply input).
    owners: Vec<Input<SiteReply>>,
    sample: bool,
    samples: Vec<SlotSample>,
    due: Vec<Due>,
    woken_for: Option<Time>,
    /// Work ended at this instant and its wake-up has not come yet: what
    /// can start now waits for it (kernel contract, "one instant").
    ending: bool,
    buffers: Buffers<SiteMsg>,
}

impl SiteActor {
    /// Site `me` running `scheduler`; `sample` records slot statistics at arrivals.
    pub fn new(me: u32, scheduler: SlotScheduler, sample: bool) -> SiteActor {
        SiteActor {
            me,
            scheduler,
            owners: Vec::new(),
            sample,
            samples: Vec::new(),
            due: Vec::new(),
            woken_for: None,
            ending: false,
            buffers: Buffers::default(),
        }
    }

    /// Its scheduler as it stands.
    pub fn scheduler(&self) -> &SlotScheduler {
        &self.scheduler
    }

    /// What a site resumed from a snapshot must hear from the kernel: the end
    /// of every piece of work running in it and its next planned start
    /// (nothing for a fresh scheduler). Without them a fork's running work
    /// would never end.
    pub fn first_events(&mut self) -> Vec<Scheduled<SiteMsg>> {
        let mut events: Vec<Scheduled<SiteMsg>> = self
            .scheduler
            .running_ends()
            .map(|(key, end)| Scheduled::me(end, instant::JOB_END, SiteMsg::End(key)))
            .collect();
        if let Some(next) = self.scheduler.next_start() {
            self.woken_for = Some(next);
            events.push(Scheduled::me(next, instant::JOB_START, SiteMsg::Wake));
        }
        events
    }

    /// Schedules the ends of what started and the next wake-up.
    fn follow_up(&mut self, now: Time, outbox: &mut Outbox<SiteMsg>) {
        for d in std::mem::take(&mut self.due) {
            let Due::Started { key, end } = d;
            outbox.push(Scheduled::me(end, instant::JOB_END, SiteMsg::End(key)));
        }
        // After an end, a wake-up at this instant: the starts wait for every
        // end of the instant.
        let next = if self.ending { Some(now) } else { self.scheduler.next_start() };
        if let Some(next) = next
            && self.woken_for.is_none_or(|w| w < now || w > next)
        {
            self.woken_for = Some(next);
            outbox.push(Scheduled::me(next, instant::JOB_START, SiteMsg::Wake));
        }
    }

    fn request(
        &mut self,
        now: Time,
        Request { body: request, reply: to }: Request<SiteRequest, SiteReply>,
        outbox: &mut Outbox<SiteMsg>,
    ) {
        let site = self.me;
        // Tasks run here are keyed by their owner: the model the answers go to.
        let from = to.model().0;
        let reply = |r: SiteReply, out: &mut Outbox<SiteMsg>| to.send(now, instant::NEGOTIATION, r, out);
        match request {
            SiteRequest::Advertise { snapshot, .. } => {
                let slots = self.scheduler.advertise(now);
                let snapshot = snapshot.then(|| Box::new(self.scheduler.clone()));
                let tasks = self.scheduler.tasks_in_system();
                reply(SiteReply::Slots { site, slots, tasks, snapshot }, outbox);
            }
            SiteRequest::Load { task, .. } => {
                let tasks = self.scheduler.tasks_in_system();
                reply(SiteReply::Load { site, task, tasks }, outbox);
            }
            SiteRequest::Submit { task, procs, runtime } => {
                let key = WorkKey::Task { owner: from, task };
                if self.scheduler.submit(now, key, procs, runtime, runtime).is_none() {
                    reply(SiteReply::Refused { site, task }, outbox);
                }
            }
            SiteRequest::Quote { task, earliest, procs, duration, easy, deadline, .. } => {
                let policy = if easy { Policy::Easy } else { Policy::Conservative };
                let snapshot = self.scheduler.pricing_snapshot(now);
                let from = earliest.max(now);
                // A deadline before the earliest start leaves nothing to offer.
                let offers = match deadline {
                    Some(d) => query_window(&snapshot, policy, 1.0, from, d, procs, duration).unwrap_or_default(),
                    None => query_earliest(&snapshot, policy, 1.0, from, procs, duration),
                };
                reply(SiteReply::Offers { site, task, offers }, outbox);
            }
            SiteRequest::Buy { task, start, procs, duration, runtime, audit } => {
                let key = WorkKey::Task { owner: from, task };
                // Priced on the state the quote saw: nothing changes a site between a quote and its purchase.
                let audit = audit
                    .then(|| {
                        pricing::audit(&self.scheduler.pricing_snapshot(now), SlotRequest { start, procs, duration })
                    })
                    .flatten();
                if self.scheduler.reserve_priced(now, key, start, procs, duration) {
                    outbox.push(Scheduled::me(
                        start.max(now),
                        instant::JOB_START,
                        SiteMsg::StartReserved { key, runtime: runtime.min(duration) },
                    ));
                    reply(SiteReply::Bought { site, task, audit }, outbox);
                } else {
                    reply(SiteReply::Refused { site, task }, outbox);
                }
            }
            SiteRequest::ReservePlan { plan, tasks } => {
                let keyed: Vec<(WorkKey, Time, u32, Time)> = tasks
                    .iter()
                    .map(|&(task, start, procs, runtime)| (WorkKey::Task { owner: from, task }, start, procs, runtime))
                    .collect();
                if self.scheduler.reserve_plan(&plan, &keyed) {
                    for (key, start, _, runtime) in keyed {
                        outbox.push(Scheduled::me(
                            start.max(now),
                            instant::JOB_START,
                            SiteMsg::StartReserved { key, runtime },
                        ));
                    }
                } else {
                    for (task, ..) in tasks {
                        reply(SiteReply::Refused { site, task }, outbox);
                    }
                }
            }
            SiteRequest::Reserve { task, start, procs, runtime } => {
                let key = WorkKey::Task { owner: from, task };
                if self.scheduler.reserve(key, start, procs, runtime) {
                    outbox.push(Scheduled::me(
                        start.max(now),
                        instant::JOB_START,
                        SiteMsg::StartReserved { key, runtime },
                    ));
                } else {
                    reply(SiteReply::Refused { site, task }, outbox);
                }
            }
        }
    }

    fn handle_msg(&mut self, now: Time, msg: SiteMsg, mut outbox: Outbox<SiteMsg>) -> Outbox<SiteMsg> {
        // A price query reads the state and changes nothing, not even the past.
        let query = matches!(msg, SiteMsg::Request(Request { body: SiteRequest::Quote { .. }, .. }));
        if !query {
            self.scheduler.advance(now);
        }
        match msg {
            SiteMsg::Submit(job) => {
                if self.sample {
                    // After `advance(now)` every slot is live: the advertisement has one entry per slot.
                    let slots = self.scheduler.slot_set().len() as u32;
                    self.samples.push(SlotSample { time: now, slots, tasks: self.scheduler.tasks_in_system() });
                }
                let key = WorkKey::Background(job.id);
                self.scheduler.submit(now, key, job.nodes, job.estimate, job.runtime);
            }
            SiteMsg::Request(r) => {
                if !self.owners.contains(&r.reply) {
                    self.owners.push(r.reply);
                }
                self.request(now, r, &mut outbox);
            }
            SiteMsg::Wake => {
                if self.woken_for == Some(now) {
                    self.woken_for = None;
                }
                self.ending = false;
            }
            SiteMsg::StartReserved { key, runtime } => self.scheduler.start_reserved(now, key, runtime, &mut self.due),
            SiteMsg::End(key) => {
                self.ending = true;
                if self.scheduler.reservations().iter().any(|r| r.key == key) {
                    self.scheduler.end_reserved(now, key);
                } else {
                    self.scheduler.end(now, key);
                }
                if let WorkKey::Task { owner, task } = key
                    && let Some(to) = self.owners.iter().find(|o| o.model().0 == owner)
                {
                    to.send(now, instant::NEGOTIATION, SiteReply::TaskEnded { site: self.me, task }, &mut outbox);
                }
            }
        }
        // Work booked at `now` starts now, unless ends of this instant are
        // still being handled (then at the wake-up after them).
        if !self.ending && !query {
            self.scheduler.start_due(now, &mut self.due);
        }
        self.follow_up(now, &mut outbox);
        outbox
    }
}

impl Model for SiteActor {
    type Msg = SiteMsg;

    fn handle(&mut self, now: Time, msg: SiteMsg, outbox: Outbox<SiteMsg>) -> Outbox<SiteMsg> {
        self.handle_msg(now, msg, outbox)
    }
}

/// Background jobs.
impl Receive<Job> for SiteActor {
    fn receive(job: Job) -> SiteMsg {
        SiteMsg::Submit(job)
    }
}

/// Requests from provisioners, executors and buyers.
impl Receive<Request<SiteRequest, SiteReply>> for SiteActor {
    fn receive(r: Request<SiteRequest, SiteReply>) -> SiteMsg {
        SiteMsg::Request(r)
    }
}

impl Batched for SiteActor {
    fn buffers(&mut self) -> &mut Buffers<SiteMsg> {
        &mut self.buffers
    }
}

impl Finish for SiteActor {
    type Final = SiteResult;

    fn finish(&mut self) -> Self::Final {
        SiteResult { scheduler: self.scheduler.clone(), samples: std::mem::take(&mut self.samples) }
    }
}
