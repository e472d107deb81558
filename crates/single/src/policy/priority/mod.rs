//! Priority rules: the job orders the reinforcement-learning papers compare
//! against (shortest job first, smallest first, WFP3, UNI, F1).
//!
//! Reference: W. Tang, Z. Lan, N. Desai, D. Buettner, "Fault-aware,
//! utility-based job scheduling on Blue Gene/P systems", IEEE Cluster 2009
//! (WFP3 and UNI); D. Carastan-Santos and R. de Camargo, "Obtaining dynamic
//! scheduling policies with simulation and machine learning", SC17 (F1);
//! D. Zhang, D. Dai, Y. He, F. S. Bao, B. Xie, "RLScheduler: an automated HPC
//! batch job scheduler using reinforcement learning", SC20 (the five as its
//! baselines).
//!
//! Contract: a rule gives each waiting job a [`Key`]; the job with the
//! smallest key goes first, and equal keys keep the queue's arrival order
//! (every user of a rule sorts stably). A rule reads only what [`Waiting`]
//! holds and the current time; the scores' formulas are on the book's
//! classic modes page (`docs/src/guide/classic.md`). One rule per file;
//! [`RULES`] is their table, by name. [`queueing`] schedules in a rule's
//! order (the strategies `<rule>` and `<rule>-easy`).

pub mod f1;
pub mod queueing;
pub mod sjf;
pub mod smallest;
pub mod uni;
pub mod wfp3;

use slasim_core::experiment::registry::{self, Entries, Named, UnknownName};
use slasim_core::units::Time;

/// What a priority rule sees of a waiting job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waiting {
    /// Submission time, in the log's clock (seconds).
    pub submit: Time,
    /// Requested time (the runtime estimate), seconds.
    pub estimate: Time,
    /// Requested processors (nodes, on a one-processor-per-node machine).
    pub processors: u32,
}

/// A job's place in the order: smaller first, compared as a pair.
pub type Key = (f64, f64);

/// A priority rule: the order it puts waiting jobs in.
pub trait Priority: Send + Sync {
    /// The job's key at time `now`.
    fn key(&self, job: &Waiting, now: Time) -> Key;
    /// Whether the key changes with `now` (then a queue is re-sorted at every pass).
    fn ages(&self) -> bool {
        false
    }
}

/// A registered priority rule.
pub struct PriorityInfo {
    /// Stable kebab-case name (the strategy's name on the command line).
    pub name: &'static str,
    /// One line for `--help` and the docs.
    pub description: &'static str,
    /// The rule.
    pub rule: &'static dyn Priority,
}

impl Named for PriorityInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The built-in priority rules.
static BUILTIN: [PriorityInfo; 5] = [
    PriorityInfo { name: "sjf", description: "shortest (requested time) job first", rule: &sjf::Sjf },
    PriorityInfo { name: "smallest-first", description: "fewest processors first", rule: &smallest::Smallest },
    PriorityInfo {
        name: "wfp3",
        description: "WFP3: largest (wait / estimate)^3 × processors first",
        rule: &wfp3::Wfp3,
    },
    PriorityInfo {
        name: "uni",
        description: "UNI: largest wait / (log2(processors) × estimate) first",
        rule: &uni::Uni,
    },
    PriorityInfo {
        name: "f1",
        description: "F1: smallest log10(estimate) × processors + 870 × log10(submit) first",
        rule: &f1::F1,
    },
];

/// The priority rules, by name.
pub enum PriorityRules {}

impl Entries for PriorityRules {
    type Entry = PriorityInfo;
    const WHAT: &'static str = "priority rule";
    fn builtin() -> Vec<&'static PriorityInfo> {
        BUILTIN.iter().collect()
    }
}

/// The rule registered as `name`.
pub fn rule(name: &str) -> Result<&'static PriorityInfo, UnknownName> {
    registry::find::<PriorityRules>(name)
}

/// `x`, or `0.1` when `x` is not positive: F1 takes logarithms of the
/// estimate and the submission time, and a log's first job is submitted at 0.
pub(crate) fn positive_or_tenth(x: Time) -> f64 {
    if x > 0 { x as f64 } else { 0.1 }
}
