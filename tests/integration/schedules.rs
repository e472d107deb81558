//! Hand-checked schedules: the dissertation's event rules (spec §6.2–6.5) and
//! the worked example of `seed-000-001-spec.md`, run through the real simulator.

use crate::common;

use common::job;

use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::record::{JobRecord, Outcome};
use slasim::single::policy::{Placement, build};
use slasim::single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim::single::workload::job::Job;
use slasim::units::{HOUR, NodeId, Time};

const CB: &str = "conservative-backfilling";
const HP: &str = "heuristic-planning";

fn outage(node: NodeId, down: f64, up: f64) -> [NodeEvent; 2] {
    let h = |v: f64| (v * HOUR as f64).round() as Time;
    [
        NodeEvent { time: h(down), kind: NodeEventKind::Fail, node },
        NodeEvent { time: h(up), kind: NodeEventKind::Repair, node },
    ]
}

fn run(strategy: &str, capacity: u32, jobs: Vec<Job>, outages: &[[NodeEvent; 2]]) -> Simulated {
    let mut events: Vec<NodeEvent> = outages.iter().flatten().copied().collect();
    events.sort();
    let failures = FailureStream { nodes: capacity, events, source_records: 0 };
    let settings = common::settings(strategy, Placement::BestFit, &jobs, 0.1);
    let strategy = build(strategy, &settings, capacity).unwrap();
    let sim = simulate(Scenario::new(capacity, jobs, failures, strategy)).unwrap();
    assert_eq!(sim.cluster.unresolved, 0, "every job must end in exactly one outcome");
    sim
}

fn hours(t: Option<Time>) -> Option<f64> {
    t.map(|t| t as f64 / HOUR as f64)
}

fn rec(sim: &Simulated, id: usize) -> &JobRecord {
    &sim.cluster.records[id]
}

/// Paper A's day: [21–03], [07–12], [12–17], [17–21] booked on all 32 nodes
/// (t = 0 is 21:00). A new 5-h job for all nodes released at 03:00 must end by
/// 08:00, so only the 4-h gap [03–07] is left: without overbooking it is rejected.
#[test]
fn worked_example_five_hour_job_in_four_hour_gap_is_rejected() {
    for strategy in [CB, HP] {
        let jobs = vec![
            job(0, 0.0, 0.0, 6.0, 6.0, 32, 6.0),   // 21–03
            job(1, 0.0, 10.0, 5.0, 5.0, 32, 15.0), // 07–12
            job(2, 0.0, 15.0, 5.0, 5.0, 32, 20.0), // 12–17
            job(3, 0.0, 20.0, 4.0, 4.0, 32, 24.0), // 17–21
            job(4, 0.0, 6.0, 5.0, 4.5, 32, 11.0),  // the new job
            job(5, 0.0, 6.0, 5.0, 4.5, 32, 29.0),  // same job, deadline after 21:00
        ];
        let sim = run(strategy, 32, jobs, &[]);
        let starts: Vec<Option<f64>> = (0..4).map(|i| hours(rec(&sim, i).planned_start)).collect();
        assert_eq!(starts, vec![Some(0.0), Some(10.0), Some(15.0), Some(20.0)], "{strategy}");
        assert_eq!(rec(&sim, 4).outcome, Some(Outcome::Rejected), "{strategy}");
        assert!(!rec(&sim, 4).accepted);
        // With a later deadline the only fitting gap is after 21:00 (t = 24 h).
        assert_eq!(hours(rec(&sim, 5).planned_start), Some(24.0), "{strategy}");
        assert_eq!(rec(&sim, 5).outcome, Some(Outcome::Success), "{strategy}");
    }
}

