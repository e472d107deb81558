//! The discrete-event kernel: owns virtual time and delivers events in a total order.
//!
//! Contract:
//! - Time is integer seconds and never goes back: scheduling an event before
//!   `now` is an error ([`SimError::Causality`]).
//! - Events are processed one at a time in the total order of their [`Key`]
//!   `(time, class, sequence)`, where the sequence number counts the events
//!   scheduled so far. Nothing else (thread count, hash order, the wall clock)
//!   affects the order. An event scheduled for `now` in a class earlier than
//!   the one being handled is delivered next: the order never goes back
//!   before an event already delivered.
//! - A [`Class`] is a number the bench declares: the kernel orders classes
//!   and knows nothing of what they mean (the cluster benches declare theirs
//!   in `slasim::cluster::instant`).
//! - A message ([`Msg`]) is addressed to one model ([`ModelId`]) and holds
//!   that model's own message type; the kernel never looks inside. A model
//!   schedules for itself with [`To::Me`].
//! - The kernel hands a model its events in [`Batch`]es: the longest run of
//!   consecutive events (in that order) addressed to it, the key of the next
//!   event of anyone else (the horizon) and the next sequence number. The
//!   model ([`process_batch`]) handles them in key order together with the
//!   events it schedules for itself, numbering everything it schedules as the
//!   kernel would, and stops before any event whose key is not below the
//!   horizon or below an event it scheduled for another model. What it did
//!   not handle stays in its agenda with its key (the kernel holds only the
//!   key of its first pending event), so a long run of events for one model
//!   is queued once, not again at every batch. So the order of
//!   processing is exactly that of delivering one event at a time, while a
//!   model that runs on its own for a while costs one message, not one per
//!   event.
//! - A bench may end the run early once it has what it was run for
//!   ([`Bench::finished`], checked after each batch).
//! - Events later than the time horizon are dropped.
//! - The caller steps the kernel ([`Kernel::run_until`]): it returns when
//!   the next event is later than the time asked for, when no event is left,
//!   when the bench is finished, or when a model suspended. Stepping changes
//!   no order: runs stepped at any times deliver what one run to the end
//!   delivers, in the same order, with the same sequence numbers.
//! - A model may suspend while handling an event ([`Model::suspended`],
//!   asked after each event it handles): it waits for its caller, a decision
//!   taken outside the simulation, say. Its batch stops there, the kernel
//!   returns [`Stop::Suspended`], and nothing else happens until the kernel
//!   is run again: then that model goes on first ([`Model::resume`], at the
//!   same instant), as the rest of the event it suspended in, before any
//!   other event, its events numbered after those it scheduled before
//!   suspending. So a decision taken by a caller between two steps gives the
//!   order a decision taken inside the handler would.

use std::any::Any;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::future::Future;

use crate::units::Time;

/// Class of an event, ordering events at equal times: lower first. The bench
/// that needs classes declares them (see the module contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Class(pub u8);

/// A model's place in a bench: an index into its models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModelId(pub u32);

/// A message for another model, holding that model's own message type.
///
/// Boxed: the kernel's queue holds messages of every kind. A model's events
/// for itself, most of a run's, never become a `Msg` while it handles its
/// batch ([`To::Me`]).
pub struct Msg(Box<dyn Any + Send>);

impl Msg {
    /// Wraps a model's message.
    pub fn new<T: Any + Send>(msg: T) -> Msg {
        Msg(Box::new(msg))
    }

    /// The message as `T`, if it holds a `T`.
    pub fn take<T: Any>(self) -> Option<T> {
        self.0.downcast::<T>().ok().map(|b| *b)
    }

    /// The message as `&T`, if it holds a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        (*self.0).downcast_ref::<T>()
    }
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Msg(..)")
    }
}

/// Where a scheduled event goes, and what it carries.
#[derive(Debug)]
pub enum To<T> {
    /// The model that scheduled it, with one of its own messages: it stays
    /// typed (never boxed) while the model handles its own events.
    Me(T),
    /// Another model (or itself, by address), with a message of that model's type.
    Model(ModelId, Msg),
}

