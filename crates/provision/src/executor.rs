//! The workflow executor: runs one workflow from its submission instant,
//! either best effort (tasks queued just in time) or in reserved slots.
//!
//! Reference: `provisioning-dissertation-spec.md` §3.7 (the best-effort
//! baseline: HEFT order, a task is submitted when all its parents finished;
//! multi-site: to the site with the fewest running + queued tasks), §11 A16
//! (the site is chosen when the last parent finishes; submission waits for the
//! transfers to that site), §3.8 (a provisioned plan is reserved at once).
//!
//! Contract:
//! - Best effort: ready tasks are handled one at a time in HEFT order. With
//!   several sites the executor asks every site for its load (class
//!   `Negotiation`), picks the least loaded (ties: lowest index) and submits
//!   there when the transfers from the parents have arrived; then the next
//!   ready task. So a site's load answer counts the tasks submitted before.
//! - Reserved: at the submission instant every task's slot is reserved on its
//!   site; the task runs in it.
//! - Greedy (§6.2, Fig. 51): at the submission instant the tasks are
//!   provisioned one at a time in HEFT order: an earliest-start price query
//!   (eq. 19) to every site from the task's ready time there, the α-weighted
//!   choice over all offers, a purchase at the chosen site; then the next task.
//!   Each task runs in its slot.
//! - The makespan is last task end − submission instant; a refused task (too
//!   wide, or a reservation conflict) makes the run fail.

use crate::greedy::{SiteOffer, pick, ready_time};
use crate::plan::{SitePlan, TaskPlacement};
use crate::pricing::Offer;
use crate::site::{SitePorts, SiteReply, SiteRequest};
use crate::workflow::Workflow;
use slasim_core::sim::kernel::{Model, Outbox, Scheduled};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::Receive;
use slasim_core::units::Time;
use slasim_single::cluster::instant;

/// A message for an executor.
#[derive(Debug, Clone, PartialEq)]
pub enum ExecutorMsg {
    /// The workflow is submitted.
    Start,
    /// A site answers.
    Reply(SiteReply),
}

/// How the workflow runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// Just in time, queued with everyone else.
    BestEffort,
    /// In the slots of a plan.
    Reserved {
        /// Where each task runs.
        placements: Vec<TaskPlacement>,
        /// What the plan takes from each site.
        sites: Vec<SitePlan>,
    },
    /// Provisioned task by task with adaptive pricing (Fig. 51).
    Greedy {
        /// Trade-off factor α.
        alpha: f64,
        /// Sites price with EASY instead of conservative backfilling.
        easy: bool,
    },
}

/// What an execution produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Execution {
    /// Last end − submission, if every task ran.
    pub makespan: Option<Time>,
    /// Each task's site and end (−1 if it did not end).
    pub ends: Vec<(u32, Time)>,
    /// A task was refused.
    pub refused: bool,
    /// Greedy: Σ slot prices n·d·c + f and Σ f, processor-seconds.
    pub cost: Option<(f64, f64)>,
    /// Greedy: the planned makespan (last slot end − submission).
    pub planned: Option<Time>,
    /// Greedy, if asked for ([`ExecutorActor::with_placements`]): each
    /// provisioned task's site, slot start and end (start + runtime), in task order.
    pub placements: Vec<TaskPlacement>,
}

/// Greedy provisioning in progress.
#[derive(Debug, Default)]
struct GreedyState {
    /// Tasks in HEFT order, and how many are provisioned.
    order: Vec<u32>,
    next: usize,
    /// Each site's offers for the task being asked about.
    answers: Vec<Option<Vec<Offer>>>,
    /// Provisioned tasks: (site, slot start, planned end).
    placed: Vec<Option<(u32, Time, Time)>>,
    cost: f64,
    f: f64,
}

/// The executor actor.
pub struct ExecutorActor {
    workflow: Workflow,
    /// HEFT position of each task: ready tasks go in this order.
    rank_of: Vec<u32>,
    mode: Mode,
    submit: Time,
    /// One port per site.
    pub sites: SitePorts,
    waiting_parents: Vec<u32>,
    ready: std::collections::BTreeSet<(u32, u32)>,
    asking: Option<(u32, Vec<Option<u32>>)>,
    site_of: Vec<u32>,
    end_of: Vec<Time>,
    ended: usize,
    refused: bool,
    greedy: GreedyState,
    /// Report greedy placements in the [`Execution`].
    report_placements: bool,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    buffers: Buffers<ExecutorMsg>,
}

impl ExecutorActor {
    /// An executor running `workflow` from `submit` on `sites` sites.
    pub fn new(workflow: Workflow, mode: Mode, submit: Time, sites: usize) -> ExecutorActor {
        let n = workflow.tasks().len();
        let mut rank_of = vec![0; n];
        for (pos, &t) in workflow.heft_order().iter().enumerate() {
            rank_of[t as usize] = pos as u32;
        }
        let waiting_parents =
            (0..n as u32).map(|t| workflow.tasks()[(t) as usize].parents.iter().copied().count() as u32).collect();
        ExecutorActor {
            workflow,
            rank_of,
            mode,
            submit,
            sites: SitePorts::new(sites),
            waiting_parents,
            ready: std::collections::BTreeSet::new(),
            asking: None,
            site_of: vec![u32::MAX; n],
            end_of: vec![-1; n],
            ended: 0,
            refused: false,
            greedy: GreedyState::default(),
            report_placements: false,
            done: std::sync::Arc::default(),
            buffers: Buffers::default(),
        }
    }

