//! The failure injector: replays a node-failure stream into a cluster.
//!
//! Contract: the injector wakes at each distinct event time with the class of
//! its first event there (repairs before failures, spec §6.5), sends every
//! node event of that time on its output port (to its cluster) with the
//! event's own class, and schedules its next wake-up.

use kameo::Actor;
use kameo::message::{Context, Message};

use crate::sim::event::{Deliver, Event, InjectorMsg};
use crate::sim::kernel::{Outbox, Priority, Scheduled};
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
        FailureInjector { me, events: stream.events, next: 0, output: Output::new() }
    }

    /// The first wake-up, if there are events.
    pub fn first_event(&self) -> Option<Scheduled<Event>> {
        self.events.first().map(|e| self.wake(e))
    }

    fn wake(&self, e: &NodeEvent) -> Scheduled<Event> {
        Scheduled { time: e.time, priority: priority(e.kind), payload: Event::Injector(self.me, InjectorMsg::Tick) }
    }

    fn tick(&mut self, now: Time, outbox: &mut Outbox<Event>) {
        while let Some(&e) = self.events.get(self.next).filter(|e| e.time <= now) {
            self.output.send(now, priority(e.kind), e, outbox);
            self.next += 1;
        }
        if let Some(e) = self.events.get(self.next) {
            outbox.push(self.wake(e));
        }
    }
}

impl Message<Deliver<InjectorMsg>> for FailureInjector {
    type Reply = Outbox<Event>;

    async fn handle(&mut self, d: Deliver<InjectorMsg>, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let mut outbox = d.outbox;
        match d.msg {
            InjectorMsg::Tick => self.tick(d.now, &mut outbox),
        }
        outbox
    }
}
