//! The co-reservation algorithms: each a type implementing [`BrokerStrategy`].
//!
//! Reference: `coreservation-thesis-spec.md` §4.2 (Alg. 1, trivial), §4.3
//! (Alg. 2, CPU counting), §4.4 (Alg. 3, fair; Alg. 3* with wc_acc = 1,
//! §6.6), §4.5 (Alg. 3b, backfill reservations), §4.6 (Alg. 4: Alg. 3b with
//! start-sorted variants; "sorted A2/A3" of §6.8), §4.7 (Alg. 5).
//!
//! Contract: an algorithm decides three things and nothing else — which status
//! query the clusters answer (none for Alg. 1), the order of the TR list the
//! variant tree is built from, and the reservation step. The broker asks it
//! through the trait and never looks at its name; the registry
//! [`ALGORITHMS`] maps names to constructors for configs and the command
//! line, and a program depending on the crate may add its own.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::lrs::Admission;
use crate::request::Tr;
use crate::resort::{Resorting, Weights};
use crate::search::{DepthFirst, Search};
use crate::tree::TreeCounts;
use crate::workload::corequest::CoRequest;
use slasim_core::experiment::registry::{self, Entries, Named, UnknownName};

/// The status query an algorithm sends to each cluster candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StatusPolicy {
    /// The admission rule.
    pub admission: Admission,
    /// A wall-clock accuracy overriding the clusters' own (Alg. 3*: 1).
    pub wc_acc: Option<f64>,
    /// Ask for partial costs (Alg. 5).
    pub costs: bool,
}

/// A co-reservation algorithm, as the broker sees it.
pub trait BrokerStrategy: Send {
    /// The status query, or `None` for Alg. 1 (TRs from the clusters' sizes only).
    fn status(&self) -> Option<StatusPolicy>;
    /// Puts the TR list (in Listing 1 order) into the tree's list order.
    fn arrange(&self, trs: &mut [Tr], rng: &mut ChaCha8Rng) {
        trs.shuffle(rng);
    }
    /// A fresh reservation step for `request` (Alg. 5 reads its weights).
    fn search(&self, _request: &CoRequest, _tolerances: (f64, f64)) -> Box<dyn Search> {
        Box::new(DepthFirst::new())
    }
    /// The worst-case message count N of the efficiency (spec §6.1).
    fn max_messages(&self, counts: &TreeCounts) -> u64 {
        counts.max_messages()
    }
}

/// Alg. 1: no status query; random variants until one can be reserved.
#[derive(Debug, Clone, Copy, Default)]
pub struct Trivial;

impl BrokerStrategy for Trivial {
    fn status(&self) -> Option<StatusPolicy> {
        None
    }
}

/// Alg. 2: status queries count free CPUs; random order among admitted TRs.
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuCounting;

impl BrokerStrategy for CpuCounting {
    fn status(&self) -> Option<StatusPolicy> {
        Some(StatusPolicy { admission: Admission::CpuCount, wc_acc: None, costs: false })
    }
}

/// Alg. 3: CPU counting and the backlog-time fairness test; Alg. 3* scales
/// the backlog with wall-clock accuracy 1 instead of the cluster's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fair {
    /// `Some(1.0)` for Alg. 3*.
    pub wc_acc: Option<f64>,
}

impl BrokerStrategy for Fair {
    fn status(&self) -> Option<StatusPolicy> {
        Some(StatusPolicy { admission: Admission::Fair, wc_acc: self.wc_acc, costs: false })
    }
}

/// Alg. 3b: fair, but TRs ending before the next scheduling event are backfill reservations.
#[derive(Debug, Clone, Copy, Default)]
pub struct Backfill;

impl BrokerStrategy for Backfill {
    fn status(&self) -> Option<StatusPolicy> {
        Some(StatusPolicy { admission: Admission::Backfill, wc_acc: None, costs: false })
    }
}

/// Any algorithm with its TRs stable-sorted by start after the shuffle, so the
/// depth-first step tries variants earliest first (Alg. 4 = sorted Alg. 3b;
/// "sorted A2/A3" of §6.8).
#[derive(Debug, Clone, Copy, Default)]
pub struct StartSorted<A>(pub A);

impl<A: BrokerStrategy> BrokerStrategy for StartSorted<A> {
    fn status(&self) -> Option<StatusPolicy> {
        self.0.status()
    }

    fn arrange(&self, trs: &mut [Tr], rng: &mut ChaCha8Rng) {
        self.0.arrange(trs, rng);
        trs.sort_by_key(|t| t.start);
    }

    fn search(&self, request: &CoRequest, tolerances: (f64, f64)) -> Box<dyn Search> {
        self.0.search(request, tolerances)
    }

    fn max_messages(&self, counts: &TreeCounts) -> u64 {
        self.0.max_messages(counts)
    }
}

