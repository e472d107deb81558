//! Advance reservations in the controller, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
use slasim_slurm::accounting::Accounting;
use slasim_slurm::advance::AdvanceReservations;
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::{SlurmConf, parse};
use slasim_slurm::machine::Machine;
use slasim_slurm::reservation;

use crate::{TWO_NODES as TWO, first_nodes, job, starts, workload};

/// Reservation R holds n1 from 100 to 300 (epoch seconds; the workload's
/// time 0 is epoch 0).
const R: &str = "ReservationName=R StartTime=100 EndTime=300 Nodes=n1 NodeCnt=1 Users=alice Flags=IGNORE_JOBS\n";

fn conf(text: &str) -> SlurmConf {
    parse(text, Path::new("test.conf")).expect("the test conf parses")
}

fn on_clock(mut w: SlurmWorkload) -> SlurmWorkload {
    w.epoch = Some(0);
    w.clock_origin = Some(0);
    w
}

fn advance(c: &SlurmConf, w: &SlurmWorkload, text: &str) -> Result<AdvanceReservations, String> {
    let file = reservation::parse(text, Path::new("res.txt")).map_err(|e| e.to_string())?;
    AdvanceReservations::new(&file, c, &Machine::new(c), w).map_err(|e| e.to_string())
}

fn scenario(w: &SlurmWorkload, text: Option<&str>) -> Result<Scenario, String> {
    let c = conf(TWO);
    let a = text.map(|t| advance(&c, w, t)).transpose()?;
    Scenario::with_reservations(&c, c.priority.clone(), c.scheduler.clone(), w, &Accounting::default(), a.as_ref())
        .map_err(|e| e.to_string())
}

fn run(w: &SlurmWorkload, text: Option<&str>) -> Simulated {
    simulate(scenario(w, text).expect("every job is admitted")).expect("the run ends")
}

fn naming(r: &str, j: SlurmJob) -> SlurmJob {
    SlurmJob { reservation: Some(r.into()), ..j }
}

/// The jobs of the two tests below.
fn five_jobs() -> SlurmWorkload {
    on_clock(workload(
        vec![
            job(1, 0, 4, 200, 50),
            job(2, 0, 4, 100, 100),
            naming("R", job(3, 0, 4, 100, 80)),
            job(4, 10, 4, 300, 300),
            naming("R", job(5, 10, 4, 500, 500)),
        ],
        &["batch"],
    ))
}

/// J1 (limit 200, runs 50), J2 (limit 100, runs 100), J3 (in R, limit 100,
/// runs 80), all 4 CPUs at 0; J4 (limit 300, runs 300) and J5 (in R, limit
/// 500, runs 500) at 10.
/// - 0: J1's [0, 200) overlaps R's [100, 300): n1 is kept from it, it runs
///   on n2, 0–50. J2's [0, 100) ends as R begins: n1, 0–100. J3 is not
///   queued before R starts.
/// - 50: J1 ends; J4's [50, 350) overlaps R: n2, 50–350.
/// - 100: J2 ends and R opens: J3 (in R, queued first) gets n1, 100–180;
///   J5 does not fit (its reservation blocked, not the partition).
/// - 180: J3 ends; J5 starts on n1 and is ended with R at 300.
///
/// Without the reservation: J1 on n1 and J2 on n2 at 0, J3 on n1 at 50.
#[test]
fn a_reservation_holds_its_nodes_and_runs_its_jobs() {
    let w = five_jobs();
    let sim = run(&w, Some(R));
    assert_eq!(
        starts(&sim.outcomes),
        vec![(0, 50, false), (0, 100, false), (100, 180, false), (50, 350, false), (180, 300, false)]
    );
    assert_eq!(first_nodes(&sim), vec![1, 0, 0, 1, 0]);
    let off = run(&w, None);
    assert_eq!(&starts(&off.outcomes)[..3], [(0, 50, false), (0, 100, false), (50, 130, false)]);
}

/// `ResvOverRun`: the workload above, where J5 (in R, 180 to its limit of
/// 680) is ended with R at 300. With `ResvOverRun=1` it runs a minute past
/// R's end, to 360; with `UNLIMITED`, to its own end, 680. The other jobs
/// do not change.
#[test]
fn a_job_runs_resv_over_run_past_its_reservation() {
    let w = five_jobs();
    let ends = |over_run: &str| {
        let c = conf(&format!("{TWO}ResvOverRun={over_run}\n"));
        let a = advance(&c, &w, R).expect("R is valid");
        let s = Scenario::with_reservations(
            &c,
            c.priority.clone(),
            c.scheduler.clone(),
            &w,
            &Accounting::default(),
            Some(&a),
        )
        .expect("every job is admitted");
        starts(&simulate(s).expect("the run ends").outcomes)
    };
    let at_end = vec![(0, 50, false), (0, 100, false), (100, 180, false), (50, 350, false), (180, 300, false)];
    assert_eq!(ends("0"), at_end);
    let mut minute = at_end.clone();
    minute[4] = (180, 360, false);
    assert_eq!(ends("1"), minute);
    minute[4] = (180, 680, false);
    assert_eq!(ends("UNLIMITED"), minute);
    let bad = parse(&format!("{TWO}ResvOverRun=1:30\n"), Path::new("test.conf")).expect_err("minutes only");
    assert!(bad.to_string().contains("test.conf:7") && bad.to_string().contains("ResvOverRun"), "{bad}");
}

