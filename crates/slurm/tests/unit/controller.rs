//! The controller's per-pass limits and partition limits, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
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

/// Runs that sleep to a 20-s grid from 0 (`RunEnd::AfterGridPoint`), on the
/// 4-CPU node, each job taking it whole: J1 (run 30) starts at 0, whose grid
/// point is 0, and ends at 30. J2 (run 10) starts at 30, a midpoint, so it
/// counts from 40 and ends at 50 (at 40 from its start). J3 (run 10, limit
/// 15) starts at 50, counts from 60, and its limit cuts it at 65.
#[test]
fn a_run_to_the_grid_ends_its_run_time_after_the_grid_point_nearest_its_start() {
    use slasim_slurm::controller::RunEnd;
    let conf = parse(ONE_NODE, Path::new("test.conf")).expect("the test conf parses");
    let w = crate::workload(
        vec![crate::job(1, 0, 4, 100, 30), crate::job(2, 0, 4, 100, 10), crate::job(3, 0, 4, 15, 10)],
        &["batch"],
    );
    let scenario =
        || Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).expect("every job is admitted");
    let grid = RunEnd::AfterGridPoint { origin: 0, period: 20 };
    let sim = simulate(scenario().ending_runs(grid)).expect("the run ends");
    assert_eq!(starts(&sim), [(0, 30), (30, 50), (50, 65)]);
    let sim = simulate(scenario()).expect("the run ends");
    assert_eq!(starts(&sim), [(0, 30), (30, 40), (40, 50)]);
}

/// `RunEnd`'s arithmetic: the nearest grid point (a midpoint to the later
/// one, before the origin too), at least a second's run, and `run_of` the
/// inverse of `end`.
#[test]
fn a_run_end_counts_from_the_nearest_grid_point() {
    use slasim_slurm::controller::RunEnd;
    let grid = RunEnd::AfterGridPoint { origin: 5, period: 20 };
    assert_eq!(grid.end(107, 10), 115, "107 is nearest 105");
    assert_eq!(grid.end(115, 10), 135, "115 is a midpoint: 125");
    assert_eq!(grid.end(-7, 10), -5, "-7 is nearest -15");
    assert_eq!(grid.end(124, -5), 125, "at least a second after the start");
    assert_eq!(grid.run_of(112, 130), 25, "112 is nearest 105");
    assert_eq!(grid.end(112, grid.run_of(112, 130)), 130);
    assert_eq!(RunEnd::AfterStart.end(112, 18), 130);
    assert_eq!(RunEnd::AfterStart.run_of(112, 130), 18);
}
