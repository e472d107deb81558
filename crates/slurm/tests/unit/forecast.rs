//! Start-time forecasts from a snapshot, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{Ending, Logged, SlurmWorkload};
use slasim_slurm::accounting::Accounting;
use slasim_slurm::conf::parse;
use slasim_slurm::forecast::{Centre, History, Snapshot, forecast, parse_queue, parse_sprio};

use crate::{job, workload};

/// Two 4-CPU nodes, FIFO-like: priorities come from the snapshot.
const TWO: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=600
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityMaxAge=0-0:10
PriorityCalcPeriod=1
NodeName=n[1-2] CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=UNLIMITED
";

fn centre() -> Centre {
    Centre {
        conf: parse(TWO, Path::new("test.conf")).expect("the test conf parses"),
        accounting: Accounting::default(),
        reservations: None,
        events: None,
        controller_start: None,
        backfill_start: None,
    }
}

/// At 1000: J1 runs on n1 since 900 (limit 10 min), J2 on n2 since 950
/// (limit 5 min); J3 (4 CPUs, limit 5 min, priority 600) and J4 (4 CPUs,
/// limit 5 min, priority 500) wait.
const QUEUE: &str = "\
1|a|alice|physics|batch|normal|RUNNING|100|None|800|900|10:00|1|4|0|N/A|n1|(null)|(null)|(null)
2|b|alice|physics|batch|normal|RUNNING|100|None|800|950|5:00|1|4|0|N/A|n2|(null)|(null)|(null)
3|c|bob|biology|batch|normal|PENDING|600|Resources|990|1250|5:00|1|4|0|N/A||(null)|(null)|(null)
4|d|bob|biology|batch|normal|PENDING|500|Priority|990|N/A|5:00|1|4|0|N/A||(null)|(null)|(null)
";

fn snapshot() -> Snapshot {
    Snapshot {
        path: "q.txt".into(),
        at: 1000,
        jobs: parse_queue(QUEUE, Path::new("q.txt"), 1).expect("parses"),
        ..Snapshot::default()
    }
}

/// Without history every job runs to its limit: J2 ends at 950 + 300 =
/// 1250 and J3 (the higher priority) starts there on n2; J1 ends at 900 +
/// 600 = 1500 and J4 starts there. Slurm's estimates are beside them.
#[test]
fn without_history_jobs_run_to_their_limits() {
    let f = forecast(&centre(), &snapshot(), None, 30, 1).expect("forecasts");
    /// A forecast as (id, Slurm's estimate, median, low, high).
    type Row = (String, Option<i64>, Option<i64>, Option<i64>, Option<i64>);
    let got: Vec<Row> = f.iter().map(|f| (f.id.clone(), f.slurm, f.median, f.low, f.high)).collect();
    assert_eq!(
        got,
        vec![
            ("3".into(), Some(1250), Some(1250), Some(1250), Some(1250)),
            ("4".into(), None, Some(1500), Some(1500), Some(1500)),
        ]
    );
}

/// Ages grow from the snapshot's at each priority calculation (every
/// minute here), to the cap (`PriorityMaxAge`, 10 min
/// here, weight 1000). J3 at 1100 has an age of 1000 already (sprio), J4 at
/// 1000 an age of 0. At 1250, when n2 frees, J3 is still at 1100 (capped)
/// and J4, at the calculation of 1240, at 1000 + 240/600 × 1000 = 1400:
/// J4 starts first, J3 at 1500.
/// Without sprio both ages count from the submit time alike, and J3 keeps
/// its lead.
#[test]
fn ages_grow_from_sprio() {
    let mut s = snapshot();
    (s.jobs[2].priority, s.jobs[3].priority) = (1100, 1000);
    let f = forecast(&centre(), &s, None, 1, 1).expect("forecasts");
    assert_eq!((f[0].median, f[1].median), (Some(1250), Some(1500)));
    s.ages = parse_sprio(
        "          JOBID PARTITION     USER   PRIORITY       SITE        AGE\n\
         3 batch bob 1100 0 1000\n\
         4 batch bob 1000 0 0\n",
        Path::new("p.txt"),
        1,
    )
    .expect("sprio parses");
    let f = forecast(&centre(), &s, None, 1, 1).expect("forecasts");
    assert_eq!((f[0].median, f[1].median), (Some(1500), Some(1250)));
}

