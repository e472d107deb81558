//! The controller's per-pass limits and partition limits, by hand.

use std::path::Path;

use slasim_core::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::parse;

use crate::ONE_NODE;

fn run(conf: &str, w: &SlurmWorkload) -> Simulated {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let scenario =
        Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), w).expect("every job is admitted");
    simulate(scenario).expect("the run ends")
}

fn starts(sim: &Simulated) -> Vec<(i64, i64)> {
    sim.outcomes.iter().map(|o| (o.start, o.end)).collect()
}

/// On the 4-CPU node (FIFO priorities, backfill every 10 s): alice's J1
/// (2 CPUs) runs 0–100; alice's J2 (4 CPUs, limit 100) at 1 blocks the
/// partition; alice's J3 and bob's J4 (2 CPUs, limit 50, run 40) at 2 and 3.
/// - Backfill at 10, no cap: J2 reserves the node for [100, 200); J3 fits
///   and ends by 60: it starts. J4 no longer fits, and from 60 it would
///   cross J2's reservation: it waits for 200.
/// - `bf_max_job_user=1`: J2 is alice's one test of the pass, so J3 is
///   skipped; bob's J4 is tested and starts at 10. J3 waits for J2's end.
/// - `bf_max_job_part=1`: J2 is the partition's one test: J3 and J4 both
///   wait for 200.
/// - `bf_max_job_user=1` and `bf_max_job_test=2`: as `bf_max_job_user=1`.
fn capped_jobs() -> SlurmWorkload {
    crate::workload(
        vec![
            crate::job(1, 0, 2, 100, 100),
            crate::job(2, 1, 4, 100, 100),
            crate::job(3, 2, 2, 50, 40),
            SlurmJob { user: 1, ..crate::job(4, 3, 2, 50, 40) },
        ],
        &["batch"],
    )
}

#[test]
fn bf_max_job_user_and_part_cap_the_jobs_a_pass_tests() {
    let w = capped_jobs();
    let sim = run(ONE_NODE, &w);
    assert_eq!(starts(&sim), [(0, 100), (100, 200), (10, 50), (200, 240)]);
    assert_eq!(sim.counters.bf_max_job_skips, 0);
    let user = ONE_NODE.replace("bf_window=60", "bf_window=60,bf_max_job_user=1");
    let sim = run(&user, &w);
    assert_eq!(starts(&sim), [(0, 100), (100, 200), (200, 240), (10, 50)]);
    assert!(sim.counters.bf_max_job_skips >= 2, "J3 skipped in the passes at 10 and 60");
    let part = ONE_NODE.replace("bf_window=60", "bf_window=60,bf_max_job_part=1");
    let sim = run(&part, &w);
    assert_eq!(starts(&sim), [(0, 100), (100, 200), (200, 240), (200, 240)]);
    // `bf_max_job_test=2` counts only the jobs that reach the will-run test:
    // J2 and bob's J4; alice's J3, skipped before it, does not count, so J4
    // still starts at 10 (counting J3, the pass would stop before J4).
    let both = ONE_NODE.replace("bf_window=60", "bf_window=60,bf_max_job_user=1,bf_max_job_test=2");
    assert_eq!(starts(&run(&both, &w)), [(0, 100), (100, 200), (200, 240), (10, 50)]);
}

/// Partition `batch` with MaxTime=1 (60 s): J1 asks 120 s, J2 60 s. J1
/// never starts: held (`PartitionTimeLimit`) by default, rejected at
/// submission with `EnforcePartLimits=ALL`. J2 starts at 0 either way.
#[test]
fn a_job_over_its_partition_max_time_never_starts() {
    let conf = ONE_NODE.replace("MaxTime=UNLIMITED", "MaxTime=1");
    let w = crate::workload(vec![crate::job(1, 0, 1, 120, 10), crate::job(2, 0, 1, 60, 10)], &["batch"]);
    let sim = run(&conf, &w);
    assert_eq!(starts(&sim), [(-1, -1), (0, 10)]);
    assert_eq!((sim.counters.partition_time_limit, sim.counters.partition_rejected), (1, 0));
    let sim = run(&format!("{conf}EnforcePartLimits=ALL\n"), &w);
    assert_eq!(starts(&sim), [(-1, -1), (0, 10)]);
    assert_eq!((sim.counters.partition_time_limit, sim.counters.partition_rejected), (0, 1));
}
