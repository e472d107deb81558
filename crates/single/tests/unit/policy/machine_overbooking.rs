//! Heuristic overbooking on a machine of unlike nodes: the first overbooked
//! window of the machine plan, and a schedule worked out by hand.

use std::sync::Arc;

use slasim_core::experiment::registry::Entries;
use slasim_core::units::Time;
use slasim_machine::Gpus;
use slasim_single::cluster::strategy::{Outcome, RejectReason};
use slasim_single::plan::machine_plan::{Cards, MachinePlan, Placement};
use slasim_single::plan::node_choice::{NodeChoice, NodeChoices};
use slasim_single::policy::on_machine::comprehensive::comprehensive_overbooking;
use slasim_single::policy::on_machine::heuristic::{heuristic_overbooking, heuristic_planning};
use slasim_single::policy::on_machine::overbooking::MachineOverbooking;
use slasim_single::policy::on_machine::{Decision, PlanError, Setting};
use slasim_single::policy::overbooking::Acceptance;
use slasim_single::stats::pdf::{PdfConfig, RuntimeModel};
use slasim_single::stats::pos::Reliability;
use slasim_single::workload::failures::FailureStream;
use slasim_single::workload::job::Job;

use crate::unit::plan::machine_plan::{GIB, ask, job, three_nodes};

const CPU: u32 = 0;
const P100: u32 = 1;
const V100: u32 = 2;

fn first_fit() -> Box<dyn NodeChoice> {
    (NodeChoices::builtin()[0].build)(&[])
}

/// Statistics from 100 history jobs of 100 s: 80 ran half their estimate,
/// 20 all of it. So CDF(q) = 0 below 50 %, 0.8 from 50 % to 99 %, 1 at 100 %.
/// Under PoF < 0.25 on nodes that never fail, a window passes iff it holds
/// at least half the estimate.
/// [`overbooking`]'s statistics on a grid of 10 s, under PoF < 0.4.
fn on_a_fine_grid() -> MachineOverbooking {
    let history: Vec<Job> = (0..100).map(|i| Job::without_sla(i, 0, 1, 100, if i < 80 { 50 } else { 100 })).collect();
    MachineOverbooking {
        acceptance: Acceptance::Pof { max: 0.4 },
        model: Arc::new(
            RuntimeModel::learn(&history, &PdfConfig { step_seconds: 10, ..PdfConfig::default() }).unwrap(),
        ),
        reliability: Reliability::never_failing(),
    }
}

fn overbooking() -> MachineOverbooking {
    let history: Vec<Job> = (0..100).map(|i| Job::without_sla(i, 0, 1, 100, if i < 80 { 50 } else { 100 })).collect();
    MachineOverbooking {
        acceptance: Acceptance::Pof { max: 0.25 },
        model: Arc::new(RuntimeModel::learn(&history, &PdfConfig::default()).unwrap()),
        reliability: Reliability::never_failing(),
    }
}

/// The first overbooked window is the first start, in time order, whose
/// longest window the test takes; windows shorter than `shortest` are not
/// offered, and a window of the whole length is cut to it.
#[test]
fn the_first_overbooked_window_is_the_first_the_test_takes() {
    let m = Arc::new(three_nodes());
    let mut plan = MachinePlan::new(m.clone()).unwrap();
    let four = ask(&m, 4, 8 * GIB, Gpus::Whole(4), "V100");
    // The V100 node's cards: [0, 100) and [150, 400).
    plan.book(90, &four, &Placement { start: 0, nodes: vec![(V100, Cards::Whole(0b1111))] }, 100);
    plan.book(91, &four, &Placement { start: 150, nodes: vec![(V100, Cards::Whole(0b1111))] }, 400);
    let choice = first_fit();
    let mut offered = Vec::new();
    let found = plan.first_overbooked(
        &four,
        (0, 1000),
        10,
        300,
        choice.as_ref(),
        |_, l| {
            offered.push(l);
            l >= 200
        },
        |_, _, _| true,
    );
    // At 0 nothing; at 100 a window of 50 (refused); at 150 nothing; at
    // 400 the whole 300, cut from 600.
    assert_eq!(offered, vec![50, 300]);
    assert_eq!(found, Some((Placement { start: 400, nodes: vec![(V100, Cards::Whole(0b1111))] }, 300)));
    // A shortest window of 60 skips the gap at 100 unoffered.
    let mut offered = Vec::new();
    plan.first_overbooked(
        &four,
        (0, 1000),
        60,
        300,
        choice.as_ref(),
        |_, l| {
            offered.push(l);
            false
        },
        |_, _, _| true,
    );
    assert_eq!(offered, vec![300]);
    // Up to an end of 130 only the gap at 100, cut at 130.
    let found = plan.first_overbooked(&four, (0, 130), 10, 300, choice.as_ref(), |_, _| true, |_, _, _| true);
    assert_eq!(found.map(|(p, l)| (p.start, l)), Some((100, 30)));
}

