//! The discrete-event kernel: owns virtual time and delivers events in a total order.
//!
//! Reference: the overbooking dissertation (Ch. 6, the simulation's events;
//! the order at equal times is left open there and fixed here);
//! the co-reservation thesis (a co-reservation request is processed
//! instantaneously at its submit time, after the jobs of that instant).
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
//! - **One instant.** Events at one time are handled class by class
//!   ([`Priority`]): negotiation messages, job ends, node repairs, node
//!   failures, wake-ups (starts), submissions, co-reservation and purchase
//!   requests. **A job starts only in the wake-up class or later**: a model
//!   that, handling an end, a repair or a failure, wants a job to start now
//!   asks for a wake-up at now. So every start at `t` sees every end, repair
//!   and failure at `t`: a job never starts on a node whose failure is due at
//!   `t`, and a failure at `t` never stops an execution begun at `t`. A job
//!   ending at `t` on a node that fails at `t` has ended: the failure
//!   finds the node idle. The cluster model refuses a start made while it
//!   handles an end, repair or failure with [`SimError::Contract`].
//! - The kernel hands a model its events in [`Batch`]es: the longest run of
//!   consecutive events (in that order) addressed to it, the key of the next
//!   event of anyone else (the horizon) and the next sequence number. The
//!   model ([`process_batch`]) handles them in key order together with the
//!   events it schedules for itself, numbering everything it schedules as the
//!   kernel would, and stops before any event whose key is not below the
//!   horizon or below an event it scheduled for another model. What it did
//!   not handle goes back to the kernel with its key. So the order of
//!   processing is exactly that of delivering one event at a time, while a
//!   model that runs on its own for a while costs one message, not one per
//!   event.
//! - A bench may end the run early once it has what it was run for
//!   ([`Bench::finished`], checked after each batch).
//! - Events later than the horizon time are dropped: every job's fate is
//!   decided by its deadline, so nothing after the last deadline can change
//!   an outcome.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::future::Future;

use crate::units::Time;

/// Class of an event, ordering events at equal times (see "One instant" in
/// the module contract). Lower first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Priority {
    /// A message between models in the middle of a negotiation (broker ↔
    /// cluster): delivered before anything else due at its instant, so a
    /// negotiation is atomic at the instant it was sent.
    Negotiation = 0,
    /// A job completes or is killed: frees nodes first.
    JobEnd = 1,
    /// A node comes back.
    NodeRepair = 2,
    /// A node goes down.
    NodeFailure = 3,
    /// Scheduler wake-ups: every start decision of the instant.
    JobStart = 4,
    /// Job occurrence (submission).
    Occurrence = 5,
    /// A co-reservation request reaches the broker: after the jobs submitted
    /// at the same instant.
    Request = 6,
}

/// An event to deliver at `time`.
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduled<P> {
    /// Delivery time.
    pub time: Time,
    /// Class at equal times.
    pub priority: Priority,
    /// What to deliver, and to whom (the bench decides).
    pub payload: P,
}

/// Events a model schedules while handling one event.
pub type Outbox<P> = Vec<Scheduled<P>>;

/// The place of an event in the total order: (time, priority, sequence).
pub type Key = (Time, Priority, u64);

