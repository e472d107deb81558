//! The sla-machine points' section of a report: per workload, strategy and
//! node choice, the SLA measures as means over the batteries with their
//! 95 % intervals.
//!
//! Contract: one table, one row per (workload, load, failures, strategy,
//! node choice, overbooking test, reservations) of the store's sla-machine points (the workload: the pods'
//! trace, or a dump or the synthetic workload on a `slurm.conf`) (the report's filter keeps one
//! experiment's points, or the traces whose name contains its text): the
//! batteries, and for gain, the gain over Slurm's on the same battery
//! under the same failure model (paired), penalties, late, failed,
//! killed and rejected jobs, mean and p95
//! wait, the CPU, memory and GPU shares held and the GPU fragmentation, the mean ± its 95 %
//! Student-t half-width over the batteries. Under Slurm the node choice is
//! NULL; the overbooking test is NULL for a strategy that does not overbook.
//! When a point has paper B's reservations, the table also keys on them
//! (percent, option, start factor; empty without) and gives the
//! reservations rejected and the jobs moved for them; a point with
//! reservations has no gain over Slurm (the twin runs none). A store without sla-machine points has no section.

use std::path::Path;

use polars::prelude::*;

use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::{Filter, Kind, frame_of, has_table, trace_label};
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::tables::{Table, aggregate_by};

/// The measures, in the table's order.
const MEASURES: [&str; 13] = [
    "gain",
    "gain_over_slurm",
    "penalties",
    "late",
    "failed",
    "killed",
    "rejected",
    "wait_mean",
    "wait_p95",
    "gpu_use",
    "gpu_frag",
    "cpu_use",
    "mem_use",
];

/// The measures of reservations, after the others when a point has them.
const RESERVATION_MEASURES: [&str; 2] = ["reservations_rejected", "moved"];

/// The Slurm point of the same battery: every setting but the strategy and
/// node choice equal (the seed draws a sampled battery's pods and the
/// failures), and no reservations.
const SAME_BATTERY: &str = "s.strategy = 'slurm' AND p.reservation_percent IS NULL AND s.trace IS p.trace AND s.nodes IS p.nodes AND s.conf IS p.conf \
     AND s.synthetic_days IS p.synthetic_days AND s.synthetic_load IS p.synthetic_load \
     AND s.sla_terms = p.sla_terms AND s.deadline_factor = p.deadline_factor AND s.penalty_ratio = p.penalty_ratio \
     AND s.batteries = p.batteries AND s.battery = p.battery AND s.load = p.load AND s.arrivals = p.arrivals \
     AND s.sampled_jobs IS p.sampled_jobs AND s.failures = p.failures \
     AND (p.sampled_jobs IS NULL AND p.synthetic_days IS NULL AND p.failures = 'none' OR s.seed = p.seed)";

/// Each point's workload as the report names it: the trace's label, and
/// under a `slurm.conf` the dump's label or the synthetic workload's days and
/// load, `on` the conf's label.
fn workload_labels(points: &DataFrame) -> PolarsResult<Vec<Option<String>>> {
    let trace = points.column("trace")?.str()?;
    let conf = points.column("conf")?.str()?;
    let days = points.column("synthetic_days")?.f64()?;
    let load = points.column("synthetic_load")?.f64()?;
    Ok((0..points.height())
        .map(|i| {
            let workload = match (trace.get(i), days.get(i), load.get(i)) {
                (Some(t), _, _) => trace_label(t),
                (None, Some(d), Some(l)) => format!("synthetic ({d} days at load {l})"),
                (None, _, _) => return None,
            };
            Some(match conf.get(i) {
                Some(c) => format!("{workload} on {}", trace_label(c)),
                None => workload,
            })
        })
        .collect())
}

/// The sla-machine section of a report.
pub struct SlaMachineSection;