/// The schedule worked out by hand (first fit; PoF < 0.25; the statistics
/// of [`overbooking`], so a window passes iff it holds half the estimate).
///
/// | job | at | asks              | est. | runs | deadline | heuristic overbooking                                    |
/// |-----|----|-------------------|------|------|----------|----------------------------------------------------------|
/// | j0  | 0  | 4 V100s           | 100  | 100  | 1000     | [0, 100) `v100`, +10                                     |
/// | j1  | 0  | 4 V100s           | 100  | 40   | 1000     | [100, 200) `v100`; ends early at 140, +10               |
/// | j2  | 0  | 2 P100s           | 100  | 100  | 1000     | [0, 100) `p100`, +10                                     |
/// | j3  | 0  | 2 P100s           | 100  | 100  | 1000     | [100, 200) `p100`, +10                                   |
/// | j4  | 5  | 2 P100s           | 100  | 10   | 240      | rejected: its only window, [200, 240), holds 40 % (CDF 0) |
/// | j5  | 10 | 4 V100s           | 200  | 90   | 360      | no full window (cards free at 200, 200 + 200 > 360): overbooked [200, 360), 80 %, PoF 0.2; at j1's early end the re-plan gives it its whole estimate, [140, 340): runs [140, 230), +10 |
/// | j6  | 10 | 2 P100s           | 100  | 70   | 260      | overbooked [200, 260), 60 %, PoF 0.2; still running at 260: killed, −5 |
///
/// - Only the V100 node holds 4 V100s, and only the P100 node 2 P100s.
/// - At 140 the re-plan also tries j6: `p100` is j3's until 200, so it keeps
///   [200, 260).
/// - Heuristic planning rejects j4, j5 and j6: none has a full window.
///
/// Gain: 5 successes × 10 − 5 = 45 (heuristic planning: 40). It fails when
/// the kill is ignored (j6 would succeed), when the re-plan does not give an
/// overbooked job its estimate back (j5 would keep [200, 360) and run
/// [200, 290)), or when a window below the test's half is taken (j4).
#[test]
fn heuristic_overbooking_worked_out_by_hand() {
    let m = Arc::new(three_nodes());
    let v100s = ask(&m, 4, 8 * GIB, Gpus::Whole(4), "V100");
    let p100s = ask(&m, 4, 8 * GIB, Gpus::Whole(2), "P100");
    let with = |mut j: slasim_single::policy::on_machine::MachineJob, runs: Time| {
        j.job.runtime = runs;
        j
    };
    let jobs = vec![
        job(0, 0, 100, 1000, v100s.clone()),
        with(job(1, 0, 100, 1000, v100s.clone()), 40),
        job(2, 0, 100, 1000, p100s.clone()),
        job(3, 0, 100, 1000, p100s.clone()),
        with(job(4, 5, 100, 240, p100s.clone()), 10),
        with(job(5, 10, 200, 360, v100s.clone()), 90),
        with(job(6, 10, 100, 260, p100s.clone()), 70),
    ];
    let none = FailureStream::none(3);
    let ob = overbooking();
    let d = heuristic_overbooking(m.clone(), &jobs, first_fit().as_ref(), &none, &ob).unwrap();
    let seen =
        |d: &Decision| (d.placement.as_ref().map(|p| (p.start, p.nodes[0].0)), d.end, d.outcome, d.money, d.allotment);
    assert_eq!(seen(&d[0]), (Some((0, V100)), Some(100), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[1]), (Some((100, V100)), Some(140), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[2]), (Some((0, P100)), Some(100), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[3]), (Some((100, P100)), Some(200), Outcome::Success, 10.0, None));
    assert_eq!((d[4].outcome, d[4].reason), (Outcome::Rejected, Some(RejectReason::NoRoom)));
    assert_eq!(seen(&d[5]), (Some((140, V100)), Some(230), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[6]), (Some((200, P100)), Some(260), Outcome::Failed, -5.0, Some(60)));
    assert_eq!(d.iter().map(|d| d.money).sum::<f64>(), 45.0);

    let h = heuristic_planning(m.clone(), &jobs, first_fit().as_ref(), &none).unwrap();
    let rejected: Vec<u32> = h.iter().filter(|d| d.outcome == Outcome::Rejected).map(|d| d.job).collect();
    assert_eq!(rejected, vec![4, 5, 6]);
    assert_eq!(h.iter().map(|d| d.money).sum::<f64>(), 40.0);
}

