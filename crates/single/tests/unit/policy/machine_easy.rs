//! EASY backfilling on a machine of unlike nodes, with node failures: a
//! schedule and a failure case worked out by hand, odd inputs, and the
//! invariants on random machines, workloads and failure streams.

use std::sync::Arc;

use proptest::prelude::*;
use slasim_core::experiment::registry::Entries;
use slasim_core::units::Time;
use slasim_machine::{Gpus, MILLI, Machine, Partition, Request};
use slasim_single::cluster::strategy::{Outcome, RejectReason};
use slasim_single::plan::machine_plan::{Cards, MachinePlan, Placement};
use slasim_single::plan::node_choice::{NodeChoice, NodeChoices};
use slasim_single::policy::on_machine::easy::easy_backfilling;
use slasim_single::policy::on_machine::{Decision, MachineJob};
use slasim_single::workload::failures::{FailureStream, NodeEvent, NodeEventKind};
use slasim_single::workload::job::NO_DEADLINE;

use crate::unit::plan::machine_plan::{Case, GIB, ask, case, job, three_nodes};

const CPU: u32 = 0;
const P100: u32 = 1;
const V100: u32 = 2;

fn first_fit() -> Box<dyn NodeChoice> {
    (NodeChoices::builtin()[0].build)(&[])
}

fn placed(start: Time, node: u32, cards: Cards) -> Placement {
    Placement { start, nodes: vec![(node, cards)] }
}

fn stream(events: &[(Time, NodeEventKind, u32)]) -> FailureStream {
    let events = events.iter().map(|&(time, kind, node)| NodeEvent { time, kind, node }).collect();
    FailureStream { nodes: 3, events, source_records: 0 }
}

