//! The library's tests, one module per module of `slasim_grid`.

mod algorithm;
mod config;
mod cost;
mod metrics;
mod request;
mod resort;
mod search;
mod tree;
mod workload;

#[test]
fn the_descriptors_are_what_the_tables_history_made() {
    let registry =
        slasim_core::experiment::registry::Registry::new(&[&slasim_single::KIND, &slasim_grid::KIND]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let described: Vec<&str> = slasim_grid::tables::tables().iter().map(|t| t.name()).collect();
    assert_eq!(described, ["grid_points", "coreservations", "subreservations", "cluster_runs"]);
    let path = dir.path().join("g.sqlite");
    let mismatches =
        slasim_core::store::schema::facts::history_mismatches(&path, registry.groups(), &described).unwrap();
    assert_eq!(mismatches, Vec::<String>::new());
}

/// A sorted rank per report section and part: no two columns share one.
#[test]
fn report_ranks_are_unique() {
    assert_eq!(slasim_grid::tables::GRID_POINTS.shared_ranks(), Vec::<String>::new());
    assert_eq!(slasim_grid::tables::CLUSTER_RUNS.shared_ranks(), Vec::<String>::new());
}
