//! Dependencies and array throttles, by hand.
//!
//! Every test runs its workload twice: with its relations (the mechanism
//! on) and with them stripped (off), and pins both schedules, so each test
//! fails when the mechanism is switched off.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{
    ArrayTask, DependKind, DependOn, Dependency, Ending, Logged, Relations, SlurmJob, SlurmWorkload,
};
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::parse;
use slasim_slurm::dependency::Wait;

use crate::ONE_NODE;

fn run(conf: &str, w: &SlurmWorkload) -> Simulated {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let s = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), w).expect("every job is admitted");
    simulate(s).expect("the run ends")
}

/// The same workload without dependencies, names or arrays.
fn off(w: &SlurmWorkload) -> SlurmWorkload {
    let mut w = w.clone();
    for j in &mut w.jobs {
        j.relations = Relations::default();
    }
    w
}

fn starts(sim: &Simulated) -> Vec<i64> {
    sim.outcomes.iter().map(|o| o.start).collect()
}

fn on(kind: DependKind, job: u64) -> DependOn {
    DependOn { kind, job, task: None }
}

fn depends(j: SlurmJob, on: Vec<DependOn>) -> SlurmJob {
    SlurmJob { relations: Relations { dependency: Some(Dependency { any: false, on }), ..j.relations }, ..j }
}

fn named(j: SlurmJob, user: u32, name: u32) -> SlurmJob {
    SlurmJob { user, relations: Relations { name: Some(name), ..j.relations }, ..j }
}

fn ending(j: SlurmJob, ending: Ending) -> SlurmJob {
    let logged = Logged { start: 0, end: 0, alloc: j.request, node_list: None, ending, requeued: 0 };
    SlurmJob { logged: Some(logged), ..j }
}

fn waited(sim: &Simulated, reason: Wait) -> u64 {
    sim.counters.waited[reason as usize]
}

/// `after` on sched/builtin (no backfill), one node of 4 CPUs:
/// J1 (4 CPUs) runs 0–100; J2 (2 CPUs, submitted at 1) starts at J1's end,
/// 100, and runs to 200; J3 (2 CPUs, at 2, `after:2`) fits beside J2.
/// - On: J3's dependency is tested when a pass begins. The pass at 100
///   began before J2 started, so J3 waits for the next one: the full pass
///   every `sched_interval` (60 s from time 0) at 120. It does not wait for
///   J2's end (200): `after` is a start, not an end.
/// - Off: J3 starts with J2 at 100.
#[test]
fn after_waits_for_the_start_of_its_job() {
    let conf = ONE_NODE.replace("sched/backfill", "sched/builtin");
    let w = crate::workload(
        vec![
            crate::job(1, 0, 4, 100, 100),
            crate::job(2, 1, 2, 100, 100),
            depends(crate::job(3, 2, 2, 10, 10), vec![on(DependKind::After, 2)]),
        ],
        &["batch"],
    );
    let sim = run(&conf, &w);
    assert_eq!(starts(&sim), [0, 100, 120]);
    assert!(waited(&sim, Wait::Dependency) > 0);
    assert_eq!(starts(&run(&conf, &off(&w))), [0, 100, 100]);
}

