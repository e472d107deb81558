//! The machine plan and conservative backfilling on a machine of unlike
//! nodes: a schedule worked out by hand, the refusals, and the invariants on
//! random machines and workloads.

use std::sync::Arc;

use proptest::prelude::*;
use slasim_core::experiment::registry::Entries;
use slasim_core::units::Time;
use slasim_machine::{Gpus, MILLI, Machine, NodeSpec, Partition, Request, Resources};
use slasim_single::cluster::strategy::{Outcome, RejectReason};
use slasim_single::plan::machine_plan::{Cards, MachinePlan};
use slasim_single::plan::node_choice::{NodeChoices, TaskClass};
use slasim_single::policy::on_machine::comprehensive::comprehensive_overbooking;
use slasim_single::policy::on_machine::heuristic::heuristic_planning;
use slasim_single::policy::on_machine::overbooking::MachineOverbooking;
use slasim_single::policy::on_machine::{MachineJob, MachineStrategies, Setting, conservative_backfilling};
use slasim_single::policy::overbooking::Acceptance;
use slasim_single::stats::pdf::{PdfConfig, RuntimeModel};
use slasim_single::stats::pos::Reliability;
use slasim_single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim_single::workload::job::Job;

/// MiB in a GiB.
pub const GIB: u64 = 1024;

/// A CPU node, a node of 2 P100s and a node of 4 V100s.
pub fn three_nodes() -> Machine {
    let mut m = Machine::default();
    let node = |name: &str, cpus, gib, gpus, model: Option<&str>| NodeSpec {
        name: name.into(),
        size: Resources { cpus, mem_mib: gib * GIB, gpus },
        gpu_model: model.map(String::from),
        weight: 1,
        features: Vec::new(),
    };
    m.push(node("cpu", 32, 128, 0, None), "test").unwrap();
    m.push(node("p100", 16, 64, 2, Some("P100")), "test").unwrap();
    m.push(node("v100", 32, 256, 4, Some("V100")), "test").unwrap();
    m
}

/// One node's request.
pub fn ask(m: &Machine, cpus: u32, mem_mib: u64, gpus: Gpus, model: &str) -> Request {
    Request {
        nodes: 1,
        cpu_milli: cpus * 1000,
        mem_mib,
        gpus,
        models: m.models_of(model).unwrap(),
        features: Vec::new(),
        partition: None,
    }
}

/// A job running its whole estimate; fee 10, penalty 5.
pub fn job(id: u32, at: Time, estimate: Time, deadline: Time, request: Request) -> MachineJob {
    let mut job = Job::without_sla(id, at, request.nodes, estimate, estimate);
    job.deadline = deadline;
    job.fee = 10.0;
    job.penalty = 5.0;
    MachineJob { job, request }
}

