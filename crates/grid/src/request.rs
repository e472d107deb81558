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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(earliest: Time, deadline: Time, duration: Time) -> CoRequest {
        CoRequest {
            id: 0,
            submit: 0,
            earliest_start: earliest,
            deadline,
            duration,
            parts: vec![50, 100],
            start_weight: 0.0,
            template: -1,
        }
    }

    #[test]
    fn table_5_variant_counts() {
        // Table 5 (z = 1): rows r = 1..4, columns c = 4, 8, 12.
        let table = [[4, 8, 12], [12, 56, 132], [24, 336, 1320], [24, 1680, 11880]];
        for (r, row) in table.iter().enumerate() {
            for (k, &c) in [4u64, 8, 12].iter().enumerate() {
                assert_eq!(variant_count(1, c, r as u64 + 1), row[k], "r = {}, c = {c}", r + 1);
            }
        }
        // The thesis' example: 3 start times, 4 clusters, 2 parts → 36 variants.
        assert_eq!(variant_count(3, 4, 2), 36);
        assert_eq!(variant_count(1, 2, 3), 0);
    }

    #[test]
    fn the_fig_3_request_has_a_nine_hour_span() {
        let r = request(1_088_764_000, 1_088_800_000, 3600);
        assert_eq!(r.span(), 32_400);
        assert_eq!(r.sorted_parts(), vec![100, 50]);
    }

    #[test]
    fn start_grid_counts_and_spacing() {
        // Span 21,600 s (§6.8): increment max(300, 21600/20) = 1080, 20 starts.
        let r = request(1000, 1000 + 3600 + 21_600, 3600);
        let g = StartGrid::new(&r, 300, 20, Enumeration::AtMostW);
        assert_eq!((g.increment, g.count), (1080, 20));
        assert_eq!(g.last(), 1000 + 19 * 1080);
        // The literal listing also takes f_start + 21,600.
        let g = StartGrid::new(&r, 300, 20, Enumeration::Literal);
        assert_eq!(g.count, 21);
        // w = 1 gives only the earliest start: the rigid request.
        let g = StartGrid::new(&r, 1, 1, Enumeration::AtMostW);
        assert_eq!(g.starts().collect::<Vec<_>>(), vec![1000]);
        // minsize dominates a short span: 600 s span, minsize 300 → 3 starts.
        let short = request(0, 600 + 100, 100);
        let g = StartGrid::new(&short, 300, 20, Enumeration::AtMostW);
        assert_eq!(g.starts().collect::<Vec<_>>(), vec![0, 300, 600]);
        // Zero span: one start; negative span: none.
        assert_eq!(StartGrid::new(&request(0, 100, 100), 300, 20, Enumeration::AtMostW).count, 1);
        assert_eq!(StartGrid::new(&request(0, 99, 100), 300, 20, Enumeration::AtMostW).count, 0);
    }

    #[test]
    fn minsize_1_and_200_starts_on_7_clusters_give_8400_variants() {
        // A span long enough for 200 starts at minsize 1.
        let r = request(0, 100_000, 3600);
        let g = StartGrid::new(&r, 1, 200, Enumeration::AtMostW);
        assert_eq!(g.count, 200);
        let trs = all_trs(&g, &[1160; 7], &r.sorted_parts());
        assert_eq!(trs.len(), 200 * 7 * 2);
        assert_eq!(variant_count(u64::from(g.count), 7, 2), 8400);
        // Listing 1's nesting: start outermost, then cluster, then part.
        assert_eq!(
            &trs[..3],
            &[
                Tr { cluster: 0, part: 0, start: 0, cost: 0.0 },
                Tr { cluster: 0, part: 1, start: 0, cost: 0.0 },
                Tr { cluster: 1, part: 0, start: 0, cost: 0.0 },
            ]
        );
        // A cluster too small for the larger part offers only the smaller.
        let trs = all_trs(&g, &[1160, 60], &r.sorted_parts());
        assert_eq!(trs.iter().filter(|t| t.cluster == 1).count(), 200);
        assert!(trs.iter().filter(|t| t.cluster == 1).all(|t| t.part == 1));
    }
}
