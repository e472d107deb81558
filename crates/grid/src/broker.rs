//! The Grid reservation service (GRS, "broker"): places co-reservations on the
//! cluster candidates, one request at a time, with the algorithm it is given.
//!
//! Reference: `coreservation-thesis-spec.md` §4.1 (Fig. 5), §4.2 (the common
//! pipeline: start grid, TRs, variant tree, reservation step), §5.3 (the
//! information service is trivial: every simulated cluster is a candidate),
//! A26 (a request is processed instantaneously at its submit time), A27
//! (messages = reservations + roll-backs + r · C status queries).
//!
//! Contract:
//! - The broker is a model driven by the kernel. A request arrives as an
//!   occurrence; every message of its negotiation (status queries, their
//!   replies, reservations, cancellations) is a kernel event of class
//!   `Negotiation` at the same instant, so nothing else happens between the
//!   status query and the last reservation of a request.
//! - It sends to cluster candidate i only through its output port `lrs[i]`
//!   and learns about clusters only from their replies.
//! - It keeps one [`CoReservationRecord`] per request, in submit order.

use rand_chacha::ChaCha8Rng;

use crate::algorithm::BrokerStrategy;
use crate::lrs::{LrsReply, LrsRequest, StatusQuery, StatusReply};
use crate::request::{Enumeration, StartGrid, Tr, all_trs};
use crate::search::{Action, Answer, Search, SearchCounters};
use crate::tree::{TreeCounts, TreeNode, VariantTree};
use crate::workload::corequest::CoRequest;
use slasim_core::sim::kernel::{Model, Outbox};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::{Input, Output, Receive, Request};
use slasim_core::units::Time;
use slasim_single::cluster::instant;

/// A message for the Grid reservation broker.
#[derive(Debug, Clone, PartialEq)]
pub enum BrokerMsg {
    /// A client submits a co-reservation request.
    Request(CoRequest),
    /// A cluster answers.
    Reply(LrsReply),
}

/// A question for a cluster's local reservation service, answered to the broker.
pub type LrsAsk = Request<LrsRequest, LrsReply>;

/// How the broker forms start times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BrokerSettings {
    /// Lower bound of the start-time increment, seconds.
    pub minsize: Time,
    /// Start times per request at most (max_zeitfenster).
    pub windows: u32,
    /// How the start grid counts (A1).
    pub enumeration: Enumeration,
    /// Alg. 5's tolerances: (start, in grid steps; cost).
    pub tolerances: (f64, f64),
}

/// What became of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct CoReservationRecord {
    /// The request.
    pub request: CoRequest,
    /// Its start grid.
    pub grid: StartGrid,
    /// The reserved start, if granted.
    pub start: Option<Time>,
    /// When granted: (cluster, CPUs) of each part, largest part first.
    pub placement: Vec<(u32, u32)>,
    /// Total cost of the reserved variant (Alg. 5; 0 otherwise).
    pub cost: f64,
    /// Attempts, failures and roll-backs of the reservation step.
    pub counters: SearchCounters,
    /// Status-query messages (r · C for algorithms that query, A27).
    pub status_messages: u32,
    /// Sizes of the pruned variant tree.
    pub tree: TreeCounts,
    /// N of the efficiency for this algorithm.
    pub max_messages: u64,
    /// Cheapest and dearest variant formed (Alg. 5 relative cost).
    pub cost_range: Option<(f64, f64)>,
    /// Per cluster candidate: (unfiltered, filtered) TRs of its status reply.
    pub filtering: Vec<(u32, u32)>,
}

impl CoReservationRecord {
    /// Granted or not.
    pub fn granted(&self) -> bool {
        self.start.is_some()
    }

    /// All messages: reservations, roll-backs and status queries.
    pub fn messages(&self) -> u32 {
        self.counters.messages() + self.status_messages
    }

    /// Efficiency 1 − n/N (spec §6.1); `None` without variants.
    pub fn efficiency(&self) -> Option<f64> {
        (self.max_messages > 0).then(|| 1.0 - f64::from(self.counters.messages()) / self.max_messages as f64)
    }
}

/// One request being negotiated.
struct Negotiation {
    request: CoRequest,
    parts: Vec<u32>,
    grid: StartGrid,
    replies: Vec<Option<StatusReply>>,
    waiting: usize,
    tree: Option<VariantTree>,
    counts: TreeCounts,
    search: Box<dyn Search>,
    /// The reservation id each cluster gave the path's sub-reservation.
    ids: Vec<Option<u32>>,
}