/// Comprehensive overbooking worked out by hand: first fit, nodes that never
/// fail, the statistics of [`overbooking`] on a grid of 10 s (a job ends at
/// half its estimate with 0.8, at its estimate with 0.2), PoF < 0.4 (a PoS
/// of 0.6 passes). Fee 10, penalty 5.
///
/// | job | at  | asks    | est. | runs | deadline | comprehensive overbooking |
/// |-----|-----|---------|------|------|----------|---------------------------|
/// | j0  | 0   | 4 V100s | 100  | 50   | 1000     | [0, 100) `v100`; ends at 50, +10 |
/// | j1  | 0   | 4 V100s | 100  | 50   | 140      | no full window; overbooked [100, 140) behind j0 (below) |
/// | j2  | 0   | 2 P100s | 200  | 200  | 1000     | [0, 200) `p100`, +10 |
/// | j3  | 120 | 2 P100s | 100  | 100  | 240      | rejected: j2 still runs at 120, so it ends at 200 for sure; [200, 240) holds 40 %: PoS 0 |
/// | j4  | 0   | 32 CPUs | 100  | 30   | 1000     | [0, 100) `cpu`; ends at 30, +10 |
/// | j5  | 0, released at 40 | 32 CPUs | 100 | 100 | 1000 | [100, 200) `cpu`; `cpu` is free at 30, j5 starts early at its release: [40, 140), +10 |
/// | j6  | 120 | 2 P100s | 100  | 100  | 280      | overbooked [200, 280): PoS 0.8; runs [200, 280), killed, −5 |
///
/// j1's PoS: j0 runs from 0 and ends at 50 (0.8) or 100 (0.2); j1 starts
/// then and ends by 140 only if it starts at 50 and runs 50: 0.8 · 0.8 =
/// 0.64, which passes. At 50, j0 ends, `v100` is free to 100, and j1 starts
/// early: its kill time is min(50 + 100, 140) = 140, a window of 90; it
/// runs 50, +10. Heuristic overbooking rejects j1: [100, 140) holds 40 % of
/// its estimate (CDF 0).
///
/// Gain: 5 × 10 − 5 = 45. It fails when early starts are not made (j1
/// would be killed at 140), when predecessors are not counted or not
/// conditioned on having run to now (j3 would be accepted), when the kill
/// is ignored (j6 would succeed), or when a release is ignored (j5 would
/// start at 30).
#[test]
fn comprehensive_overbooking_worked_out_by_hand() {
    let m = Arc::new(three_nodes());
    let v100s = ask(&m, 4, 8 * GIB, Gpus::Whole(4), "V100");
    let p100s = ask(&m, 4, 8 * GIB, Gpus::Whole(2), "P100");
    let cpus = ask(&m, 32, GIB, Gpus::Whole(0), "");
    let with = |mut j: slasim_single::policy::on_machine::MachineJob, runs: Time| {
        j.job.runtime = runs;
        j
    };
    let mut j5 = job(5, 0, 100, 1000, cpus.clone());
    j5.job.release = 40;
    let jobs = vec![
        with(job(0, 0, 100, 1000, v100s.clone()), 50),
        with(job(1, 0, 100, 140, v100s.clone()), 50),
        job(2, 0, 200, 1000, p100s.clone()),
        job(3, 120, 100, 240, p100s.clone()),
        with(job(4, 0, 100, 1000, cpus.clone()), 30),
        j5,
        job(6, 120, 100, 280, p100s.clone()),
    ];
    let none = FailureStream::none(3);
    let ob = on_a_fine_grid();
    let d = comprehensive_overbooking(m.clone(), &jobs, first_fit().as_ref(), &none, &ob).unwrap();
    let seen =
        |d: &Decision| (d.placement.as_ref().map(|p| (p.start, p.nodes[0].0)), d.end, d.outcome, d.money, d.allotment);
    assert_eq!(seen(&d[0]), (Some((0, V100)), Some(50), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[1]), (Some((50, V100)), Some(100), Outcome::Success, 10.0, Some(90)));
    assert_eq!(seen(&d[2]), (Some((0, P100)), Some(200), Outcome::Success, 10.0, None));
    assert_eq!((d[3].outcome, d[3].reason), (Outcome::Rejected, Some(RejectReason::NoRoom)));
    assert_eq!(seen(&d[4]), (Some((0, CPU)), Some(30), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[5]), (Some((40, CPU)), Some(140), Outcome::Success, 10.0, None));
    assert_eq!(seen(&d[6]), (Some((200, P100)), Some(280), Outcome::Failed, -5.0, Some(80)));
    assert_eq!(d.iter().map(|d| d.money).sum::<f64>(), 45.0);

    let h = heuristic_overbooking(m.clone(), &jobs, first_fit().as_ref(), &none, &ob).unwrap();
    assert_eq!((h[1].outcome, h[1].reason), (Outcome::Rejected, Some(RejectReason::NoRoom)));
}