/// The schedule worked out by hand (first fit, no failures; every job runs
/// its estimate). Every job but j0 can only go on the V100 node: it asks a
/// V100 card or more memory than the other nodes have, or (j5) j0 holds
/// the CPU node's CPUs and the P100 node has 64 GiB.
///
/// | job | at | asks                        | est. | deadline | start | node, cards | end | outcome     |
/// |-----|----|-----------------------------|------|----------|-------|-------------|-----|-------------|
/// | j0  |  0 | 32 CPUs, 16 GiB             | 1000 | 2000     | 0     | cpu         | 1000| success     |
/// | j1  |  0 | 4 CPUs, 8 GiB, 4 GPUs       | 100  | 200      | 0     | v100, 0–3   | 100 | success     |
/// | j2  | 10 | 20 CPUs, 16 GiB, 1 V100     | 100  | 300      | 100   | v100, 0     | 200 | success     |
/// | j3  | 20 | 16 CPUs, 200 GiB            | 200  | 420      | 540   | v100        | 740 | late        |
/// | j4  | 30 | 8 CPUs, 150 GiB             | 60   | 150      | 30    | v100        | 90  | success     |
/// | j5  | 40 | 8 CPUs, 80 GiB              | 500  | 1100     | 40    | v100        | 540 | success     |
/// | j6  | 50 | 2 CPUs, 4 GiB, 1 V100       | 30   | 150      | 100   | v100, 1     | 130 | success     |
/// | j7  | 60 | 64 CPUs                     | 10   | 1000     | —     | —           | —   | too wide    |
///
/// - j2 is the head from 10: j1 holds the V100 cards until 100, so j2 is
///   reserved [100, 200) on card 0, with 20 of the node's 32 CPUs.
/// - j3 fits at 20 (28 CPUs and 248 GiB free), but over [20, 220) it would
///   hold 16 CPUs beside the head's 20: it must not backfill (it would delay
///   j2 to 220). It waits, at 30, 40, 50 and 90 too.
/// - j4 backfills at 30: it ends at 90, before the head's shadow time 100.
/// - j5 backfills at 40 past the shadow time on the head's extra CPUs: at
///   [100, 200) j2's 20 and its 8 are 28 ≤ 32.
/// - At 100 j1 ends and j2 starts; j3 is the head: j5's 80 GiB leave it
///   176 GiB until 540, so it is reserved at 540. j6 backfills at 100 beside
///   it, on card 1 (card 0 is j2's), ending at 130.
/// - j3 starts at 540 and ends at 740, after its deadline: late. EASY
///   protects the head alone: j5, queued after j3, delayed it.
/// - j7 asks for 64 CPUs on one node; no node has more than 32.
///
/// Gain: 6 × 10 − 5 = 55.
#[test]
fn a_schedule_on_three_unlike_nodes_worked_out_by_hand() {
    let m = Arc::new(three_nodes());
    let none = Gpus::Whole(0);
    let jobs = vec![
        job(0, 0, 1000, 2000, ask(&m, 32, 16 * GIB, none, "")),
        job(1, 0, 100, 200, ask(&m, 4, 8 * GIB, Gpus::Whole(4), "")),
        job(2, 10, 100, 300, ask(&m, 20, 16 * GIB, Gpus::Whole(1), "V100")),
        job(3, 20, 200, 420, ask(&m, 16, 200 * GIB, none, "")),
        job(4, 30, 60, 150, ask(&m, 8, 150 * GIB, none, "")),
        job(5, 40, 500, 1100, ask(&m, 8, 80 * GIB, none, "")),
        job(6, 50, 30, 150, ask(&m, 2, 4 * GIB, Gpus::Whole(1), "V100")),
        job(7, 60, 10, 1000, ask(&m, 64, GIB, none, "")),
    ];
    let expected: [Option<(Time, u32, Cards, Time)>; 8] = [
        Some((0, CPU, Cards::None, 1000)),
        Some((0, V100, Cards::Whole(0b1111), 100)),
        Some((100, V100, Cards::Whole(0b1), 200)),
        Some((540, V100, Cards::None, 740)),
        Some((30, V100, Cards::None, 90)),
        Some((40, V100, Cards::None, 540)),
        Some((100, V100, Cards::Whole(0b10), 130)),
        None,
    ];
    let outcomes = [
        Outcome::Success,
        Outcome::Success,
        Outcome::Success,
        Outcome::Failed,
        Outcome::Success,
        Outcome::Success,
        Outcome::Success,
        Outcome::Rejected,
    ];
    let requests: Vec<Request> = jobs.iter().map(|j| j.request.clone()).collect();
    // Every choice gives the same nodes and cards: each job has one node
    // that can hold it then, and the cards are the lowest wholly free.
    for info in NodeChoices::builtin() {
        let choice = (info.build)(&requests);
        let decisions = easy_backfilling(m.clone(), &jobs, choice.as_ref(), &FailureStream::none(3)).unwrap();
        assert_eq!(decisions.len(), jobs.len());
        for ((d, want), outcome) in decisions.iter().zip(expected).zip(outcomes) {
            let got = d.placement.as_ref().map(|p| (p.start, p.nodes[0].0, p.nodes[0].1, d.end.unwrap()));
            assert_eq!(got, want, "{}: job {}", info.name, d.job);
            assert_eq!(d.outcome, outcome, "{}: job {}", info.name, d.job);
            assert!(d.stopped.is_empty());
        }
        assert_eq!(decisions[3].money, -5.0);
        assert_eq!(decisions[7].reason, Some(RejectReason::TooWide));
        assert_eq!(decisions[7].unfit.as_ref().unwrap().field, "cpus");
        assert_eq!(decisions[7].money, 0.0);
        assert!(decisions[..7].iter().all(|d| d.reason.is_none() && d.unfit.is_none()));
        let gain: f64 = decisions.iter().map(|d| d.money).sum();
        assert_eq!(gain, 55.0, "{}", info.name);
    }
}

