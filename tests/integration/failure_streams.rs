//! Synthetic failure streams reproduce their model's MTTF and MTTR.

use slasim::single::workload::failures::{FailureSource, empirical_mttf_mttr, synthetic_stream};
use slasim::units::HOUR;

#[test]
fn synthetic_streams_match_lambda_and_mu_within_5_percent() {
    let horizon = 2_000_000 * HOUR;
    for model in ["poisson", "weibull", "hyperexp"] {
        let source = FailureSource::default_for(model).unwrap();
        let (up, repair) = source.laws().unwrap().unwrap();
        let stream = synthetic_stream(&up, &repair, 1000, horizon, 11);
        let (mttf, mttr) = empirical_mttf_mttr(&stream, horizon);
        let (want_f, want_r) = (up.mean(), repair.mean());
        assert!((mttf / want_f - 1.0).abs() < 0.05, "{model}: MTTF {mttf} vs {want_f}");
        assert!((mttr / want_r - 1.0).abs() < 0.05, "{model}: MTTR {mttr} vs {want_r}");
        // λ and μ as rates per hour, as configured.
        if let FailureSource::Poisson { lambda_per_hour, mu_per_hour } = source {
            assert!(((HOUR as f64 / mttf) / lambda_per_hour - 1.0).abs() < 0.05);
            assert!(((HOUR as f64 / mttr) / mu_per_hour - 1.0).abs() < 0.05);
        }
    }
}
