use slasim_core::report::summary::additional_percent;
use slasim_single::report::reference::*;

#[test]
fn labels_map_to_the_dissertation_traces() {
    assert_eq!(dissertation_trace("CTC-SP2-1996-3.1-cln"), Some("CTC"));
    assert_eq!(dissertation_trace("SDSC-DS-2004-2.1-cln"), Some("SDSC-DataStar"));
    assert_eq!(dissertation_trace("SDSC-SP2-1998-4.2-cln"), Some("SDSC-SP2"));
    assert_eq!(dissertation_trace("KTH-SP2-1996-2.1-cln"), None);
    assert_eq!(pof_result("KTH-SP2-1996-2.1-cln", CB, "runtime"), None);
    assert_eq!(pof_result("CTC-SP2-1996-3.1-cln", "shortened-backfilling", "runtime"), None);
}

#[test]
fn tables_read_as_printed() {
    let r = pof_result("CTC-SP2-1996-3.1-cln", CO, "resources").unwrap();
    assert_eq!(r, PofResult { gain: 23_110.0, pof_max: Some(0.6), additional_pct: Some(62.0) });
    assert_eq!(pof_result("CTC-SP2-1996-3.1-cln", CB, "runtime").unwrap().pof_max, None);
    assert_eq!(risk_result("LANL-CM5-1994-4.1-cln", HO, "resources", 4.0), Some(2_342.0));
    assert_eq!(risk_result("SDSC-SP2-1998-4.2-cln", HO, "resources", 0.5), Some(31_427.0));
    assert_eq!(risk_result("SDSC-SP2-1998-4.2-cln", HO, "resources", 3.0), None);
}

#[test]
fn stated_percentages_match_the_gains() {
    // The printed "plus" is the rounded additional gain over the base's
    // maximum: a typo in a transcribed gain shows up here.
    for (trace, strategy, values) in POF.iter().filter(|r| r.1 == CO || r.1 == HO) {
        let base = if *strategy == CO { CB } else { HP };
        for (k, pdf) in ["runtime", "resources"].iter().enumerate() {
            let base_gain = POF.iter().find(|r| r.0 == *trace && r.1 == base).unwrap().2[k].0;
            let computed = additional_percent(values[k].0, base_gain).unwrap();
            assert!((computed - values[k].2).abs() < 1.0, "{trace} {strategy} {pdf}: {computed} vs {}", values[k].2);
        }
    }
    // The risk tables' bases equal the PoF tables' at ratio 1 (±5 VC).
    for (trace, strategy, gains) in RISK.iter().filter(|r| r.1 == CB || r.1 == HP) {
        let pof = POF.iter().find(|r| r.0 == *trace && r.1 == *strategy).unwrap().2[0].0;
        assert!((gains[0][1] - pof).abs() <= 80.0, "{trace} {strategy}: {} vs {pof}", gains[0][1]);
    }
}
