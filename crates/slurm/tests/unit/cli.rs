use slasim_sim::units::Time;
use slasim_slurm::cli::*;

fn job(logged: Time, simulated: Time) -> Compared<'static> {
    Compared {
        id: 0,
        submit: 0,
        simulated_submit: 0,
        logged,
        simulated,
        backfilled: false,
        logged_nodes: "",
        simulated_node: "",
    }
}

/// A first simulated node is checked against the logged hostlist, and
/// unknown nodes on either side give no answer.
#[test]
fn first_node_logged_reads_the_hostlist() {
    let on = |logged: &'static str, simulated: &'static str| {
        first_node_logged(&Compared { logged_nodes: logged, simulated_node: simulated, ..job(0, 0) })
    };
    assert_eq!(on("cpu1", "cpu1"), Some(true));
    assert_eq!(on("cpu1", "cpu4"), Some(false));
    assert_eq!(on("cpu[01-03,7]", "cpu02"), Some(true));
    assert_eq!(on("cpu[01-03,7]", "cpu7"), Some(true));
    assert_eq!(on("cpu[01-03,7]", "cpu4"), Some(false));
    assert_eq!(on("cpu[1-2],gpu1", "gpu1"), Some(true));
    assert_eq!(on("", "cpu1"), None);
    assert_eq!(on("cpu1", ""), None);
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

/// The Fenwick count agrees with the definition, pair by pair: a pair whose
/// logged starts differ by more than the tolerance is out of order when its
/// simulated starts are in the opposite order.
#[test]
fn pairs_in_order_is_the_pairwise_definition() {
    let jobs: Vec<Compared> =
        [(0, 0), (5, 20), (10, 10), (12, 3), (40, 41), (41, 40), (60, 100), (80, 70), (80, 70), (81, 0), (3, 3)]
            .iter()
            .map(|&(l, s)| job(l, s))
            .collect();
    for tolerance in [0, 1, 5, 10, 30, 100] {
        let (mut in_order, mut compared) = (0, 0);
        for (i, a) in jobs.iter().enumerate() {
            for b in &jobs[i + 1..] {
                let (real, sim) = (b.logged - a.logged, b.simulated - a.simulated);
                if real.abs() > tolerance {
                    compared += 1;
                    in_order += u64::from(real.signum() * sim.signum() >= 0);
                }
            }
        }
        assert_eq!(pairs_in_order(&jobs, tolerance), (in_order, compared), "tolerance {tolerance}");
    }
    // Hand-checked at tolerance 5: of the 5 jobs logged at 0, 10, 20, 30 and
    // 40, the one simulated first (logged 30, simulated −1) is out of order
    // with the 3 logged before it; 10 pairs, 7 in order.
    let five: Vec<Compared> =
        [(0, 0), (10, 10), (20, 20), (30, -1), (40, 40)].iter().map(|&(l, s)| job(l, s)).collect();
    assert_eq!(pairs_in_order(&five, 5), (7, 10));
}