/// `afterok`, `afternotok`, `afterany` on J1 (2 CPUs, 0–100); J2, J3, J4
/// (1 CPU each, submitted at 1, 2 and 3) depend on it in that order.
/// - Off: J2 and J3 fit beside J1 (2 + 1 + 1 = 4 CPUs) and start in the
///   batch pass at 3 (the pass at 0 took J1; the next is
///   `batch_sched_delay` = 3 s later); J4 starts at the first end, J2's
///   and J3's at 13.
/// - J1 COMPLETED: at 100 (its end, whose pass tests dependencies first)
///   J2 (`afterok`) and J4 (`afterany`) start; J3 (`afternotok`) can never
///   run: `DependencyNeverSatisfied`, start −1.
/// - J1 FAILED: J3 and J4 at 100; J2 never.
/// - J1 logged COMPLETED but running 150 s past its 100 s limit: the
///   simulation cuts it (TIMEOUT), which is not OK: as FAILED.
#[test]
fn afterok_afternotok_and_afterany_follow_the_simulated_end() {
    let deps = |j1: SlurmJob| {
        crate::workload(
            vec![
                j1,
                depends(crate::job(2, 1, 1, 50, 10), vec![on(DependKind::AfterOk, 1)]),
                depends(crate::job(3, 2, 1, 50, 10), vec![on(DependKind::AfterNotOk, 1)]),
                depends(crate::job(4, 3, 1, 50, 10), vec![on(DependKind::AfterAny, 1)]),
            ],
            &["batch"],
        )
    };
    let completed = deps(ending(crate::job(1, 0, 2, 100, 100), Ending::Completed));
    let sim = run(ONE_NODE, &completed);
    assert_eq!(starts(&sim), [0, 100, -1, 100]);
    assert_eq!(sim.waits[2], Some(Wait::DependencyNeverSatisfied));
    assert_eq!(sim.waits[1], Some(Wait::Dependency));
    assert_eq!(starts(&run(ONE_NODE, &off(&completed))), [0, 3, 3, 13]);

    let failed = deps(ending(crate::job(1, 0, 2, 100, 100), Ending::Failed));
    assert_eq!(starts(&run(ONE_NODE, &failed)), [0, -1, 100, 100]);

    let cut = deps(ending(crate::job(1, 0, 2, 100, 150), Ending::Completed));
    let sim = run(ONE_NODE, &cut);
    assert_eq!(starts(&sim), [0, -1, 100, 100]);
    assert_eq!(sim.outcomes[0].end, 100);
}

/// `?`: any one part suffices. J4 is `afterok:1?afterok:2`; J1 fails
/// (0–100), J2 completes (0–50, 1 CPU each); J3 fills the rest (2 CPUs,
/// 0–200). At 50 J2's end frees J4 (1 CPU) and its CPU: it starts at 50.
/// With `,` (both needed) J1's failure makes it never start; off, it
/// waits only for that CPU (50).
#[test]
fn or_needs_one_part_and_needs_all() {
    let j4 = |any| SlurmJob {
        relations: Relations {
            dependency: Some(Dependency { any, on: vec![on(DependKind::AfterOk, 1), on(DependKind::AfterOk, 2)] }),
            ..Relations::default()
        },
        ..crate::job(4, 1, 1, 50, 10)
    };
    let w = |any| {
        crate::workload(
            vec![
                ending(crate::job(1, 0, 1, 100, 100), Ending::Failed),
                ending(crate::job(2, 0, 1, 100, 50), Ending::Completed),
                crate::job(3, 0, 2, 200, 200),
                j4(any),
            ],
            &["batch"],
        )
    };
    assert_eq!(starts(&run(ONE_NODE, &w(true))), [0, 0, 0, 50]);
    assert_eq!(starts(&run(ONE_NODE, &w(false))), [0, 0, 0, -1]);
    assert_eq!(starts(&run(ONE_NODE, &off(&w(true)))), [0, 0, 0, 50]);
}

/// `singleton`: alice's jobs named `chain` (J1, then J2 and J3 with
/// `singleton`), each 1 CPU; J4 (alice, `other`, singleton) and J5 (bob,
/// `chain`, singleton).
/// - J1 runs 0–100 (no dependency of its own). J2 (at 1) waits for it:
///   100–150. J3 (at 2) waits for J1 and for J2, pending with a smaller
///   id, then for J2 running: 150. J4 (another name) and J5 (another user)
///   are free: J4 at 3 (the batch pass 3 s after 0), J5 at 6 (the next
///   one, 3 s later).
/// - Off: J2, J3 and J4 start at 3 beside J1; the node is then full, and
///   J5 starts when J3 ends at 13.
#[test]
fn singleton_runs_one_job_of_a_user_and_name_at_a_time_in_order() {
    let single = |j, user, name| depends(named(j, user, name), vec![on(DependKind::Singleton, 0)]);
    let mut w = crate::workload(
        vec![
            named(crate::job(1, 0, 1, 100, 100), 0, 0),
            single(crate::job(2, 1, 1, 100, 50), 0, 0),
            single(crate::job(3, 2, 1, 100, 10), 0, 0),
            single(crate::job(4, 3, 1, 100, 10), 0, 1),
            single(crate::job(5, 4, 1, 100, 10), 1, 0),
        ],
        &["batch"],
    );
    w.names = vec!["chain".into(), "other".into()];
    let sim = run(ONE_NODE, &w);
    assert_eq!(starts(&sim), [0, 100, 150, 3, 6]);
    assert_eq!(starts(&run(ONE_NODE, &off(&w))), [0, 3, 3, 3, 13]);
}