/// Alg. 5: backfill admission, partial costs from the clusters' cost tables,
/// the tree sorted by k · cost + s · start and the re-sorting reservation
/// step (spec §4.7, A22). (k, s) = (0, 1) chooses what Alg. 4 chooses.
#[derive(Debug, Clone, Copy, Default)]
pub struct Combined;

impl BrokerStrategy for Combined {
    fn status(&self) -> Option<StatusPolicy> {
        Some(StatusPolicy { admission: Admission::Backfill, wc_acc: None, costs: true })
    }

    fn search(&self, request: &CoRequest, (start_tolerance, cost_tolerance): (f64, f64)) -> Box<dyn Search> {
        Box::new(Resorting::new(Weights { start_weight: request.start_weight, start_tolerance, cost_tolerance }))
    }

    /// A17: a failure at the last part may roll back the whole path, so inner
    /// nodes may be passed twice per variant: N = C + 2 · (r − 1) · C.
    fn max_messages(&self, counts: &TreeCounts) -> u64 {
        let (c, r) = (counts.variants(), counts.by_depth.len() as u64);
        c + 2 * r.saturating_sub(1) * c
    }
}

/// A registered algorithm.
pub struct AlgorithmInfo {
    /// Stable name (configs, command line, store).
    pub name: &'static str,
    /// One line for help and reports.
    pub description: &'static str,
    /// Sends status queries (its messages include r · C of them).
    pub queries: bool,
    /// Builds a fresh instance.
    pub build: fn() -> Box<dyn BrokerStrategy>,
}

impl Named for AlgorithmInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

impl AlgorithmInfo {
    /// A new instance.
    pub fn build(&self) -> Box<dyn BrokerStrategy> {
        (self.build)()
    }
}

/// The built-in algorithms, in report order.
static BUILTIN: [AlgorithmInfo; 9] = [
    AlgorithmInfo {
        name: "a1",
        description: "Alg. 1, trivial: no status query, random variants until one is reserved",
        queries: false,
        build: || Box::new(Trivial),
    },
    AlgorithmInfo {
        name: "a2",
        description: "Alg. 2, CPU counting: status queries discard TRs without enough free CPUs",
        queries: true,
        build: || Box::new(CpuCounting),
    },
    AlgorithmInfo {
        name: "a3",
        description: "Alg. 3, fair: also discards TRs starting before the cluster's backlog time",
        queries: true,
        build: || Box::new(Fair { wc_acc: None }),
    },
    AlgorithmInfo {
        name: "a3-star",
        description: "Alg. 3*: Alg. 3 with the backlog unscaled by wall-clock accuracy (wc_acc = 1)",
        queries: true,
        build: || Box::new(Fair { wc_acc: Some(1.0) }),
    },
    AlgorithmInfo {
        name: "a3b",
        description: "Alg. 3b, backfill: Alg. 3, but TRs ending before the next scheduling event are exempt",
        queries: true,
        build: || Box::new(Backfill),
    },
    AlgorithmInfo {
        name: "a2-sorted",
        description: "sorted Alg. 2 (§6.8): CPU counting, variants tried earliest start first",
        queries: true,
        build: || Box::new(StartSorted(CpuCounting)),
    },
    AlgorithmInfo {
        name: "a3-sorted",
        description: "sorted Alg. 3 (§6.8): fair, variants tried earliest start first",
        queries: true,
        build: || Box::new(StartSorted(Fair { wc_acc: None })),
    },
    AlgorithmInfo {
        name: "a4",
        description: "Alg. 4, start-time optimisation: Alg. 3b with variants tried earliest start first",
        queries: true,
        build: || Box::new(StartSorted(Backfill)),
    },
    AlgorithmInfo {
        name: "a5",
        description: "Alg. 5, combined criteria: Alg. 3b, partial costs, variants sorted by k·cost + s·start, re-sorting on failure",
        queries: true,
        build: || Box::new(Combined),
    },
];

/// Every algorithm a config or the command line can name: the built-in ones
/// in report order, then those later kinds of a registry add
/// (`registry.add_to::<Algorithms>(…)`).
pub enum Algorithms {}

impl Entries for Algorithms {
    type Entry = AlgorithmInfo;
    const WHAT: &'static str = "algorithm";
    fn builtin() -> Vec<&'static AlgorithmInfo> {
        BUILTIN.iter().collect()
    }
}

/// The valid algorithm names, of the registry being read with ([`registry::own`]).
pub fn algorithm_names() -> Vec<&'static str> {
    registry::all::<Algorithms>().into_iter().map(|a| a.name).collect()
}

/// An algorithm by name.
pub fn algorithm(name: &str) -> Result<&'static AlgorithmInfo, UnknownName> {
    registry::find::<Algorithms>(name)
}
