//! Paper B's fixed reservations on a machine of unlike nodes: a schedule
//! worked out by hand under both options, and the invariants under every
//! strategy that takes them.

use std::sync::Arc;

use proptest::prelude::*;
use slasim_core::experiment::registry::Entries;
use slasim_core::units::Time;
use slasim_machine::{Gpus, Machine, Request};
use slasim_single::cluster::strategy::{Outcome, RejectReason, ReservationHandling};
use slasim_single::plan::node_choice::{NodeChoice, NodeChoices};
use slasim_single::policy::on_machine::{Decision, MachineJob, MachineStrategies, MachineStrategyInfo, Setting};
use slasim_single::workload::failures::FailureStream;
use slasim_single::workload::job::Job;
use slasim_single::workload::reservations::{MoveGuard, ReservationConfig, ReservationOption};

use crate::unit::plan::machine_plan::{Case, GIB, ask, case, job, learned_from, runs_hold, three_nodes};

const CPU: u32 = 0;
const V100: u32 = 2;

fn first_fit() -> Box<dyn NodeChoice> {
    (NodeChoices::builtin()[0].build)(&[])
}

/// A reservation asked at `at` for `[release, release + estimate)`.
fn reservation(id: u32, at: Time, release: Time, estimate: Time, request: Request) -> MachineJob {
    let mut r = job(id, at, estimate, release + estimate, request);
    r.job.release = release;
    r.job.reservation = true;
    r
}

/// Every strategy that takes reservations.
fn reserving() -> Vec<&'static MachineStrategyInfo> {
    MachineStrategies::builtin().into_iter().filter(|s| s.reserves).collect()
}

/// `jobs` on the three nodes under `strategy`, first fit, no failures.
fn planned(strategy: &MachineStrategyInfo, jobs: &[MachineJob], handling: ReservationHandling) -> Vec<Decision> {
    let choice = first_fit();
    let none = FailureStream::none(3);
    let case = Case { machine: three_nodes(), jobs: jobs.to_vec(), failures: none };
    let ob = learned_from(&case);
    let setting = Setting {
        choice: choice.as_ref(),
        failures: &case.failures,
        overbooking: strategy.overbooks.map(|_| &ob),
        reservations: handling,
    };
    (strategy.run)(Arc::new(three_nodes()), jobs, &setting).unwrap()
}

/// The jobs of the schedule below: every job asks 32 CPUs and 8 GiB of one
/// node (the CPU node or the V100 node; the P100 node has 16 CPUs) and runs
/// its estimate of 100 s, but r7 asks 30 s.
fn four_jobs_and_four_reservations(m: &Machine) -> Vec<MachineJob> {
    let whole = || ask(m, 32, 8 * GIB, Gpus::Whole(0), "");
    vec![
        job(0, 0, 100, 1000, whole()),
        job(1, 0, 100, 1000, whole()),
        job(2, 10, 100, 400, whole()),
        job(3, 10, 100, 1000, whole()),
        reservation(4, 20, 150, 100, whole()),
        reservation(5, 30, 100, 100, whole()),
        reservation(6, 40, 250, 100, whole()),
        reservation(7, 50, 60, 30, whole()),
    ]
}

fn start_on(d: &Decision) -> Option<(Time, u32)> {
    d.placement.as_ref().map(|p| (p.start, p.nodes[0].0))
}

/// Worked out by hand (first fit, no failures). j0 and j1 run on `cpu` and
/// `v100` over [0, 100); j2 and j3 are planned on them over [100, 200).
///
/// Under *move*, the guard pinning after one move:
///
/// | job | at | window     | what happens                                                        |
/// |-----|----|------------|---------------------------------------------------------------------|
/// | r4  | 20 | [150, 250) | j2, j3 lifted; r4 on `cpu`; j2 back on `v100` at 100 (no later), j3 moved to `v100` [200, 300) |
/// | r5  | 30 | [100, 200) | `cpu` has r4 from 150; j2 lifted; r5 on `v100`; j2 moved to `cpu` [250, 350), ends by 400 |
/// | r6  | 40 | [250, 350) | j2 and j3 are in its way, both pinned: rejected `pinned-jobs`       |
/// | r7  | 50 | [60, 90)   | j0 and j1 run there: rejected `occupied`                            |
///
/// Under *reject*: r4 and r5 find only planned jobs in their way and are
/// rejected `planned-jobs`; r6 finds `cpu` free from 200 and runs there;
/// r7 is rejected `occupied`. Gains: move 6 × 10, reject 5 × 10.
///
/// Every strategy that takes reservations plans it so: no job ends early,
/// no window is short, and no job can start earlier than planned.
#[test]
fn reservations_reject_or_move_planned_jobs_worked_out_by_hand() {
    let m = three_nodes();
    let jobs = four_jobs_and_four_reservations(&m);
    let moving = ReservationHandling {
        option: ReservationOption::Move,
        guard: MoveGuard { max_moves: Some(1), max_delay_factor: None },
    };
    for strategy in reserving() {
        let name = strategy.name;
        let d = planned(strategy, &jobs, moving);
        let starts: Vec<_> = d.iter().map(start_on).collect();
        let want = [
            Some((0, CPU)),
            Some((0, V100)),
            Some((250, CPU)),
            Some((200, V100)),
            Some((150, CPU)),
            Some((100, V100)),
            None,
            None,
        ];
        assert_eq!(starts, want, "{name} (move)");
        let moves: Vec<_> = d.iter().map(|d| (d.moves, d.pinned)).collect();
        assert_eq!(moves[..4], [(0, false), (0, false), (1, true), (1, true)], "{name}");
        assert_eq!(d[6].reason, Some(RejectReason::PinnedJobs), "{name}");
        assert_eq!(d[7].reason, Some(RejectReason::Occupied), "{name}");
        assert!(d[..6].iter().all(|d| d.outcome == Outcome::Success), "{name}");
        assert_eq!(d.iter().map(|d| d.money).sum::<f64>(), 60.0, "{name}");

        let d = planned(strategy, &jobs, ReservationHandling::default());
        let starts: Vec<_> = d.iter().map(start_on).collect();
        let want =
            [Some((0, CPU)), Some((0, V100)), Some((100, CPU)), Some((100, V100)), None, None, Some((250, CPU)), None];
        assert_eq!(starts, want, "{name} (reject)");
        let reasons: Vec<_> = d[4..].iter().map(|d| d.reason).collect();
        let planned_jobs = Some(RejectReason::PlannedJobs);
        assert_eq!(reasons, [planned_jobs, planned_jobs, None, Some(RejectReason::Occupied)], "{name}");
        assert!(d.iter().all(|d| d.moves == 0), "{name}");
        assert_eq!(d.iter().map(|d| d.money).sum::<f64>(), 50.0, "{name}");
    }
}