impl ReportSection for SlaMachineSection {
    fn name(&self) -> &'static str {
        "sla-machine"
    }

    fn build(&self, _registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
        if !has_table(db, "sla_machine_points")? {
            return Ok(None);
        }
        let (only, params) = filter.points_where();
        let all: Vec<&str> = MEASURES.iter().chain(&RESERVATION_MEASURES).copied().collect();
        let measures: Vec<String> = all
            .iter()
            .map(|&m| match m {
                "gain_over_slurm" => "p.gain - s.gain AS gain_over_slurm".to_string(),
                "reservations_rejected" => {
                    "p.reservations - p.reservations_accepted AS reservations_rejected".to_string()
                }
                m => format!("p.{m}"),
            })
            .collect();
        let sql = format!(
            "SELECT p.trace, p.conf, p.synthetic_days, p.synthetic_load, p.load, p.failures, p.strategy, \
             p.node_choice, CASE p.acceptance WHEN 'pof' THEN 'PoF < ' || p.pof_max \
             WHEN 'risk' THEN 'risk, SF ' || p.security_factor END AS overbooking, \
             p.reservation_percent || ' %, ' || p.reservation_option || ', start factor ' || p.start_factor \
             AS reservations, {} FROM sla_machine_points p \
             LEFT JOIN sla_machine_points s ON {SAME_BATTERY} {only}",
            measures.join(", ")
        );
        let mut columns = vec![
            ("trace", Kind::Text),
            ("conf", Kind::Text),
            ("synthetic_days", Kind::Real),
            ("synthetic_load", Kind::Real),
            ("load", Kind::Real),
            ("failures", Kind::Text),
            ("strategy", Kind::Text),
            ("node_choice", Kind::Text),
            ("overbooking", Kind::Text),
            ("reservations", Kind::Text),
        ];
        columns.extend(all.iter().map(|&m| {
            let int = matches!(m, "late" | "failed" | "killed" | "rejected" | "reservations_rejected" | "moved");
            (m, if int { Kind::Int } else { Kind::Real })
        }));
        let points = frame_of(db, &sql, &params, &columns)?;
        if points.height() == 0 {
            return Ok(None);
        }
        let count = points.height();
        let labels = workload_labels(&points)?;
        let reserved = points.column("reservations")?.null_count() < count;
        let mut points = points.drop_many(["trace", "conf", "synthetic_days", "synthetic_load"]);
        points.with_column(Column::new("workload".into(), labels))?;
        let mut keys = vec!["workload", "load", "failures", "strategy", "node_choice", "overbooking"];
        let measures: &[&str] = if reserved {
            keys.push("reservations");
            &all
        } else {
            points = points.drop_many(["reservations"].into_iter().chain(RESERVATION_MEASURES));
            &MEASURES
        };
        let df = aggregate_by(points.lazy(), &keys, measures)?;
        keys.push("batteries");
        // Each measure's mean beside its half-width.
        let mut order: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        for &m in measures {
            order.push(format!("{m}_mean"));
            order.push(format!("{m}_ci"));
        }
        let df = df.select(order)?;
        let table = Table {
            id: "sla-machine".into(),
            title: "SLA planning beside Slurm on a machine of unlike nodes".into(),
            note: "One row per workload, load, failure model, strategy, node choice and overbooking test of the \
                   sla-machine points ([sla_machine]): each measure's mean over the batteries ± its 95 % \
                   half-width. Gain and penalties in VC; the gain over Slurm is paired, battery by battery, with \
                   the Slurm point of the same battery under the same node failures (empty without one); \
                   late jobs ended after their deadline, failed ones were kept from ending by node failures, \
                   killed ones were overbooked and still running at the end of their window, rejected \
                   ones were refused at submission (Slurm rejects none); waits in seconds, of the jobs that started; the CPU, \
                   memory and GPU shares are what the jobs held from the first submission to the last, as \
                   each strategy allocates (Slurm gives a whole card for a share of one); the GPU \
                   fragmentation is the mean share of the GPUs the battery's own jobs could not use over \
                   the same span (Weng et al., ATC 2023, §3.2). With paper B's reservations, a row per \
                   reservation setting, the reservations rejected and the jobs moved later for them; their \
                   fees and penalties are in the gain, their waits (the delay they asked for) are not."
                .into(),
            df,
        };
        Ok(Some(Section { tables: vec![table], points: count, ..Section::default() }))
    }
}
