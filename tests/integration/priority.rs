//! The priority rules' queueing strategies (`sjf`, `smallest-first`, `wfp3`,
//! `uni`, `f1`, each also `-easy`): hand-checked schedules where the order
//! matters, with and without backfilling; the rules' aging; and, on a real
//! log, a rule keyed by submission giving exactly the built-in `fcfs` and
//! `easy` starts.
//!
//! Every case is built from jobs (occurrence, processors, estimate, runtime)
//! and run in-process through the strategy registry; jobs are killed at their
//! estimate. A pass runs at each submission, so jobs submitted while the
//! machine is busy are what a later pass orders.

use crate::common;

use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::priority::queueing::PriorityQueueing;
use slasim::single::policy::priority::{Key, Priority, Waiting};
use slasim::single::policy::{Placement, Strategy, build};
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;
use slasim::single::workload::prepare::PrepareConfig;
use slasim::units::Time;

/// Jobs (occurrence, processors, estimate, runtime), ids in order.
fn jobs(spec: &[(Time, u32, Time, Time)]) -> Vec<Job> {
    spec.iter().enumerate().map(|(i, &(o, n, x, w))| Job::without_sla(i as u32, o, n, x, w)).collect()
}

/// Each job's start under `strategy` on a machine of `capacity` nodes.
fn starts_with(strategy: Box<dyn Strategy>, capacity: u32, jobs: &[Job]) -> Vec<Option<Time>> {
    let sim = simulate(Scenario::new(capacity, jobs.to_vec(), FailureStream::none(capacity), strategy)).unwrap();
    sim.cluster.records.records.iter().map(|r| r.actual_start).collect()
}

/// Each job's start under the registered strategy `name`.
fn starts(name: &str, capacity: u32, spec: &[(Time, u32, Time, Time)]) -> Vec<Option<Time>> {
    let settings = common::settings(name, Placement::BestFit, &[], 0.0);
    starts_with(build(name, &settings, capacity).unwrap(), capacity, &jobs(spec))
}

fn at(times: &[Time]) -> Vec<Option<Time>> {
    times.iter().map(|&t| Some(t)).collect()
}

/// Four processors; J0 holds them all over [0, 10). J1 (2 for 30 s), J2 (4
/// for 20 s) and J3 (2 for 5 s) queue behind it.
/// - fcfs: J1 at 10 (2 free left), J2 blocks until J1 ends at 40, J3 after
///   J2 at 60.
/// - sjf, order J3 (5), J2 (20), J1 (30): J3 at 10, J2 blocks until J3 ends
///   at 15, J1 after J2 at 35.
/// - sjf-easy: J2's shadow time is 15 (J3's end) with no extra nodes, and
///   J1 (until 40) would delay it: as sjf.
#[test]
fn sjf_runs_the_shortest_first() {
    let spec = [(0, 4, 10, 10), (1, 2, 30, 30), (2, 4, 20, 20), (3, 2, 5, 5)];
    assert_eq!(starts("fcfs", 4, &spec), at(&[0, 10, 40, 60]));
    assert_eq!(starts("sjf", 4, &spec), at(&[0, 35, 15, 10]));
    assert_eq!(starts("sjf-easy", 4, &spec), at(&[0, 35, 15, 10]));
}

/// Four processors; J0 (1 for 10 s) and J1 (3 for 100 s) start at 0. J2
/// (4 for 50 s), J3 (1 for 80 s) and J4 (1 for 60 s) queue. At 10 one
/// processor is free; the head J2's shadow time is 100 (J1's end) with no
/// extra processor, so only a job ending by 100 may backfill.
/// - easy, arrival order: J3 (ends 90) backfills at 10; J4 would end at 150
///   from 90, so it waits for J2 (100–150) and starts at 150.
/// - sjf-easy, order J2 (50), J4 (60), J3 (80): J4 (ends 70) backfills at
///   10; from 70 J3 would end at 150, so it waits for J2 and starts at 150.
/// - sjf and fcfs: nothing backfills; J3 and J4 start at 150.
#[test]
fn sjf_easy_backfills_in_the_rules_order() {
    let spec = [(0, 1, 10, 10), (0, 3, 100, 100), (1, 4, 50, 50), (2, 1, 80, 80), (3, 1, 60, 60)];
    assert_eq!(starts("easy", 4, &spec), at(&[0, 0, 100, 10, 150]));
    assert_eq!(starts("sjf-easy", 4, &spec), at(&[0, 0, 100, 150, 10]));
    assert_eq!(starts("sjf", 4, &spec), at(&[0, 0, 100, 150, 150]));
    assert_eq!(starts("fcfs", 4, &spec), at(&[0, 0, 100, 150, 150]));
}

