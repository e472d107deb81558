//! Advance reservations (`seed-000-001-spec.md`): paper B's *reject* and
//! *variable jobs move* options, the starvation guard, bad reservations, and
//! paper A's fixed reservations with overbooking and checkpoint/restart —
//! hand-checked schedules run through the real simulator, and a property test.

use crate::common;

use common::{h, job};
use proptest::prelude::*;

use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::checkpoint::CheckpointConfig;
use slasim::single::cluster::record::{JobRecord, Outcome};
use slasim::single::policy::{Placement, RejectReason, ReservationHandling, StrategySettings, build};
use slasim::single::summary::RunSummary;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::{Job, NO_DEADLINE};
use slasim::single::workload::reservations::{MoveGuard, ReservationOption};
use slasim::units::{HOUR, Time};

const CB: &str = "conservative-backfilling";
const HP: &str = "heuristic-planning";
const SB: &str = "shortened-backfilling";

/// A variable job without a deadline (paper B).
fn variable(id: u32, o: f64, x: f64, w: f64, n: u32) -> Job {
    Job { deadline: NO_DEADLINE, ..job(id, o, o, x, w, n, o + x) }
}

/// A reservation submitted at `o` for [start, start + x) on `n` nodes.
fn reservation(id: u32, o: f64, start: f64, x: f64, w: f64, n: u32) -> Job {
    Job { reservation: true, ..job(id, o, start, x, w, n, start + x) }
}

fn handling(option: ReservationOption, guard: MoveGuard) -> ReservationHandling {
    ReservationHandling { option, guard }
}

fn settings(strategy: &str, history: &[Job], reservations: ReservationHandling) -> StrategySettings {
    StrategySettings { reservations, ..common::settings(strategy, Placement::BestFit, history, 0.3) }
}

fn run_with(
    strategy: &str,
    capacity: u32,
    mut jobs: Vec<Job>,
    settings: StrategySettings,
    checkpoint: Option<CheckpointConfig>,
) -> Simulated {
    jobs.sort_by_key(|j| (j.occurrence, j.id));
    let strategy = build(strategy, &settings, capacity).unwrap();
    let failures = FailureStream::none(capacity);
    let sim = simulate(Scenario {
        capacity,
        jobs: jobs.into(),
        failures,
        strategy,
        checkpoint,
        energy: None,
        record_power: false,
        cap: None,
    })
    .unwrap();
    assert_eq!(sim.cluster.unresolved, 0, "every job must end in exactly one outcome");
    sim
}

fn run(strategy: &str, capacity: u32, jobs: Vec<Job>, reservations: ReservationHandling) -> Simulated {
    let history = jobs.clone();
    run_with(strategy, capacity, jobs, settings(strategy, &history, reservations), None)
}

fn rec(sim: &Simulated, id: usize) -> &JobRecord {
    &sim.cluster.records[id]
}

fn hours(t: Option<Time>) -> Option<f64> {
    t.map(|t| t as f64 / HOUR as f64)
}

const OPTIONS: [ReservationOption; 2] = [ReservationOption::Reject, ReservationOption::Move];

/// Job 0 runs on all 4 nodes over [0, 4 h); a reservation for [2 h, 3 h) on
/// one node collides with it: rejected under both options, by every strategy.
#[test]
fn a_reservation_blocked_by_a_running_job_is_rejected_under_both_options() {
    for option in OPTIONS {
        for strategy in [HP, CB] {
            if option == ReservationOption::Move && strategy == CB {
                continue;
            }
            let jobs = vec![variable(0, 0.0, 4.0, 4.0, 4), reservation(1, 1.0, 2.0, 1.0, 1.0, 1)];
            let sim = run(strategy, 4, jobs, handling(option, MoveGuard::default()));
            let r = rec(&sim, 1);
            assert!(!r.accepted, "{strategy} {option}");
            assert_eq!(r.outcome, Some(Outcome::Rejected));
            assert_eq!(r.reject_reason, Some(RejectReason::Occupied), "{strategy} {option}");
            assert_eq!(rec(&sim, 0).outcome, Some(Outcome::Success));
        }
    }
}