/// An event to deliver at `time`, scheduled by a model whose messages are `T`.
#[derive(Debug)]
pub struct Scheduled<T> {
    /// Delivery time.
    pub time: Time,
    /// Class at equal times.
    pub class: Class,
    /// Its receiver and message.
    pub to: To<T>,
}

impl<T> Scheduled<T> {
    /// `msg` for the model that schedules it, at `time` in `class`.
    pub fn me(time: Time, class: Class, msg: T) -> Scheduled<T> {
        Scheduled { time, class, to: To::Me(msg) }
    }
}

/// Events a model whose messages are `T` schedules while handling one event.
pub type Outbox<T> = Vec<Scheduled<T>>;

/// The place of an event in the total order: (time, class, sequence).
pub type Key = (Time, Class, u64);

/// An addressed message in the kernel's queue.
#[derive(Debug)]
pub struct Envelope {
    /// The receiver.
    pub to: ModelId,
    /// The message.
    pub msg: Msg,
}

/// Simulation errors.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A model scheduled an event in the past.
    #[error("causality violation: an event for t = {at} was scheduled at t = {now}")]
    Causality { now: Time, at: Time },
    /// A model's actor stopped (it panicked or its mailbox closed).
    #[error("simulation model `{model}` stopped: {reason}")]
    ModelStopped { model: String, reason: String },
    /// A model broke the kernel's contract (it acted where the one-instant
    /// rule forbids it); `what` is the model's own description.
    #[error("{model} broke the kernel's contract at t = {at}: {what}")]
    Contract { model: String, at: Time, what: String },
    /// A model could not go on (a computation it runs failed).
    #[error("{model} failed at t = {at}: {what}")]
    Model { model: String, at: Time, what: String },
    /// Something outside the simulation that a model relies on failed (an
    /// external process it talks to); `party` is the model's name for it.
    #[error("{party}, at t = {at}: {what}")]
    External { party: String, at: Time, what: String },
    /// A message reached a model of another kind (a bench wired it wrongly).
    #[error("model {to} received a message it does not take")]
    Misrouted { to: u32 },
    /// The bench's runtime (or a thread to drive it on) could not be started.
    #[error("cannot start the simulation runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

/// Events in key order (the kernel's queue, and a model's own agenda).
///
/// The heap orders small entries (a key and a slot number); the payloads,
/// which can be large (a submitted job travels in its event), stay put in
/// reused slots, so a sift moves 32 bytes, not the payload.
#[derive(Debug)]
pub struct Agenda<P> {
    heap: BinaryHeap<Entry>,
    slots: Vec<Option<P>>,
    free: Vec<u32>,
}

