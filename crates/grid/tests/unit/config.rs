use slasim_grid::config::*;

#[test]
fn defaults_are_the_thesis_and_bad_values_name_the_setting() {
    let c = GridConfig::default();
    assert!(c.validate().is_ok());
    assert_eq!(c.t_stop(), 1_209_600);
    let bad = |f: fn(&mut GridConfig)| {
        let mut c = GridConfig::default();
        f(&mut c);
        c.validate().unwrap_err().setting
    };
    assert_eq!(bad(|c| c.clusters = 0), "grid.clusters");
    assert_eq!(bad(|c| c.clusters = 65), "grid.clusters");
    assert_eq!(bad(|c| c.algorithm = "a9".into()), "grid.algorithm");
    assert_eq!(bad(|c| c.minsize = 0), "grid.minsize");
    assert_eq!(bad(|c| c.starts = 0), "grid.starts");
    assert_eq!(bad(|c| c.requests.start_weight = 1.5), "grid.requests.start_weight");
    assert_eq!(bad(|c| c.windows.days = 0.0), "grid.windows.days");
}
