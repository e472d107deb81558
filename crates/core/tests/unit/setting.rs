use slasim_core::setting::*;

#[test]
fn domains() {
    assert_eq!(positive("x", 2.0), Ok(2.0));
    assert_eq!(
        positive("lambda", 0.0).unwrap_err().to_string(),
        "setting `lambda` = 0: must be a positive, finite number"
    );
    assert!(positive("x", f64::NAN).is_err());
    assert!(positive("x", f64::INFINITY).is_err());
    assert!(probability("p", 1.0).is_ok() && probability("p", -0.1).is_err());
    assert!(at_least_one("n", 0u32).is_err() && at_least_one("n", 1usize).is_ok());
    assert_eq!(positive("a", -1.0).unwrap_err().renamed("b").setting, "b");
}