/// Four processors; J0 holds them all over [0, 10). J1 (3), J2 (2) and J3
/// (1), each for 10 s, queue.
/// - fcfs: J1 at 10; J2 (2 > 1 free) blocks until 20, J3 beside it.
/// - smallest-first, order J3, J2, J1: J3 and J2 at 10, J1 (3 > 1 free)
///   at 20.
/// - smallest-first-easy: the same. A blocked first job needs more than
///   the idle processors, and every later job needs at least as many, so
///   smallest first never backfills.
#[test]
fn smallest_first_runs_the_narrowest_first() {
    let spec = [(0, 4, 10, 10), (1, 3, 10, 10), (2, 2, 10, 10), (3, 1, 10, 10)];
    assert_eq!(starts("fcfs", 4, &spec), at(&[0, 10, 20, 20]));
    assert_eq!(starts("smallest-first", 4, &spec), at(&[0, 20, 10, 10]));
    assert_eq!(starts("smallest-first-easy", 4, &spec), at(&[0, 20, 10, 10]));
}

/// WFP3 ages: the order is that of the keys at the pass. Four processors;
/// J0 holds them all over [0, 1000). J1 (4 for 1000 s, runs 10 s) queues
/// at 0, J2 (4 for 100 s, runs 10 s) at 500.
/// - At J2's arrival (500): J1's (w/r)^3·n = (500/1000)^3·4 = 0.5, J2's 0:
///   J1 first. Keyed at arrival both are 0 and J1 (submitted first) goes first.
/// - At 1000: J1's (1000/1000)^3·4 = 4, J2's (500/100)^3·4 = 500: J2 runs
///   [1000, 1010), J1 from 1010.
#[test]
fn wfp3_orders_by_the_keys_at_the_pass() {
    let spec = [(0, 4, 1000, 1000), (0, 4, 1000, 10), (500, 4, 100, 10)];
    assert_eq!(starts("fcfs", 4, &spec), at(&[0, 1000, 1010]));
    assert_eq!(starts("wfp3", 4, &spec), at(&[0, 1010, 1000]));
    assert_eq!(starts("wfp3-easy", 4, &spec), at(&[0, 1010, 1000]));
}

/// UNI ages: w / (log2(n)·r) with the time waited. Four processors; J0
/// holds them all over [0, 1000). J1 (4 for 200 s) queues at 0, J2 (4 for
/// 10,000 s) at 100, J3 (4 for 100 s) at 900; each runs 10 s.
/// - At 1000: J1 1000/(2·200) = 2.5, J2 900/(2·10000) = 0.045, J3
///   100/(2·100) = 0.5: J1 at 1000; at 1010 J3 (0.55) before J2 (0.0455),
///   J2 at 1020.
/// - Keyed at arrival (w = 1e-15) UNI is shortest first, J3, J1, J2; fcfs
///   is J1, J2, J3.
#[test]
fn uni_orders_by_the_time_waited() {
    let spec = [(0, 4, 1000, 1000), (0, 4, 200, 10), (100, 4, 10_000, 10), (900, 4, 100, 10)];
    assert_eq!(starts("fcfs", 4, &spec), at(&[0, 1000, 1010, 1020]));
    assert_eq!(starts("uni", 4, &spec), at(&[0, 1000, 1020, 1010]));
    assert_eq!(starts("uni-easy", 4, &spec), at(&[0, 1000, 1020, 1010]));
}

/// F1 = log10(r)·n + 870·log10(s), smallest first. Sixteen processors; J0
/// holds them all over [0, 2000). J1 (16 for 10,000 s) queues at 1000, J2
/// (1 for 10 s) at 1100, J3 (16 for 100 s) at 1200; each runs 10 s.
/// - F1: J1 4·16 + 870·3 = 2674, J2 1·1 + 870·log10(1100) = 2647.0, J3
///   2·16 + 870·log10(1200) = 2710.9. J2 at 2000; J1 (16) waits for it
///   (2010), J3 after J1 (2020).
/// - fcfs: J1 at 2000, J2 at 2010, J3 (16) waits for J2: 2020.
/// - sjf: J2 at 2000, J3 at 2010, J1 at 2020.
#[test]
fn f1_weighs_size_against_submission() {
    let spec = [(0, 16, 2000, 2000), (1000, 16, 10_000, 10), (1100, 1, 10, 10), (1200, 16, 100, 10)];
    assert_eq!(starts("fcfs", 16, &spec), at(&[0, 2000, 2010, 2020]));
    assert_eq!(starts("sjf", 16, &spec), at(&[0, 2020, 2000, 2010]));
    assert_eq!(starts("f1", 16, &spec), at(&[0, 2010, 2000, 2020]));
    assert_eq!(starts("f1-easy", 16, &spec), at(&[0, 2010, 2000, 2020]));
}

