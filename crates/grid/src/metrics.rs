//! The thesis' criteria, computed from what a Grid run recorded.
//!
//! Reference: `coreservation-thesis-spec.md` §6.1 (definitions), ambiguities
//! A17 (efficiency denominator), A23 (relative start difference in §6.8),
//! A24 (unfairness), A25 (longest waits), A29 (mean backlog time), A30
//! (utilisation to t_stop).
//!
//! Contract (every metric here is a pure function of the run's records):
//! - per request: granted or not; messages; efficiency 1 − n/N (N from the
//!   pruned tree); relative start difference against the variants formed,
//!   and against the start grid (§6.8); relative cost difference; and, for a
//!   granted request, the unfairness `warte_noch / warte_vor` over the
//!   clusters it used: of the jobs waiting there when it was submitted
//!   (submitted at or before, started after), the share still waiting when it
//!   starts (0 if none waited);
//! - per cluster: filtering degree (mean filtered/unfiltered over requests it
//!   could host), infeasibility rate (requests with degree 1 over all
//!   requests), utilisation to `t_stop` (jobs and sub-reservations, CPU-s
//!   inside [0, t_stop]), mean expansion factor (wait + run) / limit, longest
//!   and top-10 waits, mean backlog time (time-weighted over [0, t_stop]).

use crate::broker::CoReservationRecord;
use crate::cost::{Calendar, CostTable};
use slasim_core::units::Time;
use slasim_single::cluster::record::RunRecords;
use slasim_single::policy::Block;

/// Metrics of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestMetrics {
    /// Efficiency 1 − n/N, if the tree had variants.
    pub efficiency: Option<f64>,
    /// Unfairness, for a granted request.
    pub unfairness: Option<f64>,
    /// (start − earliest variant start) / (latest − earliest), granted only.
    pub rel_start: Option<f64>,
    /// (start − f_start) / (last grid start − f_start) (§6.8), granted only.
    pub rel_start_grid: Option<f64>,
    /// (cost − cheapest) / (dearest − cheapest), granted only (Alg. 5).
    pub rel_cost: Option<f64>,
    /// Cost of the reserved variant from the clusters' cost tables, granted only.
    pub cost: Option<f64>,
    /// Wholly inside day time (08–18 h), granted only.
    pub day: Option<bool>,
    /// Wholly inside night time (18–08 h), granted only.
    pub night: Option<bool>,
    /// Reserved CPU-seconds, and those at night or at the weekend.
    pub cpu_seconds: (f64, f64),
    /// It overlaps the weekend §6.9 calls the first.
    pub first_weekend: bool,
}

/// Metrics of one cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterMetrics {
    /// Jobs it ran.
    pub jobs: usize,
    /// Mean filtered/unfiltered TRs over the requests it could host (Alg. ≥ 2).
    pub filtering_degree: Option<f64>,
    /// Requests with filtering degree 1 over all requests (Alg. ≥ 2).
    pub infeasibility_rate: Option<f64>,
    /// Jobs' CPU-s inside [0, t_stop] over CPUs · t_stop.
    pub job_utilisation: f64,
    /// Sub-reservations' CPU-s inside [0, t_stop] over CPUs · t_stop.
    pub reservation_utilisation: f64,
    /// Mean (wait + run) / limit.
    pub expansion_factor: f64,
    /// Longest wait, s.
    pub wait_max: f64,
    /// Mean of the 10 longest waits, s.
    pub wait_top10: f64,
    /// The 10 longest waits, longest first, s.
    pub top_waits: Vec<f64>,
    /// Time-weighted mean backlog time over [0, t_stop], s.
    pub backlog_time: f64,
    /// Sub-reservations it holds.
    pub subreservations: usize,
    /// Of those, starting in the weekend §6.9 calls the first.
    pub first_weekend_subreservations: usize,
}

impl ClusterMetrics {
    /// Jobs and sub-reservations.
    pub fn utilisation(&self) -> f64 {
        self.job_utilisation + self.reservation_utilisation
    }
}

