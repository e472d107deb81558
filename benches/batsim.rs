//! Protocol cost of the `batsim` strategy: the whole KTH-SP2 log (28,475
//! jobs, 100 processors) scheduled FCFS by a minimal scheduler written here in
//! Rust, which answers every message at once over a ZeroMQ REP socket on
//! 127.0.0.1, next to the built-in `fcfs` on the same jobs. Criterion's
//! throughput line is messages per second (every request and its reply
//! counted once); the difference of the two times is what the protocol costs.
//! The same FCFS as an in-process scheduler (the strategy's `Scheduler`
//! seam, no socket, no JSON) shows what the strategy's own checks cost.

mod common;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use slasim::single::cluster::bench::{Scenario, simulate};
use slasim::single::policy::batsim::protocol::IntervalSet;
use slasim::single::policy::batsim::{BatsimConfig, Decision, Event, InProcess, Scheduler, Workload};
use slasim::single::policy::{StrategySettings, build};
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::prepare::PrepareConfig;
use slasim::units::{JobId, Time};
use zeromq::{RepSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

/// FCFS on the lowest free machines; answers each request at once.
struct Fcfs {
    free: BTreeSet<u32>,
    queue: VecDeque<(String, usize)>,
    allocs: HashMap<String, Vec<u32>>,
    capacity: usize,
}

impl Fcfs {
    fn answer(&mut self, request: &Value) -> String {
        let now = request["now"].as_f64().unwrap_or(0.0);
        let mut out = Vec::new();
        for e in request["events"].as_array().into_iter().flatten() {
            match e["type"].as_str() {
                Some("JOB_SUBMITTED") => {
                    let id = e["data"]["job_id"].as_str().unwrap_or_default().to_string();
                    let res = e["data"]["job"]["res"].as_u64().unwrap_or(0) as usize;
                    if res > self.capacity {
                        out.push(json!({"timestamp": now, "type": "REJECT_JOB", "data": {"job_id": id}}));
                    } else {
                        self.queue.push_back((id, res));
                    }
                }
                Some("JOB_COMPLETED") => {
                    if let Some(nodes) = self.allocs.remove(e["data"]["job_id"].as_str().unwrap_or_default()) {
                        self.free.extend(nodes);
                    }
                }
                _ => {}
            }
        }
        while let Some((id, res)) = self.queue.front().cloned() {
            if res > self.free.len() {
                break;
            }
            self.queue.pop_front();
            let nodes: Vec<u32> = self.free.iter().copied().take(res).collect();
            for n in &nodes {
                self.free.remove(n);
            }
            let alloc = IntervalSet::from_nodes(&nodes).to_string();
            out.push(json!({"timestamp": now, "type": "EXECUTE_JOB", "data": {"job_id": id, "alloc": alloc}}));
            self.allocs.insert(id, nodes);
        }
        json!({"now": now, "events": out}).to_string()
    }
}

/// The same FCFS in process: typed events in, decisions out.
#[derive(Default)]
struct InProcessFcfs {
    free: BTreeSet<u32>,
    queue: VecDeque<JobId>,
    nodes: Vec<u32>,
    exchanged: u64,
}

impl Scheduler for InProcessFcfs {
    fn start(&mut self, workload: &Workload) -> Result<(), String> {
        self.free = (0..workload.capacity).collect();
        Ok(())
    }

    fn exchange(
        &mut self,
        workload: &Workload,
        _now: Time,
        events: &[Event],
        decisions: &mut Vec<Decision>,
    ) -> Result<(), String> {
        self.exchanged += 1;
        for e in events {
            match e {
                Event::JobSubmitted { job } if workload.jobs[*job as usize].nodes > workload.capacity => {
                    decisions.push(Decision::Reject { job: workload.name(*job).to_string() });
                }
                Event::JobSubmitted { job } => self.queue.push_back(*job),
                Event::JobCompleted { alloc, .. } => {
                    self.nodes.clear();
                    alloc.members(&mut self.nodes);
                    self.free.extend(&self.nodes);
                }
                _ => {}
            }
        }
        while let Some(&job) = self.queue.front() {
            let res = workload.jobs[job as usize].nodes as usize;
            if res > self.free.len() {
                break;
            }
            self.queue.pop_front();
            self.nodes.clear();
            self.nodes.extend(self.free.iter().copied().take(res));
            for n in &self.nodes {
                self.free.remove(n);
            }
            let alloc = IntervalSet::from_nodes(&self.nodes);
            decisions.push(Decision::Execute { job: workload.name(job).to_string(), alloc });
        }
        Ok(())
    }

    fn stop(&mut self, _finished: bool) {}

    fn exchanges(&self) -> u64 {
        self.exchanged
    }
}

/// Starts the scheduler on its own thread; returns its endpoint.
fn serve(capacity: u32) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        rt.block_on(async move {
            let mut socket = RepSocket::new();
            let Ok(endpoint) = socket.bind("tcp://127.0.0.1:0").await else { return };
            let _ = tx.send(endpoint.to_string());
            let mut fcfs = Fcfs {
                free: (0..capacity).collect(),
                queue: VecDeque::new(),
                allocs: HashMap::new(),
                capacity: capacity as usize,
            };
            while let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_secs(60), socket.recv()).await {
                let Ok(text) = String::try_from(msg) else { return };
                let Ok(request) = serde_json::from_str::<Value>(&text) else { return };
                let ends = request["events"].as_array().into_iter().flatten().any(|e| e["type"] == "SIMULATION_ENDS");
                if socket.send(ZmqMessage::from(fcfs.answer(&request))).await.is_err() || ends {
                    return;
                }
            }
        });
    });
    rx.recv().expect("the scheduler thread did not start")
}

