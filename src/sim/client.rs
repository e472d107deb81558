//! A client: submits a battery's jobs at their occurrence times.
//!
//! Contract: the client wakes at each distinct occurrence time (class
//! `Occurrence`), submits every job occurring then to its target, in job order,
//! and schedules its next wake-up. It only ever schedules one wake-up ahead.

use kameo::Actor;
use kameo::message::{Context, Message};

use crate::sim::event::{ClientMsg, ClusterMsg, Deliver, Event};
use crate::sim::kernel::{Outbox, Priority, Scheduled};
use crate::units::Time;
use crate::workload::job::Job;

/// The client actor.
#[derive(Actor)]
pub struct ClientActor {
    me: usize,
    target: usize,
    jobs: Vec<Job>,
    next: usize,
}

impl ClientActor {
    /// A client at address `me` submitting `jobs` (ordered by occurrence) to cluster `target`.
    pub fn new(me: usize, target: usize, jobs: Vec<Job>) -> ClientActor {
        ClientActor { me, target, jobs, next: 0 }
    }

    /// The first wake-up, if there are jobs.
    pub fn first_event(&self) -> Option<Scheduled<Event>> {
        self.jobs.first().map(|j| self.wake(j.occurrence))
    }

    fn wake(&self, time: Time) -> Scheduled<Event> {
        Scheduled { time, priority: Priority::Occurrence, payload: Event::Client(self.me, ClientMsg::Occur) }
    }

    fn occur(&mut self, now: Time, outbox: &mut Outbox<Event>) {
        while let Some(job) = self.jobs.get(self.next).filter(|j| j.occurrence <= now) {
            outbox.push(Scheduled {
                time: now,
                priority: Priority::Occurrence,
                payload: Event::Cluster(self.target, ClusterMsg::Submit(*job)),
            });
            self.next += 1;
        }
        if let Some(job) = self.jobs.get(self.next) {
            outbox.push(self.wake(job.occurrence));
        }
    }
}

impl Message<Deliver<ClientMsg>> for ClientActor {
    type Reply = Outbox<Event>;

    async fn handle(&mut self, d: Deliver<ClientMsg>, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let mut outbox = d.outbox;
        match d.msg {
            ClientMsg::Occur => self.occur(d.now, &mut outbox),
        }
        outbox
    }
}
