//! The messages models exchange through the kernel.
//!
//! Contract: [`Event`] is the bench's payload: an address (model kind and
//! index) plus that model's message. Adding a model kind adds a variant here
//! and a route in the bench; the kernel is generic and does not change. Models
//! handle a [`DeliverBatch`] of their events and hand back what they
//! scheduled. Models address each other only through typed ports
//! ([`crate::sim::port`]).

use crate::grid::lrs::{LrsReply, LrsRequest};
use crate::grid::request::CoRequest;
use crate::provision::buyer::BuyerMsg;
use crate::provision::executor::ExecutorMsg;
use crate::provision::provisioner::ProvisionerMsg;
use crate::provision::site::SiteMsg;
use crate::sim::kernel::{Agenda, Batch, Handled, Model, Outbox, SimError, process_batch};
use crate::units::{JobId, NodeId};
use crate::workload::job::Job;

/// A message for a cluster (its planning scheduler and nodes).
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterMsg {
    /// A job occurs and asks for an SLA.
    Submit(Job),
    /// A wake-up the cluster asked for (planned starts).
    Wake,
    /// A job's execution ends (completion or kill); stale if `run` is old.
    JobEnd {
        /// The job.
        job: JobId,
        /// Which execution of it (restarts bump it).
        run: u32,
    },
    /// A node goes down.
    NodeFailure(NodeId),
    /// A node comes back.
    NodeRepair(NodeId),
    /// A message for the cluster's local reservation service (Grid).
    Lrs(LrsRequest),
}

/// A message for the Grid reservation broker.
#[derive(Debug, Clone, PartialEq)]
pub enum BrokerMsg {
    /// A client submits a co-reservation request.
    Request(CoRequest),
    /// A cluster answers.
    Reply(LrsReply),
}

/// A message for a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientMsg {
    /// The next job's occurrence time has come.
    Occur,
}

/// A message for a failure injector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectorMsg {
    /// The next node event's time has come.
    Tick,
}

/// An addressed event: which model, and what for it.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// To client `i`.
    Client(usize, ClientMsg),
    /// To cluster `i`.
    Cluster(usize, ClusterMsg),
    /// To failure injector `i`.
    Injector(usize, InjectorMsg),
    /// To broker `i`.
    Broker(usize, BrokerMsg),
    /// To provisioning site `i` (a slot-advertising cluster).
    Site(usize, SiteMsg),
    /// To provisioner `i` (a workflow user's provisioning client).
    Provisioner(usize, ProvisionerMsg),
    /// To workflow executor `i` (best effort or in reserved slots).
    Executor(usize, ExecutorMsg),
    /// To reservation buyer `i` (priced reservations).
    Buyer(usize, BuyerMsg),
}

impl Event {
    /// The model it is addressed to: (kind, index).
    pub fn address(&self) -> (u8, usize) {
        match self {
            Event::Client(i, _) => (0, *i),
            Event::Cluster(i, _) => (1, *i),
            Event::Injector(i, _) => (2, *i),
            Event::Broker(i, _) => (3, *i),
            Event::Site(i, _) => (4, *i),
            Event::Provisioner(i, _) => (5, *i),
            Event::Executor(i, _) => (6, *i),
            Event::Buyer(i, _) => (7, *i),
        }
    }
}

/// The kernel's delivery of a batch of events to one model (see
/// [`crate::sim::kernel::process_batch`]); the reply is what the model hands back.
#[derive(Debug)]
pub struct DeliverBatch(pub Batch<Event>);

/// Asks a model for its final state.
#[derive(Debug, Clone, Copy)]
pub struct Finish;

/// A model's reusable event buffers.
#[derive(Debug, Default)]
pub struct Buffers {
    /// Its own pending events during a batch.
    pub agenda: Agenda<Event>,
    /// What one handler call schedules.
    pub outbox: Outbox<Event>,
}

/// A model driven by batches, owning its buffers.
pub trait Batched: Model<Payload = Event> + Sized {
    /// Its buffers.
    fn buffers(&mut self) -> &mut Buffers;

    /// The error that ends the run if the model broke the kernel's contract
    /// while handling its events (checked after each batch).
    fn broken(&self) -> Option<SimError> {
        None
    }

    /// Handles a batch with its own buffers.
    fn handle_batch(&mut self, batch: Batch<Event>) -> Result<Handled<Event>, SimError> {
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
        impl$(<$g: $bound>)? kameo::message::Message<$crate::sim::event::DeliverBatch> for $actor {
            type Reply = Result<$crate::sim::kernel::Handled<$crate::sim::event::Event>, $crate::sim::kernel::SimError>;

            async fn handle(
                &mut self,
                d: $crate::sim::event::DeliverBatch,
                _ctx: &mut kameo::message::Context<Self, Self::Reply>,
            ) -> Self::Reply {
                $crate::sim::event::Batched::handle_batch(self, d.0)
            }
        }
    };
}
