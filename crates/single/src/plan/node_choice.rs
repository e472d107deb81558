//! Node choice on a machine of unlike nodes: which of the nodes that fit a
//! request over its window a plan gives it, registered by name.
//!
//! Contract:
//! - A choice scores each node that fits ([`NodeChoice::place`]), and picks
//!   the cards there; the plan takes the lowest scores, the lower node
//!   number on a tie ([`crate::plan::MachinePlan::earliest`]).
//! - `first-fit`: the lowest node numbers, as the seeds' placement takes the
//!   lowest ids (`overbooking-dissertation-spec.md` §5.5).
//! - `best-fit`: the node left with the least of the resource the job asks
//!   most of there (its dominant share of the node's CPUs, memory or GPU
//!   thousandths; Ghodsi et al., "Dominant Resource Fairness", NSDI 2011,
//!   §4, for the dominant share).
//! - `fragmentation`: fragmentation gradient descent (Weng et al., "Beware of
//!   Fragmentation", USENIX ATC 2023, §3.2 and §4): the node and card whose
//!   placement grows the node's expected GPU fragmentation the least, for a
//!   target workload given as task classes and their frequencies
//!   ([`TaskClass`]). A node's fragmentation for one class is every free
//!   thousandth of its cards when the class cannot run there (it asks no
//!   GPU, not this model, more CPUs or cards than are free), else the free
//!   thousandths of the cards too full for its share. Memory is not part of
//!   the measure, as in the paper.
//!
//!   Departure, in a plan over time: the node's free resources are the
//!   least over the job's window ([`crate::plan::Free`]), not what is free
//!   at one instant, and the target workload is every class of the jobs
//!   given (the authors' simulator may keep only the most frequent).

use std::cell::RefCell;
use std::collections::HashMap;

use slasim_core::experiment::registry::{Entries, Named};
use slasim_machine::{Gpus, MILLI, Machine, Request};

pub use crate::plan::machine_plan::NodeChoice;
use crate::plan::machine_plan::{Cards, Free, MachinePlan};

/// A registered node choice.
pub struct NodeChoiceInfo {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// What it does, in one line.
    pub description: &'static str,
    /// Builds it for a workload of these requests (its target workload).
    pub build: fn(&[Request]) -> Box<dyn NodeChoice>,
}

impl Named for NodeChoiceInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The node choices a config can name.
pub enum NodeChoices {}

impl Entries for NodeChoices {
    type Entry = NodeChoiceInfo;
    const WHAT: &'static str = "node choice";
    fn builtin() -> Vec<&'static NodeChoiceInfo> {
        static BUILTIN: [NodeChoiceInfo; 3] = [
            NodeChoiceInfo {
                name: "first-fit",
                description: "the lowest-numbered nodes that fit",
                build: |_| Box::new(FirstFit),
            },
            NodeChoiceInfo {
                name: "best-fit",
                description: "the node left with the least of the resource the job asks most of",
                build: |_| Box::new(BestFit),
            },
            NodeChoiceInfo {
                name: "fragmentation",
                description: "the node and card that grow expected GPU fragmentation least (Weng et al., ATC 2023)",
                build: |requests| Box::new(Fragmentation::of(requests)),
            },
        ];
        BUILTIN.iter().collect()
    }
}

/// `first-fit` (module contract).
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstFit;

impl NodeChoice for FirstFit {
    fn takes_first(&self) -> bool {
        true
    }

    fn place(&self, _: &Machine, _: u32, free: &Free, request: &Request) -> Option<(f64, Cards)> {
        MachinePlan::fit(free, request).map(|cards| (0.0, cards))
    }
}

/// `best-fit` (module contract).
#[derive(Debug, Clone, Copy, Default)]
pub struct BestFit;

impl NodeChoice for BestFit {
    fn place(&self, machine: &Machine, n: u32, free: &Free, request: &Request) -> Option<(f64, Cards)> {
        let cards = MachinePlan::fit(free, request)?;
        let size = machine.size[n as usize];
        let gpu_cap = u64::from(size.gpus) * u64::from(MILLI);
        let gpu_free: u64 = free.card_list().iter().map(|&c| u64::from(c)).sum();
        // (share asked, fraction left after) of each resource the node limits.
        let mut parts = [(0.0, 1.0); 3];
        let cpu_cap = u64::from(size.cpus) * 1000;
        if cpu_cap > 0 {
            let asked = u64::from(request.cpu_milli);
            parts[0] = (asked as f64 / cpu_cap as f64, (free.cpu_milli - asked) as f64 / cpu_cap as f64);
        }
        if size.mem_mib != u64::MAX && size.mem_mib > 0 {
            let asked = request.mem_mib;
            parts[1] = (asked as f64 / size.mem_mib as f64, (free.mem_mib - asked) as f64 / size.mem_mib as f64);
        }
        if gpu_cap > 0 {
            let asked = request.gpus.milli();
            parts[2] = (asked as f64 / gpu_cap as f64, (gpu_free - asked) as f64 / gpu_cap as f64);
        }
        // The dominant resource: the largest share asked (the first on a tie).
        let mut dominant = parts[0];
        for p in &parts[1..] {
            if p.0 > dominant.0 {
                dominant = *p;
            }
        }
        Some((dominant.1, cards))
    }
}

