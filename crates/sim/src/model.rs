//! How a model is driven: batches of its events, its reusable buffers, its
//! final state, and the adapter that runs it.
//!
//! Contract: a model kind is a plain type. It implements
//! [`crate::kernel::Model`] (its own message type and one handler),
//! [`Batched`] (its buffers, and the error that ends a run if it broke a
//! contract) and, if it hands something back after the run, [`Finish`].
//! A [`crate::bench::Bench`] runs it through the kernel's adapter, a kameo
//! actor on the bench's own runtime, which only this crate names: no model
//! kind depends on the runtime, and replacing it changes no model. Nothing
//! here knows a model kind.

use std::any::Any;
use std::convert::Infallible;

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};

use crate::kernel::{Agenda, Batch, Handled, Model, Outbox, SimError, process_batch};

/// The kernel's delivery of a batch of events to one model (see
/// [`crate::kernel::process_batch`]); the reply is what the model hands back.
#[derive(Debug)]
pub(crate) struct DeliverBatch(pub Batch);

/// A model's reusable event buffers.
#[derive(Debug)]
pub struct Buffers<T> {
    /// Its own pending events during a batch.
    pub agenda: Agenda<T>,
    /// What one handler call schedules.
    pub outbox: Outbox<T>,
}

impl<T> Default for Buffers<T> {
    fn default() -> Self {
        Buffers { agenda: Agenda::default(), outbox: Vec::new() }
    }
}

/// A model driven by batches, owning its buffers.
pub trait Batched: Model + Sized {
    /// Its buffers.
    fn buffers(&mut self) -> &mut Buffers<Self::Msg>;

    /// The error that ends the run if the model broke the kernel's contract
    /// while handling its events (checked after each batch).
    fn broken(&self) -> Option<SimError> {
        None
    }

    /// Handles a batch with its own buffers.
    fn handle_batch(&mut self, batch: Batch) -> Result<Handled, SimError> {
        let mut buffers = std::mem::take(self.buffers());
        let handled = process_batch(self, batch, &mut buffers.agenda, &mut buffers.outbox);
        *self.buffers() = buffers;
        match self.broken() {
            Some(error) => Err(error),
            None => handled,
        }
    }
}

/// A model's final state, asked for once the run is over
/// ([`crate::bench::Bench::finish`]).
pub trait Finish: Batched {
    /// What it hands back.
    type Final: Send + 'static;
    /// Its final state.
    fn finish(&mut self) -> Self::Final;
}

/// What a model hands its caller when it suspends.
pub(crate) type Note = Box<dyn Any + Send>;

/// How a model's note is made when it suspends
/// ([`crate::bench::Bench::when_suspended`]).
pub(crate) type Hook<M> = Box<dyn FnMut(&mut M) -> Note + Send>;

/// The kernel's adapter: a model run as a kameo actor. kameo is the runtime
/// that drives models; a model is a plain type that never names it.
pub(crate) struct Actor<M> {
    model: M,
    /// Run when it suspends: what it hands its caller.
    hook: Option<Hook<M>>,
}

impl<M: Batched> kameo::Actor for Actor<M> {
    type Args = M;
    type Error = Infallible;

    async fn on_start(model: M, _: ActorRef<Self>) -> Result<Self, Infallible> {
        Ok(Actor { model, hook: None })
    }
}

impl<M: Batched> Message<DeliverBatch> for Actor<M> {
    /// What it handled, and its note if it suspended.
    type Reply = Result<(Handled, Option<Note>), SimError>;

    async fn handle(&mut self, d: DeliverBatch, _: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let handled = self.model.handle_batch(d.0)?;
        let note = match &mut self.hook {
            Some(hook) if handled.suspended => Some(hook(&mut self.model)),
            _ => None,
        };
        Ok((handled, note))
    }
}

/// Sets what a model hands its caller when it suspends.
pub(crate) struct SetHook<M>(pub Hook<M>);

impl<M: Batched> Message<SetHook<M>> for Actor<M> {
    type Reply = Result<(), Infallible>;

    async fn handle(&mut self, set: SetHook<M>, _: &mut Context<Self, Self::Reply>) -> Self::Reply {
        self.hook = Some(set.0);
        Ok(())
    }
}

/// A call of the bench's caller on an actor's model, between two steps
/// ([`crate::bench::Bench::call`], [`crate::bench::Bench::tell`]); the reply
/// is what it returns.
pub(crate) struct Call<M, R>(pub Box<dyn FnOnce(&mut M) -> R + Send>);

impl<M: Batched, R: Send + 'static> Message<Call<M, R>> for Actor<M> {
    type Reply = Result<R, Infallible>;

    async fn handle(&mut self, call: Call<M, R>, _: &mut Context<Self, Self::Reply>) -> Self::Reply {
        Ok((call.0)(&mut self.model))
    }
}

/// Asks an actor's model for its final state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Conclude;

impl<M: Finish> Message<Conclude> for Actor<M> {
    type Reply = Result<M::Final, Infallible>;

    async fn handle(&mut self, _: Conclude, _: &mut Context<Self, Self::Reply>) -> Self::Reply {
        Ok(self.model.finish())
    }
}
