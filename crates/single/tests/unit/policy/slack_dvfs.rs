//! DVFS: schedules worked out by hand, work conservation and deadlines over
//! random workloads, and malformed pstates.

use proptest::prelude::*;
use slasim_core::units::{JobId, NodeId, Time};
use slasim_single::cluster::bench::{Scenario, Simulated, simulate};
use slasim_single::cluster::energy::{EnergyConfig, Pstate, Pstates};
use slasim_single::cluster::record::Outcome;
use slasim_single::cluster::strategy::{Booking, Cluster, Strategy};
use slasim_single::policy::energy::{EnergyPolicyRef, EnergyPolicySettings, PowerManager};
use slasim_single::policy::{StrategySettings, build};
use slasim_single::stats::pos::Reliability;
use slasim_single::workload::failure_law::FailureLaw;
use slasim_single::workload::failures::FailureStream;
use slasim_single::workload::job::Job;

/// Pstate 0: 1.0, 100 W idle, 200 W busy; pstate 1: 0.5, 60 W idle, 80 W
/// busy (160 J per nominal second against 200: slower is cheaper).
fn model() -> EnergyConfig {
    let pstates =
        Pstates::new(&[Pstate::nominal(100.0, 200.0), Pstate { speed: 0.5, idle_watts: 60.0, busy_watts: 80.0 }])
            .unwrap();
    EnergyConfig { pstates, ..EnergyConfig::watts(100.0, 200.0, 0.0) }
}

fn settings() -> StrategySettings {
    let lambda = 1e-9;
    StrategySettings {
        placement: Default::default(),
        reliability: Reliability::new(lambda, 1e-3, FailureLaw::exponential(lambda).unwrap()),
        overbooking: None,
        reservations: Default::default(),
        // Killed at the estimate, a job would have no slack to slow into.
        kill_at_estimate: false,
        batsim: None,
        shifting: None,
    }
}

fn run(name: &str, capacity: u32, jobs: Vec<Job>, energy: EnergyConfig, policy: &str) -> Simulated {
    let inner = build(name, &settings(), capacity).unwrap();
    let policy = EnergyPolicySettings { name: EnergyPolicyRef::named(policy).unwrap(), idle_timeout: 0 };
    let managed: Box<dyn Strategy> = Box::new(PowerManager::new(inner, &policy));
    simulate(Scenario { energy: Some(energy), ..Scenario::new(capacity, jobs, FailureStream::none(capacity), managed) })
        .unwrap()
}

fn job(id: u32, submit: Time, nodes: u32, work: Time, deadline: Time) -> Job {
    Job { deadline, ..Job::without_sla(id, submit, nodes, work, work) }
}

/// FCFS on 1 node, `slack-dvfs`, both jobs submitted at 0 with exact estimates:
/// - j0: work 100, deadline 250. At 0.5 it ends at 0 + 100 / 0.5 = 200 ≤ 250:
///   slowed, runs [0, 200) at 80 W → 16,000 J (at 1.0: 100 s × 200 W = 20,000 J).
/// - j1: work 50, deadline 260, starts at 200. At 0.5 it would end at 300 >
///   260: back to pstate 0, runs [200, 250) at 200 W → 10,000 J.
///
/// The window [0, 250) has no idle second: 250 busy node-seconds, 26,000 J.
#[test]
fn a_slowed_job_and_one_without_slack_by_hand() {
    let jobs = vec![job(0, 0, 1, 100, 250), job(1, 0, 1, 50, 260)];
    let sim = run("fcfs", 1, jobs, model(), "slack-dvfs");
    let r = &sim.cluster.records;
    assert_eq!((r[0].actual_start, r[0].actual_end), (Some(0), Some(200)));
    assert_eq!((r[1].actual_start, r[1].actual_end), (Some(200), Some(250)));
    assert!(r.iter().all(|(_, r)| r.outcome == Some(Outcome::Success)));
    let e = sim.energy.unwrap();
    assert_eq!(e.states[0], (0.0, 0.0));
    assert_eq!(e.states[1], (250.0, 26_000.0));
    assert_eq!(e.joules, 26_000.0);
    // j1 started on the node j0 left in pstate 1, and was put back at once.
    let speeds: Vec<(Time, JobId, f64)> = sim.cluster.speeds.iter().map(|s| (s.time, s.job, s.speed)).collect();
    assert_eq!(speeds, [(0, 0, 1.0), (0, 0, 0.5), (200, 1, 0.5), (200, 1, 1.0)]);
    // Without the policy: [0, 100) and [100, 150), 150 s × 200 W.
    let plain = run("fcfs", 1, vec![job(0, 0, 1, 100, 250), job(1, 0, 1, 50, 260)], model(), "none");
    assert_eq!(plain.cluster.records[1].actual_end, Some(150));
    assert_eq!(plain.energy.unwrap().joules, 30_000.0);
}