/// The schedule worked out by hand (first fit; every job runs its estimate).
///
/// | job | at | asks                                  | deadline | start | node, cards            |
/// |-----|----|---------------------------------------|----------|-------|------------------------|
/// | j0  |  0 | 8 CPUs, 200 GiB, no GPU, 100 s        | 1000     | 0     | v100 (only node with 200 GiB) |
/// | j1  |  0 | 4 CPUs, 16 GiB, 0.5 P100, 200 s       | 1000     | 0     | p100, card 0           |
/// | j2  |  0 | 4 CPUs, 8 GiB, 4 whole GPUs, 300 s    | 2000     | 0     | v100, cards 0–3        |
/// | j3  | 10 | 2 CPUs, 4 GiB, 0.5 of any GPU, 100 s  | 500      | 10    | p100, card 0 (beside j1) |
/// | j4  | 20 | 2 CPUs, 4 GiB, 1 V100, 100 s          | 1000     | 300   | v100, card 0 (after j2) |
/// | j5  | 30 | 4 CPUs, 150,000 MiB, no GPU, 100 s    | 200      | 100   | v100 (after j0)        |
/// | j6  | 40 | 12 CPUs, 8 GiB, 2 whole GPUs, 100 s   | 150      | —     | rejected: no room      |
/// | j7  | 50 | 64 CPUs, no GPU, 10 s                 | 1000     | —     | rejected: too wide     |
///
/// - j0 asks more memory than the CPU node (128 GiB) and the P100 node
///   (64 GiB) have: only the V100 node holds it. Ignoring memory, it would
///   take the CPU node.
/// - j3's half card fits beside j1's half on the P100 node's card 0 (the
///   fullest card that holds it). Counting a share as a whole card, it
///   would take card 1.
/// - j4 asks for a V100: the V100 node's cards are j2's until 300. The P100
///   node's card 1 is wholly free at 20, but of the wrong model.
/// - j5's 150,000 MiB fit no node but the V100 node, where j0 holds 200 GiB
///   until 100: it starts at 100 and ends at 200, its deadline.
/// - j6 needs 12 CPUs and 2 whole cards: the P100 node has 10 CPUs free
///   until j3 ends (110) and a whole second card only when j1 ends (200);
///   the V100 node's cards are j2's and j4's until 400. Its latest start is
///   150 − 100 = 50: rejected at once, no penalty.
/// - j7 asks for 64 CPUs on one node; no node has more than 32.
///
/// Gain: 6 accepted jobs × 10 = 60; no job misses its deadline.
#[test]
fn a_schedule_on_three_unlike_nodes_worked_out_by_hand() {
    let m = Arc::new(three_nodes());
    let jobs = vec![
        job(0, 0, 100, 1000, ask(&m, 8, 200 * GIB, Gpus::Whole(0), "")),
        job(1, 0, 200, 1000, ask(&m, 4, 16 * GIB, Gpus::Share(500), "P100")),
        job(2, 0, 300, 2000, ask(&m, 4, 8 * GIB, Gpus::Whole(4), "")),
        job(3, 10, 100, 500, ask(&m, 2, 4 * GIB, Gpus::Share(500), "")),
        job(4, 20, 100, 1000, ask(&m, 2, 4 * GIB, Gpus::Whole(1), "V100")),
        job(5, 30, 100, 200, ask(&m, 4, 150_000, Gpus::Whole(0), "")),
        job(6, 40, 100, 150, ask(&m, 12, 8 * GIB, Gpus::Whole(2), "")),
        job(7, 50, 10, 1000, ask(&m, 64, GIB, Gpus::Whole(0), "")),
    ];
    let requests: Vec<Request> = jobs.iter().map(|j| j.request.clone()).collect();
    let first_fit = (NodeChoices::builtin()[0].build)(&requests);
    let decisions = conservative_backfilling(m.clone(), &jobs, first_fit.as_ref(), &FailureStream::none(3)).unwrap();
    let (cpu, p100, v100) = (0, 1, 2);
    let expected: [Option<(Time, u32, Cards)>; 8] = [
        Some((0, v100, Cards::None)),
        Some((0, p100, Cards::Share { card: 0, milli: 500 })),
        Some((0, v100, Cards::Whole(0b1111))),
        Some((10, p100, Cards::Share { card: 0, milli: 500 })),
        Some((300, v100, Cards::Whole(0b1))),
        Some((100, v100, Cards::None)),
        None,
        None,
    ];
    for (d, want) in decisions.iter().zip(expected) {
        let got = d.placement.as_ref().map(|p| (p.start, p.nodes[0].0, p.nodes[0].1));
        assert_eq!(got, want, "job {}", d.job);
    }
    assert!(decisions.iter().all(|d| d.placement.as_ref().is_none_or(|p| p.nodes[0].0 != cpu)));
    assert_eq!(decisions[6].reason, Some(RejectReason::NoRoom));
    assert_eq!(decisions[7].reason, Some(RejectReason::TooWide));
    let unfit = decisions[7].unfit.as_ref().unwrap();
    assert_eq!(unfit.field, "cpus");
    assert_eq!(unfit.to_string(), "cpus: asks for 64 CPUs on a node; no node of the machine has more than 32");
    let gain: f64 = decisions.iter().map(|d| d.money).sum();
    assert_eq!(gain, 60.0);
    for (d, j) in decisions.iter().zip(&jobs) {
        if d.outcome == Outcome::Success {
            assert!(d.end.unwrap() <= j.job.deadline, "job {} ends by its deadline", d.job);
        }
    }

    // The other choices respect the same memory, models and shares: every
    // job lands on the same node (the only one that holds it), at the same
    // start.
    for info in NodeChoices::builtin() {
        let choice = (info.build)(&requests);
        let other = conservative_backfilling(m.clone(), &jobs, choice.as_ref(), &FailureStream::none(3)).unwrap();
        let starts = |ds: &[slasim_single::policy::on_machine::Decision]| {
            ds.iter().map(|d| d.placement.as_ref().map(|p| (p.start, p.nodes[0].0))).collect::<Vec<_>>()
        };
        assert_eq!(starts(&other), starts(&decisions), "{}", info.name);
    }
}