fn ratio(x: Time, lo: Time, hi: Time) -> f64 {
    if hi > lo { (x - lo) as f64 / (hi - lo) as f64 } else { 0.0 }
}

/// Jobs of one cluster as (submit, start) pairs sorted by submit: the
/// waiting-job queries of the unfairness.
pub struct WaitIndex {
    jobs: Vec<(Time, Time)>,
}

impl WaitIndex {
    /// From a cluster's job records (a job never started waits forever).
    pub fn new(records: &RunRecords) -> WaitIndex {
        let mut jobs: Vec<(Time, Time)> =
            records.iter().map(|(job, r)| (job.occurrence, r.actual_start.unwrap_or(Time::MAX))).collect();
        jobs.sort_unstable();
        WaitIndex { jobs }
    }

    /// (waiting at `submit`, of those still waiting at `start`).
    pub fn waiting(&self, submit: Time, start: Time) -> (usize, usize) {
        let upto = self.jobs.partition_point(|&(o, _)| o <= submit);
        let before = self.jobs[..upto].iter().filter(|&&(_, s)| s > submit);
        let (mut vor, mut noch) = (0, 0);
        for &(_, s) in before {
            vor += 1;
            if s > start {
                noch += 1;
            }
        }
        (vor, noch)
    }
}

/// The prices of a run: each cluster's cost table and the calendar.
pub struct Prices<'a> {
    /// Cost table per cluster.
    pub tables: &'a [CostTable],
    /// Day, night and weekend.
    pub calendar: Calendar,
}

/// The metrics of a request, given each cluster's wait index and the prices.
pub fn request_metrics(r: &CoReservationRecord, waits: &[WaitIndex], prices: &Prices<'_>) -> RequestMetrics {
    let granted = r.start;
    let unfairness = granted.map(|start| {
        let (mut vor, mut noch) = (0, 0);
        for &(cluster, _) in &r.placement {
            if let Some(index) = waits.get(cluster as usize) {
                let (v, n) = index.waiting(r.request.submit, start);
                vor += v;
                noch += n;
            }
        }
        if vor == 0 { 0.0 } else { noch as f64 / vor as f64 }
    });
    let rel_start =
        granted.zip(r.tree.starts).map(|(start, (lo, hi))| ratio(start, r.grid.start(lo), r.grid.start(hi)));
    let rel_start_grid = granted.map(|start| ratio(start, r.request.earliest_start, r.grid.last()));
    let rel_cost = granted.zip(r.cost_range).map(|(_, (lo, hi))| if hi > lo { (r.cost - lo) / (hi - lo) } else { 0.0 });
    let duration = r.request.duration;
    let cost = granted.map(|start| {
        r.placement
            .iter()
            .map(|&(cluster, cpus)| {
                prices.tables.get(cluster as usize).map_or(0.0, |t| t.partial_cost(cpus, start, duration))
            })
            .sum()
    });
    let split = granted.map(|start| prices.calendar.split(start, start + duration));
    let cpus: f64 = r.placement.iter().map(|&(_, c)| f64::from(c)).sum();
    let cpu_seconds = split.map_or((0.0, 0.0), |(_, off_peak)| (cpus * duration as f64, cpus * off_peak as f64));
    let (weekend_start, weekend_end) = prices.calendar.first_weekend();
    RequestMetrics {
        efficiency: r.efficiency(),
        unfairness,
        rel_start,
        rel_start_grid,
        rel_cost,
        cost,
        day: split.map(|(day, _)| day == duration),
        night: split.map(|(day, _)| day == 0),
        cpu_seconds,
        first_weekend: granted.is_some_and(|start| start < weekend_end && start + duration > weekend_start),
    }
}

/// CPU-seconds of `[start, end) × cpus` inside `[0, t_stop]`.
fn inside(start: Time, end: Time, cpus: u32, t_stop: Time) -> f64 {
    let (a, b) = (start.max(0), end.min(t_stop));
    if b > a { (b - a) as f64 * f64::from(cpus) } else { 0.0 }
}