/// A MAINT reservation over every node of the partition keeps it whole: J1
/// (limit 100) at 0 ends before it begins (100), J2 submitted at 20 (limit
/// 100) would overlap it and waits for its end, 300.
#[test]
fn a_maint_reservation_over_the_partition_keeps_it() {
    let w = on_clock(workload(vec![job(1, 0, 4, 100, 100), job(2, 20, 4, 100, 10)], &["batch"]));
    let maint = "ReservationName=M StartTime=100 EndTime=300 Nodes=n[1-2] NodeCnt=2 Flags=MAINT\n";
    let sim = run(&w, Some(maint));
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (300, 310, false)]);
}

/// A job still pending when its reservation ends never starts (Slurm
/// holds it). R2 (OVERLAP) holds n1 from 0 to 1000 and may overlap R: J1
/// (in R2, limit and run 1000) takes n1 at 0; J2 (in R) finds it busy
/// through R's window [100, 300], and is dropped at the first main pass
/// after 300. The run ends with J1, at 1000.
#[test]
fn a_job_left_when_its_reservation_ends_never_starts() {
    let w = on_clock(workload(
        vec![naming("R2", job(1, 0, 4, 1000, 1000)), naming("R", job(2, 0, 4, 100, 10))],
        &["batch"],
    ));
    let both = format!("{R}ReservationName=R2 StartTime=0 EndTime=1000 Nodes=n1 NodeCnt=1 Flags=OVERLAP\n");
    let sim = run(&w, Some(&both));
    assert_eq!(starts(&sim.outcomes), vec![(0, 1000, false), (-1, -1, false)]);
}

/// Bad input: a flag not modelled, a core reservation, a job naming an
/// unknown reservation or one it may not use; each located.
#[test]
fn bad_reservations_are_located_errors() {
    let c = conf(TWO);
    let w = on_clock(workload(vec![job(1, 0, 4, 100, 10)], &["batch"]));
    let e = advance(&c, &w, "ReservationName=F StartTime=100 EndTime=300 Nodes=n1 Flags=FLEX\n").unwrap_err();
    assert_eq!(e, "res.txt:1: Flags: reservation `F`: flag FLEX is not modelled");
    let core = "ReservationName=C StartTime=100 EndTime=300 Nodes=n1 CoreCnt=2\n  NodeName=n1 CoreIDs=0-1\n";
    let e = advance(&c, &w, core).unwrap_err();
    assert_eq!(e, "res.txt:2: NodeName: core reservations (part of a node) are not modelled");
    // A malformed field (the reader's own errors, e.g. a time).
    let e = advance(&c, &w, "ReservationName=T StartTime=soon Nodes=n1\n").unwrap_err();
    assert!(e.starts_with("res.txt:1: StartTime: `soon` is not a time"), "{e}");
    // The workload's clock must match the file's: wall-clock times cannot
    // be placed on a workload without absolute times.
    let wall = "ReservationName=W StartTime=2026-01-01T00:00:00 EndTime=2026-01-01T01:00:00 Nodes=n1\n";
    let e = advance(&c, &workload(vec![job(1, 0, 4, 100, 10)], &["batch"]), wall).unwrap_err();
    assert!(
        e.starts_with(
            "res.txt:1: StartTime: the reservations are in wall-clock times but the workload has no absolute"
        ),
        "{e}"
    );
    // Epoch seconds on such a workload (a synthetic one) count from its time 0.
    let plain = workload(vec![job(1, 0, 4, 200, 50), job(2, 0, 4, 100, 100)], &["batch"]);
    let starts = |sim: Simulated| sim.outcomes.iter().map(|o| (o.start, o.first_node)).collect::<Vec<_>>();
    assert_eq!(starts(run(&plain, Some(R))), starts(run(&on_clock(plain.clone()), Some(R))));
    let unknown = on_clock(workload(vec![naming("nope", job(7, 0, 4, 100, 10))], &["batch"]));
    let e = scenario(&unknown, Some(R)).err().expect("refused");
    assert_eq!(e, "synthetic job 7: job 7: Reservation: reservation `nope` is not in the reservations file (it has R)");
    // R allows alice only; bob (user 1) is refused at submit.
    let bob = on_clock(workload(vec![SlurmJob { user: 1, ..naming("R", job(8, 0, 4, 100, 10)) }], &["batch"]));
    let e = scenario(&bob, Some(R)).err().expect("refused");
    assert!(e.starts_with("synthetic job 8: job 8: Reservation: user `bob` in account `physics` may not use"), "{e}");
    // R's one node cannot hold 8 CPUs on 2 nodes.
    let wide = SlurmJob {
        request: slasim_data::trace::sacct::jobs::Tres { cpus: 8, mem_mib: 0, nodes: 2, gpus: 0 },
        ..naming("R", job(9, 0, 8, 100, 10))
    };
    let e = scenario(&on_clock(workload(vec![wide], &["batch"])), Some(R)).err().expect("refused");
    assert!(e.contains("Reservation: reservation `R` has 1 nodes of partition batch that can hold the job"), "{e}");
}
