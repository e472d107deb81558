//! The messages models exchange through the kernel.
//!
//! Contract: [`Event`] is the bench's payload: an address (model kind and
//! index) plus that model's message. Adding a model kind adds a variant here
//! and a route in the bench; the kernel is generic and does not change. Models
//! reply to a [`Deliver`] with the outbox of events they scheduled. Models
//! address each other only through typed ports ([`crate::sim::port`]).

use crate::grid::lrs::{LrsReply, LrsRequest};
use crate::grid::request::CoRequest;
use crate::sim::kernel::Outbox;
use crate::units::{JobId, NodeId, Time};
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
}

/// The kernel's delivery of one message to a model.
#[derive(Debug)]
pub struct Deliver<M> {
    /// Current virtual time.
    pub now: Time,
    /// The message.
    pub msg: M,
    /// Where the model puts the events it schedules.
    pub outbox: Outbox<Event>,
}

/// Asks a model for its final state.
#[derive(Debug, Clone, Copy)]
pub struct Finish;