/// Failures worked out by hand (first fit). The CPU node fails at 20 for
/// good; the V100 node fails at 30, is repaired at 50 and fails for good at
/// 200; the P100 node fails at 120, as j1 ends there, and is repaired at 130.
///
/// | job | at | asks                   | est. | deadline | runs                          | outcome          |
/// |-----|----|------------------------|------|----------|-------------------------------|------------------|
/// | j0  |  0 | 4 CPUs, 8 GiB, 1 V100  | 100  | 140      | v100 [0, 30); v100 [50, 150)  | late             |
/// | j1  |  0 | 8 CPUs, 16 GiB         | 100  | 300      | cpu [0, 20); p100 [20, 120)   | success          |
/// | j2  | 40 | 4 CPUs, 8 GiB          | 50   | 200      | p100 [40, 90)                 | success          |
/// | j3  | 160| 4 CPUs, 8 GiB, 1 V100  | 100  | 400      | v100 [160, 200)               | never restarts   |
/// | j4  | 25 | 4 CPUs, 8 GiB, 4 V100s | 10   | 1000     | v100 [150, 160)               | success          |
///
/// - At 20 j1 is stopped on the CPU node and restarts at once, from
///   scratch, on the P100 node (16 CPUs, 64 GiB).
/// - At 25 j4 waits for j0's card, the head.
/// - At 30 j0 is stopped and requeued at its place, ahead of j4; only the
///   V100 node holds it, and it is down (for good, as far as a pass knows):
///   j0 is the head, without a reservation.
/// - At 40 j2 starts beside j1 on the P100 node although j0 and j4 wait
///   ahead.
/// - At 50 the V100 node is back: j0 restarts on card 0 and ends at 150,
///   after its deadline 140: late. j4 (had it gone ahead of j0, it would
///   have run [50, 60)) is the head, reserved at 150, and runs [150, 160).
/// - At 120 j1 ends before the P100 node fails: it is not stopped.
/// - At 200 j3 is stopped; the V100 node never comes back: j3 ends the
///   run queued (failed, no placement, no end), its run kept.
///
/// Gain: 10 + 10 − 5 − 5 + 10 = 20.
#[test]
fn a_failed_nodes_jobs_are_stopped_requeued_and_restarted_by_hand() {
    use NodeEventKind::{Fail, Repair};
    let m = Arc::new(three_nodes());
    let none = Gpus::Whole(0);
    let jobs = vec![
        job(0, 0, 100, 140, ask(&m, 4, 8 * GIB, Gpus::Whole(1), "V100")),
        job(1, 0, 100, 300, ask(&m, 8, 16 * GIB, none, "")),
        job(2, 40, 50, 200, ask(&m, 4, 8 * GIB, none, "")),
        job(3, 160, 100, 400, ask(&m, 4, 8 * GIB, Gpus::Whole(1), "V100")),
        job(4, 25, 10, 1000, ask(&m, 4, 8 * GIB, Gpus::Whole(4), "V100")),
    ];
    let failures = stream(&[
        (20, Fail, CPU),
        (30, Fail, V100),
        (50, Repair, V100),
        (120, Fail, P100),
        (130, Repair, P100),
        (200, Fail, V100),
    ]);
    let d = easy_backfilling(m.clone(), &jobs, first_fit().as_ref(), &failures).unwrap();
    let card0 = Cards::Whole(0b1);

    assert_eq!(d[0].placement, Some(placed(50, V100, card0)));
    assert_eq!(d[0].end, Some(150));
    assert_eq!(d[0].stopped, vec![(placed(0, V100, card0), 30)]);
    assert_eq!((d[0].outcome, d[0].money), (Outcome::Failed, -5.0));

    assert_eq!(d[1].placement, Some(placed(20, P100, Cards::None)));
    assert_eq!(d[1].end, Some(120));
    assert_eq!(d[1].stopped, vec![(placed(0, CPU, Cards::None), 20)]);
    assert_eq!((d[1].outcome, d[1].money), (Outcome::Success, 10.0));

    assert_eq!(d[2].placement, Some(placed(40, P100, Cards::None)));
    assert_eq!(d[2].end, Some(90));
    assert!(d[2].stopped.is_empty());
    assert_eq!(d[2].outcome, Outcome::Success);

    assert_eq!(d[3].placement, None);
    assert_eq!(d[3].end, None);
    assert_eq!(d[3].stopped, vec![(placed(160, V100, card0), 200)]);
    assert_eq!((d[3].outcome, d[3].money), (Outcome::Failed, -5.0));
    assert_eq!(d[3].reason, None);

    assert_eq!(d[4].placement, Some(placed(150, V100, Cards::Whole(0b1111))));
    assert_eq!(d[4].end, Some(160));
    assert!(d[4].stopped.is_empty());
    assert_eq!(d[4].outcome, Outcome::Success);

    assert_eq!(d.iter().map(|d| d.money).sum::<f64>(), 20.0);
    // The same stream, unsorted and with an event of a node the machine
    // lacks, a repair of an up node and a second failure of a down node,
    // gives the same schedule.
    let mut odd = failures.clone();
    odd.events.reverse();
    odd.events.push(NodeEvent { time: 5, kind: Fail, node: 7 });
    odd.events.push(NodeEvent { time: 10, kind: Repair, node: P100 });
    odd.events.push(NodeEvent { time: 60, kind: Fail, node: CPU });
    assert_eq!(easy_backfilling(m, &jobs, first_fit().as_ref(), &odd).unwrap(), d);
}

