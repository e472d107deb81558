//! The failure injector: replays a node-failure stream into a cluster.
//!
//! Contract: the injector sends each node event on its output port (to its
//! cluster) at the event's time with the event's own class (repairs before
//! failures, spec §6.5), in stream order. Like a client it sends ahead in
//! chunks of [`CHUNK`] events, waking at the time (and class) of the first
//! event not yet sent; only the injector sends node events, so the order is
//! the one of sending each at its time.

use crate::cluster::instant;
use crate::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim_core::sim::client::CHUNK;
use slasim_core::sim::kernel::{Class, Model, Outbox, Scheduled};
use slasim_core::sim::model::{Batched, Buffers};
use slasim_core::sim::port::Output;
use slasim_core::units::Time;

/// A message for a failure injector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectorMsg {
    /// The next node event's time has come.
    Tick,
}

/// The failure injector actor.
pub struct FailureInjector {
    events: Vec<NodeEvent>,
    next: usize,
    /// Where node events go.
    pub output: Output<NodeEvent>,
    buffers: Buffers<InjectorMsg>,
}

fn class(kind: NodeEventKind) -> Class {
    match kind {
        NodeEventKind::Repair => instant::NODE_REPAIR,
        NodeEventKind::Fail => instant::NODE_FAILURE,
    }
}

impl FailureInjector {
    /// An injector replaying `stream`; its output unconnected.
    pub fn new(stream: FailureStream) -> FailureInjector {
        FailureInjector { events: stream.events, next: 0, output: Output::new(), buffers: Buffers::default() }
    }

    /// The first wake-up, if there are events.
    pub fn first_event(&self) -> Option<Scheduled<InjectorMsg>> {
        self.events.first().map(|e| self.wake(e.time, e))
    }

    fn wake(&self, time: Time, e: &NodeEvent) -> Scheduled<InjectorMsg> {
        Scheduled::me(time, class(e.kind), InjectorMsg::Tick)
    }

    fn tick(&mut self, now: Time, outbox: &mut Outbox<InjectorMsg>) {
        let end = (self.next + CHUNK).min(self.events.len());
        for &e in &self.events[self.next..end] {
            self.output.send(e.time.max(now), class(e.kind), e, outbox);
        }
        self.next = end;
        if let Some(e) = self.events.get(self.next) {
            outbox.push(self.wake(e.time.max(now), e));
        }
    }
}

impl Model for FailureInjector {
    type Msg = InjectorMsg;

    fn handle(&mut self, now: Time, msg: InjectorMsg, mut outbox: Outbox<InjectorMsg>) -> Outbox<InjectorMsg> {
        match msg {
            InjectorMsg::Tick => self.tick(now, &mut outbox),
        }
        outbox
    }
}

impl Batched for FailureInjector {
    fn buffers(&mut self) -> &mut Buffers<InjectorMsg> {
        &mut self.buffers
    }
}
