//! The `batsim` strategy against schedulers written here in Rust (a ZeroMQ
//! REP socket on 127.0.0.1, as pybatsim binds one): a correct FCFS gives the
//! built-in FCFS's schedule, and every misbehaviour — double allocation, an
//! unknown job, garbage JSON, no answer, a scheduler that exits — ends the
//! point with an error naming the decision, the job and the simulated time,
//! with nothing stored. Batsim JSON workloads round-trip.

use crate::common;

use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use slasim::sim::kernel::SimError;
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::batsim::BatsimConfig;
use slasim::single::policy::{Placement, StrategySettings};
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;
use slasim::units::Time;
use zeromq::{RepSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

/// What a test scheduler does with one request: a reply, or no reply at all.
type Answer = Box<dyn FnMut(&Value) -> Option<String> + Send>;

/// A scheduler on its own thread, bound to a free loopback port.
struct TestScheduler {
    endpoint: String,
    done: mpsc::Receiver<Vec<Value>>,
}

impl TestScheduler {
    fn start(mut answer: Answer) -> TestScheduler {
        let (ep_tx, ep_rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                let mut socket = RepSocket::new();
                let endpoint = socket.bind("tcp://127.0.0.1:0").await.unwrap();
                ep_tx.send(endpoint.to_string()).unwrap();
                let mut seen = Vec::new();
                loop {
                    // Bounded: a test never leaves a thread behind for long.
                    let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_secs(60), socket.recv()).await else { break };
                    let text = String::try_from(msg).unwrap();
                    let request: Value = serde_json::from_str(&text).unwrap();
                    let ends = request["events"].as_array().unwrap().iter().any(|e| e["type"] == "SIMULATION_ENDS");
                    let reply = answer(&request);
                    seen.push(request);
                    match reply {
                        Some(r) => socket.send(ZmqMessage::from(r)).await.unwrap(),
                        None => {
                            // Never answer; wait for the simulator to give up.
                            tokio::time::sleep(Duration::from_secs(5)).await;
                            break;
                        }
                    }
                    if ends {
                        break;
                    }
                }
                let _ = done_tx.send(seen);
            });
        });
        TestScheduler { endpoint: ep_rx.recv().unwrap(), done: done_rx }
    }

    fn requests(self) -> Vec<Value> {
        self.done.recv_timeout(Duration::from_secs(30)).unwrap_or_default()
    }
}

fn reply(now: f64, events: Vec<Value>) -> String {
    json!({"now": now, "events": events}).to_string()
}

fn execute(now: f64, job: &str, alloc: &str) -> Value {
    json!({"timestamp": now, "type": "EXECUTE_JOB", "data": {"job_id": job, "alloc": alloc}})
}

/// FCFS in Rust: lowest free machines, the head blocks.
fn fcfs(capacity: u32) -> Answer {
    let mut free: BTreeSet<u32> = (0..capacity).collect();
    let mut queue: VecDeque<(String, u32)> = VecDeque::new();
    let mut allocs: std::collections::HashMap<String, Vec<u32>> = Default::default();
    Box::new(move |request| {
        let now = request["now"].as_f64().unwrap();
        let mut out = Vec::new();
        for e in request["events"].as_array().unwrap() {
            match e["type"].as_str().unwrap() {
                "JOB_SUBMITTED" => {
                    let id = e["data"]["job_id"].as_str().unwrap().to_string();
                    let res = e["data"]["job"]["res"].as_u64().unwrap() as u32;
                    if res > capacity {
                        out.push(json!({"timestamp": now, "type": "REJECT_JOB", "data": {"job_id": id}}));
                    } else {
                        queue.push_back((id, res));
                    }
                }
                "JOB_COMPLETED" => {
                    let id = e["data"]["job_id"].as_str().unwrap();
                    free.extend(allocs.remove(id).unwrap());
                }
                _ => {}
            }
        }
        while let Some((id, res)) = queue.front().cloned() {
            if res as usize > free.len() {
                break;
            }
            queue.pop_front();
            let nodes: Vec<u32> = free.iter().copied().take(res as usize).collect();
            for n in &nodes {
                free.remove(n);
            }
            let alloc = slasim::single::policy::batsim::protocol::IntervalSet::from_nodes(&nodes).to_string();
            out.push(execute(now, &id, &alloc));
            allocs.insert(id, nodes);
        }
        Some(reply(now, out))
    })
}