/// With history, run times are drawn from the jobs alike that ended before
/// the snapshot: alice's 5-minute jobs all ran 100 s, so J2 (running since
/// 950) ends at 1050 in every replica and J3 starts there; bob's jobs ran
/// 60 s, so J4 starts when J3 ends, at 1110, or on n1 when J1 ends: alice's
/// 10-minute jobs ran 200 s, so J1 ends at 1100, and J4 starts there.
#[test]
fn history_gives_run_times_of_jobs_alike() {
    let mut logged: Vec<_> = Vec::new();
    let mut add = |user: u32, limit: i64, run: i64| {
        let mut j = job(logged.len() as u64 + 100, 0, 4, limit, run);
        j.user = user;
        j.logged = Some(Logged {
            start: 10,
            end: 10 + run,
            alloc: j.request,
            node_list: None,
            ending: Ending::Completed,
            requeued: 0,
        });
        logged.push(j);
    };
    add(0, 300, 100);
    add(0, 300, 100);
    add(0, 600, 200);
    add(1, 300, 60);
    let mut w: SlurmWorkload = workload(logged, &["batch"]);
    w.epoch = Some(0);
    let h = History::before(&w, 1000);
    let f = forecast(&centre(), &snapshot(), Some(&h), 30, 1).expect("forecasts");
    assert_eq!((f[0].median, f[0].low, f[0].high), (Some(1050), Some(1050), Some(1050)));
    assert_eq!(f[1].median, Some(1100));
    // The history after the snapshot is not used: nothing ended by 50.
    let f = forecast(&centre(), &snapshot(), Some(&History::before(&w, 50)), 30, 1).expect("forecasts");
    assert_eq!((f[0].median, f[1].median), (Some(1250), Some(1500)));
}

/// An array's pending range is its tasks, with its throttle; a dependency
/// on a job of the snapshot is kept, one on another job was met.
#[test]
fn arrays_and_dependencies_of_a_snapshot() {
    let queue = "\
1|a|alice|physics|batch|normal|RUNNING|100|None|800|900|10:00|2|8|0|N/A|n[1-2]|(null)|(null)|(null)
7_[0-2%1]|t|bob|biology|batch|normal|PENDING|600|Priority|990|N/A|1:00|1|4|0|N/A||(null)|(null)|(null)
8|d|bob|biology|batch|normal|PENDING|900|Dependency|990|N/A|1:00|1|4|0|N/A||afterok:1(unfulfilled),afterany:99(unfulfilled)|(null)|(null)
";
    let s = Snapshot {
        path: "q.txt".into(),
        at: 1000,
        jobs: parse_queue(queue, Path::new("q.txt"), 1).expect("parses"),
        ..Snapshot::default()
    };
    let f = forecast(&centre(), &s, None, 1, 1).expect("forecasts");
    let got: Vec<(String, Option<i64>)> = f.iter().map(|f| (f.id.clone(), f.median)).collect();
    // J1 ends at 1500; then J8 (after it) and task 0 (the throttle lets one run) start,
    // then task 1 and task 2 one after the other.
    assert_eq!(
        got,
        vec![
            ("7_0".into(), Some(1500)),
            ("7_1".into(), Some(1560)),
            ("7_2".into(), Some(1620)),
            ("8".into(), Some(1500))
        ]
    );
}

#[test]
fn bad_snapshots_are_located_errors() {
    let bad = |text: &str| parse_queue(text, Path::new("q.txt"), 1).expect_err("refused").to_string();
    assert!(bad("1|a|b\n").starts_with("q.txt:1: columns: 3 fields"));
    let row = |f: &[(usize, &str)]| {
        let mut cells: Vec<&str> = QUEUE.lines().next().unwrap().split('|').collect();
        for &(i, v) in f {
            cells[i] = v;
        }
        cells.join("|")
    };
    assert_eq!(bad(&row(&[(0, "x1")])), "q.txt:1: JOBID: `x1` is not a job id (123, 123_4 or 123_[1-7%2])");
    assert!(bad(&row(&[(6, "COMPLETING")])).starts_with("q.txt:1: STATE: `COMPLETING`"));
    assert!(bad(&row(&[(11, "soon")])).starts_with("q.txt:1: TIME_LIMIT:"));
    assert!(bad(&row(&[(14, "lots")])).starts_with("q.txt:1: MIN_MEMORY:"));
    assert!(bad(&row(&[(16, "")])).starts_with("q.txt:1: START_TIME: running job 1 has no start or no nodes"));
    let s = Snapshot {
        path: "q.txt".into(),
        at: 1000,
        jobs: parse_queue(&row(&[(16, "n9")]), Path::new("q.txt"), 1).expect("parses"),
        ..Snapshot::default()
    };
    let e = forecast(&centre(), &s, None, 1, 1).expect_err("n9 is unknown").to_string();
    assert_eq!(e, "q.txt:1: NODELIST: node `n9` of running job 1 is not one of the conf's nodes");
    let s = Snapshot {
        path: "q.txt".into(),
        at: 1000,
        jobs: parse_queue(&format!("{}\n{}", row(&[]), row(&[(0, "5")])), Path::new("q.txt"), 1).expect("parses"),
        ..Snapshot::default()
    };
    let e = forecast(&centre(), &s, None, 1, 1).expect_err("n1 is full").to_string();
    assert!(e.starts_with("q.txt:2: NODELIST: running job 5 does not fit on node n1"), "{e}");
}
