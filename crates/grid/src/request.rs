//! The start-time grid of a co-reservation request and its sub-reservation
//! variants.
//!
//! Reference: `coreservation-thesis-spec.md` ch. 3 (Tables 1–4, eq. 1), §4.2.1
//! (Listing 1: start times and TRs), ambiguities A1 (number of start times), A2
//! (res_id over the parts sorted by size, largest first).
//!
//! Contract:
//! - [`StartGrid`] is the candidate start times of a request: `count` times
//!   `earliest_start + i · increment`, `increment = max(minsize, ⌊span / w⌋)`,
//!   `count = min(w, ⌊span / increment⌋ + 1)` (A1; the literal Haskell
//!   enumeration, one more when the span divides evenly, is a setting). A
//!   negative span gives no start time.
//! - A [`Tr`] (sub-reservation variant, Table 3) is `(cluster, part, start)`
//!   where `part` indexes the parts sorted descending (largest first, A2) and
//!   `start` indexes the grid.

use serde::{Deserialize, Serialize};

use crate::workload::corequest::CoRequest;
use slasim_core::units::Time;

/// How the start grid counts its times (spec A1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Enumeration {
    /// At most `w` start times (what the thesis' "8400 variants" implies).
    #[default]
    AtMostW,
    /// Listing 1 literally: `[f, f + inc .. deadline − dauer]`, up to `w + 1`.
    Literal,
}

/// The candidate start times of a request (spec §4.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartGrid {
    /// The first start: the request's earliest start.
    pub first: Time,
    /// Seconds between starts.
    pub increment: Time,
    /// Number of starts (0 for an infeasible request).
    pub count: u32,
}

impl StartGrid {
    /// The grid of `request` with `minsize` (lower bound of the increment, s)
    /// and at most `windows` start times (max_zeitfenster).
    pub fn new(request: &CoRequest, minsize: Time, windows: u32, enumeration: Enumeration) -> StartGrid {
        let span = request.span();
        let first = request.earliest_start;
        if span < 0 || windows == 0 {
            return StartGrid { first, increment: minsize.max(1), count: 0 };
        }
        let increment = minsize.max(span / Time::from(windows)).max(1);
        let enumerated = span / increment + 1;
        let count = match enumeration {
            Enumeration::AtMostW => enumerated.min(Time::from(windows)),
            Enumeration::Literal => enumerated,
        };
        StartGrid { first, increment, count: u32::try_from(count).unwrap_or(u32::MAX) }
    }

    /// The `i`-th start time.
    pub fn start(&self, i: u32) -> Time {
        self.first + Time::from(i) * self.increment
    }

    /// The last start time (the first when there is none).
    pub fn last(&self) -> Time {
        self.start(self.count.saturating_sub(1))
    }

    /// Every start time, in order.
    pub fn starts(&self) -> impl Iterator<Item = Time> + '_ {
        (0..self.count).map(|i| self.start(i))
    }
}

/// A sub-reservation variant, "TR" (spec Table 3), with its partial cost (§4.7.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tr {
    /// Cluster candidate.
    pub cluster: u32,
    /// res_id: index into the request's parts sorted largest first.
    pub part: u32,
    /// Index into the request's start grid.
    pub start: u32,
    /// Partial cost (Alg. 5; 0 otherwise).
    pub cost: f64,
}

/// The TRs Listing 1 generates without any status information (Alg. 1):
/// every (start, cluster, part) with the cluster large enough, in that nesting
/// order (start outermost, part innermost).
pub fn all_trs(grid: &StartGrid, capacities: &[u32], parts: &[u32]) -> Vec<Tr> {
    let mut trs = Vec::new();
    for start in 0..grid.count {
        for (cluster, &cpus) in capacities.iter().enumerate() {
            for (part, &need) in parts.iter().enumerate() {
                if cpus >= need {
                    trs.push(Tr { cluster: cluster as u32, part: part as u32, start, cost: 0.0 });
                }
            }
        }
    }
    trs
}

/// Eq. (1): co-reservation variants of an `r`-part request on `c` clusters
/// with `z` start times, `z · C(c, r) · r!` (all clusters eligible).
pub fn variant_count(z: u64, c: u64, r: u64) -> u64 {
    if r > c {
        return 0;
    }
    // C(c, r) · r! = c! / (c − r)!
    (c - r + 1..=c).product::<u64>() * z
}
