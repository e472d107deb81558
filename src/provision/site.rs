//! A provisioning site: a cluster whose local scheduler is the Fig. 2 slot set
//! (conservative backfilling), which advertises its free slots and takes
//! reservations.
//!
//! Reference: `provisioning-dissertation-spec.md` §2.1 (the scheduler and its
//! holes), §2.3 (Fig. 2), §2.5 (advertisement: window max(now + 48 h, latest
//! finish + 5 min), c = 1, f = 0), §2.7 (inaccurate estimates: the schedule is
//! rebuilt at early completions), §3.7 (best-effort tasks queue like any
//! job), §12.1 (the resource actor's services).
//!
//! Contract:
//! - [`SlotScheduler`] is the pure state machine: a job is booked at its
//!   earliest start in the free-slot set when it arrives and never moves
//!   later; with exact estimates the set changes only at arrivals and
//!   reservations, otherwise an early completion rebuilds it from running
//!   jobs, reservations and the queue in arrival order. It is `Clone`: a
//!   snapshot is a full, independent copy (the what-if forks start from it).
//! - Provisioned slots are reservations: blocks taken out of the free set, so
//!   advertised holes plus running, queued and reserved work is the machine.
//! - [`SiteActor`] drives it through the kernel: it receives background jobs
//!   and requests ([`SiteAsk`]) of provisioners, executors and buyers; each
//!   answer goes at once (class `NEGOTIATION`) to the input the request
//!   carries, and a task's end to the input of the model that placed it,
//!   nowhere else. Task starts and ends at their times. What a
//!   submission or a purchase books at `now` starts at once; what an end (or
//!   anything handled after an end, before the wake-up of that instant)
//!   books at `now` starts at that wake-up, after every end of the instant
//!   (the kernel's "one instant" rule). It never reads the wall clock.

use kameo::Actor;
use kameo::message::{Context, Message};

use crate::cluster::instant;
use crate::provision::plan::SitePlan;
use crate::provision::pricing::{
    self, Offer, Policy, PolicyAudit, Slot as PricedSlot, Snapshot, admissible, query_earliest, query_window,
};
use crate::provision::slots::{Advertised, SlotSet, advertisement_horizon};
use crate::sim::kernel::{Class, Model, Outbox, Scheduled};
use crate::sim::model::{Batched, Buffers, Finish};
use crate::sim::port::{Input, Output, Receive, Request};
use crate::units::Time;
use crate::workload::job::Job;

/// Who owns a piece of work on a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WorkKey {
    /// A background job of the trace (its index in the site's job list).
    Background(u32),
    /// Task `task` of the workflow run by executor `owner`.
    Task {
        /// The executor (or provisioner) address.
        owner: u32,
        /// The task index.
        task: u32,
    },
}

#[derive(Debug, Clone, PartialEq)]
struct Running {
    key: WorkKey,
    procs: u32,
    start: Time,
    /// Start + estimate: where the plan thinks it ends.
    planned_end: Time,
    /// When it really ends.
    end: Time,
}

#[derive(Debug, Clone, PartialEq)]
struct Queued {
    key: WorkKey,
    submit: Time,
    procs: u32,
    estimate: Time,
    runtime: Time,
    start: Time,
}

/// A reservation (a provisioned slot): fixed processors over a fixed interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Reservation {
    /// Who holds it.
    pub key: WorkKey,
    /// Start.
    pub start: Time,
    /// End.
    pub end: Time,
    /// Processors.
    pub procs: u32,
}

/// What a site does when the clock reaches an event of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Work started: the caller schedules its end.
    Started {
        /// Whose.
        key: WorkKey,
        /// When it ends.
        end: Time,
    },
}

/// The slot-set scheduler of one site.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotScheduler {
    capacity: u32,
    slots: SlotSet,
    running: Vec<Running>,
    queue: Vec<Queued>,
    reservations: Vec<Reservation>,
    /// Jobs refused because they are wider than the machine.
    dropped: u64,
    /// Busy processor-seconds of finished work (for the achieved utilisation).
    busy: i128,
    first_submit: Option<Time>,
    last_end: Time,
    rebuilds: u64,
    /// Σ waits (start − submit) and count of the background jobs started so far.
    be_waits: (i128, u64),
    /// Σ processors × wait of the background jobs started so far.
    be_wait_area: i128,
    /// If recording: (job id, processors, wait) of every background job started.
    be_started: Option<Vec<(u32, u32, Time)>>,
    used: Vec<(u32, u32, Time, Time)>,
}