/// A class of tasks of the target workload: what fragmentation is measured
/// against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskClass {
    /// Thousandths of a CPU.
    pub cpu_milli: u32,
    /// Cards asked for (0: none).
    pub cards: u32,
    /// Thousandths of each card (1000 for whole cards).
    pub milli: u16,
    /// The models allowed (0: any).
    pub models: u64,
}

impl TaskClass {
    /// The class of `request`.
    pub fn of(request: &Request) -> TaskClass {
        let (cards, milli) = match request.gpus {
            Gpus::Whole(0) => (0, 0),
            Gpus::Whole(g) => (g, MILLI),
            Gpus::Share(m) => (1, m),
        };
        TaskClass { cpu_milli: request.cpu_milli, cards, milli, models: request.models }
    }
}

/// Memo key: a node's model, how many class CPU thresholds its free CPUs
/// reach, and its cards' free thousandths, sorted.
type Key = (Option<u8>, u16, [u16; 8]);

/// `fragmentation` (module contract).
#[derive(Debug, Clone, Default)]
pub struct Fragmentation {
    /// Classes and their frequencies (summing to 1), most frequent first.
    classes: Vec<(TaskClass, f64)>,
    /// The classes' distinct CPU asks, ascending.
    cpu_steps: Vec<u32>,
    /// Fragmentation of node states already measured.
    memo: RefCell<HashMap<Key, f64>>,
}

impl Fragmentation {
    /// The measure for a target workload of `requests`.
    pub fn of(requests: &[Request]) -> Fragmentation {
        Fragmentation::of_classes(requests.iter().map(TaskClass::of))
    }

    /// The measure for a target workload of tasks of `classes`, one per task.
    pub fn of_classes(classes: impl IntoIterator<Item = TaskClass>) -> Fragmentation {
        let mut counts: HashMap<TaskClass, u64> = HashMap::new();
        let mut tasks = 0usize;
        for class in classes {
            *counts.entry(class).or_insert(0) += 1;
            tasks += 1;
        }
        let total = tasks.max(1) as f64;
        let mut classes: Vec<(TaskClass, u64)> = counts.into_iter().collect();
        classes.sort_by(|a, b| {
            b.1.cmp(&a.1).then_with(|| {
                let key = |c: &TaskClass| (c.cpu_milli, c.cards, c.milli, c.models);
                key(&a.0).cmp(&key(&b.0))
            })
        });
        let mut cpu_steps: Vec<u32> = classes.iter().map(|(c, _)| c.cpu_milli).collect();
        cpu_steps.sort_unstable();
        cpu_steps.dedup();
        Fragmentation {
            classes: classes.into_iter().map(|(c, k)| (c, k as f64 / total)).collect(),
            cpu_steps,
            memo: RefCell::new(HashMap::new()),
        }
    }

    /// A node's expected fragmentation, in thousandths of a card (module
    /// contract): node model `model`, free CPU thousandths `cpu`, its cards'
    /// free thousandths `cards`.
    pub fn measure(&self, model: Option<u8>, cpu: u64, cards: &[u16]) -> f64 {
        let steps = self.cpu_steps.partition_point(|&s| u64::from(s) <= cpu) as u16;
        let key = (cards.len() <= 8).then(|| {
            let mut sorted = [0u16; 8];
            sorted[..cards.len()].copy_from_slice(cards);
            sorted[..cards.len()].sort_unstable();
            (model, steps, sorted)
        });
        if let Some(v) = key.and_then(|k| self.memo.borrow().get(&k).copied()) {
            return v;
        }
        let left: u64 = cards.iter().map(|&c| u64::from(c)).sum();
        let mut frag = 0.0;
        for &(class, p) in &self.classes {
            let accessible = class.models == 0 || model.is_some_and(|m| class.models & (1 << m) != 0);
            let amount = if class.cards == 0 || !accessible {
                left
            } else {
                let usable = cards.iter().filter(|&&c| c >= class.milli).count() as u32;
                if usable >= class.cards && cpu >= u64::from(class.cpu_milli) {
                    cards.iter().filter(|&&c| c < class.milli).map(|&c| u64::from(c)).sum()
                } else {
                    left
                }
            };
            frag += p * amount as f64;
        }
        if let Some(k) = key {
            self.memo.borrow_mut().insert(k, frag);
        }
        frag
    }
}

impl NodeChoice for Fragmentation {
    fn place(&self, machine: &Machine, n: u32, free: &Free, request: &Request) -> Option<(f64, Cards)> {
        let model = machine.gpu_model[n as usize];
        let before = self.measure(model, free.cpu_milli, free.card_list());
        let delta = |cards: &Cards| {
            let after = free.after(request, cards);
            self.measure(model, after.cpu_milli, after.card_list()) - before
        };
        let fitted = MachinePlan::fit(free, request)?;
        match request.gpus {
            // Each card that holds the share, the least growth first, the
            // lowest card on a tie.
            Gpus::Share(m) => {
                let mut best: Option<(f64, Cards)> = None;
                for (c, &f) in free.card_list().iter().enumerate() {
                    if f < m {
                        continue;
                    }
                    let cards = Cards::Share { card: c as u8, milli: m };
                    let d = delta(&cards);
                    if best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, cards));
                    }
                }
                best
            }
            _ => Some((delta(&fitted), fitted)),
        }
    }
}
