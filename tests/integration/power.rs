//! Node power states: a schedule worked out by hand, the power cap over
//! random workloads and failures, and what a run without a power model
//! must not change.

use crate::common;

use proptest::prelude::*;
use slasim::single::cluster::ExecutionRecord;
use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::cluster::energy::{EnergyConfig, SleepState};
use slasim::single::cluster::power::{PowerEventRecord, PowerState};
use slasim::single::cluster::record::{NodeEventRecord, Outcome};
use slasim::single::policy::energy::{EnergyPolicyRef, EnergyPolicySettings, PowerManager};
use slasim::single::policy::{Strategy, StrategySettings, build};
use slasim::single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim::single::workload::job::Job;
use slasim::units::Time;

const SLEEP: SleepState = SleepState {
    watts: 5.0,
    switch_off_seconds: 10,
    switch_off_joules: 200.0,
    switch_on_seconds: 20,
    switch_on_joules: 1000.0,
};

fn model() -> EnergyConfig {
    EnergyConfig { sleep: Some(SLEEP), ..EnergyConfig::watts(100.0, 200.0, 0.0) }
}

fn policy(name: &str, idle_timeout: Time) -> EnergyPolicySettings {
    EnergyPolicySettings { name: EnergyPolicyRef::named(name).unwrap(), idle_timeout }
}

fn strategy(name: &str, jobs: &[Job], capacity: u32) -> Box<dyn Strategy> {
    let settings = StrategySettings { kill_at_estimate: true, ..common::settings(name, Default::default(), jobs, 0.1) };
    build(name, &settings, capacity).unwrap()
}

fn run(
    name: &str,
    capacity: u32,
    jobs: Vec<Job>,
    failures: FailureStream,
    energy: EnergyConfig,
    settings: EnergyPolicySettings,
) -> Simulated {
    let inner = strategy(name, &jobs, capacity);
    let managed: Box<dyn Strategy> = Box::new(PowerManager::new(inner, &settings));
    simulate(Scenario { energy: Some(energy), ..Scenario::new(capacity, jobs, failures, managed) }).unwrap()
}

/// FCFS on 2 nodes, idle shutdown after 10 s; a node draws 100 W idle,
/// 200 W busy, 5 W asleep; switching off takes 10 s and 200 J (20 W),
/// switching on 20 s and 1,000 J (50 W).
/// - j0: submitted at 0, 1 node, 30 s: node 0 over [0, 30).
/// - node 1 idle since 0: switching off over [10, 20), asleep from 20.
/// - node 0 idle since 30: switching off over [40, 50), asleep from 50.
/// - j1: submitted at 100, 2 nodes, 50 s: both nodes asleep, so both are
///   switched on over [100, 120), and j1 runs over [120, 170).
#[test]
fn a_switch_off_a_sleep_a_switch_on_and_a_job_by_hand() {
    let jobs = vec![Job::without_sla(0, 0, 1, 30, 30), Job::without_sla(1, 100, 2, 50, 50)];
    let sim = run("fcfs", 2, jobs, FailureStream::none(2), model(), policy("idle-shutdown", 10));
    let r = &sim.cluster.records;
    assert_eq!((r[0].actual_start, r[0].actual_end), (Some(0), Some(30)));
    assert_eq!((r[1].actual_start, r[1].actual_end), (Some(120), Some(170)));
    assert!(r.iter().all(|(_, r)| r.outcome == Some(Outcome::Success)));
    // The window is the makespan, [0, 170):
    //   node 0: busy [0, 30), idle [30, 40), switching off [40, 50),
    //           asleep [50, 100), switching on [100, 120), busy [120, 170)
    //   node 1: idle [0, 10), switching off [10, 20), asleep [20, 100),
    //           switching on [100, 120), busy [120, 170)
    // idle          10 + 10       =  20 node-s × 100 W =  2,000 J
    // busy          30 + 50 + 50  = 130 node-s × 200 W = 26,000 J
    // switching off 10 + 10       =  20 node-s ×  20 W =    400 J (2 × 200 J)
    // asleep        50 + 80       = 130 node-s ×   5 W =    650 J
    // switching on  20 + 20       =  40 node-s ×  50 W =  2,000 J (2 × 1,000 J)
    // total 340 node-s (2 × 170), 31,050 J
    let e = sim.energy.unwrap();
    let per_state: Vec<(f64, f64)> = e.states.to_vec();
    assert_eq!(
        per_state,
        [(20.0, 2_000.0), (130.0, 26_000.0), (0.0, 0.0), (20.0, 400.0), (130.0, 650.0), (40.0, 2_000.0)]
    );
    assert_eq!(e.joules, 31_050.0);
    assert_eq!(e.switches, (2, 2));
    // The transitions as applied (the pictures' input), up to the last end.
    let events: Vec<(Time, u32, PowerState)> =
        sim.cluster.power_events.iter().filter(|p| p.time <= 170).map(|p| (p.time, p.node, p.state)).collect();
    assert_eq!(
        events,
        [
            (10, 1, PowerState::SwitchingOff),
            (20, 1, PowerState::Asleep),
            (40, 0, PowerState::SwitchingOff),
            (50, 0, PowerState::Asleep),
            (100, 0, PowerState::SwitchingOn),
            (100, 1, PowerState::SwitchingOn),
            (120, 0, PowerState::On),
            (120, 1, PowerState::On),
        ]
    );
}

