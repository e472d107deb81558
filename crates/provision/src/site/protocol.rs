//! The site protocol: what provisioners, executors and buyers ask a site
//! ([`SiteRequest`]), what it answers ([`SiteReply`]), and the ports they
//! ask through ([`SitePorts`]).
//!
//! Contract: a request travels in a [`Request`] that names the input its
//! answers go to; a site answers at once (class `NEGOTIATION`, see
//! [`super::actor`]). A quote changes nothing on the site; a purchase, a
//! reservation or a submission may be refused ([`SiteReply::Refused`]).

use crate::plan::SitePlan;
use crate::pricing::{Offer, PolicyAudit};
use crate::site::SlotScheduler;
use crate::slots::Advertised;
use slasim_core::sim::kernel::{Class, Outbox};
use slasim_core::sim::port::{Input, Output, Request};
use slasim_core::units::Time;

/// A site's request from a provisioner, an executor or a buyer (it travels in a
/// [`Request`] that says where the answer goes).
#[derive(Debug, Clone, PartialEq)]
pub enum SiteRequest {
    /// The advertised slot set and a snapshot of the scheduler.
    Advertise {
        /// Also send a full snapshot (for what-if forks).
        snapshot: bool,
    },
    /// Running plus queued tasks (best-effort site choice).
    Load {
        /// The task the answer is for.
        task: u32,
    },
    /// Queue a task best effort.
    Submit {
        /// Task index.
        task: u32,
        /// Processors.
        procs: u32,
        /// Runtime (exact).
        runtime: Time,
    },
    /// Price a slot (eq. 19): every feasible start at or after `earliest` with its
    /// additive charge. Answered at once; the site's state does not change.
    Quote {
        /// The task it is for.
        task: u32,
        /// Earliest start.
        earliest: Time,
        /// Processors.
        procs: u32,
        /// Duration.
        duration: Time,
        /// Schedule the queue with EASY instead of conservative backfilling.
        easy: bool,
        /// Only starts at or before this (a start deadline).
        deadline: Option<Time>,
    },
    /// Buy a priced reservation (any admissible slot; the queue is re-planned
    /// around it) and run the task in it.
    Buy {
        /// The task.
        task: u32,
        /// Slot start.
        start: Time,
        /// Processors.
        procs: u32,
        /// Slot duration.
        duration: Time,
        /// The task's runtime (at most the duration).
        runtime: Time,
        /// Also price the slot under both policies on the state it was sold
        /// on ([`PolicyAudit`], a measurement for the reply).
        audit: bool,
    },
    /// Reserve a provisioned plan's share of the site and run its tasks there.
    ReservePlan {
        /// The selected slots and what the tasks leave of them.
        plan: SitePlan,
        /// (task, start, procs, runtime) of the tasks placed here.
        tasks: Vec<(u32, Time, u32, Time)>,
    },
    /// Reserve a slot for a task and run it there.
    Reserve {
        /// Task index.
        task: u32,
        /// Slot start.
        start: Time,
        /// Processors.
        procs: u32,
        /// Runtime (the slot's duration).
        runtime: Time,
    },
}

/// A site's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum SiteReply {
    /// Its advertised slots.
    Slots {
        /// Which site.
        site: u32,
        /// The slots.
        slots: Vec<Advertised>,
        /// Running plus queued tasks.
        tasks: u32,
        /// A snapshot, if asked for.
        snapshot: Option<Box<SlotScheduler>>,
    },
    /// Its load.
    Load {
        /// Which site.
        site: u32,
        /// The task asked about.
        task: u32,
        /// Running plus queued tasks.
        tasks: u32,
    },
    /// Priced offers for a slot (eq. 19), c = 1 per processor-second.
    Offers {
        /// Which site.
        site: u32,
        /// The task asked about.
        task: u32,
        /// The offers.
        offers: Vec<Offer>,
    },
    /// A priced reservation was bought.
    Bought {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
        /// The slot priced under both policies, if asked for.
        audit: Option<PolicyAudit>,
    },
    /// A reservation was refused (conflict) or a task was too wide.
    Refused {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
    },
    /// A task ended.
    TaskEnded {
        /// Which site.
        site: u32,
        /// The task.
        task: u32,
    },
}

/// A question for a site, answered to the model that asks.
pub type SiteAsk = Request<SiteRequest, SiteReply>;

/// How a provisioner, an executor or a buyer reaches its sites: one port per
/// site, and its own input, where the answers go (both wired by the bench).
#[derive(Debug, Default)]
pub struct SitePorts {
    ports: Vec<Output<SiteAsk>>,
    /// The asker's input for answers.
    pub answers: Option<Input<SiteReply>>,
}

impl SitePorts {
    /// `sites` unconnected ports.
    pub fn new(sites: usize) -> SitePorts {
        SitePorts { ports: (0..sites).map(|_| Output::new()).collect(), answers: None }
    }

    /// How many sites.
    pub fn len(&self) -> usize {
        self.ports.len()
    }

    /// True without sites.
    pub fn is_empty(&self) -> bool {
        self.ports.is_empty()
    }

    /// Connects site `site`'s port to `input` (nothing if there is no such site).
    pub fn connect(&mut self, site: usize, input: Input<SiteAsk>) {
        if let Some(port) = self.ports.get_mut(site) {
            port.connect(input);
        }
    }

    /// Asks site `site` at `time` in `class`; the answer comes to [`Self::answers`].
    pub fn ask<U>(&self, site: usize, time: Time, class: Class, body: SiteRequest, outbox: &mut Outbox<U>) {
        if let (Some(port), Some(reply)) = (self.ports.get(site), self.answers) {
            port.send(time, class, Request { body, reply }, outbox);
        }
    }
}
