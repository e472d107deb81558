//! The classic queueing modes: hand-checked 5-job schedules where FCFS, EASY
//! and conservative backfilling differ, compression, kill at estimate, dropped
//! jobs, the metrics, and properties on random workloads.

use crate::common;

use proptest::prelude::*;
use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::record::Outcome;
use slasim::single::policy::{RejectReason, StrategySettings, build};
use slasim::single::summary::RunSummary;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::{Job, NO_DEADLINE};
use slasim::units::Time;

/// A job occurring at `o` s on `n` nodes, estimate `x` s, run time `w` s.
fn job(id: u32, o: Time, n: u32, x: Time, w: Time) -> Job {
    Job {
        id,
        swf_id: i64::from(id),
        occurrence: o,
        release: o,
        deadline: NO_DEADLINE,
        estimate: x,
        runtime: w,
        nodes: n,
        user: -1,
        application: -1,
        queue: -1,
        fee: 0.0,
        penalty: 0.0,
        reservation: false,
    }
}

/// Every built-in queueing mode that is not an external scheduler's.
fn queueing_modes() -> Vec<&'static str> {
    let modes: Vec<_> = slasim::single::policy::strategy_infos()
        .iter()
        .filter(|s| s.queueing && !s.reads.scheduler)
        .map(|s| s.name)
        .collect();
    assert!(modes.len() >= 13, "the classic modes and the ten priority ones: {modes:?}");
    modes
}

fn run(mode: &str, capacity: u32, jobs: Vec<Job>, kill_at_estimate: bool) -> Simulated {
    let settings = StrategySettings { kill_at_estimate, ..common::settings(mode, Default::default(), &jobs, 0.1) };
    let strategy = build(mode, &settings, capacity).unwrap();
    let sim = simulate(Scenario::new(capacity, jobs, FailureStream::none(capacity), strategy)).unwrap();
    assert_eq!(sim.cluster.unresolved, 0);
    sim
}

fn starts(sim: &Simulated) -> Vec<Option<Time>> {
    sim.cluster.records.iter().map(|(_, r)| r.actual_start).collect()
}

/// Four nodes. J0 takes 3 nodes for [0, 10); J1 (2 nodes) is the blocked head
/// with shadow time 10 and 2 extra nodes there; J2 (2 nodes) queues behind
/// it; J3 (1 node for 20 s) ends after the shadow but fits the extra nodes;
/// J4 (1 node for 5 s) arrives when no node is idle under EASY.
fn five_jobs() -> Vec<Job> {
    vec![job(0, 0, 3, 10, 10), job(1, 1, 2, 10, 10), job(2, 2, 2, 10, 10), job(3, 3, 1, 20, 20), job(4, 4, 1, 5, 5)]
}

#[test]
fn fcfs_starts_in_arrival_order_and_never_backfills() {
    let sim = run("fcfs", 4, five_jobs(), true);
    // J1 and J2 wait for J0; J3 may not pass them although a node is idle.
    assert_eq!(starts(&sim), [Some(0), Some(10), Some(10), Some(20), Some(20)]);
    // Waits 0, 9, 8, 17, 16; responses 10, 19, 18, 37, 21; runs 10, 10, 10, 20, 5.
    let s = RunSummary::of(&sim.cluster.records, 4);
    assert_eq!((s.wait_mean, s.wait_max, s.response_mean), (10.0, 17.0, 21.0));
    assert!((s.slowdown_mean - (1.0 + 1.9 + 1.8 + 1.85 + 4.2) / 5.0).abs() < 1e-9, "{}", s.slowdown_mean);
    // τ = 10 s: J4's 5-s run counts as 10 s.
    assert!((s.bounded_slowdown_mean - (1.0 + 1.9 + 1.8 + 1.85 + 2.1) / 5.0).abs() < 1e-9);
    assert_eq!(s.makespan, 40.0);
    // 95 node-seconds of work over 4 nodes × 40 s.
    assert!((s.utilisation - 95.0 / 160.0).abs() < 1e-12);
    assert_eq!((s.jobs, s.successful, s.dropped), (5, 5, 0));
}

