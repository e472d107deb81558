//! The per-job fidelity measures, worked out by hand.

use slasim_slurm::fidelity::{Starts, fidelity, ks_distance};

fn job(submit: i64, reference: i64, other: i64) -> Starts {
    Starts { submit, reference, other_submit: submit, other }
}

/// Four jobs submitted at 0:
///
/// | job | reference start | other start | difference |
/// |-----|-----------------|-------------|------------|
/// | a   | 10              | 10          | 0          |
/// | b   | 20              | 24          | +4         |
/// | c   | 30              | 90          | +60        |
/// | d   | 40              | 35          | −5         |
///
/// Within 5 s: a, b, d (3); within 60 s: all 4.
/// Pairs (6): (a,b) (a,c) (a,d) (b,c) (b,d) concordant; (c,d) discordant
/// (c before d in the reference, after it in the other): τ = (5 − 1)/6 = 2/3.
/// Waits are the starts: reference {10, 20, 30, 40}, other {10, 24, 35, 90}.
/// Their distribution functions differ most just after 30: 3/4 against 2/4
/// (and after 20: 2/4 against 1/4): D = 1/4.
#[test]
fn four_jobs_worked_out_by_hand() {
    let f = fidelity(&[job(0, 10, 10), job(0, 20, 24), job(0, 30, 90), job(0, 40, 35)]);
    assert_eq!((f.jobs, f.within_5, f.within_60), (4, 3, 4));
    assert!((f.tau_b.unwrap() - 2.0 / 3.0).abs() < 1e-12, "{:?}", f.tau_b);
    assert_eq!(f.ks_wait, 0.25);
}

/// Waits are each schedule's start less its own submission: the same waits
/// logged at other submissions are at distance 0.
#[test]
fn waits_are_taken_from_each_schedules_own_submission() {
    let shifted = |submit: i64, wait: i64| Starts {
        submit,
        reference: submit + wait,
        other_submit: submit + 7,
        other: submit + 7 + wait,
    };
    let f = fidelity(&[shifted(0, 5), shifted(10, 50), shifted(20, 0)]);
    assert_eq!(f.ks_wait, 0.0);
    assert_eq!(f.within_5, 0);
    assert_eq!(f.within_60, 3);
    assert_eq!(f.tau_b, Some(1.0));
}

/// τ-b is undefined for one job or when one schedule ties every start;
/// ties elsewhere count as τ-b counts them.
#[test]
fn ties_and_degenerate_cases() {
    assert_eq!(fidelity(&[job(0, 1, 1)]).tau_b, None);
    assert_eq!(fidelity(&[job(0, 1, 5), job(0, 2, 5), job(0, 3, 5)]).tau_b, None);
    // Reference 1, 2, 3; other 1, 1, 2: pairs (a,b) tied in the other, (a,c)
    // and (b,c) concordant. τ-b = 2 / sqrt(3 · 2).
    let tau = fidelity(&[job(0, 1, 1), job(0, 2, 1), job(0, 3, 2)]).tau_b.unwrap();
    assert!((tau - 2.0 / 6f64.sqrt()).abs() < 1e-12, "{tau}");
    let none = fidelity(&[]);
    assert_eq!((none.jobs, none.tau_b, none.ks_wait), (0, None, 0.0));
}

/// D of samples of different sizes, sorted in place.
#[test]
fn ks_distance_of_unequal_samples() {
    // a: 1, 2, 3; b: 2, 4. After 1: 1/3 − 0; after 2: 2/3 − 1/2; after 3:
    // 1 − 1/2 = 1/2; after 4: 0. D = 1/2.
    let (mut a, mut b) = (vec![3, 1, 2], vec![4, 2]);
    assert_eq!(ks_distance(&mut a, &mut b), 0.5);
    assert_eq!(a, vec![1, 2, 3]);
    assert_eq!(ks_distance(&mut [], &mut [1]), 0.0);
}