impl SlotScheduler {
    /// An empty machine of `capacity` processors at time `now`.
    pub fn new(capacity: u32, now: Time) -> SlotScheduler {
        SlotScheduler {
            capacity,
            slots: SlotSet::new(now, capacity),
            running: Vec::new(),
            queue: Vec::new(),
            reservations: Vec::new(),
            dropped: 0,
            busy: 0,
            first_submit: None,
            last_end: now,
            rebuilds: 0,
            be_waits: (0, 0),
            be_wait_area: 0,
            be_started: None,
            used: Vec::new(),
        }
    }

    /// Processors.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The current free-slot set.
    pub fn slot_set(&self) -> &SlotSet {
        &self.slots
    }

    /// Running plus queued work items (the thesis' "tasks in the system").
    pub fn tasks_in_system(&self) -> u32 {
        (self.running.len() + self.queue.len()) as u32
    }

    /// Jobs refused as wider than the machine.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Schedule rebuilds after early completions so far.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// The reservations held now (including ones whose task already ran).
    pub fn reservations(&self) -> &[Reservation] {
        &self.reservations
    }

    /// The latest planned end of any running, queued or reserved work (`now` if none).
    pub fn latest_finish(&self, now: Time) -> Time {
        let running = self.running.iter().map(|r| r.planned_end);
        let queued = self.queue.iter().map(|q| q.start + q.estimate);
        let reserved = self.reservations.iter().map(|r| r.end);
        running.chain(queued).chain(reserved).fold(now, Time::max)
    }

    /// The advertised slot set at `now` (§2.5).
    pub fn advertise(&self, now: Time) -> Vec<Advertised> {
        self.slots.advertise(now, advertisement_horizon(now, self.latest_finish(now)))
    }

    /// Busy processor-seconds of finished work, first submission and last end:
    /// the achieved utilisation is busy / (capacity × (last end − first submit)).
    pub fn utilisation(&self) -> Option<f64> {
        let first = self.first_submit?;
        let span = self.last_end - first;
        (span > 0).then(|| self.busy as f64 / (f64::from(self.capacity) * span as f64))
    }

    /// Processors the plan holds at `t`: running and queued work over its
    /// booked interval, plus reservations not taken by running work.
    pub fn booked_at(&self, t: Time) -> u32 {
        let running: u32 = self
            .running
            .iter()
            .filter(|r| r.start <= t && t < r.planned_end && !self.is_reserved(r.key))
            .map(|r| r.procs)
            .sum();
        let queued: u32 = self.queue.iter().filter(|q| q.start <= t && t < q.start + q.estimate).map(|q| q.procs).sum();
        let reserved: u32 = self.reservations.iter().filter(|r| r.start <= t && t < r.end).map(|r| r.procs).sum();
        running + queued + reserved
    }

    fn is_reserved(&self, key: WorkKey) -> bool {
        self.reservations.iter().any(|r| r.key == key)
    }

    /// The state adaptive pricing works on (§4.2): running work to its planned
    /// end (work inside a reservation is counted by the reservation), the
    /// reservations, and the queue in arrival order.
    pub fn pricing_snapshot(&self, now: Time) -> Snapshot {
        Snapshot {
            now,
            capacity: self.capacity,
            running: self
                .running
                .iter()
                .filter(|r| r.planned_end > now && !self.is_reserved(r.key))
                .map(|r| (r.procs, r.planned_end))
                .collect(),
            reservations: self.reservations.iter().filter(|r| r.end > now).map(|r| (r.start, r.end, r.procs)).collect(),
            queue: self.queue.iter().map(|q| (q.procs, q.estimate)).collect(),
        }
    }

    /// Drops what lies in the past from the free-slot set.
    pub fn advance(&mut self, now: Time) {
        self.slots.forget_before(now);
    }

