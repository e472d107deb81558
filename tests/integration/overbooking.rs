//! Hand-checked overbooking decisions and outcomes (spec §3–§6; paper A).

use crate::common;

use common::{h, job};

use std::sync::Arc;

use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::record::{JobRecord, Outcome};
use slasim::single::policy::overbooking::{Overbooking, OverbookingConfig, PosAt};
use slasim::single::policy::{Placement, StrategySettings, build, strategy};
use slasim::single::stats::pdf::{PdfConfig, PdfSource, RuntimeModel};

use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;

const LAMBDA_H: f64 = 1.2904e-4;
const MU_H: f64 = 0.4333;

/// A history whose real/estimated ratios are the given percentages.
fn history(ratios: &[i64]) -> Vec<Job> {
    ratios.iter().enumerate().map(|(i, &r)| job(i as u32, 0.0, 0.0, 1.0, r as f64 / 100.0, 1, 2.0)).collect()
}

fn run(name: &str, capacity: u32, jobs: Vec<Job>, ratios: &[i64], pof_max: f64) -> Simulated {
    run_with(name, capacity, jobs, ratios, OverbookingConfig { pof_max, ..OverbookingConfig::default() })
}

fn run_with(name: &str, capacity: u32, jobs: Vec<Job>, ratios: &[i64], config: OverbookingConfig) -> Simulated {
    let info = strategy(name).unwrap();
    let pdf = PdfConfig { source: PdfSource::default(), min_class_size: 1, ..PdfConfig::default() };
    let model = Arc::new(RuntimeModel::learn(&history(ratios), &pdf).unwrap());
    let config = OverbookingConfig { pdf, ..config };
    let overbooking = Some(Arc::new(Overbooking::new(&config, model, info.security_factor)));
    let settings = StrategySettings {
        placement: Placement::BestFit,
        reliability: common::lanl_reliability(),
        overbooking,
        reservations: Default::default(),
        kill_at_estimate: true,
        batsim: None,
        shifting: None,
    };
    let strategy = build(name, &settings, capacity).unwrap();
    let sim = simulate(Scenario::new(capacity, jobs, FailureStream::none(capacity), strategy)).unwrap();
    assert_eq!(sim.cluster.unresolved, 0);
    sim
}

fn rec(sim: &Simulated, id: usize) -> &JobRecord {
    &sim.cluster.records[id]
}

fn availability() -> f64 {
    1.0 / (1.0 + LAMBDA_H / MU_H)
}

fn survival(hours: f64) -> f64 {
    (-LAMBDA_H * hours).exp()
}

/// Paper A's worked example. The night is booked [22–03] (a promising 5-h job
/// A), [07–12], [12–17], [17–21] on all 32 nodes (t = 0 is 21:00). A new
/// promising 5-h job J for all nodes, released at 23:00, must end by 07:00.
/// maxPoF = 0.13: d' = 300/1.13 min = 4:25:30, o = 34:30. 4:25 does not fit
/// the 4-h gap [03–07], but A is promising too, so J's anchor moves 34:30
/// earlier: 02:25:30 + 4:25:30 = 06:51 ≤ 07:00 — accepted from 02:26.
#[test]
fn paper_a_worked_example_anchors_at_0226_with_4_26() {
    // Users overestimate: ratios uniform over 1–100 % (mean 50.5 % ≤ 1/1.13).
    let ratios: Vec<i64> = (1..=100).collect();
    let night = |a_runtime: f64, j_runtime: f64| {
        vec![
            job(0, 0.0, 1.0, 5.0, a_runtime, 32, 6.0),  // A, 22–03
            job(1, 0.0, 10.0, 5.0, 5.0, 32, 15.0),      // 07–12
            job(2, 0.0, 15.0, 5.0, 5.0, 32, 20.0),      // 12–17
            job(3, 0.0, 20.0, 4.0, 4.0, 32, 24.0),      // 17–21
            job(4, 0.0, 2.0, 5.0, j_runtime, 32, 10.0), // J
        ]
    };
    // Conservative backfilling rejects J (no 5-h gap before 07:00).
    let cb = run("conservative-backfilling", 32, night(5.0, 4.0), &ratios, 0.13);
    assert_eq!(rec(&cb, 4).outcome, Some(Outcome::Rejected));

    // A ends early at 02:00; J starts at once and completes.
    let sb = run("shortened-backfilling", 32, night(4.0, 4.0), &ratios, 0.13);
    let j = rec(&sb, 4);
    assert!(j.accepted && j.overbooked);
    let anchor = j.planned_start.unwrap();
    let shortened = slasim::single::policy::comprehensive::shortened(h(5.0), 0.13);
    assert_eq!(shortened, 4 * 3600 + 25 * 60 + 30, "d' = ⌈18000/1.13⌉ s = 4:25:30");
    assert_eq!(anchor, h(6.0) - (h(5.0) - shortened), "anchor 02:25:30");
    assert_eq!(j.planned_end, Some(h(10.0)), "killed at 07:00 at the latest");
    assert!(anchor + shortened <= h(10.0), "02:26 + 4:26 = 06:51 ≤ 07:00");
    assert_eq!((j.actual_start, j.outcome), (Some(h(5.0)), Some(Outcome::Success)));

    // A runs its full 5 h: J starts at 03:00 and has only 4 h until 07:00; a
    // 4.5-h run is killed before its estimate and the provider pays.
    let sb = run("shortened-backfilling", 32, night(5.0, 4.5), &ratios, 0.13);
    let j = rec(&sb, 4);
    assert_eq!((j.actual_start, j.actual_end), (Some(h(6.0)), Some(h(10.0))));
    assert_eq!(j.outcome, Some(Outcome::Failed));
    assert_eq!(j.penalty(&sb.cluster.records.jobs[4]), 32.0 * 5.0);
}