#[test]
fn easy_backfills_on_extra_nodes_and_may_delay_later_jobs() {
    let sim = run("easy", 4, five_jobs(), true);
    // J3 starts at once on an extra node (3 + 20 > shadow 10, but 1 ≤ 2 extra);
    // the head J1 still starts at its shadow time 10; J4 backfills at 10 (it
    // ends by J2's shadow time 20); J2 waits for J1: 20, later than under
    // conservative backfilling.
    assert_eq!(starts(&sim), [Some(0), Some(10), Some(20), Some(3), Some(10)]);
}

#[test]
fn conservative_reserves_every_job_so_none_is_delayed_by_a_backfill() {
    let sim = run("conservative", 4, five_jobs(), true);
    // J2 keeps its reservation at 10; J3 is reserved after it at 20; J4 fits
    // the 1 idle node in [4, 9) at once.
    assert_eq!(starts(&sim), [Some(0), Some(10), Some(10), Some(20), Some(4)]);
    let planned: Vec<Option<Time>> = sim.cluster.records.iter().map(|(_, r)| r.planned_start).collect();
    assert_eq!(planned, starts(&sim));
}

#[test]
fn conservative_compresses_when_a_job_ends_early() {
    // Reservations at arrival: J0 [0, 10) on all 4 nodes, J1 (3 nodes) [10,
    // 15), J2 (4 nodes) [15, 20), J3 (1 node) [10, 15) beside J1. J0 ends at
    // 4 instead of 10; one pass in arrival order: J1 moves to 4; J2 cannot
    // (J3 still holds a node in [10, 15)) and keeps 15; J3 moves to 4.
    let jobs = vec![job(0, 0, 4, 10, 4), job(1, 1, 3, 5, 5), job(2, 2, 4, 5, 5), job(3, 3, 1, 5, 5)];
    let sim = run("conservative", 4, jobs, true);
    let planned: Vec<Option<Time>> = sim.cluster.records.iter().map(|(_, r)| r.planned_start).collect();
    assert_eq!(planned, [Some(0), Some(10), Some(15), Some(10)]);
    assert_eq!(starts(&sim), [Some(0), Some(4), Some(15), Some(4)]);
}

#[test]
fn jobs_are_killed_at_their_estimate_unless_told_otherwise() {
    let jobs = vec![job(0, 0, 2, 10, 25), job(1, 1, 2, 10, 10)];
    for mode in ["fcfs", "easy", "conservative"] {
        let sim = run(mode, 2, jobs.clone(), true);
        assert_eq!(sim.cluster.records[0].actual_end, Some(10), "{mode}");
        assert_eq!(sim.cluster.records[1].actual_start, Some(10), "{mode}");
        let sim = run(mode, 2, jobs.clone(), false);
        assert_eq!(sim.cluster.records[0].actual_end, Some(25), "{mode}");
        assert_eq!(sim.cluster.records[1].actual_start, Some(25), "{mode}");
        assert!(sim.cluster.records.iter().all(|(_, r)| r.outcome == Some(Outcome::Success)), "{mode}");
    }
}

#[test]
fn a_job_wider_than_the_machine_is_dropped_and_counted() {
    for mode in ["fcfs", "easy", "conservative"] {
        let sim = run(mode, 4, vec![job(0, 0, 5, 10, 10), job(1, 1, 4, 10, 10)], true);
        assert_eq!(sim.cluster.records[0].reject_reason, Some(RejectReason::TooWide), "{mode}");
        assert_eq!(sim.cluster.records[1].actual_start, Some(1), "{mode}");
        let s = RunSummary::of(&sim.cluster.records, 4);
        assert_eq!((s.dropped, s.successful), (1, 1), "{mode}");
    }
}

fn random_jobs() -> impl Strategy<Value = (u32, Vec<Job>)> {
    // Times are multiples of the grain: with 50 s, arrivals and ends often
    // share an instant.
    (1u32..=8, prop_oneof![Just(1 as Time), Just(50)]).prop_flat_map(|(capacity, grain)| {
        let one = (0..2000 as Time, 1..=capacity, 1..400 as Time, 0.0..1.3f64);
        (Just(capacity), prop::collection::vec(one, 1..40)).prop_map(move |(capacity, mut raw)| {
            let snap = |t: Time| t / grain * grain;
            raw.sort_by_key(|r| snap(r.0));
            let jobs = raw
                .into_iter()
                .enumerate()
                .map(|(i, (o, n, x, ratio))| {
                    let x = snap(x).max(grain);
                    job(i as u32, snap(o), n, x, snap((ratio * x as f64) as Time))
                })
                .collect();
            (capacity, jobs)
        })
    })
}