/// Twelve jobs on 4 machines: waits, a walltime kill, a too-wide job, equal submission times.
fn jobs() -> Vec<Job> {
    let spec: [(Time, u32, Time, Time); 12] = [
        (0, 2, 100, 50),
        (0, 2, 100, 120),
        (10, 3, 40, 30),
        (10, 1, 30, 30),
        (20, 5, 10, 5),
        (30, 4, 60, 20),
        (30, 1, 10, 10),
        (200, 2, 50, 0),
        (200, 2, 50, 49),
        (201, 4, 50, 20),
        (400, 1, 5, 5),
        (400, 3, 8, 2),
    ];
    spec.iter().enumerate().map(|(i, &(o, n, x, w))| Job::without_sla(i as u32, o, n, x, w)).collect()
}

fn settings(batsim: Option<BatsimConfig>) -> StrategySettings {
    StrategySettings { batsim: batsim.map(Arc::new), ..common::settings("fcfs", Placement::BestFit, &[], 0.1) }
}

fn run_batsim(
    endpoint: &str,
    timeout: f64,
    jobs: Vec<Job>,
) -> Result<slasim::single::cluster::bench::Simulated, SimError> {
    let config = BatsimConfig { endpoint: Some(endpoint.to_string()), timeout, ..BatsimConfig::default() };
    let strategy = slasim::single::policy::build("batsim", &settings(Some(config)), 4).unwrap();
    simulate(Scenario::new(4, jobs, FailureStream::none(4), strategy))
}