/// Job 0 runs on all 4 nodes over [0, 2 h); job 1 (4 nodes, 2 h) is planned
/// for [2 h, 4 h). At 0.5 h a reservation asks for [2.5 h, 3.5 h) on 2 nodes:
/// only the planned job 1 is in the way.
/// - *reject*: rejected (planned jobs); job 1 runs [2 h, 4 h).
/// - *move*: accepted; job 1 goes to its next feasible start: 4 nodes free for
///   2 h first at 3.5 h (the reservation holds 2 nodes until then). The
///   reservation runs [2.5 h, 3.5 h), job 1 [3.5 h, 5.5 h): one move, 1.5 h late.
#[test]
fn planned_jobs_block_under_reject_and_move_under_move() {
    let jobs =
        || vec![variable(0, 0.0, 2.0, 2.0, 4), variable(1, 0.0, 2.0, 2.0, 4), reservation(2, 0.5, 2.5, 1.0, 1.0, 2)];

    let sim = run(HP, 4, jobs(), handling(ReservationOption::Reject, MoveGuard::default()));
    assert!(!rec(&sim, 2).accepted);
    assert_eq!(rec(&sim, 2).reject_reason, Some(RejectReason::PlannedJobs));
    assert_eq!(hours(rec(&sim, 1).actual_start), Some(2.0));
    assert_eq!(rec(&sim, 1).moves, 0);

    let sim = run(HP, 4, jobs(), handling(ReservationOption::Move, MoveGuard::default()));
    let r = rec(&sim, 2);
    assert!(r.accepted);
    assert_eq!((hours(r.actual_start), hours(r.actual_end)), (Some(2.5), Some(3.5)), "exactly at its window");
    let moved = rec(&sim, 1);
    assert_eq!(hours(moved.planned_start), Some(2.0), "first planned start is kept");
    assert_eq!((hours(moved.actual_start), hours(moved.actual_end)), (Some(3.5), Some(5.5)));
    assert_eq!(moved.moves, 1);
    assert_eq!(moved.outcome, Some(Outcome::Success));
    assert_eq!(rec(&sim, 0).moves, 0, "running jobs never move");
    let s = RunSummary::of(&sim.cluster.records, 4);
    assert_eq!((s.reservations, s.reservations_accepted, s.moved_jobs), (1, 1, 1));
    assert_eq!(s.reservation_rejection_rate, 0.0);
    assert_eq!((s.move_delay_mean, s.move_delay_max), (1.5 * 3600.0, 1.5 * 3600.0));
    // SLDwA = Σ response·n / Σ run·n = (2·4 + 5.5·4) / (2·4 + 2·4) = 30/16.
    assert!((s.sldwa - 30.0 / 16.0).abs() < 1e-12, "{}", s.sldwa);

    // Comprehensive backfilling books nodes for good: a reservation there is
    // accepted only on free nodes (here: rejected), and *move* is refused.
    let sim = run(CB, 4, jobs(), handling(ReservationOption::Reject, MoveGuard::default()));
    assert_eq!(rec(&sim, 2).reject_reason, Some(RejectReason::Occupied));
    let refused = build(CB, &settings(CB, &jobs(), handling(ReservationOption::Move, MoveGuard::default())), 4);
    let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("reservations.option") && message.contains("heuristic-planning"), "{message}");
}