/// Simulation errors.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A model scheduled an event in the past.
    #[error("causality violation: an event for t = {at} was scheduled at t = {now}")]
    Causality { now: Time, at: Time },
    /// A model's actor stopped (it panicked or its mailbox closed).
    #[error("simulation model `{model}` stopped: {reason}")]
    ModelStopped { model: String, reason: String },
    /// A model broke the kernel's contract (a strategy started a job while
    /// its cluster handled an end, a repair or a failure).
    #[error("{model} broke the kernel's contract at t = {at}: {what}")]
    Contract { model: String, at: Time, what: String },
    /// A model could not go on (a computation it runs failed).
    #[error("{model} failed at t = {at}: {what}")]
    Model { model: String, at: Time, what: String },
    /// An external scheduler failed: an invalid decision, no answer, an exit
    #[error("external scheduler, at t = {at}: {what}")]
    Scheduler { at: Time, what: String },
    /// The async runtime could not be built.
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

    /// Moves every event into `out`, in no particular order, freeing only
    /// the slots they held.
    pub fn drain_into(&mut self, out: &mut Vec<(Key, P)>) {
        for e in self.heap.drain() {
            self.free.push(e.slot);
            if let Some(payload) = self.slots[e.slot as usize].take() {
                out.push((e.key, payload));
            }
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// The events of one model the kernel hands over at once.
#[derive(Debug)]
pub struct Batch<P> {
    /// Consecutive events for the model, in key order.
    pub items: Vec<(Key, P)>,
    /// The key of the next event not in the batch, if any.
    pub horizon: Option<Key>,
    /// The next sequence number.
    pub next_seq: u64,
    /// Events later than this are dropped.
    pub time_horizon: Time,
}

/// What a model hands back after a batch.
#[derive(Debug)]
pub struct Handled<P> {
    /// Events to queue, with their keys: the batch items not handled, the
    /// model's own events not handled, and its events for other models.
    pub events: Vec<(Key, P)>,
    /// The next sequence number.
    pub next_seq: u64,
    /// Events handled.
    pub delivered: u64,
    /// Time of the last one.
    pub last_time: Time,
}

/// A model, as a batch of events drives it.
pub trait Model {
    /// The bench's payload type.
    type Payload;
    /// Its own messages.
    type Msg;
    /// True if `payload` is addressed to this model.
    fn owns(&self, payload: &Self::Payload) -> bool;
    /// Takes the message out of a payload addressed to this model, or gives the payload back.
    fn open(&self, payload: Self::Payload) -> Result<Self::Msg, Self::Payload>;
    /// Handles one message at `now`; what it schedules goes to `outbox`.
    fn handle(&mut self, now: Time, msg: Self::Msg, outbox: Outbox<Self::Payload>) -> Outbox<Self::Payload>;
}

/// Handles a batch (see the module contract); `agenda` and `outbox` are the
/// model's reusable buffers (left empty).
pub fn process_batch<M: Model>(
    model: &mut M,
    batch: Batch<M::Payload>,
    agenda: &mut Agenda<M::Payload>,
    outbox: &mut Outbox<M::Payload>,
) -> Result<Handled<M::Payload>, SimError> {
    let Batch { items, horizon, mut next_seq, time_horizon } = batch;
    let mut events: Vec<(Key, M::Payload)> = Vec::new();
    let mut items = items.into_iter().peekable();
    // Nothing at or after this key may be handled here.
    let mut stop = horizon;
    let (mut delivered, mut last_time) = (0, 0);
    loop {
        let from_items = match (items.peek().map(|(k, _)| *k), agenda.peek_key()) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let next = if from_items { items.next() } else { agenda.pop() };
        let Some((key, payload)) = next else { break };
        if delivered > 0 && stop.is_some_and(|s| key >= s) {
            events.push((key, payload));
            break;
        }
        let msg = match model.open(payload) {
            Ok(msg) => msg,
            // Not addressed here (cannot happen): give it back untouched.
            Err(payload) => {
                events.push((key, payload));
                continue;
            }
        };
        let now = key.0;
        *outbox = model.handle(now, msg, std::mem::take(outbox));
        delivered += 1;
        last_time = now;
        for e in outbox.drain(..) {
            if e.time < now {
                return Err(SimError::Causality { now, at: e.time });
            }
            if e.time > time_horizon {
                continue;
            }
            let k = (e.time, e.priority, next_seq);
            next_seq += 1;
            if model.owns(&e.payload) {
                agenda.push(k, e.payload);
            } else {
                stop = Some(stop.map_or(k, |s| s.min(k)));
                events.push((k, e.payload));
            }
        }
    }
    events.extend(items);
    agenda.drain_into(&mut events);
    Ok(Handled { events, next_seq, delivered, last_time })
}

/// A set of models wired together: routes batches to models.
pub trait Bench {
    /// The event payload type.
    type Payload;

    /// The model a payload is addressed to (batches never mix models).
    fn address(&self, payload: &Self::Payload) -> (u8, usize);

    /// Hands `batch` to its model and returns what the model hands back.
    fn deliver(
        &mut self,
        batch: Batch<Self::Payload>,
    ) -> impl Future<Output = Result<Handled<Self::Payload>, SimError>>;

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

/// The event queue and the clock.
pub struct Kernel<P> {
    now: Time,
    horizon: Time,
    seq: u64,
    queue: Agenda<P>,
}

impl<P> Kernel<P> {
    /// A kernel at t = 0 that stops after `horizon`.
    pub fn new(horizon: Time) -> Kernel<P> {
        Kernel { now: 0, horizon, seq: 0, queue: Agenda::default() }
    }

    /// Current virtual time.
    pub fn now(&self) -> Time {
        self.now
    }

    /// Queues one event.
    pub fn schedule(&mut self, event: Scheduled<P>) -> Result<(), SimError> {
        if event.time < self.now {
            return Err(SimError::Causality { now: self.now, at: event.time });
        }
        if event.time <= self.horizon {
            self.queue.push((event.time, event.priority, self.seq), event.payload);
            self.seq += 1;
        }
        Ok(())
    }

    /// Delivers events until the queue is empty or past the horizon.
    pub async fn run<B: Bench<Payload = P>>(&mut self, bench: &mut B) -> Result<KernelStats, SimError> {
        let mut stats = KernelStats::default();
        let mut items = Vec::new();
        while let Some((key, payload)) = self.queue.pop() {
            let to = bench.address(&payload);
            items.clear();
            items.push((key, payload));
            // The run of consecutive events for the same model.
            while let Some(next) = self.queue.peek() {
                if bench.address(next) != to {
                    break;
                }
                if let Some(entry) = self.queue.pop() {
                    items.push(entry);
                }
            }
            let batch = Batch {
                items: std::mem::take(&mut items),
                horizon: self.queue.peek_key(),
                next_seq: self.seq,
                time_horizon: self.horizon,
            };
            let handled = bench.deliver(batch).await?;
            self.seq = handled.next_seq;
            for (key, payload) in handled.events {
                self.queue.push(key, payload);
            }
            self.now = handled.last_time.max(self.now);
            stats.delivered += handled.delivered;
            stats.batches += 1;
            stats.last_time = self.now;
            if bench.finished() {
                break;
            }
        }
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two models (0 and 1) that log deliveries and play scripted follow-ups.
    #[derive(Default)]
    struct Logger {
        me: u8,
        seen: Vec<(Time, &'static str)>,
    }

    type Msg = (u8, &'static str);

    impl Model for Logger {
        type Payload = Msg;
        type Msg = &'static str;

        fn owns(&self, payload: &Msg) -> bool {
            payload.0 == self.me
        }

        fn open(&self, payload: Msg) -> Result<&'static str, Msg> {
            if payload.0 == self.me { Ok(payload.1) } else { Err(payload) }
        }

        fn handle(&mut self, now: Time, msg: &'static str, mut outbox: Outbox<Msg>) -> Outbox<Msg> {
            self.seen.push((now, msg));
            let at = |time, priority, to, payload| Scheduled { time, priority, payload: (to, payload) };
            match msg {
                "occurrence-a" => {
                    // Same time, lower class: still after everything already due at
                    // this time with a lower class, before later-sequence equals.
                    outbox.push(at(now, Priority::JobStart, 0, "start-a"));
                    outbox.push(at(now + 5, Priority::JobEnd, 0, "end-a"));
                    // A negotiation message jumps ahead of everything still due now.
                    outbox.push(at(now, Priority::Negotiation, 1, "ask-a"));
                }
                "ask-a" => outbox.push(at(now, Priority::Negotiation, 0, "reply-a")),
                "bad" => outbox.push(at(now - 1, Priority::JobEnd, 0, "past")),
                _ => {}
            }
            outbox
        }
    }

    struct Two {
        models: [Logger; 2],
        log: Vec<(Time, &'static str)>,
        agendas: [Agenda<Msg>; 2],
        outbox: Outbox<Msg>,
    }

    impl Bench for Two {
        type Payload = Msg;

        fn address(&self, payload: &Msg) -> (u8, usize) {
            (0, usize::from(payload.0))
        }

        async fn deliver(&mut self, batch: Batch<Msg>) -> Result<Handled<Msg>, SimError> {
            let i = usize::from(batch.items[0].1.0);
            let before = self.models[i].seen.len();
            let handled = process_batch(&mut self.models[i], batch, &mut self.agendas[i], &mut self.outbox);
            self.log.extend_from_slice(&self.models[i].seen[before..]);
            handled
        }
    }

    fn at(time: Time, priority: Priority, to: u8, payload: &'static str) -> Scheduled<Msg> {
        Scheduled { time, priority, payload: (to, payload) }
    }

    fn bench() -> Two {
        Two {
            models: [Logger { me: 0, seen: Vec::new() }, Logger { me: 1, seen: Vec::new() }],
            log: Vec::new(),
            agendas: Default::default(),
            outbox: Vec::new(),
        }
    }

    #[test]
    fn equal_times_follow_the_spec_order_then_insertion() {
        let mut k = Kernel::new(100);
        for e in [
            at(10, Priority::Occurrence, 0, "occurrence-a"),
            at(10, Priority::JobStart, 0, "start-x"),
            at(10, Priority::NodeFailure, 0, "failure"),
            at(10, Priority::NodeRepair, 0, "repair"),
            at(10, Priority::JobEnd, 0, "end-x"),
            at(10, Priority::Occurrence, 0, "occurrence-b"),
            at(10, Priority::Request, 1, "request"),
            at(200, Priority::JobEnd, 0, "beyond-horizon"),
        ] {
            k.schedule(e).unwrap();
        }
        let mut b = bench();
        let stats = futures_lite_block_on(k.run(&mut b)).unwrap();
        let order: Vec<&str> = b.log.iter().map(|s| s.1).collect();
        assert_eq!(
            order,
            vec![
                "end-x",
                "repair",
                "failure",
                "start-x",
                "occurrence-a",
                "ask-a",
                "reply-a",
                "start-a",
                "occurrence-b",
                "request",
                "end-a"
            ]
        );
        assert_eq!((stats.delivered, stats.last_time), (11, 15));
        // Model 0's first five events were one batch; the negotiation with
        // model 1 broke the run; "start-a" and "occurrence-b" were handled
        // in model 0's agenda after the reply.
        assert_eq!(stats.batches, 5);
    }

    #[test]
    fn scheduling_into_the_past_is_an_error() {
        let mut k = Kernel::new(100);
        k.schedule(at(10, Priority::Occurrence, 0, "bad")).unwrap();
        let err = futures_lite_block_on(k.run(&mut bench())).unwrap_err();
        assert!(matches!(err, SimError::Causality { now: 10, at: 9 }));
    }

    fn futures_lite_block_on<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }
}