/// Starts each job at once on the lowest nodes, killed at `kill`, and at
/// 40 puts node 0 in pstate 1 (a remote scheduler's SET_RESOURCE_STATE).
struct SlowAt40 {
    kill: Time,
    nodes: Vec<NodeId>,
}

impl Strategy for SlowAt40 {
    fn submit(&mut self, c: &mut dyn Cluster, job: JobId) {
        let (now, j) = (c.now(), *c.job(job));
        assert!(c.idle_nodes(j.nodes, &mut self.nodes));
        assert!(c.start(job, &self.nodes, now + self.kill));
        c.accept(job, Booking { start: now, end: now + j.estimate, overbooked: false, pof: None });
        c.wake_at(40);
    }
    fn wake(&mut self, c: &mut dyn Cluster) {
        c.set_pstate(0, 1).unwrap();
    }
    fn job_ended(&mut self, _: &mut dyn Cluster, _: JobId) {}
    fn node_failed(&mut self, _: &mut dyn Cluster, _: NodeId, _: Option<JobId>) {}
    fn node_repaired(&mut self, _: &mut dyn Cluster, _: NodeId) {}
}

fn slowed_at_40(kill: Time) -> Simulated {
    let jobs = vec![Job::without_sla(0, 0, 1, 100, 100)];
    let strategy: Box<dyn Strategy> = Box::new(SlowAt40 { kill, nodes: Vec::new() });
    simulate(Scenario { energy: Some(model()), ..Scenario::new(1, jobs, FailureStream::none(1), strategy) }).unwrap()
}

/// A job of work 100 on node 0 from 0: 40 done at speed 1 by 40, the 60
/// left at 0.5 take 120 s, so it ends at 160. Busy 40 s × 200 W + 120 s ×
/// 80 W = 8,000 + 9,600 = 17,600 J.
#[test]
fn a_pstate_change_under_a_running_job_keeps_its_work() {
    let sim = slowed_at_40(1000);
    let r = &sim.cluster.records[0];
    assert_eq!((r.actual_start, r.actual_end, r.outcome), (Some(0), Some(160), Some(Outcome::Success)));
    assert_eq!(sim.energy.unwrap().joules, 17_600.0);
}

/// The wall-time limit is wall time: killed at 100 after 40 + 60 × 0.5 = 70
/// of its 100 seconds of work, the job failed (it got less than its estimate).
#[test]
fn slowing_past_the_limit_kills_the_job_short_of_its_work() {
    let sim = slowed_at_40(100);
    let r = &sim.cluster.records[0];
    assert_eq!((r.actual_end, r.outcome), (Some(100), Some(Outcome::Failed)));
}

#[test]
fn without_pstates_a_point_keeps_its_text() {
    let plain = EnergyConfig::watts(100.0, 200.0, 0.0);
    let text = toml::to_string(&plain).unwrap();
    assert!(!text.contains("pstates"), "{text}");
    let back: EnergyConfig = toml::from_str(&text).unwrap();
    assert_eq!(back, plain);
    let with = model();
    let back: EnergyConfig = toml::from_str(&toml::to_string(&with).unwrap()).unwrap();
    assert_eq!(back, with);
}

const BASE: &str = "idle_watts = 100.0\nbusy_watts = 200.0\ndown_watts = 0.0\n";

