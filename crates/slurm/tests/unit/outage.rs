//! Node events: read from `sacctmgr show event -P` dumps, and nodes out of
//! scheduling in the controller, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_slurm::accounting::Accounting;
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::{SlurmConf, parse};
use slasim_slurm::machine::Machine;
use slasim_slurm::outage::Outages;
use slasim_slurm::sacctmgr::{NodeEventKind, parse_events};

use crate::{TWO_NODES as TWO, first_nodes, job, starts, workload};

const HEADER: &str = "NodeName|TimeStart|TimeEnd|State|Reason\n";

fn conf() -> SlurmConf {
    parse(TWO, Path::new("test.conf")).expect("the test conf parses")
}

fn on_clock(mut w: SlurmWorkload) -> SlurmWorkload {
    w.epoch = Some(0);
    w.clock_origin = Some(0);
    w
}

fn outages(c: &SlurmConf, w: &SlurmWorkload, rows: &str) -> Result<Outages, String> {
    let dump = parse_events(&format!("{HEADER}{rows}"), Path::new("events.txt")).map_err(|e| e.to_string())?;
    Outages::new(&dump, &Machine::new(c), w).map_err(|e| e.to_string())
}

fn run(w: &SlurmWorkload, rows: Option<&str>) -> Simulated {
    let c = conf();
    let o = rows.map(|r| outages(&c, w, r).expect("the events are valid"));
    let s = Scenario::with_accounting(&c, c.priority.clone(), c.scheduler.clone(), w, &Accounting::default())
        .expect("every job is admitted")
        .with_outages(o);
    simulate(s).expect("the run ends")
}

/// J1 (4 CPUs, runs 100) and J2 (4 CPUs, runs 300) at 0; J3 (4 CPUs, runs
/// 50) at 60. n1 is drained from 50 to 200 (epoch seconds; the workload's
/// time 0 is epoch 0).
/// - 0: J1 on n1 (the first node), J2 on n2.
/// - 50: n1 is drained: J1 runs on to 100.
/// - 60: J3 is submitted; no node is free.
/// - 100: J1 ends; n1 is free but drained: J3 waits.
/// - 200: n1 comes back; the pass its update asks for starts J3 on n1.
///
/// Without the event J3 starts on n1 at 100.
#[test]
fn a_drained_node_runs_its_jobs_on_and_starts_none_until_it_is_back() {
    let w =
        on_clock(workload(vec![job(1, 0, 4, 100, 100), job(2, 0, 4, 300, 300), job(3, 60, 4, 100, 50)], &["batch"]));
    let sim = run(&w, Some("n1|50|200|DRAIN|maintenance\n"));
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (0, 300, false), (200, 250, false)]);
    assert_eq!(first_nodes(&sim), vec![0, 1, 0]);
    let off = run(&w, None);
    assert_eq!(starts(&off.outcomes)[2], (100, 150, false));
}

/// Events of one node that overlap keep it out until the last ends: n1 is
/// failing from 50 to 150 and down (`DOWN*`, not responding) from 120 to
/// 220; J3 waits for 220. An event that ends as another begins at the same
/// instant leaves no gap.
#[test]
fn overlapping_events_keep_a_node_out_until_the_last_ends() {
    let w =
        on_clock(workload(vec![job(1, 0, 4, 100, 100), job(2, 0, 4, 300, 300), job(3, 60, 4, 100, 50)], &["batch"]));
    let sim = run(&w, Some("n1|50|150|FAIL|x\nn1|120|220|DOWN*|y\n"));
    assert_eq!(starts(&sim.outcomes)[2], (220, 270, false));
    let sim = run(&w, Some("n1|50|150|DRAIN|x\nn1|150|230|DRAIN|y\n"));
    assert_eq!(starts(&sim.outcomes)[2], (230, 280, false));
}

/// An event before the first submission (epoch 1000 here) holds from the
/// start, and one not over (`Unknown`) holds for good: J1 (4 CPUs) runs on
/// n2, and J2 (4 CPUs, 8 s) after it, at 100; with n2 down for good too,
/// neither ever starts and the run still ends.
#[test]
fn an_event_not_over_holds_its_node_for_good() {
    let mut w = workload(vec![job(1, 0, 4, 100, 100), job(2, 0, 4, 100, 8)], &["batch"]);
    (w.epoch, w.clock_origin) = (Some(1000), Some(1000));
    let sim = run(&w, Some("n1|900|Unknown|DRAIN|x\n"));
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (100, 108, false)]);
    assert_eq!(first_nodes(&sim), vec![1, 1]);
    let sim = run(&w, Some("n[1-2]|900|Unknown|DOWN|x\n"));
    assert_eq!(starts(&sim.outcomes), vec![(-1, -1, false), (-1, -1, false)]);
}

