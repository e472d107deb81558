//! The hold: how a queue policy ([`super::Applies::Wrapper`]) shifts jobs.
//! It stands between the cluster and any strategy and decides when each job
//! reaches the strategy.
//!
//! Reference: the queue-level shifting of GAIA (Hanafy et al., ASPLOS 2024,
//! artifact `src/scheduling/scheduling_policy.py`: a job is put in a queue
//! with its chosen start, and handed to the cluster at that start) and of
//! CATS (the job is submitted to the batch system with a begin time).
//!
//! Contract:
//! - At its submission a job gets a [`Window`]: from its earliest start
//!   (`max(now, release)`) to its latest (`earliest + horizon`, capped at
//!   `deadline − estimate`, so a job with a deadline is never held past the
//!   last start that still meets it). A policy sees the job's estimate,
//!   never its runtime.
//! - A [`Rule::Plan`] policy picks the job's release in the window at
//!   submission, from the [`Outlook`] as it stands then. A
//!   [`Rule::Watch`] policy releases the job at the first check where its
//!   condition holds: at submission, then at each change of the signal
//!   ([`Outlook::next_change`]), and at the latest start whatever the signal.
//! - A job released at its earliest start is handed on at once; any other
//!   is held and handed to the strategy (`submit`) at its release, several
//!   at one instant in submission order. Reservations are never held.
//! - Every other event goes to the strategy as it is. The job keeps its own
//!   submission time, so its wait includes the hold.
//! - Held jobs are the only state: a heap keyed by (release, job id), or a
//!   list in submission order for a watch; nothing else is allocated per
//!   event.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use crate::cluster::power::PowerState;
use crate::cluster::strategy::{Cluster, Strategy};
use crate::plan::profile::AvailabilityProfile;
use crate::policy::shifting::{Outlook, Shift};
use crate::workload::job::Job;
use slasim_core::units::{JobId, NodeId, Time};

/// Where a job may start, as a policy sees it at the job's submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The submission instant: the forecast is seen as it stands then.
    pub now: Time,
    /// The earliest start: `max(now, release)`.
    pub earliest: Time,
    /// The latest start: `min(earliest + horizon, deadline − estimate)`,
    /// never before `earliest`.
    pub latest: Time,
    /// The job's estimate: the duration a policy plans with.
    pub estimate: Time,
    /// The horizon it was given (`shifting.horizon`).
    pub horizon: Time,
}

impl Window {
    /// The window of `job` submitted at `now` under a horizon of `horizon` seconds.
    pub fn of(job: &Job, now: Time, horizon: Time) -> Window {
        let earliest = now.max(job.release);
        let last_start = job.deadline.saturating_sub(job.estimate);
        let latest = earliest.saturating_add(horizon).min(last_start).max(earliest);
        Window { now, earliest, latest, estimate: job.estimate, horizon }
    }

    /// The first of the starts `earliest + k·step` (`k ≥ 0`, at most
    /// `latest`) with the least `cost`: ties go to the earliest.
    pub fn least_on_grid(&self, step: Time, mut cost: impl FnMut(Time) -> f64) -> Time {
        let step = step.max(1);
        let (mut best, mut least) = (self.earliest, cost(self.earliest));
        let mut s = self.earliest.saturating_add(step);
        while s <= self.latest {
            let c = cost(s);
            if c < least {
                (best, least) = (s, c);
            }
            s = s.saturating_add(step);
        }
        best
    }
}

/// How a policy releases a job.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Picks the release at submission (a start in the window).
    Plan(fn(&Outlook, &Window) -> Time),
    /// Releases when the check holds at `now` (or at the latest start).
    Watch(fn(&Shift, Time) -> bool),
}

/// A strategy with a queue policy around it (see the module contract).
pub struct Hold {
    inner: Box<dyn Strategy>,
    shift: Arc<Shift>,
    rule: Rule,
    /// Planned releases, earliest first, then by job id.
    planned: BinaryHeap<Reverse<(Time, JobId)>>,
    /// Watched jobs in submission order, with their latest start.
    watched: Vec<(JobId, Time)>,
}

impl Hold {
    /// `inner` with the policy `rule` of `shift` around it.
    pub fn new(inner: Box<dyn Strategy>, shift: Arc<Shift>, rule: Rule) -> Hold {
        Hold { inner, shift, rule, planned: BinaryHeap::new(), watched: Vec::new() }
    }

    /// Boxed, for a registration's [`super::Wrap`].
    pub fn boxed(inner: Box<dyn Strategy>, shift: Arc<Shift>, rule: Rule) -> Box<dyn Strategy> {
        Box::new(Hold::new(inner, shift, rule))
    }

    /// Asks for the next check of the watched jobs, if any.
    fn watch_next(&self, c: &mut dyn Cluster, now: Time) {
        if let Some(latest) = self.watched.iter().map(|&(_, l)| l).min() {
            c.wake_at(self.shift.outlook.next_change(now).min(latest));
        }
    }
}

impl Strategy for Hold {
    fn submit(&mut self, c: &mut dyn Cluster, id: JobId) {
        let now = c.now();
        let job = c.job(id);
        if job.reservation {
            return self.inner.submit(c, id);
        }
        let w = Window::of(job, now, self.shift.config.horizon);
        match self.rule {
            Rule::Plan(choose) => {
                let at = choose(&self.shift.outlook, &w).clamp(w.earliest, w.latest);
                if at <= w.earliest {
                    self.inner.submit(c, id);
                } else {
                    self.planned.push(Reverse((at, id)));
                    c.wake_at(at);
                }
            }
            Rule::Watch(ready) => {
                if w.latest <= w.earliest || ready(&self.shift, now) {
                    self.inner.submit(c, id);
                } else {
                    self.watched.push((id, w.latest));
                    self.watch_next(c, now);
                }
            }
        }
    }

    fn wake(&mut self, c: &mut dyn Cluster) {
        let now = c.now();
        while let Some(&Reverse((at, id))) = self.planned.peek()
            && at <= now
        {
            self.planned.pop();
            self.inner.submit(c, id);
        }
        if let Rule::Watch(ready) = self.rule
            && !self.watched.is_empty()
        {
            let go = ready(&self.shift, now);
            let mut watched = std::mem::take(&mut self.watched);
            let inner = &mut self.inner;
            watched.retain(|&(id, latest)| {
                let release = go || latest <= now;
                if release {
                    inner.submit(c, id);
                }
                !release
            });
            self.watched = watched;
            self.watch_next(c, now);
        }
        self.inner.wake(c);
    }

    fn job_ended(&mut self, c: &mut dyn Cluster, job: JobId) {
        self.inner.job_ended(c, job);
    }
    fn node_failed(&mut self, c: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        self.inner.node_failed(c, node, victim);
    }
    fn node_repaired(&mut self, c: &mut dyn Cluster, node: NodeId) {
        self.inner.node_repaired(c, node);
    }
    fn resume(&mut self, c: &mut dyn Cluster) {
        self.inner.resume(c);
    }
    fn begin(&mut self, jobs: &[Job]) -> Result<(), slasim_core::sim::kernel::SimError> {
        self.inner.begin(jobs)
    }
    fn error(&self) -> Option<slasim_core::sim::kernel::SimError> {
        self.inner.error()
    }
    fn power_changed(&mut self, c: &mut dyn Cluster, node: NodeId, state: PowerState) {
        self.inner.power_changed(c, node, state);
    }
    fn planned_profile(&self) -> Option<&AvailabilityProfile> {
        self.inner.planned_profile()
    }
}