/// Comprehensive backfilling holds a job's nodes until the end of its booking
/// even when it ends early; heuristic planning re-plans at the job end.
#[test]
fn backfilling_wastes_early_ends_and_heuristic_planning_compresses() {
    // A books all 4 nodes for 10 h but runs 1 h; B arrives at 0.5 h.
    let jobs = vec![job(0, 0.0, 0.0, 10.0, 1.0, 4, 20.0), job(1, 0.5, 0.5, 1.0, 1.0, 4, 20.5)];
    let cb = run(CB, 4, jobs.clone(), &[]);
    assert_eq!(hours(rec(&cb, 1).planned_start), Some(10.0));
    assert_eq!(hours(rec(&cb, 1).actual_start), Some(10.0));
    let hp = run(HP, 4, jobs, &[]);
    assert_eq!(hours(rec(&hp, 1).planned_start), Some(10.0), "planned behind A at acceptance");
    assert_eq!(hours(rec(&hp, 1).actual_start), Some(1.0), "moved up when A ended");
    for sim in [&cb, &hp] {
        assert!(sim.cluster.records.iter().all(|(_, r)| r.outcome == Some(Outcome::Success)));
    }
    // A deadline B can only meet if A's early end is reused: CB rejects, HP accepts.
    let jobs = vec![job(0, 0.0, 0.0, 10.0, 1.0, 4, 20.0), job(1, 2.0, 2.0, 1.0, 1.0, 4, 4.0)];
    assert_eq!(rec(&run(CB, 4, jobs.clone(), &[]), 1).outcome, Some(Outcome::Rejected));
    let hp = run(HP, 4, jobs, &[]);
    assert_eq!((rec(&hp, 1).outcome, hours(rec(&hp, 1).actual_start)), (Some(Outcome::Success), Some(2.0)));
}

/// A job killed after receiving its full estimate is a success: the user
/// misestimated; one killed earlier would have failed.
#[test]
fn killed_at_full_estimate_is_a_success() {
    for strategy in [CB, HP] {
        let sim = run(strategy, 2, vec![job(0, 0.0, 0.0, 2.0, 3.0, 2, 4.0)], &[]);
        let r = rec(&sim, 0);
        assert_eq!(r.outcome, Some(Outcome::Success), "{strategy}");
        assert_eq!((hours(r.actual_start), hours(r.actual_end)), (Some(0.0), Some(2.0)), "{strategy}");
        assert_eq!(r.executed, 2 * HOUR);
        let j = &sim.cluster.records.jobs[0];
        assert_eq!((r.fee(j), r.penalty(j)), (4.0, 0.0));
    }
}

/// At equal times a job end comes before a planned start (spec §6.5), so a job
/// booked right behind another starts on time on the same nodes.
#[test]
fn job_end_is_delivered_before_the_next_start() {
    for strategy in [CB, HP] {
        let jobs = vec![job(0, 0.0, 0.0, 1.0, 1.0, 4, 2.0), job(1, 0.0, 0.0, 1.0, 1.0, 4, 3.0)];
        let sim = run(strategy, 4, jobs, &[]);
        assert_eq!(hours(rec(&sim, 1).actual_start), Some(1.0), "{strategy}");
        assert_eq!(rec(&sim, 1).outcome, Some(Outcome::Success), "{strategy}");
        let nodes: Vec<&Vec<NodeId>> = sim.cluster.executions.iter().map(|e| &e.nodes).collect();
        assert_eq!(nodes, vec![&vec![0, 1, 2, 3], &vec![0, 1, 2, 3]]);
    }
}