/// Everything a cluster's metrics are computed from.
pub struct ClusterRun<'a> {
    /// Its index.
    pub cluster: u32,
    /// Its CPUs.
    pub cpus: u32,
    /// Its jobs and their records.
    pub records: &'a RunRecords,
    /// Its accepted blocks (cancelled ones included).
    pub blocks: &'a [Block],
    /// Its backlog integrals (Σ estimate·CPUs, Σ duration·CPUs of reservations).
    pub backlog_integrals: (f64, f64),
    /// Its wall-clock accuracy.
    pub wc_acc: f64,
}

/// The metrics of a cluster over the run's requests.
pub fn cluster_metrics(
    c: &ClusterRun<'_>,
    requests: &[CoReservationRecord],
    t_stop: Time,
    first_weekend: (Time, Time),
) -> ClusterMetrics {
    let capacity = f64::from(c.cpus) * t_stop.max(1) as f64;
    let mut m = ClusterMetrics { jobs: c.records.len(), ..ClusterMetrics::default() };
    let mut waits = Vec::with_capacity(c.records.len());
    let (mut expansion, mut started) = (0.0, 0usize);
    for (job, r) in c.records.iter() {
        let (Some(start), Some(end)) = (r.actual_start, r.actual_end) else { continue };
        m.job_utilisation += inside(start, end, job.nodes, t_stop);
        let wait = (start - job.occurrence) as f64;
        waits.push(wait);
        expansion += (wait + (end - start) as f64) / job.estimate.max(1) as f64;
        started += 1;
    }
    m.job_utilisation /= capacity;
    m.expansion_factor = if started > 0 { expansion / started as f64 } else { 0.0 };
    waits.sort_unstable_by(|a, b| b.total_cmp(a));
    m.wait_max = waits.first().copied().unwrap_or(0.0);
    waits.truncate(10);
    m.wait_top10 = mean(waits.iter().copied()).unwrap_or(0.0);
    m.top_waits = waits;
    for b in c.blocks.iter().filter(|b| !b.cancelled) {
        m.reservation_utilisation += inside(b.start, b.end, b.cpus, t_stop);
        m.subreservations += 1;
        m.first_weekend_subreservations += usize::from((first_weekend.0..first_weekend.1).contains(&b.start));
    }
    m.reservation_utilisation /= capacity;
    let (jobs_integral, reserved_integral) = c.backlog_integrals;
    m.backlog_time = (c.wc_acc * jobs_integral + reserved_integral) / f64::from(c.cpus.max(1)) / t_stop.max(1) as f64;
    // Filtering: only requests whose status this cluster answered.
    let degrees: Vec<f64> = requests
        .iter()
        .filter_map(|r| r.filtering.get(c.cluster as usize))
        .filter(|&&(unfiltered, _)| unfiltered > 0)
        .map(|&(unfiltered, filtered)| f64::from(filtered) / f64::from(unfiltered))
        .collect();
    let queried = requests.iter().any(|r| r.status_messages > 0);
    if queried && !requests.is_empty() {
        m.filtering_degree = (!degrees.is_empty()).then(|| degrees.iter().sum::<f64>() / degrees.len() as f64);
        let infeasible = degrees.iter().filter(|&&d| d >= 1.0).count();
        m.infeasibility_rate = Some(infeasible as f64 / requests.len() as f64);
    }
    m
}

