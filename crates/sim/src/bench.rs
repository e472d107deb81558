//! A bench: models added one by one, their connections, and the kernel run
//! by plain calls.
//!
//! Reference: NeXosim's bench assembly and its simulation's plain, blocking
//! steps (models own their state and talk through typed messages over
//! connected ports; the caller steps virtual time, the executor hidden).
//!
//! Contract:
//! - [`Bench::reserve`] hands out a model's typed [`Address`] before the model
//!   exists, so models can be wired to each other in any order;
//!   [`Bench::place`] puts the model there; [`Bench::add`] does both. Every
//!   reserved address must be placed before [`Bench::run`].
//! - [`Bench::seed`] queues a model's first events; [`Bench::run`] runs the
//!   kernel to the end, or until a flag given to [`Bench::stop_when`] is set.
//!   [`Bench::step`] runs it up to a time, or until a model suspends to wait
//!   for its caller (the kernel's contract). Between two steps the caller
//!   may call a function on a model ([`Bench::call`], which waits for what
//!   it returns) or hand it one ([`Bench::tell`], which does not): an
//!   environment reads what a suspended model waits with and hands it its
//!   decision, and the model goes on with it at the next step. A function
//!   handed to a model runs in the next call that runs anything, before
//!   anything else that model does (its next batch of events, a call, its
//!   final state). A model may also be told to hand its caller something
//!   each time it suspends ([`Bench::when_suspended`]): the step that stops
//!   there returns with it ([`Bench::suspended_with`]), with no call.
//! - After the run, [`Bench::finish`] asks a model for its final state.
//!   Dropping the bench stops every model.
//! - Each of these is a plain call that returns once it is done: the bench
//!   owns the runtime its models run on (a single-threaded tokio runtime
//!   started by [`Bench::new`], each model a kameo actor, the kernel's
//!   adapter, [`crate::model`]) and drives it on the calling thread for the
//!   length of the call ([`Bench::tell`] only queues). Nothing runs between
//!   two calls, and neither the caller nor a model names the runtime.
//! - A call made from a thread inside a runtime's context (an async task,
//!   where blocking on a runtime panics) drives the bench's runtime on a
//!   thread of its own for the length of the call while the calling thread
//!   waits: the same events in the same order, only run elsewhere. A bench
//!   may be dropped anywhere, inside an async task too.
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
use tokio::runtime::{Handle, Runtime};

use crate::kernel::{Batch, Handled, Kernel, KernelStats, Model, ModelId, Scheduled, SimError, Stop};
use crate::model::{Actor, Batched, Call, Conclude, DeliverBatch, Finish, Hook, Note, SetHook};
use crate::port::Address;
use crate::units::Time;

type Reply<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A spawned model, as the bench drives it.
trait Spawned: Send + Sync {
    fn deliver(&self, batch: Batch) -> Reply<'_, Result<(Handled, Option<Note>), SimError>>;
    fn as_any(&self) -> &dyn Any;
}

impl<M: Batched> Spawned for ActorRef<Actor<M>> {
    fn deliver(&self, batch: Batch) -> Reply<'_, Result<(Handled, Option<Note>), SimError>> {
        Box::pin(async move {
            self.ask(DeliverBatch(batch)).await.map_err(|e| match e {
                SendError::HandlerError(e) => e,
                other => stopped::<M>(format!("{:?}", other.map_msg(|_| ()))),
            })
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The error of a model of kind `M` whose actor did not answer.
fn stopped<M>(reason: String) -> SimError {
    SimError::ModelStopped { model: std::any::type_name::<M>().to_string(), reason }
}

/// The kernel has at most one message in flight, so a model's mailbox never fills.
const MAILBOX: usize = 4;

/// Models, their addresses, the kernel that drives them and the runtime they run on.
pub struct Bench {
    kernel: Kernel,
    models: Vec<Option<Box<dyn Spawned>>>,
    done: Option<Arc<AtomicBool>>,
    /// What the model that suspended in the last step handed over.
    note: Option<Note>,
    /// The models' runtime; taken only when the bench is dropped.
    runtime: Option<Runtime>,
}

impl Bench {
    /// An empty bench whose kernel drops events after `horizon`, with its
    /// runtime started ([`SimError::Runtime`] if it cannot be).
    pub fn new(horizon: Time) -> Result<Bench, SimError> {
        let runtime = tokio::runtime::Builder::new_current_thread().build()?;
        Ok(Bench { kernel: Kernel::new(horizon), models: Vec::new(), done: None, note: None, runtime: Some(runtime) })
    }

    /// The address of a model still to be placed.
    pub fn reserve<M: Model>(&mut self) -> Address<M> {
        self.models.push(None);
        Address::new(ModelId((self.models.len() - 1) as u32))
    }

    /// Puts `model` at its reserved address.
    pub fn place<M: Batched>(&mut self, at: Address<M>, model: M) {
        // The actor's task goes to the runtime entered; it runs only while
        // a call drives the runtime.
        let _inside = self.runtime.as_ref().map(Runtime::enter);
        let actor = Actor::spawn_with_mailbox(model, mailbox::bounded(MAILBOX));
        self.models[at.id().0 as usize] = Some(Box::new(actor));
    }

    /// Puts `model` at a new address.
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
    pub fn run(&mut self) -> Result<KernelStats, SimError> {
        self.placed()?;
        self.note = None;
        let mut driver = Driver { models: &self.models, done: self.done.as_deref(), note: &mut self.note };
        block_on(&self.runtime, self.kernel.run(&mut driver))?
    }

    /// Runs the kernel up to `until` (inclusive), or until a model suspends
    /// or the bench is finished; says which.
    pub fn step(&mut self, until: Time) -> Result<Stop, SimError> {
        self.placed()?;
        self.note = None;
        let mut driver = Driver { models: &self.models, done: self.done.as_deref(), note: &mut self.note };
        block_on(&self.runtime, self.kernel.run_until(&mut driver, until))?
    }

    /// Has the model at `at` hand its caller what `f` makes of it each time
    /// it suspends (instead of what it was told before).
    pub fn when_suspended<M: Batched, T: Send + 'static>(
        &mut self,
        at: Address<M>,
        mut f: impl FnMut(&mut M) -> T + Send + 'static,
    ) -> Result<(), SimError> {
        let actor = self.actor(at)?;
        let hook: Hook<M> = Box::new(move |model| Box::new(f(model)));
        block_on(&self.runtime, async { actor.ask(SetHook(hook)).await })?
            .map_err(|e| stopped::<M>(format!("{:?}", e.map_msg(|_| ()))))
    }

    /// What the model that suspended in the last step handed over
    /// ([`Bench::when_suspended`]), if it is a `T`; taken.
    pub fn suspended_with<T: 'static>(&mut self) -> Option<T> {
        self.note.take()?.downcast::<T>().ok().map(|note| *note)
    }

    /// Calls `f` on the model at `at`, between two steps, and returns what
    /// it returns: what a model changes here, it goes on with at the next step.
    pub fn call<M: Batched, R: Send + 'static>(
        &mut self,
        at: Address<M>,
        f: impl FnOnce(&mut M) -> R + Send + 'static,
    ) -> Result<R, SimError> {
        let actor = self.actor(at)?;
        let call = Call(Box::new(f));
        block_on(&self.runtime, async { actor.ask(call).await })?
            .map_err(|e| stopped::<M>(format!("{:?}", e.map_msg(|_| ()))))
    }

