//! A provisioning site: a cluster whose local scheduler is the Fig. 2 slot set
//! (conservative backfilling), which advertises its free slots and takes
//! reservations.
//!
//! Reference: `provisioning-dissertation-spec.md` §2.1 (the scheduler and its
//! holes), §2.3 (Fig. 2), §2.5 (advertisement: window max(now + 48 h, latest
//! finish + 5 min), c = 1, f = 0), §2.7 (inaccurate estimates: the schedule is
//! rebuilt at early completions), §3.7 (best-effort tasks queue like any
//! job), §12.1 (the resource actor's services).
//!
//! Contract:
//! - [`SlotScheduler`] is the pure state machine: a job is booked at its
//!   earliest start in the free-slot set when it arrives and never moves
//!   later; with exact estimates the set changes only at arrivals and
//!   reservations, otherwise an early completion rebuilds it from running
//!   jobs, reservations and the queue in arrival order. It is `Clone`: a
//!   snapshot is a full, independent copy (the what-if forks start from it).
//! - Provisioned slots are reservations: blocks taken out of the free set, so
//!   advertised holes plus running, queued and reserved work is the machine.
//! - [`SiteActor`] drives it through the kernel: it receives background jobs
//!   and requests ([`SiteAsk`]) of provisioners, executors and buyers; each
//!   answer goes at once (class `NEGOTIATION`) to the input the request
//!   carries, and a task's end to the input of the model that placed it,
//!   nowhere else. Task starts and ends at their times. What a
//!   submission or a purchase books at `now` starts at once; what an end (or
//!   anything handled after an end, before the wake-up of that instant)
//!   books at `now` starts at that wake-up, after every end of the instant
//!   (the kernel's "one instant" rule). It never reads the wall clock.
//!
//! Rooms: [`scheduler`] (the slot-set scheduler, a pure state machine),
//! [`protocol`] (what a site is asked and answers, and the ports it is asked
//! through), [`actor`] (the scheduler driven through the kernel).

pub mod actor;
pub mod protocol;
pub mod scheduler;

pub use actor::{SiteActor, SiteMsg, SiteResult, SlotSample};
pub use protocol::{SiteAsk, SitePorts, SiteReply, SiteRequest};
pub use scheduler::{Due, Reservation, SlotScheduler, WorkKey};