/// A Grid run in numbers (the per-algorithm summary).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GridSummary {
    /// Requests submitted.
    pub requests: u32,
    /// Of those, granted.
    pub granted: u32,
    /// Share of requests not granted.
    pub failure_rate: f64,
    /// Mean messages per request (reservations, roll-backs, status queries).
    pub messages_mean: f64,
    /// Mean reservation and roll-back messages per request (n of the efficiency).
    pub reservation_messages_mean: f64,
    /// Most messages one request needed.
    pub messages_max: u32,
    /// Mean efficiency over requests with variants.
    pub efficiency_mean: Option<f64>,
    /// Mean unfairness over granted requests.
    pub unfairness_mean: Option<f64>,
    /// Mean relative start difference over granted requests.
    pub rel_start_mean: Option<f64>,
    /// Mean relative start difference against the start grid (§6.8).
    pub rel_start_grid_mean: Option<f64>,
    /// Mean cost of a granted request.
    pub cost_mean: Option<f64>,
    /// Mean relative cost difference over granted requests.
    pub rel_cost_mean: Option<f64>,
    /// Share of granted requests wholly in day time, and wholly at night (Table 19a).
    pub day_share: Option<f64>,
    /// Share wholly at night.
    pub night_share: Option<f64>,
    /// Share of reserved CPU-hours at night or at the weekend.
    pub off_peak_share: Option<f64>,
    /// Mean relative start and cost differences of the granted requests
    /// overlapping the first weekend (Table 19b).
    pub first_weekend_rel_start_mean: Option<f64>,
    /// The same for the relative cost difference.
    pub first_weekend_rel_cost_mean: Option<f64>,
    /// Mean utilisation (jobs and sub-reservations) over the clusters.
    pub utilisation_mean: f64,
    /// Longest job wait over every cluster, s.
    pub wait_max: f64,
    /// Mean of the 10 longest waits over every cluster, s.
    pub wait_top10: f64,
    /// Mean of the clusters' mean expansion factors.
    pub expansion_factor: f64,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The summary of a run from its requests and clusters.
pub fn summary(
    records: &[CoReservationRecord],
    metrics: &[RequestMetrics],
    clusters: &[ClusterMetrics],
) -> GridSummary {
    let requests = records.len() as u32;
    let granted = records.iter().filter(|r| r.granted()).count() as u32;
    // The 10 longest waits over all clusters: each cluster's top 10 holds them.
    let mut top: Vec<f64> = clusters.iter().flat_map(|c| c.top_waits.iter().copied()).collect();
    top.sort_unstable_by(|a, b| b.total_cmp(a));
    top.truncate(10);
    GridSummary {
        requests,
        granted,
        failure_rate: if requests > 0 { f64::from(requests - granted) / f64::from(requests) } else { 0.0 },
        messages_mean: mean(records.iter().map(|r| f64::from(r.messages()))).unwrap_or(0.0),
        reservation_messages_mean: mean(records.iter().map(|r| f64::from(r.counters.messages()))).unwrap_or(0.0),
        messages_max: records.iter().map(CoReservationRecord::messages).max().unwrap_or(0),
        efficiency_mean: mean(metrics.iter().filter_map(|m| m.efficiency)),
        unfairness_mean: mean(metrics.iter().filter_map(|m| m.unfairness)),
        rel_start_mean: mean(metrics.iter().filter_map(|m| m.rel_start)),
        rel_start_grid_mean: mean(metrics.iter().filter_map(|m| m.rel_start_grid)),
        cost_mean: mean(metrics.iter().filter_map(|m| m.cost)),
        rel_cost_mean: mean(metrics.iter().filter_map(|m| m.rel_cost)),
        day_share: mean(metrics.iter().filter_map(|m| m.day.map(f64::from))),
        night_share: mean(metrics.iter().filter_map(|m| m.night.map(f64::from))),
        off_peak_share: {
            let (all, off): (f64, f64) =
                metrics.iter().fold((0.0, 0.0), |(a, o), m| (a + m.cpu_seconds.0, o + m.cpu_seconds.1));
            (all > 0.0).then(|| off / all)
        },
        first_weekend_rel_start_mean: mean(metrics.iter().filter(|m| m.first_weekend).filter_map(|m| m.rel_start)),
        first_weekend_rel_cost_mean: mean(metrics.iter().filter(|m| m.first_weekend).filter_map(|m| m.rel_cost)),
        utilisation_mean: mean(clusters.iter().map(ClusterMetrics::utilisation)).unwrap_or(0.0),
        wait_max: top.first().copied().unwrap_or(0.0),
        wait_top10: mean(top.iter().copied()).unwrap_or(0.0),
        expansion_factor: mean(clusters.iter().map(|c| c.expansion_factor)).unwrap_or(0.0),
    }
}
