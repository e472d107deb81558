//! The reservation buyer: the users of the trace jobs that ask for a priced
//! reservation instead of queueing (Ch. 5).
//!
//! Reference: `provisioning-dissertation-spec.md` §4.3 (eq. 18: a
//! flexible-start query with the job's processors and duration), §4.4 (eq. 20:
//! the start chosen with trade-off α), §4.5 (a share of the jobs, chosen at
//! random, runs in reservations), §11 A20 (the reservation is for the
//! requested duration, released when the job ends), A27 (reserved-job wait =
//! chosen start − submission).
//!
//! Contract: at each job's submission (class `Request`, after the jobs
//! submitted at the same time) the buyer asks its site for offers through the
//! kernel, picks one by eq. 20 and buys it; the site answers at once. Requests
//! of one instant go one after the other, each priced after the purchases
//! before it. It
//! records, per request, the offers' count, the chosen start, the base price
//! n·d·c, the externality f and, for a bought slot, its price under both
//! policies on the state it was sold on. It never reads the wall clock.

use crate::pricing::{PolicyAudit, choose};
use crate::site::{SitePorts, SiteReply, SiteRequest};
use slasim_core::sim::kernel::{Model, Outbox, Scheduled};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::Receive;
use slasim_core::units::Time;
use slasim_single::cluster::instant;
use slasim_single::workload::job::Job;

/// A message for a buyer.
#[derive(Debug, Clone, PartialEq)]
pub enum BuyerMsg {
    /// The next requests' submission time has come.
    Wake,
    /// The site answers.
    Reply(SiteReply),
}

/// One priced reservation request and what became of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PricedRecord {
    /// Request index.
    pub request: u32,
    /// Submission.
    pub submit: Time,
    /// Processors.
    pub procs: u32,
    /// Requested duration (the job's estimate).
    pub duration: Time,
    /// Offers in the answer.
    pub offers: u32,
    /// Chosen start, if any offer was chosen.
    pub start: Option<Time>,
    /// n·d·c of the slot, processor-seconds.
    pub base_price: f64,
    /// The externality f charged, processor-seconds.
    pub f: f64,
    /// The site sold it.
    pub bought: bool,
    /// When the job ended in it.
    pub end: Option<Time>,
    /// The bought slot priced under both policies on the state it was sold on.
    pub audit: Option<PolicyAudit>,
}

/// The buyer actor.
pub struct BuyerActor {
    jobs: Vec<Job>,
    next: usize,
    alpha: f64,
    easy: bool,
    start_within: Option<Time>,
    /// Its port to the site (site 0).
    pub site: SitePorts,
    records: Vec<PricedRecord>,
    buffers: Buffers<BuyerMsg>,
}

impl BuyerActor {
    /// A buyer for `jobs` (ordered by occurrence) with trade-off `alpha`;
    /// `easy` prices with EASY instead of conservative backfilling;
    /// `start_within`: only offers starting within this long of the submission.
    pub fn new(jobs: Vec<Job>, alpha: f64, easy: bool, start_within: Option<Time>) -> BuyerActor {
        let records = jobs
            .iter()
            .enumerate()
            .map(|(i, j)| PricedRecord {
                request: i as u32,
                submit: j.occurrence,
                procs: j.nodes,
                duration: j.estimate.max(1),
                offers: 0,
                start: None,
                base_price: f64::from(j.nodes) * j.estimate.max(1) as f64,
                f: 0.0,
                bought: false,
                end: None,
                audit: None,
            })
            .collect();
        BuyerActor {
            jobs,
            next: 0,
            alpha,
            easy,
            start_within,
            site: SitePorts::new(1),
            records,
            buffers: Buffers::default(),
        }
    }

    /// The first wake-up.
    pub fn first_event(&self) -> Option<Scheduled<BuyerMsg>> {
        self.jobs.first().map(|j| self.wake(j.occurrence))
    }

    fn wake(&self, time: Time) -> Scheduled<BuyerMsg> {
        Scheduled::me(time, instant::REQUEST, BuyerMsg::Wake)
    }

    /// Asks about the next request due by `now`, one at a time: a purchase at
    /// an instant changes the offers the next request of that instant gets.
    fn ask(&mut self, now: Time, outbox: &mut Outbox<BuyerMsg>) {
        if let Some(job) = self.jobs.get(self.next).filter(|j| j.occurrence <= now) {
            let request = SiteRequest::Quote {
                task: self.next as u32,
                earliest: now,
                procs: job.nodes,
                duration: job.estimate.max(1),
                easy: self.easy,
                deadline: self.start_within.map(|w| now + w),
            };
            self.site.ask(0, now, instant::NEGOTIATION, request, outbox);
            self.next += 1;
        } else if let Some(job) = self.jobs.get(self.next) {
            outbox.push(self.wake(job.occurrence.max(now)));
        }
    }

    fn reply(&mut self, now: Time, reply: SiteReply, outbox: &mut Outbox<BuyerMsg>) {
        match reply {
            SiteReply::Offers { task, offers, .. } => {
                let i = task as usize;
                let Some(job) = self.jobs.get(i) else { return };
                self.records[i].offers = offers.len() as u32;
                // α was checked when the run was set up; an invalid one buys nothing.
                let Ok(Some(k)) = choose(&offers, self.alpha) else {
                    self.ask(now, outbox);
                    return;
                };
                {
                    let o = offers[k];
                    self.records[i].start = Some(o.start);
                    self.records[i].f = o.f;
                    let request = SiteRequest::Buy {
                        task,
                        start: o.start,
                        procs: job.nodes,
                        duration: job.estimate.max(1),
                        runtime: job.runtime,
                        audit: true,
                    };
                    self.site.ask(0, now, instant::NEGOTIATION, request, outbox);
                }
            }
            SiteReply::Bought { task, audit, .. } => {
                if let Some(r) = self.records.get_mut(task as usize) {
                    r.bought = true;
                    r.audit = audit;
                }
                self.ask(now, outbox);
            }
            SiteReply::Refused { .. } => self.ask(now, outbox),
            SiteReply::TaskEnded { task, .. } => {
                if let Some(r) = self.records.get_mut(task as usize) {
                    r.end = Some(now);
                }
            }
            SiteReply::Slots { .. } | SiteReply::Load { .. } => {}
        }
    }
}

impl Model for BuyerActor {
    type Msg = BuyerMsg;

    fn handle(&mut self, now: Time, msg: BuyerMsg, mut outbox: Outbox<BuyerMsg>) -> Outbox<BuyerMsg> {
        match msg {
            BuyerMsg::Wake => self.ask(now, &mut outbox),
            BuyerMsg::Reply(r) => self.reply(now, r, &mut outbox),
        }
        outbox
    }
}

/// Site answers.
impl Receive<SiteReply> for BuyerActor {
    fn receive(r: SiteReply) -> BuyerMsg {
        BuyerMsg::Reply(r)
    }
}

impl Batched for BuyerActor {
    fn buffers(&mut self) -> &mut Buffers<BuyerMsg> {
        &mut self.buffers
    }
}

impl Finish for BuyerActor {
    type Final = Vec<PricedRecord>;

    fn finish(&mut self) -> Self::Final {
        std::mem::take(&mut self.records)
    }
}