/// An array `10_[1-4%2]`: four 1-CPU tasks of 100 s submitted at 0, whose
/// job ids run backwards (task 1 has id 13 … task 4 has the array's own id
/// 10, as Slurm gives the last task), and J5 (`afterany:10`, the whole
/// array, 1 CPU, 10 s).
/// - On: the queue orders the tasks by task id, and the throttle runs two
///   at once: tasks 1 and 2 at 0, tasks 3 and 4 at 100 (the end of 1 and
///   2). J5 waits for every task: 200.
/// - Off (no array, no throttle, no dependency): the queue orders by job
///   id; the four tasks fill the node at 0, and J5 starts at the first end,
///   100.
#[test]
fn an_array_runs_its_tasks_in_order_under_its_throttle() {
    let task = |id, t| SlurmJob {
        relations: Relations { array: Some(ArrayTask { job: 10, task: t, throttle: 2 }), ..Relations::default() },
        ..crate::job(id, 0, 1, 100, 100)
    };
    let w = crate::workload(
        vec![
            task(13, 1),
            task(12, 2),
            task(11, 3),
            task(10, 4),
            depends(crate::job(20, 0, 1, 10, 10), vec![on(DependKind::AfterAny, 10)]),
        ],
        &["batch"],
    );
    let sim = run(ONE_NODE, &w);
    assert_eq!(starts(&sim), [0, 0, 100, 100, 200]);
    assert!(waited(&sim, Wait::JobArrayTaskLimit) > 0);
    assert_eq!(sim.waits[3], Some(Wait::JobArrayTaskLimit));
    assert_eq!(starts(&run(ONE_NODE, &off(&w))), [0, 0, 0, 0, 100]);
    // The throttle alone off: tie-break by task id, all four at 0.
    let mut unthrottled = w.clone();
    for j in &mut unthrottled.jobs[..4] {
        j.relations.array = j.relations.array.map(|a| ArrayTask { throttle: 0, ..a });
    }
    assert_eq!(starts(&run(ONE_NODE, &unthrottled)), [0, 0, 0, 0, 100]);
}

/// The tie-break alone: three 4-CPU tasks of an array without a throttle,
/// ids backwards, run one after the other in task order (0, 100, 200);
/// without the array their job ids order them backwards.
#[test]
fn array_tasks_break_ties_by_task_id() {
    let task = |id, t| SlurmJob {
        relations: Relations { array: Some(ArrayTask { job: 10, task: t, throttle: 0 }), ..Relations::default() },
        ..crate::job(id, 0, 4, 100, 100)
    };
    let w = crate::workload(vec![task(12, 1), task(11, 2), task(10, 3)], &["batch"]);
    assert_eq!(starts(&run(ONE_NODE, &w)), [0, 100, 200]);
    assert_eq!(starts(&run(ONE_NODE, &off(&w))), [200, 100, 0]);
}

/// Age counts from the time the dependency was met. PriorityWeightAge
/// 1000 over a max age of 1000 s (1 a second), priority every 10 s.
/// J1 (4 CPUs) runs 0–300; J2 (2 CPUs, submitted at 1, `afterok:1`) and
/// J3 (2 CPUs, submitted at 250) both wait for the node. At 300 J1 ends:
/// J2 is freed in that pass and J3 is tried first... both fit and start at
/// 300; their priorities at the start say which age they had: J3's last
/// tick before the pass (290; the tick at 300 comes after the passes of
/// its second) gives 1000·40/1000 = 40; J2 was freed at 300 with age 0:
/// priority 1 (the floor). Without the dependency J2 would have 289.
#[test]
fn age_counts_from_the_time_the_dependency_is_met() {
    let conf = format!(
        "{ONE_NODE}PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityMaxAge=00:16:40\nPriorityCalcPeriod=00:00:10\n"
    );
    let w = crate::workload(
        vec![
            ending(crate::job(1, 0, 4, 300, 300), Ending::Completed),
            depends(crate::job(2, 1, 2, 100, 100), vec![on(DependKind::AfterOk, 1)]),
            crate::job(3, 250, 2, 100, 100),
        ],
        &["batch"],
    );
    let sim = run(&conf, &w);
    assert_eq!(starts(&sim), [0, 300, 300]);
    assert_eq!((sim.outcomes[1].priority, sim.outcomes[2].priority), (1, 40));
    let sim = run(&conf, &off(&w));
    assert_eq!((sim.outcomes[1].priority, sim.outcomes[2].priority), (289, 40));
}