/// A reservation-like case the plan knows in advance: j1 is submitted at 10
/// with a release far ahead (it may not start before 300). Planned wake-up
/// wakes the nodes at 280; idle shutdown finds them asleep at 300.
#[test]
fn planned_wakeup_wakes_in_time_for_a_known_future_start() {
    let mut j1 = Job::without_sla(1, 10, 2, 50, 50);
    j1.release = 300;
    let jobs = vec![Job::without_sla(0, 0, 2, 100, 100), j1];
    let reactive = run("conservative", 2, jobs.clone(), FailureStream::none(2), model(), policy("idle-shutdown", 0));
    let planned = run("conservative", 2, jobs, FailureStream::none(2), model(), policy("planned-wakeup", 0));
    assert_eq!(planned.cluster.records[1].actual_start, Some(300), "woken at 280, on at 300");
    assert!(reactive.cluster.records[1].actual_start.unwrap() >= 320, "woken on demand at 300");
    let on_at_280 = planned.cluster.power_events.iter().filter(|p| p.time == 280 && p.state == PowerState::SwitchingOn);
    assert_eq!(on_at_280.count(), 2);
}

/// Every node's state at every change, from the records alone, and the
/// watts the cluster draws then.
fn drawn_power(
    capacity: u32,
    energy: &EnergyConfig,
    executions: &[ExecutionRecord],
    power: &[PowerEventRecord],
    failures: &[NodeEventRecord],
) -> Vec<(Time, f64)> {
    let mut times: Vec<Time> = executions.iter().flat_map(|e| [e.start, e.end]).collect();
    times.extend(power.iter().map(|p| p.time));
    times.extend(failures.iter().map(|f| f.time));
    times.sort_unstable();
    times.dedup();
    let sleep = energy.sleep.unwrap_or(SLEEP);
    times
        .into_iter()
        .map(|t| {
            let watts = (0..capacity)
                .map(|node| {
                    let down = failures.iter().rfind(|f| f.node == node && f.time <= t);
                    if down.is_some_and(|f| f.kind == NodeEventKind::Fail) {
                        return energy.down_watts;
                    }
                    if executions.iter().any(|e| e.start <= t && t < e.end && e.nodes.contains(&node)) {
                        return energy.busy_watts;
                    }
                    match power.iter().rfind(|p| p.node == node && p.time <= t).map(|p| p.state) {
                        Some(PowerState::SwitchingOff) => sleep.switch_off_watts(),
                        Some(PowerState::Asleep) => sleep.watts,
                        Some(PowerState::SwitchingOn) => sleep.switch_on_watts(),
                        _ => energy.idle_watts,
                    }
                })
                .sum();
            (t, watts)
        })
        .collect()
}

fn workload(shapes: &[(Time, u32, Time)]) -> Vec<Job> {
    let mut t = 0;
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(gap, nodes, runtime))| {
            t += gap;
            Job::without_sla(i as u32, t, nodes, runtime, runtime)
        })
        .collect()
}