/// The broker actor.
pub struct BrokerActor {
    strategy: Box<dyn BrokerStrategy>,
    settings: BrokerSettings,
    /// Cluster candidates' CPUs (the information service).
    capacities: Vec<u32>,
    /// One output per cluster candidate, to its LRS.
    pub lrs: Vec<Output<LrsAsk>>,
    /// Where the clusters answer (its own input, set by the bench).
    pub answers: Option<Input<LrsReply>>,
    rng: ChaCha8Rng,
    current: Option<Negotiation>,
    queued: std::collections::VecDeque<CoRequest>,
    records: Vec<CoReservationRecord>,
    buffers: Buffers<BrokerMsg>,
}

/// The broker's inputs.
impl BrokerActor {
    /// A broker over clusters of `capacities` CPUs (its ports unconnected).
    pub fn new(
        strategy: Box<dyn BrokerStrategy>,
        settings: BrokerSettings,
        capacities: Vec<u32>,
        rng: ChaCha8Rng,
    ) -> BrokerActor {
        let lrs = capacities.iter().map(|_| Output::new()).collect();
        BrokerActor {
            strategy,
            settings,
            capacities,
            lrs,
            answers: None,
            rng,
            current: None,
            queued: Default::default(),
            records: Vec::new(),
            buffers: Buffers::default(),
        }
    }

    /// Handles one message (the actor's handler, also usable directly).
    pub fn handle_msg(&mut self, now: Time, msg: BrokerMsg, mut outbox: Outbox<BrokerMsg>) -> Outbox<BrokerMsg> {
        match msg {
            BrokerMsg::Request(request) => {
                if self.current.is_some() {
                    self.queued.push_back(request);
                } else {
                    self.begin(now, request, &mut outbox);
                }
            }
            BrokerMsg::Reply(reply) => self.answer(now, reply, &mut outbox),
        }
        outbox
    }

    fn send(&self, cluster: u32, now: Time, msg: LrsRequest, outbox: &mut Outbox<BrokerMsg>) {
        if let (Some(port), Some(reply)) = (self.lrs.get(cluster as usize), self.answers) {
            port.send(now, instant::NEGOTIATION, Request { body: msg, reply }, outbox);
        }
    }

    fn begin(&mut self, now: Time, request: CoRequest, outbox: &mut Outbox<BrokerMsg>) {
        let parts = request.sorted_parts();
        let grid = StartGrid::new(&request, self.settings.minsize, self.settings.windows, self.settings.enumeration);
        let clusters = self.capacities.len();
        let search = self.strategy.search(&request, self.settings.tolerances);
        let mut n = Negotiation {
            request,
            parts,
            grid,
            replies: vec![None; clusters],
            waiting: 0,
            tree: None,
            counts: TreeCounts::default(),
            search,
            ids: vec![None; clusters],
        };
        match self.strategy.status() {
            Some(policy) if grid.count > 0 => {
                n.waiting = clusters;
                let query = StatusQuery {
                    request: n.request.id,
                    grid,
                    duration: n.request.duration,
                    parts: n.parts.clone(),
                    admission: policy.admission,
                    wc_acc: policy.wc_acc,
                    costs: policy.costs,
                };
                self.current = Some(n);
                for cluster in 0..clusters {
                    self.send(cluster as u32, now, LrsRequest::Status(query.clone()), outbox);
                }
            }
            _ => {
                let trs = all_trs(&grid, &self.capacities, &n.parts);
                self.current = Some(n);
                self.search_with(now, trs, outbox);
            }
        }
    }

    /// Builds the tree from the TRs (Listing 1 order) and takes the first step.
    fn search_with(&mut self, now: Time, mut trs: Vec<Tr>, outbox: &mut Outbox<BrokerMsg>) {
        self.strategy.arrange(&mut trs, &mut self.rng);
        let Some(n) = self.current.as_mut() else { return };
        let tree = VariantTree::new(n.parts.len(), n.grid.count, &trs);
        n.counts = tree.counts();
        let action = n.search.next(&tree, None);
        n.tree = Some(tree);
        self.act(now, action, outbox);
    }

    fn answer(&mut self, now: Time, reply: LrsReply, outbox: &mut Outbox<BrokerMsg>) {
        let Some(n) = self.current.as_mut() else { return };
        let answer = match reply {
            LrsReply::Status { cluster, reply } => {
                if let Some(slot) = n.replies.get_mut(cluster as usize).filter(|s| s.is_none()) {
                    *slot = Some(reply);
                    n.waiting -= 1;
                }
                if n.waiting > 0 {
                    return;
                }
                // Every candidate answered: the TRs in Listing 1 order.
                let mut trs: Vec<Tr> = n
                    .replies
                    .iter()
                    .enumerate()
                    .flat_map(|(cluster, r)| {
                        r.iter().flat_map(move |r| {
                            r.trs.iter().map(move |&(part, start, cost)| Tr {
                                cluster: cluster as u32,
                                part,
                                start,
                                cost,
                            })
                        })
                    })
                    .collect();
                trs.sort_by_key(|t| (t.start, t.cluster, t.part));
                return self.search_with(now, trs, outbox);
            }
            LrsReply::Reserved { cluster, reservation } => {
                if let Some(id) = n.ids.get_mut(cluster as usize) {
                    *id = reservation;
                }
                if reservation.is_some() { Answer::Reserved } else { Answer::Refused }
            }
            LrsReply::Cancelled { .. } => Answer::Cancelled,
        };
        let Some(tree) = n.tree.as_ref() else { return };
        let action = n.search.next(tree, Some(answer));
        self.act(now, action, outbox);
    }