/// A dependency on a job the workload lacks is a located error.
#[test]
fn a_dependency_on_a_missing_job_is_a_located_error() {
    let w = crate::workload(
        vec![crate::job(1, 0, 1, 10, 10), depends(crate::job(2, 1, 1, 10, 10), vec![on(DependKind::AfterOk, 7)])],
        &["batch"],
    );
    let conf = parse(ONE_NODE, Path::new("test.conf")).unwrap();
    let err = Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).err().expect("refused");
    let text = err.to_string();
    assert!(text.contains("afterok on job 7, which is not in the workload"), "{text}");
    assert!(text.contains("synthetic job 2"), "{text}");
}

/// A fulfilled part stays fulfilled (`depend_state`). J2 (alice, `c`) is
/// `singleton,afterok:3`. J1 (alice, `c`) runs 0–50, J3 (bob) 0–100. At 50
/// J1's end fulfils J2's `singleton`; its `afterok` waits for J3. J4
/// (alice, `c`, no dependency) is submitted at 60 and starts in the full
/// pass at 60. At 100 J3 completes: J2's dependency is met although J4 (a
/// job of the same user and name) runs, and J2 starts at 100. Were the
/// `singleton` tested again, J2 would wait for J4's end (160); off, it
/// starts at 3 (the batch pass after its submission).
#[test]
fn a_fulfilled_singleton_part_stays_fulfilled() {
    let mut w = crate::workload(
        vec![
            named(crate::job(1, 0, 1, 100, 50), 0, 0),
            named(crate::job(3, 0, 1, 100, 100), 1, 1),
            depends(
                named(crate::job(2, 1, 1, 100, 10), 0, 0),
                vec![on(DependKind::Singleton, 0), on(DependKind::AfterOk, 3)],
            ),
            named(crate::job(4, 60, 1, 100, 100), 0, 0),
        ],
        &["batch"],
    );
    w.names = vec!["c".into(), "d".into()];
    assert_eq!(starts(&run(ONE_NODE, &w)), [0, 0, 100, 60]);
    assert_eq!(starts(&run(ONE_NODE, &off(&w))), [0, 0, 3, 60]);
}