/// A node failure disables the running job; it restarts from scratch when its
/// node is back if it can still finish by its deadline, and fails otherwise
/// (spec §6.2, §6.5). A failure of an idle node touches nobody.
#[test]
fn failures_disable_and_restart_within_the_deadline() {
    for strategy in [CB, HP] {
        // Node 0 is down 0.5–1 h; the 2-h job restarts at 1 h and ends at 3 h.
        let sim = run(strategy, 2, vec![job(0, 0.0, 0.0, 2.0, 2.0, 2, 10.0)], &[outage(0, 0.5, 1.0)]);
        let r = rec(&sim, 0);
        assert_eq!(r.outcome, Some(Outcome::Success), "{strategy}");
        assert_eq!(r.restarts, 1, "{strategy}");
        assert_eq!((hours(r.actual_start), hours(r.actual_end)), (Some(1.0), Some(3.0)), "{strategy}");
        assert_eq!(r.executed, HOUR / 2 + 2 * HOUR);
        assert_eq!(sim.cluster.node_events.len(), 2);
        assert_eq!(sim.cluster.node_events[0].job, Some(0));

        // Same outage, deadline 2.5 h: a restart at 1 h cannot end in time.
        let sim = run(strategy, 2, vec![job(0, 0.0, 0.0, 2.0, 2.0, 2, 2.5)], &[outage(0, 0.5, 1.0)]);
        let r = rec(&sim, 0);
        assert_eq!(r.outcome, Some(Outcome::Failed), "{strategy}");
        let j = &sim.cluster.records.jobs[0];
        assert_eq!((r.fee(j), r.penalty(j)), (0.0, 4.0), "{strategy}");

        // A failure of the idle node 1 leaves the 1-node job on node 0 alone.
        let sim = run(strategy, 2, vec![job(0, 0.0, 0.0, 2.0, 2.0, 1, 10.0)], &[outage(1, 0.5, 1.0)]);
        assert_eq!((rec(&sim, 0).outcome, rec(&sim, 0).restarts), (Some(Outcome::Success), 0), "{strategy}");
    }
}

/// A job that cannot start because its nodes are down waits for the repair.
/// A (both nodes, 0–1 h) is hit at 0.5 h by node 1 going down until 3 h; B is
/// booked right behind A (1–2 h).
#[test]
fn a_planned_start_on_a_down_node_waits_for_the_repair() {
    let jobs = vec![job(0, 0.0, 0.0, 1.0, 1.0, 2, 5.0), job(1, 0.0, 0.0, 1.0, 1.0, 2, 10.0)];
    // Comprehensive: A may restart only if it ends before the next booking on
    // its nodes (B at 1 h): impossible, so A fails at once. B cannot start at
    // 1 h (node 1 down), is disabled, and restarts when node 1 returns at 3 h.
    let cb = run(CB, 2, jobs.clone(), &[outage(1, 0.5, 3.0)]);
    assert_eq!(rec(&cb, 0).outcome, Some(Outcome::Failed));
    assert_eq!((rec(&cb, 1).outcome, hours(rec(&cb, 1).actual_start)), (Some(Outcome::Success), Some(3.0)));
    // Heuristic: A is re-planned behind B (2–3 h); both wait for node 1; at the
    // repair (3 h) the plan is compressed in order of planned start: B at 3 h,
    // A at 4 h, still before A's deadline (5 h).
    let hp = run(HP, 2, jobs, &[outage(1, 0.5, 3.0)]);
    assert_eq!((rec(&hp, 1).outcome, hours(rec(&hp, 1).actual_start)), (Some(Outcome::Success), Some(3.0)));
    assert_eq!((rec(&hp, 0).outcome, hours(rec(&hp, 0).actual_start)), (Some(Outcome::Success), Some(4.0)));
    assert_eq!(rec(&hp, 0).restarts, 1);
}

/// A job asking for more nodes than the cluster has is rejected.
#[test]
fn a_job_wider_than_the_cluster_is_rejected() {
    for strategy in [CB, HP] {
        let sim = run(strategy, 4, vec![job(0, 0.0, 0.0, 1.0, 1.0, 5, 10.0)], &[]);
        assert_eq!(rec(&sim, 0).outcome, Some(Outcome::Rejected), "{strategy}");
    }
}