#[test]
fn a_correct_fcfs_gives_the_builtin_schedule_and_batsim_messages() {
    let scheduler = TestScheduler::start(fcfs(4));
    let ours = run_batsim(&scheduler.endpoint, 10.0, jobs()).unwrap();
    let builtin = slasim::single::policy::build("fcfs", &settings(None), 4).unwrap();
    let theirs = simulate(Scenario::new(4, jobs(), FailureStream::none(4), builtin)).unwrap();
    let starts = |s: &slasim::single::cluster::bench::Simulated| {
        s.cluster.records.iter().map(|(_, r)| (r.actual_start, r.actual_end, r.outcome)).collect::<Vec<_>>()
    };
    assert_eq!(starts(&ours), starts(&theirs));
    // The wide job was rejected, and by the scheduler.
    assert_eq!(ours.cluster.records[4].reject_reason, Some(slasim::single::policy::RejectReason::TooWide));
    assert_eq!(common::double_booking(&ours.cluster.executions), None);
    let requests = scheduler.requests();
    let types = |r: &Value| -> Vec<String> {
        r["events"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(types(&requests[0]), ["SIMULATION_BEGINS"]);
    let begins = &requests[0]["events"][0]["data"];
    assert_eq!(begins["nb_compute_resources"], 4);
    assert_eq!(begins["profiles"]["w0"]["delay120"]["delay"], 120.0);
    // Both jobs of t = 0 travel in one message; t = 10 has two submissions.
    assert_eq!(types(&requests[1]), ["JOB_SUBMITTED", "JOB_SUBMITTED"]);
    // The instant 0 goes out as 1 µs (pybatsim's scheduler API cannot allocate at 0).
    assert_eq!(requests[1]["now"], 1e-6);
    let job = &requests[1]["events"][1]["data"]["job"];
    assert_eq!(job, &json!({"id": "w0!1", "subtime": 0.0, "res": 2, "walltime": 100.0, "profile": "delay120"}));
    // Job 1 (runtime 120, walltime 100) is killed at its walltime; job 0 completes at 50.
    let completed: Vec<(f64, String, String)> = requests
        .iter()
        .flat_map(|r| r["events"].as_array().unwrap().clone())
        .filter(|e| e["type"] == "JOB_COMPLETED")
        .map(|e| {
            (
                e["timestamp"].as_f64().unwrap(),
                e["data"]["job_id"].as_str().unwrap().to_string(),
                e["data"]["job_state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(completed.contains(&(50.0, "w0!0".into(), "COMPLETED_SUCCESSFULLY".into())), "{completed:?}");
    assert!(completed.contains(&(100.0, "w0!1".into(), "COMPLETED_WALLTIME_REACHED".into())), "{completed:?}");
    assert_eq!(types(requests.last().unwrap()), ["SIMULATION_ENDS"]);
    // One message per instant, everything of the instant in it; a job of run
    // time 0 started at 200 completes at 200, after the message that started it.
    let summary: Vec<(f64, Vec<String>)> = requests.iter().map(|r| (r["now"].as_f64().unwrap(), types(r))).collect();
    let (s, c) = ("JOB_SUBMITTED", "JOB_COMPLETED");
    let expected: Vec<(f64, Vec<&str>)> = vec![
        (1e-6, vec!["SIMULATION_BEGINS"]),
        (1e-6, vec![s, s]),
        (10.0, vec![s, s]),
        (20.0, vec![s]),
        (30.0, vec![s, s]),
        (50.0, vec![c]),
        (100.0, vec![c]),
        (130.0, vec![c, c]),
        (150.0, vec![c]),
        (160.0, vec![c]),
        (200.0, vec![s, s]),
        (200.0, vec![c]),
        (201.0, vec![s]),
        (249.0, vec![c]),
        (269.0, vec![c]),
        (400.0, vec![s, s]),
        (402.0, vec![c]),
        (405.0, vec![c]),
        (405.0, vec!["SIMULATION_ENDS"]),
    ];
    let expected: Vec<(f64, Vec<String>)> =
        expected.into_iter().map(|(t, v)| (t, v.into_iter().map(String::from).collect())).collect();
    assert_eq!(summary, expected);
}

/// Runs a misbehaving scheduler and returns the error's text.
fn misbehaving(timeout: f64, answer: Answer) -> String {
    let scheduler = TestScheduler::start(answer);
    let err = run_batsim(&scheduler.endpoint, timeout, jobs()).expect_err("the point must fail");
    err.to_string()
}

/// Answers SIMULATION_BEGINS, then `then` for every later request.
fn after_begin(mut then: impl FnMut(&Value) -> Option<String> + Send + 'static) -> Answer {
    let mut first = true;
    Box::new(move |r| {
        if std::mem::take(&mut first) {
            return Some(reply(0.0, vec![]));
        }
        then(r)
    })
}

#[test]
fn double_allocation_names_the_decision_the_job_and_the_time() {
    let e = misbehaving(
        10.0,
        after_begin(|r| {
            Some(reply(r["now"].as_f64().unwrap(), vec![execute(0.0, "w0!0", "0-1"), execute(0.0, "w0!1", "1-2")]))
        }),
    );
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision EXECUTE_JOB for job w0!1 on 1-2: resource 1 is busy with job w0!0"
    );
}

#[test]
fn unknown_jobs_nonexistent_resources_and_restarts_are_refused() {
    let e = misbehaving(10.0, after_begin(|_| Some(reply(0.0, vec![execute(0.0, "w0!99", "0")]))));
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision EXECUTE_JOB for job w0!99: job `w0!99` is not a job of this workload"
    );
    let e = misbehaving(10.0, after_begin(|_| Some(reply(0.0, vec![execute(0.0, "w0!0", "3-4")]))));
    assert!(e.contains("resource 4 does not exist (the machines are 0-3)"), "{e}");
    let e = misbehaving(10.0, after_begin(|_| Some(reply(0.0, vec![execute(0.0, "w0!2", "0-2")]))));
    assert!(e.contains("job w0!2 on 0-2: it has not been submitted yet"), "{e}");
    let e = misbehaving(10.0, after_begin(|_| Some(reply(0.0, vec![execute(0.0, "w0!0", "0-2")]))));
    assert!(e.contains("3 resources allocated, the job requests 2"), "{e}");
    // Job 0 completes at 50; starting it again then is refused.
    let mut started = false;
    let e = misbehaving(
        10.0,
        after_begin(move |r| {
            let now = r["now"].as_f64().unwrap();
            let events = if now == 50.0 {
                vec![execute(50.0, "w0!0", "0-1")]
            } else if !std::mem::replace(&mut started, true) {
                vec![execute(0.0, "w0!0", "0-1")]
            } else {
                vec![]
            };
            Some(reply(now, events))
        }),
    );
    assert_eq!(
        e,
        "external scheduler, at t = 50: decision EXECUTE_JOB for job w0!0 on 0-1: it has already finished or been rejected"
    );
}

#[test]
fn garbage_json_is_a_malformed_reply() {
    let e = misbehaving(10.0, after_begin(|_| Some("{\"now\": 0, \"events\": [".to_string())));
    assert!(e.starts_with("external scheduler, at t = 0: malformed reply: the reply is not JSON"), "{e}");
    let e =
        misbehaving(10.0, after_begin(|_| Some("{\"now\": 0.0, \"events\": [{\"type\": \"EXECUTE_JOB\"}]}".into())));
    assert!(e.contains("has no number `timestamp`"), "{e}");
}

#[test]
fn a_scheduler_that_does_not_answer_is_a_timeout_not_a_hang() {
    let clock = std::time::Instant::now();
    let e = misbehaving(1.0, after_begin(|_| None));
    assert_eq!(
        e,
        "external scheduler, at t = 0: the scheduler did not answer within 1.0 s (the simulation waited for its decisions)"
    );
    assert!(clock.elapsed() < Duration::from_secs(5), "{:?}", clock.elapsed());
}

fn set_state(now: f64, resources: &str, state: &str) -> Value {
    json!({"timestamp": now, "type": "SET_RESOURCE_STATE", "data": {"resources": resources, "state": state}})
}

#[test]
fn power_decisions_without_a_power_model_are_refused() {
    let e = misbehaving(10.0, after_begin(|_| Some(reply(0.0, vec![set_state(0.0, "0-3", "3")]))));
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision SET_RESOURCE_STATE of resources 0-3 to state 3: the cluster has no \
         power model: add [energy] with [energy.sleep] or [[energy.pstates]]"
    );
    let query = json!({"timestamp": 0.0, "type": "QUERY", "data": {"requests": {"consumed_energy": {}}}});
    let e = misbehaving(10.0, after_begin(move |_| Some(reply(0.0, vec![query.clone()]))));
    assert!(
        e.ends_with(
            "decision QUERY of consumed_energy: the cluster has no power model: add [energy] with [energy.sleep] or \
             [[energy.pstates]]"
        ),
        "{e}"
    );
}

/// 4 nodes: idle 100 W, busy 200 W, sleep 10 W; switching off 5 s at 10 W,
/// on 20 s at 20 W; 3 computing pstates (sleep is pstate 3).
fn power_model() -> slasim::single::cluster::energy::EnergyConfig {
    let mut model = slasim::single::cluster::energy::EnergyConfig::watts(100.0, 200.0, 0.0);
    model.compute_pstates = 3;
    model.sleep = Some(slasim::single::cluster::energy::SleepState {
        watts: 10.0,
        switch_off_seconds: 5,
        switch_off_joules: 50.0,
        switch_on_seconds: 20,
        switch_on_joules: 400.0,
    });
    model
}

fn run_powered(
    endpoint: &str,
    jobs: Vec<Job>,
    state_as_number: bool,
) -> Result<slasim::single::cluster::bench::Simulated, SimError> {
    let config = BatsimConfig {
        endpoint: Some(endpoint.to_string()),
        timeout: 10.0,
        state_as_number,
        ..BatsimConfig::default()
    };
    let strategy = slasim::single::policy::build("batsim", &settings(Some(config)), 4).unwrap();
    let mut scenario = Scenario::new(4, jobs, FailureStream::none(4), strategy);
    scenario.energy = Some(power_model());
    simulate(scenario)
}

/// A scheduler that runs job 0 (2 nodes) at 0 and sends nodes 2-3 to sleep;
/// at job 0's end sends 0-1 to sleep and asks for the energy; at job 1's
/// submission (4 nodes, t = 100) wakes them all, and runs it once they are on.
fn sleeper() -> Answer {
    let mut on = 0;
    Box::new(move |r| {
        let now = r["now"].as_f64().unwrap();
        let mut out = Vec::new();
        for e in r["events"].as_array().unwrap() {
            let data = &e["data"];
            match e["type"].as_str().unwrap() {
                "JOB_SUBMITTED" if data["job_id"] == "w0!0" => {
                    out.push(execute(now, "w0!0", "0-1"));
                    out.push(set_state(now, "2-3", "3"));
                }
                "JOB_COMPLETED" if data["job_id"] == "w0!0" => {
                    out.push(set_state(now, "0-1", "3"));
                    out.push(json!({"timestamp": now, "type": "QUERY", "data": {"requests": {"consumed_energy": {}}}}));
                }
                "JOB_SUBMITTED" => out.push(set_state(now, "0-3", "0")),
                "RESOURCE_STATE_CHANGED" if data["state"] == "0" || data["state"] == 0 => {
                    on += 1;
                    out.push(execute(now, "w0!1", "0-3"));
                }
                _ => {}
            }
        }
        assert!(on <= 1);
        Some(reply(now, out))
    })
}

fn sleeper_jobs() -> Vec<Job> {
    vec![Job::without_sla(0, 0, 2, 100, 50), Job::without_sla(1, 100, 4, 100, 10)]
}

#[test]
fn nodes_switch_off_and_on_with_resource_state_changed() {
    use slasim::single::cluster::power::PowerState;
    let scheduler = TestScheduler::start(sleeper());
    let s = run_powered(&scheduler.endpoint, sleeper_jobs(), false).unwrap();
    let requests = scheduler.requests();
    // The platform's power states, as Batsim gives them.
    let props = &requests[0]["events"][0]["data"]["compute_resources"][3]["properties"];
    assert_eq!(props["sleep_pstates"], "3:4:5");
    assert_eq!(props["wattage_per_state"], "100.0:200.0, 100.0:200.0, 100.0:200.0, 10.0:10.0, 10.0:10.0, 20.0:20.0");
    let summary: Vec<(f64, Vec<Value>)> = requests[1..]
        .iter()
        .map(|r| {
            let events = r["events"].as_array().unwrap();
            let short = events
                .iter()
                .map(|e| match e["type"].as_str().unwrap() {
                    "RESOURCE_STATE_CHANGED" | "ANSWER" => json!([e["type"], e["data"]]),
                    t => json!(t),
                })
                .collect();
            (r["now"].as_f64().unwrap(), short)
        })
        .collect();
    let changed = |r: &str, s: &str| json!(["RESOURCE_STATE_CHANGED", {"resources": r, "state": s}]);
    // Energy at 50: 2 busy nodes (200 W) and 2 switching off (10 W) for 5 s,
    // then asleep (10 W) for 45 s.
    let expected: Vec<(f64, Vec<Value>)> = vec![
        (1e-6, vec![json!("JOB_SUBMITTED")]),
        (5.0, vec![changed("2-3", "3")]),
        (50.0, vec![json!("JOB_COMPLETED")]),
        (50.0, vec![json!(["ANSWER", {"consumed_energy": 21_000.0}])]),
        (55.0, vec![changed("0-1", "3")]),
        (100.0, vec![json!("JOB_SUBMITTED")]),
        (120.0, vec![changed("0-3", "0")]),
        (130.0, vec![json!("JOB_COMPLETED")]),
        (130.0, vec![json!("SIMULATION_ENDS")]),
    ];
    assert_eq!(summary, expected);
    // Job 1 started once every node was on again.
    let starts: Vec<Option<Time>> = s.cluster.records.iter().map(|(_, r)| r.actual_start).collect();
    assert_eq!(starts, [Some(0), Some(120)]);
    let events: Vec<(Time, u32, PowerState)> =
        s.cluster.power_events.iter().map(|e| (e.time, e.node, e.state)).collect();
    assert!(events.contains(&(5, 3, PowerState::Asleep)), "{events:?}");
    assert!(events.contains(&(100, 0, PowerState::SwitchingOn)), "{events:?}");
    assert!(events.contains(&(120, 0, PowerState::On)), "{events:?}");
    // The state as a number, for pybatsim's fcfsSchedSleep.
    let scheduler = TestScheduler::start(sleeper());
    run_powered(&scheduler.endpoint, sleeper_jobs(), true).unwrap();
    let requests = scheduler.requests();
    let states: Vec<&Value> = requests
        .iter()
        .flat_map(|r| r["events"].as_array().unwrap())
        .filter(|e| e["type"] == "RESOURCE_STATE_CHANGED")
        .map(|e| &e["data"]["state"])
        .collect();
    assert_eq!(states, [&json!(3), &json!(3), &json!(0)]);
}

#[test]
fn bad_power_decisions_name_the_decision_the_node_and_the_time() {
    let powered = |answer: Answer| {
        let scheduler = TestScheduler::start(answer);
        run_powered(&scheduler.endpoint, sleeper_jobs(), false).expect_err("the point must fail").to_string()
    };
    let e = powered(after_begin(|_| Some(reply(0.0, vec![set_state(0.0, "0", "7")]))));
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision SET_RESOURCE_STATE of resources 0 to state 7: state 7 is not a \
         pstate of the platform (0-2 computing, 3 sleep)"
    );
    let e = powered(after_begin(|_| Some(reply(0.0, vec![execute(0.0, "w0!0", "0-1"), set_state(0.0, "1-2", "3")]))));
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision SET_RESOURCE_STATE of resources 1-2 to state 3: resource 1 is busy \
         with job w0!0"
    );
    let e = powered(after_begin(|_| Some(reply(0.0, vec![set_state(0.0, "3", "3"), set_state(0.0, "3", "0")]))));
    assert!(e.ends_with("resource 3 is switching-off (Batsim refuses a pstate change during a transition)"), "{e}");
    let e = powered(after_begin(|_| Some(reply(0.0, vec![set_state(0.0, "0", "3"), execute(0.0, "w0!0", "0-1")]))));
    assert_eq!(
        e,
        "external scheduler, at t = 0: decision EXECUTE_JOB for job w0!0 on 0-1: resource 0 is switching-off (not in \
         a computing pstate)"
    );
}

#[test]
fn waiting_for_machines_to_switch_on_is_not_a_deadlock() {
    // Everything off at 0 while job 0 waits, on again once asleep, then the job runs.
    let answer: Answer = Box::new(|r| {
        let now = r["now"].as_f64().unwrap();
        let mut out = Vec::new();
        for e in r["events"].as_array().unwrap() {
            match (e["type"].as_str().unwrap(), &e["data"]["state"]) {
                ("JOB_SUBMITTED", _) if e["data"]["job_id"] == "w0!0" => out.push(set_state(now, "0-3", "3")),
                ("RESOURCE_STATE_CHANGED", s) if s == "3" => out.push(set_state(now, "0-3", "1")),
                ("RESOURCE_STATE_CHANGED", _) => out.push(execute(now, "w0!0", "0-1")),
                ("JOB_COMPLETED", _) if e["data"]["job_id"] == "w0!0" => {}
                ("JOB_SUBMITTED", _) => out.push(execute(now, "w0!1", "0-3")),
                _ => {}
            }
        }
        Some(reply(now, out))
    });
    let scheduler = TestScheduler::start(answer);
    let s = run_powered(&scheduler.endpoint, sleeper_jobs(), false).unwrap();
    let starts: Vec<Option<Time>> = s.cluster.records.iter().map(|(_, r)| r.actual_start).collect();
    assert_eq!(starts, [Some(25), Some(100)]);
}

#[test]
fn a_scheduler_leaving_jobs_waiting_forever_is_an_error() {
    let e = misbehaving(10.0, after_begin(|r| Some(reply(r["now"].as_f64().unwrap(), vec![]))));
    assert!(
        e.starts_with("external scheduler, at t = 400: the scheduler leaves 12 submitted jobs waiting (first: w0!0)"),
        "{e}"
    );
}

// Through the command line: exit status 1, the error on stderr, nothing stored.

fn small_swf(dir: &Path) -> PathBuf {
    let jobs: Vec<_> = jobs().iter().map(|j| (j.occurrence, j.nodes, j.estimate, j.runtime)).collect();
    common::write_swf(dir, 4, &jobs)
}

fn stored_runs(db: &Path) -> i64 {
    if !db.exists() {
        return 0;
    }
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row("SELECT COUNT(*) FROM runs", [], |r| r.get(0)).unwrap_or(0)
}

fn cli_run(dir: &Path, extra: &[&str]) -> (bool, String, String) {
    let trace = small_swf(dir);
    let db = dir.join("runs.sqlite");
    let out = common::slasim()
        .args(["run", "--trace", trace.to_str().unwrap(), "--strategy", "batsim", "--failures", "none"])
        .args(["--db", db.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code() == Some(1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn cli_errors_store_nothing_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    // Double allocation.
    let s = TestScheduler::start(after_begin(|_| {
        Some(reply(0.0, vec![execute(0.0, "w0!1", "0-1"), execute(0.0, "w0!2", "1-2")]))
    }));
    let (failed, _, err) = cli_run(dir.path(), &["--scheduler-endpoint", &s.endpoint]);
    assert!(failed, "{err}");
    assert!(
        err.contains("at t = 0: decision EXECUTE_JOB for job w0!2 on 1-2: resource 1 is busy with job w0!1"),
        "{err}"
    );
    assert_eq!(stored_runs(&db), 0);
    // A scheduler process that exits before it listens.
    let (failed, _, err) =
        cli_run(dir.path(), &["--scheduler-command", "sh -c 'echo cannot start >&2; exit 3' {port}"]);
    assert!(failed, "{err}");
    assert!(
        err.contains("the scheduler process exited (exit status: 3); its last words on stderr:\ncannot start"),
        "{err}"
    );
    assert_eq!(stored_runs(&db), 0);
    // No answer.
    let s = TestScheduler::start(after_begin(|_| None));
    let (failed, _, err) = cli_run(dir.path(), &["--scheduler-endpoint", &s.endpoint, "--scheduler-timeout", "1"]);
    assert!(failed, "{err}");
    assert!(err.contains("did not answer within 1.0 s"), "{err}");
    assert_eq!(stored_runs(&db), 0);
    // A correct scheduler stores the run.
    let s = TestScheduler::start(fcfs(4));
    let (failed, out, err) = cli_run(dir.path(), &["--scheduler-endpoint", &s.endpoint]);
    assert!(!failed, "{err}");
    assert!(out.contains("batsim"), "{out}");
    assert_eq!(stored_runs(&db), 1);
    // The same endpoint again: already stored, and `--no-kill-at-estimate`
    // (read by the built-in modes only) is the same run. Nothing listens
    // there now, so a run that were simulated would fail.
    for extra in [&[][..], &["--no-kill-at-estimate"][..]] {
        let args = [&["--scheduler-endpoint", &s.endpoint, "--scheduler-timeout", "1"][..], extra].concat();
        let (failed, out, err) = cli_run(dir.path(), &args);
        assert!(!failed, "{err}");
        assert!(out.contains("1 of 1 runs were already stored"), "{out}");
        assert!(out.contains(&format!("cannot tell which scheduler listens at {}", s.endpoint)), "{out}");
    }
    // A name makes it another run, which is simulated (and fails here).
    let args = ["--scheduler-endpoint", &s.endpoint, "--scheduler-timeout", "1", "--scheduler-name", "other"];
    let (failed, _, err) = cli_run(dir.path(), &args);
    assert!(failed, "{err}");
    assert_eq!(stored_runs(&db), 1);
}

#[test]
fn batsim_workloads_round_trip_through_the_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let swf = small_swf(dir.path());
    let json = dir.path().join("small.json");
    let out = common::slasim()
        .args(["trace", "export", "--format", "batsim", "--classic", "--trace", swf.to_str().unwrap()])
        .args(["-o", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&json).unwrap();
    let w: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(w["nb_res"], 4);
    assert_eq!(w["jobs"][1], json!({"id": 2, "subtime": 0.0, "res": 2, "walltime": 100.0, "profile": "delay120"}));
    assert_eq!(w["profiles"]["delay120"], json!({"type": "delay", "delay": 120.0}));
    // The same stored outcomes from the SWF log and from its Batsim export.
    let outcomes = |trace: &Path| {
        let db = dir.path().join(format!("{}.sqlite", trace.extension().unwrap().to_str().unwrap()));
        let out = common::slasim()
            .args(["run", "--trace", trace.to_str().unwrap(), "--strategy", "easy", "--failures", "none"])
            .args(["--db", db.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let c = rusqlite::Connection::open(&db).unwrap();
        let mut q = c
            .prepare("SELECT swf_id, occurrence, estimate, runtime, nodes, actual_start, actual_end, outcome FROM jobs ORDER BY job")
            .unwrap();
        q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<i64>>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, String>(7)?,
            ))
        })
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
    };
    let a = outcomes(&swf);
    assert_eq!(a.len(), 12);
    assert_eq!(a, outcomes(&json));
    // Other profile types are refused, naming the type.
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 1, "walltime": 10, "profile": "p"}],
            "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}}"#,
    )
    .unwrap();
    let out = common::slasim()
        .args(["run", "--trace", bad.to_str().unwrap(), "--strategy", "fcfs", "--failures", "none"])
        .args(["--db", dir.path().join("bad.sqlite").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("profile `p` has type `parallel_homogeneous`"), "{err}");
}