    /// Submits work at `now`: it is booked at its earliest start and queued
    /// (work booked at `now` starts at the next [`Self::start_due`]). Returns
    /// that start (`None`: wider than the machine, dropped).
    pub fn submit(&mut self, now: Time, key: WorkKey, procs: u32, estimate: Time, runtime: Time) -> Option<Time> {
        self.first_submit.get_or_insert(now);
        if procs == 0 || procs > self.capacity {
            self.dropped += 1;
            return None;
        }
        let estimate = estimate.max(1);
        // Work never runs past its booking: the plan would be wrong otherwise.
        let runtime = runtime.clamp(0, estimate);
        let start = self.slots.place(procs, estimate, now, &mut self.used)?;
        self.queue.push(Queued { key, submit: now, procs, estimate, runtime, start });
        Some(start)
    }

    fn count_wait(&mut self, key: WorkKey, procs: u32, wait: Time) {
        if let WorkKey::Background(_) = key {
            self.be_waits.0 += i128::from(wait);
            self.be_waits.1 += 1;
            self.be_wait_area += i128::from(wait) * i128::from(procs);
        }
        if let (WorkKey::Background(id), Some(list)) = (key, self.be_started.as_mut()) {
            list.push((id, procs, wait));
        }
    }

    /// Records every background job's wait from now on (see [`Self::background_waits`]).
    pub fn record_waits(&mut self) {
        self.be_started.get_or_insert_with(Vec::new);
    }

    /// (job id, processors, wait) of every background job started while recording.
    pub fn background_waits(&self) -> &[(u32, u32, Time)] {
        self.be_started.as_deref().unwrap_or(&[])
    }

    /// Σ processors × wait of the background jobs started so far, processor-seconds.
    pub fn background_wait_area(&self) -> f64 {
        self.be_wait_area as f64
    }

    /// Background jobs started so far.
    pub fn background_started(&self) -> u64 {
        self.be_waits.1
    }

    /// The mean wait (start − submit) of the background jobs started so far.
    pub fn mean_background_wait(&self) -> Option<f64> {
        (self.be_waits.1 > 0).then(|| self.be_waits.0 as f64 / self.be_waits.1 as f64)
    }

    fn start(&mut self, now: Time, key: WorkKey, procs: u32, estimate: Time, runtime: Time, due: &mut Vec<Due>) {
        let end = now + runtime;
        self.running.push(Running { key, procs, start: now, planned_end: now + estimate, end });
        due.push(Due::Started { key, end });
    }

    /// Starts every queued item booked at or before `now`.
    pub fn start_due(&mut self, now: Time, due: &mut Vec<Due>) {
        let mut i = 0;
        while i < self.queue.len() {
            if self.queue[i].start <= now {
                let q = self.queue.remove(i);
                self.count_wait(q.key, q.procs, now - q.submit);
                self.start(now, q.key, q.procs, q.estimate, q.runtime, due);
            } else {
                i += 1;
            }
        }
    }

    /// The earliest booked start of the queue, if any (the next wake-up).
    pub fn next_start(&self) -> Option<Time> {
        self.queue.iter().map(|q| q.start).min()
    }

    /// Work `key` ended at `now`. An end before the planned end frees capacity
    /// the plan still holds: the schedule is rebuilt (§2.7), and what it books
    /// at `now` starts at the next [`Self::start_due`]. Returns false if `key`
    /// was not running.
    pub fn end(&mut self, now: Time, key: WorkKey) -> bool {
        let Some(i) = self.running.iter().position(|r| r.key == key) else {
            return false;
        };
        let r = self.running.swap_remove(i);
        self.last_end = self.last_end.max(now);
        if let WorkKey::Background(_) = key {
            self.busy += i128::from(r.procs) * i128::from(r.end - r.start);
        }
        if r.planned_end > now {
            self.rebuild(now);
        }
        true
    }

    /// Rebuilds the free set from scratch at `now` (§2.7): running work until
    /// its planned end, reservations at their times, then the queue in arrival
    /// order, each at its earliest start (never later than before).
    fn rebuild(&mut self, now: Time) {
        self.rebuilds += 1;
        let mut slots = SlotSet::new(now, self.capacity);
        for r in &self.running {
            // Cannot conflict: running work fits the machine by construction.
            let _ = slots.occupy(now, r.procs, r.planned_end - now);
        }
        // In start order: the slot set then never refuses a block that fits.
        self.reservations.sort_by_key(|r| (r.start, r.end));
        for r in &self.reservations {
            if r.end > now {
                let start = r.start.max(now);
                let _ = slots.occupy(start, r.procs, r.end - start);
            }
        }
        self.slots = slots;
        let queue = std::mem::take(&mut self.queue);
        for mut q in queue {
            match self.slots.place(q.procs, q.estimate, now, &mut self.used) {
                Some(start) => {
                    q.start = start;
                    self.queue.push(q);
                }
                // Unreachable (the machine fits it), but never lose a job.
                None => self.dropped += 1,
            }
        }
    }