/// Job 0 occupies all 4 nodes over [0, 2 h); job 1 (4 nodes, 1 h) is planned
/// for [2 h, 3 h). Reservation A for [2 h, 3 h) on 1 node moves job 1 to
/// [3 h, 4 h); reservation B for [3 h, 4 h) on 1 node would move it again.
/// With the guard at one move job 1 is pinned after A, so B is rejected
/// (pinned jobs); without a guard B is accepted and job 1 runs [4 h, 5 h).
/// A delay guard of 0.5 × estimate pins it after A as well (1 h late).
#[test]
fn the_starvation_guard_pins_a_job_moved_too_often_or_too_far() {
    let jobs = || {
        vec![
            variable(0, 0.0, 2.0, 2.0, 4),
            variable(1, 0.0, 1.0, 1.0, 4),
            reservation(2, 0.1, 2.0, 1.0, 1.0, 1),
            reservation(3, 0.2, 3.0, 1.0, 1.0, 1),
        ]
    };
    let guarded = [
        MoveGuard { max_moves: Some(1), max_delay_factor: None },
        MoveGuard { max_moves: None, max_delay_factor: Some(0.5) },
    ];
    for guard in guarded {
        let sim = run(HP, 4, jobs(), handling(ReservationOption::Move, guard));
        assert!(rec(&sim, 2).accepted, "{guard:?}");
        assert!(!rec(&sim, 3).accepted, "{guard:?}");
        assert_eq!(rec(&sim, 3).reject_reason, Some(RejectReason::PinnedJobs));
        assert!(rec(&sim, 1).pinned);
        assert_eq!((rec(&sim, 1).moves, hours(rec(&sim, 1).actual_start)), (1, Some(3.0)));
        assert_eq!(RunSummary::of(&sim.cluster.records, 4).pinned_jobs, 1);
    }
    let sim = run(HP, 4, jobs(), handling(ReservationOption::Move, MoveGuard::default()));
    assert!(rec(&sim, 2).accepted && rec(&sim, 3).accepted);
    assert!(!rec(&sim, 1).pinned);
    assert_eq!((rec(&sim, 1).moves, hours(rec(&sim, 1).actual_start)), (2, Some(4.0)));
}

/// A moved job must still meet its deadline: job 1 (deadline 4 h) cannot go
/// behind the reservation, so the reservation is rejected and nothing moves.
#[test]
fn a_move_that_would_break_a_deadline_is_refused() {
    let jobs =
        vec![variable(0, 0.0, 2.0, 2.0, 4), job(1, 0.0, 0.0, 2.0, 2.0, 4, 4.0), reservation(2, 0.5, 2.5, 1.0, 1.0, 2)];
    let sim = run(HP, 4, jobs, handling(ReservationOption::Move, MoveGuard::default()));
    assert_eq!(rec(&sim, 2).reject_reason, Some(RejectReason::MovedJobDeadline));
    assert_eq!((hours(rec(&sim, 1).actual_start), rec(&sim, 1).moves), (Some(2.0), 0));
}

/// A reservation starting before its submission, or wider than the cluster,
/// is rejected with its reason and counted; the run goes on.
#[test]
fn bad_reservations_are_rejected_with_a_reason() {
    for (strategy, option) in [
        (HP, ReservationOption::Reject),
        (HP, ReservationOption::Move),
        (CB, ReservationOption::Reject),
        (SB, ReservationOption::Reject),
    ] {
        let jobs = vec![
            variable(0, 0.0, 1.0, 1.0, 2),
            reservation(1, 1.0, 0.5, 1.0, 1.0, 1),
            reservation(2, 1.0, 2.0, 1.0, 1.0, 5),
            reservation(3, 1.0, 3.0, 1.0, 1.0, 4),
        ];
        let sim = run(strategy, 4, jobs, handling(option, MoveGuard::default()));
        assert_eq!(rec(&sim, 1).reject_reason, Some(RejectReason::StartBeforeSubmission), "{strategy}");
        assert_eq!(rec(&sim, 2).reject_reason, Some(RejectReason::TooWide), "{strategy}");
        assert!(rec(&sim, 3).accepted, "{strategy}: a good one still goes in");
        assert_eq!(hours(rec(&sim, 3).actual_start), Some(3.0));
        let s = RunSummary::of(&sim.cluster.records, 4);
        assert_eq!((s.reservations, s.reservations_accepted), (3, 1));
        assert!((s.reservation_rejection_rate - 200.0 / 3.0).abs() < 1e-9);
    }
}