#[test]
fn event_dumps_are_read_as_sacctmgr_prints_them() {
    let text = "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User\n\
                c||2026-11-01T00:00:00|Unknown||Cluster Registered TRES|\n\
                c|cpu[1-2]|2026-11-01T10:00:00|2026-11-01T12:30:00|DRAIN|disk|root(0)\n\
                c|gpu1|2026-11-02T00:00:00|Unknown|DOWN*|Not responding|slurm(64030)\n\
                c|gpu2|2026-11-02T00:00:00|2026-11-02T00:05:00|MIX$|maint|root(0)\n";
    let err = parse_events(text, Path::new("ev.txt")).expect_err("MIX is no node event");
    assert_eq!(
        err.to_string(),
        "ev.txt:5: State: `MIX$`: a node event is DOWN, DRAIN, DRNG, FAIL or FAILG (with its flag character)"
    );
    let text = text.rsplit_once("c|gpu2").map(|(a, _)| a).expect("the last row");
    let dump = parse_events(text, Path::new("ev.txt")).expect("the dump is read");
    assert_eq!(dump.cluster_events, 1);
    assert_eq!(dump.events.len(), 2);
    let e = &dump.events[0];
    assert_eq!(
        (e.line, e.nodes.clone(), e.kind),
        (3, vec!["cpu1".to_string(), "cpu2".to_string()], NodeEventKind::Drain)
    );
    assert_eq!(e.end.map(|end| end - e.start), Some(9000));
    assert_eq!(
        (dump.events[1].kind, dump.events[1].end, dump.events[1].reason.as_str()),
        (NodeEventKind::Down, None, "Not responding")
    );
}

/// Bad dumps and events are located errors.
#[test]
fn bad_node_events_are_located_errors() {
    let bad = |text: &str| parse_events(text, Path::new("ev.txt")).expect_err("refused").to_string();
    assert_eq!(bad(""), "ev.txt:0: header: empty file: no header line");
    assert!(bad("NodeName|TimeStart|State\nn1|5|DRAIN\n").starts_with("ev.txt:1: header: no `TimeEnd` column"));
    assert_eq!(bad(&format!("{HEADER}n1|50|40|DRAIN|x\n")), "ev.txt:2: TimeEnd: `40` is before the event's start");
    assert_eq!(
        bad(&format!("{HEADER}n1|soon|60|DRAIN|x\n")),
        "ev.txt:2: TimeStart: `soon` is not a time (YYYY-MM-DDTHH:MM:SS, or epoch seconds with SLURM_TIME_FORMAT=%s)"
    );
    assert_eq!(bad(&format!("{HEADER}n1|50|60|DRAIN\n")), "ev.txt:2: columns: 4 fields, but the header has 5 columns");
    assert!(
        bad(&format!("{HEADER}n1|50|2026-11-01T00:00:00|DRAIN|x\n"))
            .contains("mixes wall-clock times and epoch seconds")
    );
    assert!(bad(&format!("{HEADER}n[1-|50|60|DRAIN|x\n")).starts_with("ev.txt:2: NodeName: "));
    let c = conf();
    let w = on_clock(workload(vec![job(1, 0, 4, 100, 100)], &["batch"]));
    assert_eq!(
        outages(&c, &w, "n1|50|60|DRAIN|x\nn9|50|60|DOWN|x\n").expect_err("n9 is unknown"),
        "events.txt:3: NodeName: node `n9` is not one of the conf's nodes"
    );
    // A workload without absolute times cannot place wall-clock events.
    let w = workload(vec![job(1, 0, 4, 100, 100)], &["batch"]);
    assert!(outages(&c, &w, "n1|2026-11-01T00:00:00|Unknown|DRAIN|x\n").expect_err("no clock").starts_with(
        "events.txt:2: TimeStart: the node events are in wall-clock times but the workload has no absolute times"
    ));
}