/// The kernel's "one instant" rule, on the case a random property test once
/// shrank to: comprehensive overbooking, last fit, PoF_max 0.5, 9 nodes.
/// Node 0 fails at 45,581, is repaired at 55,980, fails again at 56,992 and
/// is repaired at 57,052.
///
/// - Job 0 (1 node, estimate 15,973, runtime 23,387) is booked [28,932,
///   44,905) on node 0, the whole window up to its deadline. It is killed at
///   44,905 after receiving its whole estimate: a success.
/// - Job 1 (2 nodes, estimate 12,089, runtime 1,012) gets the last gap, right
///   behind job 0 on nodes 0–1 up to its deadline: [44,905, 56,993), one
///   second short of its estimate, so overbooked. It starts at 44,905, node
///   0's failure stops it at 45,581 (676 s done), it restarts from scratch at
///   the repair (55,980 < the slot's end) and completes at 56,992: a success
///   with one restart and 1,688 s executed.
/// - Job 2 (8 nodes, runtime 0) is overbooked in the 3-s gap [56,993,
///   56,996) on nodes 0–7. At 56,992 job 1 ends and node 0 fails: the end
///   comes first, then the failure, and job 2's early start is tried only at
///   the wake-up after both, so it sees node 0 down and does not start. At
///   56,993 its nodes are still not ready: it is disabled, may restart until
///   56,995, and fails at 56,996 (node 0 is back only at 57,052). It never
///   runs. Before the rule it started on nodes 0–7 at the end of job 1, in
///   the end's class, ran for 0 s and "succeeded" on a node failing at that
///   very instant.
#[test]
fn a_start_at_a_failure_instant_sees_the_failure() {
    let jobs = [
        // (occurrence, release, deadline, estimate, runtime, nodes)
        (19_947, 28_932, 44_905, 15_973, 23_387, 1),
        (36_137, 41_956, 56_993, 12_089, 1_012, 2),
        (36_137, 36_137, 56_996, 8_404, 0, 8),
    ];
    let jobs: Vec<Job> =
        jobs.iter().enumerate().map(|(i, &(o, e, d, x, w, n))| common::job_at(i as u32, o, e, d, x, w, n)).collect();
    let events = vec![
        NodeEvent { time: 45_581, kind: NodeEventKind::Fail, node: 0 },
        NodeEvent { time: 55_980, kind: NodeEventKind::Repair, node: 0 },
        NodeEvent { time: 56_992, kind: NodeEventKind::Fail, node: 0 },
        NodeEvent { time: 57_052, kind: NodeEventKind::Repair, node: 0 },
    ];
    let failures = FailureStream { nodes: 9, events, source_records: 0 };
    let name = "comprehensive-overbooking";
    let settings = common::settings(name, Placement::LastFit, &jobs, 0.5);
    let strategy = build(name, &settings, 9).unwrap();
    let sim = simulate(Scenario::new(9, jobs, failures, strategy)).unwrap();
    assert_eq!(sim.cluster.unresolved, 0);

    let r = rec(&sim, 0);
    assert_eq!((r.planned_start, r.planned_end, r.overbooked), (Some(28_932), Some(44_905), false));
    assert_eq!((r.actual_start, r.actual_end, r.executed), (Some(28_932), Some(44_905), 15_973));
    assert_eq!(r.outcome, Some(Outcome::Success));

    let r = rec(&sim, 1);
    assert_eq!((r.planned_start, r.planned_end, r.overbooked), (Some(44_905), Some(56_993), true));
    assert_eq!((r.actual_start, r.actual_end, r.restarts, r.executed), (Some(55_980), Some(56_992), 1, 1_688));
    assert_eq!(r.outcome, Some(Outcome::Success));

    let r = rec(&sim, 2);
    assert_eq!((r.planned_start, r.planned_end, r.overbooked), (Some(56_993), Some(56_996), true));
    assert_eq!((r.actual_start, r.executed), (None, 0));
    assert_eq!(r.outcome, Some(Outcome::Failed));

    let runs: Vec<(u32, Time, Time, &[NodeId])> =
        sim.cluster.executions.iter().map(|e| (e.job, e.start, e.end, e.nodes.as_slice())).collect();
    assert_eq!(
        runs,
        vec![(0, 28_932, 44_905, &[0][..]), (1, 44_905, 45_581, &[0, 1][..]), (1, 55_980, 56_992, &[0, 1][..])]
    );
}