/// Paper A: a fixed reservation R holds both nodes over [4 h, 6 h). Job A
/// (5 h estimate, 4.5 h real, promising: its class uses half its estimate)
/// arrives at 0.1 h with deadline 10 h, so it cannot wait for [6 h, 11 h);
/// shortened backfilling books it overbooked into the 3.9-h gap (d' =
/// ⌈5 h/1.3⌉ = 3.85 h fits), so it is killed at 4 h, the reservation's start —
/// which it never delays.
/// - Without checkpointing A fails: gain = fee(R) − penalty(A) = 4 − 10.
/// - With a 60-s checkpoint and 60-s restart A saves 3.9 h − 60 s of work and
///   resumes after the reservation: rest booked = 5 h − saved + 60 s, real work
///   left = 4.5 h − saved + 60 s, so it runs [6 h, 6.6 h + 120 s) and
///   succeeds: gain = 4 + 10.
#[test]
fn fixed_reservations_kill_overbooked_jobs_and_checkpoints_resume_them() {
    let history: Vec<Job> = (0..40).map(|i| job(100 + i, 0.0, 0.0, 5.0, 2.5, 2, 10.0)).collect();
    let jobs = || vec![job(0, 0.1, 0.1, 5.0, 4.5, 2, 10.0), reservation(1, 0.0, 4.0, 2.0, 2.0, 2)];
    let on = CheckpointConfig { enabled: true, checkpoint_seconds: 60, restart_seconds: 60 };
    let mut gains = Vec::new();
    for checkpoint in [None, Some(on)] {
        let s = settings(SB, &history, ReservationHandling::default());
        let sim = run_with(SB, 2, jobs(), s, checkpoint);
        let (a, r) = (rec(&sim, 0), rec(&sim, 1));
        assert!(a.overbooked && a.accepted);
        assert!(r.accepted && !r.overbooked);
        assert_eq!(
            (hours(r.actual_start), hours(r.actual_end)),
            (Some(4.0), Some(6.0)),
            "the reservation is never delayed"
        );
        let first = sim.cluster.executions.iter().find(|e| e.job == 0).unwrap();
        assert_eq!((first.start, first.end), (h(0.1), h(4.0)), "killed at the reservation's start");
        let summary = RunSummary::of(&sim.cluster.records, 2);
        if checkpoint.is_none() {
            assert_eq!(a.outcome, Some(Outcome::Failed));
            assert_eq!(a.checkpoints, 0);
        } else {
            assert_eq!(a.outcome, Some(Outcome::Success));
            assert_eq!((a.checkpoints, a.saved), (1, h(3.9) - 60));
            assert_eq!((a.actual_start, a.actual_end), (Some(h(6.0)), Some(h(6.6) + 120)));
            assert_eq!((summary.checkpoints, summary.resumed_successful), (1, 1));
        }
        gains.push(summary.gain);
    }
    assert_eq!(gains, vec![4.0 - 10.0, 4.0 + 10.0]);
}

/// Random variable jobs and reservations on a small cluster, under both
/// options: no node ever runs two jobs at once, every accepted reservation
/// runs exactly in its window, every job starts at or after its release, and
/// every rejection has a reason.
fn case() -> impl Strategy<Value = (u32, Vec<Job>, bool, Option<u32>)> {
    (
        2u32..6,
        prop::collection::vec((0i64..20, 1u32..4, 1i64..6, 0.2f64..1.2, any::<bool>(), 0i64..8), 5..40),
        any::<bool>(),
        prop::option::of(1u32..4),
    )
        .prop_map(|(capacity, raw, moving, max_moves)| {
            let mut raw = raw;
            raw.sort_by_key(|r| r.0);
            let jobs = raw
                .into_iter()
                .enumerate()
                .map(|(i, (o, n, x, ratio, is_reservation, delay))| {
                    let (o, x) = (o * 1800, x * 1800);
                    let base = variable(i as u32, 0.0, 1.0, 1.0, n.min(capacity));
                    let runtime = (ratio * x as f64) as Time;
                    if is_reservation {
                        let start = o + delay * 900;
                        Job {
                            occurrence: o,
                            release: start,
                            deadline: start + x,
                            estimate: x,
                            runtime,
                            reservation: true,
                            ..base
                        }
                    } else {
                        Job { occurrence: o, release: o, estimate: x, runtime, ..base }
                    }
                })
                .collect();
            (capacity, jobs, moving, max_moves)
        })
}

