use slasim_core::metrics::*;

/// The bound: short jobs count as τ long; no job scores below 1.
#[test]
fn bounds_short_jobs_and_never_goes_below_one() {
    assert_eq!(bounded_slowdown(0, 100), 1.0);
    assert_eq!(bounded_slowdown(100, 100), 2.0);
    // A 1 s job that waited 9 s: 10 / 10, not 10 / 1.
    assert_eq!(bounded_slowdown(9, 1), 1.0);
    assert_eq!(bounded_slowdown(0, 0), 1.0);
    assert_eq!(bounded_slowdown(30, 5), 3.5);
    assert_eq!(wait(100, 250), 150);
}

/// The same bits as the three formulas it replaced (summary: integer
/// response; Slurm: f64 sum; gym: RLScheduler's).
#[test]
fn matches_the_formulas_it_replaced() {
    for (submit, start, end) in [(0, 0, 1), (3, 17, 29), (100, 1_000_003, 1_000_007), (7, 7, 86_400 * 365)] {
        let (w, run) = (start - submit, end - start);
        let summary = ((end - submit) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0);
        let ran = run as f64;
        let slurm = ((w as f64 + ran) / ran.max(BOUNDED_SLOWDOWN_TAU as f64)).max(1.0);
        let gym = ((start - submit + run) as f64 / run.max(BOUNDED_SLOWDOWN_TAU) as f64).max(1.0);
        let shared = bounded_slowdown(wait(submit, start), run);
        for old in [summary, slurm, gym] {
            assert_eq!(shared.to_bits(), old.to_bits(), "{submit} {start} {end}");
        }
    }
}