/// A drain recorded as a job on its node ended was asked for while that job
/// ran: the node goes out just after the last logged start on it. J1 (2
/// CPUs) ran on n1 from 0 to 100 and J2 (4 CPUs) on n2 from 0 to 300, as
/// logged; J3 (2 CPUs, 20 s) is submitted at 50.
/// - The drain of n1 recorded at 100 (J1's end) was asked after 0: n1 is out
///   from 1, so J3 waits for n2, 300–320.
/// - Recorded at 150, when no logged run on n1 ended, n1 was idle: the
///   record is the request, and J3 runs on n1's free CPUs at 50.
#[test]
fn a_drain_recorded_at_a_jobs_end_was_asked_for_after_the_last_start() {
    let logged = |j: slasim_data::trace::sacct::jobs::SlurmJob, start: i64, end: i64, node: &str| {
        let request = j.request;
        slasim_data::trace::sacct::jobs::SlurmJob {
            logged: Some(slasim_data::trace::sacct::jobs::Logged {
                start,
                end,
                alloc: request,
                node_list: Some(node.into()),
                ending: slasim_data::trace::sacct::jobs::Ending::Completed,
                requeued: 0,
            }),
            ..j
        }
    };
    let w = on_clock(workload(
        vec![
            logged(job(1, 0, 2, 100, 100), 0, 100, "n1"),
            logged(job(2, 0, 4, 300, 300), 0, 300, "n2"),
            logged(job(3, 50, 2, 100, 20), 300, 320, "n2"),
        ],
        &["batch"],
    ));
    let sim = run(&w, Some("n1|100|400|DRAIN|x\n"));
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (0, 300, false), (300, 320, false)]);
    let sim = run(&w, Some("n1|150|400|DRAIN|x\n"));
    assert_eq!(starts(&sim.outcomes)[2], (50, 70, false));
    assert_eq!(first_nodes(&sim)[2], 0);
    // A node that goes down is recorded at once.
    let sim = run(&w, Some("n1|100|400|DOWN|x\n"));
    assert_eq!(starts(&sim.outcomes)[2].0, 50);
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(64))]

    /// Any jobs and any drains and failures of the two nodes (some over
    /// within their first second): no job starts
    /// on a node while an event holds it, no node holds more CPUs than it
    /// has at any start, every job starts (every event ends), and every run
    /// a node going down stopped was on it and ended as it went down, while
    /// no run goes on over a `DOWN` on its nodes.
    #[test]
    fn no_job_starts_on_a_node_out_of_service(
        jobs in proptest::collection::vec((0i64..300, 1u32..5, 1i64..120, 1i64..120), 1..25),
        events in proptest::collection::vec((0u32..2, 0i64..400, 0i64..200, proptest::bool::ANY), 0..6),
    ) {
        let list = jobs
            .iter()
            .enumerate()
            .map(|(i, &(submit, cpus, limit, run))| job(i as u64 + 1, submit, cpus, limit, run))
            .collect();
        let mut w = on_clock(workload(list, &["batch"]));
        w.jobs.sort_by_key(|j| j.submit);
        let rows: String = events
            .iter()
            .map(|&(n, start, len, down)| format!("n{}|{start}|{}|{}|x\n", n + 1, start + len, if down { "DOWN" } else { "DRAIN" }))
            .collect();
        let sim = run(&w, Some(&rows));
        for (j, o) in sim.outcomes.iter().enumerate() {
            proptest::prop_assert!(o.start >= w.jobs[j].submit, "job {j} never started or started early: {o:?}");
            for &n in sim.nodes_of(j) {
                let out = events.iter().any(|&(e, start, len, _)| e == n && start <= o.start && o.start < start + len);
                proptest::prop_assert!(!out, "job {j} started at {} on n{} while it was out", o.start, n + 1);
                // The CPUs of the jobs running on n at this start.
                let used: u32 = (0..sim.outcomes.len())
                    .filter(|&k| {
                        let p = &sim.outcomes[k];
                        p.start <= o.start && o.start < p.end && sim.nodes_of(k).contains(&n)
                    })
                    .map(|k| w.jobs[k].request.cpus)
                    .sum();
                proptest::prop_assert!(used <= 4, "n{} holds {used} CPUs at {}", n + 1, o.start);
            }
        }
        // Every run, stopped or not: over no `DOWN` of its nodes.
        let mut runs: Vec<(usize, i64, i64, &[u32])> =
            sim.stopped.iter().map(|s| (s.job as usize, s.start, s.end, sim.nodes_of_stopped(s))).collect();
        runs.extend(sim.outcomes.iter().enumerate().map(|(j, o)| (j, o.start, o.end, sim.nodes_of(j))));
        for &(j, start, end, nodes) in &runs {
            for &(e, at, _, down) in &events {
                let crosses = down && nodes.contains(&e) && start < at && at < end;
                proptest::prop_assert!(!crosses, "job {j} ran {start}–{end} on n{} over its failure at {at}", e + 1);
            }
        }
        for s in &sim.stopped {
            let failed = events.iter().any(|&(e, at, _, down)| down && at == s.end && sim.nodes_of_stopped(s).contains(&e));
            proptest::prop_assert!(failed, "job {} stopped at {} with no node of its going down", s.job, s.end);
        }
        let killed: u32 = sim.outcomes.iter().map(|o| o.node_failed).sum();
        proptest::prop_assert_eq!(killed as usize, sim.stopped.len());
    }
}