    /// Reserves `procs` processors over `[start, start + duration)` for `key`
    /// if they are free in the plan (admission ignores nothing else: free
    /// slots delay nobody). The reserved work runs from `start` for `runtime`.
    pub fn reserve(&mut self, key: WorkKey, start: Time, procs: u32, duration: Time) -> bool {
        if procs == 0 || duration <= 0 || self.slots.occupy(start, procs, duration).is_err() {
            return false;
        }
        self.reservations.push(Reservation { key, start, end: start + duration, procs });
        true
    }

    /// Reserves a provisioned plan's share of this site: the selected slots of
    /// its advertisement are replaced by what the plan's tasks leave of them,
    /// and each task `(key, start, procs, runtime)` holds its block. Exact by
    /// construction when the set is the one advertised; false (nothing
    /// changed) if the plan does not refer to it.
    pub fn reserve_plan(&mut self, plan: &SitePlan, tasks: &[(WorkKey, Time, u32, Time)]) -> bool {
        if !self.slots.replace(&plan.selected, &plan.remaining) {
            return false;
        }
        for &(key, start, procs, runtime) in tasks {
            self.reservations.push(Reservation { key, start, end: start + runtime, procs });
        }
        true
    }

    /// Buys a priced reservation (§4.1): it must fit beside running work and
    /// reservations (queued jobs are ignored); the queue is then re-planned
    /// around it, which may delay queued jobs (the externality its price
    /// charged). False (nothing changed) if it does not fit.
    pub fn reserve_priced(&mut self, now: Time, key: WorkKey, start: Time, procs: u32, duration: Time) -> bool {
        let slot = PricedSlot { start, procs, duration };
        if !admissible(&self.pricing_snapshot(now), slot) {
            return false;
        }
        self.reservations.push(Reservation { key, start, end: start + duration, procs });
        self.rebuild(now);
        true
    }

    /// Reserved work `key` starts in its reservation at `now`.
    pub fn start_reserved(&mut self, now: Time, key: WorkKey, runtime: Time, due: &mut Vec<Due>) {
        if let Some(r) = self.reservations.iter().find(|r| r.key == key) {
            let (procs, duration) = (r.procs, r.end - r.start);
            // Its processors are already out of the free set: it runs as planned.
            let end = now + runtime.min(duration);
            self.running.push(Running { key, procs, start: now, planned_end: now + duration, end });
            due.push(Due::Started { key, end: now + runtime.min(duration) });
        }
    }

    /// Reserved work `key` ended: it and its reservation go (what it did not
    /// use of the reservation stays reserved until the reservation's end).
    pub fn end_reserved(&mut self, now: Time, key: WorkKey) {
        if let Some(i) = self.running.iter().position(|r| r.key == key) {
            let r = self.running.swap_remove(i);
            // Work bought in a reservation is part of the site's load too.
            self.busy += i128::from(r.procs) * i128::from(now - r.start);
        }
        self.last_end = self.last_end.max(now);
        self.reservations.retain(|r| !(r.key == key && r.end <= now));
    }
}

