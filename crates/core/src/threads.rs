//! The `--jobs` budget: how many threads may be busy at once.
//!
//! Contract:
//! - A run with `--jobs N` never has more than N busy threads. The
//!   executor's workers each hold one slot of the [`Budget`] while they run
//!   a point, and the store's writer holds one while it writes
//!   ([`Budget::acquire`] waits for it); within a point, extra parallel work (provisioning forks, MOGA
//!   plan evaluations, a pricing point's counterfactual runs) goes through
//!   [`Budget::map`], which borrows only the slots that are free at that
//!   moment (possibly none: the calling thread then does all the work) and
//!   never waits for one.
//! - Results never depend on how many slots were granted: [`Budget::map`]
//!   returns one result per item, in item order, whoever computed it.
//! - A panic while computing an item is an error ([`Panicked`]), never a value.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Slots of busy threads, shared by the workers of one run.
#[derive(Debug)]
pub struct Budget {
    free: AtomicUsize,
    /// Threads waiting in [`Budget::acquire`], woken when a lease ends.
    waiting: AtomicUsize,
    wake: (Mutex<()>, Condvar),
}

/// A helper thread panicked while computing an item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a parallel {what} panicked: {message}")]
pub struct Panicked {
    /// What was being computed.
    pub what: &'static str,
    /// The panic's message, when it had one.
    pub message: String,
}

/// Slots taken from a budget, given back when dropped.
#[derive(Debug)]
pub struct Lease<'a> {
    budget: &'a Budget,
    slots: usize,
}

impl Lease<'_> {
    /// Slots held.
    pub fn slots(&self) -> usize {
        self.slots
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if self.slots > 0 {
            self.budget.free.fetch_add(self.slots, Ordering::AcqRel);
            if self.budget.waiting.load(Ordering::Acquire) > 0 {
                let _guard = self.budget.wake.0.lock();
                self.budget.wake.1.notify_all();
            }
        }
    }
}

impl Budget {
    /// A budget of `slots` threads (at least one).
    pub fn new(slots: usize) -> Budget {
        Budget { free: AtomicUsize::new(slots.max(1)), waiting: AtomicUsize::new(0), wake: Default::default() }
    }

    /// A budget whose only slot the caller already holds: everything runs on
    /// the calling thread.
    pub fn serial() -> Budget {
        Budget { free: AtomicUsize::new(0), waiting: AtomicUsize::new(0), wake: Default::default() }
    }

    /// How many slots are free now.
    pub fn free(&self) -> usize {
        self.free.load(Ordering::Acquire)
    }

    /// Takes up to `want` free slots now (possibly none); never waits.
    pub fn lease(&self, want: usize) -> Lease<'_> {
        let mut free = self.free.load(Ordering::Acquire);
        loop {
            let take = free.min(want);
            if take == 0 {
                return Lease { budget: self, slots: 0 };
            }
            match self.free.compare_exchange_weak(free, free - take, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Lease { budget: self, slots: take },
                Err(now) => free = now,
            }
        }
    }

    /// Takes one slot, waiting until one is free (a worker before a point,
    /// the writer before a write). A slot of a budget made by
    /// [`Budget::serial`] is never free: do not call this on one.
    pub fn acquire(&self) -> Lease<'_> {
        loop {
            let lease = self.lease(1);
            if lease.slots() == 1 {
                return lease;
            }
            self.waiting.fetch_add(1, Ordering::AcqRel);
            let guard = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
            // Checked again under the lock: a lease ending between the try and
            // the lock has notified already. The timeout bounds any lost wake-up.
            if self.free.load(Ordering::Acquire) == 0 {
                let _ = self.wake.1.wait_timeout(guard, Duration::from_millis(5));
            }
            self.waiting.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// `f(state, item)` for every item, in item order. The calling thread
    /// works too, with `state`; helper threads run only on slots free now,
    /// each with its own state from `helper`. Items are handed out one at a
    /// time, so the result is the same however many helpers there were.
    pub fn map<T: Sync, S: Send, R: Send>(
        &self,
        what: &'static str,
        items: &[T],
        state: &mut S,
        helper: impl Fn() -> S + Sync,
        f: impl Fn(&mut S, &T) -> R + Sync,
    ) -> Result<Vec<R>, Panicked> {
        let lease = self.lease(items.len().saturating_sub(1));
        if lease.slots() == 0 {
            return caught(what, || items.iter().map(|item| f(state, item)).collect());
        }
        let next = AtomicUsize::new(0);
        let work = |state: &mut S| -> Vec<(usize, R)> {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { return done };
                done.push((i, f(state, item)));
            }
        };
        let mut parts = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..lease.slots())
                .map(|_| {
                    scope.spawn(|| {
                        let mut state = helper();
                        work(&mut state)
                    })
                })
                .collect();
            let mut parts = vec![caught(what, || work(state))];
            parts.extend(handles.into_iter().map(|h| h.join().map_err(|e| panic_message(what, e.as_ref()))));
            parts
        });
        let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
        for part in parts.drain(..) {
            for (i, r) in part? {
                slots[i] = Some(r);
            }
        }
        slots
            .into_iter()
            .map(|r| r.ok_or_else(|| Panicked { what, message: "an item was left without a result".into() }))
            .collect()
    }
}

/// Runs `f`, turning a panic into [`Panicked`].
fn caught<R>(what: &'static str, f: impl FnOnce() -> R) -> Result<R, Panicked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|e| panic_message(what, e.as_ref()))
}

fn panic_message(what: &'static str, payload: &(dyn std::any::Any + Send)) -> Panicked {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    Panicked { what, message }
}
