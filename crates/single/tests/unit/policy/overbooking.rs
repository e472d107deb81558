use slasim_single::policy::overbooking::*;
use slasim_single::stats::pdf::PdfConfig;
use slasim_single::workload::job::Job;

#[test]
fn only_uncensored_ends_teach_online_pdfs() {
    let job = |runtime| Job::without_sla(0, 0, 1, 100, runtime);
    assert!(Overbooking::observable(&job(50), 80));
    assert!(Overbooking::observable(&job(150), 100));
    assert!(!Overbooking::observable(&job(90), 80));
}

#[test]
fn pof_test_is_strict() {
    // Binary-exact values: PoF = 0.125 is not below PoF_max = 0.125.
    let t = Acceptance::Pof { max: 0.125 };
    assert!(t.accepts(0.9375, 1.0, 1.0));
    assert!(!t.accepts(0.875, 1.0, 1.0));
    assert!(Acceptance::Pof { max: 1.0 }.accepts(0.001, 1.0, 1.0));
    assert!(!Acceptance::Pof { max: 1.0 }.accepts(0.0, 1.0, 1.0));
}

/// Spec §4: with penalty = ratio·fee the risk test is PoF < 1/(1 + ratio·SF).
#[test]
fn risk_test_is_a_pof_threshold() {
    for (ratio, sf) in [(0.5, 2.0), (1.0, 2.0), (2.0, 4.0), (4.0, 4.0)] {
        let threshold = 1.0 / (1.0 + ratio * sf);
        let t = Acceptance::Risk { security_factor: sf };
        let fee = 7.5;
        for pof in [0.0, threshold - 1e-9, threshold + 1e-9, 0.5, 0.99] {
            assert_eq!(t.accepts(1.0 - pof, fee, ratio * fee), pof < threshold, "ratio {ratio}, SF {sf}, PoF {pof}");
        }
    }
}

#[test]
fn settings_outside_their_domain_name_the_setting() {
    let bad = |c: OverbookingConfig| c.validate().unwrap_err().setting;
    assert_eq!(bad(OverbookingConfig { pof_max: 1.5, ..Default::default() }), "pof_max");
    assert_eq!(bad(OverbookingConfig { pof_max: -0.1, ..Default::default() }), "pof_max");
    assert_eq!(bad(OverbookingConfig { lambda_per_hour: 0.0, ..Default::default() }), "lambda_per_hour");
    assert_eq!(bad(OverbookingConfig { mu_per_hour: -1.0, ..Default::default() }), "mu_per_hour");
    assert_eq!(bad(OverbookingConfig { security_factor: Some(0.0), ..Default::default() }), "security_factor");
    let pdf = PdfConfig { step_seconds: 0, ..PdfConfig::default() };
    assert_eq!(bad(OverbookingConfig { pdf, ..Default::default() }), "step_seconds");
}
