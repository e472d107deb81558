use slasim_core::experiment::registry::find;
use slasim_single::workload::sla::{NO_DEADLINE, SlaInput, SlaTerms, SlaTermsRules};

#[test]
fn qos_classes_by_hand() {
    let rule = find::<SlaTermsRules>("qos-classes").expect("registered");
    let uniform = find::<SlaTermsRules>("uniform").expect("registered");
    // 2 nodes × 3600 s = 2 node-hours; o = 100; settings: factor 2, ratio 1.
    let job = |qos_class| SlaInput {
        occurrence: 100,
        estimate: 3600,
        nodes: 2,
        qos_class,
        deadline_factor: 2.0,
        penalty_ratio: 1.0,
    };
    // LS: d = 100 + 1.25·3600 = 4600; fee 2·2 = 4; penalty 2·4 = 8.
    assert_eq!((rule.terms)(&job(Some("LS"))), SlaTerms { deadline: 4600, fee: 4.0, penalty: 8.0 });
    // BE: no deadline; fee 0.5·2 = 1; penalty 0.
    assert_eq!((rule.terms)(&job(Some("BE"))), SlaTerms { deadline: NO_DEADLINE, fee: 1.0, penalty: 0.0 });
    // Burstable: the settings' terms, d = 100 + 7200; fee 2; penalty 2.
    assert_eq!((rule.terms)(&job(Some("Burstable"))), SlaTerms { deadline: 7300, fee: 2.0, penalty: 2.0 });
    // Guaranteed: d = 100 + 5400; fee 3; penalty 3.
    assert_eq!((rule.terms)(&job(Some("Guaranteed"))), SlaTerms { deadline: 5500, fee: 3.0, penalty: 3.0 });
    // A job without a class: as Burstable, the uniform rule.
    assert_eq!((rule.terms)(&job(None)), (uniform.terms)(&job(None)));
    assert_eq!((uniform.terms)(&job(Some("LS"))), SlaTerms { deadline: 7300, fee: 2.0, penalty: 2.0 });
}

#[test]
fn an_unknown_rule_names_the_valid_ones() {
    let prepare = slasim_single::workload::prepare::PrepareConfig { sla_terms: "gold".into(), ..Default::default() };
    let message = prepare.validate().expect_err("unknown").to_string();
    assert!(
        message.contains("sla_terms") && message.contains("gold") && message.contains("uniform, qos-classes"),
        "{message}"
    );
}