#[test]
fn job_tables_come_from_simulate() {
    let builtin = slasim::single::policy::build("fcfs", &settings(None), 4).unwrap();
    let s = simulate(Scenario::new(4, jobs(), FailureStream::none(4), builtin)).unwrap();
    let table = slasim::single::report::batsim_jobs::job_table(&s.cluster.records, &s.cluster.executions);
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 13);
    assert!(rows.iter().all(|r| r.len() == 24));
    // Job 1: runtime 120 > walltime 100, killed at 100 on machines 2-3.
    assert_eq!(
        rows[2][..15],
        [
            "1",
            "w0",
            "delay120",
            "0",
            "2",
            "100",
            "0",
            "COMPLETED_WALLTIME_REACHED",
            "0",
            "100",
            "100",
            "0",
            "100",
            "1",
            "2-3"
        ]
    );
    assert_eq!(rows[5][7], "REJECTED");
    // Capacity: no instant with more than 4 machines allocated.
    let mut edges: Vec<(i64, i64)> = Vec::new();
    for r in &rows[1..] {
        if let (Ok(s), Ok(f)) = (r[8].parse::<i64>(), r[10].parse::<i64>()) {
            let n: i64 = slasim::single::policy::batsim::protocol::IntervalSet::parse(r[14]).unwrap().len() as i64;
            edges.push((s, n));
            edges.push((f, -n));
        }
    }
    edges.sort_by_key(|&(t, d)| (t, d));
    let mut used = 0;
    for (_, d) in edges {
        used += d;
        assert!(used <= 4);
    }
}