/// Malformed pstates are refused at their entry, naming the field.
#[test]
fn malformed_pstates_are_refused_where_they_are_written() {
    let p0 = "\n[[pstates]]\nspeed = 1.0\nidle_watts = 100.0\nbusy_watts = 200.0\n";
    let cases = [
        (format!("{p0}\n[[pstates]]\nspeed = -0.5\nidle_watts = 50.0\nbusy_watts = 80.0\n"), "pstates[1]: `speed`"),
        (format!("{p0}\n[[pstates]]\nspeed = 0.0\nidle_watts = 50.0\nbusy_watts = 80.0\n"), "pstates[1]: `speed`"),
        (format!("{p0}\n[[pstates]]\nspeed = 0.5\nidle_watts = 50.0\n"), "`busy_watts`"),
        (format!("{p0}\n[[pstates]]\nspeed = 0.5\nidle_watts = -1.0\nbusy_watts = 80.0\n"), "pstates[1]: `idle_watts`"),
        ("\n[[pstates]]\nspeed = 2.0\nidle_watts = 100.0\nbusy_watts = 200.0\n".to_string(), "pstates[0]: `speed`"),
    ];
    // At the pstates (line 5, the first `[[pstates]]`), naming the pstate and
    // the field (a config's locator then moves it to that entry).
    for (pstates, field) in cases {
        let text = format!("{BASE}{pstates}");
        let err = toml::from_str::<EnergyConfig>(&text).unwrap_err();
        assert!(err.message().contains(field), "{field}: {}", err.message());
        let at = err.span().expect("located").start;
        let line = text[..at].matches('\n').count() + 1;
        assert!(line >= 5, "{field}: line {line} of\n{text}");
    }
    // Pstate 0 is nominal: its watts are [energy]'s.
    let text = format!("{BASE}\n[[pstates]]\nspeed = 1.0\nidle_watts = 90.0\nbusy_watts = 200.0\n");
    let e: EnergyConfig = toml::from_str(&text).unwrap();
    assert!(e.validate().unwrap_err().to_string().contains("energy.idle_watts"));
}

fn workload(shapes: &[(Time, u32, Time, Time)]) -> Vec<Job> {
    let mut t = 0;
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(gap, nodes, work, slack))| {
            t += gap;
            job(i as u32, t, nodes, work, t + work + slack)
        })
        .collect()
}

proptest! {
    #![proptest_config(crate::testing::cases(64))]

    /// With exact estimates and random pstates: every execution's work is
    /// conserved (Σ speed × seconds over its speeds is its work, up to the
    /// last second's rounding up), and a slowed job ends by its deadline
    /// whenever it met it unslowed.
    #[test]
    fn dvfs_conserves_work_and_keeps_met_deadlines(
        shapes in prop::collection::vec((0i64..200, 1u32..=4, 1i64..300, 0i64..600), 1..20),
        speeds in prop::collection::vec((0.1f64..1.0, 0.0f64..100.0, 0.0f64..200.0), 1..4),
        easy in any::<bool>(),
    ) {
        let capacity = 4;
        let mut list = vec![Pstate::nominal(100.0, 200.0)];
        list.extend(speeds.iter().map(|&(speed, idle, busy)| Pstate { speed, idle_watts: idle, busy_watts: busy }));
        let energy = EnergyConfig { pstates: Pstates::new(&list).unwrap(), ..EnergyConfig::watts(100.0, 200.0, 0.0) };
        let jobs = workload(&shapes);
        let name = if easy { "easy" } else { "fcfs" };
        let slowed = run(name, capacity, jobs.clone(), energy, "slack-dvfs");
        let plain = run(name, capacity, jobs.clone(), energy, "none");
        // A job still running at the last deadline (the run's horizon) has
        // no execution here: only what ended is checked.
        let c = &slowed.cluster;
        for e in &c.executions {
            let mut marks: Vec<(Time, f64)> =
                c.speeds.iter().filter(|s| s.job == e.job && s.time >= e.start && s.time <= e.end).map(|s| (s.time, s.speed)).collect();
            marks.push((e.end, 0.0));
            let work: f64 = marks.windows(2).map(|w| (w[1].0 - w[0].0) as f64 * w[0].1).sum();
            let job = &jobs[e.job as usize];
            let last = marks[marks.len() - 2].1;
            prop_assert!(work >= job.runtime as f64 - 1e-6 && work < job.runtime as f64 + last + 1e-6,
                "job {}: {} of work {} done ({:?})", e.job, work, job.runtime, marks);
            // Slowed: some time at a speed below 1 (a job started on a node
            // left slow and put back at once was not).
            let was_slowed = marks.windows(2).any(|w| w[0].1 < 1.0 && w[1].0 > w[0].0);
            let met_unslowed = plain.cluster.records[e.job as usize].actual_end.is_some_and(|end| end <= job.deadline);
            if was_slowed && met_unslowed {
                prop_assert!(e.end <= job.deadline, "job {} slowed past its deadline {}: {}", e.job, job.deadline, e.end);
            }
        }
    }
}
