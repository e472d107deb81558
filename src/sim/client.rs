//! A client: submits what it holds (jobs, co-reservation requests) at their times.
//!
//! Contract: the client wakes at each distinct submission time (class
//! `Occurrence`), sends every item due then on its output port, in list order,
//! and schedules its next wake-up. It only ever schedules one wake-up ahead.
//! It does not know who receives: the bench connects its output to a
//! cluster's job input, or to the broker's request input.

use kameo::Actor;
use kameo::message::{Context, Message};

use crate::grid::request::CoRequest;
use crate::sim::event::{ClientMsg, Deliver, Event};
use crate::sim::kernel::{Outbox, Priority, Scheduled};
use crate::sim::port::Output;
use crate::units::Time;
use crate::workload::job::Job;

/// Something a client submits at a time of its own.
pub trait Submission: Clone + Send + 'static {
    /// When it is submitted.
    fn submitted_at(&self) -> Time;
}

impl Submission for Job {
    fn submitted_at(&self) -> Time {
        self.occurrence
    }
}

impl Submission for CoRequest {
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
}

impl<T: Submission> ClientActor<T> {
    /// A client at address `me` submitting `items` (ordered by time); its output unconnected.
    pub fn new(me: usize, items: Vec<T>) -> ClientActor<T> {
        ClientActor { me, items, next: 0, output: Output::new() }
    }

    /// The first wake-up, if there is anything to submit.
    pub fn first_event(&self) -> Option<Scheduled<Event>> {
        self.items.first().map(|j| self.wake(j.submitted_at()))
    }

    fn wake(&self, time: Time) -> Scheduled<Event> {
        Scheduled { time, priority: Priority::Occurrence, payload: Event::Client(self.me, ClientMsg::Occur) }
    }

    fn occur(&mut self, now: Time, outbox: &mut Outbox<Event>) {
        while let Some(item) = self.items.get(self.next).filter(|j| j.submitted_at() <= now) {
            self.output.send(now, Priority::Occurrence, item.clone(), outbox);
            self.next += 1;
        }
        if let Some(item) = self.items.get(self.next) {
            outbox.push(self.wake(item.submitted_at()));
        }
    }
}

impl<T: Submission> Message<Deliver<ClientMsg>> for ClientActor<T> {
    type Reply = Outbox<Event>;

    async fn handle(&mut self, d: Deliver<ClientMsg>, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let mut outbox = d.outbox;
        match d.msg {
            ClientMsg::Occur => self.occur(d.now, &mut outbox),
        }
        outbox
    }
}