/// A site's request from a provisioner, an executor or a buyer (it travels in a
/// [`Request`] that says where the answer goes).
#[derive(Debug, Clone, PartialEq)]
pub enum SiteRequest {
    /// The advertised slot set and a snapshot of the scheduler.
    Advertise {
        /// Also send a full snapshot (for what-if forks).
        snapshot: bool,
    },
    /// Running plus queued tasks (best-effort site choice).
    Load {
        /// The task the answer is for.
        task: u32,
    },
    /// Queue a task best effort.
    Submit {
        /// Task index.
        task: u32,
        /// Processors.
        procs: u32,
        /// Runtime (exact).
        runtime: Time,
    },
    /// Price a slot (eq. 19): every feasible start at or after `earliest` with its
    /// additive charge. Answered at once; the site's state does not change.
    Quote {
        /// The task it is for.
        task: u32,
        /// Earliest start.
        earliest: Time,
        /// Processors.
        procs: u32,
        /// Duration.
        duration: Time,
        /// Schedule the queue with EASY instead of conservative backfilling.
        easy: bool,
        /// Only starts at or before this (a start deadline).
        deadline: Option<Time>,
    },
    /// Buy a priced reservation (any admissible slot; the queue is re-planned
    /// around it) and run the task in it.
    Buy {
        /// The task.
        task: u32,
        /// Slot start.
        start: Time,
        /// Processors.
        procs: u32,
        /// Slot duration.
        duration: Time,
        /// The task's runtime (at most the duration).
        runtime: Time,
        /// Also price the slot under both policies on the state it was sold
        /// on ([`PolicyAudit`], a measurement for the reply).
        audit: bool,
    },
    /// Reserve a provisioned plan's share of the site and run its tasks there.
    ReservePlan {
        /// The selected slots and what the tasks leave of them.
        plan: SitePlan,
        /// (task, start, procs, runtime) of the tasks placed here.
        tasks: Vec<(u32, Time, u32, Time)>,
    },
    /// Reserve a slot for a task and run it there.
    Reserve {
        /// Task index.
        task: u32,
        /// Slot start.
        start: Time,
        /// Processors.
        procs: u32,
        /// Runtime (the slot's duration).
        runtime: Time,
    },
}

/// A site's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum SiteReply {
    /// Its advertised slots.
    Slots {
        /// Which site.
        site: u32,
        /// The slots.
        slots: Vec<Advertised>,
        /// Running plus queued tasks.
        tasks: u32,
        /// A snapshot, if asked for.
        snapshot: Option<Box<SlotScheduler>>,
    },
    /// Its load.
    Load {
        /// Which site.
        site: u32,
        /// The task asked about.
        task: u32,
        /// Running plus queued tasks.
        tasks: u32,
    },
    /// Priced offers for a slot (eq. 19), c = 1 per processor-second.
    Offers {
        /// Which site.
        site: u32,
        /// The task asked about.
        task: u32,
        /// The offers.
        offers: Vec<Offer>,
    },
    /// A priced reservation was bought.
    Bought {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
        /// The slot priced under both policies, if asked for.
        audit: Option<PolicyAudit>,
    },
    /// A reservation was refused (conflict) or a task was too wide.
    Refused {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
    },
    /// A task ended.
    TaskEnded {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
    },
}

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
#[derive(Debug, Clone, PartialEq, kameo::Reply)]
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
#[derive(Actor)]
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
            .running
            .iter()
            .map(|r| Scheduled::me(r.end, instant::JOB_END, SiteMsg::End(r.key)))
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
                        pricing::audit(&self.scheduler.pricing_snapshot(now), PricedSlot { start, procs, duration })
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

/// A question for a site, answered to the model that asks.
pub type SiteAsk = Request<SiteRequest, SiteReply>;

/// How a provisioner, an executor or a buyer reaches its sites: one port per
/// site, and its own input, where the answers go (both wired by the bench).
#[derive(Debug, Default)]
pub struct SitePorts {
    ports: Vec<Output<SiteAsk>>,
    /// The asker's input for answers.
    pub answers: Option<Input<SiteReply>>,
}

impl SitePorts {
    /// `sites` unconnected ports.
    pub fn new(sites: usize) -> SitePorts {
        SitePorts { ports: (0..sites).map(|_| Output::new()).collect(), answers: None }
    }

    /// How many sites.
    pub fn len(&self) -> usize {
        self.ports.len()
    }

    /// True without sites.
    pub fn is_empty(&self) -> bool {
        self.ports.is_empty()
    }

    /// Connects site `site`'s port to `input` (nothing if there is no such site).
    pub fn connect(&mut self, site: usize, input: Input<SiteAsk>) {
        if let Some(port) = self.ports.get_mut(site) {
            port.connect(input);
        }
    }

    /// Asks site `site` at `time` in `class`; the answer comes to [`Self::answers`].
    pub fn ask<U>(&self, site: usize, time: Time, class: Class, body: SiteRequest, outbox: &mut Outbox<U>) {
        if let (Some(port), Some(reply)) = (self.ports.get(site), self.answers) {
            port.send(time, class, Request { body, reply }, outbox);
        }
    }
}