/// Odd inputs neither panic nor break the contract: zero and negative
/// estimates and runtimes, times near the ends of the clock, a partition
/// the machine lacks, a share above a card, no node at all.
#[test]
fn odd_inputs_do_not_panic() {
    let m = Arc::new(three_nodes());
    let none = Gpus::Whole(0);
    let mut jobs = vec![
        job(0, 0, 0, 10, ask(&m, 1, GIB, none, "")),
        job(1, -5, -3, NO_DEADLINE, ask(&m, 1, GIB, none, "")),
        job(2, Time::MIN, 10, NO_DEADLINE, ask(&m, 1, GIB, none, "")),
        job(3, Time::MAX, 10, NO_DEADLINE, ask(&m, 1, GIB, none, "")),
        job(4, NO_DEADLINE, Time::MAX, NO_DEADLINE, ask(&m, 1, GIB, none, "")),
        job(5, 0, 10, 100, ask(&m, 0, 0, none, "")),
        job(6, 0, 10, 100, ask(&m, 1, GIB, Gpus::Share(1500), "")),
        job(7, 0, 10, 100, ask(&m, 1, GIB, none, "")),
    ];
    jobs[0].job.runtime = 0;
    jobs[7].request.partition = Some(3);
    let failures = stream(&[(0, NodeEventKind::Fail, CPU), (Time::MAX, NodeEventKind::Repair, CPU)]);
    let d = easy_backfilling(m.clone(), &jobs, first_fit().as_ref(), &failures).unwrap();
    assert_eq!(d.len(), jobs.len());
    // A run of nothing ends as it starts.
    assert_eq!((d[0].placement.as_ref().map(|p| p.start), d[0].end), (Some(0), Some(0)));
    assert_eq!(d[1].end, Some(-5));
    assert_eq!(d[2].end, Some(Time::MIN + 10));
    // Past the horizon nothing starts.
    assert_eq!((d[3].outcome, d[3].placement.as_ref()), (Outcome::Failed, None));
    assert_eq!(d[4].placement.as_ref().map(|p| p.start), Some(NO_DEADLINE));
    assert_eq!(d[4].outcome, Outcome::Success);
    // A request of nothing is not put on the down CPU node.
    assert_eq!(d[5].placement.as_ref().map(|p| p.nodes[0].0), Some(P100));
    assert_eq!((d[6].outcome, d[6].placement.as_ref()), (Outcome::Failed, None));
    assert_eq!((d[7].outcome, d[7].reason), (Outcome::Rejected, Some(RejectReason::TooWide)));
    assert_eq!(d[7].unfit.as_ref().unwrap().field, "partition");
    // A partition naming a node the machine lacks.
    let mut bad = (*m).clone();
    bad.partitions.push(Partition { name: "gpu".into(), nodes: vec![2, 9] });
    let mut in_bad = jobs[7].clone();
    in_bad.request.partition = Some(0);
    let d = easy_backfilling(Arc::new(bad), &[in_bad], first_fit().as_ref(), &FailureStream::none(3)).unwrap();
    assert_eq!(d[0].unfit.as_ref().unwrap().field, "partition");
    // No node at all: everything is too wide.
    let d = easy_backfilling(Arc::new(Machine::default()), &jobs, first_fit().as_ref(), &failures).unwrap();
    assert!(d.iter().all(|d| d.outcome == Outcome::Rejected));
}

// ---- invariants on random machines, workloads and failure streams ----

/// Each node's down spells `[failure, repair)` (the repair `Time::MAX` when
/// none comes).
fn down_spells(case: &Case) -> Vec<Vec<(Time, Time)>> {
    let mut spells = vec![Vec::new(); case.machine.len()];
    for e in &case.failures.events {
        let node: &mut Vec<(Time, Time)> = &mut spells[e.node as usize];
        match e.kind {
            NodeEventKind::Fail => node.push((e.time, Time::MAX)),
            NodeEventKind::Repair => {
                if let Some(last) = node.last_mut() {
                    last.1 = e.time;
                }
            }
        }
    }
    spells
}