#[test]
fn requests_the_machine_cannot_hold_are_refused_with_their_field() {
    let m = three_nodes();
    // A share above a whole card, and a share of several cards.
    assert_eq!(Gpus::of(1, 1200).unwrap_err(), "a share of 1200 thousandths is more than one card (1000)");
    assert!(Gpus::of(2, 500).unwrap_err().contains("a share is of one card"));
    assert_eq!(Gpus::of(1, 460), Ok(Gpus::Share(460)));
    assert_eq!(Gpus::of(8, u32::from(MILLI)), Ok(Gpus::Whole(8)));
    // An unknown model, named with the machine's.
    assert_eq!(m.models_of("A100|P100").unwrap_err(), "unknown GPU model \"A100\" (the machine has P100, V100)");
    let check = |r: Request| m.check(&r).unwrap_err().to_string();
    assert_eq!(
        check(ask(&m, 1, GIB, Gpus::Whole(4), "P100")),
        "gpus: asks for 4 GPUs on a node; no node of the machine with P100 GPUs has more than 2"
    );
    assert_eq!(
        check(ask(&m, 1, 300 * GIB, Gpus::Whole(0), "")),
        "memory: asks for 307200 MiB on a node; no node of the machine has more than 262144 MiB"
    );
    let mut two = ask(&m, 20, GIB, Gpus::Whole(1), "");
    two.nodes = 2;
    assert_eq!(check(two), "nodes: asks for 2 nodes; 1 of the machine can hold one node's share");
    let mut featured = ask(&m, 1, GIB, Gpus::Whole(0), "");
    featured.features = vec!["nvlink".into()];
    assert_eq!(check(featured), "features: no node of the machine has feature \"nvlink\"");
}

#[test]
fn a_gpu_node_list_without_a_gpu_is_refused() {
    use slasim_data::trace::gpu::GpuNode;
    let nodes = vec![GpuNode { name: "c1".into(), cpus: 8, memory_mib: Some(1024), gpus: 0, model: String::new() }];
    let err = Machine::from_gpu_nodes(&nodes, std::path::Path::new("nodes.csv")).unwrap_err();
    assert_eq!(err.to_string(), "nodes.csv: the node list has 1 nodes and no GPU: a GPU trace's pods could not run");
}

/// Fragmentation, by the paper's measure, on one node of 2 cards with 0.3
/// and 1.0 free and 8 free CPUs: for tasks of half a card (2 CPUs), the 0.3
/// card is a fragment (300); for tasks of 1 whole card, the 0.3 card too
/// (300); for CPU-only tasks every free thousandth (1300).
#[test]
fn fragmentation_follows_the_papers_measure() {
    use slasim_single::plan::node_choice::Fragmentation;
    let m = three_nodes();
    let half = ask(&m, 2, GIB, Gpus::Share(500), "");
    let whole = ask(&m, 2, GIB, Gpus::Whole(1), "");
    let cpu_only = ask(&m, 2, GIB, Gpus::Whole(0), "");
    let f = Fragmentation::of(&[half.clone(), half.clone(), whole.clone(), cpu_only.clone()]);
    let frag = f.measure(Some(0), 8000, &[300, 1000]);
    assert!((frag - (0.5 * 300.0 + 0.25 * 300.0 + 0.25 * 1300.0)).abs() < 1e-9, "{frag}");
    // Too few CPUs for any class: every free thousandth, for every class.
    assert!((f.measure(Some(0), 1000, &[300, 1000]) - 1300.0).abs() < 1e-9);
    assert_eq!(TaskClass::of(&half).milli, 500);
}

// ---- invariants on random machines and workloads ----

#[derive(Debug, Clone)]
pub struct Case {
    /// The machine.
    pub machine: Machine,
    /// Its jobs.
    pub jobs: Vec<MachineJob>,
    /// Its node failures.
    pub failures: FailureStream,
}

