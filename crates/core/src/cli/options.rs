//! Command-line options every kind's commands share (the store, the
//! threads), the means to list an enumerated flag's values, and the
//! vocabulary every command follows.
//!
//! Contract: one concept has one flag name in every command ([`VOCABULARY`];
//! a test walks the whole command tree against it), and every enumerated
//! flag lists its values with one line each in `--help`: the fixed sets as
//! [`clap::ValueEnum`]s of the domain types ([`value_enum!`]), the
//! registries (strategies, broker algorithms) through parsers each kind
//! builds from what is registered. A kind's own options live with its
//! commands.

use std::path::PathBuf;

use clap::Args;

/// A concept, its one flag, and the names it must not go by.
#[derive(Debug, Clone, Copy)]
pub struct Word {
    /// The concept.
    pub concept: &'static str,
    /// Its flag, in every command that takes it.
    pub flag: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// Other names of the same concept, which no command may use.
    pub not: &'static [&'static str],
}

/// The command line's vocabulary: one flag per concept, in every command.
pub const VOCABULARY: [Word; 12] = [
    Word {
        concept: "store",
        flag: "db",
        meaning: "the SQLite store a command writes or reads (default slasim.sqlite)",
        not: &["database", "store", "sqlite"],
    },
    Word {
        concept: "machine size",
        flag: "capacity",
        meaning: "processors of a cluster or site (default: the trace header's)",
        not: &["processors", "cpus", "procs", "nodes-total", "size"],
    },
    Word {
        concept: "workers",
        flag: "jobs",
        meaning: "threads busy at once, the whole run (default: one per core)",
        not: &["threads", "workers", "parallel"],
    },
    Word {
        concept: "output",
        flag: "out",
        meaning: "the file or directory a command writes (not a store)",
        not: &["output", "output-dir", "dir"],
    },
    Word {
        concept: "estimates",
        flag: "estimates",
        meaning: "jobs request their actual run times (exact) or their logged limits (logged)",
        not: &["exact-estimates", "logged-estimates", "exact"],
    },
    Word {
        concept: "offered load",
        flag: "target-load",
        meaning: "single cluster: the estimated offered load the arrivals are scaled to (2.0 = 200 %)",
        not: &["load"],
    },
    Word {
        concept: "utilisation",
        flag: "utilisation",
        meaning: "provisioning and pricing sites: the offered utilisation a week-shifted copy raises the trace to (0.88 = 88 %)",
        not: &["utilization", "target-utilisation"],
    },
    Word {
        concept: "seed",
        flag: "seed",
        meaning: "the seed of every random stream",
        not: &["random-seed", "rng-seed"],
    },
    Word {
        concept: "strategy",
        flag: "strategy",
        meaning: "a cluster's scheduling strategy (a Grid cluster's local scheduler too)",
        not: &["local-scheduler", "scheduler", "easy", "conservative", "fcfs"],
    },
    Word {
        concept: "pricing policy",
        flag: "pricing-policy",
        meaning: "the scheduler a site prices a slot with: conservative or easy",
        not: &["pricing", "price-with"],
    },
    Word {
        concept: "stored run",
        flag: "run",
        meaning: "a stored run by its id (runs.run_id, or a provisioning point's point_id)",
        not: &["run-id", "point", "point-id", "id"],
    },
    Word {
        concept: "trace",
        flag: "trace",
        meaning: "an SWF log (path or name under the traces directory) or a Slurm accounting dump; without it the embedded synthetic workload",
        not: &["swf", "log", "workload-file"],
    },
];

/// Implements [`clap::ValueEnum`] for a domain enum: its values with the
/// names configs use and one line of help each.
#[macro_export]
#[doc(hidden)]
macro_rules! __value_enum {
    ($ty:ty { $($variant:expr => $name:literal: $help:literal),+ $(,)? }) => {
        impl $crate::__clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<$crate::__clap::builder::PossibleValue> {
                let all: &[($ty, &'static str, &'static str)] = &[$(($variant, $name, $help)),+];
                all.iter()
                    .find(|(v, _, _)| v == self)
                    .map(|(_, n, h)| $crate::__clap::builder::PossibleValue::new(*n).help(*h))
            }
        }
    };
}
pub use crate::__value_enum as value_enum;

/// A setting refused while resolving a command line's point, renamed to the
/// flag the user typed (`pricing.share` → `--share`): the error names what
/// was given, as a config error names its file and line.
pub fn as_flags(error: anyhow::Error, flags: &[(&'static str, &'static str)]) -> anyhow::Error {
    match error.downcast::<crate::setting::InvalidSetting>() {
        Ok(e) => match flags.iter().find(|(setting, _)| *setting == e.setting) {
            Some((_, flag)) => e.renamed(flag).into(),
            None => e.into(),
        },
        Err(other) => other,
    }
}

/// The default store of every command.
pub(crate) const DEFAULT_DB: &str = "slasim.sqlite";

/// Where results go and how many threads produce them.
#[derive(Debug, Args)]
pub struct StoreOptions {
    /// The SQLite store results are written to.
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Threads busy at once (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Worker threads for `--jobs`: the number given, else one per core.
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1)
}