/// The invariants of any run (module contract), `name` the choice.
fn check_runs(case: &Case, decisions: &[Decision], name: &str) -> Result<(), TestCaseError> {
    let machine = &case.machine;
    let spells = down_spells(case);
    prop_assert_eq!(decisions.len(), case.jobs.len());
    // Every run each node carries: (start, stop or end, job index, cards).
    let mut runs: Vec<Vec<(Time, Time, usize, Cards)>> = vec![Vec::new(); machine.len()];
    for (i, (d, j)) in decisions.iter().zip(&case.jobs).enumerate() {
        let job = &j.job;
        prop_assert_eq!(d.job, job.id);
        if d.outcome == Outcome::Rejected {
            prop_assert!(machine.check(&j.request).is_err(), "{}: job {} rejected", name, i);
            prop_assert_eq!(d.reason, Some(RejectReason::TooWide));
            prop_assert!(d.unfit.is_some() && d.placement.is_none() && d.money == 0.0);
            continue;
        }
        prop_assert!(machine.check(&j.request).is_ok() && d.reason.is_none() && d.unfit.is_none());
        let length = job.runtime.min(job.estimate);
        let mut all: Vec<(&Placement, Time)> = Vec::new();
        for (p, stop) in &d.stopped {
            prop_assert!(p.start <= *stop && *stop < p.start + length, "{}: job {} stopped at {}", name, i, stop);
            // Stopped by a failure of one of its nodes.
            let failed = p.nodes.iter().any(|&(n, _)| spells[n as usize].iter().any(|s| s.0 == *stop));
            prop_assert!(failed, "{}: job {} stopped at {} by no failure", name, i, stop);
            all.push((p, *stop));
        }
        match (&d.placement, d.end) {
            (Some(p), Some(end)) => {
                prop_assert_eq!(end, p.start + length);
                let on_time = end <= job.deadline;
                let (outcome, money) =
                    if on_time { (Outcome::Success, job.fee) } else { (Outcome::Failed, -job.penalty) };
                prop_assert_eq!((d.outcome, d.money), (outcome, money), "{}: job {}", name, i);
                all.push((p, end));
            }
            (None, None) => {
                // It could never start: too few up nodes hold it at the end.
                prop_assert_eq!((d.outcome, d.money), (Outcome::Failed, -job.penalty));
                let up = machine
                    .candidates(&j.request)
                    .filter(|&n| machine.holds(n, &j.request))
                    .filter(|&n| spells[n as usize].last().is_none_or(|s| s.1 < Time::MAX))
                    .count();
                prop_assert!(up < j.request.nodes as usize, "{}: job {} never started", name, i);
            }
            _ => prop_assert!(false, "{}: job {}: a placement without an end, or the reverse", name, i),
        }
        for (p, stop) in all {
            prop_assert!(p.start >= job.occurrence.max(job.release));
            prop_assert_eq!(p.nodes.len() as u32, j.request.nodes);
            let mut nodes: Vec<u32> = p.nodes.iter().map(|n| n.0).collect();
            nodes.sort_unstable();
            nodes.dedup();
            prop_assert_eq!(nodes.len(), p.nodes.len(), "distinct nodes");
            for &(n, cards) in &p.nodes {
                prop_assert!(machine.holds(n, &j.request));
                // (b) Never on a down node.
                for &(fail, repair) in &spells[n as usize] {
                    prop_assert!(
                        stop <= fail || p.start >= repair,
                        "{}: job {} runs [{}, {}) on node {} down [{}, {})",
                        name,
                        i,
                        p.start,
                        stop,
                        n,
                        fail,
                        repair
                    );
                }
                runs[n as usize].push((p.start, stop, i, cards));
            }
        }
    }
    // (a) No node exceeds a resource at any instant.
    for (n, runs) in runs.iter().enumerate() {
        let size = machine.size[n];
        for &(t, _, _, _) in runs {
            let at: Vec<_> = runs.iter().filter(|s| s.0 <= t && t < s.1).collect();
            let cpu: u64 = at.iter().map(|s| u64::from(case.jobs[s.2].request.cpu_milli)).sum();
            let mem: u64 = at.iter().map(|s| case.jobs[s.2].request.mem_mib).sum();
            prop_assert!(cpu <= u64::from(size.cpus) * 1000, "{}: node {} CPUs at {}", name, n, t);
            prop_assert!(mem <= size.mem_mib, "{}: node {} memory at {}", name, n, t);
            for c in 0..size.gpus as usize {
                let used: u32 = at.iter().map(|s| u32::from(s.3.on(c))).sum();
                prop_assert!(used <= u32::from(MILLI), "{}: node {} card {} at {}: {}", name, n, c, t, used);
            }
        }
    }
    Ok(())
}

