//! A bench: models added one by one, their connections, and one run of the kernel.
//!
//! Reference: NeXosim's bench assembly (models own their state and talk
//! through typed messages over connected ports; the simulation steps virtual
//! time).
//!
//! Contract:
//! - [`Bench::reserve`] hands out a model's typed [`Address`] before the model
//!   exists, so models can be wired to each other in any order;
//!   [`Bench::place`] puts the model there, run by the kernel's adapter (a
//!   kameo actor, [`crate::model`]); [`Bench::add`] does both. Every
//!   reserved address must be placed before [`Bench::run`].
//! - [`Bench::seed`] queues a model's first events; [`Bench::run`] runs the
//!   kernel to the end on the caller's single-threaded runtime, or until a
//!   flag given to [`Bench::stop_when`] is set. [`Bench::step`] runs it up to
//!   a time, or until a model suspends to wait for its caller (the kernel's
//!   contract): an environment decides between two steps, on the caller's
//!   thread.
//! - After the run, [`Bench::finish`] asks a model for its final state;
//!   [`Bench::stop`] stops every actor.
//! - The bench knows no model kind: benches of clusters, brokers or sites are
//!   assembled by the modules that own those models.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kameo::actor::{ActorRef, Spawn};
use kameo::error::SendError;
use kameo::mailbox;

use crate::kernel::{Batch, Handled, Kernel, KernelStats, Model, ModelId, Scheduled, SimError, Stop};
use crate::model::{Actor, Batched, Conclude, DeliverBatch, Finish};
use crate::port::Address;
use crate::units::Time;

type Reply<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// A spawned model, as the bench drives it.
trait Spawned: Send + Sync {
    fn deliver(&self, batch: Batch) -> Reply<'_, Result<Handled, SimError>>;
    fn stop(&self) -> Reply<'_, ()>;
    fn as_any(&self) -> &dyn Any;
}

impl<M: Batched> Spawned for ActorRef<Actor<M>> {
    fn deliver(&self, batch: Batch) -> Reply<'_, Result<Handled, SimError>> {
        Box::pin(async move {
            self.ask(DeliverBatch(batch)).await.map_err(|e| match e {
                SendError::HandlerError(e) => e,
                other => SimError::ModelStopped {
                    model: std::any::type_name::<M>().to_string(),
                    reason: format!("{:?}", other.map_msg(|_| ())),
                },
            })
        })
    }

    fn stop(&self) -> Reply<'_, ()> {
        Box::pin(async move {
            let _ = self.stop_gracefully().await;
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The kernel has at most one message in flight, so a model's mailbox never fills.
const MAILBOX: usize = 4;

/// Models, their addresses and the kernel that drives them.
pub struct Bench {
    kernel: Kernel,
    models: Vec<Option<Box<dyn Spawned>>>,
    done: Option<Arc<AtomicBool>>,
}

impl Bench {
    /// An empty bench whose kernel drops events after `horizon`.
    pub fn new(horizon: Time) -> Bench {
        Bench { kernel: Kernel::new(horizon), models: Vec::new(), done: None }
    }

    /// The address of a model still to be placed.
    pub fn reserve<M: Model>(&mut self) -> Address<M> {
        self.models.push(None);
        Address::new(ModelId((self.models.len() - 1) as u32))
    }

    /// Spawns `model` at its reserved address.
    pub fn place<M: Batched>(&mut self, at: Address<M>, model: M) {
        let actor = Actor::spawn_with_mailbox(model, mailbox::bounded(MAILBOX));
        self.models[at.id().0 as usize] = Some(Box::new(actor));
    }

    /// Spawns `model` at a new address.
    pub fn add<M: Batched>(&mut self, model: M) -> Address<M> {
        let at = self.reserve();
        self.place(at, model);
        at
    }

    /// Queues a first event of the model at `from` (an event for itself, or
    /// one it sends).
    pub fn seed<M: Model>(&mut self, from: Address<M>, event: Scheduled<M::Msg>) -> Result<(), SimError> {
        self.kernel.schedule(from.id(), event)
    }

    /// Ends the run early once `flag` is set (by a model, after a batch).
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.done = Some(flag);
    }

    /// Runs the kernel to the end.
    pub async fn run(&mut self) -> Result<KernelStats, SimError> {
        self.placed()?;
        let mut kernel = std::mem::replace(&mut self.kernel, Kernel::new(0));
        let stats = kernel.run(&mut Driver { models: &self.models, done: self.done.as_deref() }).await;
        self.kernel = kernel;
        stats
    }

    /// Runs the kernel up to `until` (inclusive), or until a model suspends
    /// or the bench is finished; says which.
    pub async fn step(&mut self, until: Time) -> Result<Stop, SimError> {
        self.placed()?;
        let mut kernel = std::mem::replace(&mut self.kernel, Kernel::new(0));
        let stop = kernel.run_until(&mut Driver { models: &self.models, done: self.done.as_deref() }, until).await;
        self.kernel = kernel;
        stop
    }

    /// What the kernel delivered so far.
    pub fn stats(&self) -> KernelStats {
        self.kernel.stats()
    }

    /// Current virtual time.
    pub fn now(&self) -> Time {
        self.kernel.now()
    }

    /// Every reserved address holds its model.
    fn placed(&self) -> Result<(), SimError> {
        match self.models.iter().position(Option::is_none) {
            Some(i) => {
                Err(SimError::ModelStopped { model: format!("model {i}"), reason: "reserved but never placed".into() })
            }
            None => Ok(()),
        }
    }

    /// The actor of the model at `at`.
    fn actor<M: Batched>(&self, at: Address<M>) -> Result<&ActorRef<Actor<M>>, SimError> {
        self.models
            .get(at.id().0 as usize)
            .and_then(Option::as_ref)
            .and_then(|m| m.as_any().downcast_ref::<ActorRef<Actor<M>>>())
            .ok_or_else(|| SimError::ModelStopped {
                model: std::any::type_name::<M>().to_string(),
                reason: format!("no such model at {:?}", at),
            })
    }

    /// Stops every actor.
    pub async fn stop(self) {
        for model in self.models.iter().flatten() {
            model.stop().await;
        }
    }
}

/// The kernel's view of the bench during a run.
struct Driver<'a> {
    models: &'a [Option<Box<dyn Spawned>>],
    done: Option<&'a AtomicBool>,
}

impl crate::kernel::Bench for Driver<'_> {
    async fn deliver(&mut self, batch: Batch) -> Result<Handled, SimError> {
        let to = batch.to.0;
        match self.models.get(to as usize).and_then(Option::as_ref) {
            Some(model) => model.deliver(batch).await,
            None => Err(SimError::Misrouted { to }),
        }
    }

    fn finished(&self) -> bool {
        self.done.is_some_and(|d| d.load(Ordering::Relaxed))
    }
}

/// A fresh single-threaded runtime for one simulation.
pub fn runtime() -> Result<tokio::runtime::Runtime, SimError> {
    Ok(tokio::runtime::Builder::new_current_thread().build()?)
}

/// What model `M` hands back after the run.
pub type Final<M> = <M as Finish>::Final;

impl Bench {
    /// Asks the model at `at` for its final state.
    pub async fn finish<M: Finish>(&self, at: Address<M>) -> Result<Final<M>, SimError> {
        self.actor(at)?.ask(Conclude).await.map_err(|e| SimError::ModelStopped {
            model: std::any::type_name::<M>().to_string(),
            reason: format!("{:?}", e.map_msg(|_| ())),
        })
    }
}