/// Comprehensive overbooking, by hand. P holds both nodes [0, 10 h) and ends
/// at 5 h or 10 h (ratios 50 % or 100 %, equally likely); B is booked at 16 h.
/// J (10 h, both nodes) occurs at 1 h and must end by 16 h: only the 6-h slot
/// [10 h, 16 h) is left. J may start when P ends (5 h or 10 h) and runs 5 or
/// 10 h: it ends by 16 h unless both take 10 h, so P_executable = 0.75 and
/// PoS = A² · 0.75 · e^(−2λ·6 h).
#[test]
fn comprehensive_pos_by_hand_decides_acceptance() {
    let ratios = [50, 100];
    let jobs = |p_runtime: f64, j_runtime: f64| {
        vec![
            job(0, 0.0, 0.0, 10.0, p_runtime, 2, 20.0), // P
            job(1, 0.0, 16.0, 1.0, 1.0, 2, 17.0),       // B
            job(2, 1.0, 1.0, 10.0, j_runtime, 2, 16.0), // J
        ]
    };
    let pos = availability().powi(2) * 0.75 * survival(6.0).powi(2);
    let sim = run("comprehensive-overbooking", 2, jobs(5.0, 10.0), &ratios, 0.3);
    let j = rec(&sim, 2);
    assert!(j.accepted && j.overbooked);
    assert!((j.pof.unwrap() - (1.0 - pos)).abs() < 1e-9, "PoF {} vs {}", j.pof.unwrap(), 1.0 - pos);
    assert_eq!((j.planned_start, j.planned_end), (Some(h(10.0)), Some(h(16.0))));
    // P ends at 5 h: J starts early on the freed nodes, is killed at
    // min(5 h + 10 h, 16 h) = 15 h at the latest, and completes its 10 h.
    assert_eq!((j.actual_start, j.actual_end, j.outcome), (Some(h(5.0)), Some(h(15.0)), Some(Outcome::Success)));
    // P runs its 10 h: J gets only [10 h, 16 h) and fails.
    let sim = run("comprehensive-overbooking", 2, jobs(10.0, 10.0), &ratios, 0.3);
    assert_eq!(rec(&sim, 2).outcome, Some(Outcome::Failed));
    // A stricter PoF_max (PoF ≈ 0.2515) rejects J.
    let sim = run("comprehensive-overbooking", 2, jobs(5.0, 10.0), &ratios, 0.25);
    assert_eq!(rec(&sim, 2).outcome, Some(Outcome::Rejected));
}

/// The heuristic by-hand case: on one node P holds [0, 10 h) and ends at
/// 5 h, B is booked at 16 h, and J (10 h, runs 10 h) occurs at 1 h and must
/// end by 16 h, leaving it the 6-h gap [10 h, 16 h).
fn one_node_gap_case() -> Vec<Job> {
    vec![
        job(0, 0.0, 0.0, 10.0, 5.0, 1, 20.0),  // P, ends at 5 h
        job(1, 0.0, 16.0, 1.0, 1.0, 1, 17.0),  // B at 16 h
        job(2, 1.0, 1.0, 10.0, 10.0, 1, 16.0), // J
    ]
}

/// Heuristic overbooking, by hand: the same situation on one node, counted
/// only. P_executable is J's own CDF at ⌊100·6/10⌋ = 60 %: 0.5, so
/// PoS = A · 0.5 · e^(−λ·6 h) ≈ 0.4996.
#[test]
fn heuristic_pos_by_hand_and_upgrade_on_replan() {
    let ratios = [50, 100];
    let jobs = one_node_gap_case();
    let pos = availability() * 0.5 * survival(6.0);
    let sim = run("heuristic-overbooking", 1, jobs.clone(), &ratios, 0.6);
    let j = rec(&sim, 2);
    assert!(j.accepted && j.overbooked);
    assert!((j.pof.unwrap() - (1.0 - pos)).abs() < 1e-12);
    // When P ends at 5 h the plan is compressed and J gets its full estimate
    // ([5 h, 15 h) ends before B): it succeeds although it runs 10 h.
    assert_eq!((j.actual_start, j.outcome), (Some(h(5.0)), Some(Outcome::Success)));
    assert!(!rec(&run("heuristic-overbooking", 1, jobs, &ratios, 0.4), 2).accepted);
}

