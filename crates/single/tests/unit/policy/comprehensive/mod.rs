mod shortened;

use slasim_single::cluster::strategy::Placement;
use slasim_single::plan::NodeBooking;
use slasim_single::policy::comprehensive::backfilling::ComprehensiveBackfilling;
use slasim_single::policy::comprehensive::*;
use slasim_single::stats::pos::Reliability;
use slasim_single::workload::failure_law::FailureLaw;

fn reliability() -> Reliability {
    let lambda = 1.2904e-4 / 3600.0;
    Reliability::new(lambda, 0.4333 / 3600.0, FailureLaw::exponential(lambda).unwrap())
}

/// Nodes 0–1 free forever, node 2 booked from 5 h, node 3 from 3 h: a 2-h
/// job on two nodes at t = 0 fits everywhere. First fit takes the lowest ids
/// {0, 1}; best fit the tightest {2, 3} (smallest free-until), keeping the
/// long free stretches for long jobs.
#[test]
fn first_fit_takes_lowest_ids_best_fit_the_tightest_nodes() {
    let hour = slasim_core::units::HOUR;
    for (placement, expected) in [(Placement::FirstFit, vec![0, 1]), (Placement::BestFit, vec![2, 3])] {
        let mut s = Comprehensive::<ComprehensiveBackfilling>::new(4, placement, reliability(), None);
        s.plan_mut().reserve(&[2], NodeBooking { start: 5 * hour, end: 6 * hour, job: 90 });
        s.plan_mut().reserve(&[3], NodeBooking { start: 3 * hour, end: 4 * hour, job: 91 });
        assert!(s.choose_full(0, 2 * hour, 2));
        assert_eq!(s.chosen(), expected, "{placement}");
        // Node 3 is free only until 3 h: a 4-h job cannot use it.
        assert!(s.choose_full(0, 4 * hour, 3));
        assert!(!s.chosen().contains(&3), "{placement}");
        assert!(!s.choose_full(0, 4 * hour, 4));
    }
}