/// With j3's deadline 290 (latest start 190), moving it for r4 would end it
/// late: r4 is rejected `moved-job-deadline` and the plan is restored, j2
/// and j3 running where they were planned.
#[test]
fn a_move_that_would_break_a_deadline_rejects_the_reservation() {
    let m = three_nodes();
    let mut jobs = four_jobs_and_four_reservations(&m);
    jobs.truncate(5);
    jobs[3].job.deadline = 290;
    let moving = ReservationHandling { option: ReservationOption::Move, guard: MoveGuard::default() };
    for strategy in reserving() {
        let name = strategy.name;
        let d = planned(strategy, &jobs, moving);
        assert_eq!(d[4].reason, Some(RejectReason::MovedJobDeadline), "{name}");
        assert_eq!(start_on(&d[2]), Some((100, CPU)), "{name}");
        assert_eq!(start_on(&d[3]), Some((100, V100)), "{name}");
        assert!(d.iter().all(|d| d.moves == 0), "{name}");
    }
}

proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// With reservations copied from the jobs (either option, any guard)
    /// and node failures, under every strategy that takes them and every
    /// node choice: no node exceeds a resource or runs a job while down; an
    /// accepted reservation's runs start at its release and hold its whole
    /// estimate; a job that succeeds ended by its deadline; and under
    /// *reject* no job is moved.
    #[test]
    fn reservations_keep_their_windows_and_moves_their_deadlines(
        case in case(true),
        percent in 0.0..100.0f64,
        start_factor in 0.0..2.0f64,
        moving in any::<bool>(),
        max_moves in prop::option::of(0u32..3),
        seed in any::<u64>(),
    ) {
        let config = ReservationConfig { percent, start_factor, ..ReservationConfig::default() };
        // Copies of jobs some node set holds, so that reservations meet planned jobs.
        let fit: Vec<usize> = (0..case.jobs.len()).filter(|&k| case.machine.check(&case.jobs[k].request).is_ok()).collect();
        let own: Vec<Job> = fit.iter().map(|&k| case.jobs[k].job).collect();
        let mut jobs = case.jobs.clone();
        for (k, mut job) in config.copies(&own, seed, 0) {
            job.id = jobs.len() as u32;
            jobs.push(MachineJob { job, request: case.jobs[fit[k]].request.clone() });
        }
        let option = if moving { ReservationOption::Move } else { ReservationOption::Reject };
        let handling = ReservationHandling { option, guard: MoveGuard { max_moves, max_delay_factor: None } };
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = jobs.iter().map(|j| j.request.clone()).collect();
        let overbooking = learned_from(&case);
        for strategy in reserving() {
            for info in NodeChoices::builtin() {
                let name = format!("{} ({})", strategy.name, info.name);
                let choice = (info.build)(&requests);
                let setting = Setting {
                    choice: choice.as_ref(),
                    failures: &case.failures,
                    overbooking: Some(&overbooking),
                    reservations: handling,
                };
                let decisions = (strategy.run)(machine.clone(), &jobs, &setting).unwrap();
                runs_hold(&name, &machine, &jobs, &decisions, &case.failures)?;
                for (d, j) in decisions.iter().zip(&jobs) {
                    if j.job.reservation {
                        for p in d.stopped.iter().map(|(p, _)| p).chain(d.placement.as_ref().filter(|_| d.end.is_some())) {
                            prop_assert!(p.start >= j.job.release, "{name}: a reservation before its window");
                        }
                        if let (Some(p), Some(_), None) = (&d.placement, d.end, d.stopped.first()) {
                            prop_assert_eq!(p.start, j.job.release, "{}: a reservation off its window", name);
                        }
                        prop_assert!(d.allotment.is_none(), "{name}: an overbooked reservation");
                        prop_assert_eq!(d.moves, 0);
                    }
                    if d.outcome == Outcome::Success {
                        prop_assert!(d.end.unwrap() <= j.job.deadline, "{name}");
                    }
                    if !moving {
                        prop_assert_eq!(d.moves, 0, "{}: moved under reject", name);
                    }
                    if let Some(k) = max_moves.filter(|_| moving) {
                        prop_assert!(d.moves <= k, "{name}: moved past the guard");
                    }
                }
            }
        }
    }
}