proptest! {
    #![proptest_config(common::testing::cases(300))]

    /// Every queueing mode (the classic ones and the priority rules', with
    /// and without EASY) runs every job once, after its arrival, on distinct
    /// nodes, for at most its estimate; FCFS starts jobs in arrival order;
    /// under compression conservative backfilling never starts a job later
    /// than its reservation at arrival.
    #[test]
    fn classic_schedules_keep_their_invariants((capacity, jobs) in random_jobs()) {
        for mode in queueing_modes() {
            let sim = run(mode, capacity, jobs.clone(), true);
            let clash = common::double_booking(&sim.cluster.executions);
            prop_assert!(clash.is_none(), "{}: double-booked {:?}", mode, clash);
            prop_assert_eq!(sim.cluster.executions.len(), jobs.len(), "{}: one execution per job", mode);
            for (job, r) in &sim.cluster.records {
                let start = r.actual_start.unwrap();
                prop_assert!(start >= job.occurrence, "{}: job {} early", mode, job.id);
                prop_assert!(r.actual_end.unwrap() - start <= job.estimate, "{}: job {} overran", mode, job.id);
                prop_assert_eq!(r.outcome, Some(Outcome::Success));
                if mode == "conservative" {
                    prop_assert!(start <= r.planned_start.unwrap(), "job {} started after its reservation", job.id);
                }
            }
            if mode == "fcfs" {
                let s = starts(&sim);
                prop_assert!(s.windows(2).all(|w| w[0] <= w[1]), "fcfs out of order: {:?}", s);
            }
        }
    }
}

/// The whole KTH-SP2 log (28,476 lines; the one without a processor count
/// skipped) at its own arrival times on its 100 processors: every job runs
/// once, no processor is double-booked, conservative backfilling never starts
/// a job after its reservation at arrival, and backfilling cuts the mean wait
/// of FCFS by more than an order of magnitude.
#[test]
fn classic_modes_on_the_whole_kth_log() {
    use slasim::experiment::inputs::Inputs;
    use slasim::experiment::point::Point;
    use slasim::single::point::SinglePoint;
    use slasim::single::workload::WorkloadSource;
    use slasim::single::workload::failures::FailureSource;
    use slasim::single::workload::prepare::PrepareConfig;

    let mut waits = Vec::new();
    for mode in ["fcfs", "easy", "conservative"] {
        let point = SinglePoint {
            strategy: slasim::single::policy::StrategyRef::named(mode).unwrap(),
            placement: Default::default(),
            seed: 1,
            battery: 0,
            workload: WorkloadSource::Swf {
                path: common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz"),
                lenient: false,
            },
            prepare: PrepareConfig::default().for_classic_modes(),
            failures: FailureSource::None,
            overbooking: Default::default(),
            reservations: Default::default(),
            classic: Default::default(),
            batsim: None,
            energy: None,
            energy_policy: Default::default(),
            signals: None,
            shifting: None,
            store_jobs: true,
        };
        let inputs = Inputs::load(&[Point::new(point.clone())]).unwrap();
        let prepared = point.prepared(&inputs).unwrap();
        let (jobs, capacity) = (prepared.batteries[0].jobs.to_vec(), prepared.capacity);
        assert_eq!((jobs.len(), capacity), (28_475, 100));
        let sim = run(mode, capacity, jobs, true);
        assert_eq!(sim.cluster.executions.len(), 28_475, "{mode}");
        let clash = common::double_booking(&sim.cluster.executions);
        assert!(clash.is_none(), "{mode}: double-booked {clash:?}");
        if mode == "conservative" {
            assert!(sim.cluster.records.iter().all(|(_, r)| r.actual_start <= r.planned_start), "started late");
        }
        waits.push(RunSummary::of(&sim.cluster.records, capacity).wait_mean);
    }
    assert!(waits[1] * 10.0 < waits[0] && waits[2] * 10.0 < waits[0], "{waits:?}");
}
