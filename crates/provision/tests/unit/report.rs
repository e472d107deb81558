use slasim_provision::report::*;

#[test]
fn ch3_slot_counts_are_the_exact_estimate_runs_of_ctc_and_sdsc() {
    assert_eq!(ch3_slots("CTC-SP2-1996-3.1-cln", true), Some((27.0, 63.0)));
    assert_eq!(ch3_slots("SDSC-SP2-1998-4.2-cln", true), Some((14.0, 70.0)));
    assert_eq!(ch3_slots("SDSC-SP2-1998-4.2-cln", false), None);
    assert_eq!(ch3_slots("SDSC-BLUE-2000-4.2-cln", true), None);
}