#[test]
fn machine_failures_are_batsim_machine_events_and_down_machines_are_refused() {
    use slasim::single::workload::failures::{NodeEvent, NodeEventKind};
    // The Rust FCFS ignores machine events: it frees machine 3 when job 1
    // fails on it and later starts a job there while it is still down.
    let scheduler = TestScheduler::start(fcfs(4));
    let config = BatsimConfig { endpoint: Some(scheduler.endpoint.clone()), timeout: 10.0, ..BatsimConfig::default() };
    let strategy = slasim::single::policy::build("batsim", &settings(Some(config)), 4).unwrap();
    let failures = FailureStream {
        nodes: 4,
        events: vec![
            NodeEvent { time: 5, kind: NodeEventKind::Fail, node: 3 },
            NodeEvent { time: 60, kind: NodeEventKind::Repair, node: 3 },
        ],
        source_records: 0,
    };
    let err = simulate(Scenario::new(4, jobs(), failures, strategy)).unwrap_err().to_string();
    assert_eq!(err, "external scheduler, at t = 50: decision EXECUTE_JOB for job w0!3 on 3: resource 3 is down");
    drop(scheduler);
    // The event itself: the message at t = 5.
    let scheduler = TestScheduler::start(fcfs(4));
    let config = BatsimConfig { endpoint: Some(scheduler.endpoint.clone()), timeout: 10.0, ..BatsimConfig::default() };
    let strategy = slasim::single::policy::build("batsim", &settings(Some(config)), 4).unwrap();
    let jobs = vec![Job::without_sla(0, 0, 1, 100, 50)];
    let failures = FailureStream {
        nodes: 4,
        events: vec![NodeEvent { time: 5, kind: NodeEventKind::Fail, node: 3 }],
        source_records: 0,
    };
    simulate(Scenario::new(4, jobs, failures, strategy)).unwrap();
    let requests = scheduler.requests();
    let at5: Vec<&Value> = requests.iter().filter(|r| r["now"] == 5.0).collect();
    assert_eq!(at5.len(), 1);
    assert_eq!(at5[0]["events"][0]["data"], json!({"type": "event_machine_unavailable", "resources": "3"}));
}