proptest! {
    #![proptest_config(common::testing::cases(100))]

    /// Whatever the jobs, failures, cap and policy: the drawn power never
    /// exceeds the cap at any instant; with a cap that admits the widest job
    /// on an otherwise idle machine, every job ends.
    #[test]
    fn a_power_cap_is_never_exceeded(
        shapes in prop::collection::vec((0i64..200, 1u32..=6, 1i64..300), 1..25),
        fails in prop::collection::vec((0i64..3000, 0u32..6, 1i64..400), 0..4),
        headroom in 0.0f64..1.0,
        which in 0usize..3,
        timeout in prop::sample::select(vec![0i64, 30, 600]),
    ) {
        let capacity = 6;
        let jobs = workload(&shapes);
        let widest = jobs.iter().map(|j| j.nodes).max().unwrap_or(1);
        let energy = model();
        // The least cap that runs the widest job beside idle nodes, and up to twice that.
        let least = f64::from(capacity - widest) * energy.idle_watts + f64::from(widest) * energy.busy_watts;
        let cap = least * (1.0 + headroom);
        let energy = EnergyConfig { cap_watts: Some(cap), ..energy };
        let mut events: Vec<NodeEvent> = Vec::new();
        for &(at, node, repair) in &fails {
            events.push(NodeEvent { time: at, kind: NodeEventKind::Fail, node });
            events.push(NodeEvent { time: at + repair, kind: NodeEventKind::Repair, node });
        }
        events.sort_by_key(|e| (e.time, e.node));
        // Failures only for a strategy that models them.
        let (name, failures) = match which {
            0 => ("fcfs", FailureStream::none(capacity)),
            1 => ("easy", FailureStream::none(capacity)),
            _ => ("heuristic-planning", FailureStream { nodes: capacity, events, source_records: 0 }),
        };
        let policies = ["none", "idle-shutdown", "planned-wakeup"];
        let sim = run(name, capacity, jobs.clone(), failures, energy, policy(policies[which], timeout));
        let c = &sim.cluster;
        for (t, watts) in drawn_power(capacity, &energy, &c.executions, &c.power_events, &c.node_events) {
            prop_assert!(watts <= cap + 1e-6, "{watts} W at {t} above the cap {cap} W ({name})");
        }
        prop_assert_eq!(c.unresolved, 0);
        prop_assert!(c.records.records.iter().all(|r| r.outcome.is_some()));
        if which < 2 {
            prop_assert!(c.records.records.iter().all(|r| r.outcome == Some(Outcome::Success)), "{name}: every job ran");
        }
    }
}

/// The same schedule and records without a power model; a meter alone
/// changes nothing either.
#[test]
fn without_sleep_or_cap_nothing_changes() {
    let jobs = vec![Job::without_sla(0, 0, 1, 30, 30), Job::without_sla(1, 100, 2, 50, 50)];
    let plain = simulate(Scenario::new(2, jobs.clone(), FailureStream::none(2), strategy("fcfs", &jobs, 2))).unwrap();
    let metered = simulate(Scenario {
        energy: Some(EnergyConfig::watts(100.0, 200.0, 0.0)),
        ..Scenario::new(2, jobs.clone(), FailureStream::none(2), strategy("fcfs", &jobs, 2))
    })
    .unwrap();
    assert_eq!(plain.cluster.records, metered.cluster.records);
    assert!(metered.cluster.power_events.is_empty());
}

#[test]
fn bad_power_models_are_located_errors() {
    let base = model();
    let cases = [
        (EnergyConfig { idle_watts: -1.0, ..base }, "energy.idle_watts"),
        (
            EnergyConfig { sleep: Some(SleepState { switch_on_seconds: -5, ..SLEEP }), ..base },
            "energy.sleep.switch_on_seconds",
        ),
        (EnergyConfig { sleep: Some(SleepState { watts: 150.0, ..SLEEP }), ..base }, "energy.sleep.watts"),
        (EnergyConfig { cap_watts: Some(50.0), ..base }, "energy.cap_watts"),
        (EnergyConfig { down_watts: 20.0, cap_watts: Some(1000.0), ..base }, "energy.down_watts"),
        (
            EnergyConfig { sleep: Some(SleepState { switch_off_seconds: 0, ..SLEEP }), ..base },
            "energy.sleep.switch_off_joules",
        ),
    ];
    for (bad, setting) in cases {
        let err = bad.validate().unwrap_err().to_string();
        assert!(err.contains(setting), "{setting}: {err}");
    }
    assert!(base.validate().is_ok());
}
