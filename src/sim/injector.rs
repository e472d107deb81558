//! The failure injector: replays a node-failure stream into a cluster.
//!
//! Contract: the injector sends each node event on its output port (to its
//! cluster) at the event's time with the event's own class (repairs before
//! failures, spec §6.5), in stream order. Like a client it sends ahead in
//! chunks of [`CHUNK`] events, waking at the time (and class) of the first
//! event not yet sent; only the injector sends node events, so the order is
//! the one of sending each at its time.

use kameo::Actor;

use crate::sim::client::CHUNK;
use crate::sim::event::{Batched, Buffers, Event, InjectorMsg};
use crate::sim::kernel::{Model, Outbox, Priority, Scheduled};
use crate::sim::port::Output;
use crate::units::Time;
use crate::workload::failures::{FailureStream, NodeEvent, NodeEventKind};

/// The failure injector actor.
#[derive(Actor)]
pub struct FailureInjector {
    me: usize,
    events: Vec<NodeEvent>,
    next: usize,
    /// Where node events go.
    pub output: Output<NodeEvent>,
    buffers: Buffers,
}

fn priority(kind: NodeEventKind) -> Priority {
    match kind {
        NodeEventKind::Repair => Priority::NodeRepair,
        NodeEventKind::Fail => Priority::NodeFailure,
    }
}

impl FailureInjector {
    /// An injector at address `me` replaying `stream`; its output unconnected.
    pub fn new(me: usize, stream: FailureStream) -> FailureInjector {
        FailureInjector { me, events: stream.events, next: 0, output: Output::new(), buffers: Buffers::default() }
    }

    /// The first wake-up, if there are events.
    pub fn first_event(&self) -> Option<Scheduled<Event>> {
        self.events.first().map(|e| self.wake(e.time, e))
    }

    fn wake(&self, time: Time, e: &NodeEvent) -> Scheduled<Event> {
        Scheduled { time, priority: priority(e.kind), payload: Event::Injector(self.me, InjectorMsg::Tick) }
    }

    fn tick(&mut self, now: Time, outbox: &mut Outbox<Event>) {
        let end = (self.next + CHUNK).min(self.events.len());
        for &e in &self.events[self.next..end] {
            self.output.send(e.time.max(now), priority(e.kind), e, outbox);
        }
        self.next = end;
        if let Some(e) = self.events.get(self.next) {
            outbox.push(self.wake(e.time.max(now), e));
        }
    }
}

impl Model for FailureInjector {
    type Payload = Event;
    type Msg = InjectorMsg;

    fn owns(&self, payload: &Event) -> bool {
        matches!(payload, Event::Injector(i, _) if *i == self.me)
    }

    fn open(&self, payload: Event) -> Result<InjectorMsg, Event> {
        match payload {
            Event::Injector(i, msg) if i == self.me => Ok(msg),
            other => Err(other),
        }
    }

    fn handle(&mut self, now: Time, msg: InjectorMsg, mut outbox: Outbox<Event>) -> Outbox<Event> {
        match msg {
            InjectorMsg::Tick => self.tick(now, &mut outbox),
        }
        outbox
    }
}

impl Batched for FailureInjector {
    fn buffers(&mut self) -> &mut Buffers {
        &mut self.buffers
    }
}

crate::batched_actor!(FailureInjector);
