//! Preemption by partition and by QOS, with REQUEUE and CANCEL and
//! PreemptExemptTime, by hand.
//!
//! Each schedule: one 4-CPU node n1, FIFO priorities, `sched_interval`
//! 60 s from time 0, backfill every 10 s. J1 (4 CPUs, limit 1000, run 500)
//! is submitted at 0 and starts at once; J2 (4 CPUs, limit and run 100),
//! which may preempt J1, is submitted at 10. The launch credential lives
//! 1200 s (`AuthInfo=cred_expire=1200`): a requeued job waits 1201 s.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
use slasim_slurm::accounting::Accounting;
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::parse;
use slasim_slurm::sacctmgr::parse_qos;

/// n1 in two partitions: `low` (PriorityTier 1) and `high` (PriorityTier 2).
fn tiers(preempt: &str) -> String {
    format!(
        "SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=60
{preempt}
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=low Nodes=n1 Default=YES MaxTime=UNLIMITED PriorityTier=1
PartitionName=high Nodes=n1 MaxTime=UNLIMITED PriorityTier=2
AuthInfo=cred_expire=1200
"
    )
}

/// n1 in one partition; QOS `normal` and `high` (which preempts `normal`).
fn one_partition(preempt: &str) -> String {
    format!(
        "SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=60
{preempt}
NodeName=n1 CPUs=4 RealMemory=1000
PartitionName=batch Nodes=n1 Default=YES MaxTime=UNLIMITED
AuthInfo=cred_expire=1200
"
    )
}

fn qos_dump(normal_mode: &str) -> Accounting {
    let text = format!("Name|Priority|Preempt|PreemptMode\nnormal|0||{normal_mode}\nhigh|100|normal|cluster\n");
    Accounting { qos: Some(parse_qos(&text, Path::new("qos.txt")).expect("the QOS dump parses")), assoc: None }
}

/// J1 in partition (or QOS) 0, J2 in 1.
fn two_jobs(by_qos: bool) -> SlurmWorkload {
    let of = |j: SlurmJob, class: u32| {
        if by_qos { SlurmJob { qos: class, ..j } } else { SlurmJob { partition: class, ..j } }
    };
    let mut w = crate::workload(
        vec![of(crate::job(1, 0, 4, 1000, 500), 0), of(crate::job(2, 10, 4, 100, 100), 1)],
        if by_qos { &["batch"] } else { &["low", "high"] },
    );
    w.qos = vec!["normal".into(), "high".into()];
    w
}

fn scenario(conf: &str, w: &SlurmWorkload, accounting: &Accounting) -> Result<Scenario, String> {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    Scenario::with_accounting(&conf, conf.priority.clone(), conf.scheduler.clone(), w, accounting)
        .map_err(|e| e.to_string())?
        .with_preemption(&conf, accounting, w)
        .map_err(|e| e.to_string())
}

fn run(conf: &str, w: &SlurmWorkload, accounting: &Accounting) -> Simulated {
    simulate(scenario(conf, w, accounting).expect("a valid scenario")).expect("the run ends")
}

/// (start, end, preempted, cancelled by preemption) per job.
fn outcomes(sim: &Simulated) -> Vec<(i64, i64, u32, bool)> {
    sim.outcomes.iter().map(|o| (o.start, o.end, o.preempted, o.preempt_cancelled)).collect()
}

/// Without preemption J2 waits for J1's end: 500 (its main pass), to 600.
const WAITS: [(i64, i64, u32, bool); 2] = [(0, 500, 0, false), (500, 600, 0, false)];

