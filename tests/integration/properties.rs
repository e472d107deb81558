//! Properties of every schedule, on random workloads with random node outages,
//! for every strategy.

use crate::common;

use proptest::prelude::*;
use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::record::Outcome;
use slasim::single::policy::{Placement, build, strategy, strategy_names};
use slasim::single::summary::RunSummary;
use slasim::single::tables::run::RunRow;
use slasim::single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim::single::workload::job::Job;
use slasim::single::writer::{RunOutput, write_run};
use slasim::store::{Store, query};
use slasim::units::{HOUR, Time};

#[derive(Debug, Clone)]
struct Case {
    capacity: u32,
    jobs: Vec<Job>,
    failures: FailureStream,
}

fn case() -> impl Strategy<Value = Case> {
    // Every time is a multiple of the grain: with a grain of an hour or ten
    // minutes, ends, failures, repairs, starts and occurrences often share an
    // instant (the kernel's "one instant" rule); with one second, rarely.
    let grain = prop_oneof![Just(1 as Time), Just(600), Just(HOUR)];
    (1u32..=10, grain)
        .prop_flat_map(|(capacity, grain)| {
            // Half the jobs are released after they occur (advance bookings).
            let delay = prop_oneof![Just(0 as Time), 0..4 * HOUR];
            let job = (0..30 * HOUR, 1..=capacity, 60..6 * HOUR, 0.0..1.5f64, 1.0..3.0f64, delay);
            let outage = (0..capacity, 0..40 * HOUR, 60..4 * HOUR);
            (Just(capacity), Just(grain), prop::collection::vec(job, 1..35), prop::collection::vec(outage, 0..6))
        })
        .prop_map(|(capacity, grain, raw, outages)| {
            let snap = |t: Time| t / grain * grain;
            // Lengths stay positive: at least one grain.
            let length = |t: Time| snap(t).max(grain);
            let mut raw = raw;
            raw.sort_by_key(|r| snap(r.0));
            let jobs = raw
                .into_iter()
                .enumerate()
                .map(|(i, (o, n, x, ratio, slack, delay))| {
                    let (o, x) = (snap(o), length(x));
                    let release = o + snap(delay);
                    let deadline = release + length((slack * x as f64) as Time);
                    common::job_at(i as u32, o, release, deadline, x, snap((ratio * x as f64) as Time), n)
                })
                .collect();
            // Non-overlapping outages per node.
            let mut outages: Vec<(u32, Time, Time)> =
                outages.into_iter().map(|(node, down, len)| (node, snap(down), length(len))).collect();
            outages.sort();
            let mut events = Vec::new();
            let mut free_from = vec![0 as Time; capacity as usize];
            for (node, down, len) in outages {
                if down >= free_from[node as usize] {
                    events.push(NodeEvent { time: down, kind: NodeEventKind::Fail, node });
                    events.push(NodeEvent { time: down + len, kind: NodeEventKind::Repair, node });
                    free_from[node as usize] = down + len + 1;
                }
            }
            events.sort();
            Case { capacity, jobs, failures: FailureStream { nodes: capacity, events, source_records: 0 } }
        })
}

fn run(case: &Case, strategy: &str, placement: Placement) -> Simulated {
    // The overbooking strategies learn from the case's own jobs; PoF_max 0.5
    // makes them overbook often.
    let settings = common::settings(strategy, placement, &case.jobs, 0.5);
    let strategy = build(strategy, &settings, case.capacity).unwrap();
    simulate(Scenario::new(case.capacity, case.jobs.clone(), case.failures.clone(), strategy)).unwrap()
}

/// Is `node` down at some instant of `[start, end)`? A failure exactly at `end`
/// is what stopped the execution and does not count.
fn down_during(case: &Case, node: u32, start: Time, end: Time) -> bool {
    let mut down = false;
    for e in case.failures.events.iter().filter(|e| e.node == node) {
        if e.time > start && e.time < end && e.kind == NodeEventKind::Fail {
            return true;
        }
        if e.time <= start {
            down = e.kind == NodeEventKind::Fail;
        }
    }
    down
}