/// Direct predecessors, by hand (the statistics, grid and test of
/// [`comprehensive_overbooking_worked_out_by_hand`]): on `v100`, j0 (4
/// V100s, estimate 100, runs 50) is booked [0, 100) and j1 (4 V100s,
/// estimate 40, runs 20) [100, 140). j2 (4 V100s, estimate 100, runs 50,
/// deadline 145) has no full window; its first is [140, 145).
///
/// j1 cannot start before j0 ends, so j2's only direct predecessor is j1,
/// which ends at 70 (0.64), 90 (0.16), 120 (0.16) or 140 (0.04). j2 ends by
/// 145 if it starts at 70 or 90 and runs 50: (0.64 + 0.16) · 0.8 = 0.64,
/// which passes. Counting j0 as well, as if independent of j1, gives a
/// start by 70 of 0.8 · 0.64 = 0.512 and by 90 of 0.8 · 0.8 = 0.64, so a
/// PoS of 0.64 · 0.8 = 0.512, which fails.
///
/// At 50 j0 ends and j1 starts early (killed at 90, its estimate: a whole
/// window); at 70 j1 ends and j2 starts early, killed at 145: it runs
/// [70, 120), +10.
#[test]
fn a_booking_a_later_one_waits_for_is_no_direct_predecessor() {
    let m = Arc::new(three_nodes());
    let v100s = ask(&m, 4, 8 * GIB, Gpus::Whole(4), "V100");
    let with = |mut j: slasim_single::policy::on_machine::MachineJob, runs: Time| {
        j.job.runtime = runs;
        j
    };
    let jobs = vec![
        with(job(0, 0, 100, 1000, v100s.clone()), 50),
        with(job(1, 0, 40, 1000, v100s.clone()), 20),
        with(job(2, 0, 100, 145, v100s.clone()), 50),
    ];
    let ob = on_a_fine_grid();
    let d = comprehensive_overbooking(m, &jobs, first_fit().as_ref(), &FailureStream::none(3), &ob).unwrap();
    let seen = |d: &Decision| (d.placement.as_ref().map(|p| p.start), d.end, d.outcome, d.allotment);
    assert_eq!(seen(&d[0]), (Some(0), Some(50), Outcome::Success, None));
    assert_eq!(seen(&d[1]), (Some(50), Some(70), Outcome::Success, None));
    assert_eq!(seen(&d[2]), (Some(70), Some(120), Outcome::Success, Some(75)));
}

/// The registered strategy refuses to run without its acceptance settings.
#[test]
fn heuristic_overbooking_needs_its_settings() {
    let strategy = slasim_single::policy::on_machine::MachineStrategies::builtin()
        .into_iter()
        .find(|s| s.name == "heuristic-overbooking")
        .unwrap();
    assert!(strategy.overbooks.is_some());
    let none = FailureStream::none(3);
    let choice = first_fit();
    let setting =
        Setting { choice: choice.as_ref(), failures: &none, overbooking: None, reservations: Default::default() };
    let err = (strategy.run)(Arc::new(three_nodes()), &[], &setting).unwrap_err();
    assert_eq!(err, PlanError::NoOverbooking("heuristic-overbooking"));
}