/// partition_prio, REQUEUE:
/// - 10: J2 (tier 2) is submitted; the batch pass cannot start it; J1
///   (tier 1, REQUEUE) is its candidate: without J1 it fits, so J1 is
///   requeued (its nodes freed at 10) and J2 does not start in that pass.
///   n1 is COMPLETING for the rest of that pass; J1's epilog done, the main
///   pass that follows at once starts J2 at 10, to 110.
/// - J1 may start again at 10 + 1201 = 1211; the next pass is the full
///   one at 1260 (sched_interval 60 from 0): J1 runs its whole 500 s, to 1760.
///
/// The same with the default credential lifetime: J1 may start at 131.
/// With PreemptType=preempt/none, or PreemptMode=OFF on `low`, J2 waits.
#[test]
fn partition_prio_requeue_restarts_the_preempted_job_later() {
    let w = two_jobs(false);
    let none = Accounting::default();
    let sim = run(&tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE"), &w, &none);
    assert_eq!(outcomes(&sim), [(1260, 1760, 1, false), (10, 110, 0, false)]);
    assert!(!sim.outcomes[1].backfilled);
    assert_eq!((sim.counters.preemptions, sim.counters.preempt_cancels), (1, 0));
    // The default credential lifetime, 120 s: J1 may start at 10 + 121 =
    // 131, in the full main pass at 180, to 680.
    let default =
        tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE").replace("AuthInfo=cred_expire=1200\n", "");
    assert_eq!(outcomes(&run(&default, &w, &none)), [(180, 680, 1, false), (10, 110, 0, false)]);
    // `JobRequeue=0`: the requeue is refused, so J1 is cancelled instead
    // (`slurm_job_preempt` kills it), at 10.
    let refused = run(&tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\nJobRequeue=0"), &w, &none);
    assert_eq!(outcomes(&refused), [(0, 10, 1, true), (10, 110, 0, false)]);
    assert_eq!((refused.counters.preemptions, refused.counters.preempt_cancels), (1, 1));
    // Mechanism off.
    let sim = run(&tiers("PreemptType=preempt/none\nPreemptMode=REQUEUE"), &w, &none);
    assert_eq!(outcomes(&sim), WAITS);
    assert_eq!(sim.counters.preemptions, 0);
    let off = tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE")
        .replace("PriorityTier=1", "PriorityTier=1 PreemptMode=OFF");
    assert_eq!(outcomes(&run(&off, &w, &none)), WAITS);
    // A partition of the same tier preempts nothing.
    let same =
        tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE").replace("PriorityTier=2", "PriorityTier=1");
    assert_eq!(outcomes(&run(&same, &w, &none)), WAITS);
}

/// partition_prio, CANCEL (the partition's mode over the cluster's
/// REQUEUE): at 10 J1 is cancelled (ends at 10, never runs again) and J2
/// starts at 10 (the main pass after J1's epilog), to 110.
#[test]
fn partition_prio_cancel_ends_the_preempted_job() {
    let w = two_jobs(false);
    let conf = tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE")
        .replace("PriorityTier=1", "PriorityTier=1 PreemptMode=CANCEL");
    let sim = run(&conf, &w, &Accounting::default());
    assert_eq!(outcomes(&sim), [(0, 10, 1, true), (10, 110, 0, false)]);
    assert_eq!((sim.counters.preemptions, sim.counters.preempt_cancels), (1, 1));
    // Mechanism off.
    let off = conf.replace("preempt/partition_prio", "preempt/none");
    assert_eq!(outcomes(&run(&off, &w, &Accounting::default())), WAITS);
}

/// preempt/qos: `high` lists `normal` in `Preempt`; the same schedules as by
/// partition. REQUEUE (the cluster's, `normal` says `cluster`): J1 again at
/// 1260. CANCEL (`normal`'s own PreemptMode): J1 ends at 10.
#[test]
fn qos_preempt_list_requeues_or_cancels() {
    let w = two_jobs(true);
    let conf = one_partition("PreemptType=preempt/qos\nPreemptMode=REQUEUE");
    let sim = run(&conf, &w, &qos_dump("cluster"));
    assert_eq!(outcomes(&sim), [(1260, 1760, 1, false), (10, 110, 0, false)]);
    let sim = run(&conf, &w, &qos_dump("cancel"));
    assert_eq!(outcomes(&sim), [(0, 10, 1, true), (10, 110, 0, false)]);
    // Mechanism off: no preempt list, or preempt/none.
    let empty = Accounting {
        qos: Some(parse_qos("Name|Priority|Preempt\nnormal|0|\nhigh|100|\n", Path::new("qos.txt")).expect("parses")),
        assoc: None,
    };
    assert_eq!(outcomes(&run(&conf, &w, &empty)), WAITS);
    let off = one_partition("PreemptType=preempt/none\nPreemptMode=REQUEUE");
    assert_eq!(outcomes(&run(&off, &w, &qos_dump("cluster"))), WAITS);
}

/// PreemptExemptTime=1 (one minute): J1, started at 0, may not be
/// preempted before 60.
/// - 10 (batch pass) and 20 (backfill): J1 is exempt; J2 waits.
/// - 60: the full main pass: J1 is no longer exempt and is requeued; the
///   main pass after it, n1's epilog done, starts J2 at 60, to 160.
/// - J1 may start at 60 + 1201 = 1261: the full pass at 1320, to 1820.
///
/// Without the exemption J2 starts at 10 (first test). A QOS's
/// PreemptExemptTime (2 minutes on `normal`) wins over the cluster's: J2
/// is requeued in the full pass at 120 and J2 starts at 120; J1 again at
/// 120 + 1201 = 1321 → 1380.
#[test]
fn preempt_exempt_time_delays_the_preemption() {
    let w = two_jobs(false);
    let conf = tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\nPreemptExemptTime=1");
    let sim = run(&conf, &w, &Accounting::default());
    assert_eq!(outcomes(&sim), [(1320, 1820, 1, false), (60, 160, 0, false)]);
    // By QOS, with the QOS's own exemption.
    let w = two_jobs(true);
    let conf = one_partition("PreemptType=preempt/qos\nPreemptMode=REQUEUE\nPreemptExemptTime=1");
    let text =
        "Name|Priority|Preempt|PreemptMode|PreemptExemptTime\nnormal|0||cluster|00:02:00\nhigh|100|normal|cluster|\n";
    let qos = Accounting { qos: Some(parse_qos(text, Path::new("qos.txt")).expect("parses")), assoc: None };
    let sim = run(&conf, &w, &qos);
    assert_eq!(outcomes(&sim), [(1380, 1880, 1, false), (120, 220, 0, false)]);
}

/// Bad input: SUSPEND (or GANG) is refused, located at its line, in the
/// conf or the QOS dump; preempt/qos without a QOS dump is refused; an
/// unknown QOS in a preempt list is the dump reader's error.
#[test]
fn suspend_gang_and_qos_without_dump_are_located_errors() {
    let w = two_jobs(false);
    let none = Accounting::default();
    let e = scenario(&tiers("PreemptType=preempt/partition_prio\nPreemptMode=SUSPEND,GANG"), &w, &none)
        .err()
        .expect("refused");
    assert!(e.starts_with("test.conf:6: PreemptMode: SUSPEND is not modelled"), "{e}");
    let conf = tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE")
        .replace("PriorityTier=1", "PriorityTier=1 PreemptMode=GANG");
    let e = scenario(&conf, &w, &none).err().expect("refused");
    assert!(e.starts_with("test.conf:8: PartitionName=low PreemptMode: GANG is not modelled"), "{e}");
    let w = two_jobs(true);
    let e = scenario(&one_partition("PreemptType=preempt/qos\nPreemptMode=REQUEUE"), &w, &none).err().expect("refused");
    assert!(e.starts_with("test.conf:5: PreemptType: preempt/qos needs the QOS dump"), "{e}");
    let e = scenario(&one_partition("PreemptType=preempt/qos\nPreemptMode=REQUEUE"), &w, &qos_dump("suspend"))
        .err()
        .expect("refused");
    assert!(e.starts_with("qos.txt:2: PreemptMode: SUSPEND is not modelled"), "{e}");
    // With preemption off, the modes are never used: no error.
    assert!(scenario(&tiers("PreemptType=preempt/none\nPreemptMode=SUSPEND"), &two_jobs(false), &none).is_ok());
    let e =
        parse_qos("Name|Priority|Preempt\nnormal|0|\nhigh|100|premium\n", Path::new("qos.txt")).expect_err("refused");
    assert!(e.to_string().contains("qos.txt:3") && e.to_string().contains("premium"), "{e}");
}

/// `_run_now`'s reordering preempts only what the job needs. J1 (1 CPU)
/// and J2 (3 CPUs), both in `low` and 500 s long, fill n1 from 0; J3 (3
/// CPUs, `high`) is submitted at 10.
/// - First run: J1 and J2 have the same preemption priority (tier 1, one
///   node): J1 is taken away (1 CPU free: no fit), then J2 (4 free: fits).
/// - Reordered: J2 (the last taken) first, then J1 (1 of its nodes is J3's).
///   Second run: J2 taken away, 3 CPUs free: fits. Two candidates, two runs:
///   done. Only J2 is preempted (requeued); J1 runs on.
/// - J3 starts at 10, in the main pass after J2's epilog, to 110. J2 may
///   start at 1211: the full pass at 1260, to 1760.
///
/// Without the reordering, J1 and J2 would both be preempted.
#[test]
fn reordered_candidates_preempt_only_what_is_needed() {
    let mut w = two_jobs(false);
    w.jobs = vec![
        crate::job(1, 0, 1, 1000, 500),
        crate::job(2, 0, 3, 1000, 500),
        SlurmJob { partition: 1, ..crate::job(3, 10, 3, 100, 100) },
    ];
    let sim = run(&tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE"), &w, &Accounting::default());
    assert_eq!(outcomes(&sim), [(0, 500, 0, false), (1260, 1760, 1, false), (10, 110, 0, false)]);
    assert_eq!(sim.counters.preemptions, 1);
}

/// Under preempt/qos the queue puts a preemptor's QOS first
/// (`sort_job_queue2`). Main scheduler only (sched/builtin), FIFO: J1
/// (normal, 4 CPUs, 500 s) runs from 0; J2 (normal, 4 CPUs, 100 s) is
/// submitted at 5, J3 (high, 4 CPUs, 100 s) at 10.
/// - 10: the batch pass tries J3 first (its QOS preempts `normal`): J1 is
///   requeued; the main pass after J1's epilog starts J3 at 10, to 110; J2
///   does not fit.
/// - 110: J2 starts, to 210. J1 may start at 1211: the full pass at 1260.
///
/// Ordered by priority alone, J2 (older) would come first, block the
/// partition, and J3 would never preempt in the main scheduler.
#[test]
fn a_preemptor_qos_goes_first_in_the_queue() {
    let mut w = two_jobs(true);
    w.jobs = vec![
        crate::job(1, 0, 4, 1000, 500),
        crate::job(2, 5, 4, 100, 100),
        SlurmJob { qos: 1, ..crate::job(3, 10, 4, 100, 100) },
    ];
    let conf = one_partition("PreemptType=preempt/qos\nPreemptMode=REQUEUE").replace("sched/backfill", "sched/builtin");
    let sim = run(&conf, &w, &qos_dump("cluster"));
    assert_eq!(outcomes(&sim), [(1260, 1760, 1, false), (110, 210, 0, false), (10, 110, 0, false)]);
}

/// A job cancelled by preemption ends not OK, for the jobs that depend on
/// it. As in `partition_prio_cancel_ends_the_preempted_job`, J1 is
/// cancelled at 10 and J2 runs 10–110; J3 (`low`, 4 CPUs, run 50),
/// submitted at 5, depends on J1.
/// - `afterok:1`: J1 did not end OK, so J3 never starts.
/// - `afternotok:1`: met at 10; J3 waits for n1 until J2 ends: 110–160.
#[test]
fn a_job_cancelled_by_preemption_did_not_end_ok() {
    use slasim_data::trace::sacct::jobs::{DependKind, DependOn, Dependency};
    let conf = tiers("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE")
        .replace("PriorityTier=1", "PriorityTier=1 PreemptMode=CANCEL");
    let on = |kind| {
        let mut w = two_jobs(false);
        let mut j3 = crate::job(3, 5, 4, 50, 50);
        j3.relations.dependency = Some(Dependency { any: false, on: vec![DependOn { kind, job: 1, task: None }] });
        w.jobs.push(j3);
        w
    };
    let sim = run(&conf, &on(DependKind::AfterOk), &Accounting::default());
    assert_eq!(outcomes(&sim), [(0, 10, 1, true), (10, 110, 0, false), (-1, -1, 0, false)]);
    let sim = run(&conf, &on(DependKind::AfterNotOk), &Accounting::default());
    assert_eq!(outcomes(&sim), [(0, 10, 1, true), (10, 110, 0, false), (110, 160, 0, false)]);
}
