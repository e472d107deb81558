//! How a model is driven: batches of its events, its reusable buffers, and
//! the kameo messages a bench sends it.
//!
//! Contract: a model kind implements [`crate::sim::kernel::Model`] (its own
//! message type and one handler) and [`Batched`] (its buffers, and the error
//! that ends a run if it broke a contract); `batched_actor!` makes it an
//! actor a [`crate::sim::bench::Bench`] can drive. A bench asks a model for
//! its final state with [`Finish`]. Nothing here knows a model kind.

use crate::sim::kernel::{Agenda, Batch, Handled, Model, Outbox, SimError, process_batch};

/// The kernel's delivery of a batch of events to one model (see
/// [`crate::sim::kernel::process_batch`]); the reply is what the model hands back.
#[derive(Debug)]
pub struct DeliverBatch(pub Batch);

/// Asks a model for its final state.
#[derive(Debug, Clone, Copy)]
pub struct Finish;

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

/// Implements kameo's `Message<DeliverBatch>` for a [`Batched`] model
/// (`batched_actor!(Model)` or `batched_actor!(T: Bound => Model<T>)`).
#[macro_export]
macro_rules! batched_actor {
    ($g:ident : $bound:path => $actor:ty) => {
        $crate::batched_actor!(@impl [$g: $bound] $actor);
    };
    ($actor:ty) => {
        $crate::batched_actor!(@impl [] $actor);
    };
    (@impl [$($g:ident : $bound:path)?] $actor:ty) => {
        impl$(<$g: $bound>)? kameo::message::Message<$crate::sim::model::DeliverBatch> for $actor {
            type Reply = Result<$crate::sim::kernel::Handled, $crate::sim::kernel::SimError>;

            async fn handle(
                &mut self,
                d: $crate::sim::model::DeliverBatch,
                _ctx: &mut kameo::message::Context<Self, Self::Reply>,
            ) -> Self::Reply {
                $crate::sim::model::Batched::handle_batch(self, d.0)
            }
        }
    };
}