/// A random machine and workload (as the machine plan's tests draw them),
/// runtimes from a fifth of the estimate to past it (or all equal to it),
/// features `x` and `y` on nodes and in requests, two partitions (every
/// node, and some) a request may name,
/// and, `with_failures`, up to 2 (failure, repair) pairs per node, the last
/// repair sometimes missing (down for good).
/// The features of bit set `bits`: `x` (1) and `y` (2).
fn feature_names(bits: u8) -> Vec<String> {
    [(1, "x"), (2, "y")].iter().filter(|(b, _)| bits & b != 0).map(|(_, f)| f.to_string()).collect()
}

pub fn case(with_failures: bool) -> impl Strategy<Value = Case> {
    let outages = prop::collection::vec((0..1500 as Time, 1..400 as Time), 0..3);
    let node = (1u32..=16, 1u64..=8, 0u32..=4, 0usize..2, outages, prop::bool::weighted(0.2), 0u8..4, any::<bool>());
    let task = (
        (0..2000 as Time, 1u32..=16, 1u64..=8, 0u32..=5, 1u32..=999),
        (0usize..3, 1..400 as Time, 1.0..3.0f64, 1u32..=2, 0.2..1.5f64, 0u8..4, 0u16..3),
    );
    (prop::collection::vec(node, 1..6), prop::collection::vec(task, 1..40), any::<bool>()).prop_map(
        move |(nodes, tasks, exact)| {
            let mut machine = Machine::default();
            let mut failures = FailureStream::none(nodes.len() as u32);
            // Two partitions: every node, and the nodes drawn into `some`.
            let mut some = Vec::new();
            for (i, (cpus, gib, gpus, model, outages, forever, features, in_some)) in nodes.into_iter().enumerate() {
                let spec = NodeSpec {
                    name: format!("n{i}"),
                    size: Resources { cpus, mem_mib: gib * GIB, gpus },
                    gpu_model: (gpus > 0).then(|| ["A", "B"][model].to_string()),
                    weight: 1,
                    features: feature_names(features),
                };
                let node = machine.push(spec, "case").unwrap();
                if in_some {
                    some.push(node);
                }
                if !with_failures {
                    continue;
                }
                let mut t = 0;
                for (k, &(gap, down)) in outages.iter().enumerate() {
                    failures.events.push(NodeEvent { time: t + gap, kind: NodeEventKind::Fail, node });
                    t += gap + down;
                    if !(forever && k + 1 == outages.len()) {
                        failures.events.push(NodeEvent { time: t, kind: NodeEventKind::Repair, node });
                    }
                }
            }
            failures.events.sort_unstable();
            let every = (0..machine.len() as u32).collect();
            machine.partitions =
                vec![Partition { name: "every".into(), nodes: every }, Partition { name: "some".into(), nodes: some }];
            let mut tasks = tasks;
            tasks.sort_by_key(|t| t.0.0);
            let jobs = tasks
                .into_iter()
                .enumerate()
                .map(
                    |(
                        i,
                        ((at, cpus, gib, gpus, milli), (model, estimate, slack, nodes, ratio, features, partition)),
                    )| {
                        // gpus 0: none; 1: a share; 2..=5: 1..=4 whole cards.
                        let gpus = match gpus {
                            0 => Gpus::Whole(0),
                            1 => Gpus::Share(milli as u16),
                            g => Gpus::Whole(g - 1),
                        };
                        let models = match model {
                            0 => 0,
                            m => machine.models_of(["A", "B"][m - 1]).unwrap_or(0),
                        };
                        let request = Request {
                            nodes,
                            cpu_milli: cpus * 500,
                            mem_mib: gib * GIB / 2,
                            gpus,
                            models,
                            features: feature_names(features),
                            partition: partition.checked_sub(1),
                        };
                        let deadline = at + (slack * estimate as f64) as Time;
                        let mut job = job(i as u32, at, estimate, deadline, request);
                        if !exact {
                            job.job.runtime = ((ratio * estimate as f64) as Time).max(1);
                        }
                        job
                    },
                )
                .collect();
            Case { machine, jobs, failures }
        },
    )
}

