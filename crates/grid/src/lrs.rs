//! The local reservation service (LRS) of a Grid cluster: status queries,
//! reservations and cancellations, and the admission rules of Alg. 2–5.
//!
//! Reference: `coreservation-thesis-spec.md` §4.1 (Fig. 5: steps 5, 9, 14),
//! §4.3 (Listing 3: CPU counting), §4.4.4 (Listing 4: backlog time), §4.5
//! (backfill reservations, Fig. 8), §6.1 (filtering degree); ambiguities A3
//! (`free ≥ need`), A4 (half-open windows), A5 (the reservation table), A6
//! (backlog of running jobs), A7 (which reservations count), A8 (fairness
//! test), A9 (wall-clock accuracy), A10 (`t_sched`).
//!
//! Contract:
//! - The LRS attaches to a cluster from outside: [`LocalReservations`] drives
//!   the cluster with its local scheduler (a [`ReservingStrategy`]) and
//!   answers the broker's status queries, reservations and cancellations at
//!   once (class `Negotiation`), naming the cluster in each answer; at the
//!   end it reports the accepted reservations and the backlog integrals.
//! - The LRS reads its cluster's local scheduler through
//!   [`ReservationService`]; it never changes the scheduler's state while it
//!   answers a status query.
//! - A status query evaluates every (start of the grid, part) pair: the TR is
//!   *unfiltered* if the cluster is large enough for the part (what Alg. 1
//!   would form), and admitted if the admission rule holds:
//!   - CPU counting: `free ≥ need` over `[start, start + duration)` in the
//!     reservation table (`free > need` with `strict_cpu_filter`);
//!   - fair: also `start ≥ now + abzeit(start)`, with `abzeit(t) = (wc_acc ·
//!     Σ estimate · CPUs of running and waiting jobs + Σ duration · CPUs of
//!     unfinished reservations starting before t) / CPUs`;
//!   - backfill: the fairness test is waived when `start + duration <
//!     t_sched`, the next planned end of a running job or started reservation
//!     after now (∞ when there is none).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::cost::CostTable;
use crate::request::StartGrid;
use crate::workload::corequest::RequestId;
use slasim_core::sim::kernel::SimError;
use slasim_core::units::Time;
use slasim_single::cluster::Drive;
use slasim_single::policy::{BacklogJob, Block, Cluster, ReservationService, ReservingStrategy, Strategy};

/// The admission rule a status query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Admission {
    /// Alg. 2: enough free CPUs in the reservation table.
    CpuCount,
    /// Alg. 3: CPU counting and the backlog-time fairness test.
    Fair,
    /// Alg. 3b: as fair, but TRs ending before the next scheduling event are exempt.
    Backfill,
}

/// A status query (spec Fig. 5, step 4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusQuery {
    /// The request asking.
    pub request: RequestId,
    /// Its start times.
    pub grid: StartGrid,
    /// Its duration.
    pub duration: Time,
    /// Its parts' CPUs, largest first.
    pub parts: Vec<u32>,
    /// The admission rule.
    pub admission: Admission,
    /// Use this wall-clock accuracy instead of the cluster's (Alg. 3*: 1).
    pub wc_acc: Option<f64>,
    /// Also price each TR from the cluster's cost table (Alg. 5).
    pub costs: bool,
}

/// The answer to a status query.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StatusReply {
    /// Admitted TRs: (part, start index, partial cost).
    pub trs: Vec<(u32, u32, f64)>,
    /// TRs Alg. 1 would form here (the cluster is large enough).
    pub unfiltered: u32,
    /// Of those, discarded by the admission rule.
    pub filtered: u32,
}