/// A dump read and replayed: sacct 23.02's `SubmitLine` gives the
/// dependency and the array throttle, and the simulation decides
/// eligibility from the `Submit` time. One node of 4 CPUs.
/// - J10 (4 CPUs) ran 0–100. J11 (1 CPU, `afterok:10`) was eligible at 100
///   in the log, but is submitted at 5; it starts at J10's end, 100.
/// - The array 20 (`--array=1-3%1`, 1 CPU, 10 s each, submitted at 5)
///   runs one task at a time from 100, in task order: 100, 110, 120. The
///   workload lists its tasks by job id: 20 (task 3), 21 (task 1), 22
///   (task 2).
#[test]
fn a_dump_with_dependencies_and_a_throttled_array_replays() {
    use slasim_data::trace::sacct::{NativeOptions, parse_native};
    let t = 1_700_000_000i64;
    let head = "JobIDRaw|JobID|User|Partition|Submit|Eligible|Start|End|Timelimit|AllocCPUS|State|SubmitLine\n";
    let line = |raw: &str, id: &str, cpus: u32, times: [i64; 4], submit_line: &str| {
        let [s, e, st, en] = times.map(|x| x + t);
        format!("{raw}|{id}|alice|batch|{s}|{e}|{st}|{en}|00:10:00|{cpus}|COMPLETED|{submit_line}\n")
    };
    let text = head.to_string()
        + &line("10", "10", 4, [0, 0, 0, 100], "sbatch big.sh")
        + &line("11", "11", 1, [5, 100, 100, 150], "sbatch -d afterok:10 small.sh")
        + &line("21", "20_1", 1, [5, 5, 100, 110], "sbatch --array=1-3%1 a.sh")
        + &line("22", "20_2", 1, [5, 5, 110, 120], "sbatch --array=1-3%1 a.sh")
        + &line("20", "20_3", 1, [5, 5, 120, 130], "sbatch --array=1-3%1 a.sh");
    let (w, _) = parse_native(Path::new("d.sacct"), std::io::Cursor::new(text.into_bytes()), NativeOptions::default())
        .expect("the dump reads");
    assert_eq!(w.jobs.iter().map(|j| j.submit).collect::<Vec<_>>(), [0, 5, 5, 5, 5]);
    let sim = run(ONE_NODE, &w);
    assert_eq!(starts(&sim), [0, 100, 120, 100, 110]);
    // Off: the array tasks and J11 start together at 100.
    assert_eq!(starts(&run(ONE_NODE, &off(&w))), [0, 100, 100, 100, 100]);
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(64))]

    /// Whatever the jobs and their dependencies on earlier jobs: a job
    /// starts only once its dependency holds (`after`: its job started;
    /// `afterany`: ended; `afterok`/`afternotok`: ended OK/not OK), never
    /// when it cannot; a job whose dependency holds in the end runs; no
    /// throttled array runs more tasks than its throttle at once; and two
    /// `singleton` jobs of one user and name never overlap. With
    /// `kill_invalid_depend`, a job whose dependency failed is cancelled:
    /// it has ended, not OK, for the jobs that depend on it.
    #[test]
    fn dependencies_and_throttles_hold_in_every_schedule(
        shapes in proptest::collection::vec(
            (0i64..50, 1u32..5, 1i64..200, 1i64..300, 0u8..3, 0usize..5, 0u8..6),
            1..25,
        ),
        backfill in proptest::prelude::any::<bool>(),
        throttle in 0u32..3,
        kill in proptest::prelude::any::<bool>(),
    ) {
        let mut conf = if backfill { ONE_NODE.to_string() } else { ONE_NODE.replace("sched/backfill", "sched/builtin") };
        if kill {
            conf = conf.replace("bf_window=60", "bf_window=60,kill_invalid_depend");
        }
        let mut t = 0;
        let mut jobs = Vec::new();
        for (i, &(gap, cpus, limit, run, end, back, kind)) in shapes.iter().enumerate() {
            t += gap;
            let logged = if end == 0 { Ending::Failed } else { Ending::Completed };
            let mut j = ending(crate::job(i as u64 + 1, t, cpus, limit, run), logged);
            // Kinds 0–3: a dependency on an earlier job; 4: singleton (name 0);
            // 5: a task of array 1000 (1 CPU).
            if kind < 4 && back < i {
                let kinds = [DependKind::After, DependKind::AfterAny, DependKind::AfterOk, DependKind::AfterNotOk];
                j = depends(j, vec![on(kinds[kind as usize], (i - back) as u64)]);
            } else if kind == 4 {
                j = depends(named(j, 0, 0), vec![on(DependKind::Singleton, 0)]);
            } else if kind == 5 {
                j.relations.array = Some(ArrayTask { job: 1000, task: i as u64, throttle });
                j.request.cpus = 1;
            }
            jobs.push(j);
        }
        let mut w = crate::workload(jobs, &["batch"]);
        w.names = vec!["s".into()];
        let sim = run(&conf, &w);
        let o = &sim.outcomes;
        let ok = |k: usize| {
            let j = &w.jobs[k];
            j.run_time <= j.time_limit.unwrap() && j.logged.as_ref().unwrap().ending == Ending::Completed
        };
        let index = |id: u64| (id - 1) as usize;
        // Jobs depend on earlier ones only: whether each was cancelled for a
        // failed dependency, in order.
        let mut cancelled = vec![false; w.jobs.len()];
        for (k, j) in w.jobs.iter().enumerate() {
            let Some(d) = &j.relations.dependency else { continue };
            let p = d.on[0];
            if p.kind == DependKind::Singleton {
                continue;
            }
            let target = index(p.job);
            let ended = o[target].end >= 0 || cancelled[target];
            let ran_ok = o[target].end >= 0 && ok(target);
            let holds = match p.kind {
                DependKind::After => o[target].start >= 0 || cancelled[target],
                DependKind::AfterAny => ended,
                DependKind::AfterOk => ran_ok,
                _ => ended && !ran_ok,
            };
            let failed = match p.kind {
                DependKind::AfterOk => ended && !ran_ok,
                DependKind::AfterNotOk => ran_ok,
                _ => false,
            };
            cancelled[k] = kill && failed;
            proptest::prop_assert!(!(holds && failed));
            proptest::prop_assert_eq!(o[k].start >= 0, holds, "job {} ({:?} on {})", j.id, p.kind, p.job);
            if o[k].start >= 0 {
                let after = if p.kind == DependKind::After { o[target].start } else { o[target].end };
                proptest::prop_assert!(o[k].start >= after, "job {} started at {} before {}", j.id, o[k].start, after);
            }
        }
        // Every job without a dependency runs.
        for (k, j) in w.jobs.iter().enumerate() {
            if j.relations.dependency.is_none() {
                proptest::prop_assert!(o[k].start >= 0, "job {} never ran", j.id);
            }
        }
        let overlap = |a: usize, b: usize| o[a].start < o[b].end && o[b].start < o[a].end;
        let tasks: Vec<usize> = (0..w.jobs.len()).filter(|&k| w.jobs[k].relations.array.is_some()).collect();
        if throttle > 0 {
            for &k in &tasks {
                let at_once = tasks.iter().filter(|&&m| o[m].start <= o[k].start && o[k].start < o[m].end).count();
                proptest::prop_assert!(at_once <= throttle as usize, "{} tasks at {}", at_once, o[k].start);
            }
        }
        let singles: Vec<usize> = (0..w.jobs.len()).filter(|&k| w.jobs[k].relations.name.is_some()).collect();
        for &a in &singles {
            proptest::prop_assert!(o[a].start >= 0);
            for &b in &singles {
                proptest::prop_assert!(a == b || !overlap(a, b), "singletons {} and {} overlap", a, b);
            }
        }
    }
}