/// A node going down kills its running jobs, which are requeued
/// (`JobRequeue=1`, the default) or ended (`JobRequeue=0`). J1 (4 CPUs,
/// runs 100) and J2 (4 CPUs, runs 300) at 0; n1 is down from 50 to 60.
/// - 0: J1 on n1, J2 on n2.
/// - 50: n1 goes down: J1 is killed there (its run 0–50 is kept as
///   stopped) and requeued: submitted again at 50, eligible 121 s on
///   (`AuthInfo`'s default `cred_expire` 120, plus 1), at 171.
/// - 60: n1 is back, idle.
/// - 171: J1 is queued again; the next main pass, the background loop's
///   full pass every 60 s (at 180), starts it on n1 for its whole 100 s:
///   180–280.
///
/// Under `JobRequeue=0` J1 ends at 50 (`NODE_FAIL`) and never runs again.
/// A drain over the same span kills nothing: J1 runs on to 100.
#[test]
fn a_node_going_down_kills_its_jobs_which_are_requeued_or_ended() {
    let w = on_clock(workload(vec![job(1, 0, 4, 100, 100), job(2, 0, 4, 300, 300)], &["batch"]));
    let sim = run(&w, Some("n1|50|60|DOWN|x\n"));
    assert_eq!(starts(&sim.outcomes), vec![(180, 280, false), (0, 300, false)]);
    assert_eq!(first_nodes(&sim), vec![0, 1]);
    assert_eq!((sim.outcomes[0].node_failed, sim.outcomes[0].node_fail_ended), (1, false));
    assert_eq!(sim.counters.node_failed, 1);
    assert_eq!(sim.stopped.len(), 1);
    let s = sim.stopped[0];
    assert_eq!((s.job, s.start, s.end, sim.nodes_of_stopped(&s)), (0, 0, 50, &[0u32][..]));

    let c = parse(&format!("{TWO}JobRequeue=0\n"), Path::new("test.conf")).expect("the test conf parses");
    let o = outages(&c, &w, "n1|50|60|DOWN|x\n").expect("the events are valid");
    let s = Scenario::with_accounting(&c, c.priority.clone(), c.scheduler.clone(), &w, &Accounting::default())
        .expect("every job is admitted")
        .with_outages(Some(o));
    let sim = simulate(s).expect("the run ends");
    assert_eq!(starts(&sim.outcomes), vec![(0, 50, false), (0, 300, false)]);
    assert_eq!((sim.outcomes[0].node_failed, sim.outcomes[0].node_fail_ended), (1, true));
    assert_eq!(sim.stopped.len(), 1);

    let sim = run(&w, Some("n1|50|60|DRAIN|x\n"));
    assert_eq!(starts(&sim.outcomes)[0], (0, 100, false));
    assert!(sim.stopped.is_empty());
}

/// A node down for less than a second (its event ends in the second it
/// began, as when slurmd answers at once under `ReturnToService=2`): J1 is
/// killed at 50 and requeued, and n1 is back at once. J3 (4 CPUs, runs 10),
/// submitted at 55, starts on n1 in the background loop's pass for it, at
/// once: that loop's last pass was the node event's, at 50, more than
/// `batch_sched_delay` before. J1 starts again in the full pass at 180.
/// Were n1 kept out, J3 would wait for n2 until 300.
#[test]
fn a_node_down_for_less_than_a_second_kills_its_jobs_and_is_back_at_once() {
    let w =
        on_clock(workload(vec![job(1, 0, 4, 100, 100), job(2, 0, 4, 300, 300), job(3, 55, 4, 100, 10)], &["batch"]));
    let sim = run(&w, Some("n1|50|50|DOWN|x\n"));
    assert_eq!(sim.stopped.len(), 1);
    let s = starts(&sim.outcomes);
    assert_eq!(s[0], (180, 280, false));
    assert_eq!(s[2], (55, 65, false));
    assert_eq!(first_nodes(&sim)[2], 0);
}
