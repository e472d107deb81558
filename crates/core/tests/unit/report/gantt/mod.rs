mod layout;
mod render;

/// The engine alone has no Gantt source: asking for a chart says so
/// rather than that the run is missing.
#[test]
fn with_no_kind_registered_a_chart_is_refused_for_that_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let registry = slasim_core::experiment::registry::Registry::empty();
    slasim_core::store::Store::open(&db, registry.groups()).unwrap();
    let e = slasim_core::report::gantt::for_run(&registry, &db, 1).unwrap_err().to_string();
    assert!(e.contains("no kind with Gantt charts is registered"), "{e}");
}