fn kth(c: &mut Criterion) {
    let prepare = PrepareConfig::default().for_classic_modes();
    let (jobs, capacity, settings) = common::whole_log("fcfs", "KTH-SP2-1996-2.1-cln.swf.gz", prepare);
    assert_eq!((jobs.len(), capacity), (28_475, 100));
    let batsim_settings = |endpoint: String| StrategySettings {
        batsim: Some(Arc::new(BatsimConfig { endpoint: Some(endpoint), timeout: 30.0, ..BatsimConfig::default() })),
        ..settings.clone()
    };
    let run = |endpoint: String| {
        let strategy = build("batsim", &batsim_settings(endpoint), capacity).expect("batsim");
        simulate(Scenario::new(capacity, jobs.clone(), FailureStream::none(capacity), strategy)).expect("simulate")
    };
    // Messages of one run: one per instant with events, SIMULATION_BEGINS and SIMULATION_ENDS.
    let once = run(serve(capacity));
    let mut instants: Vec<i64> = jobs.iter().map(|j| j.occurrence).collect();
    instants.extend(once.cluster.records.iter().filter_map(|(_, r)| r.actual_end));
    instants.sort_unstable();
    instants.dedup();
    let messages = instants.len() as u64 + 2;
    eprintln!("KTH-SP2 over the Batsim protocol: {messages} messages per run");

    let mut group = c.benchmark_group("KTH-SP2 whole log");
    group.sample_size(10);
    group.bench_function("builtin fcfs", |b| {
        b.iter(|| {
            let strategy = build("fcfs", &settings, capacity).expect("fcfs");
            simulate(Scenario::new(capacity, jobs.clone(), FailureStream::none(capacity), strategy)).expect("simulate")
        })
    });
    group.throughput(Throughput::Elements(messages));
    group.bench_function("batsim protocol, Rust FCFS over loopback", |b| b.iter(|| run(serve(capacity))));
    let in_process = StrategySettings {
        batsim: Some(Arc::new(BatsimConfig::in_process(
            "rust-fcfs",
            InProcess::new(|| Box::new(InProcessFcfs::default())),
        ))),
        ..settings.clone()
    };
    group.bench_function("batsim strategy, Rust FCFS in process", |b| {
        b.iter(|| {
            let strategy = build("batsim", &in_process, capacity).expect("batsim");
            let ran = simulate(Scenario::new(capacity, jobs.clone(), FailureStream::none(capacity), strategy))
                .expect("simulate");
            assert_eq!(ran.cluster.records.iter().filter(|(_, r)| r.actual_start.is_some()).count(), 28_475);
            ran
        })
    });
    group.finish();
}

criterion_group!(benches, kth);
criterion_main!(benches);