/// `kill_invalid_depend`, and the job's `--kill-on-invalid-dep`: J1 (4
/// CPUs, 0–100) FAILS; J2 (alice, `x`, `afterok:1`, submitted at 1) can
/// never run; J3 (`afterany:2`, at 2) waits for J2's end; J4 (alice, `x`,
/// `singleton`, at 3) waits while J2, of the same user and name and a
/// smaller id, is pending. One CPU and 10 s each.
/// - Kept pending (Slurm's default): J2 never ends, so J3 and J4 never
///   start either.
/// - Cancelled: at 100, J1's end's pass finds J2's dependency failed and
///   cancels it (`_kill_dependent`), then tests J3 (J2 ended) and J4 (J2
///   no longer pending), in submission order: both start at 100.
/// - The job's option wins over the cluster's setting, both ways.
#[test]
fn a_job_whose_dependency_failed_is_cancelled_with_kill_invalid_depend() {
    let w = |kill: Option<bool>| {
        let mut j2 = depends(named(crate::job(2, 1, 1, 10, 10), 0, 0), vec![on(DependKind::AfterOk, 1)]);
        j2.relations.kill_on_invalid_dep = kill;
        let mut w = crate::workload(
            vec![
                ending(crate::job(1, 0, 4, 100, 100), Ending::Failed),
                j2,
                depends(crate::job(3, 2, 1, 10, 10), vec![on(DependKind::AfterAny, 2)]),
                depends(named(crate::job(4, 3, 1, 10, 10), 0, 0), vec![on(DependKind::Singleton, 0)]),
            ],
            &["batch"],
        );
        w.names = vec!["x".into()];
        w
    };
    let kill_conf = ONE_NODE.replace("bf_window=60", "bf_window=60,kill_invalid_depend");
    assert_ne!(kill_conf, ONE_NODE, "the test conf names its scheduler");
    let pending = run(ONE_NODE, &w(None));
    assert_eq!(starts(&pending), [0, -1, -1, -1]);
    assert_eq!(pending.waits[1], Some(Wait::DependencyNeverSatisfied));
    let cancelled = run(&kill_conf, &w(None));
    assert_eq!(starts(&cancelled), [0, -1, 100, 100]);
    assert_eq!(cancelled.waits[1], Some(Wait::DependencyNeverSatisfied));
    assert_eq!(starts(&run(ONE_NODE, &w(Some(true)))), [0, -1, 100, 100]);
    assert_eq!(starts(&run(&kill_conf, &w(Some(false)))), [0, -1, -1, -1]);
}