proptest! {
    #![proptest_config(common::testing::cases(200))]
    #[test]
    fn reservations_keep_the_schedule_sound((capacity, jobs, moving, max_moves) in case()) {
        let option = if moving { ReservationOption::Move } else { ReservationOption::Reject };
        let sim = run(HP, capacity, jobs, handling(option, MoveGuard { max_moves, max_delay_factor: None }));
        let clash = common::double_booking(&sim.cluster.executions);
        prop_assert!(clash.is_none(), "double-booked: {:?}", clash);
        for (job, r) in &sim.cluster.records {
            if let Some(start) = r.actual_start {
                prop_assert!(start >= job.release, "job {} started before its release", job.id);
            }
            if job.reservation && r.accepted {
                prop_assert_eq!(r.actual_start, Some(job.release), "reservation {} moved", job.id);
            }
            if r.outcome == Some(Outcome::Rejected) {
                prop_assert!(r.reject_reason.is_some());
            }
            if !job.reservation {
                prop_assert!(r.accepted, "variable jobs without deadlines are always accepted");
                prop_assert_eq!(r.outcome, Some(Outcome::Success));
            }
        }
    }
}

/// Crowded workloads for checkpointing: many short jobs on few nodes, on a
/// 900-s grid (so ends and starts tie), with runtimes up to 1.6× the
/// estimate (so overbooked jobs are killed), a third of them reservations.
fn crowded() -> impl Strategy<Value = (u32, Vec<Job>)> {
    (2u32..5, prop::collection::vec((0i64..24, 1u32..3, 1i64..5, 0.3f64..1.6, 0u8..3, 0i64..6), 20..60)).prop_map(
        |(capacity, mut raw)| {
            raw.sort_by_key(|r| r.0);
            let jobs = raw
                .into_iter()
                .enumerate()
                .map(|(i, (o, n, x, ratio, kind, delay))| {
                    let (o, x) = (o * 900, x * 900);
                    let base = variable(i as u32, 0.0, 1.0, 1.0, n.min(capacity));
                    let runtime = (ratio * x as f64) as Time;
                    let release = if kind == 0 { o + delay * 900 } else { o };
                    let deadline = if kind == 0 { release + x } else { release + 3 * x };
                    Job { occurrence: o, release, deadline, estimate: x, runtime, reservation: kind == 0, ..base }
                })
                .collect();
            (capacity, jobs)
        },
    )
}

proptest! {
    #![proptest_config(common::testing::cases(300))]

    /// The overbooking strategies with fixed reservations and checkpointing,
    /// without node failures: every accepted job starts (a resumed rest never
    /// takes nodes a job ending at the same instant still holds), no node runs
    /// two jobs at once, and accepted reservations run exactly in their window.
    #[test]
    fn checkpointed_overbooking_keeps_every_booking((capacity, jobs) in crowded()) {
        let on = CheckpointConfig { enabled: true, checkpoint_seconds: 60, restart_seconds: 60 };
        for strategy in ["comprehensive-overbooking", "shortened-backfilling", "heuristic-overbooking"] {
            let settings = common::settings(strategy, Placement::BestFit, &jobs, 0.8);
            let sim = run_with(strategy, capacity, jobs.clone(), settings, Some(on));
            let clash = common::double_booking(&sim.cluster.executions);
            prop_assert!(clash.is_none(), "{}: double-booked: {:?}", strategy, clash);
            for (job, r) in &sim.cluster.records {
                if r.accepted {
                    prop_assert!(r.actual_start.is_some(), "{}: accepted job {} never started", strategy, job.id);
                }
                if job.reservation && r.accepted {
                    prop_assert_eq!(r.actual_start, Some(job.release), "{}: reservation {} moved", strategy, job.id);
                }
            }
        }
    }
}
