use slasim_sim::units::Time;
use slasim_slurm::cli::*;

fn job(logged: Time, simulated: Time) -> Compared<'static> {
    Compared { id: 0, submit: 0, logged, simulated, backfilled: false, logged_nodes: "", simulated_node: "" }
}

/// The sorted test agrees with the definition, pair by pair.
#[test]
fn in_order_is_the_pairwise_definition() {
    let jobs: Vec<Compared> = [(0, 0), (5, 20), (10, 10), (12, 3), (40, 41), (41, 40), (60, 100), (80, 70)]
        .iter()
        .map(|&(l, s)| job(l, s))
        .collect();
    for tolerance in [0, 1, 5, 10, 30] {
        let pairwise: Vec<bool> = jobs
            .iter()
            .map(|a| {
                !jobs.iter().any(|b| {
                    let (real, sim) = (b.logged - a.logged, b.simulated - a.simulated);
                    (real > tolerance && sim < 0) || (real < -tolerance && sim > 0)
                })
            })
            .collect();
        assert_eq!(in_order(&jobs, tolerance), pairwise, "tolerance {tolerance}");
    }
}
