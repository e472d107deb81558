//! A client: submits what it holds (jobs, co-reservation requests) at their times.
//!
//! Contract: the client sends its items on its output port, each at its own
//! submission time and with its kind's class ([`Submission::PRIORITY`]), in
//! list order. It sends them ahead in chunks of [`CHUNK`] items: it wakes at
//! the time of the first item not yet sent, sends the next chunk and asks for
//! its next wake-up. Sending ahead changes no order (the kernel orders equal
//! times by class, then by sending order, and only the client sends items of
//! its class to its receiver) but costs one kernel message per chunk instead
//! of one per submission time. It does not know who receives: the bench
//! connects its output to a cluster's job input, or to the broker's request
//! input.

use kameo::Actor;

use crate::grid::request::CoRequest;
use crate::sim::event::{Batched, Buffers, ClientMsg, Event};
use crate::sim::kernel::{Model, Outbox, Priority, Scheduled};
use crate::sim::port::Output;
use crate::units::Time;
use crate::workload::job::Job;

/// Items a client sends per wake-up.
pub const CHUNK: usize = 4096;

/// Something a client submits at a time of its own.
pub trait Submission: Clone + Send + 'static {
    /// The class of its submission event at equal times.
    const PRIORITY: Priority;
    /// When it is submitted.
    fn submitted_at(&self) -> Time;
}

impl Submission for Job {
    const PRIORITY: Priority = Priority::Occurrence;
    fn submitted_at(&self) -> Time {
        self.occurrence
    }
}

impl Submission for CoRequest {
    const PRIORITY: Priority = Priority::Request;
    fn submitted_at(&self) -> Time {
        self.submit
    }
}

/// The client actor.
#[derive(Actor)]
pub struct ClientActor<T: Submission> {
    me: usize,
    items: Vec<T>,
    next: usize,
    /// Where its submissions go.
    pub output: Output<T>,
    buffers: Buffers,
}

impl<T: Submission> ClientActor<T> {
    /// A client at address `me` submitting `items` (ordered by time); its output unconnected.
    pub fn new(me: usize, items: Vec<T>) -> ClientActor<T> {
        ClientActor { me, items, next: 0, output: Output::new(), buffers: Buffers::default() }
    }

    /// The first wake-up, if there is anything to submit.
    pub fn first_event(&self) -> Option<Scheduled<Event>> {
        self.items.first().map(|j| self.wake(j.submitted_at()))
    }

    fn wake(&self, time: Time) -> Scheduled<Event> {
        Scheduled { time, priority: T::PRIORITY, payload: Event::Client(self.me, ClientMsg::Occur) }
    }

    /// Sends the next chunk and asks for the wake-up after it.
    fn occur(&mut self, now: Time, outbox: &mut Outbox<Event>) {
        let end = (self.next + CHUNK).min(self.items.len());
        for item in &self.items[self.next..end] {
            // An item out of time order is submitted now rather than in the past.
            self.output.send(item.submitted_at().max(now), T::PRIORITY, item.clone(), outbox);
        }
        self.next = end;
        if let Some(item) = self.items.get(self.next) {
            outbox.push(self.wake(item.submitted_at().max(now)));
        }
    }
}

impl<T: Submission> Model for ClientActor<T> {
    type Payload = Event;
    type Msg = ClientMsg;

    fn owns(&self, payload: &Event) -> bool {
        matches!(payload, Event::Client(i, _) if *i == self.me)
    }

    fn open(&self, payload: Event) -> Result<ClientMsg, Event> {
        match payload {
            Event::Client(i, msg) if i == self.me => Ok(msg),
            other => Err(other),
        }
    }

    fn handle(&mut self, now: Time, msg: ClientMsg, mut outbox: Outbox<Event>) -> Outbox<Event> {
        match msg {
            ClientMsg::Occur => self.occur(now, &mut outbox),
        }
        outbox
    }
}

impl<T: Submission> Batched for ClientActor<T> {
    fn buffers(&mut self) -> &mut Buffers {
        &mut self.buffers
    }
}

crate::batched_actor!(T: Submission => ClientActor<T>);
