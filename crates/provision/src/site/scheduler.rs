//! The slot-set scheduler of one site: a pure state machine over the
//! site's free-slot set, its running work, its queue and its reservations.
//!
//! Contract (see [`super`] for the references): a job is booked at its
//! earliest start in the free-slot set when it arrives and never moves
//! later; with exact estimates the set changes only at arrivals and
//! reservations, otherwise an early completion rebuilds it from running
//! jobs, reservations and the queue in arrival order. Provisioned slots are
//! reservations: blocks taken out of the free set, so advertised holes plus
//! running, queued and reserved work is the machine. [`SlotScheduler`] is
//! `Clone`: a snapshot is a full, independent copy (the what-if forks start
//! from it). It knows no kernel and no clock of its own: every call says
//! when it happens.

use crate::plan::SitePlan;
use crate::pricing::{SlotRequest, Snapshot, admissible};
use crate::slots::{Advertised, SlotSet, advertisement_horizon};
use slasim_core::units::Time;

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

/// A queued piece of work and its planned start.
#[derive(Debug, Clone, PartialEq)]
pub struct Queued {
    key: WorkKey,
    submit: Time,
    procs: u32,
    estimate: Time,
    runtime: Time,
    pub start: Time,
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

    /// Every piece of running work and when it really ends.
    pub fn running_ends(&self) -> impl Iterator<Item = (WorkKey, Time)> + '_ {
        self.running.iter().map(|r| (r.key, r.end))
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

    /// The queue in arrival order, each with its planned start.
    pub fn queue(&self) -> &[Queued] {
        &self.queue
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
        let slot = SlotRequest { start, procs, duration };
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