proptest! {
    #![proptest_config(crate::testing::cases(512))]

    /// No node exceeds its CPUs, memory or any card's thousandths at any
    /// instant, under every node choice; and every accepted job ends by its
    /// deadline (no failures).
    #[test]
    fn no_node_exceeds_a_resource_and_accepted_jobs_meet_their_deadlines(case in case(false)) {
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = case.jobs.iter().map(|j| j.request.clone()).collect();
        let none = FailureStream::none(machine.len() as u32);
        for info in NodeChoices::builtin() {
            let choice = (info.build)(&requests);
            let decisions = conservative_backfilling(machine.clone(), &case.jobs, choice.as_ref(), &none).unwrap();
            // Every span each node carries: (start, end, job index, cards).
            let mut spans: Vec<Vec<(Time, Time, usize, Cards)>> = vec![Vec::new(); machine.len()];
            for (i, (d, j)) in decisions.iter().zip(&case.jobs).enumerate() {
                match d.outcome {
                    Outcome::Success => {
                        let p = d.placement.as_ref().unwrap();
                        prop_assert!(p.start >= j.job.release);
                        prop_assert!(d.end.unwrap() <= j.job.deadline, "{}: job {} ends after its deadline", info.name, i);
                        prop_assert_eq!(p.nodes.len() as u32, j.request.nodes);
                        let mut nodes: Vec<u32> = p.nodes.iter().map(|n| n.0).collect();
                        nodes.dedup();
                        prop_assert_eq!(nodes.len(), p.nodes.len(), "distinct nodes");
                        for &(n, cards) in &p.nodes {
                            prop_assert!(machine.holds(n, &j.request));
                            // Held for the full estimate.
                            spans[n as usize].push((p.start, p.start + j.job.estimate, i, cards));
                        }
                    }
                    Outcome::Rejected => prop_assert!(d.reason.is_some()),
                    Outcome::Failed => prop_assert!(false, "no failures here"),
                }
            }
            for (n, spans) in spans.iter().enumerate() {
                let size = machine.size[n];
                for &(t, _, _, _) in spans {
                    let at: Vec<_> = spans.iter().filter(|s| s.0 <= t && t < s.1).collect();
                    let cpu: u64 = at.iter().map(|s| u64::from(case.jobs[s.2].request.cpu_milli)).sum();
                    let mem: u64 = at.iter().map(|s| case.jobs[s.2].request.mem_mib).sum();
                    prop_assert!(cpu <= u64::from(size.cpus) * 1000, "{}: node {n} CPUs at {t}", info.name);
                    prop_assert!(mem <= size.mem_mib, "{}: node {n} memory at {t}", info.name);
                    for c in 0..size.gpus as usize {
                        let used: u32 = at.iter().map(|s| u32::from(s.3.on(c))).sum();
                        prop_assert!(used <= u32::from(MILLI), "{}: node {n} card {c} at {t}: {used}", info.name);
                    }
                }
            }
        }
    }

    /// The earliest start is earliest: one second before it, the request
    /// does not fit on enough nodes (checked on a plan of the booked jobs).
    #[test]
    fn no_earlier_start_fits(case in case(false)) {
        let machine = Arc::new(case.machine.clone());
        let mut plan = MachinePlan::new(machine.clone()).unwrap();
        let first_fit = (NodeChoices::builtin()[0].build)(&[]);
        for j in &case.jobs {
            if machine.check(&j.request).is_err() {
                continue;
            }
            let Some(p) = plan.earliest(&j.request, j.job.release, j.job.estimate, Time::MAX / 4, first_fit.as_ref()) else {
                continue;
            };
            if p.start > j.job.release {
                let t = p.start - 1;
                let fitting = machine
                    .candidates(&j.request)
                    .filter(|&n| machine.holds(n, &j.request))
                    .filter(|&n| MachinePlan::fit(&plan.free(n, t, t + j.job.estimate), &j.request).is_some())
                    .count();
                prop_assert!(fitting < j.request.nodes as usize, "fits at {t}, before {}", p.start);
            }
            plan.book(j.job.id, &j.request, &p, p.start + j.job.estimate);
        }
    }
}

// ---- with failures ----