/// (d) Without failures, backfilling never delays the queue's head: each
/// job starts no later than its earliest start on a fresh plan of what held
/// the machine when it became the head (the jobs running then, and the
/// earlier-queued jobs started then), each booked for its estimate; when
/// every runtime is its estimate, exactly then.
fn check_head(case: &Case, decisions: &[Decision], choice: &dyn NodeChoice) -> Result<(), TestCaseError> {
    let machine = Arc::new(case.machine.clone());
    let jobs = &case.jobs;
    let exact = jobs.iter().all(|j| j.job.runtime == j.job.estimate);
    let mut order: Vec<usize> = (0..jobs.len()).filter(|&i| decisions[i].outcome != Outcome::Rejected).collect();
    order.sort_by_key(|&i| (jobs[i].job.occurrence, jobs[i].job.id));
    let run = |i: usize| -> (Time, Time) {
        let start = decisions[i].placement.as_ref().map_or(Time::MAX, |p| p.start);
        (start, decisions[i].end.unwrap_or(Time::MAX))
    };
    let mut last_start = Time::MIN;
    for (k, &j) in order.iter().enumerate() {
        let (start, _) = run(j);
        prop_assert!(start < Time::MAX, "job {} never started without failures", j);
        // The instant it became the head; started earlier, it never was:
        // it was backfilled while an earlier-queued job waited.
        let head_at = jobs[j].job.occurrence.max(last_start);
        last_start = last_start.max(start);
        if start < head_at {
            continue;
        }
        let mut plan = MachinePlan::new(machine.clone()).unwrap();
        for (q, &i) in order.iter().enumerate() {
            let (s, e) = run(i);
            if (s < head_at && e > head_at) || (q < k && s == head_at) {
                let p = decisions[i].placement.as_ref().unwrap();
                plan.book(jobs[i].job.id, &jobs[i].request, p, s + jobs[i].job.estimate);
            }
        }
        let MachineJob { job, request } = &jobs[j];
        let earliest = plan.earliest(request, head_at, job.estimate, NO_DEADLINE, choice).map(|p| p.start);
        prop_assert!(
            earliest.is_some_and(|r| start <= r),
            "job {}: starts at {}; head at {}: {:?}",
            j,
            start,
            head_at,
            earliest
        );
        if exact {
            prop_assert_eq!(Some(start), earliest, "job {} (head at {})", j, head_at);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// (a) No node exceeds its CPUs, memory or any card at any instant,
    /// counting stopped runs; (b) no job runs on a down node; (c) every job
    /// that is not rejected runs, or never could start; outcomes and money
    /// follow the deadlines. Under every node choice, deterministically.
    #[test]
    fn runs_fit_their_nodes_avoid_down_nodes_and_every_job_is_accounted_for(case in case(true)) {
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = case.jobs.iter().map(|j| j.request.clone()).collect();
        for info in NodeChoices::builtin() {
            let choice = (info.build)(&requests);
            let decisions = easy_backfilling(machine.clone(), &case.jobs, choice.as_ref(), &case.failures).unwrap();
            check_runs(&case, &decisions, info.name)?;
            let again = easy_backfilling(machine.clone(), &case.jobs, choice.as_ref(), &case.failures).unwrap();
            prop_assert_eq!(again, decisions, "{}: deterministic", info.name);
        }
    }

    /// (d) Without failures, backfilling never delays the queue's head, and
    /// (a)–(c) hold.
    #[test]
    fn backfilling_never_delays_the_head(case in case(false)) {
        let machine = Arc::new(case.machine.clone());
        let requests: Vec<Request> = case.jobs.iter().map(|j| j.request.clone()).collect();
        for info in NodeChoices::builtin() {
            let choice = (info.build)(&requests);
            let decisions =
                easy_backfilling(machine.clone(), &case.jobs, choice.as_ref(), &case.failures).unwrap();
            check_runs(&case, &decisions, info.name)?;
            check_head(&case, &decisions, choice.as_ref())?;
        }
    }
}