/// DVFS on 2 nodes: pstate 0 at speed 1 (100 W idle, 200 W busy), pstate 1
/// at 0.5 (60 W, 80 W), no sleep state. Job 0 (work 100, 1 node) runs on
/// node 0 from 0; at job 1's submission (t = 40, work 10) the scheduler puts
/// node 0 in pstate 1 and runs job 1 on node 1. Job 0 did 40 of its work by
/// 40; the 60 left at 0.5 take 120 s: it completes at 160.
/// Energy over [0, 160): node 0 busy 40 s × 200 W + 120 s × 80 W = 17,600 J;
/// node 1 idle 150 s × 100 W + busy 10 s × 200 W = 17,000 J; 34,600 J.
#[test]
fn a_pstate_set_under_a_running_job_slows_it_and_keeps_its_work() {
    use slasim::single::cluster::energy::{EnergyConfig, Pstate, Pstates};
    let scheduler = TestScheduler::start(Box::new(|r| {
        let now = r["now"].as_f64().unwrap();
        let mut out = Vec::new();
        for e in r["events"].as_array().unwrap() {
            match (e["type"].as_str().unwrap(), e["data"]["job_id"].as_str()) {
                ("JOB_SUBMITTED", Some("w0!0")) => out.push(execute(now, "w0!0", "0")),
                ("JOB_SUBMITTED", Some("w0!1")) => {
                    out.push(set_state(now, "0", "1"));
                    out.push(execute(now, "w0!1", "1"));
                }
                _ => {}
            }
        }
        Some(reply(now, out))
    }));
    let config = BatsimConfig { endpoint: Some(scheduler.endpoint.clone()), timeout: 10.0, ..BatsimConfig::default() };
    let strategy = slasim::single::policy::build("batsim", &settings(Some(config)), 2).unwrap();
    let jobs = vec![Job::without_sla(0, 0, 1, 1000, 100), Job::without_sla(1, 40, 1, 1000, 10)];
    let pstates =
        Pstates::new(&[Pstate::nominal(100.0, 200.0), Pstate { speed: 0.5, idle_watts: 60.0, busy_watts: 80.0 }])
            .unwrap();
    let model = EnergyConfig { pstates, ..EnergyConfig::watts(100.0, 200.0, 0.0) };
    let s =
        simulate(Scenario { energy: Some(model), ..Scenario::new(2, jobs, FailureStream::none(2), strategy) }).unwrap();
    let requests = scheduler.requests();
    let props = &requests[0]["events"][0]["data"]["compute_resources"][0]["properties"];
    assert_eq!(props, &json!({"wattage_per_state": "100.0:200.0, 60.0:80.0"}));
    let changed: Vec<(f64, &Value)> = requests
        .iter()
        .flat_map(|r| r["events"].as_array().unwrap().iter().map(move |e| (r["now"].as_f64().unwrap(), e)))
        .filter(|(_, e)| e["type"] == "RESOURCE_STATE_CHANGED")
        .map(|(t, e)| (t, &e["data"]))
        .collect();
    assert_eq!(changed, [(40.0, &json!({"resources": "0", "state": "1"}))]);
    let r = &s.cluster.records;
    assert_eq!((r[0].actual_start, r[0].actual_end), (Some(0), Some(160)));
    assert_eq!((r[1].actual_start, r[1].actual_end), (Some(40), Some(50)));
    assert_eq!(s.energy.unwrap().joules, 34_600.0);
}