/// A job wider than the machine is dropped (rejected too-wide), as in the
/// classic modes; the others run.
#[test]
fn a_job_wider_than_the_machine_is_dropped() {
    for name in ["sjf", "wfp3-easy"] {
        let settings = common::settings(name, Placement::BestFit, &[], 0.0);
        let strategy = build(name, &settings, 4).unwrap();
        let sim = simulate(Scenario::new(4, jobs(&[(0, 5, 10, 10), (0, 4, 10, 10)]), FailureStream::none(4), strategy))
            .unwrap();
        let r = &sim.cluster.records.records;
        assert_eq!(r[0].reject_reason, Some(slasim::single::policy::RejectReason::TooWide), "{name}");
        assert_eq!(r[1].actual_start, Some(0), "{name}");
    }
}

/// A test-only rule: arrival order (submission time, then job id).
struct Arrival;

impl Priority for Arrival {
    fn key(&self, job: &Waiting, _now: Time) -> Key {
        (job.submit as f64, 0.0)
    }
}

/// The first 5,000 jobs of KTH-SP2 as the classic modes run them.
fn kth() -> (u32, Vec<Job>) {
    let path = common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz");
    let trace = slasim::single::workload::load_trace(&path, Default::default()).unwrap();
    let prepared = PrepareConfig::default().for_classic_modes().prepare(&trace).unwrap();
    (prepared.capacity, prepared.batteries[0].jobs[..5000].to_vec())
}

/// In arrival order, list scheduling is `fcfs` and EASY is `easy`, start for
/// start, on a real log.
#[test]
fn arrival_order_gives_fcfs_and_easy_on_kth() {
    let (capacity, jobs) = kth();
    for (backfill, name) in [(false, "fcfs"), (true, "easy")] {
        let settings = common::settings(name, Placement::BestFit, &[], 0.0);
        let builtin = starts_with(build(name, &settings, capacity).unwrap(), capacity, &jobs);
        let ours = starts_with(Box::new(PriorityQueueing::new(Arrival, backfill, capacity, true)), capacity, &jobs);
        assert_eq!(builtin.len(), 5000);
        let differ = builtin.iter().zip(&ours).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{name}: {differ} of 5000 jobs start at another time");
    }
}

/// Smallest first never backfills (the blocked job needs more processors
/// than are idle, and every later one at least as many): both flavours give
/// the same starts on a real log; the other rules' backfilling changes them.
#[test]
fn smallest_first_never_backfills_on_kth() {
    let (capacity, jobs) = kth();
    let run = |name: &str| {
        let settings = common::settings(name, Placement::BestFit, &[], 0.0);
        starts_with(build(name, &settings, capacity).unwrap(), capacity, &jobs)
    };
    assert_eq!(run("smallest-first"), run("smallest-first-easy"));
    for rule in ["sjf", "wfp3", "uni", "f1"] {
        assert_ne!(run(rule), run(&format!("{rule}-easy")), "{rule}");
    }
}

/// Same jobs, same starts: twice in a row and on two threads at once.
#[test]
fn the_strategies_are_deterministic() {
    let (capacity, jobs) = kth();
    let jobs = &jobs[..2000];
    for name in ["sjf-easy", "wfp3", "uni-easy", "f1"] {
        let run = || {
            let settings = common::settings(name, Placement::BestFit, &[], 0.0);
            starts_with(build(name, &settings, capacity).unwrap(), capacity, jobs)
        };
        let first = run();
        let (a, b) = std::thread::scope(|s| {
            let (a, b) = (s.spawn(run), s.spawn(run));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(first, a, "{name}");
        assert_eq!(first, b, "{name}");
        assert!(first.iter().all(Option::is_some), "{name}: every job runs");
    }
}