/// A message from the broker to a cluster's LRS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LrsRequest {
    /// Which TRs may be formed here (step 5).
    Status(StatusQuery),
    /// Reserve a sub-reservation (step 9).
    Reserve {
        /// The request.
        request: RequestId,
        /// Its part (largest first).
        part: u32,
        /// CPUs.
        cpus: u32,
        /// Start.
        start: Time,
        /// Duration.
        duration: Time,
    },
    /// Roll back an accepted sub-reservation (step 14).
    Cancel {
        /// The request.
        request: RequestId,
        /// The id the LRS gave it.
        reservation: u32,
    },
}

/// A cluster's answer to the broker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LrsReply {
    /// The status of cluster `cluster`.
    Status {
        /// Who answers.
        cluster: u32,
        /// The TRs and filter counts.
        reply: StatusReply,
    },
    /// A reservation's result: its id, or refused.
    Reserved {
        /// Who answers.
        cluster: u32,
        /// The reservation's id if it was made.
        reservation: Option<u32>,
    },
    /// A cancellation was done.
    Cancelled {
        /// Who answers.
        cluster: u32,
    },
}

/// How `t_sched` of the backfill rule is found (spec A10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NextSchedulingEvent {
    /// The next planned end (start + estimate) of a running job or the end of
    /// a started reservation, as the scheduler knows them.
    #[default]
    PlannedEnd,
    /// The same, counting every accepted reservation's end, started or not.
    AnyReservationEnd,
}

/// Which wall-clock accuracy of its window a cluster scales its backlog by (A9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccuracyEstimate {
    /// The mean of runtime / limit over the jobs (what Maui reports; Table 6d).
    #[default]
    Mean,
    /// Σ runtime · CPUs / Σ limit · CPUs: the accuracy of the work itself.
    WorkWeighted,
}

/// Settings of every LRS of a run (ambiguity resolutions of the spec).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LrsSettings {
    /// The literal Listing 3 test `free > need` instead of `free ≥ need` (A3).
    pub strict_cpu_filter: bool,
    /// Running jobs add only what is left of wc_acc · estimate to the backlog
    /// (A6); the default counts their whole estimate as Listing 4 does.
    pub backlog_running_remaining: bool,
    /// What `t_sched` of the backfill rule is (A10).
    pub next_scheduling_event: NextSchedulingEvent,
    /// Which accuracy scales the backlog (A9).
    pub accuracy: AccuracyEstimate,
}

/// The LRS of one cluster.
#[derive(Debug, Clone)]
pub struct Lrs {
    /// The cluster's index.
    pub cluster: u32,
    /// Its CPUs.
    pub cpus: u32,
    /// Its mean wall-clock accuracy, runtime / estimate (A9).
    pub wc_acc: f64,
    /// Its cost table (Alg. 5).
    pub costs: Option<Arc<CostTable>>,
    /// Settings shared by every LRS.
    pub settings: LrsSettings,
}

impl Lrs {
    /// Answers a status query from the scheduler's state at `now`.
    pub fn status(&self, svc: &dyn ReservationService, cluster: &dyn Cluster, q: &StatusQuery) -> StatusReply {
        let now = cluster.now();
        let mut reply = StatusReply::default();
        let wc_acc = q.wc_acc.unwrap_or(self.wc_acc);
        let fairness = q.admission != Admission::CpuCount;
        let job_work = if fairness { self.job_work(svc, cluster, now, wc_acc) } else { 0.0 };
        let t_sched = self.next_scheduling_event(svc, now);
        for z in 0..q.grid.count {
            let start = q.grid.start(z);
            let end = start + q.duration;
            let free = svc.table_free(start, end);
            let fair = !fairness || {
                let backlog = (job_work + reserved_before(svc, now, start)) / f64::from(self.cpus);
                start as f64 >= now as f64 + backlog
            };
            let exempt = q.admission == Admission::Backfill && end < t_sched;
            for (part, &need) in q.parts.iter().enumerate() {
                if need > self.cpus {
                    continue;
                }
                reply.unfiltered += 1;
                let enough = if self.settings.strict_cpu_filter { free > need } else { free >= need };
                if enough && (fair || exempt) {
                    let cost = match (&self.costs, q.costs) {
                        (Some(table), true) => table.partial_cost(need, start, q.duration),
                        _ => 0.0,
                    };
                    reply.trs.push((part as u32, z, cost));
                } else {
                    reply.filtered += 1;
                }
            }
        }
        reply
    }