impl<P> Default for Agenda<P> {
    fn default() -> Self {
        Agenda { heap: BinaryHeap::new(), slots: Vec::new(), free: Vec::new() }
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: Key,
    slot: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Reversed: `BinaryHeap` is a max-heap and the earliest event must come first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

impl<P> Agenda<P> {
    /// Adds an event under its key.
    pub fn push(&mut self, key: Key, payload: P) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = Some(payload);
                slot
            }
            None => {
                self.slots.push(Some(payload));
                (self.slots.len() - 1) as u32
            }
        };
        self.heap.push(Entry { key, slot });
    }

    /// The first key.
    pub fn peek_key(&self) -> Option<Key> {
        self.heap.peek().map(|e| e.key)
    }

    /// The first event's payload.
    pub fn peek(&self) -> Option<&P> {
        self.heap.peek().and_then(|e| self.slots[e.slot as usize].as_ref())
    }

    /// Removes the first event.
    pub fn pop(&mut self) -> Option<(Key, P)> {
        while let Some(e) = self.heap.pop() {
            self.free.push(e.slot);
            // Every heap entry's slot holds its payload until the entry is popped.
            if let Some(payload) = self.slots[e.slot as usize].take() {
                return Some((e.key, payload));
            }
        }
        None
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// The events of one model the kernel hands over at once.
#[derive(Debug)]
pub struct Batch {
    /// The model they are for.
    pub to: ModelId,
    /// Consecutive events for the model, in key order.
    pub items: Vec<(Key, Msg)>,
    /// The key of the next event not in the batch, if any.
    pub horizon: Option<Key>,
    /// The next sequence number.
    pub next_seq: u64,
    /// Events later than this are dropped.
    pub time_horizon: Time,
    /// The model suspended at this time in its last batch: it goes on first.
    pub resume: Option<Time>,
}

/// What a model hands back after a batch.
#[derive(Debug)]
pub struct Handled {
    /// Events to queue, with their keys: its events for other models (the
    /// batch items it did not handle stay in its agenda).
    pub events: Vec<(Key, Envelope)>,
    /// The key of its first own event still pending (they stay in its agenda).
    pub next_own: Option<Key>,
    /// The next sequence number.
    pub next_seq: u64,
    /// Events handled.
    pub delivered: u64,
    /// Time of the last one.
    pub last_time: Time,
    /// The model suspended in its last event: it waits for the caller.
    pub suspended: bool,
}

/// A model: its own message type and how it handles one message.
pub trait Model: Send + 'static {
    /// Its messages.
    type Msg: Any + Send;
    /// Handles one message at `now`; what it schedules goes to `outbox`.
    fn handle(&mut self, now: Time, msg: Self::Msg, outbox: Outbox<Self::Msg>) -> Outbox<Self::Msg>;

    /// True when it suspended in the event it just handled, waiting for its
    /// caller (see the module contract). Asked after every event.
    fn suspended(&self) -> bool {
        false
    }

    /// Goes on with the event it suspended in, at `now` (that event's time),
    /// once the caller runs the kernel again.
    fn resume(&mut self, now: Time, outbox: Outbox<Self::Msg>) -> Outbox<Self::Msg> {
        let _ = now;
        outbox
    }
}

/// Where a batch's handler calls send what they schedule.
struct Router {
    /// The model handling the batch.
    me: ModelId,
    /// Events later than this are dropped.
    time_horizon: Time,
    /// The batch stops before this key: the horizon, lowered by each event
    /// sent to another model.
    stop: Option<Key>,
    next_seq: u64,
    /// Events for other models.
    events: Vec<(Key, Envelope)>,
}

impl Router {
    /// Numbers what one handler call at `now` scheduled: its own events go
    /// to `agenda`, others' to `events`.
    #[inline(always)]
    fn route<T: Any + Send>(
        &mut self,
        now: Time,
        outbox: &mut Outbox<T>,
        agenda: &mut Agenda<T>,
    ) -> Result<(), SimError> {
        for e in outbox.drain(..) {
            if e.time < now {
                return Err(SimError::Causality { now, at: e.time });
            }
            if e.time > self.time_horizon {
                continue;
            }
            let k = (e.time, e.class, self.next_seq);
            self.next_seq += 1;
            match e.to {
                To::Me(msg) => agenda.push(k, msg),
                To::Model(to, msg) if to == self.me => match msg.take::<T>() {
                    Some(msg) => agenda.push(k, msg),
                    None => return Err(SimError::Misrouted { to: self.me.0 }),
                },
                To::Model(to, msg) => {
                    self.stop = Some(self.stop.map_or(k, |s| s.min(k)));
                    self.events.push((k, Envelope { to, msg }));
                }
            }
        }
        Ok(())
    }
}