/// Every run of `decisions` (the stopped ones to their stop, the last to its
/// end) keeps each node within its CPUs, memory and cards at every instant,
/// and runs on no node while it is down.
pub fn runs_hold(
    name: &str,
    machine: &Machine,
    jobs: &[MachineJob],
    decisions: &[slasim_single::policy::on_machine::Decision],
    failures: &FailureStream,
) -> Result<(), TestCaseError> {
    let mut spans: Vec<Vec<(Time, Time, usize, Cards)>> = vec![Vec::new(); machine.len()];
    for (i, d) in decisions.iter().enumerate() {
        for (p, stop) in &d.stopped {
            for &(n, cards) in &p.nodes {
                spans[n as usize].push((p.start, *stop, i, cards));
            }
        }
        if let (Some(p), Some(end)) = (&d.placement, d.end) {
            prop_assert_eq!(p.nodes.len() as u32, jobs[i].request.nodes);
            for &(n, cards) in &p.nodes {
                prop_assert!(machine.holds(n, &jobs[i].request));
                spans[n as usize].push((p.start, end, i, cards));
            }
        }
        // Every run: distinct nodes, of the job's partition.
        let runs = d.stopped.iter().map(|(p, _)| p).chain(d.placement.iter().filter(|_| d.end.is_some()));
        for p in runs {
            let mut nodes: Vec<u32> = p.nodes.iter().map(|&(n, _)| n).collect();
            nodes.sort_unstable();
            nodes.dedup();
            prop_assert_eq!(nodes.len(), p.nodes.len(), "{}: job {} given a node twice", name, i);
            if let Some(part) = jobs[i].request.partition {
                let members = &machine.partitions[usize::from(part)].nodes;
                prop_assert!(nodes.iter().all(|n| members.contains(n)), "{}: job {} outside its partition", name, i);
            }
        }
    }
    let mut down_since: Vec<Option<Time>> = vec![None; machine.len()];
    let mut outages: Vec<Vec<(Time, Time)>> = vec![Vec::new(); machine.len()];
    for e in &failures.events {
        let n = e.node as usize;
        match e.kind {
            NodeEventKind::Fail => down_since[n] = Some(e.time),
            NodeEventKind::Repair => {
                if let Some(t) = down_since[n].take() {
                    outages[n].push((t, e.time));
                }
            }
        }
    }
    for (n, since) in down_since.iter().enumerate() {
        if let Some(t) = since {
            outages[n].push((*t, Time::MAX));
        }
    }
    for (n, spans) in spans.iter().enumerate() {
        let size = machine.size[n];
        for &(t, end, i, _) in spans {
            for &(a, b) in &outages[n] {
                prop_assert!(end <= a || b <= t, "{name}: job {i} runs [{t}, {end}) on node {n}, down [{a}, {b})");
            }
            let at: Vec<_> = spans.iter().filter(|s| s.0 <= t && t < s.1).collect();
            let cpu: u64 = at.iter().map(|s| u64::from(jobs[s.2].request.cpu_milli)).sum();
            let mem: u64 = at.iter().map(|s| jobs[s.2].request.mem_mib).sum();
            prop_assert!(cpu <= u64::from(size.cpus) * 1000, "{name}: node {n} CPUs at {t}");
            prop_assert!(mem <= size.mem_mib, "{name}: node {n} memory at {t}");
            for c in 0..size.gpus as usize {
                let used: u32 = at.iter().map(|s| u32::from(s.3.on(c))).sum();
                prop_assert!(used <= u32::from(MILLI), "{name}: node {n} card {c} at {t}: {used}");
            }
        }
    }
    Ok(())
}

/// Overbooking for a case: statistics learned from its own jobs, and
/// windows of a PoF below 0.9, so that many are taken.
pub fn learned_from(case: &Case) -> MachineOverbooking {
    let own: Vec<Job> = case.jobs.iter().map(|j| j.job).collect();
    MachineOverbooking {
        acceptance: Acceptance::Pof { max: 0.9 },
        model: Arc::new(RuntimeModel::learn(&own, &PdfConfig::default()).unwrap()),
        reliability: Reliability::never_failing(),
    }
}

