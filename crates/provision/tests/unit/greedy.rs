use slasim_core::units::HOUR;
use slasim_core::units::Time;
use slasim_provision::greedy::*;
use slasim_provision::pricing::{Policy, Snapshot};
use slasim_provision::workflow::Workflow;

const H: Time = HOUR;

fn empty(capacity: u32) -> Snapshot {
    Snapshot { now: 0, capacity, ..Snapshot::default() }
}

/// §13 item 11 (i): a 2-task chain on an empty 5-processor site is reserved
/// back to back at its ready times with f = 0 for every α: AC = BE AC,
/// makespan = critical path.
#[test]
fn a_chain_on_an_empty_site_runs_back_to_back_at_the_best_effort_cost() {
    let wf = Workflow::parse("a 3600 2\nb 7200 3 a\n", "chain").expect("valid");
    for alpha in [0.0, 0.5, 1.0] {
        let g = provision_greedy(&wf, 0, &[empty(5)], Policy::Conservative, 1.0, alpha).unwrap().unwrap();
        assert_eq!(g.makespan, 3 * H);
        assert_eq!(g.cost, wf.best_effort_cost() as f64);
        assert_eq!((g.tasks[0].start, g.tasks[1].start), (0, H));
        assert!(g.tasks.iter().all(|t| t.f == 0.0));
    }
}

/// §13 item 11 (ii): one 3 × 2 h task at 0 on the Fig. 1 site (A–D queued):
/// offers s = 0, 2, 3, 4, 6 h with f = 2, 7, 14, 6, 0 proc-hours, finish 2,
/// 4, 5, 6, 8 h, cost 3·2 + f = 8, 13, 20, 12, 6. α = 0 ⇒ s = 0; α = 1 ⇒ s =
/// 6 (cost = the best-effort 6); α = 0.5: scores 0.071, 0.417, 0.75, 0.548,
/// 0.5 ⇒ s = 0.
#[test]
fn one_task_on_the_figure_1_site() {
    let site = Snapshot { queue: vec![(2, 3 * H), (4, H), (1, 2 * H), (3, 2 * H)], ..empty(5) };
    let wf = Workflow::parse("x 7200 3\n", "one").expect("valid");
    let pick = |alpha| {
        let g = provision_greedy(&wf, 0, std::slice::from_ref(&site), Policy::Conservative, 1.0, alpha);
        let t = g.unwrap().unwrap().tasks[0];
        (t.start / H, t.f / H as f64, t.cost / H as f64)
    };
    assert_eq!(pick(0.0), (0, 2.0, 8.0));
    assert_eq!(pick(1.0), (6, 0.0, 6.0));
    assert_eq!(pick(0.5), (0, 2.0, 8.0));
    assert!(provision_greedy(&wf, 0, &[site], Policy::Conservative, 1.0, -0.1).is_err());
}

/// Two sites: the less loaded one wins at α = 0 (earlier finish); transfers
/// keep a child on its parent's site when that is as early.
#[test]
fn the_earlier_site_wins_at_alpha_zero() {
    let busy = Snapshot { running: vec![(5, 10 * H)], ..empty(5) };
    let wf = Workflow::parse("a 3600 2\nb 3600 2 a:1800\n", "two").expect("valid");
    let g = provision_greedy(&wf, 0, &[busy, empty(5)], Policy::Conservative, 1.0, 0.0).unwrap().unwrap();
    assert_eq!(g.tasks.iter().map(|t| (t.site, t.start)).collect::<Vec<_>>(), vec![(1, 0), (1, H)]);
    assert_eq!(g.makespan, 2 * H);
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// At α = 1 every task takes an offer with f = 0, so the allocation cost
    /// is the best-effort cost; and every task starts after its parents end.
    #[test]
    fn alpha_one_costs_the_best_effort_cost(
        queue in proptest::collection::vec((1u32..=8, 1i64..=12), 0..10),
        tasks in 1usize..8,
        seed in 0u64..500,
    ) {
        let site = Snapshot { queue: queue.into_iter().map(|(p, e)| (p, e * 600)).collect(), ..empty(8) };
        let wf = slasim_provision::workflow::SyntheticWorkflow {
            tasks, levels: None, mean_runtime: 1200, mean_procs: 3, max_procs: 8, mean_transfer: 0,
        }
        .generate(&mut slasim_core::rng::stream(seed, slasim_provision::streams::WORKFLOWS, 0))
        .expect("valid");
        let g = provision_greedy(&wf, 0, &[site], Policy::Conservative, 1.0, 1.0).unwrap().unwrap();
        proptest::prop_assert_eq!(g.cost, wf.best_effort_cost() as f64);
        for t in &g.tasks {
            for &(p, _) in &wf.tasks()[t.task as usize].parents {
                proptest::prop_assert!(g.tasks[p as usize].end <= t.start);
            }
        }
    }
}