    /// wc_acc · Σ estimate · CPUs over running and waiting jobs (A6: running
    /// jobs optionally only their remaining share).
    fn job_work(&self, svc: &dyn ReservationService, cluster: &dyn Cluster, now: Time, wc_acc: f64) -> f64 {
        let mut jobs: Vec<BacklogJob> = Vec::new();
        svc.backlog(cluster, &mut jobs);
        jobs.iter()
            .map(|j| {
                let expected = wc_acc * j.estimate as f64;
                let left = match j.started {
                    Some(started) if self.settings.backlog_running_remaining => {
                        (expected - (now - started) as f64).max(0.0)
                    }
                    _ => expected,
                };
                left * f64::from(j.cpus)
            })
            .sum()
    }

    /// t_sched of the backfill rule (A10): ∞ when nothing is planned to end.
    pub fn next_scheduling_event(&self, svc: &dyn ReservationService, now: Time) -> Time {
        let block_end = svc
            .blocks()
            .iter()
            .filter(|b| !b.cancelled && b.end > now)
            .filter(|b| self.settings.next_scheduling_event == NextSchedulingEvent::AnyReservationEnd || b.start <= now)
            .map(|b| b.end)
            .min();
        [svc.next_job_end(now), block_end].into_iter().flatten().min().unwrap_or(Time::MAX)
    }
}

/// Σ duration · CPUs of the reservations unfinished at `now` that start before `t` (A7).
fn reserved_before(svc: &dyn ReservationService, now: Time, t: Time) -> f64 {
    svc.blocks()
        .iter()
        .filter(|b| !b.cancelled && b.end > now && b.start < t)
        .map(|b| (b.end - b.start) as f64 * f64::from(b.cpus))
        .sum()
}

/// A Grid cluster's local scheduler with its LRS attached: what drives the
/// cluster in a Grid bench.
pub struct LocalReservations {
    /// The cluster's index in the Grid (named in every answer).
    pub cluster: u32,
    /// Its local scheduler.
    pub strategy: Box<dyn ReservingStrategy>,
    /// Its LRS.
    pub lrs: Lrs,
}

/// What a Grid cluster's LRS hands back at the end of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LrsReport {
    /// Advance reservations the cluster accepted, by id.
    pub blocks: Vec<Block>,
    /// Its backlog integrals (see [`ReservationService::backlog_integrals`]).
    pub backlog_integrals: (f64, f64),
}

impl Drive for LocalReservations {
    type Question = LrsRequest;
    type Answer = LrsReply;
    type Report = LrsReport;

    fn strategy(&mut self) -> &mut dyn Strategy {
        &mut *self.strategy
    }

    fn answer(&mut self, request: LrsRequest, core: &mut dyn Cluster) -> LrsReply {
        let cluster = self.cluster;
        let svc: &mut dyn ReservationService = &mut *self.strategy;
        match request {
            LrsRequest::Status(q) => LrsReply::Status { cluster, reply: self.lrs.status(svc, core, &q) },
            LrsRequest::Reserve { cpus, start, duration, .. } => {
                LrsReply::Reserved { cluster, reservation: svc.reserve(core, cpus, start, start + duration) }
            }
            LrsRequest::Cancel { reservation, .. } => {
                svc.cancel(core, reservation);
                LrsReply::Cancelled { cluster }
            }
        }
    }

    fn report(&mut self) -> LrsReport {
        LrsReport { blocks: self.strategy.blocks().to_vec(), backlog_integrals: self.strategy.backlog_integrals() }
    }

    fn error(&self) -> Option<SimError> {
        self.strategy.error()
    }
}