/// Handles a batch (see the module contract); `agenda` and `outbox` are the
/// model's buffers. The model's events for itself stay typed in its agenda,
/// across batches too: the kernel holds only the key of the first
/// ([`Handled::next_own`]).
pub fn process_batch<M: Model>(
    model: &mut M,
    batch: Batch,
    agenda: &mut Agenda<M::Msg>,
    outbox: &mut Outbox<M::Msg>,
) -> Result<Handled, SimError> {
    let Batch { to: me, items, horizon, next_seq, time_horizon, resume } = batch;
    // Nothing at or after `router.stop` may be handled here.
    let mut router = Router { me, time_horizon, stop: horizon, next_seq, events: Vec::new() };
    let mut items = items.into_iter().peekable();
    let (mut delivered, mut last_time) = (0, 0);
    let mut suspended = false;
    if let Some(now) = resume {
        // The rest of the event it suspended in: counted with it, not again.
        *outbox = model.resume(now, std::mem::take(outbox));
        router.route(now, outbox, agenda)?;
        last_time = now;
        suspended = model.suspended();
    }
    let started = resume.is_some();
    while !suspended {
        let from_items = match (items.peek().map(|(k, _)| *k), agenda.peek_key()) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (key, msg) = if from_items {
            let Some((key, msg)) = items.next() else { break };
            let Some(msg) = msg.take::<M::Msg>() else { return Err(SimError::Misrouted { to: me.0 }) };
            if (delivered > 0 || started) && router.stop.is_some_and(|s| key >= s) {
                agenda.push(key, msg);
                break;
            }
            (key, msg)
        } else {
            let Some((key, msg)) = agenda.pop() else { break };
            if (delivered > 0 || started) && router.stop.is_some_and(|s| key >= s) {
                agenda.push(key, msg);
                break;
            }
            (key, msg)
        };
        let now = key.0;
        *outbox = model.handle(now, msg, std::mem::take(outbox));
        delivered += 1;
        last_time = now;
        router.route(now, outbox, agenda)?;
        suspended = model.suspended();
    }
    // What it did not handle waits in its agenda, typed, under the same keys:
    // handing it back to the kernel would queue it again at every batch.
    for (key, msg) in items {
        let Some(msg) = msg.take::<M::Msg>() else { return Err(SimError::Misrouted { to: me.0 }) };
        agenda.push(key, msg);
    }
    let Router { next_seq, events, .. } = router;
    Ok(Handled { events, next_own: agenda.peek_key(), next_seq, delivered, last_time, suspended })
}

/// A set of models wired together: hands each batch to its model.
pub trait Bench {
    /// Hands `batch` to its model and returns what the model hands back.
    fn deliver(&mut self, batch: Batch) -> impl Future<Output = Result<Handled, SimError>>;

    /// True when the bench has what it was run for and the kernel may stop
    /// early (checked after each batch; a what-if fork stops when its
    /// workflow is done).
    fn finished(&self) -> bool {
        false
    }
}

/// What a kernel run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KernelStats {
    /// Events delivered.
    pub delivered: u64,
    /// Messages (batches) sent to models.
    pub batches: u64,
    /// Time of the last delivered event.
    pub last_time: Time,
}

/// Why [`Kernel::run_until`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No event is left (those past the time horizon are dropped).
    Ended,
    /// The bench has what it was run for ([`Bench::finished`]).
    Finished,
    /// The next event is later than the time asked for.
    Reached,
    /// This model suspended in an event: it waits for the caller, and goes
    /// on first when the kernel is run again.
    Suspended(ModelId),
}

/// An entry of the kernel's queue.
#[derive(Debug)]
enum Queued {
    /// A message for a model.
    Msg(Envelope),
    /// The first of a model's own pending events (they stay in its agenda);
    /// stale once the model handled it in an earlier batch.
    Own(ModelId),
}

/// The event queue and the clock.
pub struct Kernel {
    now: Time,
    horizon: Time,
    seq: u64,
    queue: Agenda<Queued>,
    /// Per model, the key of its live [`Queued::Own`] entry.
    own: Vec<Option<Key>>,
    /// The model that suspended in its last batch.
    suspended: Option<ModelId>,
    stats: KernelStats,
}

impl Kernel {
    /// A kernel at t = 0 that stops after `horizon`.
    pub fn new(horizon: Time) -> Kernel {
        Kernel {
            now: 0,
            horizon,
            seq: 0,
            queue: Agenda::default(),
            own: Vec::new(),
            suspended: None,
            stats: KernelStats::default(),
        }
    }

    /// Current virtual time.
    pub fn now(&self) -> Time {
        self.now
    }

    /// What it delivered so far.
    pub fn stats(&self) -> KernelStats {
        self.stats
    }

    /// The time of the next event, if any (a suspended model goes on now).
    pub fn next_time(&mut self) -> Option<Time> {
        if self.suspended.is_some() {
            return Some(self.now);
        }
        self.peek_live()?;
        self.queue.peek_key().map(|k| k.0)
    }