proptest! {
    #![proptest_config(crate::testing::cases(512))]

    /// Without failures, under comprehensive overbooking and every node
    /// choice: no run starts before its job's release or ends after its
    /// deadline, and only a job whose run had a window shorter than its
    /// estimate fails (an early start keeps a whole window's estimate: its
    /// kill time is its start plus its estimate).
    #[test]
    fn comprehensive_overbooking_breaks_no_whole_window(case in case(false)) {
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = case.jobs.iter().map(|j| j.request.clone()).collect();
        let ob = learned_from(&case);
        let none = FailureStream::none(machine.len() as u32);
        for info in NodeChoices::builtin() {
            let choice = (info.build)(&requests);
            let decisions = comprehensive_overbooking(machine.clone(), &case.jobs, choice.as_ref(), &none, &ob).unwrap();
            runs_hold(info.name, &machine, &case.jobs, &decisions, &none)?;
            for (i, (d, j)) in decisions.iter().zip(&case.jobs).enumerate() {
                let name = info.name;
                match d.outcome {
                    Outcome::Rejected => prop_assert!(d.reason.is_some()),
                    _ => {
                        let (p, end) = (d.placement.as_ref().unwrap(), d.end.unwrap());
                        prop_assert!(p.start >= j.job.release, "{name}: job {i} starts before its release");
                        prop_assert!(end <= j.job.deadline, "{name}: job {i} ends after its deadline");
                        if d.outcome == Outcome::Failed {
                            prop_assert!(d.allotment.is_some_and(|l| l < j.job.estimate && j.job.runtime > l), "{name}: job {i}");
                        }
                    }
                }
            }
        }
    }

    /// With node failures, under every strategy on the machine and every
    /// node choice: no node exceeds a resource or runs a job while down;
    /// under the planners every job that succeeds ended by its deadline and
    /// every failed job pays its penalty.
    #[test]
    fn with_failures_no_node_exceeds_a_resource_or_runs_while_down(case in case(true)) {
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = case.jobs.iter().map(|j| j.request.clone()).collect();
        let overbooking = learned_from(&case);
        for strategy in MachineStrategies::builtin() {
            for info in NodeChoices::builtin() {
                let name = format!("{} ({})", strategy.name, info.name);
                let choice = (info.build)(&requests);
                let setting = Setting { choice: choice.as_ref(), failures: &case.failures, overbooking: Some(&overbooking), reservations: Default::default() };
                let decisions = (strategy.run)(machine.clone(), &case.jobs, &setting).unwrap();
                runs_hold(&name, &machine, &case.jobs, &decisions, &case.failures)?;
                for (d, j) in decisions.iter().zip(&case.jobs) {
                    match d.outcome {
                        Outcome::Success => prop_assert!(d.end.unwrap() <= j.job.deadline, "{name}"),
                        // Killed at the end of its overbooked window, by its deadline.
                        Outcome::Failed if d.allotment.is_some() => {
                            let (p, end, allotment) = (d.placement.as_ref().unwrap(), d.end.unwrap(), d.allotment.unwrap());
                            prop_assert!(strategy.overbooks.is_some(), "{name}");
                            prop_assert!(allotment < j.job.estimate && j.job.runtime > allotment, "{name}");
                            prop_assert_eq!(end, p.start + allotment);
                            prop_assert!(end <= j.job.deadline, "{name}");
                            prop_assert_eq!(d.money, -j.job.penalty);
                        }
                        Outcome::Failed => {
                            prop_assert!(d.end.is_none_or(|end| end > j.job.deadline), "{name}");
                            prop_assert_eq!(d.money, -j.job.penalty);
                        }
                        Outcome::Rejected => prop_assert!(d.reason.is_some() && d.stopped.is_empty(), "{name}"),
                    }
                }
            }
        }
    }
}

