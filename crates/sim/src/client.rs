//! A client: submits what it holds (jobs, co-reservation requests) at their times.
//!
//! Contract: the client sends its items on its output port, each at its own
//! submission time and with its kind's class ([`Submission::CLASS`]), in
//! list order. It sends them ahead in chunks of [`CHUNK`] items: it wakes at
//! the time of the first item not yet sent, sends the next chunk and asks for
//! its next wake-up. Sending ahead changes no order (the kernel orders equal
//! times by class, then by sending order, and only the client sends items of
//! its class to its receiver) but costs one kernel message per chunk instead
//! of one per submission time. It does not know who receives: the bench
//! connects its output to a cluster's job input, or to the broker's request
//! input.

use std::sync::Arc;

use crate::kernel::{Class, Model, Outbox, Scheduled};
use crate::model::{Batched, Buffers};
use crate::port::Output;
use crate::units::Time;

/// Items a client sends per wake-up.
pub const CHUNK: usize = 4096;

/// Something a client submits at a time of its own.
pub trait Submission: Clone + Send + Sync + 'static {
    /// The class of its submission event at equal times.
    const CLASS: Class;
    /// When it is submitted.
    fn submitted_at(&self) -> Time;
}

/// What a client submits: a list of its own, or one it shares (a battery's
/// jobs, read by every run of it), never copied.
pub enum Items<T> {
    /// Its own list.
    Owned(Vec<T>),
    /// A list shared with others.
    Shared(Arc<[T]>),
}

impl<T> From<Vec<T>> for Items<T> {
    fn from(items: Vec<T>) -> Items<T> {
        Items::Owned(items)
    }
}

impl<T> From<Arc<[T]>> for Items<T> {
    fn from(items: Arc<[T]>) -> Items<T> {
        Items::Shared(items)
    }
}

impl<T> std::ops::Deref for Items<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Items::Owned(items) => items,
            Items::Shared(items) => items,
        }
    }
}

/// A message for a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientMsg {
    /// The next item's submission time has come.
    Occur,
}

/// The client actor.
pub struct ClientActor<T: Submission> {
    items: Items<T>,
    next: usize,
    /// Where its submissions go.
    pub output: Output<T>,
    buffers: Buffers<ClientMsg>,
}

impl<T: Submission> ClientActor<T> {
    /// A client submitting `items` (ordered by time), a list of its own or
    /// a shared one; its output unconnected.
    pub fn new(items: impl Into<Items<T>>) -> ClientActor<T> {
        ClientActor { items: items.into(), next: 0, output: Output::new(), buffers: Buffers::default() }
    }

    /// The first wake-up, if there is anything to submit.
    pub fn first_event(&self) -> Option<Scheduled<ClientMsg>> {
        self.items.first().map(|j| self.wake(j.submitted_at()))
    }

    fn wake(&self, time: Time) -> Scheduled<ClientMsg> {
        Scheduled::me(time, T::CLASS, ClientMsg::Occur)
    }

    /// Sends the next chunk and asks for the wake-up after it.
    fn occur(&mut self, now: Time, outbox: &mut Outbox<ClientMsg>) {
        let end = (self.next + CHUNK).min(self.items.len());
        for item in &self.items[self.next..end] {
            // An item out of time order is submitted now rather than in the past.
            self.output.send(item.submitted_at().max(now), T::CLASS, item.clone(), outbox);
        }
        self.next = end;
        if let Some(item) = self.items.get(self.next) {
            outbox.push(self.wake(item.submitted_at().max(now)));
        }
    }
}

impl<T: Submission> Model for ClientActor<T> {
    type Msg = ClientMsg;

    fn handle(&mut self, now: Time, msg: ClientMsg, mut outbox: Outbox<ClientMsg>) -> Outbox<ClientMsg> {
        match msg {
            ClientMsg::Occur => self.occur(now, &mut outbox),
        }
        outbox
    }
}

impl<T: Submission> Batched for ClientActor<T> {
    fn buffers(&mut self) -> &mut Buffers<ClientMsg> {
        &mut self.buffers
    }
}