    /// Queues one event for `to` (an event for [`To::Me`] goes to `from`).
    pub fn schedule<T: Any + Send>(&mut self, from: ModelId, event: Scheduled<T>) -> Result<(), SimError> {
        if event.time < self.now {
            return Err(SimError::Causality { now: self.now, at: event.time });
        }
        if event.time <= self.horizon {
            let (to, msg) = match event.to {
                To::Me(msg) => (from, Msg::new(msg)),
                To::Model(to, msg) => (to, msg),
            };
            self.queue.push((event.time, event.class, self.seq), Queued::Msg(Envelope { to, msg }));
            self.seq += 1;
        }
        Ok(())
    }

    /// The model of the first live entry, dropping stale ones.
    fn peek_live(&mut self) -> Option<ModelId> {
        loop {
            let key = self.queue.peek_key()?;
            match self.queue.peek()? {
                Queued::Msg(e) => return Some(e.to),
                Queued::Own(id) if self.own.get(id.0 as usize).copied().flatten() == Some(key) => return Some(*id),
                Queued::Own(_) => {
                    self.queue.pop();
                }
            }
        }
    }

    /// Delivers events until the queue is empty or past the horizon. A model
    /// that suspends here is an error: nobody would resume it.
    pub async fn run<B: Bench>(&mut self, bench: &mut B) -> Result<KernelStats, SimError> {
        match self.run_until(bench, Time::MAX).await? {
            Stop::Suspended(to) => Err(SimError::Contract {
                model: format!("model {}", to.0),
                at: self.now,
                what: "it suspended in a run to the end, where no caller can resume it".into(),
            }),
            Stop::Ended | Stop::Finished | Stop::Reached => Ok(self.stats),
        }
    }

    /// Delivers the events up to `until` (inclusive), in order, and says why
    /// it stopped (see the module contract).
    pub async fn run_until<B: Bench>(&mut self, bench: &mut B, until: Time) -> Result<Stop, SimError> {
        let mut items = Vec::new();
        loop {
            let resume = self.suspended.take();
            let to = match resume {
                Some(to) => to,
                None => match self.peek_live() {
                    None => return Ok(Stop::Ended),
                    Some(_) if self.queue.peek_key().is_some_and(|k| k.0 > until) => return Ok(Stop::Reached),
                    Some(to) => to,
                },
            };
            items.clear();
            // The run of consecutive entries for the same model; its own
            // pending events come along in its agenda.
            while self.peek_live() == Some(to) {
                match self.queue.pop() {
                    Some((key, Queued::Msg(e))) => items.push((key, e.msg)),
                    Some((_, Queued::Own(_))) => self.own[to.0 as usize] = None,
                    None => break,
                }
            }
            // Its live own entry, if still queued, is in the batch too.
            if let Some(slot) = self.own.get_mut(to.0 as usize) {
                *slot = None;
            }
            let horizon = self.peek_live().and_then(|_| self.queue.peek_key());
            // A step ends at `until`: later events wait for the next step,
            // exactly as if they were another model's.
            let horizon = match (horizon, until) {
                (h, Time::MAX) => h,
                (Some(h), u) if h.0 <= u => Some(h),
                (_, u) => Some((u + 1, Class(0), 0)),
            };
            let batch = Batch {
                to,
                items: std::mem::take(&mut items),
                horizon,
                next_seq: self.seq,
                time_horizon: self.horizon,
                resume: resume.map(|_| self.now),
            };
            let handled = bench.deliver(batch).await?;
            self.seq = handled.next_seq;
            for (key, e) in handled.events {
                self.queue.push(key, Queued::Msg(e));
            }
            if let Some(key) = handled.next_own {
                let i = to.0 as usize;
                if self.own.len() <= i {
                    self.own.resize(i + 1, None);
                }
                self.own[i] = Some(key);
                self.queue.push(key, Queued::Own(to));
            }
            self.now = handled.last_time.max(self.now);
            self.stats.delivered += handled.delivered;
            self.stats.batches += 1;
            self.stats.last_time = self.now;
            if handled.suspended {
                self.suspended = Some(to);
                return Ok(Stop::Suspended(to));
            }
            if bench.finished() {
                return Ok(Stop::Finished);
            }
        }
    }
}
