//! Each behaviour's pick in a hand-checked state.

use crate::unit::pick::table;
use slasim_gym::pick::reward::Score;
use slasim_gym::pick::{Episode, Options, PickJobs};
use slasim_gym::record::behaviour::behaviour;

/// Four nodes. A (t=0, 100 s, 4 nodes) fills the machine; B (t=10, 2
/// nodes) is picked and waits for A's end at 100, while C (t=20, 1 node,
/// asks 400 s) and D (t=30, 2 nodes, asks 40 s) arrive. At 100 B starts, and
/// C and D wait together: the state the behaviours are asked about.
fn two_waiting(backfill: bool) -> PickJobs {
    let table = table(4, &[(0, 100, 4, 100), (10, 50, 2, 300), (20, 10, 1, 400), (30, 20, 2, 40)]);
    let options =
        Options { episode: Episode::WholeLog, ..Options::rlscheduler(backfill, false, Score::BoundedSlowdown) };
    let mut env = PickJobs::new(table, options).unwrap();
    env.reset(None).unwrap();
    env.step(0).unwrap(); // A
    assert_eq!(env.visible(), &[1]);
    env.step(0).unwrap(); // B, which starts at 100
    assert_eq!(env.now(), 100);
    let mut visible = env.visible().to_vec();
    visible.sort_unstable();
    assert_eq!(visible, [2, 3], "C and D wait");
    env
}

/// The job (table position) `name` picks in [`two_waiting`].
fn pick(name: &str) -> u32 {
    let behaviour = behaviour(name).unwrap();
    let env = two_waiting(behaviour.backfill().unwrap_or(false));
    env.visible()[behaviour.choose(&env, &behaviour.begin(&env).unwrap())]
}

#[test]
fn fcfs_picks_the_first_submitted() {
    assert_eq!(pick("fcfs"), 2, "C (t=20) before D (t=30)");
}

#[test]
fn sjf_picks_the_shortest_request() {
    assert_eq!(pick("sjf"), 3, "D asks 40 s, C 400 s");
}

#[test]
fn f1_picks_the_smallest_score() {
    // C: log10(400)·1 + 870·log10(20) = 2.60 + 1131.87 = 1134.47;
    // D: log10(40)·2 + 870·log10(30) = 3.20 + 1285.06 = 1288.26.
    assert_eq!(pick("f1"), 2);
}

#[test]
fn easy_is_fcfs_with_backfilling() {
    let easy = behaviour("easy").unwrap();
    assert_eq!(easy.backfill(), Some(true));
    assert_eq!(pick("easy"), 2);
    assert_eq!(behaviour("fcfs").unwrap().backfill(), None);
}

#[test]
fn slurm_picks_the_twins_first_start() {
    // The twin's priorities (age and job-size weights 1000, PriorityMaxAge
    // one day, PriorityFavorSmall=NO): job size is the mean of the node and
    // CPU shares, so B and D (2 of 4 nodes) get 500 plus a fraction of a
    // point of age, C (1 node) 250. When A ends at 100, B and D start on
    // the four nodes; C waits for D's end at 120.
    let env = two_waiting(false);
    let plan = behaviour("slurm").unwrap().begin(&env).unwrap();
    assert_eq!(plan.rank, [0, 100, 120, 100], "the twin's starts of A, B, C, D");
    assert_eq!(pick("slurm"), 3, "D, which FCFS and F1 leave for C");
}

#[test]
fn slurm_gives_a_job_logged_without_processors_one_node() {
    // B is logged with −1 processors (as KTH-SP2's job 27313): the
    // environment gives it no node, the twin one. On two nodes A (2 nodes,
    // until 100) holds the machine, so B starts when A ends, then C.
    let table = table(2, &[(0, 100, 2, 100), (10, 50, -1, 60), (20, 10, 1, 10)]);
    assert_eq!(table.nodes[1], -1, "the environment's, as RLScheduler's");
    let options = Options { episode: Episode::WholeLog, ..Options::rlscheduler(false, false, Score::BoundedSlowdown) };
    let mut env = PickJobs::new(table, options).unwrap();
    env.reset(None).unwrap();
    let plan = behaviour("slurm").unwrap().begin(&env).unwrap();
    assert_eq!(plan.rank, [0, 100, 100], "the twin's starts of A, B, C");
}