/// Issue 17's ablation setting `replan_shortens`, one node, history ratios
/// 50 % and 100 %. P (10 h booked, runs 8 h) and B (fixed at 12–13 h by its
/// release and deadline) are planned; J (6 h, runs 3 h) arrives at 1 h and
/// takes the first full window, 13–19 h. When P ends at 8 h, the spec's
/// re-planning keeps J at 13 h (8–14 h would cross B). With the setting it
/// takes the earlier 4-h window 8–12 h, ratio 66 %: PoS = A · 0.5 · e^(−4λ),
/// PoF ≈ 0.5 < 0.6, and J, running 3 h, succeeds at 11 h.
#[test]
fn replanning_that_shortens_moves_a_full_booking_earlier() {
    let jobs = vec![
        job(0, 0.0, 0.0, 10.0, 8.0, 1, 20.0), // P
        job(1, 0.0, 12.0, 1.0, 1.0, 1, 13.0), // B
        job(2, 1.0, 1.0, 6.0, 3.0, 1, 30.0),  // J
    ];
    let ratios = [50, 100];
    let config = OverbookingConfig { pof_max: 0.6, ..OverbookingConfig::default() };
    let spec = run_with("heuristic-overbooking", 1, jobs.clone(), &ratios, config.clone());
    let j = rec(&spec, 2);
    assert_eq!((j.actual_start, j.overbooked, j.outcome), (Some(h(13.0)), false, Some(Outcome::Success)));
    let shortens = OverbookingConfig { replan_shortens: true, ..config };
    let sim = run_with("heuristic-overbooking", 1, jobs, &ratios, shortens);
    let j = rec(&sim, 2);
    assert_eq!((j.actual_start, j.actual_end, j.outcome), (Some(h(8.0)), Some(h(11.0)), Some(Outcome::Success)));
    assert_eq!(rec(&sim, 1).actual_start, Some(h(12.0)));
}

/// Issue 17's ablation setting `pos_at`, on the by-hand case above with
/// history ratios 10 % and 100 % (mean 0.55). At the gap start J's 6-h gap
/// reads its CDF at 60 %: 0.5, PoF ≈ 0.5, rejected at PoF_max 0.4. Read at
/// the likely start, 1 h + 0.55 · 9 h = 5.95 h, the window to 16 h holds J's
/// whole 10 h, so PoS = A · e^(−λ·10 h) and J is accepted, still booked on
/// the 6-h gap; P ends at 5 h and J gets its full estimate.
#[test]
fn pos_at_the_likely_start_accepts_what_the_gap_start_rejects() {
    let ratios = [10, 100];
    let jobs = one_node_gap_case();
    let config = OverbookingConfig { pof_max: 0.4, ..OverbookingConfig::default() };
    let spec = run_with("heuristic-overbooking", 1, jobs.clone(), &ratios, config.clone());
    assert_eq!(rec(&spec, 2).outcome, Some(Outcome::Rejected));
    let likely = OverbookingConfig { pos_at: PosAt::LikelyStart, ..config };
    let sim = run_with("heuristic-overbooking", 1, jobs, &ratios, likely);
    let j = rec(&sim, 2);
    assert!(j.accepted && j.overbooked);
    assert_eq!((j.planned_start, j.planned_end), (Some(h(10.0)), Some(h(16.0))));
    let pof = 1.0 - availability() * survival(10.0);
    assert!((j.pof.unwrap() - pof).abs() < 1e-12, "PoF {} vs {pof}", j.pof.unwrap());
    assert_eq!((j.actual_start, j.outcome), (Some(h(5.0)), Some(Outcome::Success)));
}

/// The acceptance test only applies to overbooked placements: a full gap is
/// always taken, whatever PoF_max (spec §4).
#[test]
fn full_gaps_need_no_test() {
    let jobs = vec![job(0, 0.0, 0.0, 2.0, 2.0, 4, 4.0)];
    for name in ["comprehensive-overbooking", "heuristic-overbooking"] {
        let sim = run(name, 4, jobs.clone(), &[100], 0.0);
        let r = rec(&sim, 0);
        assert!(r.accepted && !r.overbooked, "{name}");
        // Its PoF is the failure risk alone: 1 − A⁴·e^(−4λ·2 h).
        let pof = 1.0 - availability().powi(4) * survival(2.0).powi(4);
        assert!((r.pof.unwrap() - pof).abs() < 1e-9, "{name}: {}", r.pof.unwrap());
    }
}
