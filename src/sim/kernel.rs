//! The discrete-event kernel: owns virtual time and delivers events in a total order.
//!
//! Reference: `overbooking-dissertation-spec.md` §6.2 (events), §6.5 (order of
//! events at equal timestamps: job end → node repair → node failure → job
//! start → occurrence); `coreservation-thesis-spec.md` A26 (a co-reservation
//! request is processed instantaneously: its messages come first).
//!
//! Contract:
//! - Time is integer seconds and never goes back: scheduling an event before
//!   `now` is an error ([`SimError::Causality`]).
//! - Events are delivered one at a time in the total order
//!   `(time, priority, sequence)`, where the sequence number counts insertions.
//!   Nothing else (thread count, hash order, the wall clock) affects the order.
//! - The kernel is generic over its payload: it neither knows nor cares which
//!   models exist. A [`Bench`] routes each payload to its model and returns the
//!   events the model scheduled in an [`Outbox`]; the outbox vector is handed
//!   back and forth, so steady-state delivery does not allocate in the kernel.
//! - Events later than the horizon are dropped: every job's fate is decided by
//!   its deadline, so nothing after the last deadline can change an outcome.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::future::Future;

use crate::units::Time;

/// Class of an event, ordering events at equal times (spec §6.5). Lower first.
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
    /// Planned starts (scheduler wake-ups).
    JobStart = 4,
    /// Job occurrence (submission), and the start of a negotiation.
    Occurrence = 5,
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

/// Simulation errors.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A model scheduled an event in the past.
    #[error("causality violation: an event for t = {at} was scheduled at t = {now}")]
    Causality { now: Time, at: Time },
    /// A model's actor stopped (it panicked or its mailbox closed).
    #[error("simulation model `{model}` stopped: {reason}")]
    ModelStopped { model: String, reason: String },
    /// The async runtime could not be built.
    #[error("cannot start the simulation runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

/// A set of models wired together: routes payloads to models.
pub trait Bench {
    /// The event payload type.
    type Payload;

    /// Delivers `payload` at `now`; the model appends what it schedules to
    /// `outbox` and the bench returns it.
    fn deliver(
        &mut self,
        now: Time,
        payload: Self::Payload,
        outbox: Outbox<Self::Payload>,
    ) -> impl Future<Output = Result<Outbox<Self::Payload>, SimError>>;
}

struct Entry<P> {
    time: Time,
    priority: Priority,
    seq: u64,
    payload: P,
}

impl<P> Entry<P> {
    fn key(&self) -> (Time, Priority, u64) {
        (self.time, self.priority, self.seq)
    }
}

impl<P> PartialEq for Entry<P> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<P> Eq for Entry<P> {}

impl<P> PartialOrd for Entry<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<P> Ord for Entry<P> {
    /// Reversed: `BinaryHeap` is a max-heap and the earliest event must come first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// What a kernel run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KernelStats {
    /// Events delivered.
    pub delivered: u64,
    /// Time of the last delivered event.
    pub last_time: Time,
}

/// The event queue and the clock.
pub struct Kernel<P> {
    now: Time,
    horizon: Time,
    seq: u64,
    queue: BinaryHeap<Entry<P>>,
    spare: Outbox<P>,
}

impl<P> Kernel<P> {
    /// A kernel at t = 0 that stops after `horizon`.
    pub fn new(horizon: Time) -> Kernel<P> {
        Kernel { now: 0, horizon, seq: 0, queue: BinaryHeap::new(), spare: Vec::new() }
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
            self.queue.push(Entry {
                time: event.time,
                priority: event.priority,
                seq: self.seq,
                payload: event.payload,
            });
            self.seq += 1;
        }
        Ok(())
    }

    /// Delivers events until the queue is empty or past the horizon.
    pub async fn run<B: Bench<Payload = P>>(&mut self, bench: &mut B) -> Result<KernelStats, SimError> {
        let mut stats = KernelStats::default();
        while let Some(entry) = self.queue.pop() {
            self.now = entry.time;
            let outbox = std::mem::take(&mut self.spare);
            let mut outbox = bench.deliver(self.now, entry.payload, outbox).await?;
            for event in outbox.drain(..) {
                self.schedule(event)?;
            }
            self.spare = outbox;
            stats.delivered += 1;
            stats.last_time = self.now;
        }
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bench that logs deliveries and replays scripted follow-ups.
    struct Log {
        seen: Vec<(Time, &'static str)>,
    }

    impl Bench for Log {
        type Payload = &'static str;

        async fn deliver(
            &mut self,
            now: Time,
            payload: &'static str,
            mut outbox: Outbox<&'static str>,
        ) -> Result<Outbox<&'static str>, SimError> {
            self.seen.push((now, payload));
            if payload == "occurrence-a" {
                // Same time, lower class: still after everything already due at
                // this time with a lower class, before later-sequence equals.
                outbox.push(Scheduled { time: now, priority: Priority::JobStart, payload: "start-a" });
                outbox.push(Scheduled { time: now + 5, priority: Priority::JobEnd, payload: "end-a" });
                // A negotiation message jumps ahead of everything still due now.
                outbox.push(Scheduled { time: now, priority: Priority::Negotiation, payload: "ask-a" });
            }
            if payload == "ask-a" {
                outbox.push(Scheduled { time: now, priority: Priority::Negotiation, payload: "reply-a" });
            }
            if payload == "bad" {
                outbox.push(Scheduled { time: now - 1, priority: Priority::JobEnd, payload: "past" });
            }
            Ok(outbox)
        }
    }

    fn at(time: Time, priority: Priority, payload: &'static str) -> Scheduled<&'static str> {
        Scheduled { time, priority, payload }
    }

    #[test]
    fn equal_times_follow_the_spec_order_then_insertion() {
        let mut k = Kernel::new(100);
        for e in [
            at(10, Priority::Occurrence, "occurrence-a"),
            at(10, Priority::JobStart, "start-x"),
            at(10, Priority::NodeFailure, "failure"),
            at(10, Priority::NodeRepair, "repair"),
            at(10, Priority::JobEnd, "end-x"),
            at(10, Priority::Occurrence, "occurrence-b"),
            at(200, Priority::JobEnd, "beyond-horizon"),
        ] {
            k.schedule(e).unwrap();
        }
        let mut log = Log { seen: Vec::new() };
        let stats = futures_lite_block_on(k.run(&mut log)).unwrap();
        let order: Vec<&str> = log.seen.iter().map(|s| s.1).collect();
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
                "end-a"
            ]
        );
        assert_eq!(stats, KernelStats { delivered: 10, last_time: 15 });
    }

    #[test]
    fn scheduling_into_the_past_is_an_error() {
        let mut k = Kernel::new(100);
        k.schedule(at(10, Priority::Occurrence, "bad")).unwrap();
        let mut log = Log { seen: Vec::new() };
        let err = futures_lite_block_on(k.run(&mut log)).unwrap_err();
        assert!(matches!(err, SimError::Causality { now: 10, at: 9 }));
    }

    fn futures_lite_block_on<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }
}