/// Failures worked out by hand (first fit). `cpu` (node 0, 32 CPUs) fails
/// at 30 and is back at 80.
///
/// | job | at | CPUs | deadline | booked          | what happens                                                  |
/// |-----|----|------|----------|-----------------|---------------------------------------------------------------|
/// | j0  | 0  | 8    | 400      | [0, 100) `cpu`  | stopped at 30; at 80 its node holds it: restarts [80, 180), succeeds (+10) |
/// | j1  | 0  | 8    | 170      | [0, 100) `cpu`  | stopped at 30; at 71, 71 + 100 > 170: fails (−5)              |
/// | j2  | 0  | 16   | 400      | [0, 100) `cpu`  | stopped at 30; at 80 j0 (8) and j3 (24, from 100) fill `cpu`: fails (−5) |
/// | j4  | 40 | 32   | 1000     | [40, 140) `v100`| the plan does not read node states: `cpu` is held to 100, `p100` too small |
/// | j3  | 60 | 24   | 1000     | [100, 200) `cpu`| `cpu` free at 100, `v100` at 140; runs, succeeds              |
///
/// Every job runs 100 s, its estimate. At 80 the disabled jobs are tried in
/// job order (j0, then j2); j1's booking left the plan when it failed.
#[test]
fn a_failure_stops_jobs_that_restart_on_repair_or_fail() {
    let m = Arc::new(three_nodes());
    let cpus = |n| ask(&m, n, GIB, Gpus::Whole(0), "");
    let jobs = vec![
        job(0, 0, 100, 400, cpus(8)),
        job(1, 0, 100, 170, cpus(8)),
        job(2, 0, 100, 400, cpus(16)),
        job(3, 60, 100, 1000, cpus(24)),
        job(4, 40, 100, 1000, cpus(32)),
    ];
    let mut failures = FailureStream::none(3);
    failures.events.push(NodeEvent { time: 30, kind: NodeEventKind::Fail, node: 0 });
    failures.events.push(NodeEvent { time: 80, kind: NodeEventKind::Repair, node: 0 });
    let first_fit = (NodeChoices::builtin()[0].build)(&[]);
    let d = conservative_backfilling(m.clone(), &jobs, first_fit.as_ref(), &failures).unwrap();
    let stops = |k: usize| d[k].stopped.iter().map(|(p, t)| (p.start, p.nodes[0].0, *t)).collect::<Vec<_>>();
    let last =
        |k: usize| (d[k].placement.as_ref().map(|p| (p.start, p.nodes[0].0)), d[k].end, d[k].outcome, d[k].money);
    for k in 0..3 {
        assert_eq!(stops(k), vec![(0, 0, 30)], "j{k}");
    }
    assert_eq!(last(0), (Some((80, 0)), Some(180), Outcome::Success, 10.0));
    assert_eq!(last(1), (Some((0, 0)), None, Outcome::Failed, -5.0));
    assert_eq!(last(2), (Some((0, 0)), None, Outcome::Failed, -5.0));
    assert_eq!(last(3), (Some((100, 0)), Some(200), Outcome::Success, 10.0));
    assert_eq!(last(4), (Some((40, 2)), Some(140), Outcome::Success, 10.0));
    assert!(stops(3).is_empty() && stops(4).is_empty());
}

/// Heuristic planning re-places a job its node failed under, on another
/// node, where conservative backfilling can only wait for its own (first
/// fit; every job runs 100 s, its estimate; `cpu` fails at 50, back at 250).
///
/// | job | at | asks           | deadline | booked          | heuristic planning                                   | conservative backfilling                     |
/// |-----|----|----------------|----------|-----------------|------------------------------------------------------|----------------------------------------------|
/// | j0  | 0  | 16 CPUs        | 300      | [0, 100) `cpu`  | stopped at 50, re-placed at once on `v100` (`p100`'s 16 CPUs are j1's): [50, 150), +10 | stopped at 50, waits for `cpu`; 201 + 100 > 300: fails, −5 |
/// | j1  | 0  | 16 CPUs, 1 GPU | 300      | [0, 100) `p100` | ends at 100, +10                                     | the same                                     |
#[test]
fn heuristic_planning_moves_a_stopped_job_to_another_node() {
    let m = Arc::new(three_nodes());
    let jobs = vec![
        job(0, 0, 100, 300, ask(&m, 16, GIB, Gpus::Whole(0), "")),
        job(1, 0, 100, 300, ask(&m, 16, GIB, Gpus::Whole(1), "")),
    ];
    let mut failures = FailureStream::none(3);
    failures.events.push(NodeEvent { time: 50, kind: NodeEventKind::Fail, node: 0 });
    failures.events.push(NodeEvent { time: 250, kind: NodeEventKind::Repair, node: 0 });
    let first_fit = (NodeChoices::builtin()[0].build)(&[]);
    let h = heuristic_planning(m.clone(), &jobs, first_fit.as_ref(), &failures).unwrap();
    let at = |d: &slasim_single::policy::on_machine::Decision| {
        (d.placement.as_ref().map(|p| (p.start, p.nodes[0].0)), d.end, d.outcome)
    };
    assert_eq!(h[0].stopped.iter().map(|(p, t)| (p.start, p.nodes[0].0, *t)).collect::<Vec<_>>(), vec![(0, 0, 50)]);
    assert_eq!(at(&h[0]), (Some((50, 2)), Some(150), Outcome::Success));
    assert_eq!(at(&h[1]), (Some((0, 1)), Some(100), Outcome::Success));
    let c = conservative_backfilling(m.clone(), &jobs, first_fit.as_ref(), &failures).unwrap();
    assert_eq!((c[0].outcome, c[0].end, c[0].money), (Outcome::Failed, None, -5.0));
    assert_eq!(at(&c[1]), (Some((0, 1)), Some(100), Outcome::Success));
}
