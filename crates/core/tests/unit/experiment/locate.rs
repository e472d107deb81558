use slasim_core::experiment::locate::*;

/// An array-of-tables entry's error is moved from the array to the
/// entry, at the key it names.
#[test]
fn an_entry_of_an_array_of_tables_is_located_at_its_key() {
    let text = "[energy]\nidle_watts = 1.0\n\n[[energy.pstates]]\nspeed = 1.0\n\n[[energy.pstates]]\nspeed = 0.5\nbusy_watts = -3.0\n\n[signals]\nregion = \"DE-LU\"\n";
    let loc = Locator { file: "c.toml", text };
    let at = loc.entry_named("energy.pstates[1]: `busy_watts` = -3: must be 0 or more").expect("found");
    assert_eq!(line_col(text, at), (9, 1));
    let at = loc.entry_named("energy.pstates[0]: `speed` = 2: speeds are relative to pstate 0").expect("found");
    assert_eq!(line_col(text, at), (5, 1));
    // No such entry, no entry form, another table: not moved.
    assert_eq!(loc.entry_named("energy.pstates[2]: `speed`"), None);
    assert_eq!(loc.entry_named("energy.pstates: 17 pstates"), None);
    assert_eq!(loc.entry_named("signals[0]: `region`"), None);
}