    fn act(&mut self, now: Time, action: Action, outbox: &mut Outbox<BrokerMsg>) {
        let Some(n) = self.current.as_mut() else { return };
        match action {
            Action::Reserve(node) => {
                let msg = LrsRequest::Reserve {
                    request: n.request.id,
                    part: node.part,
                    cpus: n.parts[node.part as usize],
                    start: n.grid.start(node.start),
                    duration: n.request.duration,
                };
                self.send(node.cluster, now, msg, outbox);
            }
            Action::Cancel(node) => {
                let id = n.ids.get_mut(node.cluster as usize).and_then(Option::take);
                match id {
                    Some(reservation) => {
                        let request = n.request.id;
                        self.send(node.cluster, now, LrsRequest::Cancel { request, reservation }, outbox);
                    }
                    // Nothing to cancel (cannot happen): go on at once.
                    None => {
                        let Some(tree) = n.tree.as_ref() else { return };
                        let next = n.search.next(tree, Some(Answer::Cancelled));
                        self.act(now, next, outbox);
                    }
                }
            }
            Action::Granted(path) => self.finish(now, Some(path), outbox),
            Action::Rejected => self.finish(now, None, outbox),
        }
    }

    fn finish(&mut self, now: Time, path: Option<Vec<TreeNode>>, outbox: &mut Outbox<BrokerMsg>) {
        let Some(n) = self.current.take() else { return };
        let queries = self.strategy.status().is_some() && n.grid.count > 0;
        let status_messages = if queries { (n.parts.len() * self.capacities.len()) as u32 } else { 0 };
        let cost_range = n.tree.as_ref().and_then(cost_range);
        let (start, placement, cost) = match &path {
            Some(path) => (
                Some(n.grid.start(path[0].start)),
                path.iter().map(|node| (node.cluster, n.parts[node.part as usize])).collect(),
                path.iter().map(|node| node.cost).sum(),
            ),
            None => (None, Vec::new(), 0.0),
        };
        let filtering = n.replies.iter().map(|r| r.as_ref().map_or((0, 0), |r| (r.unfiltered, r.filtered))).collect();
        self.records.push(CoReservationRecord {
            request: n.request,
            grid: n.grid,
            start,
            placement,
            cost,
            counters: n.search.counters(),
            status_messages,
            max_messages: self.strategy.max_messages(&n.counts),
            tree: n.counts,
            cost_range,
            filtering,
        });
        if let Some(next) = self.queued.pop_front() {
            self.begin(now, next, outbox);
        }
    }
}

/// The cheapest and dearest variant of a tree.
fn cost_range(tree: &VariantTree) -> Option<(f64, f64)> {
    let mut range: Option<(f64, f64)> = None;
    tree.for_each_variant(|path| {
        let c: f64 = path.iter().map(|n| n.cost).sum();
        range = Some(range.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c))));
    });
    range
}

impl Model for BrokerActor {
    type Msg = BrokerMsg;

    fn handle(&mut self, now: Time, msg: BrokerMsg, outbox: Outbox<BrokerMsg>) -> Outbox<BrokerMsg> {
        self.handle_msg(now, msg, outbox)
    }
}

/// Co-reservation requests from clients.
impl Receive<CoRequest> for BrokerActor {
    fn receive(r: CoRequest) -> BrokerMsg {
        BrokerMsg::Request(r)
    }
}

/// Answers from the clusters' LRSs.
impl Receive<LrsReply> for BrokerActor {
    fn receive(r: LrsReply) -> BrokerMsg {
        BrokerMsg::Reply(r)
    }
}

impl Batched for BrokerActor {
    fn buffers(&mut self) -> &mut Buffers<BrokerMsg> {
        &mut self.buffers
    }
}

/// The broker's records at the end of a run.
#[derive(Debug, Clone)]
pub struct BrokerResult {
    /// One record per request, in the order they were processed.
    pub records: Vec<CoReservationRecord>,
}

impl Finish for BrokerActor {
    type Final = BrokerResult;

    fn finish(&mut self) -> Self::Final {
        BrokerResult { records: std::mem::take(&mut self.records) }
    }
}