impl Batched for SiteActor {
    fn buffers(&mut self) -> &mut Buffers<SiteMsg> {
        &mut self.buffers
    }
}

crate::batched_actor!(SiteActor);

impl Message<Finish> for SiteActor {
    type Reply = SiteResult;

    async fn handle(&mut self, _: Finish, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        SiteResult { scheduler: self.scheduler.clone(), samples: std::mem::take(&mut self.samples) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::kernel::{ModelId, To};
    use crate::sim::port::Address;
    use crate::units::HOUR;

    /// Whoever asks a site: it takes the site's replies as they are.
    struct Asker;

    impl Model for Asker {
        type Msg = SiteReply;
        fn handle(&mut self, _: Time, _: SiteReply, outbox: Outbox<SiteReply>) -> Outbox<SiteReply> {
            outbox
        }
    }

    impl Receive<SiteReply> for Asker {
        fn receive(reply: SiteReply) -> SiteReply {
            reply
        }
    }

    /// A price query through the site leaves its scheduler exactly as it was and
    /// prices the Fig. 1 plan, worked by hand below.
    #[test]
    fn a_price_query_changes_nothing_and_prices_figure_1() {
        let mut scheduler = SlotScheduler::new(5, 0);
        let mut due = Vec::new();
        // A and C start at 0, B and D wait: the Fig. 1 plan, with A and C running.
        for (i, (procs, hours)) in [(2, 3), (4, 1), (1, 2), (3, 2)].into_iter().enumerate() {
            scheduler.submit(0, WorkKey::Background(i as u32), procs, hours * HOUR, hours * HOUR);
        }
        scheduler.start_due(0, &mut due);
        let mut site = SiteActor::new(0, scheduler.clone(), false);
        let reply = Address::<Asker>::new(ModelId(0)).input();
        let quote =
            SiteRequest::Quote { task: 7, earliest: 0, procs: 3, duration: 2 * HOUR, easy: false, deadline: None };
        let out = site.handle_msg(0, SiteMsg::Request(Request { body: quote, reply }), Vec::new());
        assert_eq!(site.scheduler, scheduler);
        let first = out.first().and_then(|s| match &s.to {
            To::Model(_, msg) => msg.get::<SiteReply>(),
            To::Me(_) => None,
        });
        let Some(SiteReply::Offers { offers, task: 7, .. }) = first else {
            panic!("an offer list first, got {out:?}");
        };
        let got: Vec<(Time, f64)> = offers.iter().map(|o| (o.start / HOUR, o.f / HOUR as f64)).collect();
        // A and C run (3 processors until 2 h): 0 is infeasible. B (at 3) and D (at 4)
        // are the queue: at 2 B → 4, D → 5 (4 + 3 = 7); at 3 B → 5, D → 6 (8 + 6 = 14);
        // at 4 D → 6 (6); at 6 nothing moves.
        assert_eq!(got, vec![(2, 7.0), (3, 14.0), (4, 6.0), (6, 0.0)]);
    }

    /// Buying 3 × 2 h at 2 h on the Fig. 1 plan (A, C running; B at 3, D at 4
    /// queued) re-plans the queue around it: B → 4, D → 5 (the delays its price
    /// of 7 proc-hours charged), and the books stay balanced.
    #[test]
    fn a_bought_reservation_delays_the_queue_as_priced() {
        let mut s = SlotScheduler::new(5, 0);
        let mut due = Vec::new();
        for (i, (procs, hours)) in [(2, 3), (4, 1), (1, 2), (3, 2)].into_iter().enumerate() {
            s.submit(0, WorkKey::Background(i as u32), procs, hours * HOUR, hours * HOUR);
        }
        s.start_due(0, &mut due);
        let key = WorkKey::Task { owner: 0, task: 0 };
        assert!(!s.reserve_priced(0, key, 0, 3, 2 * HOUR), "A and C hold 3 of 5 until 2 h");
        assert!(s.reserve_priced(0, key, 2 * HOUR, 3, 2 * HOUR));
        let starts: Vec<Time> = s.queue.iter().map(|q| q.start / HOUR).collect();
        assert_eq!(starts, vec![4, 5]);
        for t in (0..10 * HOUR).step_by(600) {
            assert_eq!(s.slot_set().free_at(t) + s.booked_at(t), 5, "t = {t}");
        }
    }
}