    /// The same executor reporting where greedy provisioning put each task
    /// ([`Execution::placements`]); off by default, so sweeps keep nothing extra.
    pub fn with_placements(mut self) -> ExecutorActor {
        self.report_placements = true;
        self
    }

    /// A flag set when every task has ended or one was refused (the bench stops then).
    pub fn done_flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.done.clone()
    }

    fn check_done(&self) {
        if self.refused || self.ended == self.workflow.tasks().len() {
            self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// The submission event.
    pub fn first_event(&self) -> Scheduled<ExecutorMsg> {
        Scheduled::me(self.submit, instant::REQUEST, ExecutorMsg::Start)
    }

    fn start(&mut self, now: Time, outbox: &mut Outbox<ExecutorMsg>) {
        match &self.mode {
            Mode::Reserved { placements, sites } => {
                for (site, plan) in sites.iter().enumerate() {
                    let tasks: Vec<(u32, Time, u32, Time)> = placements
                        .iter()
                        .filter(|p| p.site as usize == site)
                        .map(|p| {
                            let t = &self.workflow.tasks()[p.task as usize];
                            (p.task, p.start, t.procs, t.runtime)
                        })
                        .collect();
                    if tasks.is_empty() {
                        continue;
                    }
                    for &(task, ..) in &tasks {
                        self.site_of[task as usize] = site as u32;
                    }
                    let request = SiteRequest::ReservePlan { plan: plan.clone(), tasks };
                    self.sites.ask(site, now, instant::NEGOTIATION, request, outbox);
                }
            }
            Mode::Greedy { .. } => {
                let n = self.workflow.tasks().len();
                self.greedy =
                    GreedyState { order: self.workflow.heft_order(), placed: vec![None; n], ..GreedyState::default() };
                self.ask_prices(now, outbox);
            }
            Mode::BestEffort => {
                for t in 0..self.workflow.tasks().len() {
                    if self.waiting_parents[t] == 0 {
                        self.ready.insert((self.rank_of[t], t as u32));
                    }
                }
                self.next_ready(now, outbox);
            }
        }
    }

    /// Handles ready tasks until one waits for load answers.
    fn next_ready(&mut self, now: Time, outbox: &mut Outbox<ExecutorMsg>) {
        while self.asking.is_none() {
            let Some((_, task)) = self.ready.pop_first() else {
                return;
            };
            if self.sites.len() == 1 {
                self.submit_to(now, task, 0, outbox);
            } else {
                self.asking = Some((task, vec![None; self.sites.len()]));
                for site in 0..self.sites.len() {
                    self.sites.ask(site, now, instant::NEGOTIATION, SiteRequest::Load { task }, outbox);
                }
            }
        }
    }

    /// Greedy: asks every site for offers for the next task in HEFT order.
    fn ask_prices(&mut self, now: Time, outbox: &mut Outbox<ExecutorMsg>) {
        let Mode::Greedy { easy, .. } = self.mode else { return };
        let Some(&task) = self.greedy.order.get(self.greedy.next) else { return };
        let t = &self.workflow.tasks()[task as usize];
        self.greedy.answers = vec![None; self.sites.len()];
        for r in 0..self.sites.len() {
            let placed = &self.greedy.placed;
            let earliest =
                ready_time(t, r as u32, self.submit.max(now), |p| placed[p as usize].map(|(s, _, end)| (s, end)));
            let request =
                SiteRequest::Quote { task, earliest, procs: t.procs, duration: t.runtime.max(1), easy, deadline: None };
            self.sites.ask(r, now, instant::NEGOTIATION, request, outbox);
        }
    }

    /// Greedy: once every site has answered, buys the chosen offer.
    fn offers(&mut self, now: Time, site: u32, task: u32, offers: Vec<Offer>, outbox: &mut Outbox<ExecutorMsg>) {
        let Mode::Greedy { alpha, .. } = self.mode else { return };
        if self.greedy.order.get(self.greedy.next) != Some(&task) {
            return;
        }
        if let Some(a) = self.greedy.answers.get_mut(site as usize) {
            *a = Some(offers);
        }
        if !self.greedy.answers.iter().all(Option::is_some) {
            return;
        }
        let t = &self.workflow.tasks()[task as usize];
        let all: Vec<SiteOffer> = self
            .greedy
            .answers
            .iter()
            .enumerate()
            .flat_map(|(r, a)| a.iter().flatten().map(move |&o| SiteOffer::new(r as u32, o, t.procs, t.runtime)))
            .collect();
        let Some(best) = pick(&all, t.runtime, alpha) else {
            self.refused = true;
            return;
        };
        let o = all[best];
        self.greedy.placed[task as usize] = Some((o.site, o.start, o.start + t.runtime));
        self.greedy.cost += o.cost;
        self.greedy.f += o.f;
        self.site_of[task as usize] = o.site;
        let request = SiteRequest::Buy {
            task,
            start: o.start,
            procs: t.procs,
            duration: t.runtime.max(1),
            runtime: t.runtime,
            audit: false,
        };
        self.sites.ask(o.site as usize, now, instant::NEGOTIATION, request, outbox);
    }

    fn submit_to(&mut self, now: Time, task: u32, site: u32, outbox: &mut Outbox<ExecutorMsg>) {
        self.site_of[task as usize] = site;
        let at = self.workflow.tasks()[(task) as usize]
            .parents
            .iter()
            .copied()
            .map(|(p, transfer)| {
                let p = p as usize;
                self.end_of[p] + if self.site_of[p] == site { 0 } else { transfer }
            })
            .fold(now, Time::max);
        let t = &self.workflow.tasks()[task as usize];
        let request = SiteRequest::Submit { task, procs: t.procs, runtime: t.runtime };
        let class = if at == now { instant::NEGOTIATION } else { instant::OCCURRENCE };
        self.sites.ask(site as usize, at, class, request, outbox);
    }

    fn reply(&mut self, now: Time, reply: SiteReply, outbox: &mut Outbox<ExecutorMsg>) {
        match reply {
            SiteReply::Load { site, task, tasks } => {
                let Some((asked, answers)) = self.asking.as_mut() else {
                    return;
                };
                if *asked != task {
                    return;
                }
                if let Some(a) = answers.get_mut(site as usize) {
                    *a = Some(tasks);
                }
                if answers.iter().all(Option::is_some) {
                    let best = answers
                        .iter()
                        .enumerate()
                        .min_by_key(|(i, a)| (a.unwrap_or(u32::MAX), *i))
                        .map_or(0, |(i, _)| i as u32);
                    self.asking = None;
                    self.submit_to(now, task, best, outbox);
                    self.next_ready(now, outbox);
                }
            }
            SiteReply::TaskEnded { task, .. } => {
                let t = task as usize;
                if self.end_of.get(t).is_some_and(|&e| e < 0) {
                    self.end_of[t] = now;
                    self.ended += 1;
                    if self.mode == Mode::BestEffort {
                        let children: Vec<u32> =
                            self.workflow.tasks()[(task) as usize].children.iter().map(|&(c, _)| c).collect();
                        for c in children {
                            self.waiting_parents[c as usize] -= 1;
                            if self.waiting_parents[c as usize] == 0 {
                                self.ready.insert((self.rank_of[c as usize], c));
                            }
                        }
                        self.next_ready(now, outbox);
                    }
                }
            }
            SiteReply::Offers { site, task, offers } => self.offers(now, site, task, offers, outbox),
            SiteReply::Bought { task, .. } => {
                if self.greedy.order.get(self.greedy.next) == Some(&task) {
                    self.greedy.next += 1;
                    self.ask_prices(now, outbox);
                }
            }
            SiteReply::Refused { .. } => self.refused = true,
            SiteReply::Slots { .. } => {}
        }
    }

    fn execution(&self) -> Execution {
        let done = self.ended == self.workflow.tasks().len() && !self.refused;
        let last = self.end_of.iter().copied().max().unwrap_or(self.submit);
        Execution {
            makespan: done.then(|| last - self.submit),
            ends: self.site_of.iter().zip(&self.end_of).map(|(&s, &e)| (s, e)).collect(),
            refused: self.refused,
            cost: matches!(self.mode, Mode::Greedy { .. }).then_some((self.greedy.cost, self.greedy.f)),
            planned: (matches!(self.mode, Mode::Greedy { .. }) && self.greedy.placed.iter().all(Option::is_some))
                .then(|| self.greedy.placed.iter().flatten().map(|p| p.2).max().unwrap_or(self.submit) - self.submit),
            placements: if self.report_placements {
                self.greedy
                    .placed
                    .iter()
                    .enumerate()
                    .filter_map(|(t, p)| p.map(|(site, start, end)| TaskPlacement { task: t as u32, site, start, end }))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }
}

impl Model for ExecutorActor {
    type Msg = ExecutorMsg;

    fn handle(&mut self, now: Time, msg: ExecutorMsg, mut outbox: Outbox<ExecutorMsg>) -> Outbox<ExecutorMsg> {
        match msg {
            ExecutorMsg::Start => self.start(now, &mut outbox),
            ExecutorMsg::Reply(r) => self.reply(now, r, &mut outbox),
        }
        self.check_done();
        outbox
    }
}

/// Site answers.
impl Receive<SiteReply> for ExecutorActor {
    fn receive(r: SiteReply) -> ExecutorMsg {
        ExecutorMsg::Reply(r)
    }
}

impl Batched for ExecutorActor {
    fn buffers(&mut self) -> &mut Buffers<ExecutorMsg> {
        &mut self.buffers
    }
}

impl Finish for ExecutorActor {
    type Final = Execution;

    fn finish(&mut self) -> Self::Final {
        self.execution()
    }
}
