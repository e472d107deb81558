//! Typed addresses and connections between models, the way NeXosim wires a bench.
//!
//! Reference: NeXosim's output/input ports (a model sends on its output; the
//! bench, not the model, decides which model's input receives it).
//!
//! Contract:
//! - [`Address<M>`] is a model of kind `M` in a bench (the bench hands it out).
//! - A model kind declares what it takes by implementing [`Receive<T>`] for
//!   each input type `T`: how a `T` becomes one of its own messages. Its
//!   [`Input<T>`] (`address.input()`) is that conversion bound to the address.
//! - A model owns [`Output<T>`] ports and sends a `T` on them; it never names
//!   the model at the other end. The bench connects outputs to inputs, so one
//!   model works in several assemblies (a client feeds a cluster in the
//!   single-cluster bench and the broker in the Grid bench).
//! - Sending on an output schedules one kernel event per connection, in
//!   connection order, at the given time and class. An unconnected output
//!   drops what is sent.
//! - A request that expects an answer carries the asker's [`Input`] for it:
//!   the answer goes there and nowhere else.

use std::marker::PhantomData;

use crate::kernel::{Class, Model, ModelId, Msg, Outbox, Scheduled, To};
use crate::units::Time;

/// A model kind's input of type `T`: how a `T` becomes one of its messages.
pub trait Receive<T>: Model {
    /// The message a received `T` is.
    fn receive(item: T) -> Self::Msg;
}

/// A model of kind `M` in a bench.
pub struct Address<M> {
    id: ModelId,
    kind: PhantomData<fn() -> M>,
}

impl<M> Clone for Address<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Address<M> {}

impl<M> std::fmt::Debug for Address<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Address({})", self.id.0)
    }
}

impl<M> PartialEq for Address<M> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<M> Eq for Address<M> {}

impl<M: Model> Address<M> {
    /// The address of model `id`: a bench hands addresses out; a test that
    /// drives one model's handler by hand makes its own.
    pub fn new(id: ModelId) -> Address<M> {
        Address { id, kind: PhantomData }
    }

    /// Its place in the bench.
    pub fn id(&self) -> ModelId {
        self.id
    }

    /// Its input of type `T`.
    pub fn input<T: 'static>(&self) -> Input<T>
    where
        M: Receive<T>,
    {
        Input { to: self.id, wrap: wrap::<M, T> }
    }

    /// `msg` for this model at `time` in `class`, scheduled by a model whose messages are `U`.
    pub fn event<U>(&self, time: Time, class: Class, msg: M::Msg) -> Scheduled<U> {
        Scheduled { time, class, to: To::Model(self.id, Msg::new(msg)) }
    }
}

fn wrap<M: Receive<T>, T>(item: T) -> Msg {
    Msg::new(M::receive(item))
}

/// The input of type `T` of one model: where a `T` goes.
pub struct Input<T> {
    to: ModelId,
    wrap: fn(T) -> Msg,
}

impl<T> Clone for Input<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Input<T> {}

impl<T> PartialEq for Input<T> {
    fn eq(&self, other: &Self) -> bool {
        self.to == other.to
    }
}

impl<T> Eq for Input<T> {}

impl<T> std::fmt::Debug for Input<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Input(model {})", self.to.0)
    }
}

impl<T> Input<T> {
    /// The model it reaches.
    pub fn model(&self) -> ModelId {
        self.to
    }

    /// `item` for this input at `time` in `class`, scheduled by a model whose messages are `U`.
    pub fn event<U>(&self, time: Time, class: Class, item: T) -> Scheduled<U> {
        Scheduled { time, class, to: To::Model(self.to, (self.wrap)(item)) }
    }

    /// Sends `item` to this input at `time` in `class`.
    pub fn send<U>(&self, time: Time, class: Class, item: T, outbox: &mut Outbox<U>) {
        outbox.push(self.event(time, class, item));
    }
}

/// A question and where its answer goes: the asker's input.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<Q, A> {
    /// The question.
    pub body: Q,
    /// Where the answer goes.
    pub reply: Input<A>,
}

/// An output port: the inputs it is connected to.
pub struct Output<T> {
    links: Vec<Input<T>>,
}

impl<T> Default for Output<T> {
    fn default() -> Self {
        Output { links: Vec::new() }
    }
}

impl<T> std::fmt::Debug for Output<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Output({:?})", self.links.iter().map(|i| i.to.0).collect::<Vec<_>>())
    }
}

impl<T: Clone> Output<T> {
    /// An unconnected output.
    pub fn new() -> Output<T> {
        Output::default()
    }

    /// Connects this output to `input`.
    pub fn connect(&mut self, input: Input<T>) {
        self.links.push(input);
    }

    /// True if anything listens.
    pub fn is_connected(&self) -> bool {
        !self.links.is_empty()
    }

    /// Sends `item` at `time` in `class` to every connected input.
    pub fn send<U>(&self, time: Time, class: Class, item: T, outbox: &mut Outbox<U>) {
        if let Some((last, rest)) = self.links.split_last() {
            for input in rest {
                input.send(time, class, item.clone(), outbox);
            }
            last.send(time, class, item, outbox);
        }
    }
}
