use slasim_single::workload::failure_law::*;

const LAMBDA_H: f64 = 1.2904e-4;
const MU_H: f64 = 0.4333;

#[test]
fn exponential_survival_is_e_to_minus_lambda_t() {
    let law = FailureLaw::exponential(LAMBDA_H / 3600.0).unwrap();
    // Spec §3.4 table: S(1 h) for one node = 0.99987, S(10 h) = 0.99871.
    assert!((law.survival(3600.0) - 0.999_870_968).abs() < 1e-9);
    assert!((law.survival(36_000.0) - 0.998_710_432).abs() < 1e-9);
    // 32 nodes, 10 h: e^(−32·λ·10) = 0.95955.
    assert!((law.survival(36_000.0).powi(32) - 0.959_55).abs() < 1e-5);
    assert_eq!(law.survival(0.0), 1.0);
    assert!((law.mean() - 3600.0 / LAMBDA_H).abs() < 1e-6);
}

#[test]
fn availability_matches_the_spec_table() {
    let a = availability(LAMBDA_H, MU_H);
    assert!((a - 0.999_702).abs() < 1e-6);
    assert!((a.powi(32) - 0.990_52).abs() < 1e-5);
    assert!((a.powi(1024) - 0.737_19).abs() < 1e-5);
}

#[test]
fn weibull_survival_and_mean() {
    // α = 1 is the exponential law with rate 1/β.
    let w = FailureLaw::weibull(1.0, 100.0).unwrap();
    assert!((w.survival(50.0) - (-0.5f64).exp()).abs() < 1e-15);
    assert!((w.mean() - 100.0).abs() < 1e-9);
    // α = 2, β = 10: S(5) = e^(−0.25); mean = 10·Γ(1.5) = 5√π.
    let w = FailureLaw::weibull(2.0, 10.0).unwrap();
    assert!((w.survival(5.0) - (-0.25f64).exp()).abs() < 1e-15);
    assert!((w.mean() - 5.0 * std::f64::consts::PI.sqrt()).abs() < 1e-12);
}

#[test]
fn hyper_exponential_survival_and_mean() {
    let h = FailureLaw::hyper_exponential(&[0.25, 0.75], &[0.5, 0.01]).unwrap();
    let t = 10.0;
    let expect = 0.25 * (-5.0f64).exp() + 0.75 * (-0.1f64).exp();
    assert!((h.survival(t) - expect).abs() < 1e-15);
    assert!((h.mean() - (0.25 / 0.5 + 0.75 / 0.01)).abs() < 1e-9);
}

#[test]
fn bad_parameters_name_the_parameter() {
    assert_eq!(FailureLaw::exponential(0.0).unwrap_err().setting, "lambda");
    assert_eq!(FailureLaw::exponential(-1.0).unwrap_err().setting, "lambda");
    assert_eq!(FailureLaw::weibull(1.0, f64::NAN).unwrap_err().setting, "scale");
    assert_eq!(FailureLaw::hyper_exponential(&[0.5, 0.4], &[1.0, 1.0]).unwrap_err().setting, "probabilities");
    assert_eq!(FailureLaw::hyper_exponential(&[0.5, 0.5], &[1.0, 0.0]).unwrap_err().setting, "lambdas");
}