fn check(case: &Case, sim: &Simulated, label: &str) -> Result<(), TestCaseError> {
    let records = &sim.cluster.records;
    // Every job ends in exactly one outcome.
    prop_assert_eq!(sim.cluster.unresolved, 0, "{}: unresolved jobs", label);
    prop_assert_eq!(records.len(), case.jobs.len());
    for (job, r) in records {
        let outcome = r.outcome.expect("outcome");
        prop_assert_eq!(outcome == Outcome::Rejected, !r.accepted, "{}: job {} {:?}", label, job.id, r);
    }
    // No node is ever double-booked.
    let clash = common::double_booking(&sim.cluster.executions);
    prop_assert!(clash.is_none(), "{}: node runs two jobs at once: {:?}", label, clash);
    for e in &sim.cluster.executions {
        let j = &case.jobs[e.job as usize];
        let r = &records[e.job as usize];
        // No job starts before its release or runs past its booking and deadline.
        prop_assert!(e.start >= j.release, "{}: job {} starts {} before release {}", label, j.id, e.start, j.release);
        prop_assert!(e.end <= j.deadline, "{}: job {} runs to {} past its deadline {}", label, j.id, e.end, j.deadline);
        prop_assert!(e.end - e.start <= j.estimate.min(j.runtime), "{}: job {} overruns", label, j.id);
        prop_assert!(r.accepted, "{}: job {} ran without being accepted", label, j.id);
        prop_assert_eq!(e.nodes.len() as u32, j.nodes);
        for &node in &e.nodes {
            prop_assert!(!down_during(case, node, e.start, e.end), "{}: job {} on down node {}", label, j.id, node);
        }
    }
    for (job, r) in records.iter().filter(|(_, r)| r.accepted) {
        let (start, end) = (r.planned_start.unwrap(), r.planned_end.unwrap());
        prop_assert!(start >= job.release && end <= job.deadline, "{}: booking outside the window", label);
        if r.outcome == Some(Outcome::Success) {
            let last = sim.cluster.executions.iter().rev().find(|e| e.job == job.id).expect("an execution");
            prop_assert!(last.end - last.start >= job.runtime.min(job.estimate), "{}: success without work", label);
        }
        if case.failures.events.is_empty() {
            if label.starts_with("shortened-backfilling") && r.overbooked {
                // Paper A books an anchored job at its earliest start and it
                // starts when its predecessors end (possibly later, or earlier
                // on freed nodes): always before the end of its booking.
                prop_assert!(r.actual_start.is_some_and(|s| s < end), "{}: job {}", label, job.id);
            } else {
                // Without failures nobody starts later than booked.
                prop_assert!(r.actual_start.is_some_and(|s| s <= start), "{}: job {} started late", label, job.id);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::testing::cases(300))]

    #[test]
    fn every_strategy_keeps_the_schedule_invariants(case in case()) {
        // The classic modes ignore deadlines: tests/integration/classic.rs has theirs.
        for name in strategy_names().into_iter().filter(|n| !strategy(n).is_ok_and(|s| s.queueing)) {
            for (_, placement) in Placement::ALL {
                let sim = run(&case, name, placement);
                check(&case, &sim, &format!("{name}/{placement}"))?;
            }
        }
    }
}

proptest! {
    #![proptest_config(common::testing::cases(24))]

    /// Σ fee − Σ penalty in the store equals the run's gain.
    #[test]
    fn stored_fees_minus_penalties_equal_the_gain(case in case()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.sqlite");
        let mut store = Store::open(&path, slasim::registry().groups()).unwrap();
        // An external scheduler (batsim) has its own tests (tests/integration/batsim.rs).
        let simulated = strategy_names().into_iter().filter(|n| !strategy(n).is_ok_and(|s| s.reads.scheduler));
        for (k, name) in simulated.enumerate() {
            let sim = run(&case, name, Placement::BestFit);
            let summary = RunSummary::of(&sim.cluster.records, case.capacity);
            let row = RunRow {
                run_id: k as i64,
                strategy: name.to_string(),
                battery: 0,
                battery_key: k as i64,
                trace: "prop".into(),
                seed: 0,
                capacity: case.capacity,
                config: String::new(),
                config_hash: String::new(),
                code_version: String::new(),
                started_at: String::new(),
                finished_at: String::new(),
                wall_seconds: 0.0,
            };
            write_run(&mut store, &RunOutput {
                run: row,
                records: sim.cluster.records.clone(),
                calibrated: None,
                node_events: sim.cluster.node_events.clone(),
                point: None,
                energy: None,
                carbon: None,
                shifting: None,
                store_jobs: true,
            })
            .unwrap();
            let t = query(&path, &format!("SELECT sum(fee) - sum(penalty) FROM jobs WHERE run_id = {k}")).unwrap();
            let stored: f64 = t.rows[0][0].parse().unwrap();
            prop_assert!((stored - summary.gain).abs() < 1e-6, "{}: stored {} vs {}", name, stored, summary.gain);

        }
    }
}