    /// Hands `f` to the model at `at`, to run on it before anything else it
    /// does after this (see the module contract), and returns at once.
    pub fn tell<M: Batched>(
        &mut self,
        at: Address<M>,
        f: impl FnOnce(&mut M) + Send + 'static,
    ) -> Result<(), SimError> {
        let actor = self.actor(at)?;
        match actor.tell(Call(Box::new(f))).try_send() {
            Ok(()) => Ok(()),
            // Its mailbox is full of what it was handed before: the runtime
            // runs those while this one waits for room.
            Err(SendError::MailboxFull(call)) => block_on(&self.runtime, async { actor.tell(call).send().await })?
                .map_err(|e| stopped::<M>(format!("{:?}", e.map_msg(|_| ())))),
            Err(e) => Err(stopped::<M>(format!("{:?}", e.map_msg(|_| ())))),
        }
    }

    /// Asks the model at `at` for its final state.
    pub fn finish<M: Finish>(&mut self, at: Address<M>) -> Result<Final<M>, SimError> {
        let actor = self.actor(at)?;
        block_on(&self.runtime, async { actor.ask(Conclude).await })?
            .map_err(|e| stopped::<M>(format!("{:?}", e.map_msg(|_| ()))))
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
            .ok_or_else(|| stopped::<M>(format!("no such model at {:?}", at)))
    }
}

impl Drop for Bench {
    /// Stops every model: their actors go with the runtime, which shuts down
    /// without waiting for blocking work (it has none), so that dropping a
    /// bench is allowed inside an async task too.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Drives `work` to its end on `runtime`: on this thread, or, on a thread
/// inside a runtime's context (where blocking on another panics), on a
/// thread of its own while this one waits.
fn block_on<T: Send>(runtime: &Option<Runtime>, work: impl Future<Output = T> + Send) -> Result<T, SimError> {
    let Some(runtime) = runtime else {
        return Err(SimError::ModelStopped { model: "the bench".into(), reason: "its runtime is shut down".into() });
    };
    if Handle::try_current().is_err() {
        return Ok(runtime.block_on(work));
    }
    std::thread::scope(|scope| {
        let thread =
            std::thread::Builder::new().name("slasim-bench".into()).spawn_scoped(scope, || runtime.block_on(work))?;
        match thread.join() {
            Ok(out) => Ok(out),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// The kernel's view of the bench during a run.
struct Driver<'a> {
    models: &'a [Option<Box<dyn Spawned>>],
    done: Option<&'a AtomicBool>,
    /// Where a suspended model's note goes.
    note: &'a mut Option<Note>,
}

impl crate::kernel::Bench for Driver<'_> {
    async fn deliver(&mut self, batch: Batch) -> Result<Handled, SimError> {
        let to = batch.to.0;
        let (handled, note) = match self.models.get(to as usize).and_then(Option::as_ref) {
            Some(model) => model.deliver(batch).await?,
            None => return Err(SimError::Misrouted { to }),
        };
        if note.is_some() {
            *self.note = note;
        }
        Ok(handled)
    }

    fn finished(&self) -> bool {
        self.done.is_some_and(|d| d.load(Ordering::Relaxed))
    }
}

/// What model `M` hands back after the run.
pub type Final<M> = <M as Finish>::Final;
